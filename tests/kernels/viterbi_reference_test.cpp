// Viterbi: the double reference on a hand-checked trellis (every cell and backpointer as a
// literal table), ties, impossible observations, output levels, the model's checks, and the
// fixed-point version against the reference on seeded random models (paths, error bound).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dpviz/hmm.hpp"
#include "kernels/hmm_test_util.hpp"

namespace dpviz {
namespace {

using hmm_test::kInf;

Hmm model(std::vector<std::string> states, std::string alphabet, std::vector<double> start,
          std::vector<double> transition, std::vector<double> emission) {
    auto m = make_hmm("test", std::move(states), std::move(alphabet), std::move(start), std::move(transition),
                      std::move(emission));
    EXPECT_TRUE(m) << m.error().message;
    return *m;
}

std::vector<uint8_t> encode(const Hmm& m, const std::string& s) {
    std::vector<uint8_t> out;
    for (const char c : s) out.push_back(static_cast<uint8_t>(m.symbol_index(c)));
    return out;
}

// ---------------------------------------------------------------------------------------------
// A hand-checked trellis
// ---------------------------------------------------------------------------------------------

// Two states A, B; symbols x, y. Dyadic probabilities, so every delta is an exact fraction.
Hmm two_state() {
    return model({"A", "B"}, "xy", {0.5, 0.5}, {0.75, 0.25, 0.125, 0.875}, {0.75, 0.25, 0.25, 0.75});
}

// The whole trellis, delta[t][j] as probabilities, with the predecessor each cell chose. No two
// candidates of a cell tie: e.g. B at t = 2 is max(27/128 * 1/4, 7/256 * 7/8) * 3/4
// = 27/512 * 3/4 = 81/2048, from A (27/512 = 108/2048 beats 49/2048); row 0 has no predecessor.
struct TrellisRow {
    double a, b;         // delta of A and of B
    int back_a, back_b;  // 0 = A, 1 = B
};
const TrellisRow kTrellis[] = {
    // A             B                  back A, B    t  observed
    {3.0 / 8,          1.0 / 8,           0, 0},  // 0  x
    {27.0 / 128,       7.0 / 256,         0, 1},  // 1  x
    {81.0 / 2048,      81.0 / 2048,       0, 0},  // 2  y
    {243.0 / 32768,    1701.0 / 65536,    0, 1},  // 3  y
    {729.0 / 524288,   35721.0 / 2097152, 0, 1},  // 4  y
};

TEST(ViterbiReference, HandCheckedTrellis) {
    const Hmm m = two_state();
    const auto obs = encode(m, "xxyyy");
    auto r = viterbi_reference(m, obs, OutputLevel::matrix);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->delta.rows, 5);
    ASSERT_EQ(r->delta.cols, 2);
    for (int t = 0; t < 5; ++t) {
        SCOPED_TRACE("t = " + std::to_string(t));
        EXPECT_NEAR(r->delta.at(t, 0), std::log(kTrellis[t].a), 1e-12);
        EXPECT_NEAR(r->delta.at(t, 1), std::log(kTrellis[t].b), 1e-12);
        EXPECT_EQ(r->back.at(t, 0), kTrellis[t].back_a);
        EXPECT_EQ(r->back.at(t, 1), kTrellis[t].back_b);
    }
    EXPECT_NEAR(r->log_probability, std::log(35721.0 / 2097152), 1e-12);
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 0, 1, 1, 1}));  // from B at t = 4, back B, B, A, A
    EXPECT_NEAR(path_log_probability(m, obs, r->path), r->log_probability, 1e-12);
}

