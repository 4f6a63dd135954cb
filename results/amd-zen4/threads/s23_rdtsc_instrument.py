"""Rewrite a generated filter->map super-block driver (fs_*.c) with rdtsc per phase and thread
(results/amd-zen4/threads/README.md): python s23_rdtsc_instrument.py in.c out.c."""
import sys, re
src = open(sys.argv[1]).read()
out = []
R = lambda v, i: f"{{ uint64_t lo_tn = __rdtsc(); PROF[lo_me][{i}] += lo_tn - {v}; {v} = lo_tn; }}"
lines = src.split('\n')
res = []
in_drv = False
for ln in lines:
    if ln.startswith('int64_t filter_scale('):
        res.append('#include <x86intrin.h>\nuint64_t PROF[8][16] __attribute__((aligned(128)));')
        in_drv = True
    s = ln.strip()
    if in_drv and s.startswith('int64_t lo_c = lo_me, lo_base = 0, lo_seen = 0;'):
        res.append(ln); res.append('        for (int q = 0; q < 8; q++) PROF[lo_me][q] = 0;\n        uint64_t lo_tt = __rdtsc(); PROF[lo_me][8] = lo_tt - PROF[7][1];'); continue
    if in_drv and s.startswith('for (; lo_c < lo_nch; lo_c += lo_nt) {'):
        res.append('        ' + R('lo_tt', 0)); res.append(ln); continue   # 0: first count
    if in_drv and s.startswith('const int64_t lo_lo = lo_c * lo_cs;'):
        res.append('            ' + R('lo_tt', 1)); res.append(ln); continue  # 1: waits
    if in_drv and s.startswith('if (lo_j < lo_nlen) {'):
        res.append('                ' + R('lo_tt', 5)); res.append(ln); continue  # 5: loop overhead
    if in_drv and s.startswith('const int64_t lo_k = lo_stream'):
        res.append('                ' + R('lo_tt', 2)); res.append(ln); res.append('                ' + R('lo_tt', 3)); continue  # 2: prefetch, 3: chunk
    if in_drv and s.startswith('lo_at += lo_k;'):
        res.append('                ' + R('lo_tt', 4)); res.append(ln); continue  # 4: drain
    if in_drv and s.startswith('if (lo_nx < lo_nch)'):
        res.append('            ' + R('lo_tt', 5)); res.append(ln)
        continue
    if in_drv and s.startswith('lo_par_publish(&lo_cnt[lo_nx]'):
        res.append(ln); res.append('            ' + R('lo_tt', 6)); res.append('            PROF[lo_me][9] = lo_tt - PROF[7][1];'); continue  # 6: count next
    if in_drv and s == 'int64_t lo_total = 0;':
        res.append('    PROF[7][0] = __rdtsc() - PROF[7][1];'); res.append(ln); continue
    if in_drv and s == 'const int64_t lo_n = x_len;':
        res.append(ln); res.append('    PROF[7][1] = __rdtsc();'); continue
    res.append(ln)
open(sys.argv[2], 'w').write('\n'.join(res))
