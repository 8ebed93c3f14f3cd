// The alphabet on the command line: decided from both inputs together (RNA against DNA, IUPAC
// codes, EMBOSS's protein letters), forced with --alphabet (default matrix, residue checks with
// file, record, position and letter, exit 3), the same rule for dpviz batch, and the help texts.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "app/cli_run.hpp"
#include "cli.hpp"
#include "cli_common.hpp"

namespace dpviz::app {
namespace {

using namespace test;

// "# Identity:   3/4 (75.0%)" of the text output: "3/4".
std::string header_count(const std::string& text, const std::string& label) {
    const std::regex re("# " + label + ": +([0-9]+/[0-9]+)");
    std::smatch m;
    return std::regex_search(text, m, re) ? m[1].str() : "<missing>";
}

CliResult align_json(std::vector<std::string> args) {
    args.insert(args.begin(), {"align", "--json", "--backend", "cpu-reference"});
    return run(args);
}

// align_json(args) must succeed, with each of `fields` as given (a string with its quotes).
void expect_json(std::vector<std::string> args, std::initializer_list<std::pair<const char*, std::string>> fields) {
    const CliResult r = align_json(std::move(args));
    ASSERT_EQ(r.code, kExitOk) << r.err;
    for (const auto& [key, value] : fields) EXPECT_EQ(json_field(r.out, key), value) << key;
}

TEST(AlphabetCli, RnaAgainstDnaAlignsAsNucleotides) {
    // Was: "residue 'U' is not in matrix BLOSUM62". A, C, G 5 each and U/T 5 (NUC.4.4 scores U as T).
    expect_json({"--seq", "ACGU", "ACGT"}, {{"matrix", "\"NUC.4.4\""}, {"score", "20"}});

    TempDir d;
    const std::string rna = d.file("rna.fa", ">mir\nugagguaguagguuguauaguu\n");
    const std::string dna = d.file("dna.fa", ">let7\nTGAGGTAGTAGGTTGTATAGTT\n");
    // U/T: different letters.
    expect_json({"--algo", "global", rna, dna},
                {{"matrix", "\"NUC.4.4\""}, {"score", std::to_string(22 * 5)}, {"cigar", "\"1X4=1X2=1X3=2X1=1X1=1X2=2X\""}});
    const CliResult text = run({"align", "--algo", "global", rna, dna});
    ASSERT_EQ(text.code, kExitOk) << text.err;
    EXPECT_EQ(header_count(text.out, "Identity"), "13/22");  // the 9 U/T columns are similar, not identical
    EXPECT_EQ(header_count(text.out, "Similarity"), "22/22");
}

TEST(AlphabetCli, IupacOnlyInputIsNucleotide) {
    // The NUC.4.4 diagonal of R Y K M S W B D H V N is -1 throughout: all identical, none similar.
    expect_json({"--seq", "--algo", "global", "RYKMSWBDHVN", "ryKMswbdhvn"},
                {{"matrix", "\"NUC.4.4\""}, {"score", "-11"}, {"identity", "1"}, {"similarity", "0"}});
}

TEST(AlphabetCli, ProteinWithEmbossLettersIsScoredNotRejected) {
    // J, O and U are not in BLOSUM62: EMBOSS scores them 0 against everything.
    // M 5, K 5, J/L 0, O/K 0, U/C 0, V 4, B/D 4, Z/E 4, X/A 0, * 1, W 11.
    expect_json({"--seq", "--algo", "global", "MKJOUVBZX*W", "MKLKCVDEA*W"}, {{"matrix", "\"BLOSUM62\""}, {"score", "34"}});
    const CliResult text = run({"align", "--seq", "--algo", "global", "MKJOUVBZX*W", "MKLKCVDEA*W"});
    EXPECT_EQ(header_count(text.out, "Identity"), "5/11");
    EXPECT_EQ(header_count(text.out, "Similarity"), "7/11");
}

TEST(AlphabetCli, ForcedAlphabetSetsTheDefaultMatrix) {
    // ACGT reads as protein (alanine, cysteine, glycine, threonine) when told so.
    expect_json({"--seq", "--alphabet", "protein", "ACGT", "ACGT"},
                {{"matrix", "\"BLOSUM62\""}, {"score", std::to_string(4 + 9 + 6 + 5)}});
    // A nucleotide-looking protein pair stays nucleotide by detection, protein when forced.
    EXPECT_EQ(json_field(align_json({"--seq", "GAVAGA", "GAVAGA"}).out, "matrix"), "\"NUC.4.4\"");
    for (const char* a : {"dna", "RNA"}) expect_json({"--seq", "--alphabet", a, "ACGU", "ACGT"}, {{"matrix", "\"NUC.4.4\""}});
    // --matrix still wins; the residues are still checked.
    expect_json({"--seq", "--alphabet", "dna", "--matrix", "BLOSUM62", "ACGT", "ACGT"}, {{"matrix", "\"BLOSUM62\""}});
}

TEST(AlphabetCli, ResidueInvalidForTheForcedAlphabetIsAnInputError) {
    TempDir d;
    const std::string q = d.file("q.fa", ">first\nACGT\n>second\nACGTNRYQAC\n");
    const std::string t = d.file("t.fa", ">t1\nACGTAC\n");
    const CliResult r = run({"align", "--alphabet", "dna", "--query-record", "second", q, t});
    expect_failure(r, kExitInput, {q + ": record 'second': position 8: residue 'Q'", "--alphabet dna"});
    EXPECT_TRUE(r.out.empty());

    // The target is checked as well, for every algorithm that reads residues.
    const std::string bad_t = d.file("bad_t.fa", ">tx\nacgu*\n");
    for (const char* algo : {"local", "global", "semiglobal", "edit", "lcs"}) {
        SCOPED_TRACE(algo);
        expect_failure(run({"align", "--algo", algo, "--alphabet", "rna", q, bad_t}), kExitInput,
                       {bad_t + ": record 'tx': position 5: residue '*'"});
    }
    // Literals name "query" / "target".
    expect_failure(run({"align", "--seq", "--alphabet", "dna", "ACGT", "ACEGT"}), kExitInput,
                   {"target: record 'target': position 3: residue 'E'"});
    // Without --alphabet the same pair is protein and aligns.
    EXPECT_EQ(run({"align", "--seq", "ACGT", "ACEGT"}).code, kExitOk);
}

TEST(AlphabetCli, BadAlphabetOptionsAreUsageErrors) {
    expect_failure(run({"align", "--seq", "--alphabet", "amino", "ACGT", "ACGT"}), kExitUsage,
                   {"unknown --alphabet 'amino' (dna, rna, protein)"});
    TempDir d;
    const std::string a = d.file("a.csv", "1\n2\n3\n");
    expect_failure(run({"align", "--algo", "dtw", "--alphabet", "dna", a, a}), kExitUsage,
                   {"--alphabet does not apply to --algo dtw"});
    EXPECT_EQ(run({"batch", "--seq", "--alphabet", "amino", "ACGT", "ACGT"}).code, kExitUsage);
}

TEST(AlphabetCli, BatchDecidesOverEveryRecordOfBothSides) {
    TempDir d;
    // RNA queries, DNA targets: nucleotide together.
    const std::string q = d.file("q.fa", ">r1\nACGUACGU\n>r2\nGGAUCC\n");
    const std::string t = d.file("t.fa", ">d1\nACGTACGT\n");
    const CliResult r = run({"batch", "--json", "--algo", "global", "--backend", "cpu-reference", q, t});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    // The pair r1 against d1 in the JSON, up to its score.
    const std::string r1_d1 = "\"query\":\"r1\",\"target\":\"d1\",\"query_length\":8,\"target_length\":8,\"score\":";
    EXPECT_NE(r.out.find(r1_d1 + "40"), std::string::npos) << r.out;
    // The same pair through dpviz align gives the same score.
    EXPECT_EQ(json_field(align_json({"--algo", "global", "--query-record", "r1", q, t}).out, "score"), "40");

    // One protein letter anywhere makes the whole batch protein (one matrix for all pairs).
    const std::string qp = d.file("qp.fa", ">r1\nACGUACGU\n>p1\nMKVLE\n");
    const CliResult p = run({"batch", "--json", "--algo", "global", "--backend", "cpu-reference", qp, t});
    ASSERT_EQ(p.code, kExitOk) << p.err;
    // BLOSUM62, U/T 0: A 4 + C 9 + G 6 + 0, twice.
    EXPECT_NE(p.out.find(r1_d1 + "38"), std::string::npos) << p.out;

    // --alphabet checks every record and names the one that fails.
    expect_failure(run({"batch", "--alphabet", "dna", qp, t}), kExitInput, {qp + ": record 'p1': position 4: residue 'L'"});
    expect_failure(run({"batch", "--seq", "--alphabet", "rna", "ACGU,ACGJ", "ACGU"}), kExitInput,
                   {"query: record 'query2': position 4: residue 'J'"});
}

TEST(AlphabetCli, AlphabetFromArgsLooksAtAllInputsTogether) {
    auto args = [](std::vector<std::string> v) {
        auto a = parse_args(v, 0, {"--alphabet"}, {});
        EXPECT_TRUE(a);
        return a ? *a : Args{};
    };
    const SequenceInput rna{"r", "ACGU"}, dna{"d", "ACGT"}, prot{"p", "MKVL"};
    const NamedSequence nuc[] = {{"r.fa", &rna}, {"d.fa", &dna}};
    EXPECT_EQ(*alphabet_from_args(args({}), nuc), Alphabet::dna);
    const NamedSequence rr[] = {{"r.fa", &rna}, {"r.fa", &rna}};
    EXPECT_EQ(*alphabet_from_args(args({}), rr), Alphabet::rna);
    const NamedSequence mixed[] = {{"r.fa", &rna}, {"p.fa", &prot}};
    EXPECT_EQ(*alphabet_from_args(args({}), mixed), Alphabet::protein);
    EXPECT_EQ(*alphabet_from_args(args({"--alphabet", "protein"}), nuc), Alphabet::protein);
    EXPECT_EQ(*alphabet_from_args(args({"--alphabet", "rna"}), nuc), Alphabet::rna);
    const auto e = alphabet_from_args(args({"--alphabet", "dna"}), mixed);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().kind, ErrorKind::input);
    EXPECT_NE(e.error().message.find("p.fa: record 'p': position 4: residue 'L'"), std::string::npos)
        << e.error().message;  // M, K and V are IUPAC codes
}

TEST(AlphabetCli, HelpTextsDocumentTheOption) {
    for (const char* cmd : {"align", "batch"}) {
        const CliResult h = run({cmd, "--help"});
        EXPECT_EQ(h.code, kExitOk);
        EXPECT_NE(h.out.find("--alphabet A"), std::string::npos) << cmd;
        EXPECT_NE(h.out.find("dna, rna or protein"), std::string::npos) << cmd;
    }
}

}  // namespace
}  // namespace dpviz::app
