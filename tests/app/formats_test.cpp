// --format for `dpviz align` and `dpviz batch`: every format's columns and coordinates on
// alignments worked out by hand, JSON without the fields a run did not compute, the E-value
// table's lookups, and the usage errors of formats that do not fit the request.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "app/cli_run.hpp"
#include "blast_statistics.hpp"
#include "cli.hpp"
#include "dpviz/engine.hpp"
#include "formats.hpp"
#include "matrix_file.hpp"

namespace dpviz::app {
namespace {

using namespace test;

// Wikipedia's Smith-Waterman example: GTT-AC over GTTGAC, query 2..6, target 2..7 (1-based),
// score 13, the query's first residue and last two outside the alignment.
const std::vector<std::string> kWiki = {"--seq", "--match", "3", "--mismatch", "-3", "--gap-open", "2",
                                        "--gap-extend", "2", "TGTTACGG", "GGTTGACTA"};

CliResult align(const std::vector<std::string>& options, const std::vector<std::string>& rest = kWiki) {
    std::vector<std::string> args = {"align"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), rest.begin(), rest.end());
    return run(args);
}

// A pair whose global alignment has three gap runs (1D3M2I3M2D1M), no mismatch, 7 of 12 columns identical.
const std::vector<std::string> kGapped = {"--seq", "--gap-open", "10", "--gap-extend", "1", "ACGTTTGCA", "GACGTGCAAA"};

// align(options, rest) must succeed and write exactly `expected`.
void expect_output(const std::vector<std::string>& options, const std::vector<std::string>& rest,
                   const std::string& expected) {
    const CliResult r = align(options, rest);
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(r.out, expected);
}

// ---------------------------------------------------------------------------------------------
// Text and JSON
// ---------------------------------------------------------------------------------------------

TEST(Formats, TextHeaderShowsTheCigar) {
    const CliResult r = align({});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("# CIGAR: 3=1D2=\n# Score: 13\n"), std::string::npos) << r.out;
    EXPECT_EQ(align({"--format", "text"}).out, r.out);
}

