import sys, re
def load(path):
    main, per = {}, {}
    sec = None
    for l in open(path):
        if l.startswith('## loopopt (avx512) vs'): sec='main'
        elif l.startswith('## loopopt ÷ kernel library, per ISA'): sec='per'
        elif l.startswith('## '): sec=None
        if not l.startswith('| ') or l.startswith('| pattern') : continue
        f=[c.strip() for c in l.strip().strip('|').split('|')]
        if sec=='main' and len(f)>12:
            key=(f[0].split('`')[1], f[1], f[2]); main[key]=f[13]
        elif sec=='per' and len(f)==7:
            key=(f[0].split('`')[1], f[1], f[2]); per[key]=f[3:]
    return main, per
runs=[(p, load(p)) for p in sys.argv[1:]]
keys=list(runs[0][1][0])
print('÷best (loopopt avx512 vs best of kernels/gcc):')
print('cell'.ljust(22), ' | '.join(p.split('/')[-1][:22].ljust(22) for p,_ in runs))
for k in keys:
    print(' '.join(k).ljust(22), ' | '.join(r[0].get(k,'').ljust(22) for _,r in runs))
print('\nper ISA loopopt ÷ kernels (avx2, avx512):')
for k in keys:
    print(' '.join(k).ljust(22), ' | '.join(('/'.join(r[1].get(k,['','','',''])[2:4])).ljust(22) for _,r in runs))
