// Viterbi through the engine: the written-out trellises of viterbi_tables.inc (an independent
// Python implementation), the fast CPU fill against the fixed-point reference on seeded random
// models, and the layout of a trellis in the DP grid that every view and export reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/store.hpp"
#include "hmm_test_util.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {
namespace {

using Table = std::vector<std::vector<int64_t>>;
using hmm_test::viterbi_problem;

struct TrellisFixture {
    const char* name;
    std::vector<std::string> states;
    std::string alphabet;
    std::vector<double> start, transition, emission;
    std::string observations;
    int32_t scale_log2;
    int32_t score;
    std::vector<int32_t> path;  // 1-based rows, one per observation
    Table H, back;
};

TrellisFixture make(const char* name, std::vector<std::string> states, std::string alphabet, std::vector<double> start,
                    std::vector<double> transition, std::vector<double> emission, std::string obs, int32_t scale,
                    int32_t score, std::vector<int32_t> path, Table H, Table back) {
    return {name, std::move(states), std::move(alphabet), std::move(start), std::move(transition), std::move(emission),
            std::move(obs), scale, score, std::move(path), std::move(H), std::move(back)};
}

const std::vector<TrellisFixture>& fixtures() {
    static const std::vector<TrellisFixture> all = {
#include "viterbi_tables.inc"
    };
    return all;
}

Problem fixture_problem(const TrellisFixture& f) {
    auto m = make_hmm(f.name, f.states, f.alphabet, f.start, f.transition, f.emission);
    EXPECT_TRUE(m) << m.error().message;
    std::vector<uint8_t> codes;
    for (const char c : f.observations) codes.push_back(uint8_t(f.alphabet.find(c)));
    return viterbi_problem(*m, codes);
}

template <class T>
void expect_table(const Grid<T>& g, const Table& want, const std::string& what) {
    ASSERT_EQ(size_t(g.rows), want.size()) << what;
    for (int32_t i = 0; i < g.rows; ++i) {
        ASSERT_EQ(size_t(g.cols), want[size_t(i)].size()) << what;
        for (int32_t j = 0; j < g.cols; ++j)
            ASSERT_EQ(int64_t(g.at(i, j)), want[size_t(i)][size_t(j)]) << what << " at (" << i << "," << j << ")";
    }
}

class ViterbiFixtureTest : public ::testing::TestWithParam<std::tuple<size_t, Backend>> {};

TEST_P(ViterbiFixtureTest, BackendMatchesTheWrittenOutTrellis) {
    const auto [index, backend] = GetParam();
    const TrellisFixture& f = fixtures()[index];
    SCOPED_TRACE(f.name);
    const Problem p = fixture_problem(f);
    EXPECT_EQ(p.hmm_fixed->scale_log2, f.scale_log2);  // the scale rule, spelled out twice
    AlignOptions opt;
    opt.backend = backend;
    opt.level = OutputLevel::matrix;
    auto r = align(p, opt);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->score, f.score);
    expect_table(r->H, f.H, "H");
    expect_table(r->back, f.back, "back");
    ASSERT_EQ(r->path.size(), f.path.size() + 1);
    EXPECT_EQ(r->path.front(), (Cell{0, 0}));
    for (size_t t = 0; t < f.path.size(); ++t) EXPECT_EQ(r->path[t + 1], (Cell{f.path[t], int32_t(t + 1)}));
    EXPECT_EQ(r->end, (Cell{f.path.back(), int32_t(f.path.size())}));
}

INSTANTIATE_TEST_SUITE_P(Tables, ViterbiFixtureTest,
                         ::testing::Combine(::testing::Range<size_t>(0, fixtures().size()),
                                            ::testing::Values(Backend::cpu_reference, Backend::cpu)),
                         [](const auto& info) {
                             return std::string(fixtures()[std::get<0>(info.param)].name) + "_" +
                                    (std::get<1>(info.param) == Backend::cpu ? "cpu" : "reference");
                         });

// The fixtures hold what they are for: a tie in every cell, and impossible moves.
TEST(ViterbiFixtures, CoverTiesAndImpossibleMoves) {
    bool ties = false, impossible_inside = false;
    for (const TrellisFixture& f : fixtures()) {
        const std::string name = f.name;
        ties |= name.find("ties") != std::string::npos &&
                std::all_of(f.path.begin(), f.path.end(), [](int32_t s) { return s == 1; });
        for (size_t i = 1; i < f.H.size(); ++i)
            for (size_t j = 1; j < f.H[i].size(); ++j) impossible_inside |= f.H[i][j] == kNegInf;
    }
    EXPECT_TRUE(ties);
    EXPECT_TRUE(impossible_inside);
}

