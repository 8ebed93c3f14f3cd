// The GPU model: the figures read from the engine's GPU description, the issue bound's
// arithmetic on stubbed figures and a stubbed SASS report, the kernel a result names, and which
// bound a fill met (launch overhead, the wavefront's ramp, the issue rate) around each threshold.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "gpu_model.hpp"
#include "pair_score_plan.hpp"
#include "sass_report.hpp"
#include "scoped_env.hpp"

namespace dpviz::app {
namespace {

TEST(GpuModel, FiguresFromTheDescription) {
    const auto h200 = parse_gpu_figures(
        "NVIDIA H200 (132 SMs, 139.8 GiB, compute capability 9.0, SM clock 1980 MHz, driver CUDA 13.0, runtime 13.0)");
    ASSERT_TRUE(h200);
    EXPECT_EQ(h200->name, "NVIDIA H200");
    EXPECT_EQ(h200->sms, 132);
    EXPECT_EQ(h200->warps_per_sm, 64);
    EXPECT_EQ(h200->clock_mhz, 1980);
    EXPECT_NE(h200->clock_source.find("device reports"), std::string::npos) << h200->clock_source;
    const auto other = parse_gpu_figures("NVIDIA GeForce RTX 3080 (68 SMs, 9.8 GiB, compute capability 8.6, SM clock 1710 MHz)");
    ASSERT_TRUE(other);
    EXPECT_EQ(other->warps_per_sm, 48);
    EXPECT_EQ(other->clock_mhz, 1710);
    // A description without the clock (or with 0): no bound rather than a guessed one.
    const auto none = parse_gpu_figures("NVIDIA H100 PCIe (114 SMs, 79.1 GiB, compute capability 9.0, SM clock 0 MHz)");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->clock_mhz, 0);
    EXPECT_NE(none->clock_source.find("unknown"), std::string::npos);
    EXPECT_FALSE(parse_gpu_figures("not available: this dpviz was built without CUDA"));
    EXPECT_FALSE(parse_gpu_figures("garbage"));
    if (gpu_description().rfind("not available", 0) == 0) EXPECT_EQ(gpu_figures().sms, 0);
}

TEST(GpuModel, IssueBoundOfAStubbedReportAndDevice) {
    const SassReport r = [] {
        SassReport x;
        x.loops = parse_sass_loops(
            "steady-state loop of each fill kernel (16 cells per iteration)\n"
            "align-affine dpx score             203 instr  12.69 /cell  DPX  48   VIADDMNMX=48 IMAD=73\n"
            "align-affine dpx-free score        251 instr  15.69 /cell  DPX   0   FMNMX=64 IMAD=109\n"
            "align-affine dpx picture           755 instr  47.19 /cell  DPX  40   VIADDMNMX=40 IMAD=169\n"
            "pair-score-affine dpx picture      748 instr  11.69 /cell  DPX 284   VIADDMNMX=252 IMAD=114\n",
            &x.cells_per_iteration);
        return x;
    }();
    GpuFigures g;
    g.sms = 100;
    g.clock_mhz = 2000;
    // 100 SMs x 4 schedulers x 2e9 cycles x 32 lanes / 12.69 instructions per cell.
    const double bound = 100.0 * 4 * 2e9 * 32 / 12.69;
    EXPECT_NEAR(issue_bound_cells_per_s(g, 12.69), bound, bound * 1e-12);
    EXPECT_NEAR(issue_bound_cells_per_s(g, 25.38), bound / 2, bound * 1e-12);  // twice the instructions: half
    // A fill of 2^30 cells in 2 ms against that bound.
    const int64_t cells = int64_t(1) << 30;
    const KernelBound k = kernel_bound(r, "align-affine dpx score", g, cells, 2.0);
    EXPECT_EQ(k.per_cell, 12.69);
    EXPECT_NEAR(k.bound_cells_per_s, bound, bound * 1e-12);
    EXPECT_NEAR(k.fraction, double(cells) / 2e-3 / bound, 1e-12);
    EXPECT_LT(k.fraction, kernel_bound(r, "align-affine dpx score", g, cells, 1.0).fraction);  // faster fill: more of it
    // The DPX-free kernel's bound is lower by its instruction ratio.
    EXPECT_NEAR(kernel_bound(r, "align-affine dpx-free score", g, cells, 2.0).bound_cells_per_s / k.bound_cells_per_s,
                12.69 / 15.69, 1e-12);
    // Unknown: a kernel without a line, a GPU without a clock, no GPU.
    const KernelBound missing = kernel_bound(r, "pair-score dpx score", g, cells, 2.0);
    EXPECT_EQ(missing.per_cell, 0);
    EXPECT_EQ(missing.bound_cells_per_s, 0);
    EXPECT_EQ(missing.fraction, 0);
    // A picture kernel's loop counts its pooling's flush as if every iteration ran it: no bound.
    EXPECT_EQ(kernel_bound(r, "align-affine dpx picture", g, cells, 2.0).bound_cells_per_s, 0);
    // The one-pair kernel's picture writes its texels outside the counted loop: a bound.
    EXPECT_EQ(kernel_bound(r, "pair-score-affine dpx picture", g, cells, 2.0).per_cell, 11.69);
    GpuFigures no_clock = g;
    no_clock.clock_mhz = 0;
    EXPECT_EQ(kernel_bound(r, "align-affine dpx score", no_clock, cells, 2.0).bound_cells_per_s, 0);
    EXPECT_EQ(kernel_bound(r, "align-affine dpx score", GpuFigures{}, cells, 2.0).fraction, 0);
    EXPECT_EQ(kernel_bound(r, "align-affine dpx score", g, cells, 0.0).fraction, 0);
}

TEST(GpuModel, TheKernelAResultNames) {
    const test::ScopedEnv routing("DPVIZ_PAIR_KERNEL", nullptr);  // the device path's default routing
    const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", nullptr);
    const test::ScopedEnv lanes16("DPVIZ_PAIR_16X2", nullptr);
    const test::ScopedEnv lanes16_rows("DPVIZ_PAIR_16X2_ROWS", nullptr);
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    const auto local = make_problem(Algorithm::local, {"q", "ACGT"}, {"t", "ACGA"}, s);
    ASSERT_TRUE(local);
    DpResult r;
    r.level = OutputLevel::score;
    r.backend = Backend::cpu;
    EXPECT_EQ(ran_kernel_name(*local, r), "");
    r.backend = Backend::cuda;
    // No band launch shape: the one-pair kernel, or with DPVIZ_PAIR_SERIAL=1 its row-serial fill
    // (6 rows a lane at this size).
    EXPECT_EQ(ran_kernel_name(*local, r), "pair-score dpx score");
    r.backend = Backend::cuda_portable;
    EXPECT_EQ(ran_kernel_name(*local, r), "pair-score dpx-free score");
    {
        const test::ScopedEnv asked("DPVIZ_PAIR_SERIAL", "1");
        EXPECT_EQ(ran_kernel_name(*local, r), "pair-serial-r6 dpx-free score");
    }
    {  // Local linear with DPX: the 16x2 fill from 131,072 rows (its scores fit 16 bits), without
       // it the row-serial fill in 32 bits from 262,144; its DPX-free fill the skewed one.
        const auto score_fill = [](const Problem& p, Backend b) {
            DpResult t;
            t.level = OutputLevel::score;
            t.backend = b;
            return ran_kernel_name(p, t);
        };
        const auto tall = make_problem(Algorithm::local, {"q", std::string(262144, 'A')}, {"t", "ACGA"}, s);
        const auto shorter = make_problem(Algorithm::local, {"q", std::string(262143, 'A')}, {"t", "ACGA"}, s);
        ASSERT_TRUE(tall && shorter);
        const auto medium = make_problem(Algorithm::local, {"q", std::string(131071, 'A')}, {"t", "ACGA"}, s);
        ASSERT_TRUE(medium);
        EXPECT_EQ(score_fill(*tall, Backend::cuda), "pair-serial-16x2-r8 dpx score");  // its scores fit 16 bits
        EXPECT_EQ(score_fill(*tall, Backend::cuda_portable), "pair-score dpx-free score");
        {  // a 16x2 fill whose range check fired: the 32-bit fill gave the result
            DpResult t;
            t.level = OutputLevel::score;
            t.backend = Backend::cuda;
            t.refilled32 = true;
            EXPECT_EQ(ran_kernel_name(*tall, t), "pair-serial-r16 dpx score");
        }
        EXPECT_EQ(score_fill(*shorter, Backend::cuda), "pair-serial-16x2-r8 dpx score");
        EXPECT_EQ(score_fill(*medium, Backend::cuda), "pair-score dpx score");
        // Their groups' rows (the timing panel's bound): kSerialWarps bands of lanes x R rows.
        EXPECT_EQ(pair_score_group_rows("pair-serial-16x2-r8"), pair_score::kSerialWarps * 64 * 8);
        EXPECT_EQ(pair_score_group_rows("pair-serial-r16"), pair_score::kSerialWarps * 32 * 16);
        EXPECT_EQ(pair_score_group_rows("pair-score"), pair_score::kGroupRows);
        {
            const test::ScopedEnv wide("DPVIZ_PAIR_16X2", "0");
            EXPECT_EQ(score_fill(*tall, Backend::cuda), "pair-serial-r16 dpx score");
            EXPECT_EQ(score_fill(*shorter, Backend::cuda), "pair-score dpx score");
        }
        // Local affine with DPX: the 16x2 fill's affine form from 262,144 rows.
        ScoringOptions a = s;
        a.gaps = {5, 1};
        const auto tall_affine = make_problem(Algorithm::local, {"q", std::string(262144, 'A')}, {"t", "ACGA"}, a);
        const auto shorter_affine = make_problem(Algorithm::local, {"q", std::string(262143, 'A')}, {"t", "ACGA"}, a);
        ASSERT_TRUE(tall_affine && shorter_affine);
        EXPECT_EQ(score_fill(*tall_affine, Backend::cuda), "pair-serial-16x2-affine-r8 dpx score");
        EXPECT_EQ(score_fill(*tall_affine, Backend::cuda_portable), "pair-score-affine dpx-free score");
        EXPECT_EQ(score_fill(*shorter_affine, Backend::cuda), "pair-score-affine dpx score");
        EXPECT_EQ(pair_score_group_rows("pair-serial-16x2-affine-r8"), pair_score::kSerialWarps * 64 * 8);
        const test::ScopedEnv refused("DPVIZ_PAIR_SERIAL", "0");
        EXPECT_EQ(score_fill(*tall, Backend::cuda), "pair-score dpx score");
        EXPECT_EQ(score_fill(*tall_affine, Backend::cuda), "pair-score-affine dpx score");
    }
    r.shape.blocks = 3;
    r.shape.warps_per_block = 4;
    EXPECT_EQ(ran_kernel_name(*local, r), "align-local dpx-free score");
    r.backend = Backend::cuda;
    r.level = OutputLevel::matrix;
    EXPECT_EQ(ran_kernel_name(*local, r), "align-local dpx matrix");
    r.checkpoints = std::make_shared<Checkpoints>();
    EXPECT_EQ(ran_kernel_name(*local, r), "align-local dpx store");
    r.overview = std::make_shared<Overview>();
    EXPECT_EQ(ran_kernel_name(*local, r), "align-local dpx picture");
    // The store's fill and the picture's without a launch shape: the one-pair kernel's.
    DpResult st;
    st.backend = Backend::cuda;
    st.level = OutputLevel::path;
    st.checkpoints = std::make_shared<Checkpoints>();
    EXPECT_EQ(ran_kernel_name(*local, st), "pair-score dpx store");
    st.overview = std::make_shared<Overview>();
    EXPECT_EQ(ran_kernel_name(*local, st), "pair-score dpx picture");
    s.gaps = {10, 1};
    const auto affine = make_problem(Algorithm::local, {"q", "ACGT"}, {"t", "ACGA"}, s);
    ASSERT_TRUE(affine);
    DpResult a;
    a.backend = Backend::cuda;
    a.level = OutputLevel::score;  // affine: the one-pair kernel too, where no band launch shape
    EXPECT_EQ(ran_kernel_name(*affine, a), "pair-score-affine dpx score");
    a.backend = Backend::cuda_portable;
    EXPECT_EQ(ran_kernel_name(*affine, a), "pair-score-affine dpx-free score");
    a.shape.blocks = 3;
    EXPECT_EQ(ran_kernel_name(*affine, a), "align-local-affine dpx-free score");
    // Global (linear gap), edit and LCS score fills: the one-pair kernel's corner form, on the
    // row-serial fill from 16,384 rows unless DPVIZ_PAIR_SERIAL=0.
    for (const Algorithm algo : {Algorithm::global, Algorithm::edit, Algorithm::lcs}) {
        s.gaps = {2, 2};
        const auto corner = make_problem(algo, {"q", "ACGT"}, {"t", "ACGA"}, s);
        ASSERT_TRUE(corner);
        DpResult c;
        c.backend = Backend::cuda;
        c.level = OutputLevel::score;
        EXPECT_EQ(ran_kernel_name(*corner, c), "pair-score-corner dpx score") << algorithm_name(algo);
        {
            const test::ScopedEnv asked("DPVIZ_PAIR_SERIAL", "1");
            EXPECT_EQ(ran_kernel_name(*corner, c), "pair-serial-corner-r6 dpx score") << algorithm_name(algo);
        }
        const auto tall = make_problem(algo, {"q", std::string(131073, 'A')}, {"t", "ACGA"}, s);
        ASSERT_TRUE(tall);
        EXPECT_EQ(ran_kernel_name(*tall, c), "pair-serial-corner-r16 dpx score") << algorithm_name(algo);
        {
            const test::ScopedEnv refused("DPVIZ_PAIR_SERIAL", "0");
            EXPECT_EQ(ran_kernel_name(*tall, c), "pair-score-corner dpx score") << algorithm_name(algo);
        }
        c.shape.blocks = 3;
        EXPECT_EQ(ran_kernel_name(*corner, c), fill_kernel_name(*corner, true, OutputLevel::score)) << algorithm_name(algo);
    }
    // Global with affine gaps: the affine corner form; semi-global runs on the band kernel; an
    // empty side runs no kernel.
    s.gaps = {10, 1};
    const auto global_affine = make_problem(Algorithm::global, {"q", "ACGT"}, {"t", "ACGA"}, s);
    const auto semiglobal = make_problem(Algorithm::semiglobal, {"q", "ACGT"}, {"t", "ACGA"}, s);
    const auto empty = make_problem(Algorithm::edit, {"q", ""}, {"t", "ACGA"}, s);
    ASSERT_TRUE(global_affine && semiglobal && empty);
    DpResult g;
    g.backend = Backend::cuda;
    g.level = OutputLevel::score;
    EXPECT_EQ(ran_kernel_name(*global_affine, g), "pair-score-corner-affine dpx score");
    EXPECT_EQ(ran_kernel_name(*semiglobal, g), "align-affine dpx score");
    EXPECT_EQ(ran_kernel_name(*empty, g), "edit dpx score");
    // Five residue codes (N beside ACGT): the one-pair kernel does not take the pair.
    s.gaps = {2, 2};
    const auto five = make_problem(Algorithm::local, {"q", "ACGTN"}, {"t", "ACGA"}, s);
    ASSERT_TRUE(five);
    EXPECT_EQ(pair_score_kernel(*five), "");
    EXPECT_EQ(ran_kernel_name(*five, g), "align-local dpx score");
}

BoundInput input(int64_t m, int64_t n, double fill_ms) {
    BoundInput in;
    in.cells = m * n;
    in.rows = int(m);
    in.fill_ms = fill_ms;
    in.sms = 132;
    in.warps_per_sm = 64;
    return in;
}

TEST(GpuModel, WhichBound) {
    // The globins: a launch.
    BoundVerdict v = which_bound(input(142, 147, 0.30));
    EXPECT_EQ(v.bound, Bound::launch);
    EXPECT_NE(v.why.find("20,874 cells"), std::string::npos) << v.why;
    // Just below and at 2048^2 (a fill long enough not to be a fixed cost).
    EXPECT_EQ(which_bound(input(2048, 2047, 1.0)).bound, Bound::launch);
    EXPECT_NE(which_bound(input(2048, 2048, 1.0)).bound, Bound::launch);
    // A big matrix filled implausibly fast is still a fixed cost.
    EXPECT_EQ(which_bound(input(65536, 65536, kFixedCostDominatesMs / 2)).bound, Bound::launch);
    // 65,536 rows = 512 bands against 132 x 64 = 8,448 warp slots: the ramp.
    v = which_bound(input(65536, 65536, 6.0));
    EXPECT_EQ(v.bound, Bound::ramp);
    EXPECT_NE(v.why.find("512 bands"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("8,448 warp slots"), std::string::npos) << v.why;
    // The threshold: a quarter of the slots, 2,112 bands.
    const int64_t rows_at = int64_t(2112) * gpu_band::kBandRows;
    EXPECT_EQ(which_bound(input(rows_at - gpu_band::kBandRows, 1 << 20, 100)).bound, Bound::ramp);
    EXPECT_EQ(which_bound(input(rows_at, 1 << 20, 100)).bound, Bound::issue);
    // 1,048,576 rows = 8,192 bands: the issue rate.
    v = which_bound(input(1 << 20, 1 << 20, 900));
    EXPECT_EQ(v.bound, Bound::issue);
    EXPECT_NE(v.why.find("8,192 bands"), std::string::npos) << v.why;
    // A smaller GPU holds fewer warps: the same 65,536 rows fill a quarter of 16 SMs x 64.
    BoundInput small = input(65536, 65536, 60);
    small.sms = 8;
    EXPECT_EQ(which_bound(small).bound, Bound::issue);
    // Unknown slots: nothing to judge the ramp against.
    BoundInput unknown = input(65536, 65536, 6.0);
    unknown.warps_per_sm = 0;
    EXPECT_EQ(which_bound(unknown).bound, Bound::issue);
    EXPECT_STREQ(bound_name(Bound::ramp), "the wavefront's ramp");
    // The one-pair kernel: the chain of its groups of bands, however many warps (one group of
    // 512 rows here: 65,536 columns long enough not to be a launch).
    BoundInput one_pair = input(300, 65536, 5.0);
    one_pair.one_pair = true;
    v = which_bound(one_pair);
    EXPECT_EQ(v.bound, Bound::chain);
    EXPECT_NE(v.why.find("1 group of 512 rows over 132 SMs"), std::string::npos) << v.why;
    one_pair.rows = 1 << 20;
    EXPECT_NE(which_bound(one_pair).why.find("2,048 groups"), std::string::npos);
    EXPECT_STREQ(bound_name(Bound::chain), "the chain of bands");
}

}  // namespace
}  // namespace dpviz::app
