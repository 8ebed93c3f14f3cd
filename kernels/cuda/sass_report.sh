#!/bin/sh
# usage: sass_report.sh CUOBJDUMP PYTHON LIBRARY DUMP REPORT -- dump the SASS of LIBRARY, write the mix.
"$1" -sass "$3" > "$4" 2>/dev/null || true
"$2" "$(dirname "$0")/sass_mix.py" "$4" > "$5"
