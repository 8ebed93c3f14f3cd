#!/usr/bin/env python3
"""Regenerates the derived examples in assets/examples from public sequences shipped by
Debian's emboss-test package (seqret converts them to FASTA). Deterministic (seeded).
  - dna_repeat_inversion.fa: 1,500 bp of the human epsilon-globin gene (EMBL V00508) and a
    copy with a tandem repeat, an inverted segment and ~2% point mutations, so a dot-plot-like
    structure shows in the matrix.
  - signal_a.csv / signal_b.csv: two time-warped versions of one smooth signal, for DTW.
globins.fa is HBA/HBB of human and chimpanzee, copied unchanged from emboss-test's swiss data."""
import math, random, subprocess, sys, os

out_dir = os.path.join(os.path.dirname(__file__), '..', 'assets', 'examples')
rnd = random.Random(20261130)

fasta = subprocess.run(['seqret', '-sequence', '/usr/share/EMBOSS/test/embl/eem_hum1.seq:V00508',
                        '-outseq', 'stdout', '-auto'], capture_output=True, text=True, check=True).stdout
seq = ''.join(l.strip() for l in fasta.splitlines() if not l.startswith('>')).upper()
query = seq[1000:2500]
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A', 'N': 'N'}
t = list(query)
t[300:300] = t[300:500]                      # tandem repeat: 200 bp duplicated
inv = [comp[c] for c in reversed(t[900:1200])]
t[900:1200] = inv                            # inverted 300 bp
for k in range(len(t)):                      # ~2% substitutions
    if rnd.random() < 0.02:
        t[k] = rnd.choice([c for c in 'ACGT' if c != t[k]])
target = ''.join(t)

def wrap(s):
    return '\n'.join(s[k:k + 60] for k in range(0, len(s), 60))

with open(os.path.join(out_dir, 'dna_repeat_inversion.fa'), 'w') as f:
    f.write('>epsilon_globin_1001_2500 human epsilon-globin gene (EMBL V00508), bases 1001-2500\n' + wrap(query) + '\n')
    f.write('>rearranged_copy the same with a 200 bp tandem repeat at 301, an inversion of 300 bp and 2% substitutions\n'
            + wrap(target) + '\n')

def signal(n, warp, noise):
    vals = []
    for k in range(n):
        x = warp(k / (n - 1))
        v = math.sin(2 * math.pi * 3 * x) + 0.5 * math.sin(2 * math.pi * 7 * x + 1) + 0.8 * math.exp(-((x - 0.6) / 0.04) ** 2)
        vals.append(v + rnd.gauss(0, noise))
    return vals

a = signal(400, lambda x: x, 0.02)
b = signal(520, lambda x: x ** 1.35, 0.02)
for name, vals in (('signal_a.csv', a), ('signal_b.csv', b)):
    with open(os.path.join(out_dir, name), 'w') as f:
        f.write('value\n' + ''.join(f'{v:.6f}\n' for v in vals))
print('examples written to', os.path.abspath(out_dir))
