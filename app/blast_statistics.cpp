// The Karlin-Altschul table behind `--format blast6`'s E-value and bit score, and the lookup that
// decides whether a problem's scoring is one BLAST publishes parameters for (docs/formats.md).
#include "blast_statistics.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "matrix_file.hpp"

namespace dpviz::app {
namespace {

// Source: NCBI C++ Toolkit, src/algo/blast/core/blast_stat.c (public domain), the arrays
// blosum45_values, blosum50_values, blosum62_values, blosum80_values, pam250_values (columns 1,
// 2, 4 and 5: existence, extension, lambda, K) and blastn_values_R_Q (columns 1-4). The
// ungapped rows and blastn's 0/0 rows (greedy extension, not a gap cost) are left out, as dpviz
// always aligns with gaps. Checked against that file; docs/formats.md lists the same values.
// Gap costs in BLAST's terms: a gap of length k costs existence + k * extension.

// One row a line: the matrix, existence, extension, lambda, K.
constexpr std::string_view kProteinTable = R"(
BLOSUM45 13 3 0.207 0.049
BLOSUM45 12 3 0.199 0.039
BLOSUM45 11 3 0.190 0.031
BLOSUM45 10 3 0.179 0.023
BLOSUM45 16 2 0.210 0.051
BLOSUM45 15 2 0.203 0.041
BLOSUM45 14 2 0.195 0.032
BLOSUM45 13 2 0.185 0.024
BLOSUM45 12 2 0.171 0.016
BLOSUM45 19 1 0.205 0.040
BLOSUM45 18 1 0.198 0.032
BLOSUM45 17 1 0.189 0.024
BLOSUM45 16 1 0.176 0.016

BLOSUM50 13 3 0.212 0.063
BLOSUM50 12 3 0.206 0.055
BLOSUM50 11 3 0.197 0.042
BLOSUM50 10 3 0.186 0.031
BLOSUM50 9 3 0.172 0.022
BLOSUM50 16 2 0.215 0.066
BLOSUM50 15 2 0.210 0.058
BLOSUM50 14 2 0.202 0.045
BLOSUM50 13 2 0.193 0.035
BLOSUM50 12 2 0.181 0.025
BLOSUM50 19 1 0.212 0.057
BLOSUM50 18 1 0.207 0.050
BLOSUM50 17 1 0.198 0.037
BLOSUM50 16 1 0.186 0.025
BLOSUM50 15 1 0.171 0.015

BLOSUM62 11 2 0.297 0.082
BLOSUM62 10 2 0.291 0.075
BLOSUM62 9 2 0.279 0.058
BLOSUM62 8 2 0.264 0.045
BLOSUM62 7 2 0.239 0.027
BLOSUM62 6 2 0.201 0.012
BLOSUM62 13 1 0.292 0.071
BLOSUM62 12 1 0.283 0.059
BLOSUM62 11 1 0.267 0.041
BLOSUM62 10 1 0.243 0.024
BLOSUM62 9 1 0.206 0.010

BLOSUM80 25 2 0.342 0.17
BLOSUM80 13 2 0.336 0.15
BLOSUM80 9 2 0.319 0.11
BLOSUM80 8 2 0.308 0.090
BLOSUM80 7 2 0.293 0.070
BLOSUM80 6 2 0.268 0.045
BLOSUM80 11 1 0.314 0.095
BLOSUM80 10 1 0.299 0.071
BLOSUM80 9 1 0.279 0.048

PAM250 15 3 0.205 0.049
PAM250 14 3 0.200 0.043
PAM250 13 3 0.194 0.036
PAM250 12 3 0.186 0.029
PAM250 11 3 0.174 0.020
PAM250 17 2 0.204 0.047
PAM250 16 2 0.198 0.038
PAM250 15 2 0.191 0.031
PAM250 14 2 0.182 0.024
PAM250 13 2 0.171 0.017
PAM250 21 1 0.205 0.045
PAM250 20 1 0.199 0.037
PAM250 19 1 0.192 0.029
PAM250 18 1 0.183 0.021
PAM250 17 1 0.171 0.014
)";

// One row a line: the reward (match score), the penalty (mismatch cost), existence, extension,
// lambda, K.
constexpr std::string_view kNucleotideTable = R"(
1 5 3 3 1.39 0.747

1 4 1 2 1.36 0.67
1 4 0 2 1.26 0.43
1 4 2 1 1.35 0.61
1 4 1 1 1.22 0.35

2 7 2 4 0.68 0.67
2 7 0 4 0.63 0.43
2 7 4 2 0.675 0.62
2 7 2 2 0.61 0.35

1 3 2 2 1.37 0.70
1 3 1 2 1.35 0.64
1 3 0 2 1.25 0.42
1 3 2 1 1.34 0.60
1 3 1 1 1.21 0.34

2 5 2 4 0.67 0.59
2 5 0 4 0.62 0.39
2 5 4 2 0.67 0.61
2 5 2 2 0.56 0.32

1 2 2 2 1.33 0.62
1 2 1 2 1.30 0.52
1 2 0 2 1.19 0.34
1 2 3 1 1.32 0.57
1 2 2 1 1.29 0.49
1 2 1 1 1.14 0.26

2 3 4 4 0.63 0.42
2 3 2 4 0.615 0.37
2 3 0 4 0.55 0.21
2 3 3 3 0.615 0.37
2 3 6 2 0.63 0.42
2 3 5 2 0.625 0.41
2 3 4 2 0.61 0.35
2 3 2 2 0.515 0.14

3 4 6 3 0.389 0.25
3 4 5 3 0.375 0.21
3 4 4 3 0.351 0.14
3 4 6 2 0.362 0.16
3 4 5 2 0.330 0.092
3 4 4 2 0.281 0.046

4 5 6 5 0.28 0.21
4 5 5 5 0.27 0.17
4 5 4 5 0.25 0.10
4 5 3 5 0.23 0.065

1 1 3 2 1.09 0.31
1 1 2 2 1.07 0.27
1 1 1 2 1.02 0.21
1 1 0 2 0.80 0.064
1 1 4 1 1.08 0.28
1 1 3 1 1.06 0.25
1 1 2 1 0.99 0.17

3 2 5 5 0.208 0.030

5 4 10 6 0.163 0.068
5 4 8 6 0.146 0.039
)";

