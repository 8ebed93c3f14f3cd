// The playback and ownership layer over the matrix canvas (see teach_overlay.hpp). Everything is
// drawn per row group (rows that advance together) or per tile, never per cell, so any matrix
// size costs at most a few thousand rectangles.
#include "gui/teach_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dpviz/schedule.hpp"
#include "gui/app_state.hpp"
#include "gui/compute.hpp"
#include "gui/teach_playback.hpp"

namespace dpviz::gui {
namespace {

constexpr float kMinTilePx = 8.0f;   // tile-scale rectangles are merged up to at least this size
constexpr int kMaxLabels = 400;      // tile order numbers drawn at most

ImVec2 at(const ViewTransform& xf, const Canvas& cv, double j, double i) {
    const Vec2d p = to_screen(xf, cv, {j, i});
    return ImVec2(float(p.x), float(p.y));
}

// Rows [i0, i1) x columns [j0, j1) in cell space.
void fill(ImDrawList* dl, const ViewTransform& xf, const Canvas& cv, double i0, double i1, double j0, double j1, ImU32 c) {
    if (i1 <= i0 || j1 <= j0) return;
    dl->AddRectFilled(at(xf, cv, j0, i0), at(xf, cv, j1, i1), c);
}

struct Visible {
    int32_t i0, i1, j0, j1;  // interior cells [i0, i1] x [j0, j1]; empty when i1 < i0 or j1 < j0
};
Visible visible_interior(const ViewTransform& xf, const Canvas& cv, int32_t M, int32_t N) {
    const Vec2d a = to_cell_space(xf, cv, {cv.x, cv.y});
    const Vec2d b = to_cell_space(xf, cv, {cv.x + cv.w, cv.y + cv.h});
    auto clampi = [](double v, int32_t lo, int32_t hi) { return int32_t(std::clamp(v, double(lo), double(hi))); };
    return {clampi(std::floor(a.y), 1, M), clampi(std::ceil(b.y) - 1, 0, M), clampi(std::floor(a.x), 1, N),
            clampi(std::ceil(b.x) - 1, 0, N)};
}

// Row groups meeting rows [i0, i1], thinned to about one per screen pixel when they are smaller.
template <class F>
void for_visible_groups(const Schedule& s, const ViewTransform& xf, const Visible& v, F&& f) {
    if (v.i1 < v.i0) return;
    const int32_t g0 = s.group_of_row(v.i0), g1 = s.group_of_row(v.i1);
    const double group_px = xf.cell_px * (s.group_last_row(g0) - s.group_first_row(g0) + 1);
    const int32_t stride = group_px >= 1.0 ? 1 : int32_t(std::ceil(1.0 / group_px));
    for (int32_t g = g0; g <= g1; g += stride) {
        const int32_t last = std::min(g1, g + stride - 1);
        f(g, s.group_first_row(g), s.group_last_row(last));  // drawn as if `g` stood for its neighbours
    }
}

void draw_playback_cells(ImDrawList* dl, const Schedule& s, int64_t k, const ViewTransform& xf, const Canvas& cv,
                         const Visible& v) {
    const int32_t N = s.cols();
    for_visible_groups(s, xf, v, [&](int32_t g, int32_t r0, int32_t r1) {
        const int32_t done = s.columns_done(g, k);
        const int32_t before = k > 0 ? s.columns_done(g, k - 1) : 0;
        fill(dl, xf, cv, r0, r1 + 1.0, std::max(done + 1, v.j0), N + 1.0, kPendingColor);
        if (done > before) fill(dl, xf, cv, r0, r1 + 1.0, before + 1, done + 1.0, kFrontColor);
    });
}

// Tile scale: each (merged) tile waiting, running (the front passes through it) or done.
void draw_playback_tiles(ImDrawList* dl, const Schedule& s, int64_t k, const ViewTransform& xf, const Canvas& cv,
                         const Visible& v) {
    if (v.i1 < v.i0 || v.j1 < v.j0) return;
    const int32_t R = s.band_rows(), C = s.tile_cols(), M = s.rows(), N = s.cols();
    const int32_t fb = std::max(1, int32_t(std::ceil(kMinTilePx / (xf.cell_px * R))));
    const int32_t fc = std::max(1, int32_t(std::ceil(kMinTilePx / (xf.cell_px * C))));
    const int32_t b0 = (v.i0 - 1) / R / fb * fb, b1 = (v.i1 - 1) / R;
    const int32_t c0 = (v.j0 - 1) / C / fc * fc, c1 = (v.j1 - 1) / C;
    for (int32_t b = b0; b <= b1; b += fb) {
        const int32_t bl = std::min(b + fb - 1, s.bands() - 1);
        const double top = 1.0 + double(b) * R, bottom = std::min<double>(M, double(bl + 1) * R) + 1.0;
        for (int32_t c = c0; c <= c1; c += fc) {
            const int32_t cl = std::min(c + fc - 1, s.tile_columns() - 1);
            const double left = 1.0 + double(c) * C, right = std::min<double>(N, double(cl + 1) * C) + 1.0;
            if (s.tile_first_step(b, c) > k) fill(dl, xf, cv, top, bottom, left, right, kPendingColor);
            else if (s.tile_last_step(bl, cl) > k) fill(dl, xf, cv, top, bottom, left, right, kFrontColor);
        }
    }
}

int field_value(const CellOwner& o, OwnerField f) {
    return f == OwnerField::block ? o.block : f == OwnerField::warp ? o.warp : o.lane;
}

void draw_ownership(ImDrawList* dl, const Schedule& s, OwnerField f, const ViewTransform& xf, const Canvas& cv,
                    const Visible& v) {
    if (v.j1 < v.j0) return;
    // A group's rows belong to one owner for every column: one rectangle per group.
    for_visible_groups(s, xf, v, [&](int32_t, int32_t r0, int32_t r1) {
        fill(dl, xf, cv, r0, r1 + 1.0, v.j0, v.j1 + 1.0, owner_color(f, field_value(s.owner(r0, 1), f)));
    });
}

// Band boundaries, tile-column boundaries, and at cell scale each tile's start order and owner.
void draw_tiles(ImDrawList* dl, const Schedule& s, const ViewTransform& xf, const Canvas& cv, const Visible& v) {
    if (v.i1 < v.i0 || v.j1 < v.j0) return;
    const int32_t R = s.band_rows(), C = s.tile_cols();
    const double band_px = xf.cell_px * R, tile_px = xf.cell_px * C;
    const int32_t b0 = (v.i0 - 1) / R, b1 = (v.i1 - 1) / R, c0 = (v.j0 - 1) / C, c1 = (v.j1 - 1) / C;
    const double left = v.j0, right = v.j1 + 1.0, top = v.i0, bottom = v.i1 + 1.0;
    if (band_px >= 10.0)
        for (int32_t b = b0; b <= b1 + 1; ++b) {
            const double y = 1.0 + double(b) * R;
            if (y >= top && y <= bottom) dl->AddLine(at(xf, cv, left, y), at(xf, cv, right, y), kTileLineColor, 1.5f);
        }
    if (tile_px >= 10.0 && s.tile_columns() > 1)
        for (int32_t c = c0; c <= c1 + 1; ++c) {
            const double x = 1.0 + double(c) * C;
            if (x >= left && x <= right) dl->AddLine(at(xf, cv, x, top), at(xf, cv, x, bottom), kTileLineColor, 1.0f);
        }
    const float fh = ImGui::GetFontSize();
    if (band_px < 2.4 * fh || tile_px < 5.0 * fh || int64_t(b1 - b0 + 1) * (c1 - c0 + 1) > kMaxLabels) return;
    for (int32_t b = b0; b <= b1; ++b)
        for (int32_t c = c0; c <= c1; ++c) {
            const CellOwner o = s.owner(1 + b * R, 1 + c * C);
            char text[64];
            if (s.kind() == ScheduleKind::gpu)
                std::snprintf(text, sizeof text, "#%lld\nblock %d warp %d", (long long)s.tile_rank(b, c), o.block, o.warp);
            else if (s.kind() == ScheduleKind::cpu)
                std::snprintf(text, sizeof text, "#%lld\nthread %d", (long long)s.tile_rank(b, c), o.block);
            else
                std::snprintf(text, sizeof text, "#%lld", (long long)s.tile_rank(b, c));
            // At the tile's top-left corner, or the canvas's when the tile starts outside the view;
            // only where the whole label fits in its tile and on the canvas (no label over the next).
            ImVec2 p = at(xf, cv, 1.0 + double(c) * C, 1.0 + double(b) * R);
            const ImVec2 end = at(xf, cv, 1.0 + double(c + 1) * C, 1.0 + double(b + 1) * R);
            p.x = std::max(p.x, float(cv.x));
            p.y = std::max(p.y, float(cv.y));
            const ImVec2 size = ImGui::CalcTextSize(text);
            const float pad = std::round(fh * 0.3f);
            const ImVec2 box(p.x + size.x + 3 * pad, p.y + size.y + 2 * pad);
            if (box.x > std::min(end.x, float(cv.x + cv.w)) || box.y > std::min(end.y, float(cv.y + cv.h))) continue;
            dl->AddRectFilled(ImVec2(p.x + pad * 0.5f, p.y + pad * 0.5f), box, IM_COL32(0, 0, 0, 170));
            dl->AddText(ImVec2(p.x + 1.5f * pad, p.y + pad), IM_COL32(255, 255, 255, 255), text);
        }
}

}  // namespace

void draw_teach_overlay(ImDrawList* dl, AppState& s, const Computed& c, const Canvas& cv) {
    prepare_wavefront(s, ImGui::GetIO().DeltaTime);
    const WavefrontView& w = s.wavefront;
    // The layer belongs to the panel: closing it clears the matrix.
    if (!s.panels.wavefront || w.view == TeachView::none || !w.cache.schedule || w.cache.result_id != c.id) return;
    const Schedule& sch = *w.cache.schedule;
    if (sch.steps() == 0) return;
    const ViewTransform& xf = s.view.xf;
    const Visible v = visible_interior(xf, cv, sch.rows(), sch.cols());
    if (w.view == TeachView::playback) {
        if (xf.cell_px >= kCellScalePx) draw_playback_cells(dl, sch, w.playback.step, xf, cv, v);
        else draw_playback_tiles(dl, sch, w.playback.step, xf, cv, v);
    } else {
        draw_ownership(dl, sch, w.color_by, xf, cv, v);
    }
    if (w.tiles) draw_tiles(dl, sch, xf, cv, v);
}

}  // namespace dpviz::gui
