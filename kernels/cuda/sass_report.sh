#!/bin/sh
# usage: sass_report.sh CUOBJDUMP LIBRARY DUMP REPORT -- dump the SASS of LIBRARY, write the mix.
"$1" -sass "$2" > "$3" 2>/dev/null || true
sh "$(dirname "$0")/sass_mix.sh" "$3" > "$4"
