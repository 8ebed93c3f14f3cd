// dpviz against EMBOSS on real pairs: global = needle with end gaps penalized like internal
// ones, semiglobal = needle's default (free end gaps), local = water; same matrix, same gaps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "peer_env.hpp"
#include "real_pairs.hpp"

namespace dpviz::peers {
namespace {

// The EMBOSS score of the best alignment: needle/water print it as "# Score: 123.0" (floats,
// exact here because matrix and penalties are integers).
int32_t emboss_score(Algorithm algo, const Seq& q, const Seq& t, bool protein, GapPenalties g) {
    const std::string open = std::to_string(g.open), extend = std::to_string(g.extend);
    std::vector<std::string> argv = {algo == Algorithm::local ? "water" : "needle",
                                     "-asequence", q.fasta, "-bsequence", t.fasta,
                                     "-datafile", protein ? "EBLOSUM62" : "EDNAFULL",
                                     "-gapopen", open, "-gapextend", extend,
                                     "-aformat3", "pair", "-outfile", "stdout", "-auto"};
    if (algo == Algorithm::global) argv.insert(argv.end(), {"-endweight", "-endopen", open, "-endextend", extend});
    if (algo == Algorithm::semiglobal) argv.push_back("-noendweight");
    const CommandOutput r = run_command(argv);
    if (r.status != 0) throw std::runtime_error(argv[0] + " failed (" + std::to_string(r.status) + "): " + r.err);
    const auto at = r.out.find("# Score:");
    if (at == std::string::npos) throw std::runtime_error(argv[0] + " printed no '# Score:' line:\n" + r.out);
    const double score = std::strtod(r.out.c_str() + at + 8, nullptr);
    if (score != std::round(score)) throw std::runtime_error(argv[0] + " score is not an integer: " + std::to_string(score));
    return static_cast<int32_t>(score);
}

const SubstitutionMatrix& matrix_for(bool protein) { return matrix(protein ? "BLOSUM62" : "NUC.4.4"); }

// ---------------------------------------------------------------------------------------------
// Built-in matrices are EMBOSS's tables
// ---------------------------------------------------------------------------------------------

TEST(EmbossMatrices, BuiltinsEqualEmbossFiles) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    for (const auto& [builtin, file] : {std::pair{"BLOSUM62", "EBLOSUM62"}, std::pair{"NUC.4.4", "EDNAFULL"}}) {
        SCOPED_TRACE(std::string(builtin) + " vs " + file);
        const SubstitutionMatrix& ours = matrix(builtin);
        const SubstitutionMatrix& theirs = matrix(std::string(kEmbossData) + "/" + file);
        ASSERT_EQ(ours.alphabet, theirs.alphabet);
        EXPECT_EQ(ours.scores, theirs.scores);
    }
}

// ---------------------------------------------------------------------------------------------
// Real pairs
// ---------------------------------------------------------------------------------------------

struct EmbossCase {
    std::string pair;  // a real_pairs() label
    Algorithm algo;
    std::vector<GapPenalties> gaps;
};

std::string case_name(const testing::TestParamInfo<EmbossCase>& info) {
    return info.param.pair + "_" + std::string(algorithm_name(info.param.algo));
}

class EmbossAgreement : public testing::TestWithParam<EmbossCase> {};

TEST_P(EmbossAgreement, ScoreEqualsEmboss) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    const EmbossCase& c = GetParam();
    const RealPair& rp = real_pair(c.pair);
    const auto [q, t] = rp.load();
    for (const GapPenalties g : c.gaps) {
        SCOPED_TRACE(rp.what + ", " + std::string(algorithm_name(c.algo)) + ", gaps " + gaps_text(g));
        const int32_t ours = dpviz_score(make(c.algo, q, t, &matrix_for(rp.protein), g));
        EXPECT_EQ(ours, emboss_score(c.algo, q, t, rp.protein, g));
    }
}

// needle and water are O(MN) in time and memory (about 10 M cells/s here): the long DNA pairs
// get one gap setting and the algorithms that make biological sense for them.
const std::vector<GapPenalties> kProteinGaps = {{10, 1}, {11, 1}, {5, 2}};
const std::vector<GapPenalties> kOne = {{10, 1}};

