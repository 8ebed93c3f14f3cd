// Which problems the one-pair score kernel takes (kernels/common/pair_score_plan.hpp): the device
// path, the simulated device and these checks read the same rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "pair_score_plan.hpp"
#include "scoped_env.hpp"

using namespace dpviz;

namespace {

Problem make(Algorithm algo, const std::string& q, const std::string& t, ScoringOptions s) {
    auto p = make_problem(algo, {"q", q}, {"t", t}, s);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

ScoringOptions dna_linear() {
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    return s;
}

}  // namespace

TEST(PairScorePlan, TakesLocalLinearScoreOnlyPairsOfAtMostFourCodes) {
    const ScoringOptions s = dna_linear();
    const Problem dna = make(Algorithm::local, "ACGTTGCA", "ACGGTCA", s);
    EXPECT_TRUE(pair_score::applies(dna, OutputLevel::score));
    // Not at the levels that need direction bits or the matrix.
    EXPECT_FALSE(pair_score::applies(dna, OutputLevel::path));
    EXPECT_FALSE(pair_score::applies(dna, OutputLevel::matrix));
    // Affine gaps too, at score level only. Global (linear and affine gaps), edit and LCS in the
    // corner forms; semi-global and glocal not.
    ScoringOptions affine = s;
    affine.gaps = {5, 1};
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", affine), OutputLevel::score));
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", affine), OutputLevel::path));
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGT", affine), OutputLevel::score));
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGT", affine), OutputLevel::path));
    for (const Algorithm a : {Algorithm::global, Algorithm::edit, Algorithm::lcs}) {
        EXPECT_TRUE(pair_score::applies(make(a, "ACGT", "ACGT", s), OutputLevel::score)) << algorithm_name(a);
        EXPECT_FALSE(pair_score::applies(make(a, "ACGT", "ACGT", s), OutputLevel::path)) << algorithm_name(a);
    }
    for (const Algorithm a : {Algorithm::semiglobal, Algorithm::glocal})
        EXPECT_FALSE(pair_score::applies(make(a, "ACGT", "ACGT", s), OutputLevel::score)) << algorithm_name(a);
    // A fifth residue code anywhere in the pair (N in the target).
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACNGT", s), OutputLevel::score));
    // Two codes are fine.
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, "ACCA", "CAAC", s), OutputLevel::score));
}

TEST(PairScorePlan, RefusesScoresOutsideAByteAndCornerFormsPastTheBound) {
    ScoringOptions s = dna_linear();
    s.match = 127;
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    s.match = 128;  // not an int8
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    s.match = 2;
    s.mismatch = -129;
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    // A corner form's min(M, N) * s' must stay under kMaxScore (global, gap 1: s' = match + 2):
    // just past it with 127, just under with 126. A local fill past it is taken: its best proves
    // the range after the fill, or the band kernels fill it again (RangeChecks below).
    s.mismatch = -1;
    s.gaps = {1, 1};
    const std::string a(size_t(pair_score::kMaxScore / 127 + 1), 'A');
    s.match = 125;
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, a, a, s), OutputLevel::score));
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, a, a, s), OutputLevel::score));
    s.match = 124;
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, a, a, s), OutputLevel::score));
}

TEST(PairScorePlan, RefusesGapsPastTheDpxFreeFormsFloor) {
    // E and F never fall below -open; minus an extend they must stay normal floats in the
    // DPX-free form: open + extend <= kMaxGap (32,767); a linear gap counts once.
    const int g = pair_score::kMaxGap;
    ScoringOptions s = dna_linear();
    for (const auto& [open, extend, takes] : {std::tuple{g - 1, 1, true}, std::tuple{g, 1, false},
                                              std::tuple{g, g, true}, std::tuple{g + 1, g + 1, false}}) {
        s.gaps = {open, extend};
        EXPECT_EQ(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score), takes)
            << open << "/" << extend;
    }
}

