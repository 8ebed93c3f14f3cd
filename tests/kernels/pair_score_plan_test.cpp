// Which problems the one-pair score kernel takes (kernels/common/pair_score_plan.hpp): the device
// path, the simulated device and these checks read the same rule.
#include <gtest/gtest.h>

#include <string>

#include "dpviz/engine.hpp"
#include "pair_score_plan.hpp"

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
    // Not for affine gaps or the other algorithms.
    ScoringOptions affine = s;
    affine.gaps = {5, 1};
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", affine), OutputLevel::score));
    for (const Algorithm a : {Algorithm::global, Algorithm::semiglobal, Algorithm::edit, Algorithm::lcs})
        EXPECT_FALSE(pair_score::applies(make(a, "ACGT", "ACGT", s), OutputLevel::score)) << algorithm_name(a);
    // A fifth residue code anywhere in the pair (N in the target).
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACNGT", s), OutputLevel::score));
    // Two codes are fine.
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, "ACCA", "CAAC", s), OutputLevel::score));
}

TEST(PairScorePlan, RefusesScoresOutsideAByteAndBestScoresPastTheBound) {
    ScoringOptions s = dna_linear();
    s.match = 127;
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    s.match = 128;  // not an int8
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    s.match = 2;
    s.mismatch = -129;
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", "ACGT", s), OutputLevel::score));
    // min(M, N) * best score must stay under kMaxScore: just past it with 127, just under with 126.
    s.mismatch = -1;
    s.match = 127;
    const std::string a(size_t(pair_score::kMaxScore / 127 + 1), 'A');
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, a, a, s), OutputLevel::score));
    s.match = 126;
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, a, a, s), OutputLevel::score));
}

TEST(PairScorePlan, TakesPairsUpToTwoToTheTwentyFirstResidues) {
    // 1,048,576^2 with match 2 (the scan's largest square) fits the end-cell key and the score
    // bound; a side of 2^21 residues does not.
    const ScoringOptions s = dna_linear();
    const std::string mega(size_t(1) << 20, 'A'), two_mega(size_t(1) << 21, 'C');
    EXPECT_TRUE(pair_score::applies(make(Algorithm::local, mega, mega, s), OutputLevel::score));
    EXPECT_FALSE(pair_score::applies(make(Algorithm::local, "ACGT", two_mega, s), OutputLevel::score));
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