TEST(Formats, JsonCarriesTheGappedStrings) {
    const CliResult r = align({"--format", "json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(json_field(r.out, "query_aligned"), "\"GTT-AC\"");
    EXPECT_EQ(json_field(r.out, "target_aligned"), "\"GTTGAC\"");
    EXPECT_EQ(json_field(r.out, "cigar"), "\"3=1D2=\"");
    EXPECT_EQ(json_field(r.out, "query_begin"), "1");
    EXPECT_EQ(json_field(r.out, "target_end"), "7");
    // --json is the same request.
    const CliResult alias = align({"--json"});
    ASSERT_EQ(alias.code, kExitOk) << alias.err;
    EXPECT_EQ(json_field(alias.out, "query_aligned"), "\"GTT-AC\"");
}

// --score-only computes the score and the end cell: the alignment fields are absent, not zero.
TEST(Formats, ScoreOnlyJsonHoldsOnlyWhatWasComputed) {
    for (const std::string backend : {"cpu", "cpu-reference"}) {  // the reference traces back anyway
        SCOPED_TRACE(backend);
        const CliResult r = align({"--format", "json", "--score-only", "--backend", backend});
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_EQ(json_field(r.out, "score"), "13");
        EXPECT_EQ(json_field(r.out, "end_cell"), "[6,7]");
        for (const char* key : {"cells", "backend", "fill_ms", "gcups", "matrix", "gap_open"})
            EXPECT_NE(json_field(r.out, key), "<missing>") << key;
        for (const char* key : {"query_begin", "query_end", "target_begin", "target_end", "cigar", "length", "identity",
                                "similarity", "gaps", "query_aligned", "target_aligned", "traceback_ms"})
            EXPECT_EQ(json_field(r.out, key), "<missing>") << key << " in " << r.out;
    }
}

TEST(Formats, DtwJsonHasNoGappedStrings) {
    TempDir d;
    const std::string a = d.file("a.csv", "0\n1\n2\n"), b = d.file("b.csv", "0\n1\n1\n2\n");
    const CliResult r = run({"align", "--algo", "dtw", "--format", "json", a, b});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(json_field(r.out, "cigar"), "<missing>");
    EXPECT_NE(json_field(r.out, "dtw_reference"), "<missing>");
    EXPECT_EQ(json_field(r.out, "query_aligned"), "<missing>");
    EXPECT_EQ(json_field(r.out, "target_aligned"), "<missing>");
    // The CIGAR format prints a warping path's moves too.
    const CliResult c = run({"align", "--algo", "dtw", "--format", "cigar", a, b});
    ASSERT_EQ(c.code, kExitOk) << c.err;
    EXPECT_EQ(c.out, json_field(r.out, "cigar").substr(1, json_field(r.out, "cigar").size() - 2) + "\n");
}

// p's reference result, finished as the CLI finishes it, and the output that formats it (a test
// may change the result before formatting).
struct Formatted {
    explicit Formatted(const Problem& p) : result(align_reference(p)) {
        finish_result(p, result);
        out.problem = &p;
        out.result = &result;
    }
    Formatted(const Formatted&) = delete;
    Formatted& operator=(const Formatted&) = delete;
    DpResult result;
    PairOutput out;
};

// Past kDtwReferenceCells the double-precision distance is not computed (NaN): JSON leaves its
// fields out, the text says so.
TEST(Formats, DtwWithoutItsReferenceSaysSo) {
    auto p = make_dtw_problem({"q", {0, 1, 2}}, {"t", {0, 1, 1, 2}}, ScoringOptions{});
    ASSERT_TRUE(p);
    Formatted f(*p);
    DpResult& r = f.result;
    const PairOutput& out = f.out;
    ASSERT_FALSE(std::isnan(r.dtw_reference));
    EXPECT_NE(json_field(format_pair(OutputFormat::json, out), "dtw_reference"), "<missing>");
    r.dtw_reference = std::nan("");
    const std::string json = format_pair(OutputFormat::json, out);
    EXPECT_EQ(json_field(json, "dtw_reference"), "<missing>") << json;
    EXPECT_EQ(json_field(json, "dtw_quantization_error"), "<missing>") << json;
    EXPECT_NE(json_field(json, "dtw_distance"), "<missing>") << json;
    EXPECT_NE(format_pair(OutputFormat::text, out).find("double precision: not computed above 2^30 cells"),
              std::string::npos);
}

// A GPU result whose 16x2 fill was filled again in 32 bits says so in JSON; others carry no field.
TEST(Formats, JsonSaysWhenA16x2FillWasFilledAgainIn32Bits) {
    ScoringOptions s;
    s.gaps = {2, 2};
    auto p = make_problem(Algorithm::local, {"q", "ACGTTGCA"}, {"t", "ACGGTCA"}, s);
    ASSERT_TRUE(p);
    Formatted f(*p);
    DpResult& r = f.result;
    const PairOutput& out = f.out;
    EXPECT_EQ(json_field(format_pair(OutputFormat::json, out), "refilled32"), "<missing>");
    r.refilled32 = true;
    const std::string json = format_pair(OutputFormat::json, out);
    EXPECT_EQ(json_field(json, "refilled32"), "true") << json;
}

// ---------------------------------------------------------------------------------------------
// SAM
// ---------------------------------------------------------------------------------------------

TEST(Formats, SamHeaderAndRecordOfALocalAlignment) {
    const CliResult r = align({"--format", "sam"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 4u) << r.out;
    EXPECT_EQ(lines[0], "@HD\tVN:1.6\tSO:unsorted");
    EXPECT_EQ(lines[1], "@SQ\tSN:target\tLN:9");
    EXPECT_EQ(lines[2].rfind("@PG\tID:dpviz\tPN:dpviz\tVN:", 0), 0u) << lines[2];
    EXPECT_NE(lines[2].find("\tCL:dpviz align --format sam --seq --match 3 --mismatch -3"), std::string::npos)
        << lines[2];
    // Query position 1 and 7-8 are outside the local alignment: soft clips, with SEQ whole.
    EXPECT_EQ(lines[3], "query\t0\ttarget\t2\t255\t1S3=1D2=2S\t*\t0\t0\tTGTTACGG\t*\tAS:i:13\tNM:i:1");
}

TEST(Formats, SamOfGlobalSemiglobalEditAndUnalignedPairs) {
    // Global: no clips; a leading target residue against a gap is a leading D at POS 1.
    const std::vector<std::string> pair = {"--seq",     "--gap-open", "10", "--gap-extend",
                                           "1",         "ACGTTTGCA",  "GACGTGCAAA"};
    const CliResult g = align({"--format", "sam", "--algo", "global"}, pair);
    ASSERT_EQ(g.code, kExitOk) << g.err;
    EXPECT_EQ(lines_of(g.out).back(), "query\t0\ttarget\t1\t255\t1D3=2I3=2D1=\t*\t0\t0\tACGTTTGCA\t*\tAS:i:3\tNM:i:5");
    // Semiglobal: the target's first four residues are a free end gap (POS 5), the query's last
    // five one too (a soft clip).
    const CliResult s = align({"--format", "sam", "--algo", "semiglobal", "--gap-open", "10", "--gap-extend", "1"},
                              {"--seq", "ACGTACGTAAAAA", "TTTTACGTACGT"});
    ASSERT_EQ(s.code, kExitOk) << s.err;
    EXPECT_EQ(fields(lines_of(s.out).back())[3], "5");
    EXPECT_EQ(fields(lines_of(s.out).back())[5], "8=5S");
    // Edit distance: AS is the distance, NM the same count.
    const CliResult e = align({"--format", "sam", "--algo", "edit"}, {"--seq", "KITTEN", "SITTING"});
    ASSERT_EQ(e.code, kExitOk) << e.err;
    const auto ef = fields(lines_of(e.out).back());
    ASSERT_EQ(ef.size(), 13u);
    EXPECT_EQ(ef[11], "AS:i:3");
    EXPECT_EQ(ef[12], "NM:i:3");
    // Nothing aligned (a local alignment scoring 0): an unmapped read.
    const CliResult u = align({"--format", "sam"}, {"--seq", "AAAA", "CCCC"});
    ASSERT_EQ(u.code, kExitOk) << u.err;
    EXPECT_EQ(lines_of(u.out).back(), "query\t4\t*\t0\t0\t*\t*\t0\t0\tAAAA\t*\tAS:i:0");
}

// SAM 1.6's NM counts only A, C, G and T as potential matches: N against N is a difference
// there, and SAM's (and PAF's) CIGAR writes it X, where dpviz's own CIGAR has '=' (same letter).
TEST(Formats, SamAndPafCountAmbiguityCodesAsMismatches) {
    const std::vector<std::string> pair = {"--seq", "ACNTU", "ACNTT"};
    const CliResult j = align({"--format", "json", "--algo", "global"}, pair);
    ASSERT_EQ(j.code, kExitOk) << j.err;
    EXPECT_EQ(json_field(j.out, "cigar"), "\"4=1X\"");  // N against N: the same letter; U, T: not
    const CliResult s = align({"--format", "sam", "--algo", "global"}, pair);
    ASSERT_EQ(s.code, kExitOk) << s.err;
    const auto f = fields(lines_of(s.out).back());
    EXPECT_EQ(f[5], "2=1X2=");  // U is T's base
    EXPECT_EQ(f[12], "NM:i:1");
    const CliResult paf = align({"--format", "paf", "--algo", "global"}, pair);
    ASSERT_EQ(paf.code, kExitOk) << paf.err;
    EXPECT_EQ(fields(paf.out)[9], "4");
    EXPECT_EQ(fields(paf.out)[12], "NM:i:1");
    // Proteins: the same letter is a match, X against X too.
    const CliResult p = align({"--format", "sam", "--algo", "global"}, {"--seq", "MEXLW", "MEXLW"});
    ASSERT_EQ(p.code, kExitOk) << p.err;
    EXPECT_EQ(fields(lines_of(p.out).back())[5], "5=");
}

TEST(Formats, SamNamesFollowTheSpecAndTargetsAreListedOnce) {
    TempDir d;
    const std::string q = d.file("q.fa", ">r@1\nACGTACGT\n>r2\nACGAACGT\n");
    const std::string t = d.file("t.fa", ">*chr(1)\nTTACGTACGTTT\n>chr2\nACGAACGTA\n");
    const CliResult r = run({"batch", "--path", "--all-vs-all", "--format", "sam", "--backend", "cpu", q, t});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 8u) << r.out;  // @HD, two @SQ, @PG, four records
    EXPECT_EQ(lines[1], "@SQ\tSN:_chr_1_\tLN:12");  // '*' may not start a name, () are not allowed
    EXPECT_EQ(lines[2], "@SQ\tSN:chr2\tLN:9");
    EXPECT_EQ(lines[3].rfind("@PG\tID:dpviz", 0), 0u);
    EXPECT_EQ(fields(lines[4])[0], "r_1");  // '@' may not be in a QNAME
    EXPECT_EQ(fields(lines[4])[2], "_chr_1_");
    EXPECT_EQ(fields(lines[5])[2], "chr2");
    EXPECT_EQ(fields(lines[6])[0], "r2");

    // Two different targets under one name cannot both be RNAME.
    const std::string same = d.file("same.fa", ">x\nACGT\n>x\nTTGCA\n");
    const CliResult dup = run({"batch", "--path", "--format", "sam", "--seq", "ACGT", "ACGT,TTGCA"});
    EXPECT_EQ(dup.code, kExitOk) << dup.err;  // --seq names them target1, target2
    const CliResult clash = run({"batch", "--path", "--format", "sam", q, same});
    EXPECT_EQ(clash.code, kExitInput);
    EXPECT_NE(clash.err.find("'x'"), std::string::npos) << clash.err;
    EXPECT_TRUE(clash.out.empty());
}

// ---------------------------------------------------------------------------------------------
// PAF, BLAST tabular, CIGAR
// ---------------------------------------------------------------------------------------------

TEST(Formats, PafHasTwelveColumnsInHalfOpenCoordinatesAndMinimap2Tags) {
    expect_output({"--format", "paf"}, kWiki,
                  "query\t8\t1\t6\t+\ttarget\t9\t1\t7\t5\t6\t255\tNM:i:1\tAS:i:13\ttp:A:P\tcg:Z:3M1D2M\n");
    // Mismatches fold into M; nmatch counts '=' only; alnlen counts gap columns.
    expect_output({"--format", "paf", "--algo", "global"}, kGapped,
                  "query\t9\t0\t9\t+\ttarget\t10\t0\t10\t7\t12\t255\tNM:i:5\tAS:i:3\ttp:A:P\tcg:Z:1D3M2I3M2D1M\n");
    const CliResult x = align({"--format", "paf", "--algo", "global"}, {"--seq", "ACGT", "AGGT"});
    ASSERT_EQ(x.code, kExitOk) << x.err;
    EXPECT_EQ(fields(x.out)[9], "3");
    EXPECT_EQ(fields(x.out)[15], "cg:Z:4M\n");
    // No alignment, no line (minimap2 reports no hit).
    EXPECT_EQ(align({"--format", "paf"}, {"--seq", "AAAA", "CCCC"}).out, "");
}

TEST(Formats, Blast6ColumnsAreOneBasedInclusive) {
    // Match/mismatch 3/-3 is not in BLAST's tables: no E-value, no bit score.
    expect_output({"--format", "blast6"}, kWiki, "query\ttarget\t83.333\t6\t0\t1\t2\t6\t2\t7\tNA\tNA\n");
    // 7 of 12 columns identical, no mismatch, three gap runs (1D, 2I, 2D).
    expect_output({"--format", "blast6", "--algo", "global"}, kGapped,
                  "query\ttarget\t58.333\t12\t0\t3\t1\t9\t1\t10\tNA\tNA\n");
    EXPECT_EQ(align({"--format", "blast6"}, {"--seq", "AAAA", "CCCC"}).out, "");
}

TEST(Formats, Blast6EvalueAndBitScoreFromTheKarlinAltschulTable) {
    // BLOSUM62 with BLAST's 11/1 (a gap of length k costs 11 + k): dpviz --gap-open 12 --gap-extend 1.
    const std::string q = "MKVLAAGIVGLLLAHHHKKK", t = "MKVIAAGLVGLAHHHRKK";
    const CliResult json = align({"--format", "json", "--gap-open", "12", "--gap-extend", "1"}, {"--seq", q, t});
    ASSERT_EQ(json.code, kExitOk) << json.err;
    const int score = std::stoi(json_field(json.out, "score"));
    ASSERT_EQ(score, 73);
    const CliResult r = align({"--format", "blast6", "--gap-open", "12", "--gap-extend", "1"}, {"--seq", q, t});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto f = fields(lines_of(r.out).at(0));
    ASSERT_EQ(f.size(), 12u) << r.out;
    const double lambda = 0.267, k = 0.041;  // blast_stat.c, blosum62_values, {11, 1, ...}
    EXPECT_NEAR(std::stod(f[10]), k * 20 * 18 * std::exp(-lambda * score), 1e-10);
    EXPECT_NEAR(std::stod(f[11]), (lambda * score - std::log(k)) / std::log(2.0), 0.051);
    EXPECT_EQ(f[11], "32.7");
    EXPECT_EQ(f[10], "5.06e-08");

    // 10/1 is BLAST's 9/1: also tabulated (lambda 0.206, K 0.010).
    const CliResult d = align({"--format", "blast6", "--gap-open", "10", "--gap-extend", "1"}, {"--seq", q, t});
    ASSERT_EQ(d.code, kExitOk) << d.err;
    EXPECT_NE(fields(lines_of(d.out).at(0))[10], "NA");
    // Gaps BLAST has no row for, and a global alignment: NA.
    const CliResult no_row = align({"--format", "blast6", "--gap-open", "20", "--gap-extend", "5"}, {"--seq", q, t});
    EXPECT_EQ(fields(lines_of(no_row.out).at(0))[10], "NA");
    const CliResult global =
        align({"--format", "blast6", "--algo", "global", "--gap-open", "12", "--gap-extend", "1"}, {"--seq", q, t});
    EXPECT_EQ(fields(lines_of(global.out).at(0))[11], "NA");
}

Problem problem(Algorithm algo, const std::string& q, const std::string& t, ScoringOptions so) {
    auto p = make_problem(algo, {"q", q}, {"t", t}, so);
    EXPECT_TRUE(p) << p.error().message;
    return p ? *p : Problem{};
}

std::string scoring_of(Algorithm algo, const std::string& q, const std::string& t, const ScoringOptions& so) {
    const auto ka = karlin_altschul(problem(algo, q, t, so));
    return ka ? std::string(ka->scoring) : "NA";
}

// Expects `ka` to be BLAST's row `scoring`, with its lambda and K.
void expect_row(const KarlinAltschul& ka, std::string_view scoring, double lambda, double k) {
    EXPECT_EQ(ka.scoring, scoring);
    EXPECT_DOUBLE_EQ(ka.lambda, lambda);
    EXPECT_DOUBLE_EQ(ka.k, k);
}

// BLAST's gap costs are existence + k * extension for a gap of length k; dpviz's open +
// (k-1) * extend. So dpviz open O, extend E is BLAST's (O - E)/E.
TEST(BlastStatistics, ProteinMatricesAtBlastsGapCosts) {
    ScoringOptions so;
    so.matrix = *load_matrix("BLOSUM62");
    so.gaps = {12, 1};
    const auto ka = karlin_altschul(problem(Algorithm::local, "MKV", "MKA", so));
    ASSERT_TRUE(ka);
    expect_row(*ka, "BLOSUM62 11/1", 0.267, 0.041);
    EXPECT_FALSE(ka->even_scores_only);
    so.gaps = {10, 1};
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "BLOSUM62 9/1");
    so.gaps = {11, 11};  // linear gaps: existence 0, in no protein table
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "NA");
    so.gaps = {15, 2};  // 13/2: BLOSUM62's 2-extension rows stop at 11/2
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "NA");

    so.matrix = *load_matrix("BLOSUM45");
    so.gaps = {16, 2};
    const auto b45 = karlin_altschul(problem(Algorithm::local, "MKV", "MKA", so));
    ASSERT_TRUE(b45);
    expect_row(*b45, "BLOSUM45 14/2", 0.195, 0.032);
    so.matrix = *load_matrix("EBLOSUM50");
    so.gaps = {16, 3};
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "BLOSUM50 13/3");
    so.matrix = *load_matrix("BLOSUM80");
    so.gaps = {11, 1};
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "BLOSUM80 10/1");
    so.matrix = *load_matrix("PAM250");
    so.gaps = {17, 3};
    EXPECT_EQ(scoring_of(Algorithm::local, "MKV", "MKA", so), "PAM250 14/3");

    // The theory is about local alignment scores.
    so.matrix = *load_matrix("BLOSUM62");
    so.gaps = {12, 1};
    for (const Algorithm a : {Algorithm::global, Algorithm::semiglobal, Algorithm::edit, Algorithm::lcs})
        EXPECT_EQ(scoring_of(a, "MKV", "MKA", so), "NA") << algorithm_name(a);
}

