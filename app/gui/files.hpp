// Files the GUI reads and writes: where the bundled assets are, export names that never
// overwrite silently, the path as CSV, and the exports themselves (through render's OutputFile).
#pragma once

#include <string>
#include <vector>

#include "assets_dir.hpp"
#include "dpviz/expected.hpp"
#include "dpviz/render/heatmap.hpp"
#include "dpviz/types.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

// The assets folder (holding examples/globins.fa): the one lookup of app/assets_dir.hpp.
using app::find_assets_dir;

// `path` if no file is there, else the first free "stem-N.ext" (N = 1, 2, ...).
std::string unique_path(const std::string& path);

// "step,i,j,move,query_residue,target_residue" (DTW: query_value,target_value), one row per step
// of the path, the cell it enters: move M (diagonal), I (down: a query residue against a gap),
// D (right: a target residue against a gap), '-' on the gapped side (docs/gui.md, Export).
// Viterbi: "step,t,state,observation", one row per observation t = 1..T: the state the most
// likely path is in and the symbol observed (a field holding a comma or a quote is quoted).
std::string path_csv(const Problem& p, const std::vector<Cell>& path);

// The file an export of `kind` goes to under the current settings (suffix applied unless
// overwrite is on).
std::string export_target(const ExportSettings& s, ExportKind kind, const std::string& layer_suffix = "");

// The matrix PNG's drawing options for the shown result and layer: size, colours, path, the
// caption (the result's, and the layer when it is not H), a store result's exact range.
render::HeatmapOptions matrix_png_options(const AppState& s);

// Carries out matrix_png, alignment_text and path_csv exports (window_png needs the frame
// loop's GL context). Returns the written path.
Expected<std::string> export_result(const AppState& s, const ExportRequest& req);

}  // namespace dpviz::gui
