"""Session 25 (alignpeel): one table of the paired ratio t(cur)/t(peel) per (n, off) x cell/isa/pages from harness outputs."""
import re, sys, collections
rows = collections.defaultdict(list); heads = []
for path in sys.argv[1:]:
    key = None
    for line in open(path):
        m = re.match(r"n=(\d+) trials=\d+ off=(\d+)", line)
        if m: key = (int(m[1]), int(m[2])); heads.append(key) if key not in heads else None; continue
        f = line.split()
        if key and len(f) == 7 and f[1] in ("avx512", "avx2"):
            rows[(f[0], f[1], f[2])].append((key, float(f[5]), float(f[3]), float(f[4])))
print("| cell isa pages | " + " | ".join(f"{n >> 10} Ki off {o}" for n, o in heads) + " |")
print("|---" * (len(heads) + 1) + "|")
for k, v in rows.items():
    by = collections.defaultdict(list)
    for key, pr, *_ in v: by[key].append(pr)
    print(f"| {' '.join(k)} | " + " | ".join("/".join(f"{x:.3f}" for x in by[h]) for h in heads) + " |")
