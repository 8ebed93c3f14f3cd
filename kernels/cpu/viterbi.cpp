// Viterbi on the CPU: the fast trellis fill over the shared recurrence (cell_ops.hpp), its result
// store (kept columns, overview, windows, the path over segments), and the one place that lays a
// trellis into the DP grid for every backend.
#include "viterbi_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
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

// The trellis pooled into the overview as the fill goes. pool_row takes a row of cells and a
// trellis column is a column of them, so a few columns are kept (time-major) and each state's
// row of them is pooled at once, strided.
class ColumnPool {
public:
    ColumnPool(Overview* o, size_t states)
        : o_(o), S_(states), cap_(std::max<size_t>(1, (size_t(1) << 16) / std::max<size_t>(1, states))) {
        if (o_) buf_.resize(cap_ * S_);
    }
    void add(int32_t column, const std::vector<int32_t>& cur) {
        if (!o_) return;
        if (n_ == 0) first_ = column;
        std::copy(cur.begin(), cur.end(), buf_.begin() + ptrdiff_t(n_ * S_));
        if (++n_ == cap_) flush();
    }
    void flush() {
        for (size_t s = 0; s < S_ && n_ > 0; ++s)
            pool_row(*o_, int32_t(s) + 1, first_, int32_t(n_), &buf_[s], ptrdiff_t(S_));
        n_ = 0;
    }

private:
    Overview* o_;
    size_t S_, cap_, n_ = 0;
    int32_t first_ = 1;
    std::vector<int32_t> buf_;
};

}  // namespace

