"""sweep.py PATS SIZES ROUNDS LAYOUTS [BASE] [CMP,..]: each (layout, placement, round) one process; per cell the
median over runs of t(kernel)/t(BASE) (> 1: BASE faster) for each kernel and each CMP variant, with [q1, q3] over runs."""
import subprocess, sys, statistics
pats = sys.argv[1].split(",")
sizes = [int(s) for s in sys.argv[2].split(",")]
rounds = int(sys.argv[3]); layouts = sys.argv[4].split(",")
base = sys.argv[5] if len(sys.argv) > 5 else "lo512"
cmps = sys.argv[6].split(",") if len(sys.argv) > 6 else ["k_sse2", "k_avx2", "k_avx512", "lo256"]
places = [(0,0),(64,192),(1024,2048),(2112,3008)]
res = {}
for r in range(rounds):
  for L in layouts:
    for p in pats:
      for n in sizes:
        for pl in (places if not p.startswith("sumsq") else places[:2]):
          out = subprocess.run([f"./harness_{L}", p, str(n), "15", str(pl[0]), str(pl[1])], capture_output=True, text=True).stdout
          d = {l.split()[0]: float(l.split()[1]) for l in out.splitlines()[1:]}
          for c in cmps:
            res.setdefault((p, n), {}).setdefault(c, []).append(d[c] / d[base])
def q(v):
  v = sorted(v); k = len(v)
  return v[k // 2], v[k // 4], v[(3 * k) // 4]
for p in pats:
  for n in sizes:
    parts = []
    for c in cmps:
      m, a, b = q(res[(p, n)][c]); parts.append(f"{c} {m:.3f} [{a:.3f},{b:.3f}]")
    print(f"{p:18s} {n:8d} n={len(res[(p,n)][cmps[0]]):3d} | " + " | ".join(parts), flush=True)
