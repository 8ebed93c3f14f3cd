// The result store for matrices of any size: instead of whole matrices, a fill keeps the values
// needed to restart it on a grid of borders every K rows and columns (checkpoints). Any window
// of the matrix is then recomputed exactly from the nearest checkpoint corner, and the traceback
// runs tile by tile over recomputed direction bits, in the memory of the checkpoints.
// docs/algorithms.md, "Matrices of any size", says what is kept and how K is chosen.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz {

// A rectangle of matrix cells: rows [i0, i1) and columns [j0, j1), 0-based matrix indices (row 0
// and column 0 are the borders), end exclusive.
struct Window {
    int32_t i0 = 0, i1 = 0, j0 = 0, j1 = 0;
    int32_t rows() const { return i1 - i0; }
    int32_t cols() const { return j1 - j0; }
    int64_t cells() const { return int64_t(rows()) * cols(); }
    bool empty() const { return i1 <= i0 || j1 <= j0; }
    // This window cut to the cells of an M x N problem's matrix, borders included (rows 0..M,
    // columns 0..N); an end before its start becomes the start (an empty window).
    Window within(int32_t M, int32_t N) const {
        Window w;
        w.i0 = std::clamp(i0, 0, M + 1);
        w.i1 = std::clamp(i1, w.i0, M + 1);
        w.j0 = std::clamp(j0, 0, N + 1);
        w.j1 = std::clamp(j1, w.j0, N + 1);
        return w;
    }
    friend bool operator==(const Window&, const Window&) = default;
};

// The exact values of a window, as a level-matrix fill holds them: H (the algorithm's value in
// the user's terms: edit distance, not its negation), E and F for affine gaps, direction bits;
// Viterbi: H and, in place of direction bits, the predecessor rows as DpResult::back holds them.
// Grid cell (r, c) is matrix cell (w.i0 + r, w.j0 + c).
struct WindowValues {
    Window w;
    Grid<int32_t> H, E, F;
    Grid<uint8_t> dirs;
    Grid<uint16_t> back;
    bool on_gpu = false;   // recomputed on the GPU that holds the lines
    std::string fallback;  // the GPU was to compute the window and could not (why): the CPU did
};

// Where lines live that the host does not hold (a GPU fill's, in device memory): edge() writes
// entries k = from .. to (from >= 1) of row line `line` (H, and F with affine gaps; column line:
// H, E) to h[k - from] and gap[k - from]. A failure is kept, not thrown: the values are then the
// rules' borders, and failed() says why (whoever hands the result on checks it). edge() may be
// called from several threads at once.
class LineSource {
public:
    virtual ~LineSource() = default;
    virtual void edge(bool column, int32_t line, int32_t from, int32_t to, int32_t* h, int32_t* gap) const = 0;
    virtual std::string failed() const = 0;
    // The lines are a GPU's: windows big enough to pay for a launch are recomputed there too.
    virtual bool on_gpu() const { return false; }
};

// Restart values on the borders of K x K tiles: the whole of every row i = K, 2K, ... <= M
// (H, and F for affine gaps: a vertical gap runs across a row border) and of every column
// j = K, 2K, ... <= N (H, and E: a horizontal gap runs across a column border). Row 0 and column
// 0 follow from the algorithm's rules and are not stored. A phase shifts the lines (rows i > 0
// with i mod K = row_phase): the landscape's backward fill keeps the lines that mirror the
// forward ones. A trellis (Viterbi) keeps column lines only, delta of every K-th column (each
// column restarts from the whole column before it, so a row line would restart nothing): its
// row_phase is M + 1, the first row line past the last row (make_checkpoints).
struct Checkpoints {
    int32_t spacing = 0;  // K
    int32_t row_phase = 0, col_phase = 0;
    int32_t M = 0, N = 0;
    bool affine = false;
    std::vector<int32_t> row_h, row_f;  // the k-th row line at [k (N + 1), (k + 1) (N + 1))
    std::vector<int32_t> col_h, col_e;  // the k-th column line at [k (M + 1), (k + 1) (M + 1))
    std::shared_ptr<const LineSource> source;  // when set, the lines are there and the vectors empty