TEST(PairScorePlan, LocalRangesFollowTheEndCellKeyAndTheirChecksTheWorstCase) {
    // The end-cell key's score bits: 23 at 1,048,576^2 (41 index bits), 22 at 2^21 - 1 per side
    // (42), 25 at 185,000 x 2,200,000 (39); the range is those bits or kMaxScore, the lower. A
    // pair whose worst case passes its range is taken and its best checked after the fill.
    ScoringOptions s = dna_linear();
    s.match = 5;
    s.gaps = {10, 1};
    const auto limit = [&](const std::string& q, const std::string& t) {
        const Problem p = make(Algorithm::local, q, t, s);
        const auto c = pair_score::compact_codes(p);
        return pair_score::score_limit(*pair_score::scoring_of(p, c), p.rows(), p.cols());
    };
    const std::string mega(size_t(1) << 20, 'A');
    EXPECT_EQ(pair_score::key_index_bits(1 << 20, 1 << 20), 41);
    EXPECT_EQ(limit(mega, mega), pair_score::kMaxScore);
    const std::string big(size_t(1 << 21) - 1, 'A');
    EXPECT_EQ(pair_score::key_index_bits(int(big.size()), int(big.size())), 42);
    EXPECT_EQ(limit(big, big), (1 << 22) - 1);
    const std::string read(185'000, 'C'), genome(2'200'000, 'C');
    EXPECT_EQ(pair_score::key_index_bits(185'000, 2'200'000), 39);
    EXPECT_EQ(limit(read, genome), pair_score::kMaxScore);
    // NUC.4.4's A C G T (+5 / -4) in half units, as the CLI's default gaps 10/0.5 make it: +10,
    // a worst case of 10,485,760 at 1,048,576^2, past kMaxScore. Taken, with its check.
    ScoringOptions half;
    half.matrix = SubstitutionMatrix{"nuc", "ACGT", {5, -4, -4, -4, -4, 5, -4, -4, -4, -4, 5, -4, -4, -4, -4, 5}};
    half.score_scale = 2;
    half.gaps = {20, 1};
    const Problem p = make(Algorithm::local, mega, mega, half);
    const auto c = pair_score::compact_codes(p);
    const auto sc = pair_score::scoring_of(p, c);
    ASSERT_TRUE(sc);
    EXPECT_EQ(pair_score::largest_score(*sc, c), 10);
    EXPECT_GT(pair_score::worst_score(*sc, 10, p.rows(), p.cols()), pair_score::score_limit(*sc, p.rows(), p.cols()));
    EXPECT_TRUE(pair_score::applies(p, OutputLevel::score));
    // The check's edge: a best of limit - hi proves the range, one more does not.
    EXPECT_TRUE(pair_score::proves_range(pair_score::kMaxScore - 10, pair_score::kMaxScore, 10));
    EXPECT_FALSE(pair_score::proves_range(pair_score::kMaxScore - 9, pair_score::kMaxScore, 10));
    // The corner form packs no end cell: its sides are bounded by the group tags alone (65,536
    // groups of 512 rows), on either side, as a local fill's with a small worst case.
    s.match = 2;
    s.gaps = {2, 2};  // global: a linear gap
    const std::string two_mega(size_t(1) << 21, 'C');
    for (const Algorithm a : {Algorithm::edit, Algorithm::lcs, Algorithm::global, Algorithm::local}) {
        EXPECT_TRUE(pair_score::applies(make(a, "ACGT", two_mega, s), OutputLevel::score)) << algorithm_name(a);
        EXPECT_TRUE(pair_score::applies(make(a, two_mega, "ACGT", s), OutputLevel::score)) << algorithm_name(a);
    }
    const std::string tags(size_t(pair_score::kMaxDim), 'G');
    EXPECT_EQ(pair_score::groups(pair_score::kMaxDim), 1 << 16);
    for (const Algorithm a : {Algorithm::edit, Algorithm::local}) {
        EXPECT_TRUE(pair_score::applies(make(a, "ACGT", tags, s), OutputLevel::score)) << algorithm_name(a);
        EXPECT_FALSE(pair_score::applies(make(a, tags + "G", "ACGT", s), OutputLevel::score)) << algorithm_name(a);
    }
}

TEST(PairScorePlan, CompactCodesNumberTheCodesInOrderOfFirstUse) {
    const Problem p = make(Algorithm::local, "GGTA", "AC", dna_linear());
    const pair_score::Compact c = pair_score::compact_codes(p);
    ASSERT_EQ(c.used, 4);
    // Query first, then target: G, T, A, C.
    for (int k = 0; k < 4; ++k) EXPECT_EQ(c.code[c.of[size_t(k)]], k);
    EXPECT_EQ(c.code[p.query_codes[0]], 0);
    EXPECT_EQ(c.code[p.query_codes[2]], 1);
    EXPECT_EQ(c.code[p.target_codes[1]], 3);
}

TEST(PairScorePlan, BlocksPerSmFollowTheCriticalPathMeasuredOnAnH200) {
    using pair_score::Form;
    // 132 SMs, 5 blocks fit (4 for the forms measured to 4). The fastest k measured on an H200
    // (DPX fills, docs/single_pair_kernel.md, "Blocks per SM"), at 262,144^2, 524,288^2 and
    // 1,048,576^2; 0 where no size was measured. Where two k were within 1 %, either is the
    // fastest (DTW at 524,288^2: 112.8 ms at 2, 112.7 at 3).
    struct Measured { Form form; int fits; int best[3]; int also[3]; };
    const Measured measured[] = {
        {Form::linear, 5, {2, 0, 2}, {0, 0, 0}},
        {Form::affine, 4, {2, 2, 4}, {0, 0, 0}},
        {Form::corner, 4, {2, 2, 2}, {0, 0, 0}},
        {Form::dtw, 4, {2, 3, 3}, {0, 2, 0}},
        {Form::corner_affine, 4, {2, 3, 4}, {0, 0, 0}},
    };
    const int sizes[] = {1 << 18, 1 << 19, 1 << 20};
    for (const Measured& m : measured)
        for (int s = 0; s < 3; ++s) {
            if (m.best[s] == 0) continue;
            const int k = pair_score::choose_blocks_per_sm(m.form, sizes[s], sizes[s], 132, m.fits);
            EXPECT_TRUE(k == m.best[s] || k == m.also[s]) << pair_score::form_name(m.form) << " " << sizes[s] << ": " << k;
        }
    // At 65,536^2 (128 groups, fewer than the SMs) every k gave the same time: the smallest.
    for (Form f : {Form::linear, Form::affine, Form::corner, Form::dtw, Form::dtw_squared, Form::corner_affine})
        EXPECT_EQ(pair_score::choose_blocks_per_sm(f, 1 << 16, 1 << 16, 132, 5), 1) << pair_score::form_name(f);
    // The model's order at 1,048,576^2 as measured for local linear: 2 before 5 before 1.
    const auto t = [](int k) { return pair_score::predicted_cycles(Form::linear, 1 << 20, 1 << 20, 132, k); };
    EXPECT_LT(t(2), t(5));
    EXPECT_LT(t(5), t(1));
    // A step never gets cheaper with more warps on a scheduler, past the tables too.
    for (Form f : {Form::linear, Form::affine, Form::corner, Form::dtw, Form::corner_affine})
        for (int w = 1; w < 8; ++w) EXPECT_LE(pair_score::step_cycles(f, w), pair_score::step_cycles(f, w + 1));
    // Never more than fit, never fewer than one.
    EXPECT_EQ(pair_score::choose_blocks_per_sm(Form::affine, 1 << 20, 1 << 20, 132, 1), 1);
    for (int n : {1, 100, 5000, 1 << 19}) {
        const int k = pair_score::choose_blocks_per_sm(Form::dtw, n, n, 132, 5);
        EXPECT_GE(k, 1);
        EXPECT_LE(k, 5);
    }
}

namespace {

// n letters drawn from abc.
std::string random_over(std::mt19937& rng, const std::string& abc, int n) {
    std::string r;
    for (int k = 0; k < n; ++k) r += abc[size_t(rng() % abc.size())];
    return r;
}

// An asymmetric 4-letter table: a transposed s' shows.
SubstitutionMatrix asymmetric_table() {
    SubstitutionMatrix m;
    m.name = "asym4";
    m.alphabet = "ACGT";
    m.scores = {5, -6, 3, -7, 0, 4, -2, 9, -4, 1, 6, -3, 2, -9, 4, 8};
    return m;
}

// The kernel's fill as the plan defines it: H' = max(diag' + s', up' - gap, left' - gap, 0) from
// borders of 0 over `pad` more rows and columns scored -128 (the kernel's padding). Linear gaps.
std::vector<std::vector<int64_t>> kernel_fill(const Problem& p, const pair_score::Scoring& sc, int pad) {
    const pair_score::Compact c = pair_score::compact_codes(p);
    const int M = p.rows(), N = p.cols();
    std::vector<std::vector<int64_t>> h(size_t(M + pad + 1), std::vector<int64_t>(size_t(N + pad + 1), 0));
    for (int i = 1; i <= M + pad; ++i)
        for (int j = 1; j <= N + pad; ++j) {
            const int64_t s = i <= M && j <= N
                                  ? sc.s[size_t(c.code[p.query_codes[size_t(i - 1)]] * 4 + c.code[p.target_codes[size_t(j - 1)]])]
                                  : -128;
            h[size_t(i)][size_t(j)] = std::max({h[size_t(i - 1)][size_t(j - 1)] + s, h[size_t(i - 1)][size_t(j)] - sc.open,
                                                h[size_t(i)][size_t(j - 1)] - sc.open, int64_t(0)});
        }
    return h;
}

}  // namespace

// The corner form's claims (pair_score::Scoring), on the reference: H'(M, N) gives the score, no
// real cell beats it, and the padding rows and columns copy row M and column N.
TEST(PairScorePlan, TheCornerFormGivesTheReferenceScoreOnSeededRandomPairs) {
    std::mt19937 rng(20261203);
    const char* letters[] = {"ACGT", "AC", "GTA"};
    for (int t = 0; t < 120; ++t) {
        const Algorithm algo = std::array{Algorithm::global, Algorithm::edit, Algorithm::lcs}[size_t(t % 3)];
        const std::string abc = letters[size_t(t / 3 % 3)];
        const std::string q = random_over(rng, abc, 1 + int(rng() % 40)), tg = random_over(rng, abc, 1 + int(rng() % 40));
        ScoringOptions s;
        s.match = 1 + int(rng() % 6);
        s.mismatch = -int(rng() % 6);
        const int g = int(rng() % 5);
        s.gaps = {g, g};
        if (algo == Algorithm::global && t % 2 == 1) s.matrix = asymmetric_table();
        if (algo != Algorithm::global && t % 2 == 1) s.gaps = {g + 3, 1};  // ignored by edit and LCS
        const Problem p = make(algo, q, tg, s);
        SCOPED_TRACE(std::string(algorithm_name(algo)) + " " + q + " / " + tg);
        ASSERT_TRUE(pair_score::applies(p, OutputLevel::score));
        const auto sc = pair_score::scoring_of(p, pair_score::compact_codes(p));
        ASSERT_TRUE(sc && sc->corner);
        EXPECT_EQ(sc->open, 0);
        const auto ref = align_reference(p, RunControl{});
        ASSERT_TRUE(ref) << ref.error().message;
        const int M = p.rows(), N = p.cols();
        const auto h = kernel_fill(p, *sc, 37);
        const int64_t corner = h[size_t(M)][size_t(N)];
        EXPECT_EQ(pair_score::corner_score(*sc, corner, M, N), ref->score);
        EXPECT_EQ(ref->end.i, M);
        EXPECT_EQ(ref->end.j, N);
        for (int i = 0; i <= M; ++i)
            for (int j = 0; j <= N; ++j) {
                // H' = sign H + g (i + j) cell by cell, so no real cell exceeds H'(M, N).
                EXPECT_EQ(h[size_t(i)][size_t(j)], sc->sign * int64_t(ref->H.at(i, j)) + int64_t(sc->g) * (i + j))
                    << i << "," << j;
                EXPECT_LE(h[size_t(i)][size_t(j)], corner);
                // The store's lines take each H' back (cuda/pair_score.cu, line_value).
                EXPECT_EQ(pair_score::problem_value(*sc, h[size_t(i)][size_t(j)], i, j), ref->H.at(i, j)) << i << "," << j;
            }
        for (int k = 1; k <= 37; ++k) {
            EXPECT_EQ(h[size_t(M + k)][size_t(N)], corner);  // the bottom row of a padded band
            EXPECT_EQ(h[size_t(M)][size_t(N + k)], corner);
        }
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(PairScorePlan, TheCornerFormKeepsItsScoresInAByteAndUnderTheBound) {
    // Global: s' = s + 2 g; 127 fits, 129 does not.
    ScoringOptions s = dna_linear();
    s.match = 5;
    s.gaps = {61, 61};  // 5 + 122 = 127
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    s.gaps = {62, 62};  // 129
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    // Edit at the scan's largest square: H' <= 2 min(M, N) = 2,097,152.
    const std::string mega(size_t(1) << 20, 'A');
    EXPECT_TRUE(pair_score::applies(make(Algorithm::edit, mega, mega, dna_linear()), OutputLevel::score));
    const auto sc = pair_score::scoring_of(make(Algorithm::edit, "AC", "CA", dna_linear()),
                                           pair_score::compact_codes(make(Algorithm::edit, "AC", "CA", dna_linear())));
    ASSERT_TRUE(sc);
    EXPECT_EQ(sc->s[0], 2);  // a match costs 0: 0 + 2 g
    EXPECT_EQ(sc->s[1], 1);  // a substitution costs 1
    EXPECT_EQ(sc->sign, -1);
    EXPECT_EQ(sc->g, 1);
}

namespace {

// The affine corner form as the kernel runs it (cuda/pair_score.cu; pair_score::Scoring):
// H' = max(diag' + s', E', F') with E' = max(E'left, H'left - c0) and F' = max(F'up, H'up - c0),
// no floor; row 0 holds H' = 0 and F' = -c0 from column 1 on, H'(0, 0) = c0 is row 1's first
// diagonal; `pad` columns left of column 1 are computed as the kernel computes them (scored -128,
// from H' = 0, E' = -c0 and F' = 0 on their left and above), and `pad` rows and columns past M
// and N (scored -128). h[i][j + pad] is H'(i, j), j from -pad; `lowest` is the lowest value any
// max compared.
struct AffineCornerFill {
    std::vector<std::vector<int64_t>> h, e, f;  // H', E', F'
    int64_t lowest = 0;
};
AffineCornerFill affine_corner_fill(const Problem& p, const pair_score::Scoring& sc, int pad) {
    const pair_score::Compact c = pair_score::compact_codes(p);
    const int M = p.rows(), N = p.cols(), width = N + 2 * pad + 1;
    const int64_t c0 = sc.c0;
    AffineCornerFill out;
    auto& h = out.h;
    h.assign(size_t(M + pad + 1), std::vector<int64_t>(size_t(width), 0));
    auto& f = out.f;
    f = h;
    out.e = h;
    for (int j = 1; j <= N + pad; ++j) f[0][size_t(j + pad)] = -c0;
    h[0][size_t(pad)] = c0;
    const auto low = [&](int64_t v) { out.lowest = std::min(out.lowest, v); };
    for (int i = 1; i <= M + pad; ++i) {
        int64_t e = -c0;  // E' of the column left of the first one
        for (int x = 1; x < width; ++x) {
            const int j = x - pad;
            const int64_t s = i <= M && j >= 1 && j <= N
                                  ? sc.s[size_t(c.code[p.query_codes[size_t(i - 1)]] * 4 + c.code[p.target_codes[size_t(j - 1)]])]
                                  : -128;
            const int64_t d = h[size_t(i - 1)][size_t(x - 1)] + s;
            const int64_t eo = h[size_t(i)][size_t(x - 1)] - c0, fo = h[size_t(i - 1)][size_t(x)] - c0;
            for (const int64_t v : {d, e, eo, f[size_t(i - 1)][size_t(x)], fo}) low(v);
            e = std::max(e, eo);
            out.e[size_t(i)][size_t(x)] = e;
            f[size_t(i)][size_t(x)] = std::max(f[size_t(i - 1)][size_t(x)], fo);
            h[size_t(i)][size_t(x)] = std::max({d, e, f[size_t(i)][size_t(x)]});
        }
    }
    return out;
}

}  // namespace

// The affine corner form's claims on the reference (global alignment, affine gaps): H' = H +
// extend (i + j) + c0 cell by cell, so H'(M, N) gives the score; the columns left of column 1
// compute the border 0 by themselves; every H' stays >= -c0 and every compared value >= -2 c0
// (or the padding's -c0 - 128), the floor `applies` keeps the DPX-free form's floats above.
TEST(PairScorePlan, TheAffineCornerFormGivesTheReferenceScoreOnSeededRandomPairs) {
    std::mt19937 rng(20261205);
    const char* letters[] = {"ACGT", "AC", "GTA"};
    for (int t = 0; t < 120; ++t) {
        const std::string abc = letters[size_t(t % 3)];
        const std::string q = random_over(rng, abc, 1 + int(rng() % 40)), tg = random_over(rng, abc, 1 + int(rng() % 40));
        ScoringOptions s;
        s.match = 1 + int(rng() % 6);
        s.mismatch = -int(rng() % 6);
        const int extend = int(rng() % 4);
        s.gaps = {extend + 1 + int(rng() % 12), extend};
        if (t % 2 == 1) s.matrix = asymmetric_table();
        const Problem p = make(Algorithm::global, q, tg, s);
        SCOPED_TRACE(q + " / " + tg + " gaps " + std::to_string(s.gaps.open) + "/" + std::to_string(s.gaps.extend));
        ASSERT_TRUE(pair_score::applies(p, OutputLevel::score));
        const auto sc = pair_score::scoring_of(p, pair_score::compact_codes(p));
        ASSERT_TRUE(sc && sc->corner);
        EXPECT_EQ(pair_score::form_of(*sc), pair_score::Form::corner_affine);
        EXPECT_EQ(sc->c0, s.gaps.open - s.gaps.extend);
        EXPECT_EQ(sc->open, sc->c0);
        EXPECT_EQ(sc->extend, 0);
        const auto ref = align_reference(p, RunControl{});
        ASSERT_TRUE(ref) << ref.error().message;
        const int M = p.rows(), N = p.cols(), pad = 37;
        const auto fill = affine_corner_fill(p, *sc, pad);
        const auto at = [&](int i, int j) { return fill.h[size_t(i)][size_t(j + pad)]; };
        EXPECT_EQ(pair_score::corner_score(*sc, at(M, N), M, N), ref->score);
        for (int i = 1; i <= M; ++i)
            for (int j = 1; j <= N; ++j) {
                EXPECT_EQ(at(i, j), int64_t(ref->H.at(i, j)) + int64_t(sc->g) * (i + j) + sc->c0) << i << "," << j;
                // The store's lines take H', E' and F' back (cuda/pair_score.cu, line_value): the
                // kernel's -c0 at the borders stands for the reference's -infinity inside too.
                const size_t x = size_t(j + pad);
                EXPECT_EQ(pair_score::problem_value(*sc, at(i, j), i, j), ref->H.at(i, j)) << i << "," << j;
                EXPECT_EQ(pair_score::problem_value(*sc, fill.e[size_t(i)][x], i, j), ref->E.at(i, j)) << "E " << i << "," << j;
                EXPECT_EQ(pair_score::problem_value(*sc, fill.f[size_t(i)][x], i, j), ref->F.at(i, j)) << "F " << i << "," << j;
            }
        for (int i = 1; i <= M + pad; ++i) {
            EXPECT_EQ(at(i, 0), 0) << "row " << i << ", column 0";
            for (int j = -pad + 1; j <= N + pad; ++j) EXPECT_GE(at(i, j), -sc->c0) << i << "," << j;
        }
        EXPECT_GE(fill.lowest, -std::max<int64_t>(2 * int64_t(sc->c0), sc->c0 + 128));
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(PairScorePlan, TheAffineCornerFormKeepsItsGapsAboveTheDpxFreeFloorAndItsScoreUnderTheBound) {
    // The DPX-free form compares values down to -2 c0: 2 c0 <= kMaxGap (32,767).
    ScoringOptions s = dna_linear();
    const int c0 = pair_score::kMaxGap / 2;
    s.gaps = {c0 + 1, 1};
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    s.gaps = {c0 + 2, 1};
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    // s' = s + 2 extend must be an int8: 5 + 122 fits, 5 + 124 does not.
    s.match = 5;
    s.gaps = {70, 61};
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    s.gaps = {70, 62};
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, "ACGT", "ACGA", s), OutputLevel::score));
    // H' <= min(M, N) max s' + c0 <= kMaxScore: NUC.4.4's +5 with 10/1 (s' = 7) at the scan's
    // 1,048,576^2 fits (7,340,041).
    s.gaps = {10, 1};
    const std::string mega(size_t(1) << 20, 'A');
    EXPECT_TRUE(pair_score::applies(make(Algorithm::global, mega, mega, s), OutputLevel::score));
    s.match = 6;  // 8 * 1,048,576 + 9 > 8,000,000
    EXPECT_FALSE(pair_score::applies(make(Algorithm::global, mega, mega, s), OutputLevel::score));
}

namespace {

Problem make_dtw(const std::vector<double>& a, const std::vector<double>& b, DtwCost cost, int band = -1) {
    ScoringOptions s;
    s.dtw_cost = cost;
    s.band = band;
    auto p = make_dtw_problem({"q", a}, {"t", b}, s);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

}  // namespace

TEST(PairScorePlan, ALocalCellPastAnyLimitHasItsDiagonalWithinTheLargestScoreBelowIt) {
    // proves_range's argument on reference matrices: a cell past a limit L whose cells above and
    // to the left (every cell it depends on, E and F included) are all within L has its diag in
    // (L - hi, L]: the kernel computes that diag exactly and its best is at least it. Seeded
    // random local pairs, linear and affine gaps, match/mismatch and the asymmetric table; every
    // L from 0 to the best score.
    std::mt19937 rng(20261205);
    int checked = 0;
    for (int t = 0; t < 60; ++t) {
        ScoringOptions s = dna_linear();
        s.match = 1 + int(rng() % 9);
        s.mismatch = -int(rng() % 9);
        if (t % 3 == 1) s.matrix = asymmetric_table();
        s.gaps = t % 2 ? GapPenalties{int32_t(2 + rng() % 6), int32_t(1 + rng() % 2)} : GapPenalties{3, 3};
        const std::string q = random_over(rng, "ACGT", 1 + int(rng() % 50));
        std::string tg = q;  // a related target: long runs above any L
        for (char& ch : tg)
            if (rng() % 6 == 0) ch = "ACGT"[rng() % 4];
        const Problem p = make(Algorithm::local, q, tg, s);
        const auto c = pair_score::compact_codes(p);
        const auto sc = pair_score::scoring_of(p, c);
        ASSERT_TRUE(sc);
        const int32_t hi = *pair_score::largest_score(*sc, c);
        const auto ref = align_reference(p, RunControl{});
        ASSERT_TRUE(ref) << ref.error().message;
        const int M = p.rows(), N = p.cols();
        for (int32_t L = 0; L < ref->score; ++L) {
            // past[i][j]: some cell of rows <= i and columns <= j passes L.
            std::vector<std::vector<char>> past(size_t(M) + 1, std::vector<char>(size_t(N) + 1, 0));
            for (int i = 0; i <= M; ++i)
                for (int j = 0; j <= N; ++j) {
                    const bool before = (i > 0 && past[size_t(i - 1)][size_t(j)]) || (j > 0 && past[size_t(i)][size_t(j - 1)]);
                    const bool here = ref->H.at(i, j) > L;
                    past[size_t(i)][size_t(j)] = before || here;
                    if (!here || before) continue;
                    ++checked;
                    ASSERT_GE(i, 1);
                    ASSERT_GE(j, 1);
                    EXPECT_GT(ref->H.at(i - 1, j - 1), L - hi) << "L " << L << " cell " << i << "," << j;
                    EXPECT_LE(ref->H.at(i - 1, j - 1), L);
                }
        }
    }
    EXPECT_GT(checked, 1000);
}

TEST(PairScorePlan, TakesDtwScoreFillsWithoutABand) {
    const test::ScopedEnv unset("DPVIZ_PAIR_KERNEL", nullptr);
    const std::vector<double> a{0.5, -1.0, 2.0, 0.25}, b{0.0, 1.5, -2.0};
    for (const DtwCost cost : {DtwCost::abs, DtwCost::squared}) {
        const Problem p = make_dtw(a, b, cost);
        EXPECT_TRUE(pair_score::applies(p, OutputLevel::score));
        EXPECT_FALSE(pair_score::applies(p, OutputLevel::path));
        const auto sc = pair_score::scoring_of(p, pair_score::compact_codes(p));
        ASSERT_TRUE(sc);
        EXPECT_TRUE(sc->dtw);
        EXPECT_EQ(sc->squared, cost == DtwCost::squared);
        EXPECT_EQ(pair_score::form_of(*sc), cost == DtwCost::squared ? pair_score::Form::dtw_squared : pair_score::Form::dtw);
        EXPECT_EQ(pair_score_kernel(p), cost == DtwCost::squared ? "pair-score-dtw-squared" : "pair-score-dtw");
        EXPECT_EQ(pair_score::column_entry_bytes(p), 4u);
        // A Sakoe-Chiba band stays on the band kernels.
        const Problem banded = make_dtw(a, b, cost, 1);
        EXPECT_FALSE(pair_score::applies(banded, OutputLevel::score));
        EXPECT_EQ(pair_score_kernel(banded), "");
    }
}

TEST(PairScorePlan, TheDevicePathGivesTheKernelEveryScoreFillItAppliesToUnlessAskedForNone) {
    // pair_score_kernel names what the device path runs: the one-pair kernel for every score
    // fill it applies to (DTW and sides past 2^21 - 1 among them), the store's fills of them and
    // the local ones' pictures (not with DPVIZ_PAIR_PICTURE=0); the band kernels for the rest and
    // for paths; DPVIZ_PAIR_KERNEL=0 gives it nothing, and any other value is the default.
    ScoringOptions s = dna_linear();
    const Problem dtw = make_dtw({0.5, -1.0, 2.0}, {0.0, 1.5}, DtwCost::abs);
    const Problem banded_dtw = make_dtw({0.5, -1.0, 2.0}, {0.0, 1.5}, DtwCost::abs, 1);
    const Problem local = make(Algorithm::local, "ACGT", "ACGT", s);
    const Problem edit = make(Algorithm::edit, "ACGT", "ACGA", s);
    const std::string long_side(size_t(1) << 21, 'A');
    const Problem long_local = make(Algorithm::local, "ACGT", long_side, s);
    const Problem long_edit = make(Algorithm::edit, "ACGT", long_side, s);
    const std::vector<const Problem*> problems{&dtw, &banded_dtw, &local, &edit, &long_local, &long_edit};
    const auto names = [&] {
        std::vector<std::string> v;
        for (const Problem* p : problems) {
            EXPECT_EQ(pair_score::takes(*p, OutputLevel::score), !pair_score_kernel(*p).empty());
            EXPECT_FALSE(pair_score::takes(*p, OutputLevel::path));
            // The store's fill (score level, its lines) too, and the picture of a local fill, edit
            // distance, LCS or DTW whose blocks are at least a band's rows (pair_score::pools).
            const bool taken = !pair_score_kernel(*p).empty();
            EXPECT_EQ(pair_score::fills(*p, OutputLevel::score, 0), taken);
            {
                const test::ScopedEnv band("DPVIZ_PAIR_PICTURE", "0");
                EXPECT_FALSE(pair_score::fills(*p, OutputLevel::score, 128));  // the band kernels' picture
            }
            {
                const test::ScopedEnv unset("DPVIZ_PAIR_PICTURE", nullptr);
                EXPECT_EQ(pair_score::fills(*p, OutputLevel::score, 128),
                          taken && (p->algo == Algorithm::local || p->algo == Algorithm::edit || p->algo == Algorithm::dtw));
                EXPECT_FALSE(pair_score::fills(*p, OutputLevel::score, 127));
                EXPECT_FALSE(pair_score::fills(*p, OutputLevel::score, 132));  // not a multiple of 8
            }
            EXPECT_FALSE(pair_score::fills(*p, OutputLevel::path, 0));
            v.push_back(pair_score_kernel(*p));
        }
        return v;
    };
    const test::ScopedEnv unset_serial("DPVIZ_PAIR_SERIAL", nullptr);
    // By default the corner form's score fill is the row-serial one from kSerialMinRows rows (these
    // are shorter), local linear's the skewed one.
    const std::vector<std::string> taken{"pair-score-dtw", "", "pair-score", "pair-score-corner", "pair-score",
                                         "pair-score-corner"};
    for (const char* value : {static_cast<const char*>(nullptr), "1", "all"}) {
        const test::ScopedEnv knob("DPVIZ_PAIR_KERNEL", value);
        EXPECT_EQ(names(), taken) << (value ? value : "unset");
    }
    {  // asked for: local linear and DTW on the row-serial fill too
        const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", "1");
        EXPECT_EQ(names(), (std::vector<std::string>{"pair-serial-dtw-r6", "", "pair-serial-r6", "pair-serial-corner-r6",
                                                     "pair-serial-r6", "pair-serial-corner-r6"}));
    }
    {  // refused: the skewed fill for both
        const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", "0");
        EXPECT_EQ(names(), (std::vector<std::string>{"pair-score-dtw", "", "pair-score", "pair-score-corner",
                                                     "pair-score", "pair-score-corner"}));
    }
    const test::ScopedEnv none("DPVIZ_PAIR_KERNEL", "0");
    EXPECT_EQ(names(), (std::vector<std::string>(problems.size(), "")));
}

// The row-serial fill's geometry: its rows a lane by size, its groups, its steps within the row
// slots it shares with the skewed fill, its blocks per SM (the corner form: one wave where 2
// blocks an SM or fewer hold every group, else 2, DTW's as its; local linear: 1), and which fills
// take it by default (the corner form from kSerialMinRows rows, local linear with DPX from
// kSerialLocalMinRows, DTW from kSerialDtwMinRows) and by DPVIZ_PAIR_SERIAL.
TEST(PairScorePlan, TheRowSerialFillsGeometry) {
    using namespace pair_score;
    EXPECT_EQ(serial_rows(1), kSerialRowsSmall);
    EXPECT_EQ(serial_rows(kSerialSmallRows), kSerialRowsSmall);
    EXPECT_EQ(serial_rows(kSerialSmallRows + 1), kSerialRowsLarge);
    const int small = kSerialWarps * 32 * kSerialRowsSmall, large = kSerialWarps * 32 * kSerialRowsLarge;
    EXPECT_EQ(serial_groups(1), 1);
    EXPECT_EQ(serial_groups(small), 1);
    EXPECT_EQ(serial_groups(small + 1), 2);
    EXPECT_EQ(serial_groups(1 << 20), (1 << 20) / large);
    EXPECT_EQ(serial_groups(1 << 20) * large, 1 << 20);
    EXPECT_LE(serial_groups(kMaxDim), 1 << 16);  // the group tags' 16 bits
    for (const int n : {1, 31, 32, 33, 1000, 65536, 1 << 20, kMaxDim}) {
        const int st = serial_steps(n);
        EXPECT_EQ(st % kSerialChunk, 0) << n;
        EXPECT_GE(st, n + 31) << n;  // lane 31 reaches column n
        EXPECT_LT(st, n + 31 + kSerialChunk) << n;
        EXPECT_LE(int64_t(st) + kSerialChunk, row_slot_entries(n)) << n;  // the chunk past the sweep too
    }
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 1 << 20, 132, 4, true), kSerialMaxBlocks);  // 512 groups of 2,048 rows: 2 waves
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 1 << 20, 132, 1, true), 1);                 // fewer fit
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 65536, 132, 4, true), 1);                   // 86 groups of 768 rows
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 262144, 132, 4, true), 1);                  // 128 groups
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 132 * 2048 + 1, 132, 4, true), 2);          // 133 groups of 2,048 rows
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 262144, 66, 4, true), 2);                   // 128 groups on 66 SMs
    for (const int m : {65536, 262144, 132 * 2048 + 1, 1 << 20})  // local linear: one block per SM, any waves
        EXPECT_EQ(serial_blocks_per_sm(Form::linear, m, 132, 4, true), 1) << m;
    EXPECT_EQ(serial_name(Form::linear, 1 << 20), "pair-serial-r16");
    EXPECT_EQ(serial_name(Form::corner, 100), "pair-serial-corner-r6");
    EXPECT_EQ(serial_name(Form::dtw, 1 << 20), "pair-serial-dtw-r16");
    EXPECT_EQ(serial_name(Form::dtw_squared, 100), "pair-serial-dtw-squared-r6");
    EXPECT_EQ(serial_blocks_per_sm(Form::dtw, 1 << 20, 132, 4, true), 1);  // DTW's absolute cost with DPX: 1
    EXPECT_EQ(serial_blocks_per_sm(Form::dtw, 1 << 20, 132, 4, false), kSerialMaxBlocks);  // else as the corner form
    EXPECT_EQ(serial_blocks_per_sm(Form::dtw_squared, 1 << 20, 132, 4, true), kSerialMaxBlocks);
    EXPECT_EQ(serial_blocks_per_sm(Form::corner, 1 << 20, 132, 4, false), kSerialMaxBlocks);
    const int tall = kSerialMinRows, short_pair = kSerialMinRows - 1;
    const int local_tall = kSerialLocalMinRows, local_short = kSerialLocalMinRows - 1;
    {
        const test::ScopedEnv unset("DPVIZ_PAIR_SERIAL", nullptr);
        EXPECT_TRUE(takes_serial(Form::corner, OutputLevel::score, tall, true));    // the corner form: the row-serial fill
        EXPECT_TRUE(takes_serial(Form::corner, OutputLevel::score, tall, false));   // with either Ops
        EXPECT_FALSE(takes_serial(Form::corner, OutputLevel::score, short_pair, true));  // but on short pairs
        EXPECT_FALSE(takes_serial(Form::corner, OutputLevel::path, tall, true));
        EXPECT_FALSE(takes_serial(Form::corner_affine, OutputLevel::score, tall, true));
        EXPECT_TRUE(takes_serial(Form::linear, OutputLevel::score, local_tall, true));  // local linear: with DPX, tall
        EXPECT_FALSE(takes_serial(Form::linear, OutputLevel::score, local_short, true));
        EXPECT_FALSE(takes_serial(Form::linear, OutputLevel::score, local_tall, false));  // without DPX: skewed
        EXPECT_FALSE(takes_serial(Form::linear, OutputLevel::path, local_tall, true));
        EXPECT_FALSE(takes_serial(Form::affine, OutputLevel::score, local_tall, true));
        for (const Form f : {Form::dtw, Form::dtw_squared})
            for (const bool dpx : {true, false}) {  // DTW: with either Ops, from kSerialDtwMinRows rows
                EXPECT_TRUE(takes_serial(f, OutputLevel::score, kSerialDtwMinRows, dpx));
                EXPECT_FALSE(takes_serial(f, OutputLevel::score, kSerialDtwMinRows - 1, dpx));
                EXPECT_FALSE(takes_serial(f, OutputLevel::path, kSerialDtwMinRows, dpx));
            }
    }
    {
        const test::ScopedEnv refused("DPVIZ_PAIR_SERIAL", "0");
        for (const bool dpx : {true, false}) {
            EXPECT_FALSE(takes_serial(Form::linear, OutputLevel::score, local_tall, dpx));
            EXPECT_FALSE(takes_serial(Form::corner, OutputLevel::score, tall, dpx));
            EXPECT_FALSE(takes_serial(Form::dtw, OutputLevel::score, kSerialDtwMinRows, dpx));
        }
    }
    const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", "1");
    for (const int m : {1, short_pair, tall, local_tall})
        for (const bool dpx : {true, false}) {
            EXPECT_TRUE(takes_serial(Form::linear, OutputLevel::score, m, dpx));
            EXPECT_TRUE(takes_serial(Form::corner, OutputLevel::score, m, dpx));
            EXPECT_TRUE(takes_serial(Form::dtw_squared, OutputLevel::score, m, dpx));
            EXPECT_FALSE(takes_serial(Form::affine, OutputLevel::score, m, dpx));
            EXPECT_FALSE(takes_serial(Form::linear, OutputLevel::path, m, dpx));
        }
}

