// Heatmap composition: the score matrix (max-pooled or upscaled to the image), the traceback
// path on top, a colorbar with the value range and a caption. Used by PNG export and the GUI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/render/colormap.hpp"
#include "dpviz/types.hpp"

namespace dpviz::render {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3, row-major, top row first
};

struct HeatmapOptions {
    int max_side = 2048;        // the matrix area is at most this many pixels on its longer side
    int min_cell_px = 1;        // small matrices are upscaled so a cell is this many pixels or more (crisp)
    bool draw_path = true;
    bool colorbar = true;
    std::string caption;        // text under the image (algorithm, parameters, score)
    // Auto: diverging (centered on 0) when the matrix has negative finite values, viridis otherwise.
    bool auto_colormap = true;
    Colormap colormap = Colormap::viridis;
};

// Composes the full image from H (level matrix) and the path. Unreachable cells
// (|value| >= 2^30) are drawn dark gray.
Expected<Image> compose_heatmap(const Grid<int32_t>& H, const std::vector<Cell>& path, const HeatmapOptions& opt);

}  // namespace dpviz::render