void expect_same_fixed(const ViterbiFixedResult& a, const ViterbiFixedResult& b) {
    EXPECT_EQ(a.score, b.score);
    EXPECT_EQ(a.last_state, b.last_state);
    EXPECT_EQ(a.path, b.path);
    EXPECT_EQ(a.delta.rows, b.delta.rows);
    EXPECT_EQ(a.delta.data, b.delta.data);
    EXPECT_EQ(a.back.rows, b.back.rows);
    EXPECT_EQ(a.back.data, b.back.data);
}

TEST(ViterbiFast, SeededRandomModelsEqualTheFixedPointReference) {
    std::mt19937_64 rng(1998);
    int impossible = 0, cases = 0;
    for (const int S : {1, 2, 3, 5, 8, 17, 64, 130}) {
        for (int rep = 0; rep < 12; ++rep) {
            const int K = std::uniform_int_distribution<int>(1, 12)(rng);
            const double zeros = std::uniform_real_distribution<double>(0.0, 0.6)(rng);
            const Hmm m = hmm_test::random_hmm(rng, S, K, zeros);
            const size_t T = std::uniform_int_distribution<size_t>(1, S > 64 ? 60 : 400)(rng);
            const auto obs = hmm_test::random_observations(rng, m, T, rep % 3 == 0);
            auto fixed = quantize_hmm_for(m, T);
            ASSERT_TRUE(fixed);
            SCOPED_TRACE("S " + std::to_string(S) + " K " + std::to_string(K) + " T " + std::to_string(T));
            for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
                auto ref = viterbi_fixed(*fixed, obs, level);
                ASSERT_TRUE(ref);
                auto fast = viterbi_fill_fast(*fixed, obs, level);
                ASSERT_TRUE(fast);
                expect_same_fixed(*fast, *ref);
            }
            ++cases;
            impossible += viterbi_fixed(*fixed, obs, OutputLevel::score)->score == kNegInf;
        }
    }
    EXPECT_GT(impossible, 3);
    EXPECT_LT(impossible, cases / 2);
}

