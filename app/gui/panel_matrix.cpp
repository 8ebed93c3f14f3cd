// Matrix panel: the score matrix as a texture (drawn by the frame loop for the region this
// panel asks for), zoom toward the cursor, pan by dragging, fit and 1:1, the path and the
// optimal-cell mask, a textbook table (residues, scores, arrows) once cells are large, a
// tooltip with the recurrence's candidates, and the colorbar.
//
// Index of this file
// [SECTION] Helpers
// [SECTION] Toolbar
// [SECTION] Overlays: path, highlight, table, axes
// [SECTION] Tooltip
// [SECTION] Colorbar
// [SECTION] Panel
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gui/cell_inspect.hpp"
#include "gui/compute.hpp"
#include "gui/panels.hpp"
#include "gui/teach_overlay.hpp"
#include "gui/view_math.hpp"

namespace dpviz::gui {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Helpers
// ---------------------------------------------------------------------------------------------

constexpr float kColorbarWidth = 74.0f;
constexpr double kTableCellPx = 26.0;  // from here on, cells show their value and arrows
constexpr double kAxisCellPx = 9.0;    // from here on, residues along the axes

ImU32 im_color(render::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }
ImVec2 im_vec(Vec2d p) { return ImVec2(float(p.x), float(p.y)); }

std::string value_text(int32_t v) {
    if (render::is_unreachable(v)) return v > 0 ? "inf" : "-inf";
    return std::to_string(v);
}

// Black or white, whichever reads better on the cell's color.
ImU32 text_on(render::Rgb bg) {
    const int luma = (299 * bg.r + 587 * bg.g + 114 * bg.b) / 1000;
    return luma > 140 ? IM_COL32(10, 10, 10, 255) : IM_COL32(250, 250, 250, 255);
}

LayerKind layer_kind(Layer l) { return l == Layer::E ? LayerKind::E : l == Layer::F ? LayerKind::F : LayerKind::H; }

// The visible cells, clamped to the matrix.
struct CellRange {
    int i0 = 0, i1 = 0, j0 = 0, j1 = 0;  // [i0, i1) x [j0, j1)
};
CellRange visible_cells(const ViewTransform& xf, const Canvas& cv, int rows, int cols) {
    const Vec2d a = to_cell_space(xf, cv, {cv.x, cv.y});
    const Vec2d b = to_cell_space(xf, cv, {cv.x + cv.w, cv.y + cv.h});
    CellRange r;
    r.i0 = std::clamp(int(std::floor(a.y)), 0, rows);
    r.j0 = std::clamp(int(std::floor(a.x)), 0, cols);
    r.i1 = std::clamp(int(std::ceil(b.y)), 0, rows);
    r.j1 = std::clamp(int(std::ceil(b.x)), 0, cols);
    return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Toolbar
// ---------------------------------------------------------------------------------------------

void draw_toolbar(AppState& s, const Computed& c) {
    MatrixView& v = s.view;
    if (ImGui::Button("Fit")) v.fit_pending = true;
    ImGui::SameLine();
    if (ImGui::Button("1:1")) v.one_to_one_pending = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one cell per screen pixel");
    if (c.problem.affine()) {
        ImGui::SameLine();
        int layer = int(v.layer);
        ImGui::RadioButton("H", &layer, int(Layer::H));
        ImGui::SameLine();
        ImGui::RadioButton("E", &layer, int(Layer::E));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("E: best score ending in a horizontal gap (target residue vs '-')");
        ImGui::SameLine();
        ImGui::RadioButton("F", &layer, int(Layer::F));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("F: best score ending in a vertical gap (query residue vs '-')");
        v.layer = Layer(layer);
    }
    ImGui::SameLine();
    ImGui::Checkbox("path", &v.show_path);
    ImGui::SameLine();
    ImGui::Checkbox("optimal", &v.show_mask);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("cells on any optimal path (every direction bit followed back)");
    ImGui::SameLine();
    ImGui::Checkbox("table", &v.show_details);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("zoomed in: residues, each cell's value and its direction arrows");
    ImGui::SameLine();
    const std::string current = v.auto_colormap ? "auto" : std::string(render::colormap_name(v.colormap));
    ImGui::SetNextItemWidth(100);
    if (ImGui::BeginCombo("##colormap", current.c_str())) {
        if (ImGui::Selectable("auto", v.auto_colormap)) v.auto_colormap = true;
        for (const auto m : {render::Colormap::viridis, render::Colormap::magma, render::Colormap::grayscale,
                             render::Colormap::diverging}) {
            if (ImGui::Selectable(std::string(render::colormap_name(m)).c_str(), !v.auto_colormap && v.colormap == m)) {
                v.auto_colormap = false;
                v.colormap = m;
            }
        }
        ImGui::EndCombo();
    }
    char zoom[32];
    std::snprintf(zoom, sizeof zoom, "%.3g px/cell", v.xf.cell_px);
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(zoom).x) ImGui::NewLine();
    ImGui::TextDisabled("%s", zoom);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Overlays: path, highlight, table, axes
// ---------------------------------------------------------------------------------------------

void draw_path(ImDrawList* dl, const AppState& s, const Computed& c, const Canvas& cv, const render::ColorScale& scale) {
    const auto& path = c.result.path;
    if (path.size() < 2) return;
    const ViewTransform& xf = s.view.xf;
    std::vector<ImVec2> pts;
    pts.reserve(std::min<size_t>(path.size(), 20000));
    for (const Cell& cell : path) {
        const ImVec2 p = im_vec(to_screen(xf, cv, {cell.j + 0.5, cell.i + 0.5}));
        // Thousands of cells per pixel when zoomed out: keep one point per pixel of travel.
        if (!pts.empty() && std::abs(p.x - pts.back().x) < 0.75f && std::abs(p.y - pts.back().y) < 0.75f &&
            &cell != &path.back())
            continue;
        pts.push_back(p);
    }
    const render::PathStyle style = render::path_style(scale.map);
    // Thin and translucent at table scale, so the values and arrows under it stay readable.
    const bool table = s.view.show_details && xf.cell_px >= kTableCellPx;
    const float t = float(std::clamp(xf.cell_px * 0.16, 1.5, table ? 2.5 : 4.0));
    const int alpha = table ? 150 : 255;
    dl->AddPolyline(pts.data(), int(pts.size()), im_color(style.outline, alpha), ImDrawFlags_None, t + 2.0f);
    dl->AddPolyline(pts.data(), int(pts.size()), im_color(style.core, alpha), ImDrawFlags_None, t);
    // The end cell (where the traceback starts) as a dot.
    dl->AddCircleFilled(pts.back(), t + 2.0f, im_color(style.outline, alpha));
    dl->AddCircleFilled(pts.back(), t, im_color(style.core, alpha));
}

void outline_cell(ImDrawList* dl, const ViewTransform& xf, const Canvas& cv, Cell c, ImU32 color, float thickness) {
    const ImVec2 a = im_vec(to_screen(xf, cv, {double(c.j), double(c.i)}));
    const ImVec2 b = im_vec(to_screen(xf, cv, {c.j + 1.0, c.i + 1.0}));
    dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), color, 0.0f, 0, thickness);
}

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 color, float head) {
    dl->AddLine(from, to, color, 1.2f);
    const float dx = to.x - from.x, dy = to.y - from.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    const float ux = dx / len, uy = dy / len;
    dl->AddTriangleFilled(to, ImVec2(to.x - ux * head - uy * head * 0.6f, to.y - uy * head + ux * head * 0.6f),
                          ImVec2(to.x - ux * head + uy * head * 0.6f, to.y - uy * head - ux * head * 0.6f), color);
}

