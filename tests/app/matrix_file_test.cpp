// Substitution matrices: every built-in name and alias, entries checked against the EMBOSS
// data files, user matrix files, and each malformed-file error (kind, origin and line).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/expect_error.hpp"
#include "matrix_file.hpp"

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) { return std::string(DPVIZ_TEST_DATA) + "/input/" + name; }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

int32_t score(const SubstitutionMatrix& m, char a, char b) {
    const int i = m.index_of(a), j = m.index_of(b);
    EXPECT_GE(i, 0) << a;
    EXPECT_GE(j, 0) << b;
    return (i < 0 || j < 0) ? 0 : m.at(i, j);
}

// ---------------------------------------------------------------------------------------------
// Built-in matrices
// ---------------------------------------------------------------------------------------------

TEST(BuiltinMatrices, Names) {
    EXPECT_EQ(builtin_matrix_names(),
              (std::vector<std::string>{"BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80", "PAM250", "NUC.4.4"}));
}

TEST(BuiltinMatrices, EveryNameAndAliasLoads) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"BLOSUM45", "BLOSUM45"},  {"blosum50", "BLOSUM50"}, {"Blosum62", "BLOSUM62"}, {"BLOSUM80", "BLOSUM80"},
        {"pam250", "PAM250"},      {"NUC.4.4", "NUC.4.4"},   {"nuc.4.4", "NUC.4.4"},   {"EBLOSUM45", "BLOSUM45"},
        {"EBLOSUM50", "BLOSUM50"}, {"eblosum62", "BLOSUM62"}, {"EBLOSUM80", "BLOSUM80"}, {"EPAM250", "PAM250"},
        {"EDNAFULL", "NUC.4.4"},   {"DNAfull", "NUC.4.4"},   {"NUC44", "NUC.4.4"},
    };
    for (const auto& [alias, canonical] : cases) {
        SCOPED_TRACE(alias);
        auto m = load_matrix(alias);
        ASSERT_TRUE(m) << m.error().message;
        EXPECT_EQ(m->name, canonical);
        EXPECT_EQ(builtin_matrix_name(alias), canonical);
        EXPECT_EQ(m->scores.size(), m->alphabet.size() * m->alphabet.size());
        for (int i = 0; i < m->size(); ++i)  // all six shipped tables are symmetric
            for (int j = 0; j < m->size(); ++j) EXPECT_EQ(m->at(i, j), m->at(j, i));
    }
    EXPECT_FALSE(builtin_matrix_name("BLOSUM99"));
}

TEST(BuiltinMatrices, SpotChecks) {
    auto b62 = load_matrix("BLOSUM62");
    ASSERT_TRUE(b62);
    EXPECT_EQ(b62->alphabet, "ARNDCQEGHILKMFPSTWYVBZX*");
    EXPECT_EQ(score(*b62, 'W', 'W'), 11);
    EXPECT_EQ(score(*b62, 'a', 'a'), 4);  // index_of is case-insensitive
    EXPECT_EQ(score(*b62, 'W', 'C'), -2);
    EXPECT_EQ(score(*b62, '*', '*'), 1);
    EXPECT_EQ(score(*b62, 'A', '*'), -4);

    auto nuc = load_matrix("NUC.4.4");
    ASSERT_TRUE(nuc);
    EXPECT_EQ(nuc->alphabet, "ATGCSWRYKMBVHDNU");
    EXPECT_EQ(score(*nuc, 'A', 'T'), -4);
    EXPECT_EQ(score(*nuc, 'A', 'A'), 5);
    EXPECT_EQ(score(*nuc, 'N', 'N'), -1);
    EXPECT_EQ(score(*nuc, 'T', 'U'), 5);

    auto pam = load_matrix("PAM250");
    ASSERT_TRUE(pam);
    EXPECT_EQ(score(*pam, 'W', 'W'), 17);
    EXPECT_EQ(score(*pam, 'C', 'C'), 12);
}

// The compiled-in text is the asset file, byte for byte.
TEST(BuiltinMatrices, EmbeddedTextIsTheAsset) {
    for (const auto& name : builtin_matrix_names()) {
        SCOPED_TRACE(name);
        const auto text = builtin_matrix_text(name);
        ASSERT_TRUE(text);
        EXPECT_EQ(std::string(*text), slurp(std::string(DPVIZ_ASSETS) + "/matrices/" + name));
    }
}

// Same tables as EMBOSS reads them, re-parsed from the installed data files.
TEST(BuiltinMatrices, AgreeWithEmbossData) {
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"EBLOSUM45", "BLOSUM45"}, {"EBLOSUM50", "BLOSUM50"}, {"EBLOSUM62", "BLOSUM62"},
        {"EBLOSUM80", "BLOSUM80"}, {"EPAM250", "PAM250"},     {"EDNAFULL", "NUC.4.4"},
    };
    const std::string dir = "/usr/share/EMBOSS/data/";
    if (!fs::exists(dir + "EBLOSUM62")) GTEST_SKIP() << "emboss-data is not installed";
    for (const auto& [emboss, ours] : pairs) {
        SCOPED_TRACE(emboss);
        auto theirs = load_matrix(dir + emboss);  // a path: parsed from the file
        ASSERT_TRUE(theirs) << theirs.error().message;
        EXPECT_EQ(theirs->name, emboss);
        auto builtin = load_matrix(ours);
        ASSERT_TRUE(builtin);
        EXPECT_EQ(builtin->alphabet, theirs->alphabet);
        EXPECT_EQ(builtin->scores, theirs->scores);
    }
    auto b62 = load_matrix(dir + "EBLOSUM62");
    ASSERT_TRUE(b62);
    EXPECT_EQ(score(*b62, 'W', 'W'), 11);
    auto full = load_matrix(dir + "EDNAFULL");
    ASSERT_TRUE(full);
    EXPECT_EQ(score(*full, 'A', 'T'), -4);
}

