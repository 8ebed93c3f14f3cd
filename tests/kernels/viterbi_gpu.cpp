// Viterbi on the GPU (kernels/cuda/viterbi.cu), DPX and DPX-free, against the CPU backends at
// every output level: the casino model, seeded random models of 1 to 1024 states with
// impossible starts, transitions and emissions, all-tie models, and impossible observations.
// Skips cleanly without a usable device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"
#include "kernels/hmm_test_util.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

constexpr OutputLevel kLevels[] = {OutputLevel::score, OutputLevel::path, OutputLevel::matrix};
constexpr Backend kGpuBackends[] = {Backend::cuda, Backend::cuda_portable};

// DPVIZ_GPU_TEST_QUICK=1 (the compute-sanitizer runs): small models and short sequences only.
using test::quick;

Hmm model(std::string name, std::vector<std::string> states, std::string alphabet, std::vector<double> start,
          std::vector<double> transition, std::vector<double> emission) {
    auto m = make_hmm(std::move(name), std::move(states), std::move(alphabet), std::move(start), std::move(transition),
                      std::move(emission));
    if (!m) throw std::runtime_error("make_hmm: " + m.error().message);
    return *m;
}

// What a backend run at `level` keeps of the reference's (level matrix) result.
DpResult trimmed(DpResult r, OutputLevel level) {
    r.level = level;
    if (level != OutputLevel::matrix) r.H = {};
    if (level == OutputLevel::score) {
        r.back = {};
        r.path.clear();
    }
    return r;
}