namespace {

// The kernel's DTW as it runs (cuda/pair_score.cu): the borders unreachable (kPosInf) but for
// D(0, 0) = 0, lane 0's first diagonal; `pad` padding columns left of column 1 (the lanes' skew)
// and right of N, and padding rows past M, all of value 0, each cell min(m + cost, kPosInf).
// Returns D(M, N) and the largest m + cost any cell forms.
std::pair<int64_t, int64_t> kernel_dtw(const Problem& p, int pad) {
    const int M = p.rows(), N = p.cols(), W = N + 2 * pad;  // column c of w is column c - pad
    const auto value = [](const std::vector<int32_t>& v, int k, int n) { return k >= 1 && k <= n ? v[size_t(k - 1)] : 0; };
    std::vector<int64_t> up(size_t(W) + 1, kPosInf), cur(size_t(W) + 1);
    int64_t widest = 0, corner = -1;
    for (int i = 1; i <= M + pad; ++i) {
        cur[0] = kPosInf;
        for (int c = 1; c <= W; ++c) {
            const int j = c - pad;
            const int64_t diag = i == 1 && j == 1 ? 0 : up[size_t(c - 1)];
            const int64_t m = std::min({diag, up[size_t(c)], cur[size_t(c - 1)]});
            const int32_t d = value(p.query_fixed, i, M) - value(p.target_fixed, j, N);
            const int64_t cost = p.dtw_cost == DtwCost::squared ? int64_t(d) * d : std::abs(int64_t(d));
            widest = std::max(widest, m + cost);
            cur[size_t(c)] = std::min<int64_t>(m + cost, kPosInf);
        }
        if (i == M) corner = cur[size_t(N + pad)];
        std::swap(up, cur);
    }
    return {corner, widest};
}

}  // namespace

