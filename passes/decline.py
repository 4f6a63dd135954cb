"""A pass declining a rewrite: the op its remark points at, a stable code and a reason.

loop-vectorize's legality predicates and loop-interchange's matcher return one where they
stop, and print it with `remark()` when the pass runs with `remarks=true`: one shape for
every code (`VecReject`, `InterchangeReject`), so a remark always reads
`file:line:col: remark: CODE: reason`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from xdsl.ir import Operation

from loopopt.diagnostics import remark as print_remark


@dataclass(frozen=True)
class Decline:
    """Why a rewrite did not happen: the op at fault, the code and a reason."""

    op: Operation
    code: StrEnum
    reason: str

    def remark(self) -> None:
        print_remark(self.op, self.code.value, self.reason)
