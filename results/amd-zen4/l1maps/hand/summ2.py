import sys, re, collections
for fn in sys.argv[1:]:
    print("==", fn)
    rows = collections.OrderedDict(); cols = []
    on = False
    for line in open(fn):
        if line.startswith("summary"): on = True; continue
        if not on: continue
        m = re.match(r"\s+n=(\d+) placement y-x=(\d+) out-x=(\d+) \(mod 4 KiB\) (\S+)\s+([\d.]+) ns\s+ratio ([\d.]+)", line)
        if m:
            h = f"n={m[1]:>5} {m[2]:>4}:{m[3]:<4}"; rows.setdefault(h, {})[m[4]] = (float(m[5]), float(m[6]))
            if m[4] not in cols: cols.append(m[4])
    print(f"{'':20s}" + "".join(f"{c:>12s}" for c in cols))
    for h, r in rows.items():
        print(f"{h:20s}" + "".join(f"{r[c][0]:6.1f} {r[c][1]:4.2f} " if c in r else " "*12 for c in cols))
