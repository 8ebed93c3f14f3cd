#!/usr/bin/env bash
# The man page and the bash completion against the binary: every sub-command, every option of
# every --help and every exit code is in dpviz.1; the completion offers them and the fixed values.
#   man_page_test.sh DPVIZ MAN_PAGE COMPLETION
set -euo pipefail
dpviz=$1 man=$2 completion=$3
status=0
fail() { echo "FAIL: $*"; status=1; }

# The options a help text lists, as the completion reads them (one regex for both).
help_options() { "$dpviz" "$@" --help | grep -oE -- '(^ *|, |; |\[)--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }

commands="align batch bench"
"$dpviz" gui --help >/dev/null 2>&1 && commands+=" gui"
for cmd in $commands; do
  grep -q "^\.B.* dpviz $cmd" "$man" || fail "sub-command $cmd is not in the man page's COMMANDS"
  n=0
  for opt in $(help_options "$cmd"); do
    n=$((n + 1))
    # roff writes -- as \-\-; an option is a whole word there.
    grep -qE -- "\\\\-\\\\-${opt#--}([^a-z0-9-]|$)" "$man" || fail "dpviz $cmd: $opt is not in the man page"
  done
  [ "$n" -gt 3 ] || fail "dpviz $cmd --help: only $n options read (the help format changed?)"
done
for code in $("$dpviz" --help | sed -n '/^Exit codes:/,$p' | grep -oE '^  [0-9]+ ' | tr -d ' '); do
  sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man" | grep -qx "\.B $code" || fail "exit code $code is not under EXIT STATUS"
done
grep -q "^\.TH DPVIZ 1 .*\"dpviz $("$dpviz" --version | cut -d' ' -f2)\"" "$man" || fail "the man page's version is not the binary's"

# groff reads it without warnings (when man-db is installed).
if command -v man >/dev/null; then
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$man" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || fail "man page warnings: $warnings"
fi

# The completion: COMP_WORDS as bash would set them for "dpviz WORDS... CURRENT<TAB>".
source "$completion"
complete_words() {  # complete_words CURRENT WORDS...
  local cur=$1
  shift
  COMP_WORDS=("$dpviz" "$@" "$cur")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _dpviz 2>/dev/null || true
  printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' '
}
expect() {  # expect "WORDS" CURRENT "OFFERED..."
  local got
  got=$(complete_words "$2" $1)
  for w in $3; do [[ " $got" == *" $w "* ]] || fail "completing 'dpviz $1 $2': $w not offered (got: $got)"; done
}
expect "" "" "align batch bench gui --help --version"
expect "" "al" "align"
expect "align --algo" "g" "global"
expect "align --backend" "cuda" "cuda cuda-portable"
expect "bench --backend" "a" "all"
expect "align --colormap" "v" "viridis"
expect "align --matrix" "BLOSUM6" "BLOSUM62"
expect "gui --example" "" "globins dna dtw"
expect "gui --layer" "" "H E F landscape"
expect "align --layer" "" "H landscape"
for cmd in $commands; do expect "$cmd" "--" "$(help_options "$cmd" | tr '\n' ' ')"; done
got=$(complete_words "" align --gap-open)
[ -z "${got// /}" ] || fail "a numeric option's value got completions: $got"
exit $status
