// The result store's CPU side: checkpoint layout and spacing, the rectangle fill that restarts
// the matrix from checkpoint borders, exact windows and the tile-by-tile traceback.
//
// Index
// [SECTION] Layout and spacing
// [SECTION] The overview
// [SECTION] The rectangle fill: any algorithm, from its top row and left column
// [SECTION] Windows
// [SECTION] Traceback over recomputed tiles
#include "dpviz/store.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "cell_ops.hpp"
#include "dpviz/engine.hpp"
#include "gpu_dispatch.hpp"
#include "trace_path.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {

// ---------------------------------------------------------------------------------------------
// [SECTION] Layout and spacing
// ---------------------------------------------------------------------------------------------

uint64_t checkpoint_bytes(const Problem& p, int32_t spacing) {
    const uint64_t M = uint64_t(p.rows()), N = uint64_t(p.cols()), K = uint64_t(spacing);
    if (p.algo == Algorithm::viterbi) return 4 * (N / K) * (M + 1);  // delta of every K-th column
    const uint64_t layers = p.affine() ? 2 : 1;
    return layers * 4 * ((M / K) * (N + 1) + (N / K) * (M + 1));
}

int32_t prefetched_tiles(int32_t spacing) { return spacing <= kMaxPrefetchSpacing ? kPrefetchTiles : 0; }

uint64_t traceback_tile_bytes(const Problem& p, int32_t spacing) {
    const uint64_t K = uint64_t(spacing);
    // Viterbi: one segment's backpointers and two columns; else the tile's bits and its rolling
    // rows (H, E, F).
    if (p.algo == Algorithm::viterbi) return K * uint64_t(p.rows()) * 2 + 8 * uint64_t(p.rows());
    return (1 + uint64_t(prefetched_tiles(spacing))) * K * K + 6 * 4 * (K + 1);
}

int32_t choose_checkpoint_spacing(const Problem& p, uint64_t budget) {
    for (int32_t k = kMinCheckpointSpacing; k <= kMaxCheckpointSpacing; k *= 2)
        if (checkpoint_bytes(p, k) + traceback_tile_bytes(p, k) <= budget) return k;
    return 0;
}

Checkpoints make_checkpoints(const Problem& p, int32_t spacing, int32_t row_phase, int32_t col_phase) {
    // A trellis keeps column lines only (dpviz/store.hpp): its first row line lies past the last row.
    if (p.algo == Algorithm::viterbi) row_phase = p.rows() + 1;
    Checkpoints c;
    c.spacing = spacing;
    c.row_phase = row_phase;
    c.col_phase = col_phase;
    c.M = p.rows();
    c.N = p.cols();
    c.affine = p.affine();
    const size_t rows = size_t(c.row_lines()) * size_t(c.N + 1), cols = size_t(c.col_lines()) * size_t(c.M + 1);
    c.row_h.assign(rows, kNegInf);
    c.col_h.assign(cols, kNegInf);
    if (c.affine) {
        c.row_f.assign(rows, kNegInf);
        c.col_e.assign(cols, kNegInf);
    }
    // Where the lines meet the borders: the rules (a fill writes only interior cells).
    for (int32_t r = c.row_after(0); r <= c.M; r += spacing) {
        const BorderCell b = border_cell(p, true, r);
        c.row(c.row_h, r)[0] = b.h;
        if (c.affine) c.row(c.row_f, r)[0] = b.f;
    }
    for (int32_t col = c.col_after(0); col <= c.N; col += spacing) {
        const BorderCell b = border_cell(p, false, col);
        c.col(c.col_h, col)[0] = b.h;
        if (c.affine) c.col(c.col_e, col)[0] = b.e;
    }
    return c;
}

Checkpoints checkpoints_on_host(const Problem& p, const Checkpoints& c) {
    if (!c.source) return c;
    Checkpoints h = make_checkpoints(p, c.spacing, c.row_phase, c.col_phase);
    for (int32_t r = h.row_after(0); r <= h.M; r += h.spacing)
        if (h.N >= 1) c.source->edge(false, r, 1, h.N, h.row(h.row_h, r) + 1, h.affine ? h.row(h.row_f, r) + 1 : nullptr);
    for (int32_t col = h.col_after(0); col <= h.N; col += h.spacing)
        if (h.M >= 1) c.source->edge(true, col, 1, h.M, h.col(h.col_h, col) + 1, h.affine ? h.col(h.col_e, col) + 1 : nullptr);
    return h;
}

