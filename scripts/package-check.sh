#!/usr/bin/env bash
# The .deb of a built tree, checked without installing it: cpack -G DEB, its declared
# dependencies, unpacked with dpkg -x into a temporary root and run from / with no
# $DPVIZ_ASSETS: --version, the bundled globins through align --png, the GUI's example lookup.
#   scripts/package-check.sh [BUILD_DIR]   (default build; the tree must be built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
start=$SECONDS
tmp=$(mktemp -d /tmp/dpviz-deb-XXXXXX)  # /tmp: outside the build and source trees
trap 'rm -rf "$tmp"' EXIT
fail() { echo "dpviz package check: FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/out/dpviz_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
echo "dpviz package check: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB; Depends: $depends"
for lib in libc6 libstdc++6 zlib1g libstb0; do [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib"; done
if "$build/app/dpviz" gui --help >/dev/null 2>&1; then
  gui=1
  for lib in libglfw3 libgl1; do [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib"; done
else
  gui=0
fi

root=$tmp/root
dpkg -x "$deb" "$root"
dpviz=$root/usr/bin/dpviz
run() { (cd / && env -u DPVIZ_ASSETS "$@"); }
run "$dpviz" --version | grep -q "^dpviz " || fail "dpviz --version"
examples=$root/usr/share/dpviz/examples
json=$(run "$dpviz" align --algo global --gap-open 10 --gap-extend 1 --query-record HBA_HUMAN --target-record HBB_HUMAN --json \
         --png "$tmp/globins.png" "$examples/globins.fa" "$examples/globins.fa") || fail "align on the bundled globins"
[[ $json =~ \"score\":\ *290[,}] ]] || fail "globins: score is not 290: $json"
[ "$(head -c 4 "$tmp/globins.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "globins.png is not a PNG"
echo "dpviz package check: align --png on the installed globins: score 290, $(du -k "$tmp/globins.png" | cut -f1) KiB PNG"
if command -v desktop-file-validate >/dev/null && [ $gui = 1 ]; then
  desktop-file-validate "$root/usr/share/applications/dpviz.desktop" || fail "desktop-file-validate"
fi

if [ $gui = 1 ]; then
  if command -v xvfb-run >/dev/null; then
    # The GUI finds its examples from its own location: a real frame on a virtual display.
    run xvfb-run -a -s '-screen 0 1280x800x24' "$dpviz" gui --example globins --no-session \
      --screenshot "$tmp/gui.png" --frames 2 > "$tmp/gui.log" 2>&1 || { cat "$tmp/gui.log" >&2; fail "gui --example globins"; }
    [ -s "$tmp/gui.png" ] || fail "no GUI screenshot"
    echo "dpviz package check: gui --example globins under Xvfb from the unpacked root: $(du -k "$tmp/gui.png" | cut -f1) KiB screenshot"
  fi
  # The same binary moved away from share/dpviz finds nothing: it never falls back on the
  # source tree compiled into it.
  mkdir "$tmp/bare" && cp "$dpviz" "$tmp/bare/"
  rc=0; run env -u DISPLAY -u WAYLAND_DISPLAY "$tmp/bare/dpviz" gui --example globins > "$tmp/bare.log" 2>&1 || rc=$?
  [ $rc = 3 ] || fail "a moved binary: exit $rc, wanted 3 (examples not found): $(cat "$tmp/bare.log")"
fi
echo "dpviz package check: passed in $((SECONDS - start)) s"
