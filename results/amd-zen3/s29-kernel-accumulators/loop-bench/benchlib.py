"""Build loop-bench's kernel library for ISA (sum, sumsq, filter_gt0_sum; i32, f32) as loop-bench does
(tools/bench/impls.py, kernel_lib) and print the .so path, to objdump where its loops landed."""
import sys
from loopopt import kernels, runtime
from loopopt.tools.bench.harness import with_wrappers
from loopopt.tools.bench.patterns import KERNELS
from loopopt.tools.bench import patterns as P
isa = sys.argv[1]
pats = [P.PATTERNS[n] for n in ("sum", "sumsq", "filter_gt0_sum")]
cells = [(p, d) for p in pats for d in ("i32", "f32") if d in p.dtypes]
hand = [(p, d, *p.hand_kernel(d, isa)) for p, d in cells if p.has(KERNELS)]
glue = "".join(dict.fromkeys(g for *_, g in hand if g))
sigs = [p.c_signature(name, d) for p, d, name, _ in hand]
src, wsigs = with_wrappers(kernels.isa_source(isa) + glue, sigs)
print(runtime.compile_library(src, wsigs, isa=isa).path)
