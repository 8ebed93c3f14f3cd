#!/usr/bin/env python3
"""Instructions per cell in the steady-state loop of each fill kernel, from a cuobjdump -sass dump.

The unguarded chunk body of a band kernel, and the steps of a part of a chunk of the batch
kernel, are an innermost loop of two wavefront steps (kRows x kCols = 8 cells each, so 16 cells
per iteration), the one-pair kernel's an innermost loop of 16 steps of 4 rows (64 cells): of the
innermost backward-branch loops, the one with the most max/min instructions, and of those the
shortest (the one-pair kernel's: of those that write no texel with an atomic). usage: sass_hot_loop.py sass_dump.txt
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_names import kernel_name  # noqa: E402  (the one naming rule, beside this script)

CELL_OPS = ('VIADDMNMX', 'VIMNMX3', 'VIMNMX', 'FMNMX', 'HMNMX2', 'VHMNMX', 'IMNMX', 'VIBMNMX')
DPX = ('VIADDMNMX', 'VIMNMX3', 'VIBMNMX', 'VHMNMX')  # and VIMNMX.16x2; VHMNMX: sm_90's three-input half min/max


def functions(text):
    fn, body = None, []
    for line in text.splitlines():
        m = re.search(r'Function : (\S+)', line)
        if m:
            if fn:
                yield fn, body
            fn, body = m.group(1), []
            continue
        m = re.match(r'^\s*(\.L_x_\d+):', line)
        if m:
            body.append(('label', m.group(1)))
            continue
        m = re.match(r'^\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m:
            ins = re.sub(r'^@!?U?P[T0-9]+\s+', '', m.group(2).strip())
            body.append(('ins', int(m.group(1), 16), ins))
    if fn:
        yield fn, body


def loops(body):
    """Instruction ranges closed by a backward branch. Branch targets are labels (nvdisasm) or
    addresses (cuobjdump). The code a shuffle runs when the warp is diverged (entered by BRA.DIV,
    left by a jump back) is not a loop and is skipped."""
    where, out, fallback = {}, [], set()
    ins, starts = [], set()
    for b in body:
        if b[0] == 'label':
            where[b[1]] = len(ins)
        else:
            where['0x%x' % b[1]] = len(ins)
            ins.append(b[1:3])

    def target(text):
        m = re.match(r'BRA(?:\.\S+)?\s+(?:\S+,\s*)?`?\(?(\.L_x_\d+|0x[0-9a-f]+)\)?', text)
        if not m:
            return None
        t = m.group(1)
        return '0x%x' % int(t, 16) if t.startswith('0x') else t

    for off, text in ins:
        if text.startswith('BRA.DIV'):
            t = target(text)
            if t in where:
                starts.add(where[t])
    in_fallback = False
    for k, (off, text) in enumerate(ins):
        if k in starts:
            in_fallback = True
        t = target(text) if text.startswith('BRA') and not text.startswith('BRA.DIV') else None
        if t is not None and t in where and where[t] <= k:
            if not in_fallback:
                out.append([('ins', o, x) for o, x in ins[where[t]:k + 1]])
            else:
                in_fallback = False
    return out


def opcode(text):
    return text.split()[0] if text.split() else ''


def column(op):
    """An opcode's column: its base name, VIMNMX.16x2 (a DPX instruction) apart from VIMNMX."""
    base = op.split('.')[0]
    return 'VIMNMX.16x2' if base == 'VIMNMX' and '16x2' in op else base


# Cells per thread in one iteration of the steady-state loop: the band kernels' 2 steps of 4 rows
# x 2 columns (twice that in the 16x2 batch kernels: two pairs per word); the one-pair kernel's
# 16 steps of 4 rows; the row-serial fill's 16 steps of R rows (R in its name: -r<R>;
# kernels/common/pair_score_plan.hpp).
BAND_CELLS, PAIR_CELLS, SERIAL_STEPS = 16, 64, 16


def short(name):
    """(report name, cells per loop iteration) of a fill kernel (sass_names.kernel_name), or None."""
    if not any(f in name for f in ('band_fill', 'batch_fill', 'pair_score_fill', 'pair_serial_fill', 'pair_serial16_fill')):
        return None
    named = kernel_name(name)
    if not named:
        return None
    if 'pair_serial16_fill' in name:  # two cells a row and step (16x2 lanes)
        return named, 2 * SERIAL_STEPS * int(re.search(r'-r(\d+) ', named).group(1))
    if 'pair_serial_fill' in name:
        return named, SERIAL_STEPS * int(re.search(r'-r(\d+) ', named).group(1))
    if 'pair_score_fill' in name:
        return named, PAIR_CELLS
    return named, BAND_CELLS * (2 if '16x2Ops' in name else 1)


def main():
    text = open(sys.argv[1]).read()
    rows = []
    for fn, body in functions(text):
        named = short(fn)
        if not named:
            continue
        name, cells = named
        best = None
        all_loops = loops(body)
        spans = [(lp[0][1], lp[-1][1]) for lp in all_loops]
        inner = [lp for lp in all_loops
                 if not any(a >= lp[0][1] and b <= lp[-1][1] and (a, b) != (lp[0][1], lp[-1][1]) for a, b in spans)]
        for lp in inner:
            ops = collections.Counter(column(opcode(t)) for _, _, t in lp)
            if cells == PAIR_CELLS and any(o.startswith(('RED', 'ATOM')) for o in ops):
                continue  # the one-pair picture's chunks at column N + 1 write texels: not the steady state
            nmax = sum(ops[o] for o in CELL_OPS)
            key = (-nmax, len(lp))
            if best is None or key < best[0]:
                best = (key, lp, ops)
        if not best:
            continue
        _, lp, ops = best
        n = sum(1 for _, _, t in lp if opcode(t) != 'NOP')
        dpx = sum(ops[o] for o in DPX) + ops['VIMNMX.16x2']
        mix = ' '.join('%s=%d' % (o, ops[o]) for o in
                       ('VIADDMNMX', 'VIMNMX3', 'VIMNMX', 'VIMNMX.16x2', 'VIBMNMX', 'FMNMX', 'HMNMX2', 'VHMNMX', 'HSETP2', 'IMNMX', 'IADD3', 'VIADD', 'IMAD', 'ISETP',
                        'SEL', 'LOP3', 'SHF', 'PRMT', 'SHFL', 'LDS', 'LDG', 'STG') if ops[o])
        rows.append('%-32s %5d instr %6.2f /cell  DPX %3d   %s' % (name, n, n / cells, dpx, mix))
    print('steady-state loop of each fill kernel (%d cells per iteration), of the 16x2 batch kernels (%d cells per '
          'iteration: two pairs) and of the one-pair kernel (%d cells per iteration; its row-serial fill %d steps of '
          'the R rows in its name, -r<R>, two cells a row and step in its 16x2 fill)' % (BAND_CELLS, 2 * BAND_CELLS, PAIR_CELLS, SERIAL_STEPS))
    print('\n'.join(sorted(rows)))


if __name__ == '__main__':
    main()
