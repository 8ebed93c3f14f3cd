// Viterbi on the CPU: the fast trellis fill over the shared recurrence (cell_ops.hpp), and the
// one place that lays a trellis into the DP grid for every backend.
#include "viterbi_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "cell_ops.hpp"

namespace dpviz {

Expected<ViterbiFixedResult> viterbi_fill_fast(const FixedHmm& m, std::span<const uint8_t> obs, OutputLevel level,
                                               const RunControl& control) {
    using Ops = cell::HostOps;
    const size_t S = size_t(m.states), K = size_t(m.symbols), T = obs.size();
    // Transitions by destination, so the loop over predecessors is contiguous and vectorizes.
    std::vector<int32_t> into(S * S);
    for (size_t from = 0; from < S; ++from)
        for (size_t to = 0; to < S; ++to) into[to * S + from] = m.transition[from * S + to];

    ViterbiFixedResult out;
    out.scale_log2 = m.scale_log2;
    std::vector<uint16_t> back;
    if (level != OutputLevel::score) back.assign(T * S, 0);
    if (level == OutputLevel::matrix) out.delta.reset(int32_t(T), int32_t(S), kNegInf);

    std::vector<int32_t> prev(S), cur(S);
    for (size_t s = 0; s < S; ++s) cur[s] = cell::viterbi_cell<Ops>(m.start[s], m.emission[s * K + obs[0]], kNegInf);
    auto keep = [&](size_t t) {
        if (level == OutputLevel::matrix) std::copy(cur.begin(), cur.end(), out.delta.data.begin() + t * S);
    };
    keep(0);
    // About 4 M candidates between two checks of `control`.
    const size_t check_every = std::max<size_t>(1, (size_t(1) << 22) / std::max<size_t>(1, S * S));
    for (size_t t = 1; t < T; ++t) {
        if (t % check_every == 0) {
            if (control.cancelled()) return cancelled_error();
            control.report(double(t) / double(T));
        }
        std::swap(prev, cur);
        for (size_t s = 0; s < S; ++s) {
            const int32_t* a = &into[s * S];
            int32_t best = kNegInf;
            for (size_t k = 0; k < S; ++k) best = cell::viterbi_candidate<Ops>(prev[k], a[k], best);
            if (!back.empty() && best != kNegInf) {  // the lowest predecessor that reaches the best
                size_t k = 0;
                while (prev[k] + a[k] != best) ++k;
                back[t * S + s] = uint16_t(k);
            }
            cur[s] = cell::viterbi_cell<Ops>(best, m.emission[s * K + obs[t]], kNegInf);
        }
        keep(t);
    }
    if (!back.empty()) out.back = Grid<uint16_t>{int32_t(T), int32_t(S), std::move(back)};
    finish_trellis(out, cur);
    return out;
}

void finish_trellis(ViterbiFixedResult& v, std::span<const int32_t> last) {
    v.score = kNegInf;
    v.last_state = 0;
    for (size_t s = 0; s < last.size(); ++s)
        if (last[s] > v.score) {
            v.score = last[s];
            v.last_state = int32_t(s);
        }
    v.path.clear();
    if (v.score == kNegInf || v.back.empty()) return;
    const int32_t T = v.back.rows;
    v.path.assign(size_t(T), 0);
    v.path[size_t(T) - 1] = v.last_state;
    for (int32_t t = T - 1; t > 0; --t) v.path[size_t(t) - 1] = v.back.at(t, v.path[size_t(t)]);
}

DpResult viterbi_dp_result(const Problem& p, ViterbiFixedResult v, OutputLevel level, Backend backend,
                           double fill_ms) {
    const int32_t S = p.rows(), T = p.cols();
    DpResult r;
    r.algo = p.algo;
    r.level = level;
    r.backend = backend;
    r.fill_ms = fill_ms;
    r.cells = int64_t(S) * T;
    r.score = v.score;
    r.log_probability = v.log_probability();
    // The end: the best state of the last column (the first on ties), or the first when every
    // state is impossible there.
    r.end = {v.last_state + 1, T};
    if (level == OutputLevel::matrix) {
        r.H.reset(S + 1, T + 1, kNegInf);
        r.H.at(0, 0) = 0;
        for (int32_t t = 0; t < T; ++t)
            for (int32_t s = 0; s < S; ++s) r.H.at(s + 1, t + 1) = v.delta.at(t, s);
    }
    if (level != OutputLevel::score && !v.back.empty()) {
        r.back.reset(S + 1, T + 1, 0);
        for (int32_t t = 1; t < T; ++t)
            for (int32_t s = 0; s < S; ++s) r.back.at(s + 1, t + 1) = uint16_t(v.back.at(t, s) + 1);
    }
    if (level != OutputLevel::score && !v.path.empty()) {
        const auto t0 = std::chrono::steady_clock::now();
        r.path.reserve(size_t(T) + 1);
        r.path.push_back({0, 0});
        for (int32_t t = 0; t < T; ++t) r.path.push_back({v.path[size_t(t)] + 1, t + 1});
        r.traceback_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    // The double-precision optimum, so the quantization error is visible, where it is affordable.
    r.log_probability_reference = std::numeric_limits<double>::quiet_NaN();
    if (double(S) * double(S) * double(T) <= kViterbiReferenceCandidates)
        if (const auto reference = viterbi_reference(*p.hmm, p.target_codes, OutputLevel::score))
            r.log_probability_reference = reference->log_probability;
    return r;
}

Expected<DpResult> align_viterbi_cpu(const Problem& p, OutputLevel level, bool reference, const RunControl& control) {
    if (control.cancelled()) return cancelled_error();
    const auto t0 = std::chrono::steady_clock::now();
    Expected<ViterbiFixedResult> v = ViterbiFixedResult{};
    if (reference) v = viterbi_fixed(*p.hmm_fixed, p.target_codes, level);
    else v = viterbi_fill_fast(*p.hmm_fixed, p.target_codes, level, control);
    if (!v) return v.error();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return viterbi_dp_result(p, std::move(*v), level, reference ? Backend::cpu_reference : Backend::cpu, ms);
}

}  // namespace dpviz