// The path in linear memory (delta of every K-th column, segments recomputed) is the path of the
// backpointer grid, for every segment length, ties and impossible moves included.
TEST(ViterbiFast, CheckpointedTracebackEqualsTheBackpointerPath) {
    std::mt19937_64 rng(404);
    int checked = 0;
    for (const int S : {1, 2, 5, 17, 64}) {
        for (int rep = 0; rep < 10; ++rep) {
            const Hmm m = hmm_test::random_hmm(rng, S, 4, 0.3);
            const size_t T = std::uniform_int_distribution<size_t>(1, 300)(rng);
            const auto obs = hmm_test::random_observations(rng, m, T, rep % 2 == 0);
            const Problem p = viterbi_problem(m, obs);
            const FixedHmm* fixed = p.hmm_fixed.get();
            auto ref = viterbi_fixed(*fixed, obs, OutputLevel::path);
            ASSERT_TRUE(ref);
            if (ref->score == kNegInf) continue;
            for (const int32_t every : {1, 2, 7, 64, 1000}) {
                SCOPED_TRACE("S " + std::to_string(S) + " T " + std::to_string(T) + " every " + std::to_string(every));
                Checkpoints columns = make_checkpoints(p, every);
                auto kept = viterbi_fill_fast(*fixed, obs, OutputLevel::score, {}, &columns);
                ASSERT_TRUE(kept);
                EXPECT_EQ(columns.col_lines(), int32_t(T) / every);
                EXPECT_EQ(kept->score, ref->score);
                EXPECT_EQ(viterbi_traceback_checkpoints(*fixed, obs, columns, kept->last_state), ref->path);
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 100);
}

// The engine takes that path for a trellis whose backpointers would be big, or when asked.
TEST(ViterbiEngine, PathOverCheckpointsEqualsTheGridPath) {
    std::mt19937_64 rng(12);
    const Hmm m = hmm_test::random_hmm(rng, 9, 5, 0.2);
    const auto obs = hmm_test::random_observations(rng, m, 3000);
    const Problem p = viterbi_problem(m, obs);
    AlignOptions bits;
    bits.backend = Backend::cpu;
    bits.path_memory = PathMemory::direction_bits;
    auto want = align(p, bits);
    AlignOptions store = bits;
    store.path_memory = PathMemory::checkpoints;
    store.checkpoint_spacing = 100;
    auto got = align(p, store);
    ASSERT_TRUE(want && got);
    EXPECT_FALSE(want->back.empty());
    EXPECT_TRUE(got->back.empty());
    EXPECT_EQ(got->score, want->score);
    EXPECT_EQ(got->end, want->end);
    EXPECT_EQ(got->path, want->path);
    // Too big for a backpointer grid: the checkpoints, in their memory.
    AlignOptions tight = bits;
    tight.path_memory = PathMemory::automatic;
    tight.memory_limit = estimate_host_bytes(p, OutputLevel::path) - 1;
    auto small = align(p, tight);
    ASSERT_TRUE(small) << small.error().message;
    EXPECT_TRUE(small->back.empty());
    EXPECT_EQ(small->path, want->path);
}

// What every view reads: row 0 the begin state, column 0 the time before the first observation,
// the path one cell per column from the corner, `back` its predecessors, the score at its end.
TEST(ViterbiGrid, TheTrellisLiesInTheGridAsDocumented) {
    std::mt19937_64 rng(7);
    for (int rep = 0; rep < 20; ++rep) {
        const int S = std::uniform_int_distribution<int>(1, 9)(rng);
        const Hmm m = hmm_test::random_hmm(rng, S, 4, 0.3);
        const auto obs = hmm_test::random_observations(rng, m, std::uniform_int_distribution<size_t>(1, 80)(rng));
        const Problem p = viterbi_problem(m, obs);
        ASSERT_EQ(p.rows(), S);
        ASSERT_EQ(p.cols(), int(obs.size()));
        AlignOptions opt;
        opt.backend = Backend::cpu;
        opt.level = OutputLevel::matrix;
        auto r = align(p, opt);
        ASSERT_TRUE(r) << r.error().message;
        auto ref = viterbi_fixed(*p.hmm_fixed, obs, OutputLevel::matrix);
        ASSERT_TRUE(ref);
        ASSERT_EQ(r->H.rows, S + 1);
        ASSERT_EQ(r->H.cols, int(obs.size()) + 1);
        EXPECT_EQ(r->H.at(0, 0), 0);
        for (int32_t t = 1; t <= p.cols(); ++t) EXPECT_EQ(r->H.at(0, t), kNegInf);
        for (int32_t s = 1; s <= S; ++s) EXPECT_EQ(r->H.at(s, 0), kNegInf);
        for (int32_t s = 1; s <= S; ++s)
            for (int32_t t = 1; t <= p.cols(); ++t) ASSERT_EQ(r->H.at(s, t), ref->delta.at(t - 1, s - 1));
        ASSERT_EQ(r->path.size(), obs.size() + 1);
        EXPECT_EQ(r->path.front(), (Cell{0, 0}));
        for (size_t k = 1; k < r->path.size(); ++k) {
            EXPECT_EQ(r->path[k].j, int32_t(k));
            if (k > 1) {
                EXPECT_EQ(r->back.at(r->path[k].i, r->path[k].j), r->path[k - 1].i);
            }
        }
        EXPECT_EQ(r->end, r->path.back());
        EXPECT_EQ(r->score, r->H.at(r->end.i, r->end.j));
        EXPECT_TRUE(r->dirs.empty());
        // The reported log probability is the score's, and within the quantization bound of the
        // double-precision optimum.
        EXPECT_DOUBLE_EQ(r->log_probability, std::ldexp(double(r->score), -p.hmm_fixed->scale_log2));
        EXPECT_LE(std::abs(r->log_probability - r->log_probability_reference),
                  viterbi_quantization_bound(*p.hmm_fixed, obs.size()));
        // The decoded path's own probability is the optimum (it is an optimal path).
        std::vector<int32_t> states;
        for (size_t k = 1; k < r->path.size(); ++k) states.push_back(r->path[k].i - 1);
        EXPECT_EQ(hmm_test::fixed_path_score(*p.hmm_fixed, obs, states), r->score);
    }
}

TEST(ViterbiGrid, EveryLevelAndCpuBackendAgree) {
    std::mt19937_64 rng(11);
    for (int rep = 0; rep < 10; ++rep) {
        const Hmm m = hmm_test::random_hmm(rng, 6, 5, 0.2);
        const auto obs = hmm_test::random_observations(rng, m, 200);
        const Problem p = viterbi_problem(m, obs);
        AlignOptions full;
        full.backend = Backend::cpu_reference;
        auto want = align(p, full);
        ASSERT_TRUE(want);
        for (const Backend b : {Backend::cpu, Backend::cpu_reference})
            for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
                AlignOptions opt;
                opt.backend = b;
                opt.level = level;
                auto r = align(p, opt);
                ASSERT_TRUE(r);
                EXPECT_EQ(r->score, want->score);
                EXPECT_EQ(r->end, want->end);
                if (r->level != OutputLevel::score) {
                    EXPECT_EQ(r->path, want->path);
                    EXPECT_EQ(r->back.data, want->back.data);
                }
                if (r->level == OutputLevel::matrix) {
                    EXPECT_EQ(r->H.data, want->H.data);
                }
            }
    }
}

TEST(ViterbiEngine, ImpossibleObservationsAreAnInputError) {
    // 'b' is never emitted by the only state.
    auto m = make_hmm("one", {"A"}, "ab", {1.0}, {1.0}, {1.0, 0.0});
    ASSERT_TRUE(m);
    const Problem p = viterbi_problem(*m, {0, 1, 0});
    for (const Backend b : {Backend::cpu, Backend::cpu_reference}) {
        AlignOptions opt;
        opt.backend = b;
        auto r = align(p, opt);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().kind, ErrorKind::input);
        EXPECT_NE(r.error().message.find("impossible"), std::string::npos) << r.error().message;
    }
}

