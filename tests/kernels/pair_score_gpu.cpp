// The one-pair score kernel (kernels/cuda/pair_score.cu) against the CPU, DPX and DPX-free: the
// score and the end cell (ties to the first cell in row-major order) of local pairs (linear and
// affine gaps) and of global (linear and affine gaps), edit and LCS pairs (the corner forms) of at most 4
// residue codes, on shapes around its group and band boundaries, thin and long pairs, an
// asymmetric substitution table, many ties, no positive cell; and DTW (absolute and squared
// cost, no band) on random-walk signals; the store's fill on the kernel (its checkpoint lines
// against those a whole matrix implies, the path traced over them) and the picture's of local
// pairs (the overview too). Skips cleanly without a device.
#include <gtest/gtest.h>

#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"
#include "kernels/result_compare.hpp"
#include "pair_score_plan.hpp"
#include "scoped_env.hpp"

using namespace dpviz;

namespace {

using test::random_text;
// A copy of q with ~10 % substitutions and ~1 % indels, cut or padded to n: long local alignments.
std::string mutated(std::mt19937& g, const std::string& q, int n, const std::string& letters) {
    std::string t;
    for (const char c : q) {
        if (int(t.size()) >= n) break;
        const unsigned r = g() % 1000;
        if (r < 5) continue;
        if (r < 10) t += letters[g() % letters.size()];
        t += (g() % 10 == 0) ? letters[g() % letters.size()] : c;
    }
    while (int(t.size()) < n) t += letters[g() % letters.size()];
    t.resize(size_t(n));
    return t;
}

void check(const Problem& p, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_TRUE(pair_score::takes(p, OutputLevel::score));
    auto want = align_cpu(p, OutputLevel::score, 0, {});
    ASSERT_TRUE(want) << want.error().message;
    for (const bool dpx : {true, false}) {
        auto got = align_gpu(p, OutputLevel::score, dpx);
        ASSERT_TRUE(got) << got.error().message;
        EXPECT_EQ(got->score, want->score) << (dpx ? "dpx" : "dpx-free");
        EXPECT_EQ(got->end, want->end) << (dpx ? "dpx" : "dpx-free") << " end (" << got->end.i << ", " << got->end.j
                                       << ") want (" << want->end.i << ", " << want->end.j << ")";
        EXPECT_EQ(got->shape.blocks, 0) << "the band kernel ran, not the one-pair kernel";
    }
}

// Shapes around the kernel's group and band boundaries, thin and long ones.
std::vector<std::pair<int, int>> boundary_shapes() {
    const int G = pair_score::kGroupRows, B = pair_score::kBandRows;
    return {{1, 1},   {1, 300},      {300, 1},        {7, 9},          {B - 1, 70},  {B, 257},
            {B + 1, 1000}, {G - 1, 600}, {G, 513},     {G + 1, 2049},   {2 * G + 3, 4097}, {3000, 3001},
            {3, 50000}, {50000, 3},  {20000, 20000}, {1025, 512}, {700, 1024}, {513, 32}};
}

// An asymmetric 4 x 4 table (a transposed lookup would show) whose A/C and C/C scores are low
// and high.
SubstitutionMatrix asymmetric_table(int low = -60, int high = 50) {
    SubstitutionMatrix m;
    m.name = "asym4";
    m.alphabet = "ACGT";
    m.scores = {5, low, 3, -7, 0, high, -2, 9, -4, 1, 6, -3, 2, -9, 4, 8};
    return m;
}

// A random walk of n samples with steps up to `step`.
std::vector<double> random_walk(std::mt19937& g, int n, double step) {
    std::vector<double> v;
    double x = 0;
    for (int k = 0; k < n; ++k) v.push_back(x += (int(g() % 2001) - 1000) * step / 1000);
    return v;
}

// DTW of two random walks (cost: absolute or squared) at make_dtw_problem's own scale, against
// the CPU: small steps (a scale of 2^16), and every third pair (by `seed`, counted up) steps of
// 1,000, whose costs near its 2^29 bound on the larger shapes. `note` ends the failure's label.
void check_random_walks(std::mt19937& g, int m, int n, DtwCost cost, int& seed, const std::string& note = "") {
    const double step = seed % 3 == 2 ? 1000.0 : 0.01;
    ScoringOptions s;
    s.dtw_cost = cost;
    auto p = make_dtw_problem({"q", random_walk(g, m, step)}, {"t", random_walk(g, n, step)}, s);
    ASSERT_TRUE(p) << p.error().message;
    std::ostringstream what;
    what << m << "x" << n << " dtw " << dtw_cost_name(cost) << " step " << step << " pair " << seed++ << note;
    check(*p, what.str());
}

// Two letters, +1/-1: the best score is reached in many cells; the first in row-major order must
// win.
void check_ties(std::mt19937& g, GapPenalties gaps, std::initializer_list<std::pair<int, int>> shapes) {
    ScoringOptions s;
    s.match = 1;
    s.mismatch = -1;
    s.gaps = gaps;
    for (const auto& [m, n] : shapes) {
        auto p = make_problem(Algorithm::local, {"q", random_text(g, m, "AC")}, {"t", random_text(g, n, "AC")}, s);
        ASSERT_TRUE(p);
        check(*p, "ties " + std::to_string(m) + "x" + std::to_string(n) + " gaps " + std::to_string(gaps.open) + "/" +
                      std::to_string(gaps.extend));
    }
}

// The picture's fill of p on the one-pair kernel (DPX and DPX-free, checkpoint lines every 256)
// against the reference's whole matrix: the overview's texels and range, the lines and the path.
void expect_picture_of_reference(const Problem& p, int32_t block, const std::string& what) {
    ASSERT_TRUE(pair_score::fills(p, OutputLevel::score, block));
    DpResult ref = align_reference(p);
    const Overview want = overview_from_matrix(p, ref.H, block);
    const Checkpoints lines = checkpoints_from_matrix(p, ref, 256);
    ref.dirs = {};
    for (const bool dpx : {true, false}) {
        SCOPED_TRACE(dpx ? "dpx" : "dpx-free");
        auto r = align_gpu(p, OutputLevel::path, dpx, {}, 256, block);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ(r->shape.blocks, 0) << "the band kernel ran, not the one-pair kernel";
        ASSERT_TRUE(r->overview);
        const Overview& got = *r->overview;
        EXPECT_EQ(got.block, block);
        EXPECT_EQ(got.lowest, want.lowest);
        EXPECT_EQ(got.H.rows, want.H.rows);
        EXPECT_EQ(got.H.cols, want.H.cols);
        EXPECT_EQ(got.H.data, want.H.data) << "texels";
        EXPECT_EQ(got.min, want.min);
        EXPECT_EQ(got.max, want.max);
        EXPECT_EQ(got.any_finite, want.any_finite);
        EXPECT_EQ(got.any_unreachable, want.any_unreachable);
        ASSERT_TRUE(r->checkpoints);
        const Checkpoints kept = checkpoints_on_host(p, *r->checkpoints);
        EXPECT_EQ(kept.row_h, lines.row_h);
        EXPECT_EQ(kept.col_h, lines.col_h);
        EXPECT_EQ(kept.row_f, lines.row_f);
        EXPECT_EQ(kept.col_e, lines.col_e);
        test::expect_same(ref, *r, OutputLevel::path, what);
    }
}

// The picture tests' shapes (last texel columns of a few cells to a whole block) and blocks (a
// band's rows, and a number that splits a lane's rows).
std::vector<std::pair<int, int>> picture_shapes() {
    return test::quick() ? std::vector<std::pair<int, int>>{{700, 900}}
                         : std::vector<std::pair<int, int>>{{700, 900}, {1030, 515}, {300, 2100}, {2100, 1300}, {600, 401}, {100, 90}};
}
std::vector<int32_t> picture_blocks() { return test::quick() ? std::vector<int32_t>{200} : std::vector<int32_t>{128, 200, 264}; }

}  // namespace

