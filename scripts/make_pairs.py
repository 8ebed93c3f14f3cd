#!/usr/bin/env python3
"""Generated DNA pairs of ~90 % identity for the benchmarks: for each length n, a seeded random
sequence (q<n>.fa) and a copy with 5 % substitutions, 2.5 % deletions and 2.5 % insertions, cut
to the same length (t<n>.fa).   usage: make_pairs.py OUTDIR N [N ...]"""
import random
import sys

out = sys.argv[1]
for n in map(int, sys.argv[2:]):
    rng = random.Random(n)
    q = ''.join(rng.choice('ACGT') for _ in range(n))
    t = []
    for c in q:
        x = rng.random()
        if x < 0.05: t.append(rng.choice('ACGT'))
        elif x < 0.075: continue
        elif x < 0.1: t.append(c + rng.choice('ACGT'))
        else: t.append(c)
    t = ''.join(t)[:n]
    for name, s in (('q', q), ('t', t)):
        with open(f'{out}/{name}{n}.fa', 'w') as f:
            f.write(f'>{name}{n}\n')
            for k in range(0, len(s), 60): f.write(s[k:k + 60] + '\n')
