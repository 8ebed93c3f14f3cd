// dpviz against parasail: nw = global, sg = semiglobal, sg_dx = glocal (free leading and trailing
// gaps in the target only), sw = local, on the real pairs and on seeded random pairs. parasail's open/extend convention is dpviz's (checked on a tiny case).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "peer_env.hpp"
#include "real_pairs.hpp"

#if DPVIZ_HAVE_PARASAIL
#include <parasail.h>
#endif

namespace dpviz::peers {
namespace {

#if DPVIZ_HAVE_PARASAIL

struct ParasailFree {
    void operator()(parasail_result_t* r) const { parasail_result_free(r); }
};

// The plain (serial, reference) functions up to kReferenceCells cells, the striped 32-bit SIMD
// ones beyond: both are parasail's exact score, the striped ones in linear memory.
int32_t parasail_score(Algorithm algo, const std::string& q, const std::string& t, const parasail_matrix_t* m,
                       GapPenalties g) {
    const bool small = int64_t(q.size()) * int64_t(t.size()) <= kReferenceCells;
    parasail_function_t* f = nullptr;
    switch (algo) {
        case Algorithm::global: f = small ? parasail_nw : parasail_nw_striped_32; break;
        case Algorithm::semiglobal: f = small ? parasail_sg : parasail_sg_striped_32; break;
        case Algorithm::glocal: f = small ? parasail_sg_dx : parasail_sg_dx_striped_32; break;
        case Algorithm::local: f = small ? parasail_sw : parasail_sw_striped_32; break;
        default: throw std::runtime_error("parasail has no " + std::string(algorithm_name(algo)));
    }
    std::unique_ptr<parasail_result_t, ParasailFree> r(
        f(q.data(), static_cast<int>(q.size()), t.data(), static_cast<int>(t.size()), g.open, g.extend, m));
    if (!r) throw std::runtime_error("parasail returned no result");
    return parasail_result_get_score(r.get());
}

const parasail_matrix_t* parasail_matrix_for(bool protein) {
    return parasail_matrix_lookup(protein ? "blosum62" : "nuc44");
}

// The relationship docs/peers.md states: equal, except that dpviz's semi-global score counts the
// empty overlap (0) and parasail's sg does not.
int32_t expected_dpviz(Algorithm algo, int32_t parasail) {
    return algo == Algorithm::semiglobal ? std::max(parasail, 0) : parasail;
}

const std::vector<Algorithm> kAlignments = {Algorithm::global, Algorithm::semiglobal, Algorithm::glocal, Algorithm::local};

// ---------------------------------------------------------------------------------------------
// Conventions, on cases small enough to check by hand
// ---------------------------------------------------------------------------------------------

TEST(ParasailConventions, GapOfLengthKCostsOpenPlusKMinusOneExtends) {
    // AAAAACCCTTTTT vs AAAAATTTTT (NUC.4.4): ten matches (+50) and one gap of 3: 50 - (10 + 2*1) = 38.
    const Seq q = literal("gap3_q", "AAAAACCCTTTTT"), t = literal("gap3_t", "AAAAATTTTT");
    for (const Algorithm a : kAlignments) {
        SCOPED_TRACE(algorithm_name(a));
        EXPECT_EQ(parasail_score(a, q.residues, t.residues, parasail_matrix_for(false), {10, 1}), 38);
        EXPECT_EQ(dpviz_score(make(a, q, t, &matrix("NUC.4.4"), {10, 1})), 38);
    }
}

TEST(ParasailConventions, MatricesEqualDpvizBuiltins) {
    for (const auto& [pname, ours_name] : {std::pair{"blosum62", "BLOSUM62"}, std::pair{"nuc44", "NUC.4.4"}}) {
        SCOPED_TRACE(std::string(pname) + " vs " + ours_name);
        const parasail_matrix_t* theirs = parasail_matrix_lookup(pname);
        ASSERT_NE(theirs, nullptr);
        const SubstitutionMatrix& ours = matrix(ours_name);
        // parasail's nuc44 adds a '*' row that NUC.4.4 (EDNAFULL) lacks; every other letter is shared.
        std::string alphabet;
        for (const char c : std::string(theirs->alphabet))
            if (c != '*' || ours.index_of('*') >= 0) alphabet += c;
        for (const char a : alphabet)
            for (const char b : alphabet) {
                const int ia = ours.index_of(a), ib = ours.index_of(b);
                ASSERT_GE(ia, 0) << a;
                ASSERT_GE(ib, 0) << b;
                EXPECT_EQ(theirs->matrix[theirs->mapper[static_cast<unsigned char>(a)] * theirs->size +
                                         theirs->mapper[static_cast<unsigned char>(b)]],
                          ours.at(ia, ib))
                    << a << b;
            }
    }
}

// The documented difference: the best real overlap of EEEE and LLLL scores -3 (BLOSUM62), which
// parasail reports; dpviz reports the empty overlap, 0, as EMBOSS does.
TEST(ParasailConventions, SemiglobalBelowZeroIsZeroInDpvizNegativeInParasail) {
    const Seq q = literal("no_match_q", "EEEE"), t = literal("no_match_t", "LLLL");
    const int32_t theirs = parasail_score(Algorithm::semiglobal, q.residues, t.residues, parasail_matrix_for(true), {10, 1});
    const int32_t ours = dpviz_score(make(Algorithm::semiglobal, q, t, &matrix("BLOSUM62"), {10, 1}));
    EXPECT_EQ(theirs, -3);
    EXPECT_EQ(ours, 0);
    EXPECT_EQ(ours, expected_dpviz(Algorithm::semiglobal, theirs));
}

// ---------------------------------------------------------------------------------------------
// Real pairs
// ---------------------------------------------------------------------------------------------

struct ParasailCase {
    std::string pair;
    std::vector<GapPenalties> gaps;
};

class ParasailAgreement : public testing::TestWithParam<ParasailCase> {};

TEST_P(ParasailAgreement, ScoresEqualParasail) {
    if (const std::string why = emboss_data_missing(); !why.empty()) GTEST_SKIP() << why;
    const RealPair& rp = real_pair(GetParam().pair);
    const auto [q, t] = rp.load();
    const SubstitutionMatrix& m = matrix(rp.protein ? "BLOSUM62" : "NUC.4.4");
    for (const GapPenalties g : GetParam().gaps)
        for (const Algorithm a : kAlignments) {
            SCOPED_TRACE(rp.what + ", " + std::string(algorithm_name(a)) + ", gaps " + gaps_text(g));
            const int32_t theirs = parasail_score(a, q.residues, t.residues, parasail_matrix_for(rp.protein), g);
            EXPECT_EQ(dpviz_score(make(a, q, t, &m, g)), expected_dpviz(a, theirs));
        }
}

std::vector<ParasailCase> parasail_cases() {
    const std::vector<GapPenalties> all = {{10, 1}, {11, 1}, {5, 2}, {8, 8}, {3, 0}};
    std::vector<ParasailCase> v;
    for (const char* p : {"globins", "actins", "flavodoxins", "opsins", "pax", "lac_unrelated", "rhodopsin_mrna"})
        v.push_back({p, all});
    for (const char* p : {"kilo_unrelated", "rhodopsin_octopus", "gamma_globins", "lacz_operon"})
        v.push_back({p, {{10, 1}}});
    return v;
}

INSTANTIATE_TEST_SUITE_P(Real, ParasailAgreement, testing::ValuesIn(parasail_cases()),
                         [](const testing::TestParamInfo<ParasailCase>& i) { return i.param.pair; });

// ---------------------------------------------------------------------------------------------
// Seeded random pairs: every length from 1, related and unrelated, odd gap settings
// ---------------------------------------------------------------------------------------------

// A related pair: `t` is `q` with substitutions, insertions and deletions at `rate`.
std::string mutate(const std::string& q, double rate, const std::string& alphabet, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
    std::string t;
    for (const char c : q) {
        const double x = u(rng);
        if (x < rate / 3) continue;                                           // deletion
        if (x < 2 * rate / 3) t += alphabet[letter(rng)];                     // substitution (maybe silent)
        else t += c;
        if (u(rng) < rate / 3) t += alphabet[letter(rng)];                    // insertion
    }
    return t.empty() ? std::string(1, alphabet[0]) : t;
}

TEST(ParasailRandom, ScoresEqualParasail) {
    std::mt19937 rng(20240611);
    const std::string dna = "ACGT", protein = "ARNDCQEGHILKMFPSTWYV";
    const std::vector<GapPenalties> gaps = {{10, 1}, {11, 1}, {5, 2}, {4, 4}, {12, 0}, {0, 0}, {20, 3}};
    std::uniform_int_distribution<int> length(1, 300);
    for (int k = 0; k < 120; ++k) {
        const bool is_protein = k % 2 == 1;
        const std::string& alphabet = is_protein ? protein : dna;
        std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
        std::string q;
        const int n = k < 10 ? k + 1 : length(rng);  // lengths 1..10 first, then anything to 300
        for (int i = 0; i < n; ++i) q += alphabet[letter(rng)];
        std::string t;
        if (k % 3 == 0) {
            for (int i = length(rng); i > 0; --i) t += alphabet[letter(rng)];  // unrelated
        } else {
            t = mutate(q, k % 3 == 1 ? 0.1 : 0.3, alphabet, rng);
        }
        const GapPenalties g = gaps[k % gaps.size()];
        ScoringOptions s;
        s.matrix = matrix(is_protein ? "BLOSUM62" : "NUC.4.4");
        s.gaps = g;
        for (const Algorithm a : kAlignments) {
            SCOPED_TRACE("case " + std::to_string(k) + " " + std::string(algorithm_name(a)) + " gaps " + gaps_text(g) +
                         "\n  q " + q + "\n  t " + t);
            auto p = make_problem(a, {"q", q}, {"t", t}, s);
            ASSERT_TRUE(p) << p.error().message;
            const int32_t theirs = parasail_score(a, q, t, parasail_matrix_for(is_protein), g);
            EXPECT_EQ(dpviz_score(*p), expected_dpviz(a, theirs));
        }
    }
}

// Glocal under every built-in matrix parasail also has, with linear, affine and free gaps: reads
// cut from a longer random target and mutated, and unrelated reads.
TEST(ParasailGlocal, EveryMatrixAndGapSetting) {
    std::mt19937 rng(8191);
    const std::string dna = "ACGT", protein = "ARNDCQEGHILKMFPSTWYV";
    const std::vector<GapPenalties> gaps = {{10, 1}, {10, 10}, {5, 2}, {1, 1}, {12, 0}, {0, 0}, {20, 3}};
    const std::vector<std::pair<const char*, const char*>> matrices = {
        {"BLOSUM45", "blosum45"}, {"BLOSUM50", "blosum50"}, {"BLOSUM62", "blosum62"},
        {"BLOSUM80", "blosum80"}, {"PAM250", "pam250"},     {"NUC.4.4", "nuc44"}};
    for (const auto& [ours, theirs] : matrices) {
        const bool is_protein = std::string(ours) != "NUC.4.4";
        const std::string& alphabet = is_protein ? protein : dna;
        std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
        std::uniform_int_distribution<int> length(1, 400);
        for (int k = 0; k < 14; ++k) {
            std::string t;
            for (int i = length(rng); i > 0; --i) t += alphabet[letter(rng)];
            std::uniform_int_distribution<size_t> at(0, t.size() - 1);
            const size_t begin = at(rng), len = std::min(t.size() - begin, 1 + at(rng) / 2);
            std::string q = mutate(t.substr(begin, len), 0.15, alphabet, rng);
            if (k % 4 == 3) q = mutate(q, 1.0, alphabet, rng);  // unrelated
            const GapPenalties g = gaps[size_t(k) % gaps.size()];
            SCOPED_TRACE(std::string(ours) + " case " + std::to_string(k) + " gaps " + gaps_text(g) + "\n  q " + q +
                         "\n  t " + t);
            ScoringOptions s;
            s.matrix = matrix(ours);
            s.gaps = g;
            auto p = make_problem(Algorithm::glocal, {"q", q}, {"t", t}, s);
            ASSERT_TRUE(p) << p.error().message;
            EXPECT_EQ(dpviz_score(*p), parasail_score(Algorithm::glocal, q, t, parasail_matrix_lookup(theirs), g));
        }
    }
}

#else

TEST(Parasail, NotInstalled) { GTEST_SKIP() << "parasail was not found at configure time (apt install libparasail-dev)"; }

#endif  // DPVIZ_HAVE_PARASAIL

}  // namespace
}  // namespace dpviz::peers
