"""Producer → consumer pairs df-fuse would fuse but the df dialect has no fused op for.

Only filter → scan is left: a scan over a filter's new axis is a prefix over the kept
elements, compacted — neither a reduce (`where`) nor a filter (`map`) holds it. It is not
rewritten; with `remarks=true` it is reported as FUSE_REJECT_NO_FUSED_FORM.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation

from loopopt.dialects import df
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import Rejection, where
from loopopt.passes.df_fusion.pattern import producers


def unsupported_fusions(op: Operation) -> Iterator[Rejection]:
    if isinstance(op, df.ScanOp):
        for p in producers(op, (df.FilterOp,)):
            yield Rejection(op, FuseReject.NO_FUSED_FORM,
                            f"filter → scan: {where(p)} feeds it, and df has no filtered scan "
                            f"(a prefix over the kept elements, on the new axis)")
