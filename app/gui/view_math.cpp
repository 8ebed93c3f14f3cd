// Zoom toward the cursor, pan, fit, 1:1, picking and the visible region (see view_math.hpp).
#include "gui/view_math.hpp"

#include <algorithm>
#include <cmath>

namespace dpviz::gui {

Vec2d to_screen(const ViewTransform& v, const Canvas& c, Vec2d p) {
    return {c.x + (p.x - v.x0) * v.cell_px, c.y + (p.y - v.y0) * v.cell_px};
}

Vec2d to_cell_space(const ViewTransform& v, const Canvas& c, Vec2d s) {
    return {v.x0 + (s.x - c.x) / v.cell_px, v.y0 + (s.y - c.y) / v.cell_px};
}

double min_cell_px(const Canvas& c, int rows, int cols) {
    const double side = std::max(1, std::max(rows, cols));
    return std::min(1.0, 0.25 * std::min(c.w, c.h) / side);
}

ViewTransform zoom_at(const ViewTransform& v, const Canvas& c, Vec2d at, double factor, int rows, int cols) {
    const Vec2d fixed = to_cell_space(v, c, at);
    ViewTransform z = v;
    z.cell_px = std::clamp(v.cell_px * factor, min_cell_px(c, rows, cols), kMaxCellPx);
    // Solve at = c + (fixed - origin) * cell_px for the new origin.
    z.x0 = fixed.x - (at.x - c.x) / z.cell_px;
    z.y0 = fixed.y - (at.y - c.y) / z.cell_px;
    return z;
}

ViewTransform pan_by(const ViewTransform& v, Vec2d d) {
    ViewTransform p = v;
    p.x0 -= d.x / v.cell_px;
    p.y0 -= d.y / v.cell_px;
    return p;
}

ViewTransform fit(const Canvas& c, int rows, int cols) {
    ViewTransform v;
    rows = std::max(rows, 1);
    cols = std::max(cols, 1);
    v.cell_px = std::min(kMaxCellPx, std::min(c.w / cols, c.h / rows));
    if (!(v.cell_px > 0)) v.cell_px = 1.0;
    v.x0 = cols / 2.0 - c.w / 2.0 / v.cell_px;
    v.y0 = rows / 2.0 - c.h / 2.0 / v.cell_px;
    return v;
}

ViewTransform one_to_one(const ViewTransform& v, const Canvas& c) {
    return zoom_at(v, c, {c.x + c.w / 2, c.y + c.h / 2}, 1.0 / v.cell_px, 1, 1);
}

std::optional<Cell> pick_cell(const ViewTransform& v, const Canvas& c, Vec2d s, int rows, int cols) {
    if (!c.contains(s)) return std::nullopt;
    const Vec2d p = to_cell_space(v, c, s);
    const double i = std::floor(p.y), j = std::floor(p.x);
    if (i < 0 || j < 0 || i >= rows || j >= cols) return std::nullopt;
    return Cell{int32_t(i), int32_t(j)};
}

render::TexelRequest view_request(const ViewTransform& v, const Canvas& c, int rows, int cols, bool mask) {
    render::TexelRequest r;
    r.mask = mask;
    const Vec2d a = to_cell_space(v, c, {c.x, c.y});
    const Vec2d b = to_cell_space(v, c, {c.x + c.w, c.y + c.h});
    const double i0 = std::clamp(std::floor(a.y), 0.0, double(rows));
    const double j0 = std::clamp(std::floor(a.x), 0.0, double(cols));
    const double i1 = std::clamp(std::ceil(b.y), 0.0, double(rows));
    const double j1 = std::clamp(std::ceil(b.x), 0.0, double(cols));
    if (i1 <= i0 || j1 <= j0) return r;
    r.i0 = int32_t(i0);
    r.j0 = int32_t(j0);
    r.rows = int32_t(i1 - i0);
    r.cols = int32_t(j1 - j0);
    r.out_w = std::clamp(int32_t(std::ceil(r.cols * v.cell_px)), 1, r.cols);
    r.out_h = std::clamp(int32_t(std::ceil(r.rows * v.cell_px)), 1, r.rows);
    return r;
}

std::optional<Cell> parse_cell_text(std::string_view t) {
    int64_t n[2] = {0, 0};
    int count = 0;
    size_t k = 0;
    auto skip = [&](bool comma_ok) {
        while (k < t.size() && (t[k] == ' ' || t[k] == '\t' || (comma_ok && t[k] == ','))) ++k;
    };
    skip(false);
    const bool paren = k < t.size() && t[k] == '(';
    if (paren) ++k;
    while (count < 2) {
        skip(count == 1);
        if (k >= t.size() || t[k] < '0' || t[k] > '9') return std::nullopt;
        int64_t x = 0;
        while (k < t.size() && t[k] >= '0' && t[k] <= '9') {
            x = x * 10 + (t[k++] - '0');
            if (x > INT32_MAX) return std::nullopt;
        }
        n[count++] = x;
        if (count == 1) {
            const size_t before = k;
            skip(true);
            if (k == before) return std::nullopt;  // "12" then a letter or nothing
        }
    }
    skip(false);
    if (paren) {
        if (k >= t.size() || t[k] != ')') return std::nullopt;
        ++k;
        skip(false);
    }
    if (k != t.size()) return std::nullopt;
    return Cell{int32_t(n[0]), int32_t(n[1])};
}

int64_t ruler_step(double cell_px, double min_spacing_px) {
    if (!(cell_px > 0)) return 1;
    for (int64_t decade = 1; decade < (int64_t(1) << 60); decade *= 10)
        for (const int64_t m : {1, 2, 5})
            if (double(m * decade) * cell_px >= min_spacing_px) return m * decade;
    return int64_t(1) << 60;
}

}  // namespace dpviz::gui
