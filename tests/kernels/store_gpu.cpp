// The GPU fill at scale against the CPU: score-level fills through the bottom-row ring (forced
// down to two rows, so every band reuses a slot), the checkpoint lines an Out::store fill keeps
// in device memory against those a whole matrix implies, the path traced over them, the local
// end cell found on the host, the overview an Out::picture fill pools, windows recomputed on the
// GPU from its lines, and a 1,048,576^2 affine fill that runs on the GPU. Skips cleanly without
// a device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

using test::kDna;
using test::kProtein;
using test::random_text;

// DPVIZ_GPU_RING for one scope (the plan reads it on every fill).
class Ring {
public:
    explicit Ring(const char* rows) { setenv("DPVIZ_GPU_RING", rows, 1); }
    ~Ring() { unsetenv("DPVIZ_GPU_RING"); }
};

struct Config {
    std::string name;
    Algorithm algo;
    GapPenalties gaps{1, 1};
    bool protein = false;
    int32_t band = -1;  // DTW's
};

// Local linear DNA of four letters at score level goes to the one-pair kernel, not the bands:
// the DNA alignments here carry an N, the fifth code.
const std::vector<Config> kConfigs = {
    {"local-affine-dna", Algorithm::local, {5, 1}},       {"local-linear-protein", Algorithm::local, {4, 4}, true},
    {"global-affine-dna", Algorithm::global, {4, 2}},     {"semiglobal-linear-dna", Algorithm::semiglobal, {2, 2}},
    {"glocal-affine-protein", Algorithm::glocal, {10, 2}, true}, {"edit-dna", Algorithm::edit},
    {"lcs-protein", Algorithm::lcs, {1, 1}, true},        {"dtw", Algorithm::dtw},
};

Expected<Problem> make(const Config& c, int m, int n, uint32_t seed) {
    std::mt19937 g(seed);
    ScoringOptions so;
    so.gaps = c.gaps;
    so.match = 3;
    so.mismatch = -2;
    so.band = c.band;
    if (c.algo == Algorithm::dtw) return make_dtw_problem({"q", test::random_walk(g, m)}, {"t", test::random_walk(g, n)}, so);
    const std::string letters = c.protein ? kProtein : kDna + "N";
    std::string q = random_text(g, m, letters), t = random_text(g, n, letters);
    const int len = std::min(m, n) * 3 / 4, qa = int(g() % (m - len + 1)), ta = int(g() % (n - len + 1));
    for (int k = 0; k < len; ++k)  // a mutated copy: a long path across many bands and lines
        if (g() % 10) t[size_t(ta + k)] = q[size_t(qa + k)];
    return make_problem(c.algo, {"q", q}, {"t", t}, so);
}

// DPVIZ_GPU_TEST_QUICK=1 (the compute-sanitizer runs): one shape, one spacing, one block.
using test::quick;

const std::vector<std::pair<int, int>> kAllShapes = {{700, 900}, {1030, 515}, {300, 2100}, {1025, 1024}};
std::vector<std::pair<int, int>> shapes() {
    return quick() ? std::vector<std::pair<int, int>>{{300, 700}} : kAllShapes;
}

void expect_lines_equal(const Checkpoints& want, const Checkpoints& got, const std::string& what) {
    EXPECT_EQ(got.spacing, want.spacing) << what;
    EXPECT_EQ(got.row_h, want.row_h) << what << ": row lines, H";
    EXPECT_EQ(got.row_f, want.row_f) << what << ": row lines, F";
    EXPECT_EQ(got.col_h, want.col_h) << what << ": column lines, H";
    EXPECT_EQ(got.col_e, want.col_e) << what << ": column lines, E";
}

}  // namespace

TEST(GpuStore, ScoreThroughARingOfTwoRows) {
    DPVIZ_REQUIRE_GPU();
    const Ring ring("2");
    uint32_t seed = 1;
    for (const Config& c : kConfigs)
        for (const auto& [m, n] : shapes()) {
            auto p = make(c, m, n, seed++);
            ASSERT_TRUE(p) << p.error().message;
            const DpResult ref = align_reference(*p);
            for (const bool dpx : {true, false}) {
                const std::string what = c.name + " " + std::to_string(m) + "x" + std::to_string(n) + (dpx ? " dpx" : "");
                auto r = align_gpu(*p, OutputLevel::score, dpx);
                ASSERT_TRUE(r) << what << ": " << r.error().message;
                test::expect_same(ref, *r, OutputLevel::score, what);
            }
        }
}