// ---------------------------------------------------------------------------------------------
// Matrix files
// ---------------------------------------------------------------------------------------------

TEST(MatrixFile, LoadsFromPath) {
    auto m = load_matrix(fixture("tiny.mat"));
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->name, "tiny.mat");
    EXPECT_EQ(m->alphabet, "AC*");
    EXPECT_EQ(m->scores, (std::vector<int32_t>{2, -1, -5, -1, 3, -5, -5, -5, 1}));
}

TEST(MatrixFile, LowerCaseLettersAndBlanks) {
    auto m = parse_matrix("# c\n\n\ta c\r\na 1 -2\r\n  c -2 3\r\n# end\n", "dos.mat");
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->alphabet, "AC");
    EXPECT_EQ(m->scores, (std::vector<int32_t>{1, -2, -2, 3}));
}

TEST(MatrixFile, MissingNamesAreUsageErrors) {
    EXPECT_TRUE(fails_with(load_matrix("BLOSUM99"), ErrorKind::usage, {"'BLOSUM99'", "BLOSUM62", "NUC.4.4"}));
    EXPECT_TRUE(fails_with(load_matrix(fixture("missing.mat")), ErrorKind::usage, {"missing.mat"}));
    EXPECT_TRUE(fails_with(load_matrix(fixture("")), ErrorKind::input, {"is a directory"}));
}

TEST(MatrixFile, BadEntryInFile) {
    EXPECT_TRUE(fails_with(load_matrix(fixture("bad_entry.mat")), ErrorKind::input,
                           {fixture("bad_entry.mat") + ":3:", "'x3'", "not an integer"}));
}

TEST(MatrixFile, FileTooLarge) {
    const fs::path path = fs::temp_directory_path() / ("dpviz-matrix-" + std::to_string(::getpid()) + ".mat");
    {
        std::ofstream out(path, std::ios::binary);
        std::string row;
        for (int k = 0; k < 1'000'000; ++k) row += "A ";  // a header of a million columns, 2 MB
        out << row << "\n";
    }
    EXPECT_TRUE(fails_with(load_matrix(path.string()), ErrorKind::input, {path.string(), "larger than 1 MiB"}));
    fs::remove(path);
}

struct BadMatrix {
    const char* text;
    std::vector<std::string> parts;
};

TEST(MatrixFile, MalformedTextNamesOriginAndLine) {
    const std::vector<BadMatrix> cases = {
        {"", {"m.txt:1:", "no header row"}},
        {"# only\n# comments\n", {"m.txt:2:", "no header row"}},
        {"4 -1\n-1 4\n", {"m.txt:1:", "header entry '4'"}},
        {"A BC\n", {"m.txt:1:", "header entry 'BC'"}},
        {"A - C\n", {"m.txt:1:", "header entry '-'"}},
        {"A C a\n", {"m.txt:1:", "duplicate letter 'A'"}},
        {"A C\nA 1 2\nG 1 2\n", {"m.txt:3:", "row letter 'G' is not in the header"}},
        {"A C\nC 1 2\nA 1 2\n", {"m.txt:2:", "row 'C' out of order", "expected 'A'"}},
        {"A C\n1 2\n", {"m.txt:2:", "row starts with '1'"}},
        {"A C\nA 1\nC 1 2\n", {"m.txt:2:", "row 'A' has 1 entry, expected 2"}},
        {"A C\nA 1 2 3\nC 1 2\n", {"m.txt:2:", "more than 2 entries"}},
        {"A C\nA 1 2.5\nC 1 2\n", {"m.txt:2:", "'2.5'", "row 'A', column 'C'", "not an integer"}},
        {"A C\nA 1 +2\nC 1 2\n", {"m.txt:2:", "'+2'", "not an integer"}},
        {"A C\nA 1 2\nC 1000001 2\n", {"m.txt:3:", "'1000001'", "out of range"}},
        {"A C\nA 1 2\nC -1000001 2\n", {"m.txt:3:", "out of range"}},
        {"A C\nA 1 99999999999999999999999\n", {"m.txt:2:", "out of range"}},
        {"A C\nA 1 2\n", {"m.txt:2:", "1 row for 2 header letters", "square"}},
        {"A C\nA 1 2\nC 1 2\nA 1 2\n", {"m.txt:4:", "more rows", "square"}},
        {"A C\nA 1 2\nC 1 \x01\n", {"m.txt:3:", "'?'"}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.text);
        EXPECT_TRUE(fails_with(parse_matrix(c.text, "m.txt"), ErrorKind::input, c.parts));
    }
    // The largest legal entry is accepted.
    auto edge = parse_matrix("A\nA -1000000\n", "m.txt");
    ASSERT_TRUE(edge) << edge.error().message;
    EXPECT_EQ(edge->scores, (std::vector<int32_t>{-1000000}));
}

TEST(MatrixFile, MillionColumnsRejectedQuickly) {
    std::string header;
    for (int k = 0; k < 1'000'000; ++k) header += char('A' + k % 26), header += ' ';
    std::string row = "A";
    for (int k = 0; k < 1'000'000; ++k) row += " 1";
    EXPECT_TRUE(fails_with(parse_matrix(header + "\n", "wide.mat"), ErrorKind::input,
                           {"wide.mat:1:", "duplicate letter 'A'"}));
    EXPECT_TRUE(fails_with(parse_matrix("A C\n" + row + "\n", "wide.mat"), ErrorKind::input,
                           {"wide.mat:2:", "more than 2 entries"}));
}

}  // namespace
}  // namespace dpviz::app