Checkpoints checkpoints_from_matrix(const Problem& p, const DpResult& m, int32_t spacing, int32_t row_phase,
                                    int32_t col_phase) {
    Checkpoints c = make_checkpoints(p, spacing, row_phase, col_phase);
    for (int32_t r = c.row_after(0); r <= c.M; r += spacing)
        for (int32_t j = 0; j <= c.N; ++j) {
            c.row(c.row_h, r)[j] = m.H.at(r, j);
            if (c.affine) c.row(c.row_f, r)[j] = m.F.at(r, j);
        }
    for (int32_t col = c.col_after(0); col <= c.N; col += spacing)
        for (int32_t i = 0; i <= c.M; ++i) {
            c.col(c.col_h, col)[i] = m.H.at(i, col);
            if (c.affine) c.col(c.col_e, col)[i] = m.E.at(i, col);
        }
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The overview
// ---------------------------------------------------------------------------------------------

int32_t overview_block(const Problem& p, int32_t max_side) {
    const int64_t longer = std::max(p.rows(), p.cols()) + 1, side = std::max(max_side, 1);
    const int64_t block = (longer + side - 1) / side;
    return int32_t(block > 120 ? (block + 7) / 8 * 8 : block);
}

void pool_into(Overview& o, int32_t i, int32_t j, int32_t v) {
    const bool finite = v > -kScoreBound && v < kScoreBound;
    if (!finite) {
        o.any_unreachable = true;
        return;
    }
    int32_t& t = o.H.at(i / o.block, j / o.block);
    t = o.lowest ? std::min(t, v) : std::max(t, v);
    if (!o.any_finite) o.min = o.max = v;
    o.min = std::min(o.min, v);
    o.max = std::max(o.max, v);
    o.any_finite = true;
}

void pool_row(Overview& o, int32_t i, int32_t j0, int32_t n, const int32_t* values, ptrdiff_t stride, int32_t sign) {
    const int32_t B = o.block;
    int32_t lo = o.any_finite ? o.min : INT32_MAX, hi = o.any_finite ? o.max : INT32_MIN;
    bool unreachable = false;
    int32_t* texels = &o.H.at(i / B, 0);
    for (int32_t c = 0; c < n;) {  // a block of columns at a time: no division per cell
        const int32_t bj = (j0 + c) / B, first = c, last = std::min(n, (bj + 1) * B - j0);
        // The block's lowest and largest first (two branch-free operations a cell); only a block
        // with a value that is not finite (DTW outside its band) is looked at cell by cell.
        int32_t mn = INT32_MAX, mx = INT32_MIN;
        for (; c < last; ++c) {
            const int32_t x = sign * values[c * stride];
            mn = std::min(mn, x);
            mx = std::max(mx, x);
        }
        if (mn > -kScoreBound && mx < kScoreBound) {
            texels[bj] = o.lowest ? std::min(texels[bj], mn) : std::max(texels[bj], mx);
            lo = std::min(lo, mn);
            hi = std::max(hi, mx);
            continue;
        }
        int32_t best = texels[bj];
        for (c = first; c < last; ++c) {
            const int32_t x = sign * values[c * stride];
            if (x <= -kScoreBound || x >= kScoreBound) {
                unreachable = true;
                continue;
            }
            best = o.lowest ? std::min(best, x) : std::max(best, x);
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
        texels[bj] = best;
    }
    if (lo <= hi) {
        o.min = lo;
        o.max = hi;
        o.any_finite = true;
    }
    o.any_unreachable = o.any_unreachable || unreachable;
}

void pool_grid(Overview& o, int32_t i0, int32_t j0, const Grid<int32_t>& g) {
    for (int32_t r = 0; r < g.rows; ++r) pool_row(o, i0 + r, j0, g.cols, &g.at(r, 0));
}

Overview empty_overview(const Problem& p, int32_t block) {
    Overview o;
    o.block = block;
    o.lowest = minimizes(p.algo);
    o.H.reset((p.rows() + block) / block, (p.cols() + block) / block, o.lowest ? kPosInf : kNegInf);
    return o;
}

Overview make_overview(const Problem& p, int32_t block) {
    Overview o = empty_overview(p, block);
    const int32_t M = p.rows(), N = p.cols();
    for (int32_t j = 0; j <= N; ++j) pool_into(o, 0, j, border_cell(p, false, j).h);
    for (int32_t i = 1; i <= M; ++i) pool_into(o, i, 0, border_cell(p, true, i).h);
    return o;
}

Overview overview_from_matrix(const Problem& p, const Grid<int32_t>& H, int32_t block) {
    Overview o = make_overview(p, block);
    for (int32_t i = 1; i < H.rows; ++i)
        for (int32_t j = 1; j < H.cols; ++j) pool_into(o, i, j, H.at(i, j));
    return o;
}

void merge_overview(Overview& into, const Overview& from) {
    for (size_t k = 0; k < into.H.data.size(); ++k)
        into.H.data[k] = into.lowest ? std::min(into.H.data[k], from.H.data[k]) : std::max(into.H.data[k], from.H.data[k]);
    if (from.any_finite) {
        into.min = into.any_finite ? std::min(into.min, from.min) : from.min;
        into.max = into.any_finite ? std::max(into.max, from.max) : from.max;
        into.any_finite = true;
    }
    into.any_unreachable = into.any_unreachable || from.any_unreachable;
}

Overview overview_from_interior(const Problem& p, int32_t block, const std::vector<int32_t>& texels, int32_t worst) {
    Overview interior = empty_overview(p, block);
    const auto finite = [](int32_t v) { return v > -kScoreBound && v < kScoreBound; };
    for (size_t k = 0; k < interior.H.data.size() && k < texels.size(); ++k) {
        const int32_t v = texels[k];
        if (!finite(v)) continue;
        interior.H.data[k] = v;
        interior.min = interior.any_finite ? std::min(interior.min, v) : v;
        interior.max = interior.any_finite ? std::max(interior.max, v) : v;
        interior.any_finite = true;
    }
    // The texels hold the best of each block: the other end of the range is the worst cell's,
    // which counts also where no texel was pooled (a fill that pools the blocks' edges leaves a
    // matrix of one block to the borders).
    if (finite(worst)) {
        if (!interior.any_finite) interior.min = interior.max = worst;
        else if (interior.lowest) interior.max = std::max(interior.max, worst);
        else interior.min = std::min(interior.min, worst);
        interior.any_finite = true;
    }
    // Interior cells are unreachable only in DTW, whose borders are unreachable too: the
    // borders' overview says so.
    Overview o = make_overview(p, block);
    merge_overview(o, interior);
    return o;
}

std::vector<Cell> overview_path(const Overview& o, const std::vector<Cell>& path) {
    std::vector<Cell> out;
    for (const Cell c : path) {
        const Cell b{c.i / o.block, c.j / o.block};
        if (out.empty() || !(out.back() == b)) out.push_back(b);
    }
    return out;
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] The rectangle fill: any algorithm, from its top row and left column
// ---------------------------------------------------------------------------------------------

// Cells (r0, r1] x (c0, c1] of the matrix, given row r0 over columns c0..c1 (H; F for affine
// gaps) and column c0 over rows r0..r1 (H; E). Each cell is the recurrence of cell_ops.hpp, the
// one every backend runs, so the values and bits are those of a full fill.
struct Rect {
    int32_t r0 = 0, c0 = 0, r1 = 0, c1 = 0;
    std::vector<int32_t> top_h, top_f;    // index j - c0
    std::vector<int32_t> left_h, left_e;  // index i - r0
};

// Where the cells go: grid cell (i - r0 - 1, j - c0 - 1); a null grid is not written.
struct RectOut {
    Grid<int32_t>* H = nullptr;
    Grid<int32_t>* E = nullptr;
    Grid<int32_t>* F = nullptr;
    Grid<uint8_t>* dirs = nullptr;
};

using cell::HostOps;

enum class Shape { linear, affine, edit, lcs, dtw };

Shape shape_of(const Problem& p) {
    switch (p.algo) {
        case Algorithm::edit: return Shape::edit;
        case Algorithm::lcs: return Shape::lcs;
        case Algorithm::dtw: return Shape::dtw;
        default: return p.affine() ? Shape::affine : Shape::linear;
    }
}

template <Shape kShape, bool kLocal, bool kDirs>
void fill_rect_as(const Problem& p, const Rect& rc, const RectOut& out) {
    const int32_t w = rc.c1 - rc.c0;
    std::vector<int32_t> up_h(rc.top_h), up_f(kShape == Shape::affine ? rc.top_f : std::vector<int32_t>{});
    std::vector<int32_t> h(size_t(w) + 1), f(kShape == Shape::affine ? size_t(w) + 1 : 0);
    const int32_t open = p.gaps.open, ext = p.gaps.extend;
    for (int32_t i = rc.r0 + 1; i <= rc.r1; ++i) {
        const int32_t row = i - rc.r0;
        h[0] = rc.left_h[size_t(row)];
        int32_t e = kShape == Shape::affine ? rc.left_e[size_t(row)] : 0;
        for (int32_t x = 1; x <= w; ++x) {
            const int32_t j = rc.c0 + x;
            HostOps::Bits bits = 0;
            int32_t v, f_cell = 0;
            if constexpr (kShape == Shape::linear) {
                v = cell::align_linear<HostOps, kLocal, kDirs>(up_h[x - 1], up_h[x], h[x - 1], p.sub(i, j), open, 0, bits);
            } else if constexpr (kShape == Shape::affine) {
                int32_t e_cell;
                v = cell::align_affine<HostOps, kLocal, kDirs>(up_h[x - 1], up_h[x], up_f[x], h[x - 1], e, p.sub(i, j),
                                                              open, ext, 0, e_cell, f_cell, bits);
                e = e_cell;
                f[x] = f_cell;
            } else if constexpr (kShape == Shape::edit) {
                const int32_t mismatch = p.query_codes[i - 1] != p.target_codes[j - 1];
                v = cell::edit<HostOps, kDirs>(up_h[x - 1], up_h[x], h[x - 1], mismatch, bits);
            } else if constexpr (kShape == Shape::lcs) {
                const int32_t gain = p.query_codes[i - 1] == p.target_codes[j - 1] ? 1 : -int32_t(kScoreBound);
                v = cell::lcs<HostOps, kDirs>(up_h[x - 1], up_h[x], h[x - 1], gain, bits);
            } else {
                const bool in = p.in_band(i, j);
                v = cell::dtw<HostOps, kDirs>(up_h[x - 1], up_h[x], h[x - 1], in ? p.dtw_local_cost(i, j) : 0, in, kPosInf,
                                             bits);
            }
            h[x] = v;
            const int32_t gi = row - 1, gj = x - 1;
            if (out.H) out.H->at(gi, gj) = v;
            if constexpr (kShape == Shape::affine) {
                if (out.E) out.E->at(gi, gj) = e;
                if (out.F) out.F->at(gi, gj) = f_cell;
            }
            if constexpr (kDirs) out.dirs->at(gi, gj) = uint8_t(bits);
        }
        std::swap(up_h, h);
        if constexpr (kShape == Shape::affine) std::swap(up_f, f);  // f[0] is never read
    }
}

template <bool kDirs>
void fill_rect_bits(const Problem& p, const Rect& rc, const RectOut& out) {
    const bool local = p.algo == Algorithm::local;
    switch (shape_of(p)) {
        case Shape::linear: return local ? fill_rect_as<Shape::linear, true, kDirs>(p, rc, out)
                                         : fill_rect_as<Shape::linear, false, kDirs>(p, rc, out);
        case Shape::affine: return local ? fill_rect_as<Shape::affine, true, kDirs>(p, rc, out)
                                         : fill_rect_as<Shape::affine, false, kDirs>(p, rc, out);
        case Shape::edit: return fill_rect_as<Shape::edit, false, kDirs>(p, rc, out);
        case Shape::lcs: return fill_rect_as<Shape::lcs, false, kDirs>(p, rc, out);
        case Shape::dtw: return fill_rect_as<Shape::dtw, false, kDirs>(p, rc, out);
    }
}

// From this size on a rectangle of an alignment, edit distance or LCS runs on the fast CPU
// backend's SIMD kernels (fill_rect_cpu), on one thread: the callers run many rectangles at once.
constexpr int32_t kVectorRectSide = 32;
// From this many cells on, a window next to a GPU's lines is recomputed on that GPU: below it a
// launch and its copies cost more than the host's fill.
constexpr int64_t kGpuWindowCells = int64_t(1) << 16;

// The rectangle's inputs as a problem of their own.
Problem rect_problem(const Problem& p, const Rect& rc) {
    // Every member but the inputs, which are sliced: a copy of a whole pair would cost a tile of
    // a 1,048,576^2 traceback more than its fill.
    Problem sub;
    sub.algo = p.algo;
    sub.query_name = p.query_name;
    sub.target_name = p.target_name;
    sub.matrix = p.matrix;
    sub.gaps = p.gaps;
    sub.score_scale = p.score_scale;
    sub.dtw_scale = p.dtw_scale;
    sub.dtw_cost = p.dtw_cost;
    sub.band = p.band;
    sub.band_shift = p.band_shift;
    sub.hmm = p.hmm;
    sub.hmm_fixed = p.hmm_fixed;
    const size_t i0 = size_t(rc.r0), h = size_t(rc.r1 - rc.r0), j0 = size_t(rc.c0), w = size_t(rc.c1 - rc.c0);
    auto slice = [](const auto& v, size_t from, size_t n) { return std::decay_t<decltype(v)>(v.begin() + from, v.begin() + from + n); };
    if (p.algo == Algorithm::dtw) {
        sub.query_fixed = slice(p.query_fixed, i0, h);
        sub.target_fixed = slice(p.target_fixed, j0, w);
    } else {
        sub.query_codes = slice(p.query_codes, i0, h);
        sub.target_codes = slice(p.target_codes, j0, w);
        sub.query = p.query.substr(i0, h);
        sub.target = p.target.substr(j0, w);
    }
    return sub;
}

bool fill_rect_vector(const Problem& p, const Rect& rc, const RectOut& out) {
    const Problem sub = rect_problem(p, rc);
    const RectBorders borders{rc.top_h.data(), rc.top_f.empty() ? nullptr : rc.top_f.data(), rc.left_h.data(),
                              rc.left_e.empty() ? nullptr : rc.left_e.data()};
    const bool values = out.H || out.E || out.F;
    Expected<DpResult> r = fill_rect_cpu(sub, borders, values ? OutputLevel::matrix : OutputLevel::path, 1);
    if (!r) return false;
    const int32_t h = rc.r1 - rc.r0, w = rc.c1 - rc.c0;
    auto copy = [&](const auto& from, auto* to) {
        if (!to || from.empty()) return;
        for (int32_t i = 0; i < h; ++i)
            std::copy_n(&from.at(i + 1, 1), size_t(w), &to->at(i, 0));
    };
    copy(r->H, out.H);
    copy(r->E, out.E);
    copy(r->F, out.F);
    copy(r->dirs, out.dirs);
    return true;
}

// The bits only where they are asked for (the recurrence without them is the score kernels' form).
void fill_rect(const Problem& p, const Rect& rc, const RectOut& out) {
    if (rc.r1 <= rc.r0 || rc.c1 <= rc.c0) return;
    // A DTW band is placed by the whole matrix's sides (fill_rect_cpu): the scalar form tests each
    // cell against it.
    const bool vector = rc.r1 - rc.r0 >= kVectorRectSide && rc.c1 - rc.c0 >= kVectorRectSide &&
                        !(p.algo == Algorithm::dtw && p.band >= 0);
    if (vector && fill_rect_vector(p, rc, out)) return;
    if (out.dirs) fill_rect_bits<true>(p, rc, out);
    else fill_rect_bits<false>(p, rc, out);
}

// The rectangle below row r0 and right of column c0 (both 0 or checkpoint lines) to (r1, c1),
// with its borders read from the rules (row 0, column 0) or the checkpoints.
Rect rect_from(const Problem& p, const Checkpoints& c, int32_t r0, int32_t c0, int32_t r1, int32_t c1) {
    Rect rc{r0, c0, r1, c1, {}, {}, {}, {}};
    const bool affine = c.affine;
    // One edge: row `line` over columns from..to (H, F), or column `line` over rows (H, E).
    auto edge = [&](bool column, int32_t line, int32_t from, int32_t to, std::vector<int32_t>& h,
                    std::vector<int32_t>& gap) {
        h.resize(size_t(to - from) + 1);
        if (affine) gap.resize(h.size());
        if (line != 0 && c.source) {
            // Entry 0 (where the line meets the other border) by the rules, the rest from the source.
            const size_t first = from == 0 ? 1 : 0;
            if (first) {
                const BorderCell b = border_cell(p, !column, line);
                h[0] = b.h;
                if (affine) gap[0] = column ? b.e : b.f;
            }
            if (from + int32_t(first) <= to)
                c.source->edge(column, line, from + int32_t(first), to, h.data() + first, affine ? gap.data() + first : nullptr);
            return;
        }
        const int32_t* kept_h = line == 0 ? nullptr : column ? c.col(c.col_h, line) : c.row(c.row_h, line);
        const int32_t* kept_gap = line == 0 || !affine ? nullptr : column ? c.col(c.col_e, line) : c.row(c.row_f, line);
        for (int32_t k = from; k <= to; ++k) {
            const size_t x = size_t(k - from);
            if (line == 0) {
                const BorderCell b = border_cell(p, column, k);
                h[x] = b.h;
                if (affine) gap[x] = column ? b.e : b.f;
            } else {
                h[x] = kept_h[k];
                if (affine) gap[x] = kept_gap[k];
            }
        }
    };
    edge(false, r0, c0, c1, rc.top_h, rc.top_f);
    edge(true, c0, r0, r1, rc.left_h, rc.left_e);
    return rc;
}


}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Windows
// ---------------------------------------------------------------------------------------------


WindowValues compute_window(const Problem& p, const Checkpoints& c, Window w, bool with_dirs, bool with_gaps) {
    if (p.algo == Algorithm::viterbi) return viterbi_window(p, c, w, with_dirs);  // its own dependency shape
    w = w.within(c.M, c.N);
    WindowValues v;
    v.w = w;
    const bool affine = c.affine, gaps = affine && with_gaps;  // gaps: E and F asked for
    v.H.reset(w.rows(), w.cols(), 0);
    if (with_dirs) v.dirs.reset(w.rows(), w.cols(), 0);
    if (gaps) {
        v.E.reset(w.rows(), w.cols(), kNegInf);
        v.F.reset(w.rows(), w.cols(), kNegInf);
    }
    if (w.empty()) return v;
    // The interior cells: one rectangle from the checkpoint corner above-left of the window's
    // first interior cell.
    const int32_t fi = std::max(w.i0, 1), fj = std::max(w.j0, 1);
    const int32_t r0 = c.row_before(fi), c0 = c.col_before(fj);
    const int32_t r1 = w.i1 - 1, c1 = w.j1 - 1;
    bool on_gpu = false;
    if (r1 >= fi && c1 >= fj && c.source && c.source->on_gpu() && int64_t(r1 - r0) * (c1 - c0) >= kGpuWindowCells) {
        // On the GPU that holds the lines; only the window's cells come back. The rectangle ends on
        // lines where the matrix allows: its device buffers then come in a few sizes, reused.
        const auto to_line = [](int32_t before, int32_t after, int32_t k, int32_t last) {
            return before == k ? k : std::min(after, last);
        };
        const int32_t gr1 = to_line(c.row_before(r1 + 1), c.row_after(c.row_before(r1 + 1)), r1, c.M);
        const int32_t gc1 = to_line(c.col_before(c1 + 1), c.col_after(c.col_before(c1 + 1)), c1, c.N);
        const Rect rc = rect_from(p, c, r0, c0, gr1, gc1);
        GpuRect g;
        g.borders = {rc.top_h.data(), affine ? rc.top_f.data() : nullptr, rc.left_h.data(),
                     affine ? rc.left_e.data() : nullptr};
        g.off_i = r0;
        g.off_j = c0;
        g.full_M = c.M;
        g.full_N = c.N;
        g.i0 = fi - r0 - 1;
        g.i1 = r1 - r0;
        g.j0 = fj - c0 - 1;
        g.j1 = c1 - c0;
        const int32_t oi = fi - w.i0, oj = fj - w.j0;
        g.H = &v.H.at(oi, oj);
        g.E = gaps ? &v.E.at(oi, oj) : nullptr;
        g.F = gaps ? &v.F.at(oi, oj) : nullptr;
        g.dirs = with_dirs ? &v.dirs.at(oi, oj) : nullptr;
        g.pitch = size_t(w.cols());
        const Status st = fill_rect_gpu(rect_problem(p, rc), g);
        on_gpu = v.on_gpu = bool(st);
        if (!st) v.fallback = st.error().message;
    }
    if (r1 >= fi && c1 >= fj && !on_gpu) {
        const Rect rc = rect_from(p, c, r0, c0, r1, c1);
        Grid<int32_t> H, E, F;
        Grid<uint8_t> dirs;
        H.reset(r1 - r0, c1 - c0, 0);
        if (with_dirs) dirs.reset(r1 - r0, c1 - c0, 0);
        if (gaps) {
            E.reset(r1 - r0, c1 - c0, kNegInf);
            F.reset(r1 - r0, c1 - c0, kNegInf);
        }
        fill_rect(p, rc, {&H, gaps ? &E : nullptr, gaps ? &F : nullptr, with_dirs ? &dirs : nullptr});
        const size_t n = size_t(c1 - fj + 1);
        for (int32_t i = fi; i <= r1; ++i) {  // row by row, from the rectangle into the window
            const int32_t gi = i - r0 - 1, gj = fj - c0 - 1, oi = i - w.i0, oj = fj - w.j0;
            std::copy_n(&H.at(gi, gj), n, &v.H.at(oi, oj));
            if (with_dirs) std::copy_n(&dirs.at(gi, gj), n, &v.dirs.at(oi, oj));
            if (gaps) {
                std::copy_n(&E.at(gi, gj), n, &v.E.at(oi, oj));
                std::copy_n(&F.at(gi, gj), n, &v.F.at(oi, oj));
            }
        }
    }
    // Border cells: the rules.
    auto put_border = [&](int32_t i, int32_t j) {
        const BorderCell b = border_cell(p, j == 0 && i > 0, j == 0 ? i : j);
        const int32_t oi = i - w.i0, oj = j - w.j0;
        v.H.at(oi, oj) = b.h;
        if (with_dirs) v.dirs.at(oi, oj) = b.dirs;
        if (gaps) {
            v.E.at(oi, oj) = b.e;
            v.F.at(oi, oj) = b.f;
        }
    };
    if (w.i0 == 0)
        for (int32_t j = w.j0; j < w.j1; ++j) put_border(0, j);
    if (w.j0 == 0)
        for (int32_t i = std::max(w.i0, 1); i < w.i1; ++i) put_border(i, 0);
    return v;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Traceback over recomputed tiles
// ---------------------------------------------------------------------------------------------

namespace {

// The tiles of a traceback, each recomputed from the checkpoints (so independent of the others):
// while the walk crosses one, idle threads fill those it is likely to enter next, up-left along
// the diagonal and beside it. The walk only moves up and left, so tiles below or right of the
// current one are dropped. Deterministic: a tile's bits do not depend on who computed it.
class TileStream {
public:
    TileStream(const Problem& p, const Checkpoints& c, unsigned workers) : p_(p), c_(c) {
        for (unsigned k = 0; k < workers; ++k) threads_.emplace_back([this] { work(); });
    }
    ~TileStream() {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : threads_) t.join();
    }

    // The bits of the tile whose corner is (r0, c0) (lines or 0), and what to fill next.
    const Grid<uint8_t>& enter(int32_t r0, int32_t c0) {
        std::shared_ptr<Tile> t;
        {
            std::unique_lock lock(m_);
            std::erase_if(tiles_, [&](const auto& kv) { return kv.first.first > r0 || kv.first.second > c0; });
            t = slot(r0, c0);
            if (!threads_.empty()) ahead(r0, c0);
            if (t->state == Tile::waiting) {
                t->state = Tile::filling;  // this thread fills it
                lock.unlock();
                fill(*t, r0, c0);
                lock.lock();
                t->state = Tile::done;
                done_.notify_all();
            }
            done_.wait(lock, [&] { return t->state == Tile::done; });
        }
        wake_.notify_all();
        current_ = std::move(t);
        return current_->bits;
    }

private:
    struct Tile {
        enum { waiting, filling, done } state = waiting;
        Grid<uint8_t> bits;
    };
    using Key = std::pair<int32_t, int32_t>;

    std::shared_ptr<Tile> slot(int32_t r0, int32_t c0) {
        auto& t = tiles_[{r0, c0}];
        if (!t) t = std::make_shared<Tile>();
        return t;
    }
    // Up to prefetched_tiles() tiles: the diagonal first, then its neighbours, nearest first.
    void ahead(int32_t r0, int32_t c0) {
        const int32_t budget = prefetched_tiles(c_.spacing);
        std::vector<Key> want;
        int32_t r = r0, col = c0;
        while ((r > 0 || col > 0) && int32_t(want.size()) < budget) {
            const int32_t up = r > 0 ? c_.row_before(r) : -1, left = col > 0 ? c_.col_before(col) : -1;
            if (up >= 0 && left >= 0) want.push_back({up, left});
            if (up >= 0) want.push_back({up, col});
            if (left >= 0) want.push_back({r, left});
            r = std::max(up, 0);
            col = std::max(left, 0);
        }
        for (const Key& k : want) {
            if (int32_t(queue_.size()) >= budget) break;
            if (tiles_.count(k)) continue;
            slot(k.first, k.second);
            queue_.push_back(k);
        }
    }
    void fill(Tile& t, int32_t r0, int32_t c0) const {
        const int32_t r1 = std::min(c_.row_after(r0), c_.M), c1 = std::min(c_.col_after(c0), c_.N);
        t.bits.reset(r1 - r0, c1 - c0, 0);
        fill_rect(p_, rect_from(p_, c_, r0, c0, r1, c1), {nullptr, nullptr, nullptr, &t.bits});
    }
    void work() {
        std::unique_lock lock(m_);
        while (true) {
            wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (stop_) return;
            const Key k = queue_.front();
            queue_.pop_front();
            auto it = tiles_.find(k);
            if (it == tiles_.end() || it->second->state != Tile::waiting) continue;  // dropped, or taken
            std::shared_ptr<Tile> t = it->second;
            t->state = Tile::filling;
            lock.unlock();
            fill(*t, k.first, k.second);
            lock.lock();
            t->state = Tile::done;
            done_.notify_all();
        }
    }

    const Problem& p_;
    const Checkpoints& c_;
    std::mutex m_;
    std::condition_variable wake_, done_;
    std::map<Key, std::shared_ptr<Tile>> tiles_;
    std::deque<Key> queue_;
    std::shared_ptr<Tile> current_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace

std::vector<Cell> traceback_checkpoints(const Problem& p, const Checkpoints& c, Cell end) {
    // Prefetching pays when the walk crosses several tiles and another thread is there.
    const int32_t K = c.spacing;
    const unsigned cores = std::thread::hardware_concurrency();
    const bool far = end.i / K + end.j / K >= 4;
    const unsigned workers = far && prefetched_tiles(K) > 0 && cores > 1
                                 ? std::min(cores - 1, unsigned(prefetched_tiles(K))) : 0;
    TileStream tiles(p, c, workers);
    const Grid<uint8_t>* tile = nullptr;
    int32_t tr0 = -1, tc0 = -1;
    auto bits_at = [&](int32_t i, int32_t j) -> uint8_t {
        if (i == 0 || j == 0) return border_cell(p, j == 0 && i > 0, j == 0 ? i : j).dirs;
        const int32_t r0 = c.row_before(i), c0 = c.col_before(j);
        if (r0 != tr0 || c0 != tc0) {
            tile = &tiles.enter(r0, c0);
            tr0 = r0;
            tc0 = c0;
        }
        return tile->at(i - r0 - 1, j - c0 - 1);
    };
    return trace_path(p, bits_at, end);
}

}  // namespace dpviz
