"""Speed-up ranges (new over old) per kernel and size over several outputs of run.sh, as a markdown table.
    python3 summarize.py run1.txt run2.txt ..."""
import re
import sys
from collections import defaultdict

LINE = re.compile(r"^lo_(\w+)_(sse2|avx2)\s+n=\s*(\d+) .* speed-up ([\d.]+)x$")
cells = defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        m = LINE.match(line.strip())
        if m:
            cells[(m.group(2), m.group(1), int(m.group(3)))].append(float(m.group(4)))
sizes = sorted({n for _, _, n in cells})
kernels = sorted({(isa, k) for isa, k, _ in cells}, key=lambda t: (t[0] != "avx2", t[1][-3:], t[1]))
print("| ISA | kernel | " + " | ".join(f"{n}" for n in sizes) + " |")
print("|---|---|" + "---|" * len(sizes))
for isa, k in kernels:
    spans = []
    for n in sizes:
        v = cells[(isa, k, n)]
        spans.append(f"{min(v):.2f}" if max(v) - min(v) < 0.005 else f"{min(v):.2f}-{max(v):.2f}")
    print(f"| {isa} | {k} | " + " | ".join(spans) + " |")
