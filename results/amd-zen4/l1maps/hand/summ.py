import sys, re, collections
# table: rows n/placement, cols variant: t(k2)/t(v) ratios median
for fn in sys.argv[1:]:
    print("==", fn)
    rows = collections.OrderedDict(); cols = []
    head = None
    for line in open(fn):
        m = re.match(r"n=(\d+) placement y-x=(\d+) out-x=(\d+)", line)
        if m: head = f"n={m[1]:>5} {m[2]:>4}:{m[3]:<4}"; rows[head] = {}; continue
        m = re.match(r"\s+(\S+)\s+median\s+([\d.]+) ns.*median ([\d.]+)", line)
        if m and head:
            rows[head][m[1]] = (float(m[2]), float(m[3]))
            if m[1] not in cols: cols.append(m[1])
    print(f"{'':20s}" + "".join(f"{c:>12s}" for c in cols))
    for h, r in rows.items():
        print(f"{h:20s}" + "".join(f"{r[c][0]:6.1f} {r[c][1]:4.2f} " if c in r else " "*12 for c in cols))
