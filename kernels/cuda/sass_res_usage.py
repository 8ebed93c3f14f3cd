#!/usr/bin/env python3
"""Registers and shared memory per kernel from cuobjdump -res-usage, one line per kernel that
sass_names.kernel_name names: "<name>  REG:40 STACK:0 SHARED:0 LOCAL:0 ..." (cuobjdump's fields
as it prints them). Lines starting with '#' are kept (a report's provenance). The app reads this
(app/sass_report.cpp: parse_res_usage). usage: sass_res_usage.py res_usage.txt (or - for stdin)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sass_names import kernel_name  # noqa: E402  (the one naming rule, beside this script)


def main():
    src = sys.stdin if len(sys.argv) < 2 or sys.argv[1] == '-' else open(sys.argv[1])
    current = None
    for line in src:
        line = line.rstrip('\n')
        if line.startswith('#'):
            print(line)
            continue
        m = re.match(r'^\s*Function\s+(\S+?):?\s*$', line)
        if m:
            current = kernel_name(m.group(1))
            continue
        if current and re.search(r'\bREG:\d+', line):
            print('%-34s %s' % (current, ' '.join(line.split())))
            current = None


if __name__ == '__main__':
    main()