// One row of either table, under BLAST's name for it.
struct Row {
    std::string scoring;  // "BLOSUM62 11/1", "nucleotide +1/-2 0/2"
    std::string matrix;   // protein rows; nucleotide rows leave it empty
    int reward = 0, penalty = 0;  // nucleotide rows; protein rows leave them 0
    int existence = 0, extension = 0;
    double lambda = 0.0, k = 0.0;
};

// The rows of both tables, read once (thread-safe static initialisation).
struct Rows {
    std::vector<Row> protein, nucleotide;
};
const Rows& rows() {
    static const Rows kRows = [] {
        Rows out;
        const auto gaps = [](const Row& r) { return std::to_string(r.existence) + "/" + std::to_string(r.extension); };
        std::istringstream protein{std::string(kProteinTable)};
        for (Row r; protein >> r.matrix >> r.existence >> r.extension >> r.lambda >> r.k;) {
            r.scoring = r.matrix + " " + gaps(r);
            out.protein.push_back(r);
        }
        std::istringstream nucleotide{std::string(kNucleotideTable)};
        for (Row r; nucleotide >> r.reward >> r.penalty >> r.existence >> r.extension >> r.lambda >> r.k;) {
            r.scoring = "nucleotide +" + std::to_string(r.reward) + "/-" + std::to_string(r.penalty) + " " + gaps(r);
            out.nucleotide.push_back(r);
        }
        return out;
    }();
    return kRows;
}

// BLAST's tables hold for the 20 standard amino acids (or the four bases); other letters do not
// move the parameters, so a matrix is recognised by these scores alone, whatever its name.
constexpr std::string_view kAminoAcids = "ARNDCQEGHILKMFPSTWYV";
constexpr std::string_view kProteinMatrices[] = {"BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80", "PAM250"};
// The built-in protein matrices, parsed once (thread-safe static initialisation).
const std::vector<SubstitutionMatrix>& builtin_protein_matrices() {
    static const std::vector<SubstitutionMatrix> kMatrices = [] {
        std::vector<SubstitutionMatrix> out;
        for (const std::string_view name : kProteinMatrices) {
            auto m = load_matrix(std::string(name));
            if (m) out.push_back(std::move(*m));
        }
        return out;
    }();
    return kMatrices;
}