// A matrix is recognised by its scores over the 20 amino acids: BLOSUM62 from a file of another
// name gets BLOSUM62's parameters, a file named BLOSUM62 with one score changed gets none.
TEST(BlastStatistics, AMatrixIsRecognisedByItsScores) {
    const std::string text(*builtin_matrix_text("BLOSUM62"));
    ScoringOptions so;
    so.gaps = {12, 1};
    so.matrix = *parse_matrix(text, "/tmp/my_matrix.txt");
    EXPECT_EQ(scoring_of(Algorithm::local, "MKVW", "MKAW", so), "BLOSUM62 11/1");
    auto changed = *parse_matrix(text, "/tmp/BLOSUM62");
    changed.scores[size_t(changed.index_of('W')) * changed.alphabet.size() + size_t(changed.index_of('W'))] = 12;
    so.matrix = changed;
    EXPECT_EQ(scoring_of(Algorithm::local, "MKVW", "MKAW", so), "NA");
}

TEST(BlastStatistics, NucleotideMatchMismatchTables) {
    ScoringOptions so;
    so.match = 1;
    so.mismatch = -2;
    so.gaps = {2, 2};  // linear: BLAST 0/2
    const auto ka = karlin_altschul(problem(Algorithm::local, "ACGT", "ACCT", so));
    ASSERT_TRUE(ka);
    expect_row(*ka, "nucleotide +1/-2 0/2", 1.19, 0.34);
    so.gaps = {3, 1};
    EXPECT_EQ(scoring_of(Algorithm::local, "ACGT", "ACCT", so), "nucleotide +1/-2 2/1");
    // Protein letters, or a single base (no mismatch score in the matrix): nothing to look up.
    EXPECT_EQ(scoring_of(Algorithm::local, "MKVL", "MKAL", so), "NA");
    EXPECT_EQ(scoring_of(Algorithm::local, "AAAA", "AA", so), "NA");
    // NUC.4.4 is +5/-4 on A, C, G, T: BLAST has it at 10/6 and 8/6 only.
    so.matrix = *load_matrix("NUC.4.4");
    so.gaps = {16, 6};
    EXPECT_EQ(scoring_of(Algorithm::local, "ACGTN", "ACCTU", so), "nucleotide +5/-4 10/6");
    so.gaps = {10, 1};
    EXPECT_EQ(scoring_of(Algorithm::local, "ACGT", "ACCT", so), "NA");
}

