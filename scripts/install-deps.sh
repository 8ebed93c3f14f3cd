#!/usr/bin/env bash
# Installs the Debian 12 packages dpviz needs, only those that are missing.
#   scripts/install-deps.sh run    build + run (GUI stack, PNG export)
#   scripts/install-deps.sh test   also the test tools and peers (GoogleTest, EMBOSS, parasail, edlib, clang,
#                                  desktop-file-utils for the package check)
set -euo pipefail
want=${1:-run}

pkgs=(build-essential cmake ninja-build pkg-config zlib1g-dev libstb-dev
      libimgui-dev libglfw3-dev python3-glad libgl-dev xvfb xauth libgl1-mesa-dri
      libfreetype-dev fonts-dejavu-core)
if [ "$want" = test ]; then
  pkgs+=(libgtest-dev googletest emboss emboss-data emboss-test samtools parasail libparasail-dev
         libedlib-dev edlib-aligner clang libclang-rt-14-dev desktop-file-utils python3-pomegranate)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "dpviz: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
