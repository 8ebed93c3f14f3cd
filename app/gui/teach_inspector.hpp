// The recurrence inspector: for one cell, the recurrence of the current algorithm with the live
// values plugged in, the term that won, the stored direction bits decoded, and the cell operation
// the GPU kernels execute for it (DPX intrinsic and DPX-free form, as kernels/common/cell_ops.hpp
// writes them). Built on explain_cell (cell_inspect.hpp): one piece of code for the terms.
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
struct RecurrenceLine {
    std::string lhs;       // "H", "E", "F", "D", "L"
    std::string symbolic;  // "max(H[i-1][j-1] + s, H[i-1][j] - g, H[i][j-1] - g, 0)"
    std::string live;      // "max(12 + (-1), 9 - 10, 8 - 10, 0)"
    std::string reduced;   // "max(11, -1, -2, 0)"
    int32_t value = 0;     // = the engine's matrix value
    std::string winner;    // "diag", "up = left (tie: both bits set)", "" for none
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
    std::vector<RecurrenceLine> recurrences;  // E and F (affine) before H
    std::vector<BitFlag> bits;
    std::vector<KernelLine> with_dirs;    // levels path and matrix: what the GUI's job runs
    std::vector<KernelLine> score_only;   // level score (align --score-only, the benchmark)
};

// Everything the inspector shows for cell c (0 <= c.i < rows, 0 <= c.j < cols).
Inspection inspect_cell(const Problem& p, const MatrixRefs& m, Cell c);

// The panel: the clicked cell (View > Inspector), or the hovered one while the mouse is on the matrix.
void draw_teach_inspector(AppState& s);

}  // namespace dpviz::gui