TEST(BlastStatistics, EvalueAndBitsAndBlastsEvenScoreRule) {
    const KarlinAltschul ka{"test", 0.267, 0.041, false};
    const BlastStatistics st = blast_statistics(ka, 100, 200, 300);
    EXPECT_DOUBLE_EQ(st.evalue, 0.041 * 200.0 * 300.0 * std::exp(-0.267 * 100));
    EXPECT_DOUBLE_EQ(st.bit_score, (0.267 * 100 - std::log(0.041)) / std::log(2.0));
    // The +2 reward tables hold for even scores: 11 is taken as 10, -3 as -4.
    ScoringOptions so;
    so.match = 2;
    so.mismatch = -3;
    so.gaps = {6, 2};
    const auto even = karlin_altschul(problem(Algorithm::local, "ACGT", "ACCT", so));
    ASSERT_TRUE(even);
    EXPECT_EQ(even->scoring, "nucleotide +2/-3 4/2");
    EXPECT_TRUE(even->even_scores_only);
    EXPECT_DOUBLE_EQ(blast_statistics(*even, 11, 50, 60).evalue, blast_statistics(*even, 10, 50, 60).evalue);
    EXPECT_DOUBLE_EQ(blast_statistics(*even, -3, 50, 60).bit_score, blast_statistics(*even, -4, 50, 60).bit_score);
    EXPECT_NE(blast_statistics(*even, 12, 50, 60).evalue, blast_statistics(*even, 10, 50, 60).evalue);
}