    // The first line (rows or columns), the lines up to `last`, whether k is one, the line (or 0)
    // strictly before k >= 1, and the next line after a line (or 0).
    static int32_t first_line(int32_t K, int32_t phase) { return phase == 0 ? K : phase; }
    static int32_t lines(int32_t K, int32_t phase, int32_t last) {
        const int32_t f = first_line(K, phase);
        return K && f <= last ? (last - f) / K + 1 : 0;
    }
    static int32_t before(int32_t K, int32_t phase, int32_t k) {
        const int32_t f = first_line(K, phase);
        return k - 1 < f ? 0 : f + ((k - 1 - f) / K) * K;
    }
    static int32_t after(int32_t K, int32_t phase, int32_t line) { return line == 0 ? first_line(K, phase) : line + K; }
    int32_t row_lines() const { return lines(spacing, row_phase, M); }
    int32_t col_lines() const { return lines(spacing, col_phase, N); }
    bool is_row_line(int32_t r) const { return r > 0 && r % spacing == row_phase; }
    int32_t row_before(int32_t k) const { return before(spacing, row_phase, k); }
    int32_t col_before(int32_t k) const { return before(spacing, col_phase, k); }
    int32_t row_after(int32_t line) const { return after(spacing, row_phase, line); }
    int32_t col_after(int32_t line) const { return after(spacing, col_phase, line); }
    // Row line r: N + 1 values, indexed by the column; column line c: M + 1 values, by the row.
    int32_t* row(std::vector<int32_t>& v, int32_t r) { return v.data() + row_index(r) * size_t(N + 1); }
    const int32_t* row(const std::vector<int32_t>& v, int32_t r) const { return v.data() + row_index(r) * size_t(N + 1); }
    int32_t* col(std::vector<int32_t>& v, int32_t c) { return v.data() + col_index(c) * size_t(M + 1); }
    const int32_t* col(const std::vector<int32_t>& v, int32_t c) const { return v.data() + col_index(c) * size_t(M + 1); }

private:
    size_t row_index(int32_t r) const { return size_t((r - first_line(spacing, row_phase)) / spacing); }
    size_t col_index(int32_t c) const { return size_t((c - first_line(spacing, col_phase)) / spacing); }
};

// The overview of a matrix too big to hold: blocks of B x B cells pooled into one value each, the
// best finite value of the block (the largest; the lowest for edit distance and DTW, as the
// renderer pools with HeatmapOptions::pool_lowest), unreachable (kNegInf, or kPosInf when pooling
// the lowest) where no cell of it is finite, with the exact range of the finite values for the
// colour scale. Kept by the fill itself, never from a whole matrix.
struct Overview {
    int32_t block = 1;     // B
    bool lowest = false;   // pools the lowest value (minimizing algorithms)
    Grid<int32_t> H;       // ceil((M + 1) / B) x ceil((N + 1) / B)
    int32_t min = 0, max = 0;
    bool any_finite = false, any_unreachable = false;
};
// The texels of an overview of M x N cells (and the borders) in blocks of B: (M / B + 1) (N / B + 1).
inline uint64_t overview_texels(int32_t M, int32_t N, int32_t B) { return (uint64_t(M) / B + 1) * (uint64_t(N) / B + 1); }
// The smallest B whose overview fits max_side texels on either side, and past 120 cells the
// smallest such multiple of 8 (the one-pair GPU kernel meets texel columns at fixed steps of its
// 8-step blocks, pair_score::texel_fold).
int32_t overview_block(const Problem& p, int32_t max_side);
// An overview of p at block B holding only the borders (row 0 and column 0, by the rules), ready
// for a fill to pool its cells into.
Overview make_overview(const Problem& p, int32_t block);
// An overview with nothing pooled yet (every texel unreachable), and one cell pooled into it.
Overview empty_overview(const Problem& p, int32_t block);
void pool_into(Overview& o, int32_t i, int32_t j, int32_t v);
// Cells (i, j0 .. j0 + n - 1) of one row, values[k * stride] times `sign`, pooled into o a block
// of columns at a time; and a grid of cells from (i0, j0) on, row by row.
void pool_row(Overview& o, int32_t i, int32_t j0, int32_t n, const int32_t* values, ptrdiff_t stride = 1,
              int32_t sign = 1);
