// Alphabets: the detection rule over query and target together, what a forced alphabet accepts,
// the letters make_problem maps to matrix rows (U as T, X as N, EMBOSS's zero rows for B Z J O U X
// *), and identity and similarity counted as EMBOSS counts them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "dpviz/alphabet.hpp"
#include "dpviz/engine.hpp"
#include "matrix_file.hpp"

namespace dpviz {
namespace {

Alphabet pair_alphabet(std::string_view q, std::string_view t) {
    const std::string_view both[] = {q, t};
    return detect_alphabet(both);
}

SubstitutionMatrix builtin(const std::string& name) {
    auto m = app::load_matrix(name);
    EXPECT_TRUE(m) << name;
    return m ? *m : SubstitutionMatrix{};
}

SubstitutionMatrix parsed(const std::string& text) {
    auto m = app::parse_matrix(text, "test.mat");
    EXPECT_TRUE(m) << (m ? "" : m.error().message);
    return m ? *m : SubstitutionMatrix{};
}

Problem problem(const std::string& q, const std::string& t, const SubstitutionMatrix& m,
                Algorithm algo = Algorithm::global, GapPenalties gaps = {10, 1}) {
    ScoringOptions s;
    s.matrix = m;
    s.gaps = gaps;
    auto p = make_problem(algo, {"q", q}, {"t", t}, s);
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return p ? *p : Problem{};
}

// s(a, b) of a Problem by letter, through the codes make_problem gave the letters.
int32_t score_of(const Problem& p, char a, char b) {
    const int x = p.matrix.index_of(a), y = p.matrix.index_of(b);
    EXPECT_GE(x, 0) << a;
    EXPECT_GE(y, 0) << b;
    return x < 0 || y < 0 ? 0 : p.matrix.at(x, y);
}

// ---------------------------------------------------------------------------------------------
// The detection rule
// ---------------------------------------------------------------------------------------------

TEST(DetectAlphabet, RnaAgainstDnaIsNucleotide) {
    EXPECT_EQ(pair_alphabet("ACGU", "ACGT"), Alphabet::dna);
    EXPECT_EQ(pair_alphabet("GAUUACAUUG", "GATTACATTG"), Alphabet::dna);
    EXPECT_EQ(pair_alphabet("gauuaca", "GATTACA"), Alphabet::dna);      // either case
    EXPECT_EQ(pair_alphabet("AUGGCUUAA", "AUGGCCUGA"), Alphabet::rna);  // U and no T on both sides
    EXPECT_EQ(pair_alphabet("AUGC", "ACGN"), Alphabet::rna);
    EXPECT_EQ(pair_alphabet("ACGTACGT", "ACCGT"), Alphabet::dna);
    // One sequence holding both T and U is nucleotide too (EMBOSS reads it as DNA).
    EXPECT_EQ(detect_alphabet("ACGTUTTU"), Alphabet::dna);
}

TEST(DetectAlphabet, IupacOnlySequencesAreNucleotide) {
    // Every IUPAC code, both cases, as in EMBOSS's ambignuc.fasta, and other mixes.
    EXPECT_EQ(detect_alphabet("ABCDGHKMNRSTUVWYabcdghkmnrstuvwy"), Alphabet::dna);
    EXPECT_EQ(detect_alphabet("RYSWKMBDHVN"), Alphabet::dna);  // no A, C, G, T or U at all
    EXPECT_EQ(detect_alphabet("nnnnnnnn"), Alphabet::dna);
    EXPECT_EQ(pair_alphabet("WSKMYR", "bdhv"), Alphabet::dna);
    EXPECT_EQ(pair_alphabet("ACGURYN", "GCAUKM"), Alphabet::rna);
    // X is N in a nucleotide sequence (EMBOSS), so it does not make a sequence protein.
    EXPECT_EQ(pair_alphabet("ACGTX", "ACGTN"), Alphabet::dna);
    EXPECT_EQ(detect_alphabet(""), Alphabet::dna);
    EXPECT_EQ(detect_alphabet("AC-GT.A"), Alphabet::dna);  // gap characters are neutral
}

TEST(DetectAlphabet, ProteinWhenAnyLetterIsNoNucleotideCode) {
    // The letters no IUPAC nucleotide code uses: E F I J L O P Q Z and '*'.
    for (const char c : std::string("EFIJLOPQZ*efijlopqz")) {
        SCOPED_TRACE(std::string(1, c));
        EXPECT_EQ(detect_alphabet(std::string("ACGT") + c + "ACGT"), Alphabet::protein);
        EXPECT_EQ(pair_alphabet("ACGU", std::string("ACG") + c), Alphabet::protein);  // from either side
    }
    EXPECT_EQ(pair_alphabet("MKVLAAG", "ACGT"), Alphabet::protein);
    // Proteins with EMBOSS's ambiguous and rare letters B, Z, J, O, U, X and '*'.
    EXPECT_EQ(detect_alphabet("MBZJOUX*"), Alphabet::protein);
    EXPECT_EQ(pair_alphabet("HEAGAWGHEE", "PAWHEAEUJOX*"), Alphabet::protein);
    EXPECT_EQ(pair_alphabet("sequence", "SEQUENCE"), Alphabet::protein);
}

TEST(DetectAlphabet, NamesAndForcedAlphabets) {
    EXPECT_STREQ(alphabet_name(Alphabet::dna), "DNA");
    EXPECT_STREQ(alphabet_name(Alphabet::rna), "RNA");
    EXPECT_STREQ(alphabet_name(Alphabet::protein), "protein");
    EXPECT_EQ(parse_alphabet("dna"), Alphabet::dna);
    EXPECT_EQ(parse_alphabet("RNA"), Alphabet::rna);
    EXPECT_EQ(parse_alphabet("Protein"), Alphabet::protein);
    EXPECT_FALSE(parse_alphabet("nucleotide"));
    EXPECT_FALSE(parse_alphabet(""));

    // DNA and RNA take the same letters (T and U both, as EMBOSS's dna and rna types do).
    for (const Alphabet a : {Alphabet::dna, Alphabet::rna}) {
        EXPECT_EQ(first_rejected("ACGTUBDHKMNRSVWXYacgtubdhkmnrsvwxy", a), std::nullopt);
        EXPECT_EQ(first_rejected("ACGTE", a), 4u);
        EXPECT_EQ(first_rejected("gattacaJ", a), 7u);
        EXPECT_EQ(first_rejected("*ACGT", a), 0u);
        EXPECT_FALSE(accepts(a, 'Z'));
    }
    EXPECT_EQ(first_rejected("ABCDEFGHIJKLMNOPQRSTUVWXYZ*abcxyz", Alphabet::protein), std::nullopt);
    EXPECT_EQ(first_rejected("MKV-L", Alphabet::protein), 3u);
}

// ---------------------------------------------------------------------------------------------
// Letters a matrix lacks
// ---------------------------------------------------------------------------------------------

TEST(MissingLetters, EmbossZeroRowsForJOUInBlosum62) {
    const SubstitutionMatrix blosum = builtin("BLOSUM62");
    ASSERT_LT(blosum.index_of('J'), 0);
    const Problem p = problem("MJOUKW", "MLKCXW", blosum);
    for (const char special : std::string("JOU"))
        for (const char other : std::string("ACDEFGHIKLMNPQRSTVWYBZX*JOU")) {
            SCOPED_TRACE(std::string(1, special) + "/" + other);
            EXPECT_EQ(score_of(p, special, other), 0);
            EXPECT_EQ(score_of(p, other, special), 0);
        }
    // Letters the matrix has keep their scores; U is selenocysteine here, not T.
    EXPECT_EQ(score_of(p, 'W', 'W'), 11);
    EXPECT_EQ(score_of(p, 'X', 'X'), -1);
    EXPECT_EQ(score_of(p, 'B', 'D'), 4);
    EXPECT_EQ(p.matrix.unscored, 3);
    // Global, ungapped: M/M 5 + J/L 0 + O/K 0 + U/C 0 + K/X -1 + W/W 11.
    EXPECT_EQ(align_reference(p).score, 15);
}

TEST(MissingLetters, UScoresAsTInANucleotideMatrixWithoutU) {
    const SubstitutionMatrix acgt = parsed(
        "   A  C  G  T\n"
        "A  2 -3 -1 -3\n"
        "C -3  3 -3 -1\n"
        "G -1 -3  3 -3\n"
        "T -3 -1 -3  2\n");
    const Problem p = problem("GAUUACA", "GATTACA", acgt);
    for (const char c : std::string("ACGTU")) {
        EXPECT_EQ(score_of(p, 'U', c), score_of(p, 'T', c == 'U' ? 'T' : c)) << c;
        EXPECT_EQ(score_of(p, c, 'U'), score_of(p, c == 'U' ? 'T' : c, 'T')) << c;
    }
    EXPECT_EQ(p.matrix.unscored, 0);
    const DpResult r = align_reference(p);
    EXPECT_EQ(r.score, 3 + 2 + 2 + 2 + 2 + 3 + 2);
    // U/T scores as T/T but they are different letters: similar, not identical (EMBOSS's U/T in NUC.4.4).
    EXPECT_EQ(r.alignment.identical, 5);
    EXPECT_EQ(r.alignment.similar, 7);
    EXPECT_EQ(r.alignment.markup, "||::|||");
    EXPECT_EQ(r.alignment.cigar, "2=2X3=");

    // An RNA matrix (U, no T) reads T as U; X reads as N where the matrix has N.
    const SubstitutionMatrix acgun = parsed(
        "   A  C  G  U  N\n"
        "A  5 -4 -4 -4 -2\n"
        "C -4  5 -4 -4 -2\n"
        "G -4 -4  5 -4 -2\n"
        "U -4 -4 -4  5 -2\n"
        "N -2 -2 -2 -2 -1\n");
    const Problem rna = problem("ACGTX", "ACGUN", acgun);
    EXPECT_EQ(score_of(rna, 'T', 'U'), 5);
    EXPECT_EQ(score_of(rna, 'X', 'N'), -1);
    EXPECT_EQ(score_of(rna, 'X', 'A'), -2);
    EXPECT_EQ(align_reference(rna).score, 5 + 5 + 5 + 5 - 1);
}

TEST(MissingLetters, NoNucleotideAliasInAProteinMatrix) {
    // BLOSUM62's T is threonine: U must not borrow it (EMBOSS scores U 0 there).
    const Problem p = problem("WUW", "WTW", builtin("BLOSUM62"));
    EXPECT_EQ(score_of(p, 'U', 'T'), 0);
    EXPECT_EQ(align_reference(p).score, 22);
}

TEST(MissingLetters, OtherLettersAreStillAnInputError) {
    ScoringOptions s;
    s.matrix = builtin("NUC.4.4");
    auto p = make_problem(Algorithm::local, {"q", "ACGTEA"}, {"t", "ACGT"}, s);
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().kind, ErrorKind::input);
    EXPECT_NE(p.error().message.find("query: position 5: residue 'E' is not in matrix NUC.4.4"), std::string::npos)
        << p.error().message;
    auto t = make_problem(Algorithm::local, {"q", "ACGT"}, {"t", "ACLT"}, s);
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find("target: position 3: residue 'L'"), std::string::npos) << t.error().message;
    // J, O, Z and '*' are EMBOSS's zero-row letters in a nucleotide matrix too.
    const Problem z = problem("ACGTJOZ*", "ACGTACGT", builtin("NUC.4.4"));
    EXPECT_EQ(z.matrix.unscored, 4);
    EXPECT_EQ(align_reference(z).score, 20);
}

