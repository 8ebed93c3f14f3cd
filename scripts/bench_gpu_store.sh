#!/usr/bin/env bash
# Whole-process wall clock and resident memory of dpviz align on the GPU at scale, as a user runs
# it: a path through the result store (the fill keeps checkpoint lines, the host traces over
# tiles), score-only fills through the bottom-row ring, beside the CPU's store, and a PNG (the
# store's fill pools the overview on the GPU). With REAL="A.fa B.fa" also a real pair: its path,
# its score-only score, and the path's alignment rescored outside dpviz (rescore_alignment.py).
# Usage: [SIZES="65536 131072 1048576"] [REAL="A.fa B.fa"] bash scripts/bench_gpu_store.sh [DPVIZ] [OUTDIR]
# Prints a markdown table last; the logs stay in OUTDIR.
set -uo pipefail
dpviz=${1:-build/app/dpviz}
out=${2:-$(mktemp -d)}
sizes=${SIZES:-65536 131072 1048576}
mkdir -p "$out"
[[ -x $dpviz ]] || { echo "bench_gpu_store: no dpviz at $dpviz" >&2; exit 2; }
dpviz=$(realpath "$dpviz")
here=$(cd "$(dirname "$0")" && pwd)
matrices=$here/../assets/matrices
real=()
[ -n "${REAL:-}" ] && for f in $REAL; do real+=("$(realpath "$f")"); done

# Pairs of ~90 % identity, as scripts/bench_store.sh makes them.
python3 "$(dirname "$0")/make_pairs.py" "$out" $sizes

rows=()
run() {  # name, timeout, then the dpviz arguments
    local name=$1 limit=$2; shift 2
    local log=${name//[^a-z0-9]/_}
    timeout "$limit" /usr/bin/time -v "$dpviz" align "$@" > "$out/$log.out" 2> "$out/$log.time"
    local rc=$? wall rss facts
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$log.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$out/$log.time")
    facts=$(grep -o '"score":[-0-9.]*\|"backend":"[a-z-]*"\|"fill_ms":[0-9.]*\|"traceback_ms":[0-9.]*\|"job_ms":[0-9.]*\|"checkpoint_spacing":[0-9]*\|"fallback":"[^"]*"' "$out/$log.out" | tr '\n' ' ')
    rows+=("| $name | \`dpviz align $*\` | rc $rc | ${wall:-?} | ${rss:-?} MiB | $facts |")
}
cd "$out"
# What every run pays before and after its work: the process, and the GPU's setup and teardown.
run "start: 8^2 cpu" 60 --backend cpu --json --seq ACGTACGT ACGTTCGT
run "start: 8^2 cuda" 60 --backend cuda --json --seq ACGTACGT ACGTTCGT
for n in $sizes; do
    run "score $n^2 cuda" 120 --backend cuda --score-only --json "q$n.fa" "t$n.fa"
    run "path $n^2 cuda" 120 --backend cuda --json "q$n.fa" "t$n.fa"
    run "png $n^2 cuda" 120 --backend cuda --png "png$n.png" "q$n.fa" "t$n.fa"
    [ "$n" -le 131072 ] && run "path $n^2 auto" 300 --json "q$n.fa" "t$n.fa"
    [ "$n" -le 131072 ] && run "path $n^2 cpu" 300 --backend cpu --json "q$n.fa" "t$n.fa"
done
if [ ${#real[@]} = 2 ]; then
    a=${real[0]} b=${real[1]}
    run "real score" 120 --backend cuda --score-only --json "$a" "$b"
    run "real path" 120 --backend cuda --json "$a" "$b"
    run "real png" 120 --backend cuda --png real.png "$a" "$b"
    rows+=("| real path rescored | \`rescore_alignment.py\` | $(python3 "$here/rescore_alignment.py" real_path.out "$matrices/NUC.4.4" 2>&1) | | | |")
    rows+=("| real score-only = path's score | | $(grep -o '"score":[-0-9.]*' real_score.out) / $(grep -o '"score":[-0-9.]*' real_path.out) | | | |")
fi

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "| case | command | exit | wall (m:ss) | resident | JSON |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
