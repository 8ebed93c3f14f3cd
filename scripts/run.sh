#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and shows dpviz on the bundled
# globin pair. With no display (or before the GUI lands) it renders the example to a PNG.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh run
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPVIZ_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target dpviz

example=assets/examples/globins.fa
mkdir -p out
png=$PWD/out/example_globins.png
./build/app/dpviz align --algo global --query-record HBA_HUMAN --target-record HBB_HUMAN \
  --png "$png" "$example" "$example"
echo
echo "dpviz: rendered the example (HBA_HUMAN x HBB_HUMAN, global, BLOSUM62 10/1) to $png"
