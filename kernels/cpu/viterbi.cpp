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

namespace {

using Ops = cell::HostOps;

// The fast fill's state: the model's transitions by destination (so the loop over predecessors is
// contiguous and vectorizes) and one column step of the recurrence.
struct TrellisStep {
    const FixedHmm& m;
    std::span<const uint8_t> obs;
    size_t S, K;
    std::vector<int32_t> into;

    TrellisStep(const FixedHmm& model, std::span<const uint8_t> o)
        : m(model), obs(o), S(size_t(model.states)), K(size_t(model.symbols)), into(S * S) {
        for (size_t from = 0; from < S; ++from)
            for (size_t to = 0; to < S; ++to) into[to * S + from] = m.transition[from * S + to];
    }
    void first(std::vector<int32_t>& cur) const {
        for (size_t s = 0; s < S; ++s) cur[s] = cell::viterbi_cell<Ops>(m.start[s], m.emission[s * K + obs[0]], kNegInf);
    }
    // Column t from column t - 1; `back` (S entries), when given, gets each state's predecessor.
    void next(size_t t, const std::vector<int32_t>& prev, std::vector<int32_t>& cur, uint16_t* back) const {
        for (size_t s = 0; s < S; ++s) {
            const int32_t* a = &into[s * S];
            int32_t best = kNegInf;
            for (size_t k = 0; k < S; ++k) best = cell::viterbi_candidate<Ops>(prev[k], a[k], best);
            if (back && best != kNegInf) {  // the lowest predecessor that reaches the best
                size_t k = 0;
                while (prev[k] + a[k] != best) ++k;
                back[s] = uint16_t(k);
            }
            cur[s] = cell::viterbi_cell<Ops>(best, m.emission[s * K + obs[t]], kNegInf);
        }
    }
};

}  // namespace

Expected<ViterbiFixedResult> viterbi_fill_fast(const FixedHmm& m, std::span<const uint8_t> obs, OutputLevel level,
                                               const RunControl& control, int32_t checkpoint_every,
                                               std::vector<int32_t>* checkpoints) {
    const TrellisStep step(m, obs);
    const size_t S = step.S, T = obs.size();
    ViterbiFixedResult out;
    out.scale_log2 = m.scale_log2;
    std::vector<uint16_t> back;
    if (level != OutputLevel::score) back.assign(T * S, 0);
    if (level == OutputLevel::matrix) out.delta.reset(int32_t(T), int32_t(S), kNegInf);
    if (checkpoints) checkpoints->clear();

    std::vector<int32_t> prev(S), cur(S);
    step.first(cur);
    auto keep = [&](size_t t) {
        if (level == OutputLevel::matrix) std::copy(cur.begin(), cur.end(), out.delta.data.begin() + t * S);
        if (checkpoints && (t + 1) % size_t(checkpoint_every) == 0) checkpoints->insert(checkpoints->end(), cur.begin(), cur.end());
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
        step.next(t, prev, cur, back.empty() ? nullptr : &back[t * S]);
        keep(t);
    }
    if (!back.empty()) out.back = Grid<uint16_t>{int32_t(T), int32_t(S), std::move(back)};
    finish_trellis(out, cur);
    return out;
}

std::vector<int32_t> viterbi_traceback_checkpoints(const FixedHmm& m, std::span<const uint8_t> obs,
                                                   const std::vector<int32_t>& checkpoints, int32_t every,
                                                   int32_t last_state) {
    // Segment by segment from the end: columns [t0, t1) recomputed from the column before t0 (a
    // checkpoint), their backpointers walked from the state the later segment arrived at.
    const TrellisStep step(m, obs);
    const size_t S = step.S, T = obs.size(), K = size_t(every);
    std::vector<int32_t> path(T, 0);
    path[T - 1] = last_state;
    std::vector<uint16_t> back(K * S);
    std::vector<int32_t> prev(S), cur(S);
    for (size_t t1 = T; t1 > 1;) {
        const size_t t0 = (t1 - 1) / K * K;  // the segment holding column t1 - 1
        // Column t0 - 1 (or the first column) as the start; backpointers of columns t0 + 1 .. t1 - 1
        // (column t0's too, when t0 > 0).
        size_t t = t0;
        if (t0 == 0) {
            step.first(cur);
            t = 1;
        } else {
            std::copy_n(checkpoints.begin() + ptrdiff_t((t0 / K - 1) * S), S, cur.begin());
        }
        for (; t < t1; ++t) {
            std::swap(prev, cur);
            step.next(t, prev, cur, &back[(t - t0) * S]);
        }
        for (size_t u = t1 - 1; u > t0 || (u == t0 && t0 > 0); --u) {
            path[u - 1] = back[(u - t0) * S + size_t(path[u])];
            if (u == t0) break;
        }
        t1 = t0;
    }
    return path;
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

Expected<DpResult> align_viterbi_cpu_checkpoints(const Problem& p, int32_t every, const RunControl& control) {
    if (control.cancelled()) return cancelled_error();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<int32_t> columns;
    Expected<ViterbiFixedResult> v =
        viterbi_fill_fast(*p.hmm_fixed, p.target_codes, OutputLevel::score, control, every, &columns);
    if (!v) return v.error();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto t1 = std::chrono::steady_clock::now();
    if (v->score != kNegInf)
        v->path = viterbi_traceback_checkpoints(*p.hmm_fixed, p.target_codes, columns, every, v->last_state);
    const double back_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    DpResult r = viterbi_dp_result(p, std::move(*v), OutputLevel::path, Backend::cpu, ms);
    r.traceback_ms += back_ms;
    return r;
}

}  // namespace dpviz