TEST(PairScorePlan, TheSixteenBitFillTakesTheLocalLinearPairsItsRangeBoundCovers) {
    using namespace pair_score;
    const auto scoring = [](const Problem& p) {
        const Compact c = compact_codes(p);
        return std::pair{*scoring_of(p, c), c};
    };
    const auto fits = [&](int match, int mismatch, int gap) {
        ScoringOptions s;
        s.match = match;
        s.mismatch = mismatch;
        s.gaps = {gap, gap};
        const auto [sc, c] = scoring(make(Algorithm::local, "ACGTTGCA", "ACGGTCA", s));
        return fits16(sc, c);
    };
    // The bound (64 R + 97)(max s + g) S <= kLanes16Room: max s + g <= 6 at R = 8 (S = 8), <= 7
    // at R = 16 (S = 4).
    EXPECT_TRUE(fits(2, -1, 2));
    EXPECT_TRUE(fits(5, -4, 1));
    EXPECT_TRUE(fits(3, -15, 3));   // the lowest score times 8 is still an int8
    EXPECT_FALSE(fits(5, -4, 2));   // max s + g = 7
    EXPECT_FALSE(fits(1, -16, 1));  // -128 is the padding's
    EXPECT_FALSE(fits(1, -1, 0));   // a free gap: a padding row could tie the real row above
    EXPECT_GT(lanes16_step_bound(5, 2, kLanes16RowsSmall), kLanes16Room);
    EXPECT_LE(lanes16_step_bound(5, 1, kLanes16RowsSmall), kLanes16Room);
    EXPECT_LE(lanes16_step_bound(5, 2, kLanes16RowsLarge), kLanes16Room);
    EXPECT_GT(lanes16_step_bound(5, 3, kLanes16RowsLarge), kLanes16Room);
    ScoringOptions affine = dna_linear();
    affine.gaps = {3, 1};
    const auto [sa, ca] = scoring(make(Algorithm::local, "ACGT", "ACGT", affine));
    EXPECT_FALSE(fits16(sa, ca));
    EXPECT_TRUE(fits16_affine(sa, ca));  // its kAffine form, the range checked by the kernel
    const auto fits_affine = [&](int match, int mismatch, int open, int extend) {
        ScoringOptions s;
        s.match = match;
        s.mismatch = mismatch;
        s.gaps = {open, extend};
        const auto [sc, c] = scoring(make(Algorithm::local, "ACGTTGCA", "ACGGTCA", s));
        return fits16_affine(sc, c);
    };
    EXPECT_TRUE(fits_affine(5, -4, 10, 1));   // NUC.4.4's DNA scores, the CLI's default gaps
    EXPECT_FALSE(fits_affine(5, -4, 10, 0));  // a free extension
    EXPECT_FALSE(fits_affine(16, -4, 10, 1)); // 16 x 8 is no int8
    EXPECT_FALSE(fits_affine(5, -4, 60, 1));  // a chunk's rise past half the room
    EXPECT_FALSE(fits_affine(5, -4, 2, 2));   // linear gaps: fits16's
    const auto [sg, cg] = scoring(make(Algorithm::global, "ACGT", "ACGT", dna_linear()));
    EXPECT_FALSE(fits16(sg, cg));
    // Where it runs: DPX score fills from its sizes (local affine's larger), any size with
    // DPVIZ_PAIR_16X2=1, never with 0.
    const auto [sl, cl] = scoring(make(Algorithm::local, "ACGT", "ACGT", dna_linear()));
    const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", nullptr);
    {
        const test::ScopedEnv unset("DPVIZ_PAIR_16X2", nullptr);
        const test::ScopedEnv rows("DPVIZ_PAIR_16X2_ROWS", nullptr);
        EXPECT_TRUE(takes16(sl, cl, OutputLevel::score, kLanes16MinRows, true));
        EXPECT_FALSE(takes16(sl, cl, OutputLevel::score, kLanes16MinRows - 1, true));
        EXPECT_FALSE(takes16(sl, cl, OutputLevel::score, kLanes16MinRows, false));  // DPX only
        EXPECT_FALSE(takes16(sl, cl, OutputLevel::path, kLanes16MinRows, true));
        EXPECT_TRUE(takes16(sa, ca, OutputLevel::score, kLanes16MinRowsAffine, true));  // local affine
        EXPECT_FALSE(takes16(sa, ca, OutputLevel::score, kLanes16MinRowsAffine - 1, true));
        EXPECT_FALSE(takes16(sa, ca, OutputLevel::score, kLanes16MinRowsAffine, false));
        EXPECT_EQ(lanes16_rows(), kLanes16RowsSmall);
        const test::ScopedEnv large("DPVIZ_PAIR_16X2_ROWS", "16");
        EXPECT_EQ(lanes16_rows(), kLanes16RowsLarge);
    }
    {
        const test::ScopedEnv on("DPVIZ_PAIR_16X2", "1");
        EXPECT_TRUE(takes16(sl, cl, OutputLevel::score, 1, true));
        EXPECT_FALSE(takes16(sl, cl, OutputLevel::score, 1, false));
        EXPECT_TRUE(takes16(sa, ca, OutputLevel::score, 1, true));
    }
    for (const char* asked : {"1", "0"}) {  // the row-serial or the skewed fill asked for: in 32 bits
        const test::ScopedEnv fill("DPVIZ_PAIR_SERIAL", asked);
        EXPECT_FALSE(takes16(sl, cl, OutputLevel::score, 1 << 20, true)) << asked;
    }
    {
        const test::ScopedEnv other("DPVIZ_PAIR_SERIAL", "2");  // not a fill: the default routing
        EXPECT_TRUE(takes16(sl, cl, OutputLevel::score, 1 << 20, true));
    }
    const test::ScopedEnv off("DPVIZ_PAIR_16X2", "0");
    EXPECT_FALSE(takes16(sl, cl, OutputLevel::score, 1 << 20, true));
    // Geometry: 64 virtual lanes of R rows a band; a sweep of N + 63 steps in whole chunks, its row
    // slot with the two chunks past it.
    for (const int R : {kLanes16RowsSmall, kLanes16RowsLarge}) {
        const int group = kSerialWarps * 64 * R;
        EXPECT_EQ(groups16(1, R), 1);
        EXPECT_EQ(groups16(group, R), 1);
        EXPECT_EQ(groups16(group + 1, R), 2);
    }
    for (const int n : {1, 31, 32, 33, 1000, 1 << 20}) {
        EXPECT_GE(steps16(n), n + 63) << n;
        EXPECT_EQ(steps16(n) % kSerialChunk, 0) << n;
        EXPECT_LT(steps16(n), n + 63 + kSerialChunk) << n;
        EXPECT_GE(row_slot_entries(n), int64_t(steps16(n)) + 64) << n;
        EXPECT_GE(row_slot_entries(n), int64_t(serial_steps(n)) + 32) << n;
    }
}

