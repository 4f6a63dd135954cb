import json, glob, statistics, sys
def load(prefix):
    runs = []
    for f in sorted(glob.glob(f"{prefix}*/bench.json")):
        d = json.load(open(f)); runs.append({(c["pattern"], c["dtype"], c["size"]): {k: v["median"] for k, v in c["timings"].items()} for c in d["cells"]})
    return runs
base, new = load("lb_base"), load("lb_new")
print(f"runs: base {len(base)}, new {len(new)}; ratio = t(kernel)/t(loopopt/avx512), median over runs [min-max]")
print(f"{'cell':28s} {'base ÷k/avx2':>20s} {'new ÷k/avx2':>20s} {'base ÷k/avx512':>20s} {'new ÷k/avx512':>20s}")
def r(runs, key, k):
    xs = sorted(run[key][k] / run[key]["loopopt/avx512"] for run in runs if key in run)
    return f"{statistics.median(xs):.2f} [{xs[0]:.2f}-{xs[-1]:.2f}]"
for key in base[0]:
    print(f"{'/'.join(key):28s} {r(base,key,'kernels/avx2'):>20s} {r(new,key,'kernels/avx2'):>20s} {r(base,key,'kernels/avx512'):>20s} {r(new,key,'kernels/avx512'):>20s}")
