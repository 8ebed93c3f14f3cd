// The CUDA backends (DPX and DPX-free) against the CPU: every algorithm, linear and affine gaps,
// DNA and protein, every output level, field by field. Skips cleanly without a usable device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "batch_test_util.hpp"
#include "dpviz/engine.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

using test::random_text;
using test::kDna;
using test::kProtein;

// The batch tests' configurations (batch_test_util.hpp) but those over two letters (ties: the batch
// tests' subject) and two protein rows (global affine, semi-global linear: their forms run here on DNA).
using Config = test::BatchConfig;
const std::vector<Config>& configs() {
    static const std::vector<Config> c = [] {
        std::vector<Config> v;
        for (const Config& b : test::batch_configs())
            if (b.letters == kDna && b.name != "global-affine-protein" && b.name != "semiglobal-linear-protein") v.push_back(b);
        return v;
    }();
    return c;
}

Expected<Problem> make(const Config& c, int m, int n, std::mt19937& g) {
    ScoringOptions so;
    so.gaps = c.gaps;
    so.match = 2;
    so.mismatch = -3;
    so.dtw_cost = c.cost;
    so.band = c.band;
    if (c.algo == Algorithm::dtw) return make_dtw_problem({"q", test::random_walk(g, m)}, {"t", test::random_walk(g, n)}, so);
    if (c.protein && uses_substitution_matrix(c.algo)) so.matrix = test::batch_protein_matrix();
    const std::string& letters = c.protein ? kProtein : kDna;
    std::string q = random_text(g, m, letters), t = random_text(g, n, letters);
    // Plant a mutated copy of part of the query in the target, so alignments are long.
    if (m > 4 && n > 4) {
        const int len = std::min(m, n) / 2, qa = int(g() % (m - len + 1)), ta = int(g() % (n - len + 1));
        for (int k = 0; k < len; ++k)
            if (g() % 8) t[ta + k] = q[qa + k];
    }
    return make_problem(c.algo, {"q", q}, {"t", t}, so);
}

void check_against_reference(const Config& c, int m, int n, uint32_t seed, std::initializer_list<OutputLevel> levels) {
    std::mt19937 g(seed);
    auto p = make(c, m, n, g);
    ASSERT_TRUE(p) << p.error().message;
    const DpResult ref = align_reference(*p);
    for (const OutputLevel level : levels)
        for (const bool dpx : {true, false}) {
            std::ostringstream what;
            what << c.name << " " << m << "x" << n << " level " << int(level) << (dpx ? " dpx" : " dpx-free")
                 << " seed " << seed;
            auto r = align_gpu(*p, level, dpx);
            ASSERT_TRUE(r) << what.str() << ": " << r.error().message;
            EXPECT_EQ(r->backend, dpx ? Backend::cuda : Backend::cuda_portable);
            test::expect_same(ref, *r, level, what.str());
        }
}

// DPVIZ_GPU_TEST_QUICK=1 (the compute-sanitizer runs): a few shapes only.
using test::quick;

const std::vector<std::pair<int, int>> kQuickShapes = {{1, 1}, {33, 65}, {130, 66}};
const std::vector<std::pair<int, int>> kSmallShapes = {
    {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {31, 33}, {32, 64}, {33, 65}, {64, 63},
    {127, 129}, {128, 128}, {129, 1}, {1, 129}, {130, 66}, {200, 257}, {257, 200}, {385, 131},
};

}  // namespace

TEST(GpuEngine, SmallShapesEveryAlgorithmEveryLevel) {
    DPVIZ_REQUIRE_GPU();
    uint32_t seed = 1;
    for (const Config& c : configs())
        for (const auto& [m, n] : quick() ? kQuickShapes : kSmallShapes) {
            if (c.algo == Algorithm::dtw && (m == 0 || n == 0)) continue;  // DTW needs two signals
            check_against_reference(c, m, n, seed++, {OutputLevel::score, OutputLevel::path, OutputLevel::matrix});
            if (HasFatalFailure()) return;
        }
}

TEST(GpuEngine, MediumShapesMatrixLevel) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "quick run";
    uint32_t seed = 1000;
    for (const Config& c : configs())
        for (const auto& [m, n] : std::vector<std::pair<int, int>>{{1000, 1531}, {2100, 700}}) {
            check_against_reference(c, m, n, seed++, {OutputLevel::matrix, OutputLevel::path});
            if (HasFatalFailure()) return;
        }
}

