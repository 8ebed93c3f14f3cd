// What a cell of the matrix says: its values, the candidates of the recurrence and which won
// (read from the direction bits, or for Viterbi the backpointers, as the engine recorded them),
// and the mask of cells on any optimal path. Pure functions of the problem and the matrices; used
// by tooltips and overlays.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/types.hpp"

namespace dpviz::gui {

struct Candidate {
    std::string label;   // "diag H[i-1][j-1] + s", "up", "E open H[i][j-1] - open", "0"
    int32_t value = 0;   // may be unreachable (render::is_unreachable)
    bool won = false;    // its direction bit is set (Viterbi: it is the stored backpointer)
    std::string name;    // the term alone: "diag", "up", "left", "start", "open", "extend"
                         // (Viterbi: the predecessor state's name, "begin" for row 0)
    std::string expr;    // the term with live numbers in the user's units: "12 + (-1)", "9 - 10",
                         // "-inf - 1", "4.5 - 0.5" (`value` stays on the problem's scale; Viterbi:
                         // in ln units, "-5.2311 + (-2.9957)", `value` in fixed point)
    int row = -1;        // Viterbi: the predecessor's row (0 the begin state, k state k-1)
};

struct CellExplain {
    Cell cell;
    char query_residue = 0, target_residue = 0;  // 0 on row/column 0 (and for DTW); Viterbi: the
                                                 // state's letter and the observed symbol
    double query_value = 0.0, target_value = 0.0; // DTW samples
    int32_t h = 0;
    std::optional<int32_t> e, f;                 // affine only
    std::optional<int32_t> substitution;         // s(q_i, t_j), the DTW local cost, or Viterbi's
                                                 // ln e(s, x_t) in fixed point
    std::string formula;                         // the recurrence in one line
    std::vector<Candidate> h_candidates, e_candidates, f_candidates;  // Viterbi: one per predecessor
    uint8_t bits = 0;
    // Viterbi: the row's state ("begin" for row 0) and the stored backpointer (the winning
    // predecessor's row; nothing on the borders).
    std::string state;
    std::optional<int> back;
};

// The matrices a result carries at level matrix (E and F empty for linear gaps; Viterbi has no
// direction bits, its backpointers instead).
struct MatrixRefs {
    const Grid<int32_t>* H = nullptr;
    const Grid<int32_t>* E = nullptr;
    const Grid<int32_t>* F = nullptr;
    const Grid<uint8_t>* dirs = nullptr;
    Cell origin{};  // the grids hold the cells from here on (a window of a matrix kept in GPU
                    // memory, Computed::window); {0, 0}: whole matrices
    const Grid<uint16_t>* back = nullptr;  // Viterbi: DpResult::back, or a store window's (from `origin`)

    // Cell (i, j) of a grid above; unreachable (kNegInf) / no bits outside it.
    int32_t value(const Grid<int32_t>* g, int i, int j) const {
        const int a = i - origin.i, b = j - origin.j;
        return g && a >= 0 && b >= 0 && a < g->rows && b < g->cols && !g->empty() ? g->at(a, b) : kNegInf;
    }
    uint8_t bits(int i, int j) const {
        const int a = i - origin.i, b = j - origin.j;
        return dirs && a >= 0 && b >= 0 && a < dirs->rows && b < dirs->cols && !dirs->empty() ? dirs->at(a, b) : 0;
    }
    // Viterbi: the predecessor row stored for (i, j), or nothing outside the backpointers.
    std::optional<int> back_row(int i, int j) const {
        const int a = i - origin.i, b = j - origin.j;
        if (!back || back->empty() || a < 0 || b < 0 || a >= back->rows || b >= back->cols) return std::nullopt;
        return int(back->at(a, b));
    }
};

CellExplain explain_cell(const Problem& p, const MatrixRefs& m, Cell c);
// A matrix value as the engine holds it: the integer, "-inf" / "+inf" for the unreachable
// sentinels (the kernels' operands; Viterbi's fixed point).
std::string term_text(int32_t v);
// The same in the user's units (value_text): "10.5" for 21 at score_scale 2; the sentinels as above.
std::string term_text(const Problem& p, int32_t v);

// Viterbi values are natural logs in fixed point (q = ln p * 2^scale_log2, Problem::hmm_fixed):
// the views show ln p. -infinity for kNegInf.
double viterbi_ln(const Problem& p, int32_t q);
// ln p with `decimals` decimals ("-12.3456"), "-inf" for kNegInf.
std::string viterbi_ln_text(const Problem& p, int32_t q, int decimals = 4);
// Viterbi: the name of row i (0 the silent begin state, "begin"; row k state k-1).
std::string state_name(const Problem& p, int row);

// 1 for every cell on some optimal path: walked back from every optimal end cell (local: every
// cell holding the best score; semiglobal: every such cell of the last row or column; else
// (M, N)) through every direction bit, with the H/E/F states of affine gaps. Viterbi (no bits):
// from every state of the last column holding the score, through every predecessor whose
// delta + ln a equals the cell's delta - ln e (every tied most likely state path).
Grid<uint8_t> optimal_mask(const Problem& p, const MatrixRefs& m, int32_t score);

// Arrows drawn in a cell at table scale: the moves its bits allow for the shown layer.
struct CellArrows {
    bool diag = false, up = false, left = false;  // toward (i-1, j-1), (i-1, j), (i, j-1)
    bool stop = false;                            // local kZero: an alignment may start here
};
enum class LayerKind { H, E, F };
CellArrows arrows_of(const Problem& p, uint8_t bits, LayerKind layer);

// Index k with path[k] == c, or nothing. Every path is strictly increasing in (j, i) order: an
// alignment's moves never go left or up, and a Viterbi path takes one cell per column.
std::optional<int> path_index(const std::vector<Cell>& path, Cell c);

}  // namespace dpviz::gui