bool same_double(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void expect_same_trellis(const DpResult& want, const DpResult& got, OutputLevel level, const std::string& where) {
    SCOPED_TRACE(where + " level " + test::level_name(level));
    EXPECT_EQ(got.level, level);
    EXPECT_EQ(got.algo, Algorithm::viterbi);
    EXPECT_EQ(got.cells, want.cells);
    EXPECT_EQ(got.score, want.score);
    EXPECT_EQ(got.end, want.end) << "end (" << got.end.i << "," << got.end.j << "), want (" << want.end.i << ","
                                 << want.end.j << ")";
    EXPECT_EQ(test::first_difference(got.H, want.H), "") << "H";
    EXPECT_EQ(test::first_difference(got.back, want.back), "") << "back";
    EXPECT_TRUE(got.path == want.path) << "path of " << got.path.size() << " cells, want " << want.path.size();
    EXPECT_TRUE(same_double(got.log_probability, want.log_probability))
        << got.log_probability << ", want " << want.log_probability;
    EXPECT_TRUE(same_double(got.log_probability_reference, want.log_probability_reference))
        << got.log_probability_reference << ", want " << want.log_probability_reference;
    EXPECT_TRUE(got.dirs.empty());
    EXPECT_GE(got.fill_ms, 0.0);
}

// The GPU's result through align() (which must not fall back to the CPU). align() turns an
// impossible decoding into an input error, so for those the trellis comes from align_gpu.
DpResult on_gpu(const Problem& p, Backend b, OutputLevel level, bool impossible) {
    AlignOptions opt;
    opt.backend = b;
    opt.level = level;
    auto r = align(p, opt);
    if (!impossible) {
        if (!r) {
            ADD_FAILURE() << backend_name(b) << ": " << r.error().message;
            return {};
        }
        EXPECT_EQ(r->fallback, "") << "the GPU did not run";
        return *r;
    }
    EXPECT_FALSE(r) << "align() on impossible observations returned a result";
    if (!r) {
        EXPECT_EQ(r.error().kind, ErrorKind::input) << r.error().message;
    }
    auto g = align_gpu(p, level, b == Backend::cuda);
    if (!g) {
        ADD_FAILURE() << backend_name(b) << ": " << g.error().message;
        return {};
    }
    return *g;
}

// Decodes `obs` under `m` on both GPU backends at every level and compares every field with
// align_cpu at the same level and with align_reference.
void check(const Hmm& m, std::vector<uint8_t> obs, const std::string& what, bool expect_impossible = false) {
    SCOPED_TRACE(what + " (" + std::to_string(m.num_states()) + " states, " + std::to_string(m.num_symbols()) +
                 " symbols, " + std::to_string(obs.size()) + " observations)");
    std::string symbols;
    for (const uint8_t c : obs) symbols += m.alphabet[c];
    auto p = make_viterbi_problem(std::make_shared<const Hmm>(m), SequenceInput{what, symbols}, std::move(obs));
    ASSERT_TRUE(p) << p.error().message;
    auto ref = align_reference(*p, RunControl{});
    ASSERT_TRUE(ref) << ref.error().message;
    const bool impossible = ref->score == kNegInf;
    if (expect_impossible) {
        EXPECT_TRUE(impossible) << "the test case is not impossible";
        EXPECT_EQ(ref->log_probability, -hmm_test::kInf);
    }
    for (const OutputLevel level : kLevels) {
        auto cpu = align_cpu(*p, level, 1, RunControl{});
        ASSERT_TRUE(cpu) << cpu.error().message;
        for (const Backend b : kGpuBackends) {
            const DpResult got = on_gpu(*p, b, level, impossible);
            EXPECT_EQ(got.backend, b);
            expect_same_trellis(*cpu, got, level, std::string(backend_name(b)) + " against cpu");
            expect_same_trellis(trimmed(*ref, level), got, level, std::string(backend_name(b)) + " against cpu-reference");
            if (impossible) {
                EXPECT_TRUE(got.path.empty());
            }
        }
    }
}

// The model of assets/examples/casino.hmm (Durbin et al.: a fair die and a loaded one).
Hmm casino() {
    return model("casino.hmm", {"F", "L"}, "123456", {0.5, 0.5}, {0.95, 0.05, 0.10, 0.90},
                 {1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 0.1, 0.1, 0.1, 0.1, 0.1, 0.5});
}

std::string assets_dir() {
#ifdef DPVIZ_ASSETS
    return DPVIZ_ASSETS;
#else
    const std::string here = __FILE__;  // .../tests/kernels/viterbi_gpu.cpp
    return here.substr(0, here.rfind("/tests/")) + "/assets";
#endif
}

// The rolls of assets/examples/casino_rolls.txt: every character that is not a blank, outside
// '#' comments, as symbol indices.
std::vector<uint8_t> casino_rolls(const Hmm& m) {
    std::ifstream f(assets_dir() + "/examples/casino_rolls.txt");
    std::vector<uint8_t> obs;
    std::string line;
    while (std::getline(f, line)) {
        for (const char c : line.substr(0, line.find('#'))) {
            if (c == ' ' || c == '\t' || c == '\r') continue;
            const int k = m.symbol_index(c);
            if (k < 0) throw std::runtime_error(std::string("casino_rolls.txt: symbol '") + c + "'");
            obs.push_back(uint8_t(k));
        }
    }
    return obs;
}

// A model whose last symbol no state emits: observations with it anywhere are impossible.
Hmm never_emits_last(std::mt19937_64& rng, int S, int K) {
    const Hmm base = hmm_test::random_hmm(rng, S, K - 1, 0.2);
    std::vector<double> emission;
    for (int s = 0; s < S; ++s) {
        emission.insert(emission.end(), base.emission.begin() + ptrdiff_t(s) * (K - 1),
                        base.emission.begin() + ptrdiff_t(s + 1) * (K - 1));
        emission.push_back(0.0);
    }
    std::string alphabet = base.alphabet + "#";
    return model("silent-symbol", base.states, alphabet, base.start, base.transition, emission);
}

// S identical states: every predecessor of every cell ties, and so do the final states.
Hmm identical_states(int S) {
    std::vector<std::string> names;
    for (int k = 0; k < S; ++k) names.push_back("S" + std::to_string(k));
    const double u = 1.0 / S;
    return model("identical", names, "ab", std::vector<double>(size_t(S), u), std::vector<double>(size_t(S) * S, u),
                 [&] {
                     std::vector<double> e;
                     for (int k = 0; k < S; ++k) e.insert(e.end(), {0.25, 0.75});
                     return e;
                 }());
}

}  // namespace

