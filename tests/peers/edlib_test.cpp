// dpviz's edit distance against edlib (Myers' bit-vector algorithm, EDLIB_MODE_NW, distance
// only) on real DNA pairs up to 20 kb x 20 kb and on seeded random pairs; and glocal alignment
// with unit costs (match 0, mismatch -1, gaps 1/1) against edlib's infix mode (EDLIB_MODE_HW):
// the score is minus the distance.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "peer_env.hpp"
#include "real_pairs.hpp"

#if DPVIZ_HAVE_EDLIB
#include <edlib.h>
#endif

namespace dpviz::peers {
namespace {

#if DPVIZ_HAVE_EDLIB

int32_t edlib_distance(const std::string& q, const std::string& t, EdlibAlignMode mode = EDLIB_MODE_NW) {
    EdlibAlignResult r = edlibAlign(q.data(), static_cast<int>(q.size()), t.data(), static_cast<int>(t.size()),
                                    edlibNewAlignConfig(-1, mode, EDLIB_TASK_DISTANCE, nullptr, 0));
    const int status = r.status, d = r.editDistance;
    edlibFreeAlignResult(r);
    if (status != EDLIB_STATUS_OK) throw std::runtime_error("edlibAlign failed");
    return d;
}

int32_t dpviz_distance(const std::string& q, const std::string& t) {
    auto p = make_problem(Algorithm::edit, {"q", q}, {"t", t}, {});
    if (!p) throw std::runtime_error("make_problem: " + p.error().message);
    return dpviz_score(*p);
}

TEST(EdlibConventions, KittenSitting) {
    EXPECT_EQ(edlib_distance("KITTEN", "SITTING"), 3);
    EXPECT_EQ(dpviz_distance("KITTEN", "SITTING"), 3);
}

class EdlibAgreement : public testing::TestWithParam<std::string> {};

TEST_P(EdlibAgreement, DistanceEqualsEdlib) {
    if (const std::string why = emboss_data_missing(); !why.empty()) GTEST_SKIP() << why;
    const RealPair& rp = real_pair(GetParam());
    SCOPED_TRACE(rp.what);
    const auto [q, t] = rp.load();
    EXPECT_EQ(dpviz_distance(q.residues, t.residues), edlib_distance(q.residues, t.residues));
}

INSTANTIATE_TEST_SUITE_P(Real, EdlibAgreement,
                         testing::Values("globins", "rhodopsin_mrna", "gamma_globins", "lacz_operon",
                                         "rhodopsin_gene", "delta_beta", "globin_locus_20kb"),
                         [](const testing::TestParamInfo<std::string>& i) { return i.param; });

// Related pairs (a copy with substitutions and indels at 1 to 40 %) and unrelated ones, lengths
// 1 to 5000, over DNA and over the amino-acid letters.
TEST(EdlibRandom, DistanceEqualsEdlib) {
    std::mt19937 rng(7001);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int k = 0; k < 60; ++k) {
        const std::string alphabet = k % 4 == 3 ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
        std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
        const int n = k < 8 ? k + 1 : std::uniform_int_distribution<int>(1, k % 10 == 0 ? 5000 : 800)(rng);
        std::string q, t;
        for (int i = 0; i < n; ++i) q += alphabet[letter(rng)];
        if (k % 5 == 4) {
            const int m = std::uniform_int_distribution<int>(1, n + 50)(rng);
            for (int i = 0; i < m; ++i) t += alphabet[letter(rng)];
        } else {
            const double rate = std::vector<double>{0.01, 0.1, 0.25, 0.4}[k % 4];
            for (const char c : q) {
                const double x = u(rng);
                if (x < rate / 3) continue;
                t += x < 2 * rate / 3 ? alphabet[letter(rng)] : c;
                if (u(rng) < rate / 3) t += alphabet[letter(rng)];
            }
            if (t.empty()) t.push_back(alphabet[0]);
        }
        SCOPED_TRACE("case " + std::to_string(k) + ": " + std::to_string(q.size()) + " x " + std::to_string(t.size()));
        EXPECT_EQ(dpviz_distance(q, t), edlib_distance(q, t));
    }
}

// Glocal with unit costs is edlib's HW (infix) distance, negated: reads cut from random
// targets and mutated, and unrelated reads, on every backend's answer through dpviz_score.
TEST(EdlibInfix, GlocalUnitCostScoreIsMinusTheHwDistance) {
    std::mt19937 rng(7109);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    ScoringOptions unit;
    unit.match = 0;
    unit.mismatch = -1;
    unit.gaps = {1, 1};
    for (int k = 0; k < 60; ++k) {
        const std::string alphabet = k % 4 == 3 ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
        std::uniform_int_distribution<size_t> letter(0, alphabet.size() - 1);
        const int n = std::uniform_int_distribution<int>(1, k % 10 == 0 ? 4000 : 600)(rng);
        std::string t;
        for (int i = 0; i < n; ++i) t += alphabet[letter(rng)];
        const size_t begin = std::uniform_int_distribution<size_t>(0, t.size() - 1)(rng);
        const size_t len = std::uniform_int_distribution<size_t>(1, t.size() - begin)(rng);
        std::string q;
        for (const char c : t.substr(begin, len)) {
            const double x = u(rng);
            if (x < 0.03) continue;
            q += x < 0.08 ? alphabet[letter(rng)] : c;
            if (u(rng) < 0.03) q += alphabet[letter(rng)];
        }
        if (k % 5 == 4 || q.empty()) {
            q.clear();
            for (int i = std::uniform_int_distribution<int>(1, 300)(rng); i > 0; --i) q += alphabet[letter(rng)];
        }
        SCOPED_TRACE("case " + std::to_string(k) + ": " + std::to_string(q.size()) + " in " + std::to_string(t.size()));
        auto p = make_problem(Algorithm::glocal, {"q", q}, {"t", t}, unit);
        ASSERT_TRUE(p) << p.error().message;
        EXPECT_EQ(-dpviz_score(*p), edlib_distance(q, t, EDLIB_MODE_HW));
    }
}

#else

TEST(Edlib, NotInstalled) { GTEST_SKIP() << "edlib was not found at configure time (apt install libedlib-dev)"; }

#endif  // DPVIZ_HAVE_EDLIB

}  // namespace
}  // namespace dpviz::peers
