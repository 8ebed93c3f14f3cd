#!/usr/bin/env bash
# `cmake --install` into a DESTDIR outside the build tree: the expected files, and a binary that
# finds its examples at ../share/dpviz from itself (never in the source tree once moved out).
#   install_layout_test.sh BUILD_DIR HAVE_GUI(0|1)
set -euo pipefail
build=$1 gui=$2
tmp=$(mktemp -d /tmp/dpviz-install-XXXXXX)  # /tmp: outside the build tree
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

DESTDIR=$tmp/root cmake --install "$build" --prefix /usr > "$tmp/install.log"
root=$tmp/root
expected=(usr/bin/dpviz
          usr/share/dpviz/examples/globins.fa usr/share/dpviz/examples/dna_repeat_inversion.fa
          usr/share/dpviz/examples/signal_a.csv usr/share/dpviz/examples/signal_b.csv
          usr/share/dpviz/matrices/BLOSUM62 usr/share/dpviz/matrices/NUC.4.4
          usr/share/dpviz/sass/sass_mix_sm90.txt usr/share/dpviz/scan/bench_scan_h200.txt
          usr/share/dpviz/scan/bench_scan_h100.txt
          usr/share/man/man1/dpviz.1.gz
          usr/share/bash-completion/completions/dpviz)
[ "$gui" = 1 ] && expected+=(usr/share/applications/dpviz.desktop usr/share/icons/hicolor/scalable/apps/dpviz.svg)
for f in "${expected[@]}"; do [ -f "$root/$f" ] || fail "$f not installed"; done
[ -x "$root/usr/bin/dpviz" ] || fail "usr/bin/dpviz is not executable"
# Nothing beyond those folders (no headers, static libraries or build files).
unexpected=$(cd "$root" && find . -type f | grep -vE '^\./usr/(bin/dpviz|share/(dpviz|man/man1|bash-completion/completions|applications|icons/hicolor/scalable/apps)/)' || true)
[ -z "$unexpected" ] || fail "unexpected files installed: $unexpected"
gzip -dc "$root/usr/share/man/man1/dpviz.1.gz" | grep -q '^\.TH DPVIZ 1' || fail "dpviz.1.gz is not the man page"
bash -n "$root/usr/share/bash-completion/completions/dpviz" || fail "the bash completion does not parse"
if [ "$gui" = 1 ] && command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/dpviz.desktop" || fail "desktop-file-validate"
fi

# Run from /, with neither $DPVIZ_ASSETS nor a display.
run() { (cd / && env -u DPVIZ_ASSETS -u DISPLAY -u WAYLAND_DISPLAY "$@"); }
version=$(run "$root/usr/bin/dpviz" --version) || fail "dpviz --version failed"
[[ $version == "dpviz "* ]] || fail "dpviz --version printed '$version'"
if [ "$gui" = 1 ]; then
  # `gui --example` looks the examples up before it opens a window: exit 3 when they are not
  # found, exit 5 (no display) once they are.
  shot=$tmp/never.png
  rc=0; run "$root/usr/bin/dpviz" gui --example globins --screenshot "$shot" > "$tmp/gui.out" 2>&1 || rc=$?
  [ $rc = 5 ] || fail "installed binary: gui --example exit $rc, wanted 5 (examples found, no display): $(cat "$tmp/gui.out")"
  mkdir "$tmp/bare" && cp "$root/usr/bin/dpviz" "$tmp/bare/dpviz"
  rc=0; run "$tmp/bare/dpviz" gui --example globins --screenshot "$shot" > "$tmp/bare.out" 2>&1 || rc=$?
  [ $rc = 3 ] || fail "moved binary without share/dpviz: exit $rc, wanted 3 (not found; the source tree is not used)"
  grep -q "bundled examples were not found" "$tmp/bare.out" || fail "moved binary: $(cat "$tmp/bare.out")"
  rc=0; (cd / && DPVIZ_ASSETS=$root/usr/share/dpviz env -u DISPLAY -u WAYLAND_DISPLAY "$tmp/bare/dpviz" gui --example globins \
           --screenshot "$shot" > "$tmp/env.out" 2>&1) || rc=$?
  [ $rc = 5 ] || fail "moved binary with DPVIZ_ASSETS: exit $rc, wanted 5: $(cat "$tmp/env.out")"
fi
[ $status = 0 ] && echo "installed ${#expected[@]} files under $root/usr; the binary finds its examples from there"
exit $status
