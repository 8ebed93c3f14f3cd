#!/usr/bin/env bash
# The one script run on the GPU machine (H200, sm_90): configure + build, the gpu-labelled tests,
# compute-sanitizer memcheck/racecheck on a reduced set, the SASS instruction mix (sm_90 build vs
# the carried sm_80 cubins of the same sources) and the fill benchmark. Logs go to $OUT; a short
# table is printed last.   usage: bash scripts/device_gpu.sh [build test sanitize sass bench epilogue batch viterbi store gpustore diag profile pairbench storeprof scale chain sweep forms serial dtw scan]...
# TEST_FILTER, SAN_FILTER: a --gtest_filter for the test step and for the sanitizers' (else the
# whole suite, and the reduced set below).
# BIN=DIR: take dpviz, dpviz_gpu_tests and dpviz_gpu_bench built on the development machine (in DIR,
# gzipped or not) instead of the build step.
# Carried in .devcarry/ (git-ignored, made by scripts/device_gpu.sh prepare on the dev machine):
#   googletest/ (Debian's sources), stb/ (headers, libstb.a, stb.pc.in), sm80/*.cubin
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
CARRY=$ROOT/.devcarry
FINAL=${OUT:-$ROOT/device-out}
# A second run of this script in one device call keeps the first one's files: it writes into
# run2/, run3/, ... of the same folder.
if [ -e "$FINAL/summary.txt" ]; then
    n=2
    while [ -e "$FINAL/run$n" ]; do n=$((n + 1)); done
    FINAL=$FINAL/run$n
fi
OUT=$FINAL/logs          # everything but the summary goes into logs.tgz (the device returns <= 8 files)
J=${J:-16}
STEPS=" ${*:-build test sanitize sass bench} "
mkdir -p "$OUT"
SUMMARY=$FINAL/summary.txt
: > "$SUMMARY"
note() { echo "$*" | tee -a "$SUMMARY"; }
want() { [[ "$STEPS" == *" $1 "* ]]; }

