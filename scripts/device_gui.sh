#!/usr/bin/env bash
# The GUI on the GPU machine (H200): a real GLFW window under Xvfb with the NVIDIA GLX library,
# so the texture takes the CUDA-GL interop path and results stay in GPU memory. Runs the GL
# interop / GPU-resident view tests and the in-app measurements; logs go to $OUT.
#   on the development machine:  bash scripts/device_gui.sh prepare BUILD_DIR
#       (BUILD_DIR configured with -DDPVIZ_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 and built with
#        the targets dpviz and dpviz_gui_tests; fills .xvfb/ and .gl/, both git-ignored)
#   on the device (carry .gl and .xvfb):  bash scripts/device_gui.sh [test] [measure] [runall] [store] [screens] [profile]
#       runall: Run all backends on the 10k x 10k pair (local, NUC.4.4 10/1), the timing panel's
#       DPX line against the bars, as a screenshot (runall_10k.png) and its stdout
#       store: the GUI's result-store tests on the GPU, and with REAL_GUI="A.fa B.fa" a real pair
#       opened through the GPU's store (parameter change -> overview and path on screen; exact
#       2048^2 windows recomputed when zoomed in)
# The GUI stack (ImGui, GLFW, glad) is not installed on the device: the binaries are built here
# (Debian 12, static cudart) and carried with the X server, GLFW and X client debs.
set -u
cd "$(dirname "$0")/.."

if [ "${1:-}" = prepare ]; then
    BUILD=${2:?usage: device_gui.sh prepare BUILD_DIR}
    [ -f .xvfb/run_on_device.sh ] || bash ../shared/device/glx/fetch_debs.sh || exit 1
    mkdir -p .gl .xvfb/bin
    cp ../shared/device/gl-debs/*.deb .gl/
    ls .xvfb/libparasail8_*.deb >/dev/null 2>&1 || (cd .xvfb && apt-get download libparasail8) || exit 1
    # Stripped and gzipped (a third of the size: the carry has a 64 MiB limit), unpacked on the device.
    rm -f .xvfb/bin/*
    for b in app/dpviz tests/gui/dpviz_gui_tests; do
        strip -o ".xvfb/bin/${b##*/}" "$BUILD/$b" && gzip -9 ".xvfb/bin/${b##*/}" || exit 1
    done
    du -cb .gl .xvfb | tail -1 | awk '{printf "carried: %.1f MiB (limit 64)\n", $1 / 1048576}'
    exit 0
fi

for z in .xvfb/bin/*.gz; do [ -f "$z" ] && { gunzip -f "$z" && chmod +x "${z%.gz}"; }; done
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
STEPS=" ${*:-test measure} "
want() { [[ "$STEPS" == *" $1 "* ]]; }
# A machine kept warm from an earlier call can hold a dead Xvfb's socket: run_on_device.sh would
# take it for a running server.
pgrep -x Xvfb >/dev/null || rm -f /tmp/.X11-unix/X99 /tmp/.X99-lock
. .xvfb/run_on_device.sh || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/gpu.txt" 2>&1
rc=0

if want test; then
    # Interop is promised here: its absence fails instead of skipping (DPVIZ_REQUIRE_INTEROP).
    DPVIZ_REQUIRE_GL=1 DPVIZ_REQUIRE_INTEROP=1 .xvfb/bin/dpviz_gui_tests --gtest_filter='GlTexture*' \
        > "$OUT/gui_gpu_tests.log" 2>&1 || rc=1
    grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) ' "$OUT/gui_gpu_tests.log" | tail -20
fi

if want measure; then
    # 10k x 10k local, NUC.4.4, gap open 10 <-> 11: parameter change -> frame, and the 2048^2
    # interop update. The screenshot shows the state after the last change.
    .xvfb/bin/dpviz gui --random-pair 10000 --measure-interactive 30 --measure-upload 100 --json \
        --size 1280x800 --screenshot "$OUT/measure_10k.png" > "$OUT/measure_10k.txt" 2>&1 || rc=1
    cat "$OUT/measure_10k.txt"
    # The same pair on the CPU backend's host path, for comparison (fewer changes: it is slow).
    .xvfb/bin/dpviz gui --random-pair 10000 --backend cpu --measure-interactive 3 --json \
        > "$OUT/measure_10k_host.txt" 2>&1 || rc=1
    tail -12 "$OUT/measure_10k_host.txt"
fi
if want runall; then
    # (DPVIZ_ASSETS: the carried binary is outside the tree; the panel reads docs/sass through it.)
    DPVIZ_ASSETS=$PWD/assets .xvfb/bin/dpviz gui --random-pair 10000 --gap-open 10 --gap-extend 1 --run-all \
        --size 1600x1700 --frames 6 --screenshot "$OUT/runall_10k.png" > "$OUT/runall_10k.txt" 2>&1 || rc=1
    cat "$OUT/runall_10k.txt"
fi
if want store; then
    DPVIZ_REQUIRE_GL=1 .xvfb/bin/dpviz_gui_tests --gtest_filter='StoreResult.*:GuiLandscape*:GlTextureLandscape*:GlTextureStore*' > "$OUT/gui_store_tests.log" 2>&1 || rc=1
    grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) ' "$OUT/gui_store_tests.log" | tail -20
    if [ -n "${REAL_GUI:-}" ]; then
        # Local, NUC.4.4, gaps 10/1 (gap open 10 <-> 11 for the changes).
        .xvfb/bin/dpviz gui $REAL_GUI --gap-open 10 --gap-extend 1 --measure-interactive 4 --measure-window 20 --json \
            --size 1280x800 --screenshot "$OUT/measure_real.png" > "$OUT/measure_real.txt" 2>&1 || rc=1
        cat "$OUT/measure_real.txt"
    fi
fi
if want screens; then
    # The GPU teaching screenshots of docs/teaching.md (docs/img/teach_*_gpu.png): the DPX
    # kernel's schedule, drawn by dpviz on the H200.
    # (Their messages go to the output, not to a file: the device returns at most 8 files.)
    .xvfb/bin/dpviz gui --example globins --backend cuda --teach playback --teach-step 60 --frames 6 \
        --screenshot "$OUT/teach_playback_gpu.png" 2>&1 || rc=1
    .xvfb/bin/dpviz gui --example dna --backend cuda --teach ownership --teach-color warp --frames 6 \
        --screenshot "$OUT/teach_ownership_gpu.png" 2>&1 || rc=1
fi
if want profile; then
    # Kernel durations of one 10k x 10k parameter change and of the 2048^2 view (the times of the
    # run itself mean nothing under the profiler: every kernel is replayed).
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    "$NCU" --metrics gpu__time_duration.sum --csv --print-units base --print-kernel-base function --launch-count 400 \
        .xvfb/bin/dpviz gui --random-pair 10000 --measure-interactive 1 --measure-upload 3 --json --size 1280x800 \
        > "$OUT/ncu_10k.csv" 2> "$OUT/ncu_10k.err" || rc=1
    # name, count, total and last duration (ns) per kernel
    awk -F'","' '/gpu__time_duration.sum/ { n = $5; sub(/\(.*/, "", n); v = $NF; gsub(/[",]/, "", v);
        c[n]++; t[n] += v; last[n] = v } END { for (n in c) printf "%-60s %5d %12.0f %10.0f\n", substr(n, 1, 60), c[n], t[n], last[n] }' \
        "$OUT/ncu_10k.csv" | sort -k3 -n -r | head -30 | tee "$OUT/ncu_10k_summary.txt"
fi
exit $rc