Expected<ViterbiFixedResult> viterbi_fill_fast(const FixedHmm& m, std::span<const uint8_t> obs, OutputLevel level,
                                               const RunControl& control, Checkpoints* kept, Overview* overview) {
    const TrellisStep step(m, obs);
    const size_t S = step.S, T = obs.size();
    ViterbiFixedResult out;
    out.scale_log2 = m.scale_log2;
    std::vector<uint16_t> back;
    if (level != OutputLevel::score) back.assign(T * S, 0);
    if (level == OutputLevel::matrix) out.delta.reset(int32_t(T), int32_t(S), kNegInf);
    ColumnPool pool(overview, S);

    std::vector<int32_t> prev(S), cur(S);
    step.first(cur);
    // Time t is matrix column t + 1 (column 0 is the time before the first observation).
    auto keep = [&](size_t t) {
        const int32_t column = int32_t(t) + 1;
        if (level == OutputLevel::matrix) std::copy(cur.begin(), cur.end(), out.delta.data.begin() + t * S);
        if (kept && column % kept->spacing == 0) std::copy(cur.begin(), cur.end(), kept->col(kept->col_h, column) + 1);
        pool.add(column, cur);
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
    pool.flush();
    if (!back.empty()) out.back = Grid<uint16_t>{int32_t(T), int32_t(S), std::move(back)};
    finish_trellis(out, cur);
    return out;
}

std::vector<int32_t> viterbi_traceback_checkpoints(const FixedHmm& m, std::span<const uint8_t> obs,
                                                   const Checkpoints& kept, int32_t last_state) {
    // Segment by segment from the end: columns [t0, t1) recomputed from the column before t0 (a
    // checkpoint), their backpointers walked from the state the later segment arrived at.
    const TrellisStep step(m, obs);
    const size_t S = step.S, T = obs.size(), K = size_t(kept.spacing);
    std::vector<int32_t> path(T, 0);
    path[T - 1] = last_state;
    std::vector<uint16_t> back(K * S);
    std::vector<int32_t> prev(S), cur(S);
    for (size_t t1 = T; t1 > 1;) {
        const size_t t0 = (t1 - 1) / K * K;  // the segment holding column t1 - 1
        // Column t0 - 1 (matrix column t0, kept) or the first column as the start; backpointers
        // of columns t0 + 1 .. t1 - 1 (column t0's too, when t0 > 0).
        size_t t = t0;
        if (t0 == 0) {
            step.first(cur);
            t = 1;
        } else {
            std::copy_n(kept.col(kept.col_h, int32_t(t0)) + 1, S, cur.begin());
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

WindowValues viterbi_window(const Problem& p, const Checkpoints& kept, Window w, bool with_back) {
    const int32_t S = p.rows(), T = p.cols();
    w = w.within(S, T);
    WindowValues v;
    v.w = w;
    v.H.reset(w.rows(), w.cols(), kNegInf);
    if (with_back) v.back.reset(w.rows(), w.cols(), 0);  // 0 on the borders and in column 1
    if (w.empty()) return v;
    // Row 0 and column 0: the rules (the corner 0, the rest impossible).
    for (int32_t j = w.j0; j < w.j1 && w.i0 == 0; ++j) v.H.at(0, j - w.j0) = border_cell(p, false, j).h;
    for (int32_t i = std::max(w.i0, 1); i < w.i1 && w.j0 == 0; ++i) v.H.at(i - w.i0, 0) = border_cell(p, true, i).h;
    const int32_t fj = std::max(w.j0, 1), fi = std::max(w.i0, 1);
    if (fj >= w.j1 || fi >= w.i1) return v;
    // The whole of every column from the kept one before the window's first interior column (its
    // backpointers need the column before it): the fill's own step, so the values, the
    // predecessors and their ties are the fill's.
    const TrellisStep step(*p.hmm_fixed, p.target_codes);
    std::vector<int32_t> prev(step.S), cur(step.S);
    std::vector<uint16_t> back(step.S);
    int32_t column = kept.col_before(fj);
    if (column == 0) {
        step.first(cur);
        column = 1;
    } else {
        std::copy_n(kept.col(kept.col_h, column) + 1, step.S, cur.begin());
    }
    auto put = [&](int32_t c, bool has_back) {
        if (c < fj) return;
        for (int32_t i = fi; i < w.i1; ++i) {
            v.H.at(i - w.i0, c - w.j0) = cur[size_t(i - 1)];
            // DpResult::back: the predecessor row, 1 + its state (an impossible cell's is 1).
            if (with_back && has_back) v.back.at(i - w.i0, c - w.j0) = uint16_t(back[size_t(i - 1)] + 1);
        }
    };
    put(column, false);  // column 1 (no predecessor but the begin state), or a kept one before fj
    for (++column; column < w.j1; ++column) {
        std::swap(prev, cur);
        std::fill(back.begin(), back.end(), uint16_t(0));  // as the fill's grid: 0 where impossible
        step.next(size_t(column - 1), prev, cur, with_back ? back.data() : nullptr);
        put(column, true);
    }
    return v;
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

Expected<DpResult> align_viterbi_cpu_checkpoints(const Problem& p, int32_t every, const RunControl& control,
                                                 int32_t overview_block) {
    if (control.cancelled()) return cancelled_error();
    const auto t0 = std::chrono::steady_clock::now();
    auto kept = std::make_shared<Checkpoints>(make_checkpoints(p, every));
    auto overview = overview_block > 0 ? std::make_shared<Overview>(make_overview(p, overview_block)) : nullptr;
    Expected<ViterbiFixedResult> v =
        viterbi_fill_fast(*p.hmm_fixed, p.target_codes, OutputLevel::score, control, kept.get(), overview.get());
    if (!v) return v.error();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto t1 = std::chrono::steady_clock::now();
    if (v->score != kNegInf) v->path = viterbi_traceback_checkpoints(*p.hmm_fixed, p.target_codes, *kept, v->last_state);
    const double back_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    DpResult r = viterbi_dp_result(p, std::move(*v), OutputLevel::path, Backend::cpu, ms);
    r.traceback_ms += back_ms;
    r.checkpoints = std::move(kept);
    r.overview = std::move(overview);
    return r;
}

}  // namespace dpviz