TEST(PairScorePlan, TheSixteenBitFillsRangeBoundHoldsOnReferenceMatrices) {
    // fits16's argument on reference matrices: the cells a warp of the 16x2 fill holds at a step
    // (virtual lane v of band b: rows b 64 R + v R + 1 .. + R at column s + 1 - v) lie within
    // (64 R + 64)(max s + g) of each other, and a chunk of 32 steps raises a lane's cell by at most
    // 32 (max s + g) (along a row: H(i, j + 1) <= H(i, j) + max s + g). Identical pairs (the
    // largest spread: the diagonal climbs max s a row, the cells above it fall g a column),
    // related and random ones, at the scorings the tests use; the spread's largest value seen
    // must stay below the kernel's check (lanes16_spread), so a pair that fits never refills.
    using namespace pair_score;
    std::mt19937 rng(20261207);
    int warps_checked = 0;
    for (const auto& [match, mismatch, gap] : {std::tuple{2, -1, 2}, std::tuple{5, -4, 1}, std::tuple{3, -2, 3}, std::tuple{1, -15, 5}})
        for (const int kind : {0, 1, 2}) {
            ScoringOptions s;
            s.match = match;
            s.mismatch = mismatch;
            s.gaps = {gap, gap};
            const std::string q = random_over(rng, "ACGT", 1400);
            std::string t = kind == 2 ? random_over(rng, "ACGT", 1300) : q;
            if (kind == 1)
                for (char& ch : t)
                    if (rng() % 10 == 0) ch = "ACGT"[rng() % 4];
            const Problem p = make(Algorithm::local, q, t, s);
            const auto c = compact_codes(p);
            const Scoring sc = *scoring_of(p, c);
            ASSERT_TRUE(fits16(sc, c));
            const int32_t hi = *largest_score(sc, c);
            const auto ref = align_reference(p, RunControl{});
            ASSERT_TRUE(ref) << ref.error().message;
            const int M = p.rows(), N = p.cols();
            for (const int R : {kLanes16RowsSmall, kLanes16RowsLarge}) {
                int64_t largest = 0;
                for (int band = 0; band * 64 * R < M; ++band)
                    for (int step = 0; step < N + 64; ++step) {
                        int lo = INT32_MAX, hi_seen = INT32_MIN;
                        for (int v = 0; v < 64; ++v) {
                            const int j = step + 1 - v;
                            if (j < 1 || j > N) continue;
                            for (int k = 0; k < R; ++k) {
                                const int i = band * 64 * R + v * R + k + 1;
                                if (i > M) break;
                                lo = std::min(lo, ref->H.at(i, j));
                                hi_seen = std::max(hi_seen, ref->H.at(i, j));
                            }
                        }
                        if (lo > hi_seen) continue;
                        ++warps_checked;
                        largest = std::max<int64_t>(largest, hi_seen - lo);
                        ASSERT_LE(hi_seen - lo, int64_t(64 * R + 64) * (hi + gap)) << "R " << R << " band " << band << " step " << step;
                    }
                if (lanes16_step_bound(hi, gap, R) <= kLanes16Room) {
                    EXPECT_LE(largest * lanes16_scale(R), lanes16_spread(hi, gap, R)) << "R " << R << ", " << match << "/" << mismatch << "/" << gap;
                }
            }
            for (int i = 1; i <= M; ++i) {  // a row's rise per column
                for (int j = 1; j < N; ++j) {
                    ASSERT_LE(ref->H.at(i, j + 1) - ref->H.at(i, j), hi + gap);
                }
            }
        }
    EXPECT_GT(warps_checked, 10000);
}