TEST(ViterbiEngine, MakeViterbiProblemRefusesBadObservations) {
    auto m = make_hmm("two", {"A", "B"}, "xy", {0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5});
    ASSERT_TRUE(m);
    const auto model = std::make_shared<const Hmm>(*m);
    auto empty = make_viterbi_problem(model, {"obs", ""}, {});
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().kind, ErrorKind::input);
    auto outside = make_viterbi_problem(model, {"obs", "xz"}, {0, 2});
    ASSERT_FALSE(outside);
    EXPECT_EQ(outside.error().kind, ErrorKind::input);
    EXPECT_NE(outside.error().message.find("position 2"), std::string::npos) << outside.error().message;
}

// The fast fill reports progress while it runs and stops when cancelled.
TEST(ViterbiFast, ReportsProgressAndStopsWhenCancelled) {
    std::mt19937_64 rng(3);
    const Hmm m = hmm_test::random_hmm(rng, 64, 4, 0.0);
    const auto obs = hmm_test::random_observations(rng, m, 20000);
    auto fixed = quantize_hmm_for(m, obs.size());
    ASSERT_TRUE(fixed);
    std::vector<double> seen;
    RunControl progress;
    progress.progress = [&](double f) { seen.push_back(f); };
    ASSERT_TRUE(viterbi_fill_fast(*fixed, obs, OutputLevel::score, progress));
    ASSERT_GT(seen.size(), 5u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_GT(seen.front(), 0.0);
    EXPECT_LT(seen.back(), 1.0);

    std::atomic<bool> stop{false};
    RunControl cancel;
    cancel.cancel = &stop;
    cancel.progress = [&](double f) {
        if (f > 0.3) stop = true;
    };
    auto r = viterbi_fill_fast(*fixed, obs, OutputLevel::path, cancel);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::cancelled);
}

// The colorbar's and the views' labels: Viterbi values as ln p, scores in the user's units.
TEST(ViterbiGrid, ValueTextIsLnPAndScoresInTheUsersUnits) {
    auto m = make_hmm("two", {"A", "B"}, "xy", {0.5, 0.5}, {0.9, 0.1, 0.2, 0.8}, {0.7, 0.3, 0.4, 0.6});
    ASSERT_TRUE(m);
    const Problem p = viterbi_problem(*m, {0, 1, 1});
    AlignOptions opt;
    opt.backend = Backend::cpu;
    auto r = align(p, opt);
    ASSERT_TRUE(r);
    char want[48];
    std::snprintf(want, sizeof want, "%.6g", r->log_probability);
    EXPECT_EQ(value_text(p, r->score), want);
    EXPECT_EQ(value_text(p, kNegInf), "-inf");
    ScoringOptions s;
    s.score_scale = 2;  // gaps in halves
    s.gaps = {21, 1};
    auto q = make_problem(Algorithm::global, {"q", "ACGT"}, {"t", "ACGA"}, s);
    ASSERT_TRUE(q) << q.error().message;
    EXPECT_EQ(value_text(*q, 21), "10.5");
    EXPECT_EQ(value_text(*q, -4), "-2");
}

}  // namespace
}  // namespace dpviz