TEST(PairScoreGpu, RandomRelatedPairsAroundTheGroupAndBandBoundaries) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937 g(2026);
    int seed = 0;
    for (const auto& [m, n] : boundary_shapes()) {
        if (test::quick() && int64_t(m) * n > 5'000'000) continue;  // under the sanitizers: the small shapes
        ScoringOptions s;
        s.match = 2;
        s.mismatch = -1;
        s.gaps = {2, 2};
        const std::string q = random_text(g, m, "ACGT");
        const std::string t = mutated(g, q, n, "ACGT");
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
        ASSERT_TRUE(p) << p.error().message;
        std::ostringstream what;
        what << m << "x" << n << " pair " << seed++;
        check(*p, what.str());
        if (HasFatalFailure()) return;
    }
}

// Shapes around the row-serial fill's boundaries (pair_score::serial_rows): a lane's rows, a band
// (32 lanes), a group (kSerialWarps bands) of its small form; past kSerialSmallRows rows, its
// large form's groups.
static std::vector<std::pair<int, int>> serial_shapes() {
    using namespace pair_score;
    const int r = kSerialRowsSmall, b = 32 * r, G = kSerialWarps * b;
    const int big = kSerialSmallRows + 1, GL = kSerialWarps * 32 * kSerialRowsLarge;
    const int edge = (big / GL + 1) * GL;  // a group boundary of the large form
    return {{r - 1, 40}, {r + 1, 33},  {b - 1, 64},   {b + 1, 95},       {G - 1, 300}, {G, 31},       {G + 1, 1000},
            {2 * G + 5, 2049}, {5000, 5003}, {2, 70000}, {big, 257}, {edge, 64}, {edge + 1, 130}, {big + 3, 1}};
}

TEST(PairScoreGpu, RowSerialAndSkewedFillsAroundTheRowSerialBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Local linear, the corner form (edit distance, global with a linear gap) and DTW (both costs)
    // at score level on the row-serial fill (DPVIZ_PAIR_SERIAL=1) and on the skewed fill (0), both
    // against the CPU: related pairs (long diagonals), unrelated ones, ties (+1/-1 over two
    // letters), random walks with small steps and with steps whose costs near the 2^29 bound.
    std::mt19937 g(2032);
    int seed = 0;
    for (const char* serial : {"1", "0"}) {
        test::ScopedEnv env("DPVIZ_PAIR_SERIAL", serial);
        for (const auto& [m, n] : serial_shapes()) {
            if (test::quick() && int64_t(m) * n > 5'000'000) continue;  // under the sanitizers: the small shapes
            for (const Algorithm algo : {Algorithm::local, Algorithm::edit, Algorithm::global}) {
                ScoringOptions s;
                s.match = 2;
                s.mismatch = -1;
                s.gaps = {2, 2};
                const std::string q = random_text(g, m, "ACGT");
                const std::string t = seed % 3 == 2 ? random_text(g, n, "ACGT") : mutated(g, q, n, "ACGT");
                auto p = make_problem(algo, {"q", q}, {"t", t}, s);
                ASSERT_TRUE(p) << p.error().message;
                std::ostringstream what;
                what << m << "x" << n << " " << algorithm_name(algo) << " pair " << seed++ << " DPVIZ_PAIR_SERIAL=" << serial;
                check(*p, what.str());
                if (HasFatalFailure()) return;
            }
            for (const DtwCost cost : {DtwCost::abs, DtwCost::squared}) {
                check_random_walks(g, m, n, cost, seed, std::string(" DPVIZ_PAIR_SERIAL=") + serial);
                if (HasFatalFailure()) return;
            }
        }
        check_ties(g, {1, 1}, {{767, 800}, {769, 3001}, {pair_score::kSerialSmallRows + 1, 40}});
        if (HasFatalFailure()) return;
        // A free gap (a padding row's H ties the row above's) and the asymmetric table's extremes
        // (-127 and 127) on both fills.
        check_ties(g, {0, 0}, {{767, 800}, {pair_score::kSerialSmallRows + 5, 24}});
        if (HasFatalFailure()) return;
        ScoringOptions sa;
        sa.matrix = asymmetric_table(-127, 127);
        sa.gaps = {11, 11};
        for (const auto& [m, n] : {std::pair{770, 900}, std::pair{pair_score::kSerialSmallRows + 7, 33}}) {
            auto p = make_problem(Algorithm::local, {"q", random_text(g, m, "ACGT")}, {"t", random_text(g, n, "ACGT")}, sa);
            ASSERT_TRUE(p) << p.error().message;
            check(*p, "asymmetric " + std::to_string(m) + "x" + std::to_string(n) + " DPVIZ_PAIR_SERIAL=" + serial);
            if (HasFatalFailure()) return;
        }
    }
}

