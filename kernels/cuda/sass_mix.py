#!/usr/bin/env python3
"""SASS instruction mix per kernel of a cuobjdump -sass dump, every instruction once (not per
cell), with the DPX instructions counted apart (with them VHMNMX, the three-input half min/max
that only sm_90 has: a DPX-free kernel holds none of either).

Kernels are named by sass_names.kernel_name, and the whole-kernel table adds two things of its
own: a band fill's row reads "fill <name>" (beside "locate ..." and "unpack_dirs", the other
band kernels), and a batch kernel's end rules share one row, their counts summed ("batch edit
dpx": every EndRule instantiation of that kind and policy). A function the rule does not name
keeps its mangled name. usage: sass_mix.py sass_dump.txt
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_names import kernel_name  # noqa: E402  (the one naming rule, beside this script)

COLUMNS = ('VIADDMNMX VIMNMX3 VIMNMX VIMNMX.16x2 VIBMNMX FMNMX HMNMX2 VHMNMX HSETP2 IMNMX IADD3 VIADD IMAD ISETP SEL '
           'LOP3 SHF PRMT P2R SHFL LDS LDG STG BRA').split()
DPX = ('VIADDMNMX', 'VIMNMX3', 'VIBMNMX', 'VHMNMX')  # and VIMNMX.16x2


def row_name(mangled):
    named = kernel_name(mangled)
    if named is None:
        return mangled
    if 'band_fill' in mangled:
        return 'fill ' + named
    if 'batch_fill' in mangled and re.search(r'EndRuleE\d', mangled):
        return named.rsplit(' ', 1)[0]  # the end rule's word dropped: one row for them all
    return named


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else ''
    text = open(path).read() if path and os.path.isfile(path) else ''
    if not text.strip():
        print('n/a (no SASS dump)')
        return
    total, dpx, counts = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
    fn = None
    for line in text.splitlines():
        m = re.search(r'Function : (\S+)', line)
        if m:
            fn = row_name(m.group(1))
            total[fn] += 0
            continue
        m = re.match(r'^\s+/\*[0-9a-f]+\*/\s+(.*)$', line)
        if not m or fn is None:
            continue
        ins = re.sub(r'^@!?U?P[0-9T]+\s+', '', m.group(1))
        op = re.split(r'[ \t;]+', ins.strip())[0] if ins.strip() else ''
        if op in ('', 'NOP'):
            continue
        base = op.split('.')[0]
        total[fn] += 1
        sixteen = base == 'VIMNMX' and '16x2' in op
        if base in DPX or sixteen:
            dpx[fn] += 1
        counts[fn]['VIMNMX.16x2' if sixteen else base] += 1
    print('%-34s %6s %5s %s' % ('kernel', 'total', 'DPX', ' '.join(COLUMNS)))
    for fn in sorted(total):
        print('%-34s %6d %5d %s' % (fn, total[fn], dpx[fn], ' '.join(str(counts[fn][c]) for c in COLUMNS)))


if __name__ == '__main__':
    main()
