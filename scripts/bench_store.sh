#!/usr/bin/env bash
# Whole-process wall clock and resident memory of dpviz align on big generated pairs, as a user
# runs it (the result store on the CPU backend: a path, --png, --region --table, the landscape).
# Usage: bash scripts/bench_store.sh [DPVIZ] [OUTDIR]   (defaults: build/app/dpviz, a temp dir)
# Prints a markdown table last; the logs stay in OUTDIR.
set -euo pipefail
dpviz=${1:-build/app/dpviz}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
[[ -x $dpviz ]] || { echo "bench_store: no dpviz at $dpviz" >&2; exit 2; }

# Pairs of ~90 % identity: a seeded random sequence and a copy with 5 % substitutions, 2.5 %
# deletions and 2.5 % insertions, cut to the same length.
python3 - "$out" <<'EOF'
import random, sys
out = sys.argv[1]
for n in (30000, 100000):
    rng = random.Random(n)
    q = ''.join(rng.choice('ACGT') for _ in range(n))
    t = []
    for c in q:
        x = rng.random()
        if x < 0.05: t.append(rng.choice('ACGT'))
        elif x < 0.075: continue
        elif x < 0.1: t.append(c + rng.choice('ACGT'))
        else: t.append(c)
    t = ''.join(t)[:n]
    for name, s in (('q', q), ('t', t)):
        with open(f'{out}/{name}{n}.fa', 'w') as f:
            f.write(f'>{name}{n}\n')
            for k in range(0, len(s), 60): f.write(s[k:k + 60] + '\n')
EOF

rows=()
run() {  # name, then the dpviz arguments
    local name=$1; shift
    /usr/bin/time -v "$dpviz" "$@" > "$out/$name.out" 2> "$out/$name.time" || { echo "bench_store: $name failed" >&2; cat "$out/$name.time" >&2; exit 1; }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$name.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$out/$name.time")
    rows+=("| $name | \`dpviz align $*\` | $wall | $rss MiB |")
}
cd "$out"
run path-100k --backend cpu --json q100000.fa t100000.fa
run png-30k --backend cpu --png png30k.png q30000.fa t30000.fa
run png-100k --backend cpu --png png100k.png q100000.fa t100000.fa
run region-100k --backend cpu --region 50000:50100,50000:50100 --table window.tsv q100000.fa t100000.fa
run landscape-30k --backend cpu --layer landscape --png land30k.png q30000.fa t30000.fa

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "| case | command | wall (m:ss) | resident |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