// Shapes around the 16x2 fill's boundaries (R rows a virtual lane, 64 virtual lanes a band,
// kSerialWarps bands a group), thin and long ones, and one whose scores pass 32,767 / 8 many
// times over (the base moves).
static std::vector<std::pair<int, int>> lanes16_shapes(int r) {
    using namespace pair_score;
    const int b = 64 * r, G = kSerialWarps * b;
    return {{1, 1},      {1, 300},    {300, 1},      {r - 1, 40},  {r + 1, 33},    {2 * r + 1, 64}, {b - 1, 70},
            {b, 257},    {b + 1, 95}, {G - 1, 600},  {G, 63},      {G + 1, 2049},  {2 * G + 5, 4097}, {3, 50000},
            {50000, 3},  {64, 100},   {100, 62},     {5000, 5003}, {20000, 20000}};
}

// Local score fills of random pairs (every third unrelated, the others related) of each of
// lanes16_shapes(R) on the 16x2 fill, against the CPU, with scoring(seed) for pair `seed`.
template <class ScoringOf>
static void check_lanes16_shapes(std::mt19937& g, int R, ScoringOf scoring, const std::string& label) {
    int seed = 0;
    for (const auto& [m, n] : lanes16_shapes(R)) {
        if (test::quick() && int64_t(m) * n > 5'000'000) continue;  // under the sanitizers: the small shapes
        const ScoringOptions s = scoring(seed);
        const std::string q = random_text(g, m, "ACGT");
        const std::string t = seed % 3 == 2 ? random_text(g, n, "ACGT") : mutated(g, q, n, "ACGT");
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
        ASSERT_TRUE(p) << p.error().message;
        const auto c = pair_score::compact_codes(*p);
        ASSERT_TRUE(pair_score::takes16(*pair_score::scoring_of(*p, c), c, OutputLevel::score, m, true));
        std::ostringstream what;
        what << m << "x" << n << " " << label << " pair " << seed++ << " 16x2, R = " << R;
        check(*p, what.str());
        if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(PairScoreGpu, SixteenBitLanesAroundTheirBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Local linear score fills on the 16x2 fill (DPVIZ_PAIR_16X2=1: at any size) at both of its
    // rows a lane, DPX, against the CPU: related pairs (long diagonals: the warp's base passes
    // 32,767 / S; their spread comes near the range bound), unrelated ones, ties (+1/-1 over two
    // letters, every best in many cells), an asymmetric table at the range's edge (max s + g = 6,
    // |s| up to 15) and NUC.4.4's 5/-4 with g = 1.
    std::mt19937 g(2061);
    const test::ScopedEnv env("DPVIZ_PAIR_16X2", "1");
    const test::ScopedEnv strict("DPVIZ_PAIR_16X2_REFILL", "0");  // a fired range check fails the test
    for (const char* rows : {"8", "16"}) {
        const test::ScopedEnv rows_env("DPVIZ_PAIR_16X2_ROWS", rows);
        check_lanes16_shapes(g, std::atoi(rows), [](int) {
            ScoringOptions s;
            s.match = 2;
            s.mismatch = -1;
            s.gaps = {2, 2};
            return s;
        }, "linear");
        if (HasFatalFailure()) return;
        check_ties(g, {1, 1}, {{1023, 800}, {2049, 3001}, {4100, 40}});
        if (HasFatalFailure()) return;
    }
    SubstitutionMatrix edge;
    edge.name = "edge4";
    edge.alphabet = "ACGT";
    edge.scores = {5, -15, 3, -7, 0, 4, -2, 1, -4, 1, 5, -3, 2, -9, 4, 3};
    ScoringOptions se;
    se.matrix = edge;
    se.gaps = {1, 1};
    ScoringOptions sn;
    sn.match = 5;
    sn.mismatch = -4;
    sn.gaps = {1, 1};
    for (const char* rows : {"8", "16"})
        for (const ScoringOptions& s : {se, sn})
            for (const auto& [m, n] : {std::pair{2100, 1900}, std::pair{4097, 513}, std::pair{9000, 8000}, std::pair{5000, 5000}}) {
                const test::ScopedEnv rows_env("DPVIZ_PAIR_16X2_ROWS", rows);
                const std::string q = random_text(g, m, "ACGT");
                // 5,000^2: the query against itself, the largest spread (max s + g = 6 a row).
                auto p = make_problem(Algorithm::local, {"q", q}, {"t", m == n ? q : mutated(g, q, n, "ACGT")}, s);
                ASSERT_TRUE(p) << p.error().message;
                const auto c = pair_score::compact_codes(*p);
                ASSERT_TRUE(pair_score::fits16(*pair_score::scoring_of(*p, c), c));
                check(*p, std::string(s.matrix ? s.matrix->name : "5/-4") + " " + std::to_string(m) + "x" + std::to_string(n) + " R = " + rows);
                if (HasFatalFailure()) return;
            }
}

TEST(PairScoreGpu, SixteenBitLanesWithAffineGapsAroundTheirBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Local affine score fills on the 16x2 fill's kAffine form (DPVIZ_PAIR_16X2=1) at both rows a
    // lane, DPX, against the CPU: NUC.4.4's 5/-4 with 10/1 (the CLI's default), the benchmark's
    // 2/-1 with 5/1, related and unrelated pairs, gaps that only pay when long, and ties.
    std::mt19937 g(2063);
    const test::ScopedEnv env("DPVIZ_PAIR_16X2", "1");
    const test::ScopedEnv strict("DPVIZ_PAIR_16X2_REFILL", "0");
    for (const char* rows : {"8", "16"}) {
        const test::ScopedEnv rows_env("DPVIZ_PAIR_16X2_ROWS", rows);
        check_lanes16_shapes(g, std::atoi(rows), [](int seed) {
            ScoringOptions s;
            s.match = seed % 2 ? 5 : 2;
            s.mismatch = seed % 2 ? -4 : -1;
            s.gaps = seed % 2 ? GapPenalties{10, 1} : GapPenalties{5, 1};
            return s;
        }, "affine");
        if (HasFatalFailure()) return;
        check_ties(g, {3, 1}, {{1023, 800}, {2049, 3001}});
        if (HasFatalFailure()) return;
    }
}

TEST(PairScoreGpu, SixteenBitLanesPastTheirSpreadFillAgainInThirtyTwoBits) {
    DPVIZ_REQUIRE_GPU();
    // DPVIZ_PAIR_16X2_SPREAD=-1: every chunk's spread passes the bound and the fill raises its
    // flag; the host sees it (with DPVIZ_PAIR_16X2_REFILL=0 the run is an error) and fills the
    // pair again in 32 bits: the result is the CPU's. Linear and affine gaps.
    std::mt19937 g(2062);
    const test::ScopedEnv on("DPVIZ_PAIR_16X2", "1");
    const test::ScopedEnv spread("DPVIZ_PAIR_16X2_SPREAD", "-1");
    for (const GapPenalties gaps : {GapPenalties{2, 2}, GapPenalties{5, 1}})
        for (const auto& [m, n] : {std::pair{3000, 2900}, std::pair{700, 20000}}) {
            ScoringOptions s;
            s.match = 2;
            s.mismatch = -1;
            s.gaps = gaps;
            const std::string q = random_text(g, m, "ACGT");
            auto p = make_problem(Algorithm::local, {"q", q}, {"t", mutated(g, q, n, "ACGT")}, s);
            ASSERT_TRUE(p) << p.error().message;
            check(*p, std::to_string(m) + "x" + std::to_string(n) + " spread flag");
            const auto refilled = align_gpu(*p, OutputLevel::score, true);
            ASSERT_TRUE(refilled) << refilled.error().message;
            EXPECT_TRUE(refilled->refilled32);
            const test::ScopedEnv strict("DPVIZ_PAIR_16X2_REFILL", "0");
            const auto refused = align_gpu(*p, OutputLevel::score, true);
            ASSERT_FALSE(refused) << "the range check's flag went unseen";
            EXPECT_NE(refused.error().message.find("range check"), std::string::npos) << refused.error().message;
        }
}

TEST(PairScoreGpu, AffineRandomRelatedPairsAroundTheGroupAndBandBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // EMBOSS's DNA default (+5/-4, open 10, extend 1), gaps that open cheaply, and an extend
    // close to the open: E and F cross the bands' and groups' hand-overs with H.
    struct Scoring {
        int match, mismatch, open, extend;
    };
    const Scoring scorings[] = {{5, -4, 10, 1}, {2, -1, 3, 1}, {1, -2, 3, 2}};
    std::mt19937 g(2027);
    int seed = 0;
    for (const auto& [m, n] : boundary_shapes()) {
        if (test::quick() && int64_t(m) * n > 5'000'000) continue;  // under the sanitizers: the small shapes
        const Scoring& sc = scorings[size_t(seed) % 3];
        ScoringOptions s;
        s.match = sc.match;
        s.mismatch = sc.mismatch;
        s.gaps = {sc.open, sc.extend};
        const std::string q = random_text(g, m, "ACGT");
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", mutated(g, q, n, "ACGT")}, s);
        ASSERT_TRUE(p) << p.error().message;
        ASSERT_TRUE(p->affine());
        std::ostringstream what;
        what << m << "x" << n << " affine " << sc.open << "/" << sc.extend << " pair " << seed++;
        check(*p, what.str());
        if (HasFatalFailure()) return;
    }
}

TEST(PairScoreGpu, AffineGapsThatOnlyPayWhenLong) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";  // a 9,000 x 9,240 pair: too slow under the sanitizers
    std::mt19937 g(31);
    // A query and the same query with 40 residues inserted every 1,500: the best local alignment
    // crosses long gaps (open 30, extend 1) that a linear model would never open.
    std::string q = random_text(g, 9000, "ACGT"), t;
    for (size_t k = 0; k < q.size(); k += 1500) t += q.substr(k, 1500) + random_text(g, 40, "ACGT");
    ScoringOptions s;
    s.match = 5;
    s.mismatch = -4;
    s.gaps = {30, 1};
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
    ASSERT_TRUE(p);
    check(*p, "long gaps");
}

TEST(PairScoreGpu, AffineTies) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937 g(37);
    check_ties(g, {2, 1}, {{700, 600}, {1900, 2100}});
}

