"""loop-bench logs -> per cell: kernels GB/s and loopopt ÷ kernels, min-max over runs, per variant."""
import re, sys, glob, statistics
variants = [(name, sorted(glob.glob(pat))) for name, pat in (a.split("=") for a in sys.argv[1:])]
rows = {}
for v, files in variants:
    for path in files:
        for line in open(path):
            m = re.match(r"\[(\w+)\] (\w+): (.*) GB/s", line)
            if not m or "STREAM" in line: continue
            vals = dict((k.strip(), float(x)) for k, x in (p.rsplit(" ", 1) for p in m.group(3).split(", ")))
            for isa in ("sse2", "avx2"):
                rows.setdefault((m.group(2), m.group(1), isa), {}).setdefault(v, []).append((vals[f"kernels/{isa}"], vals[f"loopopt/{isa}"], vals[f"loopopt/{isa}"] / vals[f"kernels/{isa}"]))
names = [v for v, _ in variants]
print("| cell | " + " | ".join(f"kernels GB/s {v}" for v in names) + " | " + " | ".join(f"loopopt GB/s {v}" for v in names) + " | " + " | ".join(f"loopopt ÷ kernels {v}" for v in names) + " |")
print("|---|" + "---|" * (3 * len(names)))
med = lambda xs, j: statistics.median(x[j] for x in xs)
for (k, n, isa), d in sorted(rows.items(), key=lambda t: (t[0][2], t[0][0][-3:], t[0][0], t[0][1] != "1Ki")):
    print(f"| {k} {n} {isa} | " + " | ".join(f"{med(d[v],0):.0f}" for v in names) + " | " + " | ".join(f"{med(d[v],1):.0f}" for v in names) + " | " + " | ".join(f"{med(d[v],2):.2f}" for v in names) + " |")
print(f"\n(medians over {', '.join(f'{len(f)} {v}' for v, f in variants)} runs)")
