#!/bin/sh
# Run the A/B for both ISAs in the current folder (after build.sh), with CPU and load lines.
for isa in avx2 sse2; do
    echo "# $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')"
    echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') (family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')), gcc $(gcc -dumpfullversion)"
    echo "# ./ab ./old_$isa.so ./new_$isa.so $isa"
    ./ab ./old_$isa.so ./new_$isa.so $isa
done
echo "# $(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/')"
