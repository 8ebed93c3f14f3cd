// Heatmap composition: the score matrix (max-pooled or upscaled to the image), the traceback
// path on top, a colorbar with the value range and a caption. Used by PNG export and the GUI.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/render/colormap.hpp"
#include "dpviz/types.hpp"

namespace dpviz::render {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3, row-major, top row first

    Rgb pixel(int x, int y) const {
        const size_t o = (static_cast<size_t>(y) * width + x) * 3;
        return {rgb[o], rgb[o + 1], rgb[o + 2]};
    }
};

inline constexpr int kMaxImageSide = 16384;  // larger requests are usage errors

struct ValueRange {
    int32_t min = 0, max = 0;      // over finite cells only; both 0 when there are none
    bool any_finite = false;
    bool any_unreachable = false;
};

struct HeatmapOptions {
    // The matrix area is scaled to fit this many pixels on its longer side, keeping the aspect
    // ratio: larger matrices are max-pooled, smaller ones upscaled by the largest integer factor
    // that fits (crisp square cells). 1..kMaxImageSide.
    int max_side = 2048;
    bool draw_path = true;
    bool colorbar = true;
    std::string caption;        // text under the image (algorithm, parameters, score); wrapped, at most kCaptionLines
    std::string row_label = "query (rows)";         // axis hints; an empty string draws none
    std::string col_label = "target (columns)";
    // Auto: diverging (centered on 0) when the matrix has negative and positive finite values,
    // viridis otherwise.
    bool auto_colormap = true;
    Colormap colormap = Colormap::viridis;
    int text_scale = 0;         // stb_easy_font units -> pixels; 0 = auto (2, or 3 for a large matrix area)
    // The colorbar's labels for a matrix value: the user's units (dpviz::value_text of the
    // problem: scores / score_scale, Viterbi's ln p); empty: the integer as it is.
    std::function<std::string(int64_t)> value_text;
    // The range the colours span; unset: value_range(H). An overview (pooled maxima) passes the
    // exact range of the matrix it stands for.
    std::optional<ValueRange> range;
    // A pixel over several cells shows their largest finite value, or with pool_lowest their
    // lowest (edit distance and DTW, where low is good).
    bool pool_lowest = false;
    // The matrix rows and columns the image stands for, for the axis hints ("i = 0..30000"): a
    // window's (--region) or an overview's; unset: the grid's own 0..rows-1 and 0..cols-1.
    struct Span {
        int64_t first = 0, last = 0;
    };
    std::optional<Span> rows_shown, cols_shown;
};

inline constexpr int kCaptionLines = 8;  // a longer caption is cut, its last line ending in "..."

// ---------------------------------------------------------------------------------------------
// Values -> colors. Shared with the GUI, which colorizes the same way for its texture.
// ---------------------------------------------------------------------------------------------

inline bool is_unreachable(int32_t v) { return v <= kNegInf || v >= kPosInf; }

ValueRange value_range(const Grid<int32_t>& H);

// Finite value -> position t on the map -> color. Sequential maps stretch [min, max] over [0, 1];
// the diverging map puts 0 at t = 0.5 and stretches each side on its own ([min, 0] -> [0, 0.5],
// [0, max] -> [0.5, 1]), so both signs stay visible however lopsided the range is.
struct ColorScale {
    Colormap map = Colormap::viridis;
    int32_t min = 0, max = 0;

    float position(int32_t v) const;  // v clamped to [min, max]
    Rgb color(int32_t v) const;       // unreachable_color(map) for unreachable values
};
ColorScale make_color_scale(const ValueRange& range, const HeatmapOptions& opt);

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

struct Rect {
    int x = 0, y = 0, w = 0, h = 0;
    bool empty() const { return w <= 0 || h <= 0; }
    bool contains(int px, int py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

struct Size {
    int width = 0, height = 0;
};

// The matrix area for a rows x cols matrix under max_side (see HeatmapOptions::max_side).
Size fit_matrix(int32_t rows, int32_t cols, int max_side);

// The matrix alone, resampled to width x height and colorized: a pixel covering several cells
// shows their maximum finite value (unreachable only when all of them are), a cell covering
// several pixels fills them all (nearest, crisp when the size is an integer multiple).
Expected<Image> colorize_matrix(const Grid<int32_t>& H, const ColorScale& scale, Size size);

// Where everything lands in the composed image. Cell (i, j) covers the matrix area pixels
// [matrix.x + j * matrix.w / cols, ...) horizontally and likewise vertically.
struct HeatmapLayout {
    int width = 1, height = 1;  // the whole image
    Rect matrix;
    Rect colorbar;              // empty without a colorbar
    Rect caption;               // empty without a caption
    int text_scale = 2;
};

// ---------------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------------

// Composes the full image from H (level matrix) and the path (cells of H, successive cells one
// move apart; drawn as a line through the cell centers). An empty H gives a 1x1 image.
// Errors (usage): max_side outside 1..kMaxImageSide, H's data not rows x cols, a path cell outside H.
// Out of memory: resource.
Expected<Image> compose_heatmap(const Grid<int32_t>& H, const std::vector<Cell>& path, const HeatmapOptions& opt);

// The same, also returning the layout (tests, and the GUI mapping a pixel back to a cell).
struct Heatmap {
    Image image;
    HeatmapLayout layout;
    ColorScale scale;
};
Expected<Heatmap> compose_heatmap_with_layout(const Grid<int32_t>& H, const std::vector<Cell>& path,
                                              const HeatmapOptions& opt);

}  // namespace dpviz::render
