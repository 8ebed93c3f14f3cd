#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
#   1. Release build (CUDA when nvcc is found): all CTest tests (gpu-labelled ones skip without a device),
#      then its .deb: built, unpacked into a temporary root and run from there (scripts/package-check.sh).
#   2. A bounded fuzz run: each libFuzzer target for 60 s (clang, ASan+UBSan; docs/robustness.md).
#   3. ASan+UBSan build (CPU only): all CTest tests again.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh test
jobs=$(nproc)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPVIZ_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
bash scripts/package-check.sh build

bash scripts/fuzz.sh 60

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDPVIZ_SANITIZE=ON -DDPVIZ_CUDA=OFF -DDPVIZ_TESTS=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE gpu
