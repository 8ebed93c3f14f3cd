#!/usr/bin/env bash
# The bounded fuzz run (docs/robustness.md): builds the libFuzzer targets of tests/fuzz with
# clang, ASan and UBSan in build-fuzz/, runs each for SECONDS (default 60) from its seed corpus,
# and fails on any crash, leak, timeout, out-of-memory or harness finding.
#   scripts/fuzz.sh [SECONDS]          all targets: sequences signal matrix cli hmm
#   FUZZ_TARGETS="cli" scripts/fuzz.sh 600
# New inputs libFuzzer finds stay in build-fuzz/fuzz-corpus/<target>/ (never in the source tree);
# a failing input is saved as build-fuzz/fuzz-artifacts/<target>/crash-* (or leak-, timeout-,
# oom-): copy it to tests/fuzz/corpus/<target>/ once fixed, as a regression input.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(${FUZZ_TARGETS:-sequences signal matrix cli hmm})
build=build-fuzz
root=$(pwd)

grep -q DPVIZ_FUZZ CMakeLists.txt ||
  { echo "fuzz: CMakeLists.txt has no DPVIZ_FUZZ option yet (see docs/robustness.md, Build)" >&2; exit 2; }
for tool in clang clang++; do
  command -v "$tool" >/dev/null || { echo "fuzz: $tool not found (scripts/install-deps.sh test)" >&2; exit 2; }
done

# Everything is instrumented (DPVIZ_FUZZ=ON adds the flags); -O1 -g as libFuzzer recommends,
# and assertions stay on.
cmake -S . -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DDPVIZ_FUZZ=ON -DDPVIZ_CUDA=OFF -DDPVIZ_TESTS=ON >/dev/null
cmake --build "$build" -j"${FUZZ_BUILD_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0  # why: scripts/test.sh
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
failed=()
printf '%-10s %12s %9s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
  max_len=65536
  extra=()
  if [ "$t" = cli ]; then
    max_len=4096
    extra=(-dict="$root/tests/fuzz/cli.dict")
  fi
  work="$root/$build/fuzz-corpus/$t"
  artifacts="$root/$build/fuzz-artifacts/$t"
  log="$root/$build/fuzz-artifacts/$t.log"
  mkdir -p "$work" "$artifacts"
  rc=0
  # Absolute paths throughout; the first corpus folder is the writable one.
  "$root/$build/fuzz/fuzz_$t" "${extra[@]}" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ "$rc" -eq 0 ]; then
    result=ok
  else
    kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z -]+|runtime error|dpviz fuzz finding' "$log" || true)
    unit=$(grep -m1 -oE "Test unit written to [^ ]+" "$log" | sed 's/Test unit written to //' || true)
    result="FAILED (${kind:-exit $rc}) ${unit:-}; log $log"
    failed+=("$t")
  fi
  printf '%-10s %12s %9s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failures in ${failed[*]}: the first lines of each log say what and where" >&2
  for t in "${failed[@]}"; do
    grep -m3 -E 'dpviz fuzz finding|ERROR:|SUMMARY:' "$root/$build/fuzz-artifacts/$t.log" >&2 || true
  done
  exit 1
fi