void pool_grid(Overview& o, int32_t i0, int32_t j0, const Grid<int32_t>& g);
// The overview a whole H implies (the specification the fills are tested against).
Overview overview_from_matrix(const Problem& p, const Grid<int32_t>& H, int32_t block);
// Pools `from` (the same shape) into `into`: what two threads of one fill kept.
void merge_overview(Overview& into, const Overview& from);
// The overview of p at block B from what a fill that pooled only the interior cells kept (a
// GPU's): its texels (any value that is not finite where it pooled nothing) and the worst finite
// value of those cells (the lowest; the largest when pooling the lowest), or one not finite. The
// borders are pooled by the rules.
Overview overview_from_interior(const Problem& p, int32_t block, const std::vector<int32_t>& texels, int32_t worst);
// The path in overview texels: each cell's block, runs of the same block kept once.
std::vector<Cell> overview_path(const Overview& o, const std::vector<Cell>& path);

// The borders a rectangle of a bigger matrix restarts from, in the user's terms (edit distance
// as the distance): row 0 of the rectangle (H, and F with affine gaps) for its columns 0..N and
// column 0 (H, and E) for its rows 0..M.
struct RectBorders {
    const int32_t* top_h = nullptr;
    const int32_t* top_f = nullptr;
    const int32_t* left_h = nullptr;
    const int32_t* left_e = nullptr;
};
// The fast CPU backend over `p` (a rectangle's inputs) from those borders instead of the rules:
// the interior cells at `level` (path: bits; matrix: H, E, F and bits), no end cell or path.
// Alignments, edit distance, LCS and DTW without a band (a band is placed by the whole matrix's sides).
Expected<DpResult> fill_rect_cpu(const Problem& p, const RectBorders& borders, OutputLevel level, unsigned threads);

// The spacings the store uses: powers of two from kMinCheckpointSpacing, the smallest whose
// checkpoints fit the budget; above kMaxCheckpointSpacing a traceback's tiles cost more than
// they save.
inline constexpr int32_t kMinCheckpointSpacing = 256;
inline constexpr int32_t kMaxCheckpointSpacing = 8192;
// Bytes of the checkpoints of p at spacing K, and of the traceback's working tile (Viterbi: delta
// of every K-th column, and one segment of K columns' backpointers).
uint64_t checkpoint_bytes(const Problem& p, int32_t spacing);
uint64_t traceback_tile_bytes(const Problem& p, int32_t spacing);
// While a traceback walks a tile, other threads fill up to this many of the tiles it may enter
// next, when a tile is at most kMaxPrefetchSpacing a side (traceback_tile_bytes counts them).
inline constexpr int32_t kPrefetchTiles = 12;
inline constexpr int32_t kMaxPrefetchSpacing = 1024;
int32_t prefetched_tiles(int32_t spacing);
// The spacing for a budget of bytes, or 0 when even kMaxCheckpointSpacing does not fit.
int32_t choose_checkpoint_spacing(const Problem& p, uint64_t budget);
// The finest spacing K whose checkpoints `fits(K)` says a device holds, kMaxCheckpointSpacing
// when none does (the device path then says how much memory it needs).
template <class Fits>
int32_t finest_device_spacing(Fits&& fits) {
    for (int32_t k = kMinCheckpointSpacing; k < kMaxCheckpointSpacing; k *= 2)
        if (fits(k)) return k;
    return kMaxCheckpointSpacing;
}
// Empty checkpoints of p at spacing K and the phases (every value kNegInf but where the lines
// meet the borders), ready for a fill to write.
Checkpoints make_checkpoints(const Problem& p, int32_t spacing, int32_t row_phase = 0, int32_t col_phase = 0);
// Checkpoints whose lines are in a source, with the lines copied into the vectors (tests).
Checkpoints checkpoints_on_host(const Problem& p, const Checkpoints& c);
// The checkpoints a fill at level matrix implies (the specification the fills are tested against).
Checkpoints checkpoints_from_matrix(const Problem& p, const DpResult& matrix, int32_t spacing, int32_t row_phase = 0,
                                    int32_t col_phase = 0);