// Do `a` and `b` score every pair of standard amino acids alike?
bool same_amino_acid_scores(const SubstitutionMatrix& a, const SubstitutionMatrix& b) {
    for (const char x : kAminoAcids) {
        const int ax = a.index_of(x), bx = b.index_of(x);
        if (ax < 0 || bx < 0) return false;
        for (const char y : kAminoAcids) {
            const int ay = a.index_of(y), by = b.index_of(y);
            if (ay < 0 || by < 0 || a.at(ax, ay) != b.at(bx, by)) return false;
        }
    }
    return true;
}

// The one match score and the one mismatch cost that `p` gives the bases it holds (T and U
// being one base), when the residues are all nucleotide codes and those scores are uniform.
struct MatchMismatch {
    int reward = 0, penalty = 0;
};
std::optional<MatchMismatch> nucleotide_scores(const Problem& p) {
    if (!nucleotide_residues(p)) return std::nullopt;
    std::vector<int> bases;
    for (const char c : std::string_view("ACGT")) {
        int k = p.matrix.index_of(c);
        if (k < 0 && c == 'T') k = p.matrix.index_of('U');
        if (k >= 0) bases.push_back(k);
    }
    // A mismatch cost needs two different bases in the matrix (match/mismatch scoring holds only
    // the letters present: "AAAA" against "AA" says nothing about mismatches).
    if (bases.size() < 2) return std::nullopt;
    std::optional<int> match, mismatch;
    for (const int x : bases)
        for (const int y : bases) {
            std::optional<int>& slot = x == y ? match : mismatch;
            const int v = p.matrix.at(x, y);
            if (slot && *slot != v) return std::nullopt;
            slot = v;
        }
    if (*match <= 0 || *mismatch >= 0) return std::nullopt;
    return MatchMismatch{*match, -*mismatch};
}

}  // namespace

bool nucleotide_residues(const Problem& p) {
    constexpr std::string_view kNucleotideLetters = "ACGTUNRYKMSWBDHVX";
    for (const std::string* s : {&p.query, &p.target})
        for (const char c : *s)
            if (kNucleotideLetters.find(c) == std::string_view::npos) return false;
    return true;
}

std::optional<KarlinAltschul> karlin_altschul(const Problem& p) {
    // The theory describes optimal local alignment scores; global and semiglobal scores, edit
    // distances and LCS lengths have other distributions.
    if (p.algo != Algorithm::local) return std::nullopt;
    // BLAST's tables hold whole-number scores and gap costs only (types.hpp: score_scale).
    if (p.score_scale != 1) return std::nullopt;
    const int existence = p.gaps.open - p.gaps.extend, extension = p.gaps.extend;
    auto found = [&](const Row& r) {
        return KarlinAltschul{r.scoring, r.lambda, r.k, r.reward == 2};
    };
    for (size_t m = 0; m < builtin_protein_matrices().size(); ++m) {
        const SubstitutionMatrix& builtin = builtin_protein_matrices()[m];
        if (!same_amino_acid_scores(p.matrix, builtin)) continue;
        for (const Row& r : rows().protein)
            if (r.matrix == builtin.name && r.existence == existence && r.extension == extension) return found(r);
        return std::nullopt;
    }
    if (const auto mm = nucleotide_scores(p))
        for (const Row& r : rows().nucleotide)
            if (r.reward == mm->reward && r.penalty == mm->penalty && r.existence == existence &&
                r.extension == extension)
                return found(r);
    return std::nullopt;
}

BlastStatistics blast_statistics(const KarlinAltschul& ka, int32_t score, int64_t m, int64_t n) {
    // Rounded toward minus infinity, as BLAST does for its +2 reward tables.
    const double s = ka.even_scores_only ? std::floor(score / 2.0) * 2.0 : double(score);
    BlastStatistics out;
    out.evalue = ka.k * double(m) * double(n) * std::exp(-ka.lambda * s);
    out.bit_score = (ka.lambda * s - std::log(ka.k)) / std::log(2.0);
    return out;
}

}  // namespace dpviz::app
