#!/usr/bin/env python3
"""Rescores the alignment of a `dpviz align --json` result from its aligned rows, independently of
dpviz: the matrix's score per column, a gap of length k costing open + (k - 1) * extend (each row's
gaps counted on their own), and says whether that equals the reported score.
usage: rescore_alignment.py RESULT.json MATRIX_FILE   (exit 0 when equal, 1 when not, 2 on bad input)"""
import json
import sys


def read_matrix(path):
    letters, rows = None, {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith('#'):
                continue
            if letters is None:
                letters = parts
                continue
            rows[parts[0]] = dict(zip(letters, map(int, parts[1:])))
    return rows


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        r = json.load(f)
    matrix = read_matrix(sys.argv[2])
    qa, ta = r['query_aligned'], r['target_aligned']
    if len(qa) != len(ta):
        print('rescore: the aligned rows differ in length', file=sys.stderr)
        return 2
    # Scores in hundredths (the finest step dpviz takes): exact integers throughout.
    gap_open, gap_extend = round(r['gap_open'] * 100), round(r['gap_extend'] * 100)
    score, in_q_gap, in_t_gap = 0, False, False
    for a, b in zip(qa, ta):
        if a == '-':
            score -= gap_extend if in_q_gap else gap_open
            in_q_gap, in_t_gap = True, False
        elif b == '-':
            score -= gap_extend if in_t_gap else gap_open
            in_q_gap, in_t_gap = False, True
        else:
            score += matrix[a.upper()][b.upper()] * 100
            in_q_gap = in_t_gap = False
    reported = round(r['score'] * 100)
    same = score == reported
    print(f"rescored {score / 100:g}, reported {r['score']:g}, {len(qa)} columns, cigar {len(r['cigar'])} chars: "
          f"{'equal' if same else 'MISMATCH'}")
    return 0 if same else 1


if __name__ == '__main__':
    sys.exit(main())