TEST(PairScoreGpu, MillionSquaredNearlyIdenticalPairMatchesTheCpu) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";
    // 1,048,576^2, match 3 and 1 % substitutions: a best score past 2^21 ending past row and
    // column 2^20, the widths the end-cell key was widened for.
    std::mt19937 g(20);
    const int n = 1 << 20;
    const std::string q = random_text(g, n, "ACGT");
    std::string t = q;
    for (char& c : t)
        if (g() % 100 == 0) c = "ACGT"[g() % 4];
    ScoringOptions s;
    s.match = 3;
    s.mismatch = -2;
    s.gaps = {3, 3};
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
    ASSERT_TRUE(p) << p.error().message;
    check(*p, "1048576^2");
}

TEST(PairScoreGpu, CornerFormGlobalEditAndLcsAroundTheGroupAndBandBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Global (linear gap), edit distance and LCS run as the corner form (pair_score::Scoring):
    // related pairs (long diagonals) and unrelated ones (the score made of gaps and mismatches),
    // and an asymmetric table for global.
    const SubstitutionMatrix asym = asymmetric_table();
    std::mt19937 g(2028);
    int seed = 0, shape = 0;
    for (const auto& [m, n] : boundary_shapes()) {
        ++shape;
        if (test::quick() && int64_t(m) * n > 5'000'000) continue;  // under the sanitizers: the small shapes
        for (const Algorithm algo : {Algorithm::global, Algorithm::edit, Algorithm::lcs}) {
            ScoringOptions s;
            s.match = 5;
            s.mismatch = -4;
            s.gaps = {3, 3};
            if (algo == Algorithm::global && shape % 2 == 1) s.matrix = asym;
            const std::string q = random_text(g, m, "ACGT");
            const bool unrelated = (shape + int(algo)) % 3 == 2;  // each algorithm on both kinds of pair
            const std::string t = unrelated ? random_text(g, n, "ACGT") : mutated(g, q, n, "ACGT");
            auto p = make_problem(algo, {"q", q}, {"t", t}, s);
            ASSERT_TRUE(p) << p.error().message;
            std::ostringstream what;
            what << m << "x" << n << " " << algorithm_name(algo) << " pair " << seed++;
            check(*p, what.str());
            if (HasFatalFailure()) return;
        }
    }
}