TEST(PairScorePlan, DtwsPaddingStaysUnreachableAndItsValuesInRange) {
    // Seeded random signals, and signals at make_dtw_problem's largest scale (costs near its
    // 2^29 bound): D(M, N) is the reference's, and no m + cost passes 2^31 or, for the DPX-free
    // form's float compares, 0x7f800000.
    std::mt19937 rng(20261204);
    for (int t = 0; t < 60; ++t) {
        const DtwCost cost = t % 2 ? DtwCost::squared : DtwCost::abs;
        auto signal = [&](int n) {
            std::vector<double> v;
            double x = 0;
            for (int k = 0; k < n; ++k) v.push_back(x += (int(rng() % 2001) - 1000) * (t % 3 == 0 ? 1e3 : 1e-3));
            return v;
        };
        const Problem p = make_dtw(signal(1 + int(rng() % 60)), signal(1 + int(rng() % 60)), cost);
        SCOPED_TRACE("signal pair " + std::to_string(t));
        ASSERT_TRUE(pair_score::applies(p, OutputLevel::score));
        const auto ref = align_reference(p, RunControl{});
        ASSERT_TRUE(ref) << ref.error().message;
        const auto [corner, widest] = kernel_dtw(p, 131);
        EXPECT_EQ(corner, ref->score);
        EXPECT_LT(widest, int64_t(0x7f800000));
        if (::testing::Test::HasFailure()) return;
    }
}

