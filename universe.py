"""The `xdsl.universe` plugin: makes plain `xdsl-opt` know loopopt's dialects and passes."""

from xdsl.universe import Universe

from loopopt.registry import get_all_dialects, get_all_passes, get_all_targets

LOOPOPT_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
