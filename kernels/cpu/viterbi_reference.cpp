// Viterbi decoding of a hidden Markov model: the model's checks, the double-precision reference
// and the int32 fixed-point version, one recurrence for both (templated on the score type).
//
// Index of this file
// [SECTION] The model
// [SECTION] The recurrence (double and int32)
// [SECTION] Double precision
// [SECTION] Fixed point

#include "dpviz/hmm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace dpviz {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string show_value(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The model
// ---------------------------------------------------------------------------------------------

int Hmm::state_index(std::string_view n) const {
    for (size_t k = 0; k < states.size(); ++k)
        if (states[k] == n) return static_cast<int>(k);
    return -1;
}

int Hmm::symbol_index(char c) const {
    const size_t k = alphabet.find(c);
    return k == std::string::npos ? -1 : static_cast<int>(k);
}

std::string state_letters(const Hmm& m) {
    std::string first;
    for (const std::string& n : m.states) {
        if (first.find(n.front()) != std::string::npos) {
            first.clear();
            break;
        }
        first += n.front();
    }
    if (!first.empty()) return first;
    static constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    return m.states.size() <= kDigits.size() ? std::string(kDigits.substr(0, m.states.size())) : std::string();
}

namespace {

// One table of make_hmm: `rows` rows of `cols` probabilities, each row summing to 1. Rows are
// named after `names` (the states), or not at all for the one-row start table.
Status check_table(const std::string& what, const std::vector<double>& v, size_t rows, size_t cols,
                   const std::vector<std::string>* names) {
    if (v.size() != rows * cols)
        return input_error(what + ": " + std::to_string(v.size()) + " values, expected " + std::to_string(rows * cols));
    for (size_t r = 0; r < rows; ++r) {
        const std::string row = names ? what + " row '" + (*names)[r] + "'" : what;
        double sum = 0.0;
        for (size_t c = 0; c < cols; ++c) {
            const double p = v[r * cols + c];
            if (!(p >= 0.0 && p <= 1.0))  // also NaN
                return input_error(row + ": value " + show_value(p) + " is not a probability in [0, 1]");
            sum += p;
        }
        if (std::abs(sum - 1.0) > kHmmRowTolerance)
            return input_error(row + " sums to " + show_value(sum) + ", not 1");
    }
    return Ok{};
}

std::vector<double> logs_of(const std::vector<double>& v) {
    std::vector<double> out(v.size());
    for (size_t k = 0; k < v.size(); ++k) out[k] = v[k] > 0.0 ? std::log(v[k]) : -kInf;
    return out;
}

}  // namespace

Expected<Hmm> make_hmm(std::string name, std::vector<std::string> states, std::string alphabet,
                       std::vector<double> start, std::vector<double> transition, std::vector<double> emission) {
    if (states.empty()) return input_error("an HMM needs at least one state");
    if (states.size() > size_t(kMaxHmmStates))
        return input_error(std::to_string(states.size()) + " states: at most " + std::to_string(kMaxHmmStates));
    if (alphabet.empty()) return input_error("an HMM needs at least one symbol");
    for (size_t k = 0; k < states.size(); ++k) {
        if (states[k].empty()) return input_error("state " + std::to_string(k + 1) + " has an empty name");
        if (std::find(states.begin(), states.begin() + k, states[k]) != states.begin() + k)
            return input_error("state '" + states[k] + "' named twice");
    }
    for (size_t k = 0; k < alphabet.size(); ++k)
        if (alphabet.find(alphabet[k]) != k) return input_error("symbol '" + alphabet.substr(k, 1) + "' listed twice");
    const size_t S = states.size(), K = alphabet.size();
    if (Status s = check_table("start", start, 1, S, nullptr); !s) return s.error();
    if (Status s = check_table("transition", transition, S, S, &states); !s) return s.error();
    if (Status s = check_table("emission", emission, S, K, &states); !s) return s.error();

    Hmm m{std::move(name), std::move(states), std::move(alphabet), std::move(start), std::move(transition),
          std::move(emission), {}, {}, {}};
    m.log_start = logs_of(m.start);
    m.log_transition = logs_of(m.transition);
    m.log_emission = logs_of(m.emission);
    return m;
}