TEST(Formats, CigarLineAlone) {
    EXPECT_EQ(align({"--format", "cigar"}).out, "3=1D2=\n");
    EXPECT_EQ(align({"--format", "cigar"}, {"--seq", "AAAA", "CCCC"}).out, "*\n");  // nothing aligned
    EXPECT_EQ(align({"--format", "cigar", "--algo", "lcs"}, {"--seq", "ACGT", "AGT"}).out, "1=1I2=\n");
}

// ---------------------------------------------------------------------------------------------
// Requests a format does not fit
// ---------------------------------------------------------------------------------------------

TEST(Formats, FormatsThatDoNotFitAreUsageErrors) {
    TempDir d;
    const std::string a = d.file("a.csv", "0\n1\n2\n"), b = d.file("b.csv", "0\n1\n1\n2\n");
    struct Case {
        std::vector<std::string> args;
        const char* says;
    };
    const Case cases[] = {
        {{"align", "--format", "bam", "--seq", "AC", "AC"}, "--format 'bam'"},
        {{"align", "--format", "tsv", "--seq", "AC", "AC"}, "--format 'tsv'"},  // batch's only
        {{"align", "--format", "sam", "--json", "--seq", "AC", "AC"}, "--json"},
        {{"align", "--format", "sam", "--score-only", "--seq", "AC", "AC"}, "--score-only"},
        {{"align", "--format", "cigar", "--score-only", "--seq", "AC", "AC"}, "--score-only"},
        {{"align", "--format", "paf", "--algo", "dtw", a, b}, "--algo dtw"},
        {{"align", "--format", "blast6", "--algo", "dtw", a, b}, "--algo dtw"},
        {{"align", "--format", "sam", "--png", "-", "--seq", "AC", "AC"}, "standard output"},
        {{"batch", "--format", "sam", "--seq", "AC", "AC"}, "--path"},
        {{"batch", "--format", "text", "--seq", "AC", "AC"}, "--path"},
        {{"batch", "--format", "sam", "--path", "--algo", "dtw", a, b}, "--algo dtw"},
        {{"batch", "--format", "xml", "--seq", "AC", "AC"}, "--format 'xml'"},
    };
    for (const Case& c : cases) {
        const CliResult r = run(c.args);
        EXPECT_EQ(r.code, kExitUsage) << c.args[1] << " " << c.args[2] << " " << c.args[3];
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // JSON and text still take --score-only; text with --png - stays the PNG alone.
    EXPECT_EQ(run({"align", "--format", "json", "--score-only", "--seq", "AC", "AC"}).code, kExitOk);
    const CliResult text = run({"align", "--format", "text", "--score-only", "--seq", "AC", "AC"});
    EXPECT_EQ(text.out.rfind("score 10 end 2 2", 0), 0u) << text.out;
}

// ---------------------------------------------------------------------------------------------
// dpviz batch
// ---------------------------------------------------------------------------------------------

// batch --path aligns each pair as dpviz align does: the same record in every format.
TEST(BatchFormats, EveryPairsRecordIsAlignsRecord) {
    TempDir d;
    const std::string q = d.file("q.fa", ">q\nACGTAGGTACGA\n");
    const std::string t = d.file("t.fa", ">t1\nACGTTGCAACGTAGGT\n>t2\nTTTTACGTAC\n>t3\nGATTACAGATTACA\n");
    for (const std::string algo : {"local", "global", "semiglobal", "edit", "lcs"})
        for (const std::string format : {"paf", "blast6", "cigar", "json"}) {
            SCOPED_TRACE(algo + " " + format);
            const CliResult b = run({"batch", "--path", "--algo", algo, "--format", format, "--backend", "cpu", q, t});
            ASSERT_EQ(b.code, kExitOk) << b.err;
            const auto lines = lines_of(b.out);
            ASSERT_EQ(lines.size(), 3u) << b.out;
            for (int k = 1; k <= 3; ++k) {
                const CliResult a = run({"align", "--algo", algo, "--format", format, "--backend", "cpu", q, t,
                                         "--target-record", std::to_string(k)});
                ASSERT_EQ(a.code, kExitOk) << a.err;
                std::string line = lines[size_t(k - 1)];
                if (format == "json") {  // the pair number and the timings differ
                    EXPECT_EQ(json_field(line, "pair"), std::to_string(k));
                    for (const char* key : {"score", "cigar", "query_aligned", "target_aligned", "query_begin",
                                            "target_end", "end_cell"})
                        EXPECT_EQ(json_field(line, key), json_field(a.out, key)) << key;
                } else {
                    EXPECT_EQ(line + "\n", a.out);
                }
            }
        }
}

TEST(BatchFormats, TsvWithPathAddsTheAlignmentColumns) {
    const CliResult r = run({"batch", "--path", "--backend", "cpu", "--match", "3", "--mismatch", "-3", "--gap-open",
                             "2", "--gap-extend", "2", "--seq", "TGTTACGG", "GGTTGACTA,NNNN"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    EXPECT_EQ(lines[0],
              "#pair\tquery\ttarget\tquery_length\ttarget_length\tscore\tend_i\tend_j\tbackend\tquery_begin\t"
              "query_end\ttarget_begin\ttarget_end\tcigar");
    EXPECT_EQ(lines[1], "1\tquery1\ttarget1\t8\t9\t13\t6\t7\tcpu\t1\t6\t1\t7\t3=1D2=");
    EXPECT_EQ(fields(lines[2]).back(), "*");  // TGTTACGG against NNNN: nothing aligned
    // Without --path the columns stay the score's.
    const CliResult s = run({"batch", "--backend", "cpu", "--seq", "TGTTACGG", "GGTTGACTA"});
    ASSERT_EQ(s.code, kExitOk) << s.err;
    EXPECT_EQ(fields(lines_of(s.out)[0]).size(), 9u);
}

// Batch scores in JSON: the fields a score-level run computes, nothing of an alignment, and no
// per-pair timings (the batch has one fill time).
TEST(BatchFormats, ScoreJsonLeavesOutWhatWasNotComputed) {
    const CliResult r = run({"batch", "--format", "json", "--backend", "cpu", "--seq", "KITTEN", "SITTING"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(json_field(r.out, "pair"), "1");
    EXPECT_NE(json_field(r.out, "score"), "<missing>") << r.out;
    EXPECT_EQ(json_field(r.out, "end_cell").front(), '[') << r.out;
    for (const char* key : {"cigar", "query_begin", "query_aligned", "identity", "fill_ms", "traceback_ms", "gcups"})
        EXPECT_EQ(json_field(r.out, key), "<missing>") << key;
    EXPECT_EQ(run({"batch", "--json", "--backend", "cpu", "--seq", "KITTEN", "SITTING"}).out, r.out);
}

}  // namespace
}  // namespace dpviz::app