TEST(PairScoreGpu, AffineCornerFormGlobalAroundTheGroupAndBandBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Global alignment with affine gaps runs as the affine corner form (pair_score::Scoring):
    // NUC.4.4-like scores with gaps 10/1, a short open (3/2) where gaps pay, and an asymmetric
    // table with 7/1; related pairs and unrelated ones, whose score is mostly gaps.
    const SubstitutionMatrix asym = asymmetric_table();
    std::mt19937 g(2031);
    int seed = 0, shape = 0;
    for (const auto& [m, n] : boundary_shapes()) {
        ++shape;
        if (test::quick() && int64_t(m) * n > 1'000'000) continue;  // under the sanitizers
        for (const GapPenalties gaps : {GapPenalties{10, 1}, GapPenalties{3, 2}, GapPenalties{7, 1}}) {
            ScoringOptions s;
            s.match = 5;
            s.mismatch = -4;
            s.gaps = gaps;
            if (gaps.open == 7) s.matrix = asym;
            const std::string q = random_text(g, m, "ACGT");
            const bool unrelated = (shape + gaps.open) % 3 == 2;
            const std::string t = unrelated ? random_text(g, n, "ACGT") : mutated(g, q, n, "ACGT");
            auto p = make_problem(Algorithm::global, {"q", q}, {"t", t}, s);
            ASSERT_TRUE(p) << p.error().message;
            ASSERT_EQ(pair_score_kernel(*p), "pair-score-corner-affine");
            std::ostringstream what;
            what << m << "x" << n << " global " << gaps.open << "/" << gaps.extend << " pair " << seed++;
            check(*p, what.str());
            if (HasFatalFailure()) return;
        }
    }
}

TEST(PairScoreGpu, CornerFormMillionSquaredEditDistanceMatchesTheCpu) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";
    // ~1,048,576^2 with ~10 % substitutions and ~1 % indels: H'(M, N) near 2^21; M is no multiple
    // of 512, so the last band's bottom row is read past row M.
    std::mt19937 g(21);
    const int n = 1 << 20;
    const std::string q = random_text(g, n, "ACGT");
    auto p = make_problem(Algorithm::edit, {"q", q.substr(0, size_t(n - 333))}, {"t", mutated(g, q, n - 77, "ACGT")}, {});
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_NE(p->rows() % pair_score::kGroupRows, 0);
    check(*p, "edit 1048243 x 1048499");
}

