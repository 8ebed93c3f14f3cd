// The alignment landscape: a forward fill and a fill of the reversed problem, both kept as
// checkpoints, combined window by window (docs/algorithms.md, "The landscape").
#include <algorithm>
#include <atomic>
#include <thread>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"

namespace dpviz {

Problem reversed_problem(const Problem& p) {
    Problem r = p;
    std::reverse(r.query.begin(), r.query.end());
    std::reverse(r.target.begin(), r.target.end());
    std::reverse(r.query_codes.begin(), r.query_codes.end());
    std::reverse(r.target_codes.begin(), r.target_codes.end());
    std::reverse(r.query_signal.begin(), r.query_signal.end());
    std::reverse(r.target_signal.begin(), r.target_signal.end());
    std::reverse(r.query_fixed.begin(), r.query_fixed.end());
    std::reverse(r.target_fixed.begin(), r.target_fixed.end());
    // Cell (i, j) of r is cell (M + 1 - i, N + 1 - j) of p: |j M - i N + s| <= b M becomes
    // |j M - i N - (M - N) - s| <= b M.
    r.band_shift = -(int64_t(p.rows()) - p.cols()) - p.band_shift;
    return r;
}

Expected<LandscapeSource> landscape_source(const Problem& p, int32_t spacing, unsigned threads,
                                           const RunControl& control, const Checkpoints* forward) {
    LandscapeSource s;
    s.forward = &p;
    s.forward_checkpoints = forward;
    s.backward = reversed_problem(p);
    // The backward lines mirror the forward ones (and those of `forward`, whose spacing wins), so
    // a tile between forward lines needs a backward window between backward lines: forward
    // rows (r0, r0 + K] are backward rows from M - r0 - K on (DTW, whose cells mirror: M + 1 - r0 - K),
    // filled from the line just before.
    if (forward) spacing = forward->spacing;
    const int32_t shift = p.algo == Algorithm::dtw ? 1 : 0;
    auto phase = [&](int32_t n) { return ((n - 1 + shift) % spacing + spacing) % spacing; };
    Expected<Checkpoints> back =
        fill_checkpoints(s.backward, spacing, threads, control, phase(p.rows()), phase(p.cols()));
    if (!back) return back.error();
    s.backward_checkpoints = std::move(*back);
    return s;
}

namespace {

// The best of two candidates in the algorithm's sense; unreachable terms never win.
struct Combine {
    bool lowest;
    int64_t best(int64_t a, int64_t b) const { return lowest ? std::min(a, b) : std::max(a, b); }
    int64_t none() const { return lowest ? int64_t(kPosInf) : int64_t(kNegInf); }
    bool finite(int32_t v) const { return v > -kScoreBound && v < kScoreBound; }
    int32_t clamp(int64_t v) const {
        if (v <= -kScoreBound) return kNegInf;
        if (v >= kScoreBound) return kPosInf;
        return int32_t(v);
    }
};

}  // namespace

WindowValues landscape_window(const LandscapeSource& s, Window w) {
    const Problem& p = *s.forward;
    const int32_t M = p.rows(), N = p.cols();
    w = w.within(M, N);
    WindowValues out;
    out.w = w;
    const Combine c{minimizes(p.algo)};
    out.H.reset(w.rows(), w.cols(), int32_t(c.none()));
    if (w.empty()) return out;
    const bool dtw = p.algo == Algorithm::dtw;
    // Node (i, j) of p is node (M - i, N - j) of the reversed problem; DTW's cell (i, j) its cell
    // (M + 1 - i, N + 1 - j).
    const int32_t shift = dtw ? 1 : 0;
    const WindowValues f = compute_window(p, *s.forward_checkpoints, w, false);
    const Window rw{M + shift - (w.i1 - 1), M + shift - w.i0 + 1, N + shift - (w.j1 - 1), N + shift - w.j0 + 1};
    const WindowValues b = compute_window(s.backward, s.backward_checkpoints, rw, false);
    const bool affine = p.affine();
    const int64_t join = affine ? int64_t(p.gaps.open) - p.gaps.extend : 0;  // one gap, not two
    // Row by row: forward cell (i, j) meets backward cell (M + shift - i, N + shift - j), whose
    // row runs the other way.
    for (int32_t i = w.i0; i < w.i1; ++i) {
        if (dtw && i == 0) continue;  // no cell of a warping path
        const int32_t fi = i - w.i0, bi = M + shift - i - b.w.i0;
        if (bi < 0 || bi >= b.H.rows) continue;
        const int32_t* fh = &f.H.at(fi, 0);
        const int32_t* fe = affine ? &f.E.at(fi, 0) : nullptr;
        const int32_t* ff = affine ? &f.F.at(fi, 0) : nullptr;
        const int32_t* bh = &b.H.at(bi, 0);
        const int32_t* be = affine ? &b.E.at(bi, 0) : nullptr;
        const int32_t* bf = affine ? &b.F.at(bi, 0) : nullptr;
        int32_t* o = &out.H.at(fi, 0);
        for (int32_t j = std::max(w.j0, dtw ? 1 : 0); j < w.j1; ++j) {
            const int32_t fj = j - w.j0, bj = N + shift - j - b.w.j0;
            if (bj < 0 || bj >= b.H.cols) continue;
            int64_t v = c.none();
            if (c.finite(fh[fj]) && c.finite(bh[bj])) v = int64_t(fh[fj]) + bh[bj] - (dtw ? p.dtw_local_cost(i, j) : 0);
            if (affine) {
                if (c.finite(fe[fj]) && c.finite(be[bj])) v = c.best(v, int64_t(fe[fj]) + be[bj] + join);
                if (c.finite(ff[fj]) && c.finite(bf[bj])) v = c.best(v, int64_t(ff[fj]) + bf[bj] + join);
            }
            o[fj] = c.clamp(v);
        }
    }
    return out;
}

Overview landscape_overview(const LandscapeSource& s, int32_t block, unsigned threads, const RunControl& control) {
    const Problem& p = *s.forward;
    const int32_t M = p.rows(), N = p.cols();
    // Tiles on the forward checkpoint lines (each a fill from its own corner), handed out a row of
    // tiles at a time; each thread pools into its own overview, merged at the end.
    const int32_t K = s.forward_checkpoints->spacing;
    const int32_t tile_rows = M / K + 1;
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(tile_rows)));
    std::vector<Overview> parts(threads, empty_overview(p, block));
    std::atomic<int32_t> next{0};
    auto work = [&](unsigned t) {
        for (int32_t r; !control.cancelled() && (r = next.fetch_add(1)) < tile_rows;) {
            if (t == 0) control.report(double(r) / tile_rows);  // RunControl: the caller's thread only
            // Rows (r K, (r + 1) K], and row 0 with the first.
            const int32_t i0 = r == 0 ? 0 : r * K + 1, i1 = std::min(M + 1, (r + 1) * K + 1);
            for (int32_t c = 0; c * K <= N; ++c) {
                const int32_t j0 = c == 0 ? 0 : c * K + 1, j1 = std::min(N + 1, (c + 1) * K + 1);
                if (i0 >= i1 || j0 >= j1) continue;
                pool_grid(parts[t], i0, j0, landscape_window(s, {i0, i1, j0, j1}).H);
            }
        }
    };
    // Progress from the start: the other threads may take every row before this one takes any.
    if (!control.cancelled()) control.report(0.0);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& th : pool) th.join();
    for (unsigned t = 1; t < threads; ++t) merge_overview(parts[0], parts[t]);
    if (!control.cancelled()) control.report(1.0);
    return std::move(parts[0]);
}

}  // namespace dpviz