// ---------------------------------------------------------------------------------------------
// Identity and similarity
// ---------------------------------------------------------------------------------------------

TEST(IdentitySimilarity, IdenticalLettersWithANegativeScoreAreNotSimilar) {
    // NUC.4.4: N/N -1, S/S -1, B/B -1; A/A 5. EMBOSS: identical 6, similar 2.
    const Problem p = problem("ANSBWA", "ANSBWA", builtin("NUC.4.4"));
    const Alignment a = align_reference(p).alignment;
    EXPECT_EQ(a.length, 6);
    EXPECT_EQ(a.identical, 6);
    EXPECT_EQ(a.similar, 2);
    EXPECT_EQ(a.markup, "||||||");
    EXPECT_DOUBLE_EQ(a.similarity(), 2.0 / 6.0);
}

TEST(IdentitySimilarity, ZeroRowLettersAreNeverIdentical) {
    // BLOSUM62 has no J, O, U: same letter, score 0, counted as neither (EMBOSS: 48/54 identical
    // on ambigprot.fasta against itself). X/X is identical (X is in the matrix) but scores -1.
    const Problem p = problem("WJOUXB*W", "WJOUXD*W", builtin("BLOSUM62"));
    const Alignment a = align_reference(p).alignment;
    EXPECT_EQ(a.identical, 4);  // W, X, *, W
    EXPECT_EQ(a.similar, 4);    // W, B/D (4), * (1), W
    EXPECT_EQ(a.markup, "|...|:||");
    EXPECT_EQ(a.cigar, "5=1X2=");  // the CIGAR compares letters
}