// The values of any window, recomputed from the checkpoint corner at or above-left of it: equal,
// value for value and bit for bit, to the same cells of a level-matrix fill. The window is
// clipped to the matrix. Cost: at most (K + rows) x (K + cols) cells (a trellis: (K + cols)
// whole columns, from the kept column before the window).
// Without `with_dirs` only the values (WindowValues::dirs and back empty), a third faster;
// without `with_gaps` no E and F (affine gaps: two thirds of the values a window copies).
WindowValues compute_window(const Problem& p, const Checkpoints& c, Window w, bool with_dirs = true,
                            bool with_gaps = true);
// The traceback from `end` over direction bits recomputed tile by tile: the same path as
// traceback() over a whole direction grid (the same tie-breaks), in K x K bytes beside the
// checkpoints.
std::vector<Cell> traceback_checkpoints(const Problem& p, const Checkpoints& c, Cell end);

// ---------------------------------------------------------------------------------------------
// The alignment landscape (docs/algorithms.md, "The landscape"): L(i, j) is the best score of an
// alignment whose path visits node (i, j) (for DTW: cell (i, j)), from a forward fill and a fill
// of the reversed problem. Maximizing algorithms take the highest, edit distance and DTW the
// lowest; its optimum over the matrix is the alignment's score, and the cells at the optimum are
// the co-optimal cells.
// ---------------------------------------------------------------------------------------------

// p with both inputs reversed (the backward fill's problem): node (i, j) of p is node (M - i,
// N - j) of it; DTW's cell (i, j) is its cell (M + 1 - i, N + 1 - j), with the band mirrored.
Problem reversed_problem(const Problem& p);
// A score-level fill on the fast CPU backend that keeps only the checkpoints.
Expected<Checkpoints> fill_checkpoints(const Problem& p, int32_t spacing, unsigned threads, const RunControl& control,
                                       int32_t row_phase = 0, int32_t col_phase = 0);

// What the landscape is computed from: the checkpoints of p and of reversed_problem(p).
struct LandscapeSource {
    const Problem* forward = nullptr;
    const Checkpoints* forward_checkpoints = nullptr;
    Problem backward;
    Checkpoints backward_checkpoints;
};
Expected<LandscapeSource> landscape_source(const Problem& p, int32_t spacing, unsigned threads,
                                           const RunControl& control, const Checkpoints* forward = nullptr);
// The landscape of a window (in WindowValues::H; no E, F or bits), exactly.
WindowValues landscape_window(const LandscapeSource& s, Window w);
// The landscape pooled into blocks of B cells (the overview's rule: the best finite value of
// each block, the lowest for edit distance and DTW), tile by tile on `threads` threads. A cancelled
// `control` stops it between rows of tiles (what it returns then is incomplete: the caller who
// cancelled drops it); progress is reported on the calling thread.
Overview landscape_overview(const LandscapeSource& s, int32_t block, unsigned threads, const RunControl& control = {});

}  // namespace dpviz