double path_log_probability(const Hmm& m, std::span<const uint8_t> obs, std::span<const int32_t> path) {
    const size_t S = m.states.size(), K = m.alphabet.size();
    const bool valid = !obs.empty() && path.size() == obs.size() &&
                       std::all_of(obs.begin(), obs.end(), [&](uint8_t o) { return o < K; }) &&
                       std::all_of(path.begin(), path.end(), [&](int32_t j) { return j >= 0 && size_t(j) < S; });
    if (!valid) return std::numeric_limits<double>::quiet_NaN();
    double sum = m.log_start[path[0]] + m.log_emission[path[0] * K + obs[0]];
    for (size_t t = 1; t < obs.size(); ++t)
        sum += m.log_transition[path[t - 1] * S + path[t]] + m.log_emission[path[t] * K + obs[t]];
    return sum;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The recurrence (double and int32)
// ---------------------------------------------------------------------------------------------

namespace {

// Max-plus arithmetic with an absorbing "impossible": -infinity adds as itself in double;
// kNegInf is made to (the bound checked before the fill keeps finite sums far from it).
template <class V>
struct MaxPlus;
template <>
struct MaxPlus<double> {
    static constexpr double kImpossible = -kInf;
    static double add(double a, double b) { return a + b; }
};
template <>
struct MaxPlus<int32_t> {
    static constexpr int32_t kImpossible = kNegInf;
    static int32_t add(int32_t a, int32_t b) { return (a == kNegInf || b == kNegInf) ? kNegInf : a + b; }
};

// The model's log tables as the fill reads them: transitions by destination, so the inner loop
// over predecessors is contiguous.
template <class V>
struct LogTables {
    size_t states = 0, symbols = 0;
    const V* start = nullptr;
    std::vector<V> into;  // into[to * S + from] = ln A[from][to]
    const V* emission = nullptr;
};

template <class V>
LogTables<V> log_tables(size_t S, size_t K, const std::vector<V>& start, const std::vector<V>& transition,
                        const std::vector<V>& emission) {
    LogTables<V> t{S, K, start.data(), std::vector<V>(S * S), emission.data()};
    for (size_t from = 0; from < S; ++from)
        for (size_t to = 0; to < S; ++to) t.into[to * S + from] = transition[from * S + to];
    return t;
}

template <class V>
struct Trellis {
    V best = MaxPlus<V>::kImpossible;
    int32_t last = 0;
    std::vector<int32_t> path;
    Grid<V> delta;
    Grid<uint16_t> back;
};

// The best predecessor of `to` and its score: the first (lowest-index) maximum, so ties go to
// the lowest state. With every candidate impossible the answer is (impossible, 0).
template <class V>
std::pair<V, uint16_t> best_predecessor(const LogTables<V>& m, const std::vector<V>& prev, size_t to) {
    const V* into = &m.into[to * m.states];
    V best = MaxPlus<V>::kImpossible;
    uint16_t arg = 0;
    for (size_t from = 0; from < m.states; ++from) {
        const V c = MaxPlus<V>::add(prev[from], into[from]);
        if (c > best) {
            best = c;
            arg = static_cast<uint16_t>(from);
        }
    }
    return {best, arg};
}

// Follows the backpointers (T x S, row-major) from the final state.
std::vector<int32_t> trace_back(const std::vector<uint16_t>& back, size_t S, size_t T, int32_t last) {
    std::vector<int32_t> path(T);
    path[T - 1] = last;
    for (size_t t = T - 1; t > 0; --t) path[t - 1] = back[t * S + static_cast<size_t>(path[t])];
    return path;
}

template <class V>
Trellis<V> viterbi_fill(const LogTables<V>& m, std::span<const uint8_t> obs, OutputLevel level) {
    using L = MaxPlus<V>;
    const size_t S = m.states, T = obs.size();
    Trellis<V> out;
    std::vector<uint16_t> back;
    if (level != OutputLevel::score) back.assign(T * S, 0);
    if (level == OutputLevel::matrix) out.delta.reset(static_cast<int32_t>(T), static_cast<int32_t>(S), L::kImpossible);
    auto keep_row = [&](size_t t, const std::vector<V>& row) {
        if (level == OutputLevel::matrix) std::copy(row.begin(), row.end(), out.delta.data.begin() + t * S);
    };

    std::vector<V> prev(S), cur(S);
    for (size_t j = 0; j < S; ++j) cur[j] = L::add(m.start[j], m.emission[j * m.symbols + obs[0]]);
    keep_row(0, cur);
    for (size_t t = 1; t < T; ++t) {
        std::swap(prev, cur);
        for (size_t j = 0; j < S; ++j) {
            const auto [best, arg] = best_predecessor(m, prev, j);
            cur[j] = L::add(best, m.emission[j * m.symbols + obs[t]]);
            if (!back.empty()) back[t * S + j] = arg;
        }
        keep_row(t, cur);
    }

    for (size_t j = 0; j < S; ++j) {
        if (cur[j] > out.best) {
            out.best = cur[j];
            out.last = static_cast<int32_t>(j);
        }
    }
    if (out.best != L::kImpossible && !back.empty()) out.path = trace_back(back, S, T, out.last);
    if (level != OutputLevel::score)
        out.back = Grid<uint16_t>{static_cast<int32_t>(T), static_cast<int32_t>(S), std::move(back)};
    return out;
}

Status check_observations(size_t symbols, std::span<const uint8_t> obs) {
    if (obs.empty()) return input_error("Viterbi needs at least one observation");
    for (size_t t = 0; t < obs.size(); ++t)
        if (obs[t] >= symbols)
            return input_error("observation " + std::to_string(t + 1) + " is symbol index " + std::to_string(obs[t]) +
                               ", outside the model's " + std::to_string(symbols) + " symbols");
    return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Double precision
// ---------------------------------------------------------------------------------------------

Expected<ViterbiResult> viterbi_reference(const Hmm& m, std::span<const uint8_t> obs, OutputLevel level) {
    if (Status s = check_observations(m.alphabet.size(), obs); !s) return s.error();
    const auto tables =
        log_tables(m.states.size(), m.alphabet.size(), m.log_start, m.log_transition, m.log_emission);
    Trellis<double> t = viterbi_fill(tables, obs, level);
    return ViterbiResult{t.best, std::move(t.path), std::move(t.delta), std::move(t.back)};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Fixed point
// ---------------------------------------------------------------------------------------------

namespace {

int32_t quantize(double log_p, double scale) {
    return log_p == -kInf ? kNegInf : static_cast<int32_t>(std::lround(log_p * scale));
}

std::vector<int32_t> quantized(const std::vector<double>& logs, double scale) {
    std::vector<int32_t> out(logs.size());
    for (size_t k = 0; k < logs.size(); ++k) out[k] = quantize(logs[k], scale);
    return out;
}

// 2T terms of magnitude at most m stay inside kScoreBound.
bool path_fits(int64_t largest_magnitude, size_t length) {
    return length <= size_t(kScoreBound) && int64_t(2) * int64_t(length) * largest_magnitude < kScoreBound;
}

// The most negative finite log of the model: the largest |q| at any scale comes from it.
double most_negative_log(const Hmm& m) {
    double low = 0.0;
    for (const auto* table : {&m.log_start, &m.log_transition, &m.log_emission})
        for (const double v : *table)
            if (v != -kInf) low = std::min(low, v);
    return low;
}

}  // namespace

double FixedHmm::scale() const { return std::ldexp(1.0, scale_log2); }

int32_t FixedHmm::largest_magnitude() const {
    int32_t m = 0;
    for (const auto* table : {&start, &transition, &emission})
        for (const int32_t q : *table)
            if (q != kNegInf) m = std::max(m, q < 0 ? -q : q);
    return m;
}

FixedHmm quantize_hmm(const Hmm& m, int32_t scale_log2) {
    const double scale = std::ldexp(1.0, scale_log2);
    return FixedHmm{scale_log2, m.num_states(), m.num_symbols(), quantized(m.log_start, scale),
                    quantized(m.log_transition, scale), quantized(m.log_emission, scale)};
}

Expected<int32_t> viterbi_scale_log2(const Hmm& m, size_t length) {
    const double low = most_negative_log(m);
    for (int32_t e = kMaxViterbiScaleLog2; e >= kMinViterbiScaleLog2; --e)
        if (path_fits(-int64_t(quantize(low, std::ldexp(1.0, e))), length)) return e;
    return resource_error(std::to_string(length) +
                          " observations are too many for int32 Viterbi scores with this model (its smallest "
                          "non-zero probability is e^" + show_value(low) + ")");
}

Expected<FixedHmm> quantize_hmm_for(const Hmm& m, size_t length) {
    const auto e = viterbi_scale_log2(m, length);
    if (!e) return e.error();
    return quantize_hmm(m, *e);
}

double viterbi_quantization_bound(const FixedHmm& m, size_t length) { return double(length) / m.scale(); }

double ViterbiFixedResult::log_probability() const {
    return score == kNegInf ? -kInf : std::ldexp(double(score), -scale_log2);
}

Expected<ViterbiFixedResult> viterbi_fixed(const FixedHmm& m, std::span<const uint8_t> obs, OutputLevel level) {
    if (Status s = check_observations(size_t(m.symbols), obs); !s) return s.error();
    if (!path_fits(m.largest_magnitude(), obs.size()))
        return resource_error(std::to_string(obs.size()) + " observations at scale 2^" + std::to_string(m.scale_log2) +
                              " could take Viterbi scores beyond the int32 bound; use a smaller scale");
    const auto tables = log_tables(size_t(m.states), size_t(m.symbols), m.start, m.transition, m.emission);
    Trellis<int32_t> t = viterbi_fill(tables, obs, level);
    return ViterbiFixedResult{t.best, m.scale_log2, t.last, std::move(t.path), std::move(t.delta), std::move(t.back)};
}

}  // namespace dpviz
