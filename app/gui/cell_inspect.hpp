// What a cell of the matrix says: its values, the candidates of the recurrence and which won
// (read from the direction bits, as the engine recorded them), and the mask of cells on any
// optimal path. Pure functions of the problem and the matrices; used by tooltips and overlays.
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
    bool won = false;    // its direction bit is set
    std::string name;    // the term alone: "diag", "up", "left", "start", "open", "extend"
    std::string expr;    // the term with live numbers: "12 + (-1)", "9 - 10", "-inf - 1"
};

struct CellExplain {
    Cell cell;
    char query_residue = 0, target_residue = 0;  // 0 on row/column 0 (and for DTW)
    double query_value = 0.0, target_value = 0.0; // DTW samples
    int32_t h = 0;
    std::optional<int32_t> e, f;                 // affine only
    std::optional<int32_t> substitution;         // s(q_i, t_j) or the DTW local cost
    std::string formula;                         // the recurrence in one line
    std::vector<Candidate> h_candidates, e_candidates, f_candidates;
    uint8_t bits = 0;
};

// The matrices a result carries at level matrix (E and F empty for linear gaps).
struct MatrixRefs {
    const Grid<int32_t>* H = nullptr;
    const Grid<int32_t>* E = nullptr;
    const Grid<int32_t>* F = nullptr;
    const Grid<uint8_t>* dirs = nullptr;
    Cell origin{};  // the grids hold the cells from here on (a window of a matrix kept in GPU
                    // memory, Computed::window); {0, 0}: whole matrices

    // Cell (i, j) of a grid above; unreachable (kNegInf) / no bits outside it.
    int32_t value(const Grid<int32_t>* g, int i, int j) const {
        const int a = i - origin.i, b = j - origin.j;
        return g && a >= 0 && b >= 0 && a < g->rows && b < g->cols && !g->empty() ? g->at(a, b) : kNegInf;
    }
    uint8_t bits(int i, int j) const {
        const int a = i - origin.i, b = j - origin.j;
        return dirs && a >= 0 && b >= 0 && a < dirs->rows && b < dirs->cols && !dirs->empty() ? dirs->at(a, b) : 0;
    }
};

CellExplain explain_cell(const Problem& p, const MatrixRefs& m, Cell c);
// A matrix value as text: "-inf" / "+inf" for the unreachable sentinels.
std::string term_text(int32_t v);

// 1 for every cell on some optimal path: walked back from every optimal end cell (local: every
// cell holding the best score; semiglobal: every such cell of the last row or column; else
// (M, N)) through every direction bit, with the H/E/F states of affine gaps.
Grid<uint8_t> optimal_mask(const Problem& p, const MatrixRefs& m, int32_t score);

// Arrows drawn in a cell at table scale: the moves its bits allow for the shown layer.
struct CellArrows {
    bool diag = false, up = false, left = false;  // toward (i-1, j-1), (i-1, j), (i, j-1)
    bool stop = false;                            // local kZero: an alignment may start here
};
enum class LayerKind { H, E, F };
CellArrows arrows_of(const Problem& p, uint8_t bits, LayerKind layer);

// Index k with path[k] == c, or nothing (the path is strictly increasing in (i, j) order).
std::optional<int> path_index(const std::vector<Cell>& path, Cell c);

}  // namespace dpviz::gui
