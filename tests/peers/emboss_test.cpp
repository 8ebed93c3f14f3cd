// dpviz against EMBOSS on real pairs: global = needle with end gaps penalized like internal
// ones, semiglobal = needle's default (free end gaps), local = water; same matrix, same gaps.
// On EMBOSS's ambiguity and RNA test files also the identity and similarity counts.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpviz/alphabet.hpp"
#include "dpviz/engine.hpp"
#include "peer_env.hpp"
#include "real_pairs.hpp"
#include "similarity_rule_matrix.hpp"

namespace dpviz::peers {
namespace {

// needle (global: end gaps penalized like internal ones; semiglobal: needle's free end gaps) or
// water, scoring with `datafile`; its report in EMBOSS's pair format.
std::string emboss_report(Algorithm algo, const Seq& q, const Seq& t, const std::string& datafile, GapPenalties g) {
    const std::string open = std::to_string(g.open), extend = std::to_string(g.extend);
    std::vector<std::string> argv = {algo == Algorithm::local ? "water" : "needle",
                                     "-asequence", q.fasta, "-bsequence", t.fasta,
                                     "-datafile", datafile,
                                     "-gapopen", open, "-gapextend", extend,
                                     "-aformat3", "pair", "-outfile", "stdout", "-auto"};
    if (algo == Algorithm::global) argv.insert(argv.end(), {"-endweight", "-endopen", open, "-endextend", extend});
    if (algo == Algorithm::semiglobal) argv.push_back("-noendweight");
    const CommandOutput r = run_command(argv);
    if (r.status != 0) throw std::runtime_error(argv[0] + " failed (" + std::to_string(r.status) + "): " + r.err);
    return r.out;
}

// The EMBOSS score of the best alignment: needle/water print it as "# Score: 123.0" (floats,
// exact here because matrix and penalties are integers).
int32_t emboss_score(Algorithm algo, const Seq& q, const Seq& t, bool protein, GapPenalties g) {
    const std::string out = emboss_report(algo, q, t, protein ? "EBLOSUM62" : "EDNAFULL", g);
    const auto at = out.find("# Score:");
    if (at == std::string::npos) throw std::runtime_error("no '# Score:' line in:\n" + out);
    const double score = std::strtod(out.c_str() + at + 8, nullptr);
    if (score != std::round(score)) throw std::runtime_error("the EMBOSS score is not an integer: " + std::to_string(score));
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

// A parameterized case's name: its pair's label and the algorithm.
template <class Case>
std::string case_name(const testing::TestParamInfo<Case>& info) {
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

INSTANTIATE_TEST_SUITE_P(Real, EmbossAgreement, testing::ValuesIn(emboss_cases()), case_name<EmbossCase>);

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


// With no gap options dpviz uses EMBOSS's defaults (open 10, extend 0.5): its scores, in the
// user's fractional units, equal needle's and water's run with no gap options at all.
TEST(EmbossCli, DefaultsScoreAsNeedleAndWaterAtTheirDefaults) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    struct Run {
        Algorithm algo;
        std::vector<std::string> emboss;  // needle/water with its defaults but for the end-gap model
    };
    const std::vector<Run> runs = {
        {Algorithm::local, {"water"}},
        {Algorithm::semiglobal, {"needle"}},              // needle's default: end gaps free
        {Algorithm::global, {"needle", "-endweight"}},  // end gaps at needle's default 10 / 0.5
    };
    int fractional = 0;
    for (const char* pair : {"globins", "actins", "opsins", "flavodoxins", "rhodopsin_mrna", "rhodopsin_octopus"}) {
        const RealPair& rp = real_pair(pair);
        const auto [q, t] = rp.load();
        for (const Run& run : runs) {
            SCOPED_TRACE(rp.what + ", " + std::string(algorithm_name(run.algo)));
            std::vector<std::string> argv = run.emboss;
            argv.insert(argv.end(), {"-asequence", q.fasta, "-bsequence", t.fasta, "-outfile", "stdout", "-auto"});
            const CommandOutput e = run_command(argv);
            ASSERT_EQ(e.status, 0) << e.err;
            const auto at = e.out.find("# Score:");
            ASSERT_NE(at, std::string::npos) << e.out;
            const double theirs = std::strtod(e.out.c_str() + at + 8, nullptr);
            const CommandOutput d = run_command({DPVIZ_BINARY, "align", "--algo", std::string(algorithm_name(run.algo)),
                                                 "--backend", "cpu", "--json", q.fasta, t.fasta});
            ASSERT_EQ(d.status, 0) << d.err;
            const auto s_at = d.out.find("\"score\":");
            ASSERT_NE(s_at, std::string::npos) << d.out;
            const double ours = std::strtod(d.out.c_str() + s_at + 8, nullptr);
            EXPECT_EQ(ours, theirs) << d.out;
            EXPECT_NE(d.out.find("\"gap_extend\":0.5"), std::string::npos) << d.out;
            fractional += theirs != std::round(theirs);
        }
    }
    EXPECT_GT(fractional, 0);  // some scores end in .5: the half units are really exercised
}

// ---------------------------------------------------------------------------------------------
// Alphabets: EMBOSS's ambiguity test sequences and RNA against DNA (docs/algorithms.md)
// ---------------------------------------------------------------------------------------------

// What a pair report says, needle's or dpviz's text output (the same "# Identity:  10/32" lines):
// score, length, identical and similar columns, and the two aligned rows (upper case).
struct PairReport {
    int32_t score = 0;
    int length = -1, identical = -1, similar = -1;
    std::string query_row, target_row;
};

PairReport parse_report(const std::string& text) {
    PairReport r;
    std::istringstream in(text);
    int rows = 0;
    auto count = [](const std::string& line) { return std::atoi(line.c_str() + line.find(':') + 1); };
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("# Score:", 0) == 0) r.score = static_cast<int32_t>(std::lround(std::strtod(line.c_str() + 8, nullptr)));
        else if (line.rfind("# Length:", 0) == 0) r.length = count(line);
        else if (line.rfind("# Identity:", 0) == 0) r.identical = count(line);
        else if (line.rfind("# Similarity:", 0) == 0) r.similar = count(line);
        if (line.empty() || line[0] == '#' || std::isspace(static_cast<unsigned char>(line[0]))) continue;
        // "NAME  START RESIDUES END": the query's line, then (after the markup) the target's.
        std::istringstream f(line);
        std::string name, start, residues, end;
        if (!(f >> name >> start >> residues >> end)) continue;
        for (char& c : residues) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        (rows++ % 2 == 0 ? r.query_row : r.target_row) += residues;
    }
    if (r.length < 0 || r.identical < 0 || r.similar < 0) throw std::runtime_error("not a pair report:\n" + text);
    return r;
}

// EMBOSS's files as they are, and pairs built from them: every IUPAC code and every protein
// letter, an RNA (rna1.seq) against a DNA copy of it with IUPAC codes and a deletion.
std::pair<Seq, Seq> alphabet_pair(const std::string& label) {
    if (label == "ambignuc") return {test_data("ambignuc.fasta"), test_data("ambignuc.fasta")};
    if (label == "ambignuc_bases")  // each code against one of its bases, the second half varied
        return {test_data("ambignuc.fasta"), literal("ambignuc_bases", "ACCAGTGCAGCTTGACacgtgcgctaccaaaggcc")};
    if (label == "ambigprot") return {test_data("ambigprot.fasta"), test_data("ambigprot.fasta")};
    if (label == "ambigprot_variant")  // J/L, O/K, U/C, X/A, Z/E, B/D; then the special letters swapped
        return {test_data("ambigprot.fasta"),
                literal("ambigprot_variant", "ADCDEFGHILKLMNKPQRSTCVWAYE*abcdefghiojklmnupqrstjvw*yzbx")};
    if (label == "rna_dna") return {test_data("rna1.seq"), literal("rna1_dna", "CACTACTCCAAGGRCCTATCTTTCTCAGTGCNACAGTAA")};
    if (label == "rna_dna_file") return {test_data("rna1.seq"), test_data("dna.fasta")};
    if (label == "cofold_rna") return {test_data("cofold-red.fasta"), test_data("cofold-blue.fasta")};
    throw std::runtime_error("no alphabet pair " + label);
}

std::string alphabet_data_missing() {
    for (const char* f : {"ambignuc.fasta", "ambigprot.fasta", "rna1.seq", "dna.fasta", "cofold-red.fasta"})
        if (!find_program("needle") || access((std::string(kEmbossTestData) + "/" + f).c_str(), R_OK) != 0)
            return std::string(kEmbossTestData) + "/" + f + " or needle is missing (apt install emboss emboss-test)";
    return emboss_missing();
}

struct AlphabetCase {
    std::string pair;
    Algorithm algo;
    bool protein;    // the matrix: EBLOSUM62 / BLOSUM62, else EDNAFULL / NUC.4.4
    bool same_path;  // EMBOSS and dpviz report the same alignment (no co-optimal alternative taken)
};

class EmbossAlphabets : public testing::TestWithParam<AlphabetCase> {};

TEST_P(EmbossAlphabets, ScoreIdentityAndSimilarityEqualEmboss) {
    if (const std::string why = alphabet_data_missing(); !why.empty()) GTEST_SKIP() << why;
    const AlphabetCase& c = GetParam();
    const auto [q, t] = alphabet_pair(c.pair);
    SCOPED_TRACE(q.name + " x " + t.name + ", " + std::string(algorithm_name(c.algo)));
    // dpviz's own rule picks the matrix EMBOSS uses for these files.
    const std::string_view both[] = {q.residues, t.residues};
    EXPECT_EQ(detect_alphabet(both) == Alphabet::protein, c.protein);

    const Problem p = make(c.algo, q, t, &matrix_for(c.protein), {10, 1});
    const int32_t score = dpviz_score(p);
    const DpResult r = align_reference(p);
    const PairReport e = parse_report(emboss_report(c.algo, q, t, c.protein ? "EBLOSUM62" : "EDNAFULL", {10, 1}));
    EXPECT_EQ(score, e.score);
    if (!c.same_path) return;  // co-optimal alignments may differ in their counts
    ASSERT_EQ(r.alignment.query_row, e.query_row);
    ASSERT_EQ(r.alignment.target_row, e.target_row);
    EXPECT_EQ(r.alignment.length, e.length);
    EXPECT_EQ(r.alignment.identical, e.identical);
    EXPECT_EQ(r.alignment.similar, e.similar);
}

std::vector<AlphabetCase> alphabet_cases() {
    std::vector<AlphabetCase> v;
    for (const Algorithm a : {Algorithm::global, Algorithm::local}) {
        v.push_back({"ambignuc", a, false, true});
        v.push_back({"ambignuc_bases", a, false, true});
        v.push_back({"ambigprot", a, true, true});
        v.push_back({"ambigprot_variant", a, true, true});
        v.push_back({"rna_dna", a, false, true});
        v.push_back({"cofold_rna", a, false, true});
    }
    v.push_back({"rna_dna_file", Algorithm::global, false, false});  // needle takes another co-optimal path
    v.push_back({"rna_dna_file", Algorithm::local, false, true});
    // Semi-global: scores only (needle's Length and rows include the free end gaps).
    for (const char* pair : {"ambignuc_bases", "ambigprot_variant", "rna_dna", "rna_dna_file"})
        v.push_back({pair, Algorithm::semiglobal, std::string(pair) == "ambigprot_variant", false});
    return v;
}

INSTANTIATE_TEST_SUITE_P(TestData, EmbossAlphabets, testing::ValuesIn(alphabet_cases()), case_name<AlphabetCase>);

// EMBOSS calls a pair similar when one residue scores > 0 against itself and against the other
// (measured with needle): P/Q scores +2 here but both diagonals are negative.
TEST(EmbossAlphabetsRule, SimilarityWithACustomMatrix) {
    if (const std::string why = emboss_missing(); !why.empty()) GTEST_SKIP() << why;
    const std::string file = scratch_file("PQTEST", dpviz::test::kSimilarityRuleMatrix);
    const Seq q = literal("pq_query", "WPWAWEWAW"), t = literal("pq_target", "WQWEWAWAW");
    const Problem p = make(Algorithm::global, q, t, &matrix(file), {10, 1});
    const Alignment a = align_reference(p).alignment;
    const PairReport e = parse_report(emboss_report(Algorithm::global, q, t, file, {10, 1}));
    EXPECT_EQ(dpviz_score(p), e.score);
    ASSERT_EQ(a.query_row, e.query_row);
    EXPECT_EQ(a.identical, e.identical);
    EXPECT_EQ(a.similar, e.similar);
    EXPECT_EQ(a.identical, 6);  // W x5, A/A (score 0)
    EXPECT_EQ(a.similar, 7);    // W x5, A/E, E/A; not P/Q, not A/A
}

// The binary on the files, with the matrix it picks itself: text header and rows, and the batch
// score, against needle / water.
TEST(EmbossCli, AlphabetDecidedFromBothInputsMatchesNeedle) {
    if (const std::string why = alphabet_data_missing(); !why.empty()) GTEST_SKIP() << why;
    for (const AlphabetCase& c : alphabet_cases()) {
        if (!c.same_path) continue;
        const auto [q, t] = alphabet_pair(c.pair);
        const std::string algo(algorithm_name(c.algo));
        SCOPED_TRACE(c.pair + ", " + algo);
        const CommandOutput r = run_command({DPVIZ_BINARY, "align", "--algo", algo, "--gap-open", "10", "--gap-extend",
                                             "1", "--backend", "cpu", q.fasta, t.fasta});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find(c.protein ? "# Matrix: BLOSUM62" : "# Matrix: NUC.4.4"), std::string::npos) << r.out;
        const PairReport ours = parse_report(r.out);
        const PairReport e = parse_report(emboss_report(c.algo, q, t, c.protein ? "EBLOSUM62" : "EDNAFULL", {10, 1}));
        EXPECT_EQ(ours.score, e.score);
        EXPECT_EQ(ours.query_row, e.query_row);
        EXPECT_EQ(ours.target_row, e.target_row);
        EXPECT_EQ(ours.length, e.length);
        EXPECT_EQ(ours.identical, e.identical);
        EXPECT_EQ(ours.similar, e.similar);

        const CommandOutput b = run_command({DPVIZ_BINARY, "batch", "--algo", algo, "--gap-open", "10", "--gap-extend",
                                             "1", "--backend", "cpu", q.fasta, t.fasta});
        ASSERT_EQ(b.status, 0) << b.err;
        // "#pair ..." header, then "1 QUERY TARGET M N SCORE I J BACKEND".
        std::istringstream rows(b.out);
        std::string header, pair, qn, tn, m, n, score;
        std::getline(rows, header);
        std::getline(rows, pair, '\t');
        std::getline(rows, qn, '\t');
        std::getline(rows, tn, '\t');
        std::getline(rows, m, '\t');
        std::getline(rows, n, '\t');
        std::getline(rows, score, '\t');
        EXPECT_EQ(score, std::to_string(e.score)) << b.out;
    }
}

