// Zoom, pan and picking for the matrix view, as plain functions of a transform: no ImGui, so
// the tests check them directly. Cell (i, j) covers [j, j+1) x [i, i+1) in cell space
// (x = column, y = row); the matrix has rows = M+1 and cols = N+1 cells.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dpviz/render/gl_view_pixels.hpp"
#include "dpviz/types.hpp"

namespace dpviz::gui {

struct Vec2d {
    double x = 0.0, y = 0.0;
};

// A screen rectangle (pixels).
struct Canvas {
    double x = 0.0, y = 0.0, w = 0.0, h = 0.0;
    bool contains(Vec2d p) const { return p.x >= x && p.y >= y && p.x < x + w && p.y < y + h; }
};

// screen = canvas corner + (cell-space point - origin) * cell_px
struct ViewTransform {
    double cell_px = 1.0;       // screen pixels per cell
    double x0 = 0.0, y0 = 0.0;  // cell-space point at the canvas's top-left corner
};

inline constexpr double kMaxCellPx = 160.0;

Vec2d to_screen(const ViewTransform& v, const Canvas& c, Vec2d cell_space);
Vec2d to_cell_space(const ViewTransform& v, const Canvas& c, Vec2d screen);

// Smallest zoom: the whole matrix fits in a quarter of the canvas's shorter side (or 1 px/cell
// if that is larger), so a lost view is one scroll away from the whole matrix.
double min_cell_px(const Canvas& c, int rows, int cols);
// Zooms by `factor` about the screen point `at`: the cell-space point under `at` stays there.
ViewTransform zoom_at(const ViewTransform& v, const Canvas& c, Vec2d at, double factor, int rows, int cols);
ViewTransform pan_by(const ViewTransform& v, Vec2d screen_delta);
// The whole matrix, centered, as large as fits.
ViewTransform fit(const Canvas& c, int rows, int cols);
// One cell per screen pixel, keeping the cell-space point at the canvas center fixed.
ViewTransform one_to_one(const ViewTransform& v, const Canvas& c);

// The cell under a screen point, if it lies on the matrix.
std::optional<Cell> pick_cell(const ViewTransform& v, const Canvas& c, Vec2d screen, int rows, int cols);

// The visible cells and the texels to draw them with: one texel per cell when cells are at
// least a pixel, else one per screen pixel (pooled). rows == 0 when nothing is visible.
render::TexelRequest view_request(const ViewTransform& v, const Canvas& c, int rows, int cols, bool mask);

// "i, j", "i j", "i,j" or "(i, j)" -> the cell (row i, column j), as the tooltip writes it;
// nullopt for anything else (a sign, a third number, letters).
std::optional<Cell> parse_cell_text(std::string_view text);

// The ruler's tick interval in cells: the smallest of 1, 2, 5, 10, 20, 50, ... whose ticks
// lie at least `min_spacing_px` apart at `cell_px` pixels per cell.
int64_t ruler_step(double cell_px, double min_spacing_px);

}  // namespace dpviz::gui