TEST(GpuEngine, ManyColumnsCrossSnapshotsAndChunks) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "quick run";
    // Several thousand columns: the local end-cell search restarts from a warp snapshot.
    uint32_t seed = 2000;
    for (const Config& c : configs())
        for (const auto& [m, n] : std::vector<std::pair<int, int>>{{300, 5000}, {129, 4100}}) {
            check_against_reference(c, m, n, seed++, {OutputLevel::score, OutputLevel::path});
            if (HasFatalFailure()) return;
        }
}

TEST(GpuEngine, TiesGoToTheFirstCellInRowMajorOrder) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937 g(7);
    const std::string q = random_text(g, 200, kDna);
    std::string t = random_text(g, 6000, kDna);
    t.replace(1500, q.size(), q);  // two equal best local alignments ending on the same row
    t.replace(4700, q.size(), q);
    const std::string poly_a(300, 'A');
    ScoringOptions so;
    so.gaps = {3, 3};
    so.match = 1;
    so.mismatch = -2;
    for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
             {q, t}, {poly_a, std::string(700, 'A')}, {std::string(90, 'C'), std::string(2000, 'G')}, {t, q}})
        for (const Algorithm algo : {Algorithm::local, Algorithm::semiglobal}) {
            auto p = make_problem(algo, {"q", a}, {"t", b}, so);
            ASSERT_TRUE(p);
            const DpResult ref = align_reference(*p);
            for (const OutputLevel level : {OutputLevel::score, OutputLevel::path})
                for (const bool dpx : {true, false}) {
                    auto r = align_gpu(*p, level, dpx);
                    ASSERT_TRUE(r) << r.error().message;
                    test::expect_same(ref, *r, level,
                                      std::string(algorithm_name(algo)) + " ties " + std::to_string(a.size()) + "x" +
                                          std::to_string(b.size()) + (dpx ? " dpx" : " dpx-free"));
                }
        }
}

TEST(GpuEngine, LongPairsAgainstTheCpuBackend) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "quick run";
    // The reference at level matrix would need tens of GB: compare with align_cpu at the same level.
    struct Long { Config c; int m, n; OutputLevel level; };
    const std::vector<Long> cases = {
        {configs()[0], 50000, 50000, OutputLevel::score},   // local linear DNA
        {configs()[1], 30000, 40000, OutputLevel::path},    // local affine DNA
        {configs()[3], 20000, 30000, OutputLevel::path},    // global affine DNA
        {configs()[5], 40000, 9000, OutputLevel::score},    // semi-global affine DNA
        {configs()[6], 12000, 15000, OutputLevel::path},    // local affine protein
        {configs()[10], 50000, 50000, OutputLevel::score},  // edit
        {configs()[12], 20000, 25000, OutputLevel::path},   // lcs
        {configs()[14], 20000, 20000, OutputLevel::path},   // dtw abs
    };
    uint32_t seed = 3000;
    for (const Long& lc : cases) {
        std::mt19937 g(seed++);
        auto p = make(lc.c, lc.m, lc.n, g);
        ASSERT_TRUE(p) << p.error().message;
        const DpResult cpu = align_cpu(*p, lc.level, 0);
        for (const bool dpx : {true, false}) {
            auto r = align_gpu(*p, lc.level, dpx);
            ASSERT_TRUE(r) << r.error().message;
            test::expect_same(cpu, *r, lc.level,
                              lc.c.name + " " + std::to_string(lc.m) + "x" + std::to_string(lc.n) +
                                  (dpx ? " dpx" : " dpx-free"));
        }
    }
}

TEST(GpuEngine, RequestLargerThanDeviceMemoryIsADeviceError) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937 g(9);
    ScoringOptions so;
    auto p = make_problem(Algorithm::global, {"q", random_text(g, 250000, kDna)}, {"t", random_text(g, 250000, kDna)}, so);
    ASSERT_TRUE(p);
    auto r = align_gpu(*p, OutputLevel::matrix, true);  // 6.25e10 cells x 5 bytes
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::device);
    EXPECT_NE(r.error().message.find("GPU memory"), std::string::npos) << r.error().message;
}

TEST(GpuEngine, AlignRunsTheRequestedGpuBackend) {
    DPVIZ_REQUIRE_GPU();
    auto p = make_problem(Algorithm::local, {"q", "ACGTTGCA"}, {"t", "TTACGTGCAA"}, {});
    ASSERT_TRUE(p);
    for (const Backend b : {Backend::cuda, Backend::cuda_portable, Backend::automatic}) {
        AlignOptions o;
        o.backend = b;
        auto r = align(*p, o);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ(r->backend, b == Backend::cuda_portable ? Backend::cuda_portable : Backend::cuda);
        EXPECT_TRUE(r->fallback.empty()) << r->fallback;
        EXPECT_EQ(r->score, align_reference(*p).score);
    }
}
