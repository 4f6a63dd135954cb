import re, sys
for f in sys.argv[1:]:
    print("==", f)
    cur = None
    for line in open(f):
        m = re.match(r"n=(\d+) placement y-x=(\d+) out-x=(\d+)", line)
        if m:
            if cur: print(cur)
            cur = f"n={m[1]:>5} {m[2]:>4}:{m[3]:<4}"
            continue
        m = re.match(r"\s+(\S+)\s+median\s+([\d.]+) ns.*ratio\(first/this\) median ([\d.]+)", line)
        if m and cur: cur += f"  {m[1]} {float(m[2]):7.1f}ns {m[3]}"
    if cur: print(cur)