if [[ "$STEPS" == *" prepare "* ]]; then  # on the development machine: fill .devcarry
    mkdir -p "$CARRY/stb/include/stb" "$CARRY/stb/lib" "$CARRY/sm80"
    cp -r /usr/src/googletest "$CARRY/" 2>/dev/null
    cp /usr/include/stb/*.h "$CARRY/stb/include/stb/" && cp /usr/lib/x86_64-linux-gnu/libstb.a "$CARRY/stb/lib/"
    printf 'prefix=@PREFIX@\nlibdir=${prefix}/lib\nincludedir=${prefix}/include/stb\n\nName: stb\nDescription: stb\nVersion: 0.0\nLibs: -L${libdir} -lstb\nCflags: -I${includedir}\n' > "$CARRY/stb/stb.pc.in"
    for f in alignment glocal edit lcs dtw pair_score batch_align batch_other; do
        nvcc -std=c++20 -O3 -arch=sm_80 --expt-relaxed-constexpr -Ikernels/include -Ikernels/common -Ikernels/cuda -cubin \
            kernels/cuda/$f.cu -o "$CARRY/sm80/$f.cubin" &
    done
    wait
    exit 0
fi

{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  nvcc --version | tail -2; cmake --version | head -1; nproc; } > "$OUT/env.txt" 2>&1
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
note "load average at the start (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"

# --- dependencies of the top-level CMake (GTest, pkg-config stb, zlib): use the carried ones if missing
CMAKE_ARGS=()
if ! ls /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest.so /usr/local/lib/libgtest.a >/dev/null 2>&1; then
    if [ -d "$CARRY/googletest" ] && [ ! -f /tmp/gtest/lib/libgtest.a ] && want build; then
        (cmake -S "$CARRY/googletest" -B /tmp/gtest-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_INSTALL_PREFIX=/tmp/gtest -DBUILD_GMOCK=OFF && cmake --build /tmp/gtest-build -j"$J" &&
            cmake --install /tmp/gtest-build) > "$OUT/gtest_build.log" 2>&1
    fi
    CMAKE_ARGS+=("-DGTest_ROOT=/tmp/gtest" "-DCMAKE_PREFIX_PATH=/tmp/gtest")
    note "googletest: built from the carried Debian sources"
fi
if ! pkg-config --exists stb 2>/dev/null && [ -d "$CARRY/stb" ]; then
    mkdir -p /tmp/stb-pc && sed "s|@PREFIX@|$CARRY/stb|" "$CARRY/stb/stb.pc.in" > /tmp/stb-pc/stb.pc
    export PKG_CONFIG_PATH=/tmp/stb-pc:${PKG_CONFIG_PATH:-}
fi

BUILD=$ROOT/build-dev
TESTS=$BUILD/tests/dpviz_gpu_tests
BENCH=$BUILD/kernels/cuda/dpviz_gpu_bench
CLI=$BUILD/app/dpviz
LIB=$BUILD/kernels/libdpviz_kernels.a
if [ -n "${BIN:-}" ]; then
    for z in "$BIN"/*.gz; do [ -f "$z" ] && gunzip -f "$z"; done
    chmod +x "$BIN"/* 2>/dev/null
    TESTS=$BIN/dpviz_gpu_tests BENCH=$BIN/dpviz_gpu_bench CLI=$BIN/dpviz
    LIB=$BIN/dpviz  # the SASS step reads the kernels from the executable
    note "binaries: built on the development machine ($BIN)"
fi
if want build; then
    ok=0
    if cmake -S . -B "$BUILD" -G Ninja -DDPVIZ_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DDPVIZ_TESTS=ON \
        "${CMAKE_ARGS[@]}" > "$OUT/configure.log" 2>&1 &&
        cmake --build "$BUILD" -j"$J" --target dpviz_gpu_tests dpviz_gpu_bench dpviz_sass_report > "$OUT/build.log" 2>&1; then
        ok=1
        note "build: top-level CMake OK"
        # The CLI (batch, literature workloads) and the CPU test executables, for the steps below.
        cmake --build "$BUILD" -j"$J" --target dpviz dpviz_kernel_tests dpviz_app_tests > "$OUT/build_cli.log" 2>&1 ||
            note "build: CLI/cpu tests FAILED (build_cli.log)"
        cmake --build "$BUILD" -j"$J" --target dpviz_sass_teach > "$OUT/build_sass_teach.log" 2>&1 &&
            cp "$BUILD"/sass_hot.txt "$BUILD"/sass_resources.txt "$OUT/" 2>/dev/null
    else
        # The rest of the tree (GUI, renderer) may want what this machine lacks: build the engine alone.
        note "build: top-level CMake failed (see configure.log/build.log); building the engine alone"
        BUILD=/tmp/dpviz-min-build
        mkdir -p /tmp/dpviz-min
        cat > /tmp/dpviz-min/CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.25)
project(dpviz_gpu_min LANGUAGES C CXX CUDA)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_BUILD_TYPE Release)
find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
file(GLOB cpu $ROOT/kernels/cpu/*.cpp)
list(FILTER cpu EXCLUDE REGEX "no_gpu[.]cpp\$")
add_library(dpviz_kernels STATIC \${cpu})
target_include_directories(dpviz_kernels PUBLIC $ROOT/kernels/include PRIVATE $ROOT/kernels/common)
target_link_libraries(dpviz_kernels PRIVATE Threads::Threads)
add_subdirectory($ROOT/kernels/cuda cuda)
file(GLOB gpu_tests $ROOT/tests/kernels/*_gpu.cpp)
add_executable(dpviz_gpu_tests \${gpu_tests})
target_include_directories(dpviz_gpu_tests PRIVATE $ROOT/tests $ROOT/kernels/common)
target_link_libraries(dpviz_gpu_tests PRIVATE dpviz_kernels GTest::gtest_main Threads::Threads)
CM
        if cmake -S /tmp/dpviz-min -B "$BUILD" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 "${CMAKE_ARGS[@]}" \
            > "$OUT/configure_min.log" 2>&1 &&
            cmake --build "$BUILD" -j"$J" --target dpviz_gpu_tests dpviz_gpu_bench dpviz_sass_report > "$OUT/build_min.log" 2>&1; then
            ok=1
        fi
        TESTS=$BUILD/dpviz_gpu_tests
        BENCH=$BUILD/cuda/dpviz_gpu_bench
        LIB=$BUILD/libdpviz_kernels.a
    fi
    [ $ok = 1 ] || { note "build: FAILED"; for f in "$OUT"/build*.log; do tail -n 30 "$f"; done; exit 1; }
    cp "$BUILD/sass_report.txt" "$OUT/sass_mix_sm90.txt" 2>/dev/null
fi

if want test; then
    start=$(date +%s)
    # The whole suite takes more than 300 s on an H100 (three 1,048,576^2 pairs against the CPU's
    # reference); without --gtest_brief a run the limit cuts still shows the last test it finished.
    timeout "${TEST_TIMEOUT:-450}" "$TESTS" ${TEST_FILTER:+"--gtest_filter=$TEST_FILTER"} > "$OUT/gpu_tests.log" 2>&1
    rc=$?
    note "gpu tests: rc=$rc, $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/gpu_tests.log" | tr '\n' ' ') ($(( $(date +%s) - start )) s)"
    if [ $rc = 124 ]; then note "gpu tests: cut after $(grep -E '^\[       OK \]' "$OUT/gpu_tests.log" | tail -n 1)"; fi
fi

if want cputests; then
    # The engine-level tests that also meet the device (fault injection, batch on every machine).
    for t in dpviz_kernel_tests dpviz_app_tests; do
        timeout 300 "$BUILD/tests/$t" --gtest_brief=1 > "$OUT/$t.log" 2>&1
        note "$t: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
    done
fi

if want store; then
    # The result store on this machine's CPU threads, as a user runs dpviz (scripts/bench_store.sh).
    timeout 400 bash scripts/bench_store.sh "$CLI" "$OUT/store" > "$OUT/store.txt" 2>&1
    note "result store (CPU backend): rc=$?"
    tail -n 8 "$OUT/store.txt" | tee -a "$SUMMARY"
fi

if want gpustore; then
    # The GPU at scale as a user runs dpviz (scripts/bench_gpu_store.sh).
    timeout 560 bash scripts/bench_gpu_store.sh "$CLI" "$OUT/gpustore" > "$OUT/gpustore.txt" 2>&1
    note "GPU store and ring: rc=$?"
    tail -n 24 "$OUT/gpustore.txt" | tee -a "$SUMMARY"
fi

if want batch; then
    timeout 300 "$CLI" bench --workloads literature > "$OUT/literature.txt" 2>&1
    note "literature workloads: rc=$?"
    timeout 300 "$CLI" bench --workloads literature --json > "$OUT/literature.json" 2>&1
    # The knobs (docs/gpu.md, "The schedule"): 32-bit words only, parts of a chunk, warps per SM.
    for k in "LANES16=0" "PARTS=2" "PARTS=4" "WARPS_PER_SM=24" "WARPS_PER_SM=32" "WARPS_PER_SM=48"; do
        env "DPVIZ_BATCH_$k" timeout 300 "$CLI" bench --workloads literature > "$OUT/literature_$k.txt" 2>&1
        note "literature workloads, DPVIZ_BATCH_$k: rc=$? $(grep -E ' cuda(-portable)? ' "$OUT/literature_$k.txt" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^cuda/) { print $(i + 3); break } }' | tr '\n' ' ')ms"
    done
fi

if want sanitize; then
    # Quick sizes; the one-pair kernel's hang guard at 600 s instead of 2 s (a band of a tall pair
    # waits for every band above it, and racecheck runs them hundreds of times slower).
    export DPVIZ_GPU_TEST_QUICK=1 DPVIZ_GPU_WAIT_LIMIT_S=600
    for tool in memcheck racecheck; do
        timeout "${SAN_TIMEOUT:-120}" compute-sanitizer --tool $tool --error-exitcode 9 "$TESTS" \
            --gtest_filter="${SAN_FILTER:-GpuEngine.SmallShapes*:GpuEngine.AlignRuns*:BatchGpu.TiesGoToTheFirstCellInRowMajorOrder:ScheduleGpu.OwnersMatchTheKernelForSeveralShapes:PairScoreGpu.TiesAsymmetricScoresAndNoPositiveCell:PairScoreGpu.AffineTies:PairScoreGpu.CornerForm*:PairScoreGpu.AffineCorner*:PairScoreGpu.Dtw*:PairScoreGpu.RowSerial*:PairScoreGpu.StoreFills*:PairScoreGpu.PictureFills*:ViterbiGpu.SmallModelsEveryLevel:ViterbiGpu.TiesGoToTheLowestState:ViterbiGpu.ImpossibleObservations:GpuStore.ScoreThroughARingOfTwoRows:GpuStore.LinesAndPathOverThemEqualTheReference:GpuStore.OverviewPooledByTheFill*:GpuStore.WindowsRecomputedOnTheGpu*}" > "$OUT/sanitize_$tool.log" 2>&1
        note "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize_$tool.log" | tail -1)"
    done
    timeout "${LEAK_TIMEOUT:-120}" compute-sanitizer --leak-check full --error-exitcode 9 "$TESTS" --gtest_filter='GpuFaultReal.*' \
        > "$OUT/sanitize_leaks_faults.log" 2>&1
    note "compute-sanitizer leak-check (fault tests): rc=$? $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$OUT/sanitize_leaks_faults.log" | tail -1)"
    unset DPVIZ_GPU_TEST_QUICK DPVIZ_GPU_WAIT_LIMIT_S
fi

if want sass; then
    if [ -f "$LIB" ]; then
        cuobjdump -sass "$LIB" > "$OUT/sass_dump_sm90.txt" 2>/dev/null
        what="sm_90 build on an $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^NVIDIA //') ($(date -u +%F)): cuobjdump of $(basename "$LIB")"
        { echo "# $what -res-usage, kernels/cuda/sass_res_usage.py"; cuobjdump -res-usage "$LIB" 2>/dev/null |
            python3 kernels/cuda/sass_res_usage.py -; } > "$OUT/sass_res_sm90.txt"
        { echo "# $what -sass, kernels/cuda/sass_mix.py"; python3 kernels/cuda/sass_mix.py "$OUT/sass_dump_sm90.txt"; } > "$OUT/sass_mix_sm90.txt"
        { echo "# $what -sass, kernels/cuda/sass_hot_loop.py"; python3 kernels/cuda/sass_hot_loop.py "$OUT/sass_dump_sm90.txt"; } > "$OUT/sass_hot_sm90.txt"
    fi
    if [ -d "$CARRY/sm80" ]; then
        for f in "$CARRY"/sm80/*.cubin; do cuobjdump -sass "$f"; done > "$OUT/sass_dump_sm80.txt" 2>/dev/null
        what="sm_80 build of the same sources (scripts/device_gpu.sh prepare), the device machine's cuobjdump ($(date -u +%F))"
        { echo "# $what, kernels/cuda/sass_mix.py"; python3 kernels/cuda/sass_mix.py "$OUT/sass_dump_sm80.txt"; } > "$OUT/sass_mix_sm80.txt"
        { echo "# $what, kernels/cuda/sass_hot_loop.py"; python3 kernels/cuda/sass_hot_loop.py "$OUT/sass_dump_sm80.txt"; } > "$OUT/sass_hot_sm80.txt"
    fi
    # n/a unless the report has kernel rows (an empty report counts nothing).
    dpxfree_with_dpx=$(awk '$0 ~ /dpx-free/ && $0 !~ /^kernel/ { rows++; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { n = $(i + 1); break } if (n > 0) c++ } END { if (rows) print c + 0 }' "$OUT/sass_mix_sm90.txt" 2>/dev/null)
    note "sass: dpx-free kernels containing DPX instructions: ${dpxfree_with_dpx:-n/a}"
    rm -f "$OUT"/sass_dump_sm*.txt   # large; the mix and hot-loop reports are what we keep
fi

if want bench; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 250 \
        > "$OUT/clocks.txt" 2>&1 &
    smi=$!
    timeout "${BENCH_TIMEOUT:-120}" "$BENCH" "${BENCH_N:-65536}" "${BENCH_REPS:-5}" > "$OUT/bench.txt" 2>&1
    note "bench: rc=$? (SM clock during the bench, MHz: $(awk -F, '{print $2}' "$OUT/clocks.txt" | sort | uniq -c | sort -rn | head -3 | tr -s ' ' | tr '\n' ';'))"
    kill $smi 2>/dev/null
fi

if want epilogue; then
    # What the store's epilogues cost over a bare score fill at 1,048,576^2: checkpoint lines, then
    # lines and the overview (local affine; edit's and DTW's overviews pool the lowest).
    for c in "local affine s" "local affine picture" "edit s" "edit picture" "dtw abs s" "dtw abs picture"; do
        # The band kernels for all three, so the score fill is the same kernel without the epilogues.
        DPVIZ_PAIR_KERNEL=0 timeout 200 "$BENCH" 1048576 3 "$c" >> "$OUT/epilogue.txt" 2>&1
    done
    note "epilogue: rc=$?"
    # The one-pair kernel's score and store fills (its lines), and its local picture (the overview
    # too); every other picture runs the band kernels.
    for c in "local affine s" "edit s" "dtw abs s" "local affine picture"; do
        timeout 200 "$BENCH" 1048576 3 "$c" >> "$OUT/epilogue_pair.txt" 2>&1
    done
    note "epilogue (one-pair kernel): rc=$?"
fi

if want pairbench; then
    # The one-pair kernel (DPVIZ_PAIR_KERNEL unset) against the band kernels (DPVIZ_PAIR_KERNEL=0)
    # on score fills: each dpviz_gpu_bench case of PAIR_CASES (';'-separated) at each size of
    # PAIR_SIZES (N, or MxN).
    IFS=';' read -ra pair_cases <<< "${PAIR_CASES:-dtw abs score}"
    for size in ${PAIR_SIZES:-65536 262144 1048576}; do
        n=${size#*x} m=${size%x*}
        for c in "${pair_cases[@]}"; do
            for knob in unset 0; do
                echo "## $c, $m x $n, DPVIZ_PAIR_KERNEL=$knob" >> "$OUT/pairbench.txt"
                knob_env=(-u DPVIZ_PAIR_KERNEL); [ "$knob" = 0 ] && knob_env=(DPVIZ_PAIR_KERNEL=0)
                env "${knob_env[@]}" timeout "${PAIR_TIMEOUT:-200}" "$BENCH" "$n" "${BENCH_REPS:-5}" "$c" "$m" \
                    >> "$OUT/pairbench.txt" 2>&1 || echo "rc=$?" >> "$OUT/pairbench.txt"
            done
        done
    done
    note "pairbench (DPVIZ_PAIR_KERNEL unset, then 0):"
    grep -E '^(## |rc=)|^[a-z]+ [a-z].*[0-9] ' "$OUT/pairbench.txt" | tee -a "$SUMMARY"
fi

if want storeprof; then
    # Where a fill that keeps checkpoint lines spends its time: instructions and sampled stalls per
    # SASS line of one DPX fill (PROFILE_CASE, default the edit distance store; PROFILE_N^2).
    timeout "${PROFILE_TIMEOUT:-200}" ncu --clock-control none -k regex:band_fill -c 1 --section WarpStateStats \
        --section SourceCounters --page source --print-source sass --csv \
        "$BENCH" "${PROFILE_N:-262144}" 1 "${PROFILE_CASE:-edit store}" > "$OUT/ncu_store.csv" 2>&1
    note "ncu source, ${PROFILE_CASE:-edit store} ${PROFILE_N:-262144}^2: rc=$? $(wc -l < "$OUT/ncu_store.csv") lines"
fi

if want scan; then
    # dpviz bench --scan as a user runs it, timed whole (docs/scan/bench_scan_<device>.txt is its table).
    timed=(); [ -x /usr/bin/time ] && timed=(/usr/bin/time -v)
    "${timed[@]}" timeout "${SCAN_TIMEOUT:-560}" "$CLI" bench --scan --pairs "${SCAN_PAIRS:-65536,262144,524288,1048576}" \
        --repeat 5 > "$OUT/scan.txt" 2> "$OUT/scan.time"
    note "scan: rc=$? wall $(grep -o 'Elapsed (wall clock) time.*' "$OUT/scan.time" | awk '{print $NF}') rss $(grep -o 'Maximum resident set size.*' "$OUT/scan.time" | awk '{print $NF}') KB"
fi

if want viterbi; then
    # Viterbi decoding of one long sequence under a dense 1024-state model (one block per
    # decoding: docs/gpu.md), every backend, whole process timed. Rows are fractions k/sum, so
    # each sums to 1 exactly.
    awk -v S=1024 -v K=4 'BEGIN { srand(7)
        printf "states"; for (s = 0; s < S; s++) printf " S%d", s; printf "\nalphabet A C G T\nstart"
        for (s = 0; s < S; s++) printf " 1/%d", S; printf "\ntransition\n"
        for (r = 0; r < S; r++) { t = 0; for (s = 0; s < S; s++) { w[s] = 1 + int(rand() * 9); t += w[s] }
            printf "S%d", r; for (s = 0; s < S; s++) printf " %d/%d", w[s], t; printf "\n" }
        printf "emission\n"
        for (r = 0; r < S; r++) { t = 0; for (k = 0; k < K; k++) { w[k] = 1 + int(rand() * 9); t += w[k] }
            printf "S%d", r; for (k = 0; k < K; k++) printf " %d/%d", w[k], t; printf "\n" } }' > "$OUT/dense1024.hmm"
    awk 'BEGIN { srand(8); for (i = 0; i < 20000; i++) printf "%s", substr("ACGT", int(rand() * 4) + 1, 1); print "" }' \
        > "$OUT/obs20000.txt"
    DPVIZ_CLI=${DPVIZ_CLI:-$CLI}
    timed=(); [ -x /usr/bin/time ] && timed=(/usr/bin/time -v)
    for run in "cuda score" "cuda-portable score" "cuda path" "cuda-portable path" "cpu score"; do
        set -- $run
        level=(); [ "$2" = score ] && level=(--score-only)
        "${timed[@]}" timeout 120 "$DPVIZ_CLI" align --algo viterbi --hmm "$OUT/dense1024.hmm" --backend "$1" \
            --threads 1 "${level[@]}" --json "$OUT/obs20000.txt" > "$OUT/viterbi_$1_$2.json" 2> "$OUT/viterbi_$1_$2.time"
        note "viterbi 1024 states x 20000, $1 $2: rc=$? $(grep -o '"score":[-0-9]*\|"backend":"[a-z-]*"\|"fill_ms":[0-9.]*' "$OUT/viterbi_$1_$2.json" | tr '\n' ' ')wall $(grep -o 'Elapsed (wall clock) time.*' "$OUT/viterbi_$1_$2.time" | awk '{print $NF}') rss $(grep -o 'Maximum resident set size.*' "$OUT/viterbi_$1_$2.time" | awk '{print $NF}') KB"
    done
fi

if want diag; then
    # Where the long pair's time goes: one band (128 x 65,536: the time of a wavefront step, no
    # lag) and 65,536 x 256 (512 bands, a short sweep: mostly the band pipeline's lag).
    for shape in "65536 128" "256 65536"; do
        set -- $shape
        timeout 60 "$BENCH" "$1" 5 "local linear score" "$2" >> "$OUT/diag.txt" 2>&1
        timeout 60 "$BENCH" "$1" 5 "edit score" "$2" >> "$OUT/diag.txt" 2>&1
    done
    # The same 512-band shape and the long pair with a 32 ns sleep between polls (the old wait loop).
    echo "DPVIZ_GPU_SPIN_NS=32:" >> "$OUT/diag.txt"
    DPVIZ_GPU_SPIN_NS=32 timeout 60 "$BENCH" 256 5 "local linear score" 65536 >> "$OUT/diag.txt" 2>&1
    DPVIZ_GPU_SPIN_NS=32 timeout 60 "$BENCH" 65536 5 "local linear score" >> "$OUT/diag.txt" 2>&1
    note "diag: rc=$?"
fi

if want profile; then
    # Where a fill warp's time goes: one DPX and one DPX-free local score fill, 16384 x 16384.
    timeout "${PROFILE_TIMEOUT:-120}" ncu --clock-control none -k regex:band_fill -c 2 \
        --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy \
        "$BENCH" 16384 1 "local linear score" > "$OUT/ncu.txt" 2>&1
    note "ncu: rc=$? $(grep -E 'Issued Warp Per Scheduler|Stall|No Eligible' "$OUT/ncu.txt" | head -4 | tr -s ' ' | tr '\n' ';')"
fi

if want scale; then
    # Where a big fill's time goes: the profiler on one DPX fill of 262,144^2 (the one-pair kernel:
    # local linear; the band kernel: edit and local affine), then the 1,048,576^2 score fills.
    for c in "local linear score" "edit score" "local affine score"; do
        echo "=== $c 262144^2" >> "$OUT/ncu_scale.txt"
        timeout "${PROFILE_TIMEOUT:-150}" ncu --clock-control none -k regex:"pair_score_fill|band_fill" -c 1 \
            --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy \
            --section LaunchStats --section ComputeWorkloadAnalysis --section InstructionStats \
            "$BENCH" 262144 1 "$c" >> "$OUT/ncu_scale.txt" 2>&1
        note "ncu $c 262144^2: rc=$? $(grep -E 'Issued Warp Per Scheduler|No Eligible|Achieved Active Warps' "$OUT/ncu_scale.txt" | tail -3 | tr -s ' ' | tr '\n' ';')"
    done
    for c in "local linear score" "local affine score" "edit score" "dtw abs score"; do
        timeout 200 "$BENCH" 1048576 3 "$c" >> "$OUT/scale.txt" 2>&1
    done
    note "1,048,576^2 score fills: rc=$?"
fi

if want chain; then
    # The one-pair kernel's critical path at 1,048,576 columns: one group (512 rows: the lone
    # step), one block per SM (132 groups), one wave at 5 blocks per SM (660 groups); then the
    # square with 1 to 5 blocks per SM; and where its warps stall (sampled, per SASS line).
    for m in 512 67584 337920; do timeout 120 "$BENCH" 1048576 3 "local linear score" $m >> "$OUT/chain.txt" 2>&1; done
    for k in 1 2 3 4 5; do
        echo "DPVIZ_PAIR_BLOCKS_PER_SM=$k" >> "$OUT/chain.txt"
        DPVIZ_PAIR_BLOCKS_PER_SM=$k timeout 120 "$BENCH" 1048576 3 "local linear score" >> "$OUT/chain.txt" 2>&1
    done
    note "chain: rc=$?"
    timeout "${PROFILE_TIMEOUT:-200}" ncu --clock-control none -k regex:pair_score_fill -c 1 --section WarpStateStats \
        --section SourceCounters --section SchedulerStats --page source --print-source sass --csv \
        "$BENCH" 1048576 1 "local linear score" > "$OUT/ncu_source.csv" 2>&1
    note "ncu source 1048576^2: rc=$? $(wc -l < "$OUT/ncu_source.csv") lines"
fi

if want sweep; then
    # Blocks per SM of the persistent fills against size (median of 5; 3 at 1,048,576^2): the
    # one-pair kernel (local linear) and the band kernel (edit, local affine, DTW).
    for n in 65536 262144 1048576; do
        reps=5; [ "$n" = 1048576 ] && reps=3
        for k in 1 2 3 4 5; do
            echo "pair k=$k" >> "$OUT/sweep.txt"
            DPVIZ_PAIR_BLOCKS_PER_SM=$k timeout 100 "$BENCH" $n $reps "local linear score" >> "$OUT/sweep.txt" 2>&1
        done
        for k in 2 3 4 5; do
            echo "band k=$k" >> "$OUT/sweep.txt"
            for c in "edit score" "local affine score" "dtw abs score"; do
                DPVIZ_BAND_BLOCKS_PER_SM=$k timeout 100 "$BENCH" $n $reps "$c" >> "$OUT/sweep.txt" 2>&1
            done
        done
    done
    note "sweep: rc=$?"
    # Where the time goes when every SM is busy: the one-pair kernel's skewed fill at 2 blocks per
    # SM over 264 groups (135,168 x 1,048,576; 15 % ramp): stall reasons per issued instruction and
    # pipe use (DPVIZ_PAIR_16X2=0: 135,168 rows would take the 16x2 fill, which the regex misses).
    DPVIZ_PAIR_16X2=0 DPVIZ_PAIR_BLOCKS_PER_SM=2 timeout 200 ncu --clock-control none -k regex:pair_score_fill -c 1 \
        --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active" \
        "$BENCH" 1048576 1 "local linear score" 135168 > "$OUT/ncu_saturated.txt" 2>&1
    note "ncu saturated: rc=$?"
fi

if want serial; then
    # Local linear's routing (pair_score::takes16, takes_serial): its DPX score fill as the device
    # path picks it (the 16x2 fill from 131,072 rows where the scores fit), on the skewed fill
    # (DPVIZ_PAIR_SERIAL=0), on the 32-bit row-serial fill (=1) and at 2 blocks per SM, at each size of
    # SERIAL_SIZES (median of 5; of 3 at 1,048,576^2); then the corner form's default at 1,048,576^2.
    for n in ${SERIAL_SIZES:-131072 262144 524288 1048576}; do
        reps=5; [ "$n" -ge 1048576 ] && reps=3
        for v in default DPVIZ_PAIR_SERIAL=0 DPVIZ_PAIR_SERIAL=1 "DPVIZ_PAIR_SERIAL=1 DPVIZ_PAIR_BLOCKS_PER_SM=2"; do
            echo "## local linear score $n^2 $v" >> "$OUT/serial.txt"
            env ${v/default/} timeout 100 "$BENCH" "$n" $reps "local linear score" >> "$OUT/serial.txt" 2>&1
        done
    done
    echo "## edit score 1048576^2 default" >> "$OUT/serial.txt"
    timeout 100 "$BENCH" 1048576 3 "edit score" >> "$OUT/serial.txt" 2>&1
    note "serial: rc=$?"
    grep -E '^## |^[a-z]+ [a-z].*[0-9] ' "$OUT/serial.txt" | tee -a "$SUMMARY"
fi

if want dtw; then
    # DTW's score fill (pair_score::takes_serial): as the device path picks it, on the skewed fill
    # (DPVIZ_PAIR_SERIAL=0) and on the row-serial fill (=1) at 1 and 2 blocks per SM, the absolute
    # cost; the squared cost as picked and skewed; at each size of DTW_SIZES (median of 5; of 3 at
    # 1,048,576^2). Then a whole process at the largest size (random walks, as the bench's).
    for n in ${DTW_SIZES:-65536 262144 1048576}; do
        reps=5; [ "$n" -ge 1048576 ] && reps=3
        for v in default DPVIZ_PAIR_SERIAL=0 "DPVIZ_PAIR_SERIAL=1 DPVIZ_PAIR_BLOCKS_PER_SM=1" "DPVIZ_PAIR_SERIAL=1 DPVIZ_PAIR_BLOCKS_PER_SM=2"; do
            echo "## dtw abs score $n^2 $v" >> "$OUT/dtw.txt"
            env ${v/default/} timeout 100 "$BENCH" "$n" $reps "dtw abs score" >> "$OUT/dtw.txt" 2>&1
        done
        for v in default DPVIZ_PAIR_SERIAL=0; do
            echo "## dtw squared score $n^2 $v" >> "$OUT/dtw.txt"
            env ${v/default/} timeout 100 "$BENCH" "$n" $reps "dtw squared score" >> "$OUT/dtw.txt" 2>&1
        done
    done
    note "dtw: rc=$?"
    grep -E '^## |^[a-z]+ [a-z].*[0-9] ' "$OUT/dtw.txt" | tee -a "$SUMMARY"
    n=$(echo ${DTW_SIZES:-1048576} | tr ' ' '\n' | tail -n 1)
    for f in q t; do awk -v n="$n" -v seed=$([ $f = q ] && echo 7 || echo 8) \
        'BEGIN { srand(seed); x = 0; for (k = 0; k < n; k++) { x += rand() * 2 - 1; printf "%.3f\n", x } }' > "$OUT/$f.sig"; done
    timed=(); [ -x /usr/bin/time ] && timed=(/usr/bin/time -v)
    for v in default DPVIZ_PAIR_SERIAL=0; do
        for b in cuda cuda-portable; do
            env ${v/default/} "${timed[@]}" timeout 120 "$CLI" align --algo dtw --backend $b --score-only --json "$OUT/q.sig" "$OUT/t.sig" \
                > "$OUT/dtw_whole_$b.json" 2> "$OUT/dtw_whole_$b.time"
            note "dtw whole process $n^2 $b $v: rc=$? $(grep -o '"score":[-0-9.]*\|"backend":"[a-z-]*"\|"fill_ms":[0-9.]*\|"job_ms":[0-9.]*' "$OUT/dtw_whole_$b.json" | tr '\n' ' ') $(grep -E 'Elapsed|Maximum resident' "$OUT/dtw_whole_$b.time" | sed 's/^[[:space:]]*//' | tr '\n' ' ')"
        done
    done
    rm -f "$OUT/q.sig" "$OUT/t.sig"