TEST(ViterbiFixed, HandCheckedTrellis) {
    const Hmm m = two_state();
    const auto obs = encode(m, "xxyyy");
    auto q = quantize_hmm_for(m, obs.size());
    ASSERT_TRUE(q) << q.error().message;
    EXPECT_EQ(q->scale_log2, kMaxViterbiScaleLog2);  // 10 terms of at most |ln 1/8| fit easily
    EXPECT_EQ(q->start[0], std::lround(std::log(0.5) * q->scale()));
    EXPECT_EQ(q->transition[2], std::lround(std::log(0.125) * q->scale()));
    auto r = viterbi_fixed(*q, obs, OutputLevel::matrix);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 0, 1, 1, 1}));
    EXPECT_EQ(r->score, hmm_test::fixed_path_score(*q, obs, r->path));
    for (int t = 0; t < 5; ++t) {
        EXPECT_EQ(r->back.at(t, 0), kTrellis[t].back_a) << t;
        EXPECT_EQ(r->back.at(t, 1), kTrellis[t].back_b) << t;
    }
    EXPECT_LE(std::abs(r->log_probability() - std::log(35721.0 / 2097152)), viterbi_quantization_bound(*q, 5));
}

// ---------------------------------------------------------------------------------------------
// Ties, impossible observations, output levels
// ---------------------------------------------------------------------------------------------

// Every candidate below is a sum of the same doubles, so the ties are exact, not rounding luck.
Hmm tie_model() {
    return model({"A", "B"}, "xyz", {0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0.5, 0.25, 0.25, 0.5, 0.5, 0.0});
}

TEST(ViterbiReference, TiesGoToTheLowestStateIndex) {
    const Hmm m = tie_model();
    // "xy": both predecessors of B tie; B wins at the end (1/2 against 1/4): A, then B.
    auto r = viterbi_reference(m, encode(m, "xy"), OutputLevel::matrix);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->delta.at(0, 0), r->delta.at(0, 1));
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(r->back.at(1, 1), 0);
    // "xx": everything ties, the final state too.
    r = viterbi_reference(m, encode(m, "xx"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 0}));
    // Three identical states: every path has the same probability.
    const double third = 1.0 / 3;
    const Hmm same = model({"P", "Q", "R"}, "ab", {third, third, third}, std::vector<double>(9, third),
                           {0.5, 0.5, 0.5, 0.5, 0.5, 0.5});
    r = viterbi_reference(same, encode(same, "abba"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 0, 0, 0}));
}

TEST(ViterbiFixed, TiesGoToTheLowestStateIndex) {
    const Hmm m = tie_model();
    const FixedHmm q = quantize_hmm(m, 16);
    auto r = viterbi_fixed(q, encode(m, "xy"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 1}));
    r = viterbi_fixed(q, encode(m, "xxxx"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->path, (std::vector<int32_t>{0, 0, 0, 0}));
}

TEST(ViterbiReference, ImpossibleObservationsGiveMinusInfinityAndNoPath) {
    // A starts and stays A and emits x only; B emits y only: "xxy" cannot happen, "xxx" surely does.
    const Hmm stuck = model({"A", "B"}, "xy", {1.0, 0.0}, {1.0, 0.0, 0.0, 1.0}, {1.0, 0.0, 0.0, 1.0});
    for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
        auto r = viterbi_reference(stuck, encode(stuck, "xxy"), level);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->log_probability, -kInf);
        EXPECT_TRUE(r->path.empty());
        auto f = viterbi_fixed(quantize_hmm(stuck, 10), encode(stuck, "xxy"), level);
        ASSERT_TRUE(f);
        EXPECT_EQ(f->score, kNegInf);
        EXPECT_EQ(f->log_probability(), -kInf);
        EXPECT_TRUE(f->path.empty());
    }
    auto r = viterbi_reference(stuck, encode(stuck, "xxy"), OutputLevel::matrix);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->delta.at(0, 1), -kInf);  // B cannot start
    EXPECT_EQ(r->delta.at(1, 0), 0.0);    // A, A with probability 1
    EXPECT_EQ(r->delta.at(2, 0), -kInf);  // A cannot emit y
    auto sure = viterbi_reference(stuck, encode(stuck, "xxx"));
    ASSERT_TRUE(sure);
    EXPECT_EQ(sure->log_probability, 0.0);
    EXPECT_EQ(sure->path, (std::vector<int32_t>{0, 0, 0}));
    // A zero emission rules a state out: only A emits z in the tie model.
    const Hmm m = tie_model();
    auto z = viterbi_reference(m, encode(m, "xz"));
    ASSERT_TRUE(z);
    EXPECT_EQ(z->path, (std::vector<int32_t>{0, 0}));
}