// The bundled CpG example: the two-state model decodes the island that EMBOSS newcpgreport
// reports on the same real DNA (the INSR exon 1 region, EMBL M23100 of emboss-test's data).
TEST(EmbossCpg, ViterbiIslandMatchesNewcpgreport) {
    if (const std::string why = emboss_data_missing(); !why.empty()) GTEST_SKIP() << why;
    if (!find_program("newcpgreport")) GTEST_SKIP() << "newcpgreport not found (Debian package emboss)";
    const Seq dna = embl("hum1.dat", "M23100");
    const std::string bundled = std::string(DPVIZ_ASSETS) + "/examples/insr_exon1.fa";
    // The bundled file holds exactly that entry.
    const CommandOutput json = run_command({DPVIZ_BINARY, "align", "--algo", "viterbi", "--hmm",
                                            std::string(DPVIZ_ASSETS) + "/examples/cpg.hmm", "--backend", "cpu",
                                            "--json", bundled});
    ASSERT_EQ(json.status, 0) << json.err;
    const CommandOutput fresh = run_command({DPVIZ_BINARY, "align", "--algo", "viterbi", "--hmm",
                                             std::string(DPVIZ_ASSETS) + "/examples/cpg.hmm", "--backend", "cpu",
                                             "--json", dna.fasta});
    ASSERT_EQ(fresh.status, 0) << fresh.err;
    const auto path_of = [](const std::string& j) { return j.substr(j.find("\"state_path\"")); };
    ASSERT_EQ(path_of(json.out).substr(0, path_of(json.out).find(']')),
              path_of(fresh.out).substr(0, path_of(fresh.out).find(']')));

    // newcpgreport's islands: "FT   CpG island       1026..2004".
    const std::string report = scratch_file("m23100.cpg", "");
    const CommandOutput e = run_command({"newcpgreport", "-auto", "-sequence", dna.fasta, "-outfile", report});
    ASSERT_EQ(e.status, 0) << e.err;
    std::vector<std::pair<int, int>> islands;
    std::istringstream lines(run_command({"cat", report}).out);
    for (std::string line; std::getline(lines, line);)
        if (const size_t at = line.find("CpG island"); at != std::string::npos) {
            int a = 0, b = 0;
            ASSERT_EQ(std::sscanf(line.c_str() + at + 10, " %d..%d", &a, &b), 2) << line;
            islands.push_back({a, b});
        }
    ASSERT_EQ(islands.size(), 1u) << "newcpgreport found " << islands.size() << " islands";

    // The decoded island runs (state I), 1-based.
    std::vector<std::pair<int, int>> runs;
    const std::string states = path_of(json.out);
    int t = 0, begin = 0;
    for (size_t k = states.find('[') + 1; k < states.size() && states[k] != ']'; ++k) {
        if (states[k] != '"') continue;
        const bool island = states[k + 1] == 'I';
        ++t;
        if (island && !begin) begin = t;
        if (!island && begin) runs.push_back({begin, t - 1}), begin = 0;
        k += 2;
    }
    if (begin) runs.push_back({begin, t});
    ASSERT_EQ(t, int(dna.residues.size()));
    // The run that overlaps EMBOSS's island most covers it with a Jaccard index of at least 0.8.
    const auto [ea, eb] = islands.front();
    double best = 0.0;
    for (const auto& [a, b] : runs) {
        const int inter = std::min(b, eb) - std::max(a, ea) + 1;
        if (inter > 0) best = std::max(best, double(inter) / double(std::max(b, eb) - std::min(a, ea) + 1));
    }
    EXPECT_GE(best, 0.8) << "EMBOSS island " << ea << ".." << eb << ", " << runs.size() << " decoded runs";
}

}  // namespace
}  // namespace dpviz::peers
