#!/usr/bin/env bash
# Whole-process wall clock and resident memory of dpviz align on big generated pairs, as a user
# runs it (the result store on the CPU backend: a path, --png, --region --table, the landscape).
# Usage: [SMALL=30000 BIG=100000] bash scripts/bench_store.sh [DPVIZ] [OUTDIR]
# (defaults: build/app/dpviz, a temp dir; SMALL and BIG are the two pair lengths)
# Prints a markdown table last; the logs stay in OUTDIR.
set -euo pipefail
dpviz=${1:-build/app/dpviz}
out=${2:-$(mktemp -d)}
small=${SMALL:-30000}
big=${BIG:-100000}
mkdir -p "$out"
[[ -x $dpviz ]] || { echo "bench_store: no dpviz at $dpviz" >&2; exit 2; }
dpviz=$(realpath "$dpviz")

# Pairs of ~90 % identity: a seeded random sequence and a copy with 5 % substitutions, 2.5 %
# deletions and 2.5 % insertions, cut to the same length.
python3 "$(dirname "$0")/make_pairs.py" "$out" "$small" "$big"

rows=()
run() {  # name, then the dpviz arguments
    local name=$1; shift
    local log=${name//[^a-z0-9]/_}
    /usr/bin/time -v "$dpviz" align "$@" > "$out/$log.out" 2> "$out/$log.time" ||
        { echo "bench_store: $name failed" >&2; head -n 3 "$out/$log.time" >&2; exit 1; }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$log.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$out/$log.time")
    rows+=("| $name | \`dpviz align $*\` | $wall | $rss MiB |")
}
cd "$out"
mid=$((big / 2))
run "path $big^2" --backend cpu --json "q$big.fa" "t$big.fa"
run "png $small^2" --backend cpu --png png-small.png "q$small.fa" "t$small.fa"
run "png $big^2" --backend cpu --png png-big.png "q$big.fa" "t$big.fa"
run "region of $big^2" --backend cpu --region "$mid:$((mid + 100)),$mid:$((mid + 100))" --table window.tsv "q$big.fa" "t$big.fa"
run "landscape $small^2" --backend cpu --layer landscape --png landscape-small.png "q$small.fa" "t$small.fa"

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "| case | command | wall (m:ss) | resident |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
