"""Producer → consumer pairs df-fuse would fuse but the df dialect has no fused op for.

They are not rewritten (df-to-loop may still fuse them when it builds loops); with
`remarks=true` each is reported as FUSE_REJECT_NO_FUSED_FORM naming the missing form.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation

from loopopt.dialects import df
from loopopt.dialects.df_types import format_axes
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import Rejection, where
from loopopt.passes.df_fusion.pattern import producers
from loopopt.passes.df_fusion.rebuild import is_total


def unsupported_fusions(op: Operation) -> Iterator[Rejection]:
    if isinstance(op, df.MapOp):
        for p in producers(op, (df.FilterOp,)):
            yield Rejection(op, FuseReject.NO_FUSED_FORM,
                            f"filter → map: {where(p)} feeds it, and df has no filtered map "
                            f"(a df.filter with a map region)")
    if isinstance(op, df.ScanOp):
        for p in producers(op, (df.MapOp,)):
            yield Rejection(op, FuseReject.NO_FUSED_FORM,
                            f"map → scan: {where(p)} feeds it, and df.scan has no map prologue")
    if isinstance(op, df.ReduceOp) and not is_total(op):
        for p in producers(op, (df.MapOp, df.FilterOp)):
            yield Rejection(op, FuseReject.NO_FUSED_FORM,
                            f"{where(p)} feeds a partial reduction over "
                            f"{format_axes(op.over_axis_names)}; df.fold reduces every axis and "
                            f"df.reduce has no map prologue")