TEST(GpuStore, LinesAndPathOverThemEqualTheReference) {
    DPVIZ_REQUIRE_GPU();
    uint32_t seed = 100;
    for (const char* rows : quick() ? std::vector<const char*>{"2"} : std::vector<const char*>{"64", "2"}) {
        const Ring ring(rows);
        for (const Config& c : kConfigs)
            for (const auto& [m, n] : shapes())
                for (const int32_t k : quick() ? std::vector<int32_t>{256} : std::vector<int32_t>{256, 512}) {
                    auto p = make(c, m, n, seed++);
                    ASSERT_TRUE(p) << p.error().message;
                    DpResult ref = align_reference(*p);
                    const Checkpoints want = checkpoints_from_matrix(*p, ref, k);
                    ref.dirs = {};  // the store's path keeps none
                    for (const bool dpx : {true, false}) {
                        std::ostringstream what;
                        what << c.name << " " << m << "x" << n << " K " << k << " ring " << rows << (dpx ? " dpx" : "");
                        auto r = align_gpu(*p, OutputLevel::path, dpx, {}, k);
                        ASSERT_TRUE(r) << what.str() << ": " << r.error().message;
                        ASSERT_TRUE(r->checkpoints) << what.str();
                        ASSERT_TRUE(r->checkpoints->source) << what.str() << ": the lines left the device";
                        EXPECT_TRUE(r->dirs.empty()) << what.str() << ": direction bits came back";
                        expect_lines_equal(want, checkpoints_on_host(*p, *r->checkpoints), what.str());
                        EXPECT_EQ(r->checkpoints->source->failed(), "") << what.str();
                        test::expect_same(ref, *r, OutputLevel::path, what.str());
                    }
                }
    }
}

TEST(GpuStore, BigPathsAndPicturesTakeTheGpuStoreAndMatchTheCpu) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "quick run";
    // 8,400^2 cells >= kCheckpointPathCells: align() traces over the GPU's lines, and a picture
    // (level matrix with an overview) has the GPU's store pool it, as the CPU's store does.
    std::mt19937 g(5);
    const std::string q = random_text(g, 8400, kDna + "N");
    const std::string t = test::mutate(g, q, kDna, 0.05);
    for (const Algorithm algo : {Algorithm::local, Algorithm::global, Algorithm::edit})
        for (const bool picture : {false, true}) {
            const std::string what = std::string(algorithm_name(algo)) + (picture ? " picture" : " path");
            ScoringOptions so;
            so.gaps = {5, 1};
            auto p = make_problem(algo, {"q", q}, {"t", t}, so);
            ASSERT_TRUE(p);
            AlignOptions o;
            if (picture) {
                o.level = OutputLevel::matrix;
                o.overview_side = 1000;
            }
            auto gpu = align(*p, o);
            ASSERT_TRUE(gpu) << what << ": " << gpu.error().message;
            EXPECT_EQ(gpu->backend, Backend::cuda) << what;
            EXPECT_TRUE(gpu->fallback.empty()) << gpu->fallback;
            EXPECT_TRUE(gpu->H.empty()) << what << ": a whole H came back";
            ASSERT_TRUE(gpu->checkpoints) << what;
            EXPECT_EQ(bool(gpu->overview), picture) << what;
            o.backend = Backend::cpu;
            if (!picture) o.path_memory = PathMemory::direction_bits;
            auto cpu = align(*p, o);
            ASSERT_TRUE(cpu) << cpu.error().message;
            if (picture) {
                ASSERT_TRUE(cpu->overview);
                EXPECT_EQ(gpu->overview->H.data, cpu->overview->H.data) << what;
                EXPECT_EQ(gpu->overview->min, cpu->overview->min) << what;
                EXPECT_EQ(gpu->overview->max, cpu->overview->max) << what;
            }
            cpu->dirs = {};  // the store's path keeps none
            test::expect_same(*cpu, *gpu, OutputLevel::path, what);
        }
}

TEST(GpuStore, AffineMillionSquaredScoreRunsOnTheGpu) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "quick run";
    // A row per band would need 141 GiB of device memory here (more than an H200 has). A local
    // score fill of DNA runs on the one-pair kernel (two row slots for H, two for F: 32 MiB);
    // DPX and DPX-free.
    std::mt19937 g(11);
    const int n = 1 << 20;
    const std::string q = random_text(g, n, kDna);
    const std::string t = test::mutate(g, q, kDna, 0.04).substr(0, size_t(n));
    ScoringOptions so;
    so.gaps = {10, 1};
    so.match = 5;
    so.mismatch = -4;
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, so);
    ASSERT_TRUE(p);
    const DpResult cpu = align_cpu(*p, OutputLevel::score, 0);
    for (const bool dpx : {true, false}) {
        auto gpu = align_gpu(*p, OutputLevel::score, dpx);
        ASSERT_TRUE(gpu) << gpu.error().message;
        EXPECT_EQ(gpu->backend, dpx ? Backend::cuda : Backend::cuda_portable);
        EXPECT_EQ(gpu->score, cpu.score) << (dpx ? "dpx" : "dpx-free");
        EXPECT_EQ(gpu->end, cpu.end) << (dpx ? "dpx" : "dpx-free");
    }
}

