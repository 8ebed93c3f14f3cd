// The recurrence inspector: for one cell, the recurrence of the current algorithm with the live
// values plugged in, the term that won, the stored direction bits decoded, and the cell operation
// the GPU kernels execute for it (DPX intrinsic and DPX-free form, as kernels/common/cell_ops.hpp
// writes them). Built on explain_cell (cell_inspect.hpp): one piece of code for the terms.
// Viterbi: delta(s, t) = max_k(delta(k, t-1) + ln a(k, s)) + ln e(s, x_t) with every predecessor
// (ln p and fixed point), the winner (the stored backpointer) and the running maximum the kernels
// take (__viaddmax_s32 beside the DPX-free add and max).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gui/app_state.hpp"
#include "gui/cell_inspect.hpp"

namespace dpviz::gui {

// One direction bit that applies to the algorithm, decoded.
struct BitFlag {
    const char* name;     // "diag", "up", "left", "zero", "E open", ...
    uint8_t mask = 0;
    bool set = false;
    const char* meaning;  // "H from H[i-1][j-1]"
};

// One recurrence with its live numbers: "H = max(12 + (-1), 9 - 10, 0)" and what it evaluates to.
// The numbers are in the user's units (value_text: "max(4.5 - 0.5, ...)" at score_scale 2); the
// kernel lines below keep the engine's integers (x score_scale), which is what the kernels add.
struct RecurrenceLine {
    std::string lhs;       // "H", "E", "F", "D", "L"; Viterbi "delta(L, 17)" (ln p), "q" (fixed point)
    std::string symbolic;  // "max(H[i-1][j-1] + s, H[i-1][j] - g, H[i][j-1] - g, 0)"
    std::string live;      // "max(12 + (-1), 9 - 10, 8 - 10, 0)"
    std::string reduced;   // "max(11, -1, -2, 0)"
    int32_t value = 0;     // = the engine's matrix value (x score_scale)
    std::string winner;    // "diag", "up = left (tie: both bits set)", "" for none; Viterbi: the
                           // predecessor state, "F (row 1)", with any tie named
};

// One statement of the kernel for this cell, with its operands filled in.
struct KernelLine {
    std::string lhs;       // "H", "E", "F", "t", "m", "d, u, l"
    std::string dpx;       // "__vimax3_s32_relu(11, -1, -2)"
    std::string dpx_free;  // "max2(max2(max2(11, -1), -2), 0)"
    std::string dpx_sass;  // "VIMNMX3.RELU" (the instruction ptxas emits for it)
    std::string free_sass; // "3 x FMNMX"
    int32_t value = 0;     // what both evaluate to (host evaluation of the same expression)
};

struct Inspection {
    CellExplain x;
    bool border = false;
    std::string border_rule;              // border cells: how the initialization sets them
    std::vector<RecurrenceLine> recurrences;  // E and F (affine) before H; Viterbi: ln p, then fixed point
    std::vector<BitFlag> bits;            // none for Viterbi (backpointers: x.back)
    std::vector<KernelLine> with_dirs;    // levels path and matrix: what the GUI's job runs
                                          // (Viterbi: cell::viterbi_candidate_arg, the backpointer kept)
    std::vector<KernelLine> score_only;   // level score (align --score-only, the benchmark)
                                          // (Viterbi: cell::viterbi_candidate, the running max)
};

// Viterbi lines list at most this many predecessors (the best ones) and running-max steps
// (the first ones and the last); the rest are counted.
inline constexpr size_t kViterbiShownTerms = 8;

// Everything the inspector shows for cell c (0 <= c.i < rows, 0 <= c.j < cols).
Inspection inspect_cell(const Problem& p, const MatrixRefs& m, Cell c);

// The panel: the clicked cell (View > Inspector), or the hovered one while the mouse is on the matrix.
// "Copy as text" puts what it shows on the clipboard.
void draw_teach_inspector(AppState& s);

}  // namespace dpviz::gui