// The textbook table: each cell's value and arrows toward the predecessors its bits name.
void draw_table(ImDrawList* dl, const AppState& s, const Computed& c, const Canvas& cv, const CellRange& r,
                const render::ColorScale& scale) {
    const ViewTransform& xf = s.view.xf;
    // The visible cells only: a GPU-resident result copies just this window back.
    const MatrixRefs w = c.window(r.i0, r.i1, r.j0, r.j1);
    const Grid<int32_t>* g = s.view.layer == Layer::E ? w.E : s.view.layer == Layer::F ? w.F : w.H;
    const float px = float(xf.cell_px);
    const float font = std::min(ImGui::GetFontSize(), px * 0.42f);
    ImFont* f = ImGui::GetFont();
    for (int i = r.i0; i < r.i1; ++i) {
        for (int j = r.j0; j < r.j1; ++j) {
            const ImVec2 a = im_vec(to_screen(xf, cv, {double(j), double(i)}));
            const int32_t v = w.value(g, i, j);
            const ImU32 ink = text_on(scale.color(v));
            const std::string t = value_text(v);
            const ImVec2 size = f->CalcTextSizeA(font, FLT_MAX, 0.0f, t.c_str());
            if (size.x < px - 4)
                dl->AddText(f, font, ImVec2(a.x + px * 0.62f - size.x * 0.5f, a.y + px * 0.58f - size.y * 0.5f), ink,
                            t.c_str());
            if (!w.dirs || w.dirs->empty()) continue;
            const CellArrows ar = arrows_of(c.problem, w.bits(i, j), layer_kind(s.view.layer));
            const float head = std::max(3.0f, px * 0.09f);
            const ImVec2 o(a.x + px * 0.30f, a.y + px * 0.30f);
            if (ar.diag) arrow(dl, o, ImVec2(a.x + px * 0.06f, a.y + px * 0.06f), ink, head);
            if (ar.up) arrow(dl, o, ImVec2(o.x, a.y + px * 0.03f), ink, head);
            if (ar.left) arrow(dl, o, ImVec2(a.x + px * 0.03f, o.y), ink, head);
            if (ar.stop) dl->AddCircle(o, px * 0.07f, ink, 8, 1.2f);
        }
    }
}