TEST(ViterbiGpu, CasinoRollsEveryLevel) {
    DPVIZ_REQUIRE_GPU();
    const Hmm m = casino();
    const std::vector<uint8_t> rolls = casino_rolls(m);
    ASSERT_EQ(rolls.size(), 300u) << "assets/examples/casino_rolls.txt";
    check(m, rolls, "casino_rolls.txt");
    if (quick()) return;
    // The rolls seven times over (2100 observations: a coarser fixed-point scale).
    std::vector<uint8_t> longer;
    for (int k = 0; k < 7; ++k) longer.insert(longer.end(), rolls.begin(), rolls.end());
    check(m, longer, "casino_rolls.txt x 7");
}

TEST(ViterbiGpu, SmallModelsEveryLevel) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937_64 rng(1998);
    for (const int S : {1, 2, 3, 31, 32, 33}) {
        for (const size_t T : {size_t(1), size_t(2), size_t(3), size_t(40)}) {
            const int K = 1 + int(rng() % 20);
            const double zeros = (T + size_t(S)) % 3 == 0 ? 0.0 : 0.3;
            const Hmm m = hmm_test::random_hmm(rng, S, K, zeros);
            check(m, hmm_test::random_observations(rng, m, T, T % 2 == 1), "small random");
            if (HasFatalFailure()) return;
        }
    }
}

TEST(ViterbiGpu, RandomModelsUpTo1024States) {
    DPVIZ_REQUIRE_GPU();
    if (quick()) GTEST_SKIP() << "DPVIZ_GPU_TEST_QUICK";
    std::mt19937_64 rng(20260);
    // Sequence lengths per model size: the CPU reference and the double-precision optimum that
    // every result carries cost S * S * T each, so the large models decode shorter sequences.
    const std::vector<std::pair<int, std::vector<size_t>>> shapes = {
        {1, {1, 2000}},         {2, {1, 7, 2000}},  {3, {2, 1999}},       {31, {1, 300, 2000}},
        {32, {2, 1024, 2000}},  {33, {1, 2000}},    {64, {3, 777, 2000}}, {257, {1, 2, 600}},
        {1024, {1, 2, 120}},
    };
    int n = 0;
    for (const auto& [S, lengths] : shapes)
        for (const size_t T : lengths) {
            const int K = 1 + int(rng() % 20);
            const double zeros = n % 3 == 0 ? 0.0 : n % 3 == 1 ? 0.2 : 0.5;
            const Hmm m = hmm_test::random_hmm(rng, S, K, zeros);
            // Mostly observations the model can emit; every fourth uniform (often impossible
            // where the model has zeros).
            check(m, hmm_test::random_observations(rng, m, T, n % 4 == 3), "random #" + std::to_string(n));
            ++n;
            if (HasFatalFailure()) return;
        }
}

TEST(ViterbiGpu, TiesGoToTheLowestState) {
    DPVIZ_REQUIRE_GPU();
    std::mt19937_64 rng(7);
    for (const int S : {2, 33, 64, quick() ? 64 : 1024}) {
        const Hmm m = identical_states(S);
        check(m, hmm_test::random_observations(rng, m, quick() ? 30 : 200, true), "identical states");
        if (HasFatalFailure()) return;
    }
}

TEST(ViterbiGpu, ImpossibleObservations) {
    DPVIZ_REQUIRE_GPU();
    // A starts and stays A and emits x only; B emits y only: "xxy" cannot happen.
    const Hmm stuck = model("stuck", {"A", "B"}, "xy", {1.0, 0.0}, {1.0, 0.0, 0.0, 1.0}, {1.0, 0.0, 0.0, 1.0});
    check(stuck, {0, 0, 1}, "stuck xxy", true);
    check(stuck, {1}, "stuck y", true);  // impossible in column 0 already
    check(stuck, {0, 0, 0}, "stuck xxx");
    // A symbol no state emits, at the start, in the middle and at the end.
    std::mt19937_64 rng(42);
    for (const int S : {3, 33, quick() ? 33 : 257}) {
        const Hmm m = never_emits_last(rng, S, 5);
        const uint8_t silent = uint8_t(m.num_symbols() - 1);
        const size_t T = quick() ? 20 : 300;
        for (const size_t at : {size_t(0), T / 2, T - 1}) {
            std::vector<uint8_t> obs = hmm_test::random_observations(rng, m, T);
            obs[at] = silent;
            check(m, obs, "silent symbol at " + std::to_string(at), true);
            if (HasFatalFailure()) return;
        }
    }
}
