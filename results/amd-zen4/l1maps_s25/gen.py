"""Session 25 (issue 11): the C of axpb/axpy (tools/bench/programs) on avx512 cpu=zen4 as loopopt emits it
(cur), with tail=scalar (sc), and with the L1 limit of the split maps at 24 KiB instead of 32 (l24),
plus kernels/avx2 (k2.c), into the directory given. Run from the repo root."""
import dataclasses, sys
from loopopt.compile import emit
from loopopt.dialects import cpu_models as cm
from loopopt import kernels
out = sys.argv[1]
open(f"{out}/k2.c", "w").write(kernels.isa_source("avx2"))
for prog in ("axpb", "axpy"):
    src = open(f"tools/bench/programs/{prog}.mlir").read()
    open(f"{out}/{prog}_cur.c", "w").write(emit(src, "avx512", "loop-pipeline{target=avx512 cpu=zen4}").c_source)
    open(f"{out}/{prog}_sc.c", "w").write(emit(src, "avx512", "loop-pipeline{target=avx512 cpu=zen4 tail=scalar}").c_source)
    z = cm.CPUS["zen4"]
    cm.CPUS["zen4"] = dataclasses.replace(z, caches=dataclasses.replace(z.caches, l1d=24 * 1024))
    open(f"{out}/{prog}_l24.c", "w").write(emit(src, "avx512", "loop-pipeline{target=avx512 cpu=zen4}").c_source)
    cm.CPUS["zen4"] = z