TEST(GpuStore, OverviewPooledByTheFillEqualsTheWholeMatrixs) {
    DPVIZ_REQUIRE_GPU();
    // Blocks of one cell, of a few (not dividing a lane's 4 rows or a step's 2 columns), of
    // about a band, and of more than one; DTW with a band has unreachable cells inside.
    std::vector<Config> configs = kConfigs;
    configs.push_back({"dtw-band", Algorithm::dtw, {1, 1}, false, 40});
    uint32_t seed = 300;
    for (const Config& c : configs)
        for (const auto& [m, n] : shapes())
            for (const int32_t block : quick() ? std::vector<int32_t>{5} : std::vector<int32_t>{1, 5, 64, 131}) {
                auto p = make(c, m, n, seed++);
                ASSERT_TRUE(p) << p.error().message;
                const DpResult ref = align_reference(*p);
                const Overview want = overview_from_matrix(*p, ref.H, block);
                for (const bool dpx : {true, false}) {
                    std::ostringstream what;
                    what << c.name << " " << m << "x" << n << " B " << block << (dpx ? " dpx" : " dpx-free");
                    auto r = align_gpu(*p, OutputLevel::path, dpx, {}, 256, block);
                    ASSERT_TRUE(r) << what.str() << ": " << r.error().message;
                    ASSERT_TRUE(r->overview) << what.str();
                    const Overview& got = *r->overview;
                    EXPECT_EQ(got.block, block) << what.str();
                    EXPECT_EQ(got.lowest, want.lowest) << what.str();
                    EXPECT_EQ(got.H.rows, want.H.rows) << what.str();
                    EXPECT_EQ(got.H.cols, want.H.cols) << what.str();
                    EXPECT_EQ(got.H.data, want.H.data) << what.str() << ": texels";
                    EXPECT_EQ(got.min, want.min) << what.str();
                    EXPECT_EQ(got.max, want.max) << what.str();
                    EXPECT_EQ(got.any_finite, want.any_finite) << what.str();
                    EXPECT_EQ(got.any_unreachable, want.any_unreachable) << what.str();
                    DpResult path_ref = ref;
                    path_ref.dirs = {};
                    test::expect_same(path_ref, *r, OutputLevel::path, what.str());
                }
            }
}

TEST(GpuStore, WindowsRecomputedOnTheGpuEqualTheWholeMatrix) {
    DPVIZ_REQUIRE_GPU();
    std::vector<Config> configs = kConfigs;
    configs.push_back({"dtw-band", Algorithm::dtw, {1, 1}, false, 40});
    uint32_t seed = 500;
    std::mt19937 g(17);
    for (const Config& c : configs)
        for (const auto& [m, n] : shapes()) {
            auto p = make(c, m, n, seed++);
            ASSERT_TRUE(p) << p.error().message;
            const DpResult ref = align_reference(*p);
            auto r = align_gpu(*p, OutputLevel::path, true, {}, 256);
            ASSERT_TRUE(r) << c.name << ": " << r.error().message;
            ASSERT_TRUE(r->checkpoints && r->checkpoints->source && r->checkpoints->source->on_gpu()) << c.name;
            // The whole matrix, windows across lines and at the edges, and one too small for a launch.
            std::vector<Window> windows = {{0, m + 1, 0, n + 1}, {m - 300, m + 1, n - 300, n + 1}, {5, 6, 7, 9}};
            for (int k = 0; k < (quick() ? 2 : 6); ++k) {
                const int i0 = int(g() % uint32_t(m - 200)), j0 = int(g() % uint32_t(n - 200));
                windows.push_back({i0, std::min(m + 1, i0 + 200 + int(g() % 400)), j0, std::min(n + 1, j0 + 200 + int(g() % 400))});
            }
            for (const Window w : windows)
                for (const bool dirs : {true, false}) {
                    std::ostringstream what;
                    what << c.name << " " << m << "x" << n << " rows " << w.i0 << ":" << w.i1 << " columns " << w.j0
                         << ":" << w.j1 << (dirs ? "" : " values only");
                    const WindowValues v = compute_window(*p, *r->checkpoints, w, dirs);
                    EXPECT_EQ(v.fallback, "") << what.str();
                    // Where it was computed: a rectangle of 2^16 cells or more goes to the GPU.
                    if (w.cells() >= 65536) EXPECT_TRUE(v.on_gpu) << what.str();
                    if (w.cells() < 100) EXPECT_FALSE(v.on_gpu) << what.str();
                    ASSERT_EQ(v.w, w) << what.str();
                    for (int i = w.i0; i < w.i1; ++i)
                        for (int j = w.j0; j < w.j1; ++j) {
                            const int oi = i - w.i0, oj = j - w.j0;
                            ASSERT_EQ(v.H.at(oi, oj), ref.H.at(i, j)) << what.str() << " H(" << i << "," << j << ")";
                            if (dirs) ASSERT_EQ(v.dirs.at(oi, oj), ref.dirs.at(i, j)) << what.str() << " bits(" << i << "," << j << ")";
                            if (p->affine()) {
                                ASSERT_EQ(v.E.at(oi, oj), ref.E.at(i, j)) << what.str() << " E(" << i << "," << j << ")";
                                ASSERT_EQ(v.F.at(oi, oj), ref.F.at(i, j)) << what.str() << " F(" << i << "," << j << ")";
                            }
                        }
                }
        }
}
