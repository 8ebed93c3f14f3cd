#!/usr/bin/env bash
# dpviz align's progress line on a real terminal (script(1) gives it a pty): drawn in place with
# \r and cleared before the result; none with --quiet, none when stderr is a file. Skips (77) without script.
#   progress_pty_test.sh DPVIZ
set -euo pipefail
dpviz=$1
command -v script >/dev/null || { echo "script(1) not installed (bsdutils): skipped"; exit 77; }
tmp=$(mktemp -d /tmp/dpviz-pty-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# A fill of a few seconds on one core: 40,000^2 local affine, SSE2 kernel, score only (linear memory).
awk 'BEGIN { srand(1); for (k = 1; k <= 2; k++) { printf ">s%d\n", k
       for (i = 0; i < 40000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); printf "\n" } }' > "$tmp/pair.fa"
align="$dpviz align --score-only --backend cpu --threads 1 --gap-open 11 --gap-extend 2 $tmp/pair.fa $tmp/pair.fa --target-record 2"
export DPVIZ_CPU_ISA=sse2

fail() { echo "FAIL: $*"; echo "--- terminal output:"; cat -A "$2" | head -c 2000; echo; exit 1; }

t0=$(date +%s%N)
script -qec "$align" /dev/null > "$tmp/tty.out"
ms=$((($(date +%s%N) - t0) / 1000000))
cr=$'\r'
if ! grep -aq "${cr}dpviz: filling 40000 x 40000 local \.\.\. [0-9]*% [0-9.]* [KMGT]*cells/s" "$tmp/tty.out"; then
  # A core fast enough to finish in about a second leaves nothing to see: no verdict then.
  [ "$ms" -ge 1500 ] || { echo "the fill took $ms ms: too short for the 1 s delay; skipped"; exit 77; }
  fail "no progress line on a terminal (the run took $ms ms)" "$tmp/tty.out"
fi
# The last thing before the result is the blanked line: \r, spaces, \r.
grep -aq "${cr} * ${cr}score [0-9-]* end " "$tmp/tty.out" || fail "the line is not cleared before the result" "$tmp/tty.out"
echo "terminal: $(grep -ao "${cr}dpviz: filling" "$tmp/tty.out" | wc -l) redraws in $ms ms, cleared before the result"

script -qec "$align --quiet" /dev/null > "$tmp/quiet.out"
if grep -aq "filling" "$tmp/quiet.out"; then fail "--quiet still draws" "$tmp/quiet.out"; fi
grep -aq "^score [0-9-]* end " "$tmp/quiet.out" || fail "--quiet: no result" "$tmp/quiet.out"
echo "--quiet: no progress line"

script -qec "$align 2> $tmp/stderr.txt" /dev/null > "$tmp/file.out"
if [ -s "$tmp/stderr.txt" ]; then fail "stderr to a file got output" "$tmp/stderr.txt"; fi
if grep -aq "filling" "$tmp/file.out"; then fail "progress on the terminal with stderr to a file" "$tmp/file.out"; fi
echo "stderr to a file: nothing written"

# dpviz batch: one line over every cell of the batch (here four 20,000^2 pairs, scores and the
# same with --path), cleared before the output; the scores equal those of a run without a line.
awk 'BEGIN { srand(2); for (k = 1; k <= 4; k++) { printf ">q%d\n", k
       for (i = 0; i < 20000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); printf "\n" } }' > "$tmp/many.fa"
batch="$dpviz batch --backend cpu --threads 1 --gap-open 11 --gap-extend 2 $tmp/many.fa $tmp/many.fa"
t0=$(date +%s%N)
script -qec "$batch" /dev/null > "$tmp/batch_tty.out"
ms=$((($(date +%s%N) - t0) / 1000000))
if ! grep -aq "${cr}dpviz: scoring 4 pairs \.\.\. [0-9]*% [0-9.]* [KMGT]*cells/s" "$tmp/batch_tty.out"; then
  [ "$ms" -ge 1500 ] || { echo "the batch took $ms ms: too short for the 1 s delay; skipped"; exit 77; }
  fail "dpviz batch: no progress line on a terminal (the run took $ms ms)" "$tmp/batch_tty.out"
fi
$batch --quiet > "$tmp/batch_plain.tsv"
tr -d '\r' < "$tmp/batch_tty.out" | grep -a "^[0-9#]" | sed 's/^ *//' > "$tmp/batch_tty.tsv"
cmp -s <(grep -v "^#" "$tmp/batch_plain.tsv") <(grep -av "^#" "$tmp/batch_tty.tsv" | grep -a "	") \
  || fail "dpviz batch: the rows differ from a run without the line" "$tmp/batch_tty.out"
script -qec "$batch --path --format cigar" /dev/null > "$tmp/batch_path.out"
grep -aq "${cr}dpviz: aligning 4 pairs \.\.\. [0-9]*% " "$tmp/batch_path.out" \
  || fail "dpviz batch --path: no progress line" "$tmp/batch_path.out"
echo "dpviz batch: a progress line for scores and for --path, the rows unchanged"
