#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and opens dpviz on the bundled
# globin pair. With no display it renders the example to PNGs (the heatmap, and the GUI
# window under a virtual display) and prints where they are.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh run
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDPVIZ_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target dpviz
dpviz=./build/app/dpviz
example=assets/examples/globins.fa
# The GUI and the PNG show the same alignment: these inputs and parameters for both.
pair=(--algo global --matrix BLOSUM62 --gap-open 10 --gap-extend 1
      --query-record HBA_HUMAN --target-record HBB_HUMAN "$example" "$example")

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && $dpviz gui --help >/dev/null 2>&1; then
  exec $dpviz gui "${pair[@]}"
fi

mkdir -p out
png=$PWD/out/example_globins.png
$dpviz align --png "$png" "${pair[@]}"
echo
echo "dpviz: no display; rendered the example (HBA_HUMAN x HBB_HUMAN, global, BLOSUM62 10/1) to $png"
if command -v xvfb-run >/dev/null && $dpviz gui --help >/dev/null 2>&1; then
  shot=$PWD/out/example_gui.png
  xvfb-run -a -s '-screen 0 1280x800x24' $dpviz gui --screenshot "$shot" --frames 5 "${pair[@]}"
  echo "dpviz: the GUI on the same example, drawn on a virtual display: $shot"
fi