fi

if want forms; then
    # Blocks per SM of the one-pair kernel's forms (FORMS_CASES, ';'-separated; k in FORMS_K) at
    # each size of FORMS_SIZES (median of 5; of 3 at 1,048,576^2), the sizes the outer loop so that
    # a size's k run close in time; then where one saturated wave of DPX and DPX-free fills spends
    # its issue slots and pipes (FORMS_NCU, "" for none; 2 blocks per SM over 264 groups, 135,168 x
    # 1,048,576).
    IFS=';' read -ra form_cases <<< "${FORMS_CASES:-edit score;dtw abs score;global affine score;local affine score}"
    for n in ${FORMS_SIZES:-1048576}; do
        reps=5; [ "$n" -ge 1048576 ] && reps=3
        for c in "${form_cases[@]}"; do
            for k in ${FORMS_K:-1 2 3 4}; do
                echo "## $c $n^2 k=$k" >> "$OUT/forms.txt"
                DPVIZ_PAIR_BLOCKS_PER_SM=$k timeout 100 "$BENCH" $n $reps "$c" >> "$OUT/forms.txt" 2>&1
            done
        done
    done
    note "forms: rc=$?"
    grep -E '^## |^[a-z]+ [a-z].*[0-9] ' "$OUT/forms.txt" | tee -a "$SUMMARY"
    IFS=';' read -ra form_kernels <<< "${FORMS_NCU-fill.*DpxOpsELi5E global affine score;fill.*PortableOpsELi5E global affine score;fill.*DpxOpsELi2E edit score}"
    for fk in "${form_kernels[@]}"; do
        echo "=== $fk" >> "$OUT/ncu_forms.txt"
        DPVIZ_PAIR_BLOCKS_PER_SM=2 timeout 150 ncu --clock-control none --kernel-name-base mangled -k regex:"${fk%% *}" -c 1 \
            --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum" \
            "$BENCH" 1048576 1 "${fk#* }" 135168 >> "$OUT/ncu_forms.txt" 2>&1
        note "ncu $fk: rc=$? $(grep -E 'issue_active|gpu__time_duration|pipe_alu_cycles|pipe_fma_cycles|stalled_long_scoreboard|stalled_wait_per|stalled_math' "$OUT/ncu_forms.txt" | tail -8 | tr -s ' ' | tr '\n' ';')"
    done
fi

cp "$OUT/bench.txt" "$OUT/sweep.txt" "$OUT/ncu_saturated.txt" "$OUT/chain.txt" "$OUT/ncu_source.csv" "$OUT/scale.txt" "$OUT/ncu_scale.txt" "$OUT/epilogue.txt" "$OUT/diag.txt" "$OUT"/sass_hot_*.txt "$OUT/literature.txt" "$OUT/sass_res_sm90.txt" "$OUT/sass_mix_sm90.txt" "$OUT/ncu_store.csv" "$OUT/scan.txt" "$OUT/forms.txt" "$OUT/serial.txt" "$OUT/dtw.txt" "$OUT/ncu_forms.txt" "$FINAL/" 2>/dev/null
tar czf "$FINAL/logs.tgz" -C "$OUT" . && rm -rf "$OUT"
OUT=$FINAL
echo "================ summary ================"
cat "$SUMMARY"
[ -f "$OUT/bench.txt" ] && cat "$OUT/bench.txt"
[ -f "$OUT/epilogue.txt" ] && cat "$OUT/epilogue.txt"
[ -f "$OUT/scale.txt" ] && cat "$OUT/scale.txt"
[ -f "$OUT/chain.txt" ] && cat "$OUT/chain.txt"
[ -f "$OUT/diag.txt" ] && cat "$OUT/diag.txt"
[ -f "$OUT/literature.txt" ] && cat "$OUT/literature.txt"
[ -f "$OUT/sass_hot_sm90.txt" ] && grep -E "local (dpx|dpx-free) (score|path)|^edit|^dtw(-noband)? (dpx|dpx-free) score" "$OUT/sass_hot_sm90.txt"
[ -f "$OUT/sass_hot_sm80.txt" ] && grep -E "local dpx-free (score|path)" "$OUT/sass_hot_sm80.txt" | sed 's/^/sm_80 /'
exit 0