TEST(ViterbiReference, OutputLevelsAgree) {
    std::mt19937_64 rng(11);
    const Hmm m = hmm_test::random_hmm(rng, 4, 3, 0.2);
    const auto obs = hmm_test::random_observations(rng, m, 50);
    auto score = viterbi_reference(m, obs, OutputLevel::score);
    auto path = viterbi_reference(m, obs, OutputLevel::path);
    auto matrix = viterbi_reference(m, obs, OutputLevel::matrix);
    ASSERT_TRUE(score && path && matrix);
    EXPECT_EQ(score->log_probability, path->log_probability);
    EXPECT_EQ(matrix->log_probability, path->log_probability);
    EXPECT_TRUE(score->path.empty());
    EXPECT_TRUE(score->delta.empty() && path->delta.empty());
    EXPECT_EQ(matrix->path, path->path);
    double last = -kInf;
    for (int j = 0; j < 4; ++j) last = std::max(last, matrix->delta.at(49, j));
    EXPECT_EQ(last, matrix->log_probability);
    for (int t = 49; t > 0; --t)  // the path follows the backpointers
        EXPECT_EQ(matrix->back.at(t, matrix->path[size_t(t)]), matrix->path[size_t(t) - 1]);
}

TEST(ViterbiReference, RefusesBadObservations) {
    const Hmm m = two_state();
    auto none = viterbi_reference(m, std::vector<uint8_t>{});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().kind, ErrorKind::input);
    auto outside = viterbi_reference(m, std::vector<uint8_t>{0, 2});
    ASSERT_FALSE(outside);
    EXPECT_NE(outside.error().message.find("observation 2"), std::string::npos) << outside.error().message;
    EXPECT_FALSE(viterbi_fixed(quantize_hmm(m, 0), std::vector<uint8_t>{}));
    EXPECT_TRUE(std::isnan(path_log_probability(m, std::vector<uint8_t>{0}, std::vector<int32_t>{2})));
}

// ---------------------------------------------------------------------------------------------
// The model's checks
// ---------------------------------------------------------------------------------------------

TEST(HmmModel, MakeHmmChecksShapesValuesAndRowSums) {
    auto bad = [](std::vector<std::string> s, std::string a, std::vector<double> st, std::vector<double> t,
                  std::vector<double> e, const std::string& part) {
        auto m = make_hmm("m", std::move(s), std::move(a), std::move(st), std::move(t), std::move(e));
        if (m) return testing::AssertionFailure() << "accepted";
        if (m.error().kind != ErrorKind::input || m.error().message.find(part) == std::string::npos)
            return testing::AssertionFailure() << m.error().message;
        return testing::AssertionSuccess();
    };
    EXPECT_TRUE(bad({}, "x", {}, {}, {}, "at least one state"));
    EXPECT_TRUE(bad({"A"}, "", {1}, {1}, {}, "at least one symbol"));
    EXPECT_TRUE(bad({"A", "A"}, "x", {1, 0}, {1, 0, 0, 1}, {1, 1}, "named twice"));
    EXPECT_TRUE(bad({"A"}, "xx", {1}, {1}, {0.5, 0.5}, "listed twice"));
    EXPECT_TRUE(bad({"A"}, "x", {0.9}, {1}, {1}, "start sums to 0.9"));
    EXPECT_TRUE(bad({"A", "B"}, "x", {1, 0}, {1, 0, 0.5, 0.4}, {1, 1}, "transition row 'B' sums to 0.9"));
    EXPECT_TRUE(bad({"A"}, "xy", {1}, {1}, {1.5, -0.5}, "emission row 'A': value 1.5"));
    EXPECT_TRUE(bad({"A"}, "x", {1}, {1, 0}, {1}, "transition: 2 values, expected 1"));
    EXPECT_TRUE(bad({"A"}, "x", {std::nan("")}, {1}, {1}, "not a probability"));
    std::vector<std::string> many(kMaxHmmStates + 1, "s");
    EXPECT_TRUE(bad(many, "x", {}, {}, {}, "at most 1024"));

    auto ok = make_hmm("m", {"A", "B"}, "x", {1, 0}, {0.5, 0.5, 0, 1}, {1, 1});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_EQ(ok->log_start[1], -kInf);
    EXPECT_EQ(ok->log_transition[0], std::log(0.5));
    EXPECT_EQ(ok->state_index("B"), 1);
    EXPECT_EQ(ok->state_index("C"), -1);
    EXPECT_EQ(ok->symbol_index('x'), 0);
    EXPECT_EQ(ok->trans(1, 1), 1.0);
}

