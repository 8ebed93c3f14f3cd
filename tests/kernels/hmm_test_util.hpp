// Shared by the Viterbi tests (kernels, app, peers): seeded random models and observations, the
// Problem of a model and symbols, the whole trellis, and the best and second-best path
// log-probabilities, whose gap says whether an optimum is unique.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/types.hpp"

namespace dpviz::hmm_test {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// One row of random probabilities: a share `zeros` of them 0 (at least one stays non-zero),
// the others uniform draws, normalised.
inline std::vector<double> random_row(std::mt19937_64& rng, size_t n, double zeros) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> row(n);
    double sum = 0.0;
    for (double& p : row) sum += (p = u(rng) < zeros ? 0.0 : 0.01 + u(rng));
    if (sum == 0.0) sum = row[std::uniform_int_distribution<size_t>(0, n - 1)(rng)] = 1.0;
    for (double& p : row) p /= sum;
    return row;
}

// A random model of S states (named S0, S1, ...) over the first K of "abcdefghij...".
inline Hmm random_hmm(std::mt19937_64& rng, int S, int K, double zeros) {
    static const std::string kSymbols = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::vector<std::string> names;
    std::vector<double> start = random_row(rng, size_t(S), zeros), transition, emission;
    for (int k = 0; k < S; ++k) {
        names.push_back(std::string(1, 'S').append(std::to_string(k)));
        const auto t = random_row(rng, size_t(S), zeros), e = random_row(rng, size_t(K), zeros);
        transition.insert(transition.end(), t.begin(), t.end());
        emission.insert(emission.end(), e.begin(), e.end());
    }
    auto m = make_hmm("random", names, kSymbols.substr(0, size_t(K)), start, transition, emission);
    if (!m) throw std::runtime_error("random_hmm: " + m.error().message);
    return *m;
}

// Observations drawn from the model itself (so they are possible), or, with `uniform`, symbols
// drawn uniformly (which a model with zeros may make impossible).
inline std::vector<uint8_t> random_observations(std::mt19937_64& rng, const Hmm& m, size_t T, bool uniform = false) {
    auto draw = [&](const double* p, size_t n) {
        std::discrete_distribution<size_t> d(p, p + n);
        return d(rng);
    };
    std::vector<uint8_t> obs(T);
    const size_t S = m.states.size(), K = m.alphabet.size();
    size_t state = draw(m.start.data(), S);
    for (size_t t = 0; t < T; ++t) {
        obs[t] = uniform ? uint8_t(std::uniform_int_distribution<size_t>(0, K - 1)(rng))
                         : uint8_t(draw(m.emission.data() + state * K, K));
        state = draw(m.transition.data() + state * S, S);
    }
    return obs;
}

// The two largest path log-probabilities (distinct paths; equal values mean a tie), by a Viterbi
// that keeps the best two per cell. Either is -infinity when there are fewer possible paths.
struct TopTwo {
    double best = -kInf, second = -kInf;
    void offer(double v) {
        if (v > best) {
            second = best;
            best = v;
        } else if (v > second) {
            second = v;
        }
    }
    double margin() const { return best == -kInf ? 0.0 : best - second; }  // +infinity: one path
};

inline TopTwo top_two(const Hmm& m, std::span<const uint8_t> obs) {
    const size_t S = m.states.size(), K = m.alphabet.size();
    std::vector<TopTwo> prev(S), cur(S);
    for (size_t j = 0; j < S; ++j) cur[j].offer(m.log_start[j] + m.log_emission[j * K + obs[0]]);
    for (size_t t = 1; t < obs.size(); ++t) {
        std::swap(prev, cur);
        for (size_t j = 0; j < S; ++j) {
            cur[j] = TopTwo{};
            const double e = m.log_emission[j * K + obs[t]];
            for (size_t i = 0; i < S; ++i) {
                cur[j].offer(prev[i].best + m.log_transition[i * S + j] + e);
                cur[j].offer(prev[i].second + m.log_transition[i * S + j] + e);
            }
        }
    }
    TopTwo all;
    for (const TopTwo& c : cur) {
        all.offer(c.best);
        all.offer(c.second);
    }
    return all;
}

// The Problem of a model and symbols, as the CLI builds it (symbols are their own names here).
inline Problem viterbi_problem(const Hmm& m, const std::vector<uint8_t>& codes) {
    std::string symbols;
    for (const uint8_t c : codes) symbols += m.alphabet[c];
    auto p = make_viterbi_problem(std::make_shared<const Hmm>(m), {"obs", symbols}, codes);
    if (!p) throw std::runtime_error("viterbi_problem: " + p.error().message);
    return *p;
}

// The whole trellis on the CPU at level matrix: H and the backpointers every view reads.
inline DpResult whole_trellis(const Problem& p) {
    AlignOptions opt;
    opt.backend = Backend::cpu;
    opt.level = OutputLevel::matrix;
    auto r = align(p, opt);
    if (!r) throw std::runtime_error("whole_trellis: " + r.error().message);
    if (r->H.empty() || r->back.empty()) throw std::runtime_error("whole_trellis: no H or backpointers");
    return *r;
}

// The sum of a path's quantized terms, in int64 (no overflow whatever the path); INT64_MIN
// when the path is impossible.
inline int64_t fixed_path_score(const FixedHmm& m, std::span<const uint8_t> obs, std::span<const int32_t> path) {
    const size_t S = size_t(m.states), K = size_t(m.symbols);
    std::vector<int32_t> terms = {m.start[size_t(path[0])], m.emission[size_t(path[0]) * K + obs[0]]};
    for (size_t t = 1; t < obs.size(); ++t) {
        terms.push_back(m.transition[size_t(path[t - 1]) * S + size_t(path[t])]);
        terms.push_back(m.emission[size_t(path[t]) * K + obs[t]]);
    }
    int64_t sum = 0;
    for (const int32_t q : terms) {
        if (q == kNegInf) return std::numeric_limits<int64_t>::min();
        sum += q;
    }
    return sum;
}

}  // namespace dpviz::hmm_test
