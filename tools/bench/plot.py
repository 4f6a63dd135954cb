"""The PNG of a `loop-bench` run: GB/s by pattern and size, one bar per implementation, STREAM as a line.

One panel per (pattern, dtype); within a panel, a group of bars per size (loopopt and the
kernel library on the best ISA, gcc, numpy) and a black tick over each group at the STREAM
limit for the pattern's read/write mix. Log scale: numpy's filters and gcc's scalar
reductions sit two orders of magnitude below the vector code.
"""

from __future__ import annotations

from pathlib import Path

from .impls import BLAS_LABEL, NUMPY, kernels_label, loopopt_label
from .patterns import PATTERNS, size_label
from .report import Run, gcc_label


def plot(run: Run, path: Path) -> Path | None:
    """Write the figure to `path`; None (and no file) when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return None
    panels = list(dict.fromkeys((c.pattern, c.dtype) for c in run.cells))
    if not panels:
        return None
    sizes = sorted({c.n for c in run.cells})
    series = [
        (f"loopopt ({run.best})", lambda c: loopopt_label(run.best), "tab:blue"),
        (f"kernel library ({run.best})", lambda c: kernels_label(run.best), "tab:orange"),
        ("gcc -O3 -march=native", gcc_label, "tab:green"),
        ("numpy", lambda c: NUMPY, "tab:gray"),
        ("BLAS (numpy @, 1 thread)", lambda c: BLAS_LABEL, "tab:purple"),
    ]
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows), squeeze=False)
    width = 0.8 / len(series)
    for ax, (pattern, dtype) in zip(axes.flat, panels):
        p = PATTERNS[pattern]
        for k, (_, label_of, color) in enumerate(series):
            xs, ys = [], []
            for i, n in enumerate(sizes):
                cell = run.cell(pattern, dtype, n)
                v = cell.gbps(label_of(cell)) if cell else None
                if v is not None:
                    xs.append(i + (k - (len(series) - 1) / 2) * width)
                    ys.append(v)
            ax.bar(xs, ys, width, color=color)
        for i, n in enumerate(sizes):
            s = run.stream(n)
            limit = s.limit(p.stream) if s else None
            if limit:
                ax.hlines(limit, i - 0.45, i + 0.45, colors="black", linewidth=2)
        ax.set_yscale("log")
        ax.set_xticks(range(len(sizes)), [size_label(n) for n in sizes])
        ax.set_title(f"{p.seed} {pattern} {dtype}", fontsize=10)
        ax.set_ylabel("GB/s")
        ax.grid(axis="y", alpha=0.3)
        ax.yaxis.set_minor_locator(matplotlib.ticker.NullLocator())  # minor log ticks cost seconds to lay out
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    handles = [plt.Rectangle((0, 0), 1, 1, color=color) for _, _, color in series]
    handles.append(plt.Line2D([0], [0], color="black", linewidth=2))
    labels = [name for name, _, _ in series] + ["STREAM limit (same read/write mix)"]
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
    fig.suptitle(f"loop-bench: {run.env.get('cpu', '')}", fontsize=11)
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.09, top=0.93, wspace=0.25, hspace=0.35)
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path