TEST(IdentitySimilarity, EmbossRuleNeedsOneResidueThatScoresItselfPositive) {
    // needle (measured): P/Q scores +2 but both diagonals are negative, so not similar; A/E with
    // A/A = 0 is similar because E/E > 0 and E/A > 0.
    const SubstitutionMatrix m = parsed(
        "   A  E  P  Q  W\n"
        "A  0  1  0  0  0\n"
        "E  1  4  0  0  0\n"
        "P  0  0 -1  2  0\n"
        "Q  0  0  2 -1  0\n"
        "W  0  0  0  0 11\n");
    const Alignment pq = align_reference(problem("WPW", "WQW", m)).alignment;
    EXPECT_EQ(pq.identical, 2);
    EXPECT_EQ(pq.similar, 2);
    const Alignment ae = align_reference(problem("WAW", "WEW", m)).alignment;
    EXPECT_EQ(ae.similar, 3);
    EXPECT_EQ(ae.markup, "|:|");
    const Alignment aa = align_reference(problem("WAW", "WAW", m)).alignment;
    EXPECT_EQ(aa.identical, 3);  // A/A scores 0 and is identical all the same
    EXPECT_EQ(aa.similar, 2);
}

TEST(IdentitySimilarity, MatchMismatchEditAndLcsCompareLetters) {
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    auto p = make_problem(Algorithm::global, {"q", "ACGU"}, {"t", "ACGT"}, s);
    ASSERT_TRUE(p);
    const Alignment a = align_reference(*p).alignment;
    EXPECT_EQ(a.identical, 3);
    EXPECT_EQ(a.similar, 3);  // a mismatch scores <= 0: U/T is not similar without a matrix
    auto e = make_problem(Algorithm::edit, {"q", "ACGU"}, {"t", "ACGT"}, s);
    ASSERT_TRUE(e);
    EXPECT_EQ(align_reference(*e).score, 1);
}

}  // namespace
}  // namespace dpviz
