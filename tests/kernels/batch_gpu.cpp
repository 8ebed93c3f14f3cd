// The batch kernels (DPX and DPX-free) against the CPU batch backend: every algorithm, linear
// and affine gaps, DNA and protein, lengths 0..2k, one pair up to more pairs than SMs, pairs with
// more bands than a block has hand-over slots. Skips cleanly without a usable device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
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

// What a test expects of the 16x2 lanes (-1: anything). An expectation runs the batch with
// DPVIZ_BATCH_LANES16=1: 16x2 words however few warps they leave (a small batch would otherwise
// run in 32-bit words, cuda/batch.cu).
struct Lanes16 {
    int pairs = -1, redone = -1;
};

class ForceLanes16 {
public:
    explicit ForceLanes16(bool on) : on_(on) {
        if (on_) setenv("DPVIZ_BATCH_LANES16", "1", 1);
    }
    ~ForceLanes16() {
        if (on_) unsetenv("DPVIZ_BATCH_LANES16");
    }
    ForceLanes16(const ForceLanes16&) = delete;
    ForceLanes16& operator=(const ForceLanes16&) = delete;

private:
    bool on_;
};

// Runs the batch on both GPU backends and on the CPU; every pair's score and end cell agree.
void check_gpu(const std::vector<Problem>& pairs, const std::string& what, Lanes16 lanes = {}) {
    BatchOptions cpu;
    cpu.backend = Backend::cpu;
    auto want = align_batch(pairs, cpu);
    ASSERT_TRUE(want) << what << ": " << want.error().message;
    const ForceLanes16 force(lanes.pairs >= 0);
    for (const Backend b : {Backend::cuda, Backend::cuda_portable}) {
        BatchOptions opt;
        opt.backend = b;
        auto got = align_batch(pairs, opt);
        const std::string at = what + " " + std::string(backend_name(b));
        ASSERT_TRUE(got) << at << ": " << got.error().message;
        ASSERT_EQ(got->backend, b) << at << ": " << got->fallback;
        EXPECT_GE(got->warps_per_pair, 1) << at;
        if (lanes.pairs >= 0) {
            EXPECT_EQ(got->lanes16_pairs, lanes.pairs) << at;
        }
        if (lanes.redone >= 0) {
            EXPECT_EQ(got->lanes16_redone, lanes.redone) << at;
        }
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

ScoringOptions dna_scoring(GapPenalties gaps, int match, int mismatch) {
    ScoringOptions so;
    so.gaps = gaps;
    so.match = match;
    so.mismatch = mismatch;
    return so;
}

std::string random_dna(std::mt19937& g, int len) {
    std::string s(static_cast<size_t>(len), 'A');
    for (auto& ch : s) ch = "ACGT"[g() % 4];
    return s;
}

// A pair of texts; a failure to build it fails the test (gtest reports the exception).
Problem problem_of(Algorithm a, const std::string& q, const std::string& t, const ScoringOptions& so) {
    auto p = make_problem(a, {"q", q}, {"t", t}, so);
    if (!p) throw std::runtime_error(p.error().message);
    return std::move(*p);
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
    const ScoringOptions so = dna_scoring({3, 3}, 1, -2);
    std::mt19937 g(7);
    const std::string q = random_dna(g, 200);
    std::string t(3000, 'C');
    t.replace(500, q.size(), q);   // two equal best local alignments ending on the same row
    t.replace(2400, q.size(), q);
    std::vector<std::pair<std::string, std::string>> texts = {
        {q, t}, {t, q}, {std::string(300, 'A'), std::string(700, 'A')}, {std::string(90, 'C'), std::string(2000, 'G')}};
    for (const Algorithm algo : {Algorithm::local, Algorithm::semiglobal, Algorithm::global}) {
        // Each pair also with one target letter changed: a pair of one shape, so local alignment
        // runs them two to a word in 16-bit lanes.
        std::vector<Problem> pairs;
        for (const auto& [a, b] : texts) {
            std::string b2 = b;
            b2[b2.size() / 3] = b2[b2.size() / 3] == 'A' ? 'T' : 'A';
            for (const std::string& t : {b, b2}) pairs.push_back(problem_of(algo, a, t, so));
        }
        check_gpu(pairs, std::string(algorithm_name(algo)) + " ties", {algo == Algorithm::local ? 8 : 0, 0});
    }
}

// 16x2 lanes: pairs of one shape run two to a word (local alignment and edit distance), every
// other pair in 32-bit words, with the same scores and end cells as the CPU.
TEST(BatchGpu, SixteenBitLanesPairsOfOneShape) {
    DPVIZ_REQUIRE_GPU();
    const std::vector<std::pair<int, int>> shapes = {{1, 1}, {3, 200}, {128, 128}, {129, 300}, {700, 260}, {2100, 1500}};
    uint32_t seed = 400;
    for (const auto& c : batch_configs()) {
        if (c.algo != Algorithm::local && c.algo != Algorithm::edit) continue;
        std::mt19937 g(seed++);
        std::vector<Problem> pairs;
        for (int k = 0; k < 41; ++k) {  // about 7 of each shape: odd ones out run alone
            const auto [m, n] = shapes[g() % shapes.size()];
            auto p = dpviz::test::batch_pair(c, m, n, g);
            ASSERT_TRUE(p) << c.name;
            pairs.push_back(std::move(*p));
        }
        int sharing = 0;  // pairs whose shape another pair has: at least all but one per shape
        for (const auto& [m, n] : shapes) {
            const auto same = std::count_if(pairs.begin(), pairs.end(), [&](const Problem& p) { return p.rows() == m && p.cols() == n; });
            sharing += int(same / 2 * 2);
        }
        check_gpu(pairs, c.name + " 16x2", {sharing, 0});
        if (HasFatalFailure()) return;
    }
}

TEST(BatchGpu, SixteenBitLanesTiesAndTheEdgeOfTheirRange) {
    DPVIZ_REQUIRE_GPU();
    const ScoringOptions so = dna_scoring({10, 1}, 5, -4);
    std::mt19937 g(11);
    auto dna = [&](int len) { return random_dna(g, len); };
    auto pair_of = [&](Algorithm a, const std::string& q, const std::string& t) { return problem_of(a, q, t, so); };
    // Local: 5519 equal letters score 27595, the highest a 16x2 fill reports; 5520 score 27600
    // and are redone in 32 bits. Each shares its word with a random pair.
    const std::string q0 = dna(5519), q1 = dna(5520);
    check_gpu({pair_of(Algorithm::local, q0, q0), pair_of(Algorithm::local, dna(5519), dna(5519)),
               pair_of(Algorithm::local, q1, q1), pair_of(Algorithm::local, dna(5520), dna(5520))},
              "local at the top of the 16-bit range", {4, 1});
    // Ties: two equal best local alignments on one row, in both lanes of a word.
    std::string t = dna(3000);
    const std::string q = dna(200);
    t.replace(500, q.size(), q);
    t.replace(2400, q.size(), q);
    std::string t2 = t;
    t2[10] = t2[10] == 'A' ? 'C' : 'A';
    check_gpu({pair_of(Algorithm::local, q, t), pair_of(Algorithm::local, q, t2)}, "local ties in 16x2", {2, 0});
    // Edit distance: a cell is at most max(M, N) + 1, so 27599 rows fit and 27600 do not.
    check_gpu({pair_of(Algorithm::edit, dna(27599), dna(40)), pair_of(Algorithm::edit, dna(27599), dna(40))},
              "edit at the top of the 16-bit range", {2, 0});
    check_gpu({pair_of(Algorithm::edit, dna(27600), dna(40)), pair_of(Algorithm::edit, dna(27600), dna(40))},
              "edit past the 16-bit range", {0, 0});
}

TEST(BatchGpu, SixteenBitLanesOnlyWhereTheGpuStaysFull) {
    DPVIZ_REQUIRE_GPU();
    // Four pairs of one shape would be two words of a few warps: they run in 32-bit words. The
    // literature's edit workload (512 pairs of 1024^2) keeps enough warps in 16x2 words.
    const auto& edit = batch_configs()[14];
    auto few = batch_of(edit, 1, 300, 300, 500);
    ASSERT_EQ(few.size(), 1u);
    auto many = batch_of(edit, 512, 1024, 1024, 501);
    ASSERT_EQ(many.size(), 512u);
    for (const Backend b : {Backend::cuda, Backend::cuda_portable}) {
        BatchOptions opt;
        opt.backend = b;
        auto small = align_batch(std::vector<Problem>(4, few[0]), opt);
        ASSERT_TRUE(small) << small.error().message;
        EXPECT_EQ(small->lanes16_pairs, 0) << backend_name(b);
        auto big = align_batch(many, opt);
        ASSERT_TRUE(big) << big.error().message;
        EXPECT_EQ(big->lanes16_pairs, 512) << backend_name(b);
    }
    check_gpu(many, "edit 512 x 1024^2");
}