// ---------------------------------------------------------------------------------------------
// Fixed point
// ---------------------------------------------------------------------------------------------

// The occasionally dishonest casino: the smallest probability is 0.05.
Hmm casino() {
    const double f = 1.0 / 6;
    return model({"F", "L"}, "123456", {0.5, 0.5}, {0.95, 0.05, 0.10, 0.90},
                 {f, f, f, f, f, f, 0.1, 0.1, 0.1, 0.1, 0.1, 0.5});
}

TEST(ViterbiFixed, ScaleIsTheLargestThatFits) {
    const Hmm m = casino();
    // 300 rolls: 600 terms of up to |ln 0.05| * 2^k must stay below 2^29, so 2^k < 298,685: k = 18.
    auto k = viterbi_scale_log2(m, 300);
    ASSERT_TRUE(k) << k.error().message;
    EXPECT_EQ(*k, 18);
    for (size_t T : {size_t(1), size_t(300), size_t(10'000), size_t(1'000'000), size_t(40'000'000)}) {
        auto e = viterbi_scale_log2(m, T);
        ASSERT_TRUE(e) << T;
        const FixedHmm q = quantize_hmm(m, *e);
        EXPECT_LT(2 * int64_t(T) * q.largest_magnitude(), kScoreBound) << T;
        if (*e < kMaxViterbiScaleLog2) {
            EXPECT_GE(2 * int64_t(T) * quantize_hmm(m, *e + 1).largest_magnitude(), kScoreBound) << T;
        }
    }
    auto too_long = viterbi_scale_log2(m, size_t(1) << 40);
    ASSERT_FALSE(too_long);
    EXPECT_EQ(too_long.error().kind, ErrorKind::resource);
}

TEST(ViterbiFixed, QuantizesEveryTable) {
    const Hmm m = model({"A", "B"}, "xy", {1.0, 0.0}, {0.3, 0.7, 0.0, 1.0}, {0.2, 0.8, 0.6, 0.4});
    const FixedHmm q = quantize_hmm(m, 12);
    EXPECT_EQ(q.scale(), 4096.0);
    EXPECT_EQ(q.start, (std::vector<int32_t>{0, kNegInf}));
    EXPECT_EQ(q.transition, (std::vector<int32_t>{int32_t(std::lround(std::log(0.3) * 4096)),
                                                  int32_t(std::lround(std::log(0.7) * 4096)), kNegInf, 0}));
    EXPECT_EQ(q.emission[0], -6592);  // ln 0.2 * 4096 = -6592.3
    EXPECT_EQ(q.largest_magnitude(), 6592);
}

TEST(ViterbiFixed, RefusesSequencesTooLongForTheScale) {
    const FixedHmm q = quantize_hmm(casino(), kMaxViterbiScaleLog2);
    // m = round(2.99573 * 2^20) = 3,141,254: 2T * m reaches 2^29 at T = 86.
    EXPECT_TRUE(viterbi_fixed(q, std::vector<uint8_t>(85, 0)));
    auto r = viterbi_fixed(q, std::vector<uint8_t>(86, 0));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::resource);
}

// One seeded case: the reference against the two-best Viterbi, then the fixed version at the
// automatic scale and at a coarse one (2^2, where paths may differ and the bound is loose).
struct RandomCounts {
    int cases = 0, impossible = 0, paths_compared = 0, paths_differed = 0;
};

void check_random_case(std::mt19937_64& rng, RandomCounts& counts) {
    std::uniform_int_distribution<int> states(1, 6), symbols(1, 5), length(1, 60);
    const Hmm m = hmm_test::random_hmm(rng, states(rng), symbols(rng), std::uniform_real_distribution<>(0, 0.3)(rng));
    const bool uniform = rng() % 4 == 0;
    const auto obs = hmm_test::random_observations(rng, m, size_t(length(rng)), uniform);
    const size_t T = obs.size();
    auto ref = viterbi_reference(m, obs);
    ASSERT_TRUE(ref) << ref.error().message;
    const hmm_test::TopTwo top = hmm_test::top_two(m, obs);
    ++counts.cases;
    if (top.best == -kInf) {
        ++counts.impossible;
        EXPECT_EQ(ref->log_probability, -kInf);
        EXPECT_TRUE(ref->path.empty());
    } else {
        EXPECT_NEAR(ref->log_probability, top.best, 1e-9 * std::max(1.0, std::abs(top.best)));
        ASSERT_EQ(ref->path.size(), T);
        EXPECT_NEAR(path_log_probability(m, obs, ref->path), ref->log_probability, 1e-9);
    }
    auto scale = viterbi_scale_log2(m, T);
    ASSERT_TRUE(scale);
    for (const int32_t k : {*scale, std::min(*scale, 2)}) {
        SCOPED_TRACE("scale 2^" + std::to_string(k));
        const FixedHmm q = quantize_hmm(m, k);
        auto fx = viterbi_fixed(q, obs);
        ASSERT_TRUE(fx) << fx.error().message;
        if (top.best == -kInf) {
            EXPECT_EQ(fx->score, kNegInf);
            EXPECT_TRUE(fx->path.empty());
            continue;
        }
        ASSERT_EQ(fx->path.size(), T);
        // The integer optimum is the integer sum of its own path, and no less than the sum along
        // the double optimum's path.
        EXPECT_EQ(fx->score, hmm_test::fixed_path_score(q, obs, fx->path));
        EXPECT_GE(fx->score, hmm_test::fixed_path_score(q, obs, ref->path));
        const double bound = viterbi_quantization_bound(q, T);
        EXPECT_LE(std::abs(fx->log_probability() - ref->log_probability), bound + 1e-9);
        if (top.margin() > 2 * bound) {
            ++counts.paths_compared;
            EXPECT_EQ(fx->path, ref->path);
        } else if (fx->path != ref->path) {
            ++counts.paths_differed;
        }
    }
}

TEST(ViterbiFixed, SeededRandomModelsAgreeWithTheReference) {
    std::mt19937_64 rng(20261201);
    RandomCounts counts;
    for (int k = 0; k < 400; ++k) {
        SCOPED_TRACE("case " + std::to_string(k));
        check_random_case(rng, counts);
        if (testing::Test::HasFatalFailure()) return;
    }
    // The cases exercised what they are for: possible and impossible sequences, paths compared.
    EXPECT_GT(counts.impossible, 5);
    EXPECT_LT(counts.impossible, counts.cases / 2);
    EXPECT_GT(counts.paths_compared, 300);
}

// The two-best helper the random test relies on, against every path of small cases.
TEST(ViterbiReference, TopTwoMatchesBruteForce) {
    std::mt19937_64 rng(5);
    for (int k = 0; k < 60; ++k) {
        const int S = 1 + k % 3;
        const Hmm m = hmm_test::random_hmm(rng, S, 2, 0.2);
        const auto obs = hmm_test::random_observations(rng, m, size_t(1 + k % 6), k % 3 == 0);
        hmm_test::TopTwo brute;
        std::vector<int32_t> path(obs.size(), 0);
        for (;;) {
            brute.offer(path_log_probability(m, obs, path));
            size_t i = 0;
            while (i < path.size() && ++path[i] == S) path[i++] = 0;
            if (i == path.size()) break;
        }
        const hmm_test::TopTwo fast = hmm_test::top_two(m, obs);
        auto ref = viterbi_reference(m, obs);
        ASSERT_TRUE(ref);
        const double values[][2] = {{fast.best, brute.best}, {fast.second, brute.second},
                                    {ref->log_probability, brute.best}};
        for (const auto& [got, want] : values) {
            if (want == -kInf) EXPECT_EQ(got, -kInf) << k;
            else EXPECT_NEAR(got, want, 1e-12) << k;
        }
    }
}

}  // namespace
}  // namespace dpviz