std::vector<EmbossCase> emboss_cases() {
    std::vector<EmbossCase> v;
    for (const Algorithm a : {Algorithm::global, Algorithm::semiglobal, Algorithm::local}) {
        v.push_back({"globins", a, {{10, 1}, {11, 1}, {5, 2}, {8, 8}}});
        for (const char* p : {"actins", "flavodoxins", "opsins", "pax", "lac_unrelated"}) v.push_back({p, a, kProteinGaps});
        v.push_back({"kilo_unrelated", a, kOne});
        v.push_back({"rhodopsin_mrna", a, {{10, 1}, {5, 2}, {8, 8}}});
    }
    v.push_back({"huntingtin_ubr5", Algorithm::local, kOne});
    v.push_back({"rhodopsin_octopus", Algorithm::semiglobal, kOne});
    v.push_back({"rhodopsin_octopus", Algorithm::local, {{16, 4}}});
    v.push_back({"gamma_globins", Algorithm::global, kOne});
    v.push_back({"gamma_globins", Algorithm::local, {{16, 4}}});
    v.push_back({"lacz_operon", Algorithm::semiglobal, kOne});
    v.push_back({"rhodopsin_gene", Algorithm::semiglobal, kOne});
    v.push_back({"rhodopsin_gene", Algorithm::local, kOne});
    v.push_back({"epsilon_globin", Algorithm::local, kOne});
    v.push_back({"delta_beta", Algorithm::global, kOne});
    return v;
}

INSTANTIATE_TEST_SUITE_P(Real, EmbossAgreement, testing::ValuesIn(emboss_cases()), case_name);

// ---------------------------------------------------------------------------------------------
// Documented behaviour at the edges (docs/peers.md)
// ---------------------------------------------------------------------------------------------

// A pair with no positive substitution: every residue pair scores -3 in BLOSUM62.
const char* kNoMatchQuery = "EEEE";
const char* kNoMatchTarget = "LLLL";

TEST(EmbossEdges, SemiglobalWithNoGoodOverlapScoresZeroLikeNeedle) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    const Seq q = literal("no_match_q", kNoMatchQuery), t = literal("no_match_t", kNoMatchTarget);
    const int32_t ours = dpviz_score(make(Algorithm::semiglobal, q, t, &matrix("BLOSUM62"), {10, 1}));
    EXPECT_EQ(ours, 0);
    EXPECT_EQ(ours, emboss_score(Algorithm::semiglobal, q, t, true, {10, 1}));
    // Global has no empty overlap to fall back on: both report the same negative score.
    const int32_t global = dpviz_score(make(Algorithm::global, q, t, &matrix("BLOSUM62"), {10, 1}));
    EXPECT_EQ(global, -12);
    EXPECT_EQ(global, emboss_score(Algorithm::global, q, t, true, {10, 1}));
}

// water re-scores the one-column alignment it reports even when no cell is positive (EMBOSS
// 6.6.0 prints -3 here); dpviz reports the empty local alignment, 0.
TEST(EmbossEdges, LocalWithNoPositiveCellIsZeroWhereWaterReportsOneColumn) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    const Seq q = literal("no_match_q", kNoMatchQuery), t = literal("no_match_t", kNoMatchTarget);
    EXPECT_EQ(dpviz_score(make(Algorithm::local, q, t, &matrix("BLOSUM62"), {10, 1})), 0);
    EXPECT_LE(emboss_score(Algorithm::local, q, t, true, {10, 1}), 0);
}

// ---------------------------------------------------------------------------------------------
// The dpviz binary, end to end
// ---------------------------------------------------------------------------------------------

int32_t json_score(const std::string& json) {
    const auto at = json.find("\"score\":");
    if (at == std::string::npos) throw std::runtime_error("no score in " + json);
    return std::stoi(json.substr(at + 8));
}

TEST(EmbossCli, JsonScoreEqualsNeedle) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    // Protein globally (the CLI picks BLOSUM62 for protein), DNA semi-globally (NUC.4.4).
    struct Run {
        const char* pair;
        Algorithm algo;
    };
    for (const Run run : {Run{"globins", Algorithm::global}, Run{"rhodopsin_mrna", Algorithm::semiglobal}}) {
        const RealPair& rp = real_pair(run.pair);
        SCOPED_TRACE(rp.what);
        const auto [q, t] = rp.load();
        const CommandOutput r = run_command({DPVIZ_BINARY, "align", "--algo", std::string(algorithm_name(run.algo)),
                                             "--gap-open", "10", "--gap-extend", "1", "--backend", "cpu", "--json",
                                             q.fasta, t.fasta});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find("\"algo\":\"" + std::string(algorithm_name(run.algo)) + "\""), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("\"query_length\":" + std::to_string(q.residues.size())), std::string::npos) << r.out;
        EXPECT_EQ(json_score(r.out), emboss_score(run.algo, q, t, rp.protein, {10, 1})) << r.out;
    }
}

}  // namespace
}  // namespace dpviz::peers