// The local affine fill as the kernel runs it: E and F start at -open (the kernel's stand-in for
// the reference's -infinity left of column 1 and above row 1), H at 0 with the floor. The store's
// lines hold its H, E and F as they are: equal to the reference's at every interior cell.
TEST(PairScorePlan, TheLocalAffineFillsStandInsGiveTheReferencesGapsInside) {
    std::mt19937 rng(20261206);
    for (int t = 0; t < 120; ++t) {
        const std::string q = random_over(rng, "ACGT", 1 + int(rng() % 40)), tg = random_over(rng, "ACGT", 1 + int(rng() % 40));
        ScoringOptions s;
        s.match = 1 + int(rng() % 6);
        s.mismatch = -int(rng() % 6);
        const int extend = 1 + int(rng() % 4);
        s.gaps = {extend + 1 + int(rng() % 12), extend};  // affine: open > extend
        if (t % 2 == 1) s.matrix = asymmetric_table();
        const Problem p = make(Algorithm::local, q, tg, s);
        SCOPED_TRACE(q + " / " + tg + " gaps " + std::to_string(s.gaps.open) + "/" + std::to_string(s.gaps.extend));
        ASSERT_TRUE(pair_score::applies(p, OutputLevel::score));
        const pair_score::Compact c = pair_score::compact_codes(p);
        const auto sc = pair_score::scoring_of(p, c);
        ASSERT_TRUE(sc);
        const auto ref = align_reference(p, RunControl{});
        ASSERT_TRUE(ref) << ref.error().message;
        const int M = p.rows(), N = p.cols();
        const int64_t open = sc->open, ext = sc->extend;
        std::vector<std::vector<int64_t>> h(size_t(M + 1), std::vector<int64_t>(size_t(N + 1), 0)), f(h);
        for (int j = 0; j <= N; ++j) f[0][size_t(j)] = -open;
        for (int i = 1; i <= M; ++i) {
            int64_t e = -open;
            for (int j = 1; j <= N; ++j) {
                const int64_t sij = sc->s[size_t(c.code[p.query_codes[size_t(i - 1)]] * 4 + c.code[p.target_codes[size_t(j - 1)]])];
                e = std::max(e - ext, h[size_t(i)][size_t(j - 1)] - open);
                f[size_t(i)][size_t(j)] = std::max(f[size_t(i - 1)][size_t(j)] - ext, h[size_t(i - 1)][size_t(j)] - open);
                h[size_t(i)][size_t(j)] = std::max({h[size_t(i - 1)][size_t(j - 1)] + sij, e, f[size_t(i)][size_t(j)], int64_t(0)});
                EXPECT_EQ(pair_score::problem_value(*sc, h[size_t(i)][size_t(j)], i, j), ref->H.at(i, j)) << i << "," << j;
                EXPECT_EQ(pair_score::problem_value(*sc, e, i, j), ref->E.at(i, j)) << "E " << i << "," << j;
                EXPECT_EQ(pair_score::problem_value(*sc, f[size_t(i)][size_t(j)], i, j), ref->F.at(i, j)) << "F " << i << "," << j;
            }
        }
        if (::testing::Test::HasFailure()) return;
    }
}

// The store's column lines in the kernel's schedule (cuda/pair_score.cu): lane l's row k computes
// column s + 1 - l R - k at step s; chunks of kPublish steps; a chunk runs the loop that writes
// lines when a lane of the warp has a step of its line in it (pair_score::LineCursor); in it a
// lane keeps each row's cell at the block step pair_score::line_step names, and writes them after
// the chunk in which its rows passed the line, when it goes on. Every row of the matrix gets every
// column line once, the cell of that column, for bands in and past the last row and pairs
// narrower than K.
TEST(PairScorePlan, TheStoresColumnLinesReachEveryRowOnceInTheKernelsSchedule) {
    constexpr int R = pair_score::kRowsPerLane, P = pair_score::kPublish, B = pair_score::kBandRows;
    for (const auto& [M, N] : std::vector<std::pair<int, int>>{{700, 900}, {1030, 515}, {300, 2100}, {130, 255}, {2100, 1300}, {5, 4097}})
        for (const int K : {128, 256, 512, 1024}) {  // K: a power of two, a multiple of a band's rows
            SCOPED_TRACE(std::to_string(M) + "x" + std::to_string(N) + " K " + std::to_string(K));
            std::vector<int> got(size_t(M + 1) * size_t(N + 1), 0);  // stores per cell
            for (int band = 0; band * B < M + B; ++band) {  // one band past the last row too
                std::vector<pair_score::LineCursor> cursor;
                std::vector<int> rows_in;
                for (int l = 0; l < 32; ++l) {
                    const int row0 = band * B + l * R + 1;
                    rows_in.push_back(std::clamp(M - row0 + 1, 0, R));
                    cursor.emplace_back(K, N, l, rows_in.back());
                }
                // The columns of the cells each lane keeps (pair_score::line_step), -1: none yet.
                std::vector<std::array<int, R>> kept(32, {-1, -1, -1, -1});
                for (int s0 = 0; s0 < pair_score::steps(N); s0 += P) {
                    const bool any = std::any_of(cursor.begin(), cursor.end(), [&](const auto& c) { return c.in_chunk(s0); });
                    for (int st = s0; any && st < s0 + P; ++st) {
                        const int step = st % pair_score::kLineBlock, block = st - step;
                        for (int l = 0; l < 32; ++l) {
                            const int first_block = cursor[size_t(l)].first & ~(pair_score::kLineBlock - 1);
                            for (int k = 0; k < R; ++k) {
                                const pair_score::LineStep at = pair_score::line_step(l % 2 == 1, k);
                                if (at.step == step && block == first_block + at.block * pair_score::kLineBlock)
                                    kept[size_t(l)][size_t(k)] = st + 1 - l * R - k;
                            }
                        }
                    }
                    for (int l = 0; l < 32; ++l) {
                        const int passed = cursor[size_t(l)].after_chunk(s0, K, N);
                        for (int k = 0; passed != 0 && k < rows_in[size_t(l)]; ++k) {
                            const int i = band * B + l * R + 1 + k, j = kept[size_t(l)][size_t(k)];
                            ASSERT_EQ(j, passed) << "row " << i << " chunk " << s0;
                            ASSERT_TRUE(i >= 1 && i <= M && j >= 1 && j <= N) << i << "," << j;
                            ++got[size_t(i) * size_t(N + 1) + size_t(j)];
                        }
                    }
                }
            }
            for (int i = 1; i <= M; ++i)
                for (int j = 1; j <= N; ++j)
                    ASSERT_EQ(got[size_t(i) * size_t(N + 1) + size_t(j)], j % K == 0 ? 1 : 0) << i << "," << j;
        }
    // Row lines: band bottoms at multiples of K within the matrix.
    EXPECT_TRUE(pair_score::is_row_line(512, 256, 600));
    EXPECT_FALSE(pair_score::is_row_line(384, 256, 600));
    EXPECT_FALSE(pair_score::is_row_line(768, 256, 700));
    EXPECT_TRUE(pair_score::is_row_line(768, 256, 768));
}

