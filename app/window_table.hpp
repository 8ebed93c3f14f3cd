// Exact windows of the matrix for the command line: `--region I0:I1,J0:J1` parsed against the
// matrix, the window's values as a table (`--table`), and the path's part inside it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/store.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

// "I0:I1,J0:J1": matrix rows [I0, I1) and columns [J0, J1), 0-based, end exclusive, within the
// (M + 1) x (N + 1) matrix of p (row 0 and column 0 are the borders). Errors (usage) name the
// option and what is wrong.
Expected<Window> parse_region(std::string_view text, const Problem& p);
// The whole matrix.
Window whole_matrix(const Problem& p);
// The window's cells of a level-matrix result (the reference backend keeps whole matrices).
WindowValues cut_window(const Problem& p, const DpResult& r, Window w);
// One line per cell, row by row: a header naming the columns ("i j H bits", with E and F between
// for affine gaps), tab-separated; values in the user's units, unreachable as -inf / inf; bits
// the direction bits of docs/algorithms.md as a number. A landscape window (no bits) is
// "i j L"; a Viterbi trellis "i j H back": ln p exactly (the shortest decimal of H / 2^scale)
// and the predecessor row of DpResult::back.
std::string format_window_table(const Problem& p, const WindowValues& v);
// The path's cells inside w, in window coordinates (a monotone path crosses a rectangle once).
std::vector<Cell> path_in_window(const std::vector<Cell>& path, Window w);

}  // namespace dpviz::app