// Residues along the top (target) and left (query) edges of the canvas.
void draw_axes(ImDrawList* dl, const AppState& s, const Computed& c, const Canvas& cv, const CellRange& r) {
    if (c.problem.algo == Algorithm::dtw) return;
    const ViewTransform& xf = s.view.xf;
    const float band = std::min(18.0f, float(xf.cell_px));
    const ImU32 bg = IM_COL32(20, 20, 24, 215), ink = IM_COL32(235, 235, 235, 255);
    dl->AddRectFilled(ImVec2(float(cv.x), float(cv.y)), ImVec2(float(cv.x + cv.w), float(cv.y) + band), bg);
    dl->AddRectFilled(ImVec2(float(cv.x), float(cv.y)), ImVec2(float(cv.x) + band, float(cv.y + cv.h)), bg);
    char text[2] = {0, 0};
    const float h = ImGui::GetFontSize();
    for (int j = std::max(r.j0, 1); j < r.j1; ++j) {
        text[0] = c.problem.target[size_t(j - 1)];
        const ImVec2 p = im_vec(to_screen(xf, cv, {j + 0.5, 0.0}));
        dl->AddText(ImVec2(p.x - ImGui::CalcTextSize(text).x * 0.5f, float(cv.y) + (band - h) * 0.5f), ink, text);
    }
    for (int i = std::max(r.i0, 1); i < r.i1; ++i) {
        text[0] = c.problem.query[size_t(i - 1)];
        const ImVec2 p = im_vec(to_screen(xf, cv, {0.0, i + 0.5}));
        dl->AddText(ImVec2(float(cv.x) + (band - ImGui::CalcTextSize(text).x) * 0.5f, p.y - h * 0.5f), ink, text);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Tooltip
// ---------------------------------------------------------------------------------------------

void candidate_lines(const char* title, const std::vector<Candidate>& cs) {
    if (cs.empty()) return;
    ImGui::TextDisabled("%s", title);
    for (const Candidate& k : cs) {
        const ImVec4 color = k.won ? ImVec4(0.45f, 0.95f, 0.45f, 1.0f) : ImVec4(0.75f, 0.75f, 0.75f, 1.0f);
        ImGui::TextColored(color, "%s %-30s = %s", k.won ? "*" : " ", k.label.c_str(), value_text(k.value).c_str());
    }
}

void draw_tooltip(const Computed& c, Cell cell) {
    const CellExplain x = explain_cell(c.problem, c.window(cell.i, cell.i + 1, cell.j, cell.j + 1), cell);
    ImGui::BeginTooltip();
    ImGui::Text("(i, j) = (%d, %d)", cell.i, cell.j);
    if (c.problem.algo == Algorithm::dtw) {
        if (cell.i > 0 && cell.j > 0)
            ImGui::Text("query %.5g   target %.5g   c(i, j) = %s", x.query_value, x.target_value,
                        value_text(x.substitution.value_or(0)).c_str());
    } else {
        ImGui::Text("query %c   target %c", x.query_residue ? x.query_residue : '-',
                    x.target_residue ? x.target_residue : '-');
        if (x.substitution) {
            ImGui::SameLine();
            ImGui::Text("  s = %d", *x.substitution);
        }
    }
    if (x.e)
        ImGui::Text("H = %s   E = %s   F = %s", value_text(x.h).c_str(), value_text(*x.e).c_str(),
                    value_text(*x.f).c_str());
    else
        ImGui::Text("%s = %s", c.problem.algo == Algorithm::lcs ? "L" : (minimizes(c.problem.algo) ? "D" : "H"),
                    value_text(x.h).c_str());
    ImGui::TextDisabled("%s", x.formula.c_str());
    candidate_lines("candidates (* won: its direction bit is set)", x.h_candidates);
    candidate_lines("E (horizontal gap)", x.e_candidates);
    candidate_lines("F (vertical gap)", x.f_candidates);
    if (const auto k = path_index(c.result.path, cell))
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "on the reported path (step %d); click to show it in the text",
                           *k);
    ImGui::EndTooltip();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Colorbar
// ---------------------------------------------------------------------------------------------

void draw_colorbar(ImDrawList* dl, const render::ColorScale& scale, const render::ValueRange& range, ImVec2 p0, float h) {
    const float w = 16.0f;
    const int steps = std::max(2, int(h / 3));
    const int32_t lo = std::min(scale.min, scale.max), hi = std::max(scale.min, scale.max);
    for (int k = 0; k < steps; ++k) {
        const double t = 1.0 - (k + 0.5) / steps;  // top = max
        const int32_t v = int32_t(std::lround(lo + t * (double(hi) - lo)));
        const float y0 = p0.y + h * k / steps, y1 = p0.y + h * (k + 1) / steps + 0.5f;
        dl->AddRectFilled(ImVec2(p0.x, y0), ImVec2(p0.x + w, y1), im_color(scale.color(v)));
    }
    dl->AddRect(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(160, 160, 160, 255));
    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text);
    const float fh = ImGui::GetFontSize();
    auto label = [&](float y, const std::string& text) { dl->AddText(ImVec2(p0.x + w + 4, y - fh * 0.5f), ink, text.c_str()); };
    label(p0.y + fh * 0.5f, std::to_string(hi));
    label(p0.y + h - fh * 0.5f, std::to_string(lo));
    if (lo < 0 && hi > 0) {
        // The diverging map puts 0 in the middle; sequential maps at its linear position.
        const float t = scale.position(0);
        label(p0.y + h * (1.0f - t), "0");
    }
    if (range.any_unreachable) {
        const float y = p0.y + h + 8;
        dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + w, y + fh), im_color(render::unreachable_color(scale.map)));
        dl->AddText(ImVec2(p0.x + w + 4, y), ink, "unr.");
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------------------------

void draw_matrix(AppState& s) {
    MatrixView& v = s.view;
    if (!s.result) {
        ImGui::TextWrapped("%s", s.job.busy ? "Computing..."
                                            : "No matrix yet: pick an example in the Inputs panel, or give two inputs.");
        if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", s.error.c_str());
        v.wanted = {};
        return;
    }
    const Computed& c = *s.result;
    if (!c.has_layer(v.layer)) v.layer = Layer::H;
    draw_toolbar(s, c);
    if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s (showing the last result)", s.error.c_str());

    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(std::max(avail.x - kColorbarWidth, 32.0f), std::max(avail.y, 32.0f));
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("canvas", size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const Canvas cv{pos.x, pos.y, size.x, size.y};
    v.canvas = cv;
    const int rows = c.rows(), cols = c.cols();

    if (v.fit_pending) {
        v.xf = fit(cv, rows, cols);
        v.fit_pending = false;
    }
    if (v.center_pending) {
        v.xf.cell_px = std::clamp(v.center_pending->cell_px, min_cell_px(cv, rows, cols), kMaxCellPx);
        v.xf.x0 = v.center_pending->j + 0.5 - cv.w / 2 / v.xf.cell_px;
        v.xf.y0 = v.center_pending->i + 0.5 - cv.h / 2 / v.xf.cell_px;
        v.center_pending.reset();
    }
    if (v.one_to_one_pending) {
        v.xf = one_to_one(v.xf, cv);
        v.one_to_one_pending = false;
    }
    const ImGuiIO& io = ImGui::GetIO();
    const Vec2d mouse{io.MousePos.x, io.MousePos.y};
    if (hovered && io.MouseWheel != 0.0f) v.xf = zoom_at(v.xf, cv, mouse, std::pow(1.25, double(io.MouseWheel)), rows, cols);
    // Pan from where the drag began, by the whole drag: exact however the frames sample it.
    if (ImGui::IsItemActivated()) v.drag_start = v.xf;
    if (active && v.drag_start) {
        const ImGuiMouseButton b = ImGui::IsMouseDown(ImGuiMouseButton_Left) ? ImGuiMouseButton_Left : ImGuiMouseButton_Middle;
        const ImVec2 d = ImGui::GetMouseDragDelta(b, 0.0f);
        v.xf = pan_by(*v.drag_start, {d.x, d.y});
    }
    if (!active) v.drag_start.reset();
    v.wanted = view_request(v.xf, cv, rows, cols, v.show_mask);

    const render::ColorScale scale = view_color_scale(s);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
    dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), IM_COL32(32, 32, 36, 255));
    const TextureContent& tex = v.texture;
    if (tex.gl_name && tex.drawn.rows > 0 && tex.matrix_rows == rows && tex.matrix_cols == cols) {
        // Where the texture's region lies under the current transform: a texture drawn for an
        // older view is stretched into place until the loop redraws it.
        const ImVec2 a = im_vec(to_screen(v.xf, cv, {double(tex.drawn.j0), double(tex.drawn.i0)}));
        const ImVec2 b = im_vec(to_screen(v.xf, cv, {double(tex.drawn.j0 + tex.drawn.cols), double(tex.drawn.i0 + tex.drawn.rows)}));
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex.gl_name)), a, b, ImVec2(0, 0),
                     ImVec2(tex.u1, tex.v1));
    }
    const CellRange vis = visible_cells(v.xf, cv, rows, cols);
    const bool table = v.show_details && v.xf.cell_px >= kTableCellPx;
    if (table) draw_table(dl, s, c, cv, vis, scale);
    if (v.show_path) draw_path(dl, s, c, cv, scale);
    draw_teach_overlay(dl, s, c, cv);  // playback / ownership, when a teaching view is on
    if (v.show_details && v.xf.cell_px >= kAxisCellPx) draw_axes(dl, s, c, cv, vis);
    if (v.selected) outline_cell(dl, v.xf, cv, *v.selected, IM_COL32(255, 150, 0, 255), 2.0f);
    if (v.inspected) outline_cell(dl, v.xf, cv, *v.inspected, IM_COL32(80, 220, 255, 255), 2.0f);
    if (v.highlight) outline_cell(dl, v.xf, cv, *v.highlight, IM_COL32(255, 230, 0, 255), 2.5f);

    v.hover = hovered ? pick_cell(v.xf, cv, mouse, rows, cols) : std::nullopt;
    if (v.hover) {
        outline_cell(dl, v.xf, cv, *v.hover, IM_COL32(255, 255, 255, 200), 1.0f);
        if (!active) draw_tooltip(c, *v.hover);
        // A click (not a drag) on a path cell scrolls the alignment text to its column.
        if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 9.0f) {
            v.inspected = *v.hover;  // any cell: the recurrence inspector shows it
            if (const auto k = path_index(c.result.path, *v.hover)) {
                s.alignment.scroll_to_column = std::max(*k - 1, 0);
                v.selected = *v.hover;
            }
        }
    }
    dl->PopClipRect();

    const render::ValueRange range = c.layer_range(v.layer);
    draw_colorbar(dl, scale, range, ImVec2(pos.x + size.x + 8, pos.y + 4), std::max(size.y - 40.0f, 20.0f));
}

}  // namespace dpviz::gui