TEST(PairScoreGpu, MillionSquaredDtwAndGlobalAffineMatchTheCpu) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";
    // 1,048,576^2 DTW and global alignment with affine gaps: on an H200 their blocks per SM are 3
    // and 4 (pair_score::choose_blocks_per_sm), more than the other forms' 2, so the grid holds
    // more groups at a time and more wait for a free block.
    std::mt19937 g(22);
    const int n = 1 << 20;
    auto dtw = make_dtw_problem({"q", random_walk(g, n, 1.0)}, {"t", random_walk(g, n - 5, 1.0)}, {});
    ASSERT_TRUE(dtw) << dtw.error().message;
    check(*dtw, "dtw 1048576 x 1048571");
    const std::string q = random_text(g, n, "ACGT");
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -3;
    s.gaps = {5, 2};
    auto global = make_problem(Algorithm::global, {"q", q}, {"t", mutated(g, q, n - 211, "ACGT")}, s);
    ASSERT_TRUE(global) << global.error().message;
    check(*global, "global affine 1048576 x 1048365");
}

TEST(PairScoreGpu, LocalFillsPastTheKernelsRangeAreProvedOrFilledAgain) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";
    // 70,000^2 with match 127: a worst case of 8,890,000, past kMaxScore. A sequence against
    // itself scores that: its best does not prove the range, and the band kernels fill it again
    // (their launch shape in the result). Against a copy with ~10 % substitutions it scores ~7 M:
    // the one-pair kernel's result stands. Both equal the CPU's, DPX and DPX-free.
    std::mt19937 g(24);
    const int n = 70'000;
    const std::string q = random_text(g, n, "ACGT");
    ScoringOptions s;
    s.match = 127;
    s.mismatch = -127;
    s.gaps = {200, 200};
    for (const std::string& t : {q, mutated(g, q, n, "ACGT")}) {
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
        ASSERT_TRUE(p) << p.error().message;
        ASSERT_TRUE(pair_score::takes(*p, OutputLevel::score));
        const auto c = pair_score::compact_codes(*p);
        const auto sc = pair_score::scoring_of(*p, c);
        const int32_t hi = *pair_score::largest_score(*sc, c);
        const int64_t limit = pair_score::score_limit(*sc, p->rows(), p->cols());
        ASSERT_GT(pair_score::worst_score(*sc, hi, p->rows(), p->cols()), limit);
        auto want = align_cpu(*p, OutputLevel::score, 0, {});
        ASSERT_TRUE(want) << want.error().message;
        const bool proved = pair_score::proves_range(want->score, limit, hi);
        EXPECT_EQ(proved, t != q) << want->score;
        for (const bool dpx : {true, false}) {
            auto got = align_gpu(*p, OutputLevel::score, dpx);
            ASSERT_TRUE(got) << got.error().message;
            EXPECT_EQ(got->score, want->score) << (dpx ? "dpx" : "dpx-free");
            EXPECT_EQ(got->end, want->end) << (dpx ? "dpx" : "dpx-free");
            EXPECT_EQ(got->shape.blocks == 0, proved) << (dpx ? "dpx" : "dpx-free") << ": the kernel that gave the result";
        }
    }
}

