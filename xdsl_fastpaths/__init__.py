"""Memoized or lighter forms of xDSL 0.74 per-op costs, answering exactly as xDSL does.

A compilation's time is xDSL's per-op machinery spread over every phase (docs/compile_time.md):
building, reading, verifying, walking and parsing ops. Where xDSL recomputes an answer that
cannot have changed, or reaches a field through layers of small calls, the answer is remembered
or the field read directly; anything outside the case a fast path was written for takes xDSL's
own code. One module per part of xDSL it patches, each saying what xDSL does per op, what is remembered
or read directly instead, and why the answer is the same:

- `traits`: trait lookups per op class;
- `signatures`: IRDL signature checks per verified signature;
- `verification`: `IsolatedFromAbove.verify`, `Operation.verify`;
- `construction`: `irdl_op_init`, `Operation.__init__`, `IRDLOperation.__post_init__`, name hints;
- `readers`: single operand/result accessors, block and region iterators;
- `attributes`: attribute verification, hashes, dense array values;
- `ir_structure`: insertion into blocks, `Operation.walk`;
- `lexing`: the lexer and the parser's token readers.

Each module keeps xDSL's originals as `_XDSL_*` (the fallbacks, and the models the tests
compare against), captured when it is imported, before `install()` patches anything.

`install()` is idempotent; loopopt.diagnostics calls it, so it is on in every loopopt process
that imports our dialects' verification. `LOOPOPT_NO_FASTPATHS=1` in the environment (read at
install time) leaves xDSL's classes untouched: the pipeline then runs on xDSL's own code, for a
user who patches the same methods or wants to rule the memos out.
"""

from __future__ import annotations

import os

from . import attributes, construction, ir_structure, lexing, readers, signatures, traits, verification

_installed = False

OPT_OUT_VARIABLE = "LOOPOPT_NO_FASTPATHS"
"""Set to anything but "" or "0" to keep xDSL's classes unpatched."""


def opted_out() -> bool:
    """Whether the environment asks for xDSL's own trait lookups and verification."""
    return os.environ.get(OPT_OUT_VARIABLE, "") not in ("", "0")


def install() -> None:
    """Install the fast paths into xDSL's classes (once per process, in this order), unless opted out."""
    global _installed
    if _installed or opted_out():
        return
    _installed = True
    traits.install_trait_memos()
    signatures.install_signature_cache()
    verification.install_isolated_check()
    verification.install_operation_verify()
    attributes.install_dense_array_values()
    construction.install_op_init()
    readers.install_readers()
    construction.install_operation_init()
    construction.install_irdl_post_init()
    construction.install_name_memo()
    attributes.install_attribute_memo()
    ir_structure.install_walk()
    ir_structure.install_block_insertion()
    lexing.install_lexer()
    lexing.install_parser_tokens()
    from loopopt import parse_fastpaths

    parse_fastpaths.install()
