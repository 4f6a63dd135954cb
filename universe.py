"""The `xdsl.universe` plugin: makes plain `xdsl-opt` know loopopt's dialects and passes."""

from xdsl.universe import Universe

from loopopt.diagnostics import locate_xdsl_parser
from loopopt.registry import get_all_dialects, get_all_passes, get_all_targets

locate_xdsl_parser()  # ops parsed by plain xdsl-opt carry file:line:col, so remarks point at them

LOOPOPT_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