TEST(PairScoreGpu, SidesPastTwoToTheTwentyFirstResidues) {
    DPVIZ_REQUIRE_GPU();
    if (test::quick()) GTEST_SKIP() << "quick run";
    // A side longer than 2^21 - 1: a read against a 2.2 Mb target and the transposed shape, in
    // the corner form's three algorithms, global with affine gaps and local alignment (linear and
    // affine gaps: the end-cell key's index takes 31 bits, its score the other 33), the read in the target with
    // 10 % substitutions so the best cell lies deep in the long side; and DTW.
    std::mt19937 g(23);
    const std::string q = random_text(g, 700, "ACGT");
    std::string t = random_text(g, 2'200'000, "ACGT");
    t.replace(2'150'000, 700, mutated(g, q, 700, "ACGT"));
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    for (const Algorithm algo : {Algorithm::edit, Algorithm::lcs, Algorithm::global, Algorithm::local}) {
        for (const GapPenalties gaps : {GapPenalties{2, 2}, GapPenalties{5, 1}}) {
            if ((algo == Algorithm::edit || algo == Algorithm::lcs) && !gaps.linear()) continue;
            s.gaps = gaps;
            auto across = make_problem(algo, {"q", q}, {"t", t}, s);
            auto down = make_problem(algo, {"t", t.substr(50'000)}, {"q", q}, s);
            ASSERT_TRUE(across && down);
            const std::string name = std::string(algorithm_name(algo)) + (gaps.linear() ? "" : " affine");
            check(*across, name + " 700 x 2,200,000");
            check(*down, name + " 2,150,000 x 700");
            if (HasFatalFailure()) return;
        }
    }
    const auto a = random_walk(g, 700, 1.0), b = random_walk(g, 2'200'000, 1.0);
    auto across = make_dtw_problem({"q", a}, {"t", b}, {});
    auto down = make_dtw_problem({"t", std::vector<double>(b.begin() + 50'000, b.end())}, {"q", a}, {});
    ASSERT_TRUE(across && down);
    check(*across, "dtw 700 x 2,200,000");
    check(*down, "dtw 2,150,000 x 700");
}

TEST(PairScoreGpu, DtwAroundTheGroupAndBandBoundaries) {
    DPVIZ_REQUIRE_GPU();
    // Random walks, absolute and squared cost (check_random_walks).
    std::mt19937 g(2029);
    int seed = 0;
    for (const auto& [m, n] : boundary_shapes()) {
        if (test::quick() && int64_t(m) * n > 5'000'000) continue;
        for (const DtwCost cost : {DtwCost::abs, DtwCost::squared}) {
            check_random_walks(g, m, n, cost, seed);
            if (HasFatalFailure()) return;
        }
    }
}

TEST(PairScoreGpu, DtwOfASignalWithItselfAndWithADelayedCopyMatchTheCpu) {
    DPVIZ_REQUIRE_GPU();
    // A signal against itself (D = 0 along the diagonal: every other cell is dearer) and against
    // itself delayed by 37 samples (the warping path absorbs the shift). 3,000 samples in a quick
    // run (the sanitizers').
    std::mt19937 g(41);
    const auto a = random_walk(g, test::quick() ? 3'000 : 30'000, 0.5);
    std::vector<double> b(37, a.front());
    b.insert(b.end(), a.begin(), a.end() - 37);
    for (const auto& t : {a, b}) {
        auto p = make_dtw_problem({"q", a}, {"t", t}, {});
        ASSERT_TRUE(p) << p.error().message;
        check(*p, t == a ? "dtw of a signal with itself" : "dtw against a 37-sample delay");
    }
}

TEST(PairScoreGpu, TiesAsymmetricScoresAndNoPositiveCell) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937 g(7);
    check_ties(g, {1, 1}, {{600, 700}, {2100, 1900}});
    ScoringOptions s;
    s.match = 1;
    s.mismatch = -1;
    s.gaps = {1, 1};
    // The asymmetric table with scores from -127 to 127.
    ScoringOptions sa;
    sa.matrix = asymmetric_table(-127, 127);
    sa.gaps = {11, 11};
    for (int rep = 0; rep < 3; ++rep) {
        auto p = make_problem(Algorithm::local, {"q", random_text(g, 1500 + rep * 700, "ACGT")},
                              {"t", random_text(g, 1300 + rep * 900, "ACGT")}, sa);
        ASSERT_TRUE(p) << p.error().message;
        check(*p, "asymmetric " + std::to_string(rep));
    }
    // No cell above 0: score 0 at (0, 0).
    auto none = make_problem(Algorithm::local, {"q", std::string(900, 'A')}, {"t", std::string(1200, 'C')}, s);
    ASSERT_TRUE(none);
    check(*none, "no positive cell");
}

TEST(PairScoreGpu, RepeatedFillsOfOneProcessAgree) {
    DPVIZ_REQUIRE_GPU();
    // The group-to-group slots (H's, and F's with affine gaps) are tagged per fill: fills one
    // after another (the buffers may be recycled) never read a stale entry.
    std::mt19937 g(99);
    const std::string q = random_text(g, 4000, "ACGT");
    const std::string t = mutated(g, q, 4100, "ACGT");
    for (const char* lanes16 : {static_cast<const char*>(nullptr), "1"})  // the 32-bit fills, the 16x2 fill
    for (const GapPenalties gaps : {GapPenalties{2, 2}, GapPenalties{6, 1}}) {
        const test::ScopedEnv env("DPVIZ_PAIR_16X2", lanes16);
        ScoringOptions s;
        s.match = 2;
        s.mismatch = -3;
        s.gaps = gaps;
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, s);
        ASSERT_TRUE(p);
        auto want = align_cpu(*p, OutputLevel::score, 0, {});
        ASSERT_TRUE(want);
        for (int k = 0; k < 20; ++k) {
            auto got = align_gpu(*p, OutputLevel::score, k % 2 == 0);
            ASSERT_TRUE(got) << got.error().message;
            ASSERT_EQ(got->score, want->score) << "fill " << k << " gaps " << gaps.open << "/" << gaps.extend;
            ASSERT_EQ(got->end, want->end) << "fill " << k << " gaps " << gaps.open << "/" << gaps.extend;
        }
    }
}

TEST(PairScoreGpu, StoreFillsKeepTheReferencesLinesAndTraceItsPath) {
    DPVIZ_REQUIRE_GPU();
    // Every form of the kernel at score level with the store's lines (pair_score_fill<.., kStoreOut>):
    // row lines at band bottoms in and across groups of kGroupRows rows, column lines reached by
    // each lane's rows at their own steps, in the user's terms (a corner form's H taken back from
    // H'); then the path over them, as the CPU traces it over a whole matrix.
    struct Form {
        std::string name;
        Algorithm algo;
        GapPenalties gaps{1, 1};
        bool dtw_squared = false;
    };
    const std::vector<Form> forms = {
        {"local linear", Algorithm::local, {4, 4}},  {"local affine", Algorithm::local, {5, 1}},
        {"global linear", Algorithm::global, {2, 2}}, {"global affine", Algorithm::global, {4, 2}},
        {"edit", Algorithm::edit},                    {"lcs", Algorithm::lcs},
        {"dtw", Algorithm::dtw},                      {"dtw squared", Algorithm::dtw, {1, 1}, true},
    };
    const std::vector<std::pair<int, int>> shapes =
        test::quick() ? std::vector<std::pair<int, int>>{{700, 900}}
                      : std::vector<std::pair<int, int>>{{700, 900}, {1030, 515}, {300, 2100}, {1025, 1024}, {2100, 1300}};
    std::mt19937 g(31);
    for (const Form& f : forms)
        for (const auto& [m, n] : shapes)
            for (const int32_t k : test::quick() ? std::vector<int32_t>{256} : std::vector<int32_t>{256, 512}) {
                std::ostringstream what;
                what << f.name << " " << m << "x" << n << " K " << k;
                SCOPED_TRACE(what.str());
                ScoringOptions s;
                s.match = 3;
                s.mismatch = -2;
                s.gaps = f.gaps;
                s.dtw_cost = f.dtw_squared ? DtwCost::squared : DtwCost::abs;
                Expected<Problem> p = input_error("none");
                if (f.algo == Algorithm::dtw) {
                    p = make_dtw_problem({"q", random_walk(g, m, 1.0)}, {"t", random_walk(g, n, 1.0)}, s);
                } else {
                    const std::string q = random_text(g, m, "ACGT");
                    p = make_problem(f.algo, {"q", q}, {"t", mutated(g, q, n, "ACGT")}, s);
                }
                ASSERT_TRUE(p) << p.error().message;
                ASSERT_TRUE(pair_score::fills(*p, OutputLevel::score, 0));
                DpResult ref = align_reference(*p);
                const Checkpoints want = checkpoints_from_matrix(*p, ref, k);
                ref.dirs = {};  // the store's path keeps none
                for (const bool dpx : {true, false}) {
                    SCOPED_TRACE(dpx ? "dpx" : "dpx-free");
                    auto r = align_gpu(*p, OutputLevel::path, dpx, {}, k);
                    ASSERT_TRUE(r) << r.error().message;
                    EXPECT_EQ(r->shape.blocks, 0) << "the band kernel ran, not the one-pair kernel";
                    ASSERT_TRUE(r->checkpoints);
                    ASSERT_TRUE(r->checkpoints->source) << "the lines left the device";
                    const Checkpoints got = checkpoints_on_host(*p, *r->checkpoints);
                    EXPECT_EQ(got.spacing, want.spacing);
                    EXPECT_EQ(got.row_h, want.row_h) << "row lines, H";
                    EXPECT_EQ(got.row_f, want.row_f) << "row lines, F";
                    EXPECT_EQ(got.col_h, want.col_h) << "column lines, H";
                    EXPECT_EQ(got.col_e, want.col_e) << "column lines, E";
                    EXPECT_EQ(r->checkpoints->source->failed(), "");
                    test::expect_same(ref, *r, OutputLevel::path, what.str());
                }
            }
}

TEST(PairScoreGpu, PictureFillsOfLocalPairsPoolTheReferencesOverview) {
    DPVIZ_REQUIRE_GPU();
    // The picture's fill of local pairs (pair_score_fill<.., kPictureOut>): the lines and the
    // overview, blocks of a band's rows and of a number that splits a lane's rows, last texel
    // columns of a few cells and of a whole block; the texels, the range and the path against
    // the whole matrix's.
    const test::ScopedEnv picture("DPVIZ_PAIR_PICTURE", nullptr);  // the default (pair_score::picture_on_kernel)
    std::mt19937 g(41);
    for (const GapPenalties gaps : {GapPenalties{4, 4}, GapPenalties{5, 1}})
        for (const auto& [m, n] : picture_shapes())
            for (const int32_t block : picture_blocks()) {
                std::ostringstream what;
                what << "local " << gaps.open << "/" << gaps.extend << " " << m << "x" << n << " B " << block;
                SCOPED_TRACE(what.str());
                ScoringOptions s;
                s.match = 3;
                s.mismatch = -2;
                s.gaps = gaps;
                const std::string q = random_text(g, m, "ACGT");
                auto p = make_problem(Algorithm::local, {"q", q}, {"t", mutated(g, q, n, "ACGT")}, s);
                ASSERT_TRUE(p) << p.error().message;
                expect_picture_of_reference(*p, block, what.str());
            }
}

TEST(PairScoreGpu, PictureFillsOfEditAndLcsPoolTheReferencesOverview) {
    DPVIZ_REQUIRE_GPU();
    // The corner form's picture (edit distance: the lowest D a block holds, on its first row or
    // column; LCS: the largest, its last cell), the first rows pooled as u = H' - g (i + j) with
    // the cells left of column 1 dropped, where a block starts at column 0 too (its padding cells
    // would read as D = i + j), on related and unrelated pairs; a pair of one block leaves it to
    // the borders.
    const test::ScopedEnv picture("DPVIZ_PAIR_PICTURE", nullptr);
    std::mt19937 g(43);
    for (const Algorithm algo : {Algorithm::edit, Algorithm::lcs})
        for (const bool related : {true, false})
            for (const auto& [m, n] : picture_shapes())
                for (const int32_t block : picture_blocks()) {
                    std::ostringstream what;
                    what << algorithm_name(algo) << (related ? " related " : " unrelated ") << m << "x" << n << " B " << block;
                    SCOPED_TRACE(what.str());
                    const std::string q = random_text(g, m, "ACGT");
                    const std::string t = related ? mutated(g, q, n, "ACGT") : random_text(g, n, "ACGT");
                    auto p = make_problem(algo, {"q", q}, {"t", t}, ScoringOptions{});
                    ASSERT_TRUE(p) << p.error().message;
                    expect_picture_of_reference(*p, block, what.str());
                }
}

TEST(PairScoreGpu, PictureFillsOfDtwPoolTheReferencesOverview) {
    DPVIZ_REQUIRE_GPU();
    // DTW's picture: the lowest D of each block (on its first row or column) and the largest of
    // every cell (the overview's range, which may lie inside the matrix, also where a pair of one
    // block leaves the texels to the borders), the cells left of column 1 and past the matrix
    // dropped.
    const test::ScopedEnv picture("DPVIZ_PAIR_PICTURE", nullptr);
    std::mt19937 g(47);
    for (const DtwCost cost : {DtwCost::abs, DtwCost::squared})
        for (const auto& [m, n] : picture_shapes())
            for (const int32_t block : picture_blocks()) {
                std::ostringstream what;
                what << "dtw " << (cost == DtwCost::abs ? "abs " : "squared ") << m << "x" << n << " B " << block;
                SCOPED_TRACE(what.str());
                ScoringOptions s;
                s.dtw_cost = cost;
                auto p = make_dtw_problem({"q", random_walk(g, m, 1.0)}, {"t", random_walk(g, n, 1.0)}, s);
                ASSERT_TRUE(p) << p.error().message;
                expect_picture_of_reference(*p, block, what.str());
            }
}