// The picture's overview in the kernel's schedule (cuda/pair_score.cu, kPictureOut), over
// reference fills. A local fill: row k of a lane folds two cells (the step's and the previous one)
// into its texel column's maximum at the steps of k's parity; in every chunk, the fold at
// pair_score::texel_fold keeps the maximum so far and starts the next one from its two cells
// where the lane passes into the next texel column; after the chunk in which a lane's rows all
// passed into the next texel column, it writes the kept ones to their texels (at most two texel
// rows); a row writes its last texel column at the step it reaches column N + 1, with the cell
// before it. Edit distance, LCS and DTW pool the texels' edges (kEdges): at that fold every row
// keeps its cell of the texel column's first column (LCS: the cell left of it); after the chunk
// the lane writes them, edit distance and DTW to the new texel column, LCS from the rows that end
// a texel row (or are row M) to the one it left; only a texel's first row, a lane's row R - 1,
// folds as a local row does, and DTW's rows keep their largest D. The cells left of column 1
// hold the kernel's 0, those past column N and row M a value above every cell: pooled, they
// would show. Edit distance pools the lowest, as the kernel does: the largest -D (its u), where
// the cells left of column 1 (the corner form's H' = 0) read as D = i + j; a row's fold drops
// them in the chunks where it is there (kWatchEdge). The texels, with the borders the host pools,
// are the overview of the whole matrix, for last texel columns of one cell to a whole block.
TEST(PairScorePlan, ThePicturesTexelsPoolEveryCellOnceInTheKernelsSchedule) {
    constexpr int R = pair_score::kRowsPerLane, P = pair_score::kPublish, Bd = pair_score::kBandRows;
    constexpr int kBlock = pair_score::kLineBlock;
    constexpr int32_t kPoison = 1 << 28;
    std::mt19937 rng(20261207);
    {  // blocks a texel column's first cells would not meet at fixed steps, or a band's rows straddle
        const Problem p = make(Algorithm::local, "ACGT", "ACGT", ScoringOptions{});
        EXPECT_FALSE(pair_score::pools(p, 204));
        EXPECT_FALSE(pair_score::pools(p, 120));
        EXPECT_TRUE(pair_score::pools(p, 208));
        // Edit distance's cells offset by (i + j) << kScale stay within 2^30 (kShiftBias).
        const std::string side(size_t(pair_score::kMaxPictureDiagonal) / 2, 'A');
        EXPECT_TRUE(pair_score::pools(make(Algorithm::edit, side, side.substr(2), ScoringOptions{}), 208));
        EXPECT_FALSE(pair_score::pools(make(Algorithm::edit, side, side, ScoringOptions{}), 208));
        EXPECT_TRUE(pair_score::pools(make(Algorithm::lcs, side, side, ScoringOptions{}), 208));
    }
    for (const Algorithm algo : {Algorithm::local, Algorithm::edit, Algorithm::lcs, Algorithm::dtw})
    for (const auto& [M, N] : std::vector<std::pair<int, int>>{{700, 900}, {300, 2100}, {1030, 515}, {129, 130}, {900, 264}, {260, 263}, {300, 511}, {200, 127}, {140, 401}, {100, 90}})
        for (const int B : {128, 136, 200, 264}) {
            SCOPED_TRACE(std::string(algorithm_name(algo)) + " " + std::to_string(M) + "x" + std::to_string(N) + " B " + std::to_string(B));
            const bool edit = algo == Algorithm::edit, dtw = algo == Algorithm::dtw;
            const bool edges = algo != Algorithm::local, falls = edit || dtw;
            ScoringOptions s;
            s.match = 2;
            s.mismatch = -3;
            s.gaps = {5, 1};
            const std::string q = random_over(rng, "ACGT", M);
            std::string t = random_over(rng, "ACGT", N);
            for (int k = 0; k < std::min(M, N) / 2; ++k) t[size_t(k + N / 4)] = q[size_t(k + M / 4)];  // a long hit
            const auto walk = [&](int n) {  // DTW: a random walk
                std::vector<double> v(static_cast<size_t>(n), 0.0);
                double x = 0;
                for (double& y : v) y = x += double(int(rng() % 21) - 10) / 8;
                return v;
            };
            const Problem p = dtw ? make_dtw(walk(M), walk(N), DtwCost::abs) : make(algo, q, t, s);
            ASSERT_TRUE(pair_score::pools(p, B));
            const auto ref = align_reference(p, RunControl{});
            ASSERT_TRUE(ref) << ref.error().message;
            // What a row folds (local, LCS: H; edit: -D; DTW: D, the lowest) and starts from (the
            // kernel's kZ: 0; u = kZ: D = 2^22; DTW: unreachable). Left of column 1 the kernel holds
            // 0 (local, LCS), H' = 0 (edit: D = i + j) or unreachable (DTW); past column N and row
            // M values no texel and no range may show: above every cell for a maximum, below for a
            // minimum.
            const int32_t low = edit ? -(1 << 22) : dtw ? kPosInf : 0;
            const auto better = [&](int32_t a, int32_t b) { return dtw ? std::min(a, b) : std::max(a, b); };
            const auto cell = [&](int i, int j, bool for_worst = false) {
                if (j < 1) return edit ? -(i + j) : dtw ? kPosInf : 0;
                if (j > N || i > M) return dtw && !for_worst ? -7 : kPoison;
                return edit ? -ref->H.at(i, j) : ref->H.at(i, j);
            };
            std::vector<int32_t> texels(size_t(overview_texels(M, N, B)), dtw ? kPosInf : kNegInf);
            const auto texel = [&](int i, int j) -> int32_t& { return texels[size_t(i / B) * size_t(N / B + 1) + size_t(j / B)]; };
            int32_t worst = 0;  // DTW: the largest D, as the lanes hand it over at column N + 1
            for (int band = 0; band * Bd < M + Bd; ++band) {  // one band past the last row too
                std::vector<pair_score::LineCursor> cur, tail;
                std::vector<std::array<int32_t, R>> acc(32), done(32), wmax(32), cap(32);
                std::vector<int> rows_in, closes;
                std::vector<bool> top;
                for (int l = 0; l < 32; ++l) {
                    const int row0 = band * Bd + l * R + 1;
                    rows_in.push_back(std::min(M - row0 + 1, R));  // as the kernel's: negative past row M
                    cur.emplace_back(B, N, l, rows_in.back());
                    tail.push_back(pair_score::LineCursor::one(N + 1, l, rows_in.back()));
                    acc[size_t(l)].fill(low);
                    done[size_t(l)].fill(low);
                    wmax[size_t(l)].fill(0);
                    cap[size_t(l)].fill(low);
                    top.push_back(R - 1 < rows_in.back() && (row0 + R - 1) % B == 0);
                    int c = 0;
                    for (int k = 0; k < rows_in.back(); ++k)
                        if ((row0 + k + 1) % B == 0 || row0 + k == M) c |= 1 << k;
                    closes.push_back(c);
                }
                for (int s0 = 0; s0 < pair_score::steps(N); s0 += P) {
                    const auto any_in = [&](const auto& v) { return std::any_of(v.begin(), v.end(), [&](const auto& c) { return c.in_chunk(s0); }); };
                    const bool tails = any_in(tail), edge = (edit || dtw) && s0 < Bd;
                    for (int st = s0; st < s0 + P; ++st)
                        for (int l = 0; l < 32; ++l) {
                            const int first_block = cur[size_t(l)].first & ~(kBlock - 1);
                            const pair_score::LineCursor& tl = tail[size_t(l)];
                            for (int k = 0; k < R; ++k) {
                                const int i = band * Bd + l * R + 1 + k, j = st + 1 - l * R - k;
                                const pair_score::LineStep at = pair_score::texel_fold(l % 2 == 1, k);
                                const bool starts = st % kBlock == at.step && st - st % kBlock == first_block + at.block * kBlock;
                                int32_t& a = acc[size_t(l)][size_t(k)];
                                int32_t& w = wmax[size_t(l)][size_t(k)];
                                const int dt = tl.row_at(st);  // the kernel's test: one row a step
                                if (tails && dt == k && dt >= 0 && dt < rows_in[size_t(l)]) {
                                    ASSERT_EQ(j, N + 1);
                                    const int32_t v = starts ? cell(i, j - 1) : better(a, cell(i, j - 1));
                                    if (!edges || (falls && top[size_t(l)] && k == R - 1)) texel(i, N) = better(texel(i, N), v);
                                    if (!falls && ((closes[size_t(l)] >> k) & 1)) texel(i, N) = better(texel(i, N), cell(i, j - 1));
                                    worst = std::max({worst, w, cell(i, j - 1, true)});
                                }
                                ASSERT_FALSE(!tails && tl.row_at(st) == k && k < rows_in[size_t(l)]) << "a tail outside the tail's chunks";
                                if (edges && starts) cap[size_t(l)][size_t(k)] = falls ? cell(i, j - 1) : cell(i, j - 2);
                                if (st % 2 == k % 2) {
                                    if (dtw)  // kWatchEdge: column 0 and left of it dropped
                                        w = edge && st <= l * R - 1 + k       ? 0
                                            : edge && st == l * R + k        ? cell(i, j, true)
                                                                             : std::max({w, cell(i, j - 1, true), cell(i, j, true)});
                                    if (edges && k != R - 1) continue;  // only a texel's first row folds
                                    if (starts) done[size_t(l)][size_t(k)] = a;
                                    a = better(starts ? low : a, better(cell(i, j - 1), cell(i, j)));
                                    if (edit && edge && st <= l * R - 1 + k) a = low;  // kWatchEdge: row k left of column 1
                                } else {
                                    ASSERT_FALSE(starts) << "a texel column starts at a step of the other parity";
                                }
                            }
                        }
                    for (int l = 0; l < 32; ++l)
                        if (const int passed = cur[size_t(l)].after_chunk(s0, B, N); passed != 0) {
                            ASSERT_GT(rows_in[size_t(l)], 0);
                            for (int k = 0; k < rows_in[size_t(l)]; ++k) {
                                const int i = band * Bd + l * R + 1 + k;
                                if (!edges) {
                                    texel(i, passed - 1) = better(texel(i, passed - 1), done[size_t(l)][size_t(k)]);
                                } else if (falls) {
                                    texel(i, passed) = better(texel(i, passed), cap[size_t(l)][size_t(k)]);
                                    if (top[size_t(l)] && k == R - 1) texel(i, passed - 1) = better(texel(i, passed - 1), done[size_t(l)][size_t(k)]);
                                } else if ((closes[size_t(l)] >> k) & 1) {
                                    texel(i, passed - 1) = better(texel(i, passed - 1), cap[size_t(l)][size_t(k)]);
                                }
                            }
                        }
                    for (auto& c : tail) (void)c.after_chunk(s0, N + 1, N + 1);
                }
            }
            if (edit)  // the kernel writes D = -u with atomicMin
                for (int32_t& tx : texels) tx = tx == kNegInf ? kPosInf : -tx;
            const Overview got = overview_from_interior(p, B, texels, dtw ? worst : kPosInf);
            const Overview want = overview_from_matrix(p, ref->H, B);
            EXPECT_EQ(got.H.data, want.H.data);
            EXPECT_EQ(got.min, want.min);
            EXPECT_EQ(got.max, want.max);
            if (::testing::Test::HasFailure()) return;
        }
}
