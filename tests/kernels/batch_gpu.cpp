// The batch kernels (DPX and DPX-free) against the CPU batch backend: every algorithm, linear
// and affine gaps, DNA and protein, lengths 0..2k, one pair up to more pairs than SMs, pairs with
// more bands than a block has hand-over slots. Skips cleanly without a usable device.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "batch_test_util.hpp"
#include "dpviz/batch.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"

using namespace dpviz;
using dpviz::test::batch_configs;
using dpviz::test::batch_of;

namespace {

// Runs the batch on both GPU backends and on the CPU; every pair's score and end cell agree.
void check_gpu(const std::vector<Problem>& pairs, const std::string& what) {
    BatchOptions cpu;
    cpu.backend = Backend::cpu;
    auto want = align_batch(pairs, cpu);
    ASSERT_TRUE(want) << what << ": " << want.error().message;
    for (const Backend b : {Backend::cuda, Backend::cuda_portable}) {
        BatchOptions opt;
        opt.backend = b;
        auto got = align_batch(pairs, opt);
        const std::string at = what + " " + std::string(backend_name(b));
        ASSERT_TRUE(got) << at << ": " << got.error().message;
        ASSERT_EQ(got->backend, b) << at << ": " << got->fallback;
        EXPECT_GE(got->warps_per_pair, 1) << at;
        ASSERT_EQ(got->pairs.size(), pairs.size());
        int wrong = 0;
        for (size_t k = 0; k < pairs.size() && wrong < 5; ++k) {
            const PairScore& g = got->pairs[k];
            const PairScore& w = want->pairs[k];
            if (g.score != w.score || !(g.end == w.end)) {
                ++wrong;
                ADD_FAILURE() << at << " pair " << k << " (" << pairs[k].rows() << "x" << pairs[k].cols() << "): score "
                              << g.score << " end (" << g.end.i << "," << g.end.j << "), want " << w.score << " ("
                              << w.end.i << "," << w.end.j << ") [warps per pair " << got->warps_per_pair << "]";
            }
        }
    }
}

}  // namespace

TEST(BatchGpu, EveryAlgorithmSmallAndEdgeLengths) {
    DPVIZ_REQUIRE_GPU();
    uint32_t seed = 100;
    for (const auto& c : batch_configs())
        for (const auto& [count, lo, hi] : std::vector<std::tuple<int, int, int>>{
                 {1, 1, 1}, {1, 0, 200}, {5, 0, 3}, {37, 0, 140}, {300, 0, 300}}) {
            const auto pairs = batch_of(c, count, lo, hi, seed++);
            ASSERT_EQ(int(pairs.size()), count) << c.name;
            check_gpu(pairs, c.name + " " + std::to_string(count) + " pairs " + std::to_string(lo) + ".." +
                                 std::to_string(hi));
            if (HasFatalFailure()) return;
        }
}

TEST(BatchGpu, EveryAlgorithmLongPairs) {
    DPVIZ_REQUIRE_GPU();
    // Up to 2k x 2k; 1 pair gets 16 warps, 20 pairs fewer; 2.3k rows = 19 bands, more than the
    // 17 hand-over slots of a 16-warp block, so slots are reused within a pair.
    uint32_t seed = 200;
    for (const auto& c : batch_configs())
        for (const auto& [count, lo, hi] : std::vector<std::tuple<int, int, int>>{{1, 2300, 2300}, {3, 1000, 2048}, {20, 0, 2048}}) {
            const auto pairs = batch_of(c, count, lo, hi, seed++);
            ASSERT_EQ(int(pairs.size()), count) << c.name;
            check_gpu(pairs, c.name + " " + std::to_string(count) + " pairs " + std::to_string(lo) + ".." +
                                 std::to_string(hi));
            if (HasFatalFailure()) return;
        }
}

TEST(BatchGpu, LiteratureShapes) {
    DPVIZ_REQUIRE_GPU();
    // The shapes of the three benchmark workloads, fewer pairs: local affine 2048^2 (the same
    // pair repeated, as in the benchmark), edit 1024^2 (more pairs than SMs), DTW 800^2.
    const auto& local = batch_configs()[1];
    auto one = batch_of(local, 1, 2048, 2048, 300);
    ASSERT_EQ(one.size(), 1u);
    check_gpu(std::vector<Problem>(8, one[0]), "local 8 x 2048^2 (same pair)");
    check_gpu(batch_of(batch_configs()[14], 140, 1024, 1024, 301), "edit 140 x 1024^2");
    check_gpu(batch_of(batch_configs()[18], 40, 800, 800, 302), "dtw 40 x 800^2");
}

TEST(BatchGpu, TiesGoToTheFirstCellInRowMajorOrder) {
    DPVIZ_REQUIRE_GPU();
    ScoringOptions so;
    so.gaps = {3, 3};
    so.match = 1;
    so.mismatch = -2;
    std::mt19937 g(7);
    std::string q(200, 'A'), t(3000, 'C');
    for (auto& ch : q) ch = "ACGT"[g() % 4];
    t.replace(500, q.size(), q);   // two equal best local alignments ending on the same row
    t.replace(2400, q.size(), q);
    std::vector<std::pair<std::string, std::string>> texts = {
        {q, t}, {t, q}, {std::string(300, 'A'), std::string(700, 'A')}, {std::string(90, 'C'), std::string(2000, 'G')}};
    for (const Algorithm algo : {Algorithm::local, Algorithm::semiglobal, Algorithm::global}) {
        std::vector<Problem> pairs;
        for (const auto& [a, b] : texts) {
            auto p = make_problem(algo, {"q", a}, {"t", b}, so);
            ASSERT_TRUE(p);
            pairs.push_back(*p);
        }
        check_gpu(pairs, std::string(algorithm_name(algo)) + " ties");
    }
}
