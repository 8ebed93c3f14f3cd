// Matrix panel: the score matrix as a texture (drawn by the frame loop for the region this
// panel asks for), zoom toward the cursor, pan by dragging, fit and 1:1, go to a cell, the path
// and the optimal-cell mask, a textbook table (scores, arrows, the path behind them) once cells
// are large, rulers with sequence positions (and residues at cell scale) in their own margins,
// a tooltip with the recurrence's candidates, copying a cell's coordinates, and the colorbar.
// Viterbi's trellis is the same view: rows are states (named in the row margin), columns the
// observations, values ln p (the matrix holds them in fixed point), the table's arrows the
// backpointers.
//
// Index of this file
// [SECTION] Helpers
// [SECTION] Toolbar and go to cell
// [SECTION] Overlays: path, highlight, table
// [SECTION] Rulers
// [SECTION] Tooltip, context menu, clipboard
// [SECTION] Colorbar
// [SECTION] Panel
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "dpviz/hmm.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/compute.hpp"
#include "gui/frame.hpp"
#include "gui/keys.hpp"
#include "gui/panels.hpp"
#include "gui/teach_overlay.hpp"
#include "gui/ui_scale.hpp"
#include "gui/view_math.hpp"

namespace dpviz::gui {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Helpers
// ---------------------------------------------------------------------------------------------

// Screen pixels per cell at UI scale 1 (they grow with the scale, as the text does).
constexpr double kTableCellPx = 26.0;  // from here on, cells show their value and arrows
constexpr double kGotoCellPx = 40.0;   // go to cell: at least this zoom (table scale)
constexpr int kPathFillAlpha = 105;    // table scale: the path's cells tinted behind their values

ImU32 im_color(render::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }
ImVec2 im_vec(Vec2d p) { return ImVec2(float(p.x), float(p.y)); }

double table_cell_px(const AppState& s) { return kTableCellPx * ui_scale(s.ui); }

// Whether text of `size` at `at` lies wholly on the canvas.
bool inside(const Canvas& cv, ImVec2 at, ImVec2 size) {
    return at.x >= cv.x && at.y >= cv.y && at.x + size.x <= cv.x + cv.w && at.y + size.y <= cv.y + cv.h;
}
bool table_scale(const AppState& s) { return s.view.show_details && s.view.xf.cell_px >= table_cell_px(s); }

// `top` over `bottom` at `alpha` (0-255): what a translucent fill leaves under the text.
render::Rgb blend(render::Rgb bottom, render::Rgb top, int alpha) {
    auto mix = [&](uint8_t b, uint8_t t) { return uint8_t((b * (255 - alpha) + t * alpha + 127) / 255); };
    return {mix(bottom.r, top.r), mix(bottom.g, top.g), mix(bottom.b, top.b)};
}

// A score in the user's units (dpviz::value_text: "10.5" at score_scale 2), "inf" / "-inf" when
// unreachable.
std::string cell_value_text(const Problem& p, int32_t v) {
    if (render::is_unreachable(v)) return v > 0 ? "inf" : "-inf";
    return value_text(p, v);
}
// A cell's value as the view shows it: Viterbi's ln p with `decimals` decimals, else the score.
std::string shown_value(const Problem& p, int32_t v, int decimals = 4) {
    return p.algo == Algorithm::viterbi ? viterbi_ln_text(p, v, decimals) : cell_value_text(p, v);
}

// Viterbi's longest state name the row margin shows whole (longer ones are cut).
constexpr size_t kMaxStateLabel = 12;

// Black or white, whichever reads better on the cell's color.
ImU32 text_on(render::Rgb bg) {
    const int luma = (299 * bg.r + 587 * bg.g + 114 * bg.b) / 1000;
    return luma > 140 ? IM_COL32(10, 10, 10, 255) : IM_COL32(250, 250, 250, 255);
}

LayerKind layer_kind(Layer l) { return l == Layer::E ? LayerKind::E : l == Layer::F ? LayerKind::F : LayerKind::H; }

// The letter of the algorithm's matrix, as the tooltip names its value.
const char* matrix_letter(const Problem& p) { return p.algo == Algorithm::lcs ? "L" : minimizes(p.algo) ? "D" : "H"; }

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
// [SECTION] Toolbar and go to cell
// ---------------------------------------------------------------------------------------------

// Centres cell (i, j) of the go-to field at table scale (or closer, if the view already is) and
// makes it the inspected cell.
void go_to_cell(AppState& s, const Computed& c) {
    MatrixView& v = s.view;
    const std::optional<Cell> cell = parse_cell_text(v.goto_text);
    if (!cell) {
        v.goto_error = "go to: type a row and a column, e.g. 12, 40";
        return;
    }
    if (cell->i >= c.rows() || cell->j >= c.cols()) {
        v.goto_error = "go to: (" + std::to_string(cell->i) + ", " + std::to_string(cell->j) + ") is outside the matrix (rows 0-" +
                       std::to_string(c.rows() - 1) + ", columns 0-" + std::to_string(c.cols() - 1) + ")";
        return;
    }
    v.goto_error.clear();
    const double px = std::max(v.xf.cell_px, kGotoCellPx * ui_scale(s.ui));
    v.center_pending = MatrixView::CenterOn{double(cell->i), double(cell->j), px};
    v.inspected = *cell;
}

// The view Fit gives. A trellis of few states over many observations would fit as a strip a few
// pixels high: it fits its rows to the canvas (at most at go-to scale) from column 0 instead, the
// wheel zooming out to the whole.
ViewTransform fit_view(const AppState& s, const Computed& c, const Canvas& cv) {
    const int rows = c.rows(), cols = c.cols();
    const ViewTransform whole = fit(cv, rows, cols);
    if (c.problem.algo != Algorithm::viterbi) return whole;
    const double px = std::min(kGotoCellPx * ui_scale(s.ui), cv.h / std::max(rows, 1));
    if (!(px > whole.cell_px)) return whole;
    ViewTransform v;
    v.cell_px = px;
    v.x0 = 0.0;
    v.y0 = rows / 2.0 - cv.h / 2.0 / px;
    return v;
}

void draw_toolbar(AppState& s, const Computed& c) {
    MatrixView& v = s.view;
    if (ImGui::Button("Fit")) v.fit_pending = true;
    if (ImGui::IsItemHovered() && c.problem.algo == Algorithm::viterbi)
        ImGui::SetTooltip("the states fill the height, from the first observation on; the wheel zooms out to the whole");
    same_line_if_fits(button_width("1:1"));
    if (ImGui::Button("1:1")) v.one_to_one_pending = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one cell per screen pixel");
    if (c.problem.algo == Algorithm::viterbi) {
        same_line_if_fits(check_width("delta") + check_width("behind best") + ImGui::GetStyle().ItemSpacing.x);
        int layer = v.layer == Layer::E ? int(Layer::E) : int(Layer::H);
        ImGui::RadioButton("delta", &layer, int(Layer::H));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("delta(s, t): ln P of the most likely path ending in state s at time t");
        ImGui::SameLine();
        // A trellis too big to hold keeps an overview of delta only (Computed::has_layer).
        const bool behind = c.has_layer(Layer::E);
        if (!behind) ImGui::BeginDisabled();
        ImGui::RadioButton("behind best", &layer, int(Layer::E));
        if (!behind) ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(behind ? "delta(s, t) - max_k delta(k, t): how far each state is behind the most likely one at time t"
                                     : "not for a trellis this big: it is kept as an overview of delta and exact windows, "
                                       "not whole (zoom in for exact cells)");
        v.layer = Layer(layer);
    } else {
        const bool affine = c.problem.affine();
        const float gap = ImGui::GetStyle().ItemSpacing.x;
        same_line_if_fits(check_width("H") * (affine ? 3 : 1) + check_width("landscape") + gap * (affine ? 3 : 1));
        int layer = int(v.layer);
        ImGui::RadioButton(matrix_letter(c.problem), &layer, int(Layer::H));
        if (affine) {
            ImGui::SameLine();
            ImGui::RadioButton("E", &layer, int(Layer::E));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("E: best score ending in a horizontal gap (target residue vs '-')");
            ImGui::SameLine();
            ImGui::RadioButton("F", &layer, int(Layer::F));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("F: best score ending in a vertical gap (query residue vs '-')");
        }
        ImGui::SameLine();
        ImGui::RadioButton("landscape", &layer, int(Layer::landscape));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("the best score of an alignment through each cell, from a forward and a backward fill "
                              "(built when first shown): the optimal path is a ridge, other good alignments lesser ridges");
        v.layer = Layer(layer);
    }
    same_line_if_fits(check_width("path"));
    ImGui::Checkbox("path", &v.show_path);
    same_line_if_fits(check_width("optimal"));
    ImGui::Checkbox("optimal", &v.show_mask);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(c.problem.algo == Algorithm::viterbi
                              ? "cells on any most likely state path (every tied predecessor followed back)"
                          : c.stored() ? "cells on any optimal path: where the landscape reaches the score (built when "
                                         "first shown; the path until then)"
                                       : "cells on any optimal path (every direction bit followed back)");
    same_line_if_fits(check_width("table"));
    ImGui::Checkbox("table", &v.show_details);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(c.problem.algo == Algorithm::viterbi ? "zoomed in: each cell's ln p and an arrow to its backpointer"
                                                                : "zoomed in: each cell's value and its direction arrows");
    const std::string current = v.auto_colormap ? "auto" : std::string(render::colormap_name(v.colormap));
    same_line_if_fits(ui_px(100));
    ImGui::SetNextItemWidth(ui_px(100));
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
    // Go to cell: "row, column" (Ctrl+G puts the keyboard here), Enter or Go.
    same_line_if_fits(ui_px(96) + ImGui::GetStyle().ItemSpacing.x + button_width("Go"));
    if (v.goto_focus) {
        ImGui::SetKeyboardFocusHere();
        v.goto_focus = false;
    }
    ImGui::SetNextItemWidth(ui_px(96));
    bool go = ImGui::InputTextWithHint("##goto", "row, col", &v.goto_text, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("go to cell (Ctrl+G): row i, column j, as the tooltip names them");
    ImGui::SameLine();
    go |= ImGui::Button("Go");
    if (go) go_to_cell(s, c);
    char zoom[32];
    std::snprintf(zoom, sizeof zoom, "%.3g px/cell", v.xf.cell_px);
    same_line_if_fits(ImGui::CalcTextSize(zoom).x);
    ImGui::TextDisabled("%s", zoom);
    if (!v.goto_error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", v.goto_error.c_str());
    if (wants_landscape(s) && !c.landscape()) {
        const LandscapeProgress p = c.landscape_progress();
        if (!p.error.empty()) {
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "landscape: %s", p.error.c_str());
        } else {
            const std::string meanwhile = v.layer == Layer::landscape ? std::string("showing ") + matrix_letter(c.problem)
                                                                      : std::string("the optimal mask shows the path");
            ImGui::TextDisabled("landscape: %s, %.0f %% (%s until it is built)",
                                p.stage.empty() ? "starting" : p.stage.c_str(), 100.0 * p.fraction, meanwhile.c_str());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Overlays: path, highlight, table
// ---------------------------------------------------------------------------------------------

void draw_path(ImDrawList* dl, const AppState& s, const Computed& c, const Canvas& cv, const render::ColorScale& scale) {
    const auto& path = c.result.path;
    if (path.size() < 2) return;
    const ViewTransform& xf = s.view.xf;
    const render::PathStyle style = render::path_style(scale.map);
    if (table_scale(s)) {
        // The path's cells tinted and outlined, under the values and arrows drawn next.
        const float t = float(std::clamp(xf.cell_px * 0.06, 1.5, 3.0));
        for (const Cell& cell : path) {
            const ImVec2 a = im_vec(to_screen(xf, cv, {double(cell.j), double(cell.i)}));
            const ImVec2 b = im_vec(to_screen(xf, cv, {cell.j + 1.0, cell.i + 1.0}));
            if (b.x < cv.x || b.y < cv.y || a.x > cv.x + cv.w || a.y > cv.y + cv.h) continue;
            dl->AddRectFilled(a, b, im_color(style.core, kPathFillAlpha));
            const bool end = &cell == &path.back();
            dl->AddRect(ImVec2(a.x + t * 0.5f, a.y + t * 0.5f), ImVec2(b.x - t * 0.5f, b.y - t * 0.5f),
                        im_color(end ? style.outline : style.core), 0.0f, 0, end ? t * 1.6f : t);
        }
        return;
    }
    const float t = float(std::clamp(xf.cell_px * 0.16, 1.5, 4.0)) * std::max(1.0f, ui_scale(s.ui) * 0.75f);
    // Only the runs of the path near the canvas: one polyline of a long path zoomed in (tens of
    // thousands of points, 4 vertices each) would overflow ImGui's 16-bit vertex indices and
    // garble the rest of the panel. Kept points lie at most ~1.5 cells apart, so a segment with
    // both ends beyond this margin never crosses the canvas.
    const float m = float(2.0 * xf.cell_px) + t + 8.0f;
    const auto near = [&](ImVec2 p) {
        return p.x >= cv.x - m && p.y >= cv.y - m && p.x <= cv.x + cv.w + m && p.y <= cv.y + cv.h + m;
    };
    std::vector<ImVec2> run;
    const auto flush = [&] {
        if (run.size() >= 2) {
            dl->AddPolyline(run.data(), int(run.size()), im_color(style.outline), ImDrawFlags_None, t + 2.0f);
            dl->AddPolyline(run.data(), int(run.size()), im_color(style.core), ImDrawFlags_None, t);
        }
        run.clear();
    };
    std::optional<ImVec2> prev;
    for (const Cell& cell : path) {
        const ImVec2 p = im_vec(to_screen(xf, cv, {cell.j + 0.5, cell.i + 0.5}));
        // Thousands of cells per pixel when zoomed out: keep one point per pixel of travel.
        if (prev && std::abs(p.x - prev->x) < 0.75f && std::abs(p.y - prev->y) < 0.75f && &cell != &path.back())
            continue;
        if (prev && (near(*prev) || near(p))) {
            if (run.empty()) run.push_back(*prev);
            run.push_back(p);
            if (run.size() >= 8192) {  // a run far below the index limit
                flush();
                run.push_back(p);
            }
        } else {
            flush();
        }
        prev = p;
    }
    flush();
    // The end cell (where the traceback starts) as a dot.
    if (prev && near(*prev)) {
        dl->AddCircleFilled(*prev, t + 2.0f, im_color(style.outline));
        dl->AddCircleFilled(*prev, t, im_color(style.core));
    }
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
    const Layer layer = c.shown_layer(s.view.layer);
    const MatrixRefs w = c.window(r.i0, r.i1, r.j0, r.j1);
    // The landscape's values, without arrows: no recurrence of its own links its cells.
    const MatrixRefs land = layer == Layer::landscape ? c.landscape_cells(r.i0, r.i1, r.j0, r.j1) : MatrixRefs{};
    const MatrixRefs& values = layer == Layer::landscape ? land : w;
    const Grid<int32_t>* g = layer == Layer::E ? w.E : layer == Layer::F ? w.F : values.H;
    const float px = float(xf.cell_px);
    ImFont* f = mono_font();
    const float font = std::min(f->FontSize, px * 0.42f);
    // Path cells are tinted (draw_path, underneath): their ink is chosen against the tint.
    std::vector<uint8_t> on_path;
    const int vis_cols = r.j1 - r.j0;
    if (s.view.show_path && vis_cols > 0 && r.i1 > r.i0) {
        on_path.assign(size_t(r.i1 - r.i0) * size_t(vis_cols), 0);
        for (const Cell& p : c.result.path)
            if (p.i >= r.i0 && p.i < r.i1 && p.j >= r.j0 && p.j < r.j1) on_path[size_t(p.i - r.i0) * vis_cols + (p.j - r.j0)] = 1;
    }
    const render::Rgb tint = render::path_style(scale.map).core;
    const bool viterbi = c.problem.algo == Algorithm::viterbi;
    for (int i = r.i0; i < r.i1; ++i) {
        for (int j = r.j0; j < r.j1; ++j) {
            const ImVec2 a = im_vec(to_screen(xf, cv, {double(j), double(i)}));
            const int32_t v = values.value(g, i, j);
            const bool path_cell = !on_path.empty() && on_path[size_t(i - r.i0) * vis_cols + (j - r.j0)];
            const ImU32 ink = text_on(path_cell ? blend(scale.color(v), tint, kPathFillAlpha) : scale.color(v));
            const std::string t = shown_value(c.problem, v, 1);
            const ImVec2 size = f->CalcTextSizeA(font, FLT_MAX, 0.0f, t.c_str());
            const ImVec2 at(a.x + px * 0.62f - size.x * 0.5f, a.y + px * 0.58f - size.y * 0.5f);
            // Whole numbers only: a value cut by the canvas edge could read as another ("-1" as "1").
            if (size.x < px - 4 && inside(cv, at, size)) dl->AddText(f, font, at, ink, t.c_str());
            if (viterbi) {
                // The backpointer: an arrow into the predecessor cell of column j - 1, whatever its
                // row, above the values (they sit lower in the cell).
                const std::optional<int> back = w.back_row(i, j);
                if (i == 0 || j == 0 || !back || render::is_unreachable(v)) continue;
                const float y = float(to_screen(xf, cv, {0.0, double(*back)}).y) + px * 0.2f;
                arrow(dl, ImVec2(a.x + px * 0.3f, a.y + px * 0.2f), ImVec2(a.x - px * 0.12f, y), ink,
                      std::max(3.0f, px * 0.09f));
                continue;
            }
            if (!w.dirs || w.dirs->empty() || layer == Layer::landscape) continue;
            const CellArrows ar = arrows_of(c.problem, w.bits(i, j), layer_kind(layer));
            const float head = std::max(3.0f, px * 0.09f);
            const ImVec2 o(a.x + px * 0.30f, a.y + px * 0.30f);
            if (ar.diag) arrow(dl, o, ImVec2(a.x + px * 0.06f, a.y + px * 0.06f), ink, head);
            if (ar.up) arrow(dl, o, ImVec2(o.x, a.y + px * 0.03f), ink, head);
            if (ar.left) arrow(dl, o, ImVec2(a.x + px * 0.03f, o.y), ink, head);
            if (ar.stop) dl->AddCircle(o, px * 0.07f, ink, 8, 1.2f);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Rulers
// ---------------------------------------------------------------------------------------------

// The margins above and left of the heatmap: positions at nice intervals (1, 2, 5 x 10^k), ticks
// between them, and the residues themselves once a cell is wide enough for a letter. The same
// size at every zoom, so the canvas does not jump. Column j holds target residue j (1-based),
// row i query residue i; row and column 0 are the empty prefixes. Viterbi: column t holds
// observation t, row k state k-1 by name (row 0 the begin state).
struct Rulers {
    float left = 0, top = 0;  // margin widths
    float pad = 0, tick = 0, fh = 0, digit = 0;
    bool letters = false;     // sequences (not DTW signals): a line of residues
    int row_digits = 1;
    int row_label_chars = 1;  // the row margin's band of residues (Viterbi: state names)
};

Rulers ruler_layout(const Computed& c) {
    Rulers r;
    ImGui::PushFont(mono_font());
    r.fh = ImGui::GetFontSize();
    r.digit = ImGui::CalcTextSize("0").x;
    ImGui::PopFont();
    r.pad = std::round(r.fh * 0.25f);
    r.tick = std::round(r.fh * 0.4f);
    r.letters = c.problem.algo != Algorithm::dtw;
    r.row_digits = int(std::to_string(std::max(c.rows() - 1, 1)).size());
    if (c.problem.algo == Algorithm::viterbi) {
        size_t longest = std::string("begin").size();
        for (const std::string& n : c.problem.hmm->states) longest = std::max(longest, n.size());
        r.row_label_chars = int(std::min(longest, kMaxStateLabel));
    }
    const float letter_band = r.letters ? r.row_label_chars * r.digit + 2 * r.pad : 0.0f;
    r.left = r.pad + r.row_digits * r.digit + r.pad + r.tick + letter_band;
    r.top = r.pad + r.fh + r.tick + (r.letters ? r.fh + r.pad : 0.0f);
    return r;
}

// Minor ticks between the labelled ones: fifths of 5 x 10^k and 10^k, halves of 2 x 10^k.
int64_t minor_step(int64_t step) { return step == 1 ? 0 : step % 5 == 0 ? step / 5 : step / 2; }

void draw_rulers(ImDrawList* dl, const AppState& s, const Computed& c, const Canvas& cv, const CellRange& vis,
                 const Rulers& r) {
    const ViewTransform& xf = s.view.xf;
    const ImU32 bg = IM_COL32(24, 24, 28, 255), ink = IM_COL32(225, 225, 225, 255);
    const ImU32 dim = IM_COL32(150, 150, 155, 255), mark = IM_COL32(255, 255, 255, 60);
    ImFont* f = mono_font();
    const float fh = r.fh;
    // Residues once a letter fits a cell both ways (across for columns, down for rows).
    const bool letters = r.letters && xf.cell_px >= std::max(r.digit + 2.0f, fh * 0.8f);
    const std::optional<Cell> hover = s.view.hover;
    char text[24];

    // Top: the target's positions along the columns.
    const ImVec2 t0(float(cv.x), float(cv.y) - r.top), t1(float(cv.x + cv.w), float(cv.y));
    dl->PushClipRect(t0, t1, true);
    dl->AddRectFilled(t0, t1, bg);
    const float num_y = t0.y + r.pad, tick_y0 = num_y + fh, tick_y1 = tick_y0 + r.tick;
    if (hover && hover->j > 0) {
        const float x = float(to_screen(xf, cv, {double(hover->j), 0.0}).x);
        dl->AddRectFilled(ImVec2(x, tick_y0), ImVec2(x + float(xf.cell_px), t1.y), mark);
    }
    const int64_t col_step = ruler_step(xf.cell_px, (std::to_string(c.cols() - 1).size() + 2) * r.digit);
    const int64_t col_minor = minor_step(col_step);
    if (col_minor > 0 && col_minor * xf.cell_px >= 4.0)
        for (int64_t j = (std::max(vis.j0, 1) + col_minor - 1) / col_minor * col_minor; j < vis.j1; j += col_minor) {
            const float x = float(to_screen(xf, cv, {j + 0.5, 0.0}).x);
            dl->AddLine(ImVec2(x, tick_y1 - r.tick * 0.45f), ImVec2(x, tick_y1), dim);
        }
    for (int64_t j = (std::max(vis.j0, 1) + col_step - 1) / col_step * col_step; j < vis.j1; j += col_step) {
        const float x = float(to_screen(xf, cv, {j + 0.5, 0.0}).x);
        dl->AddLine(ImVec2(x, tick_y0), ImVec2(x, tick_y1), ink);
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(j));
        const float w = f->CalcTextSizeA(fh, FLT_MAX, 0.0f, text).x;
        if (x - w * 0.5f >= t0.x && x + w * 0.5f <= t1.x) dl->AddText(f, fh, ImVec2(x - w * 0.5f, num_y), ink, text);
    }
    if (letters)
        for (int j = std::max(vis.j0, 1); j < vis.j1; ++j) {
            const char residue[2] = {c.problem.target[size_t(j - 1)], 0};
            const float x = float(to_screen(xf, cv, {j + 0.5, 0.0}).x);
            if (x - r.digit * 0.5f >= t0.x && x + r.digit * 0.5f <= t1.x)
                dl->AddText(f, fh, ImVec2(x - r.digit * 0.5f, tick_y1), ink, residue);
        }
    dl->PopClipRect();

    // Left: the query's positions down the rows.
    const ImVec2 l0(float(cv.x) - r.left, float(cv.y)), l1(float(cv.x), float(cv.y + cv.h));
    dl->PushClipRect(l0, l1, true);
    dl->AddRectFilled(l0, l1, bg);
    const float num_x1 = l0.x + r.pad + r.row_digits * r.digit, tick_x0 = num_x1 + r.pad, tick_x1 = tick_x0 + r.tick;
    if (hover && hover->i > 0) {
        const float y = float(to_screen(xf, cv, {0.0, double(hover->i)}).y);
        dl->AddRectFilled(ImVec2(tick_x0, y), ImVec2(l1.x, y + float(xf.cell_px)), mark);
    }
    const int64_t row_step = ruler_step(xf.cell_px, fh * 1.6);
    const int64_t row_minor = minor_step(row_step);
    if (row_minor > 0 && row_minor * xf.cell_px >= 4.0)
        for (int64_t i = (std::max(vis.i0, 1) + row_minor - 1) / row_minor * row_minor; i < vis.i1; i += row_minor) {
            const float y = float(to_screen(xf, cv, {0.0, i + 0.5}).y);
            dl->AddLine(ImVec2(tick_x1 - r.tick * 0.45f, y), ImVec2(tick_x1, y), dim);
        }
    for (int64_t i = (std::max(vis.i0, 1) + row_step - 1) / row_step * row_step; i < vis.i1; i += row_step) {
        const float y = float(to_screen(xf, cv, {0.0, i + 0.5}).y);
        dl->AddLine(ImVec2(tick_x0, y), ImVec2(tick_x1, y), ink);
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(i));
        const float w = f->CalcTextSizeA(fh, FLT_MAX, 0.0f, text).x;
        if (y - fh * 0.5f >= l0.y && y + fh * 0.5f <= l1.y) dl->AddText(f, fh, ImVec2(num_x1 - w, y - fh * 0.5f), ink, text);
    }
    const bool viterbi = c.problem.algo == Algorithm::viterbi;
    // Row names need the height of a line only (they run across the margin).
    if (viterbi ? r.letters && xf.cell_px >= fh * 0.8f : letters)
        for (int i = std::max(vis.i0, viterbi ? 0 : 1); i < vis.i1; ++i) {
            std::string label = viterbi ? state_name(c.problem, i) : std::string(1, c.problem.query[size_t(i - 1)]);
            if (label.size() > kMaxStateLabel) label = label.substr(0, kMaxStateLabel - 1) + "~";
            const float y = float(to_screen(xf, cv, {0.0, i + 0.5}).y);
            if (y - fh * 0.5f >= l0.y && y + fh * 0.5f <= l1.y)
                dl->AddText(f, fh, ImVec2(tick_x1 + r.pad, y - fh * 0.5f), i == 0 ? dim : ink, label.c_str());
        }
    dl->PopClipRect();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Tooltip, context menu, clipboard
// ---------------------------------------------------------------------------------------------

void candidate_lines(const Problem& p, const char* title, const std::vector<Candidate>& cs) {
    if (cs.empty()) return;
    ImGui::TextDisabled("%s", title);
    ImGui::PushFont(mono_font());  // the labels are padded into a column
    for (const Candidate& k : cs) {
        const ImVec4 color = k.won ? ImVec4(0.45f, 0.95f, 0.45f, 1.0f) : ImVec4(0.75f, 0.75f, 0.75f, 1.0f);
        ImGui::TextColored(color, "%s %-30s = %s", k.won ? "*" : " ", k.label.c_str(), cell_value_text(p, k.value).c_str());
    }
    ImGui::PopFont();
}

// Viterbi candidates shown in a tooltip: the best few (the winner first), the rest counted.
constexpr size_t kTooltipCandidates = 6;

void draw_viterbi_tooltip(const Computed& c, Cell cell, const CellExplain& x) {
    const Problem& p = c.problem;
    ImGui::BeginTooltip();
    ImGui::Text("(i, j) = (%d, %d): state %s, t = %d", cell.i, cell.j, x.state.c_str(), cell.j);
    if (cell.j > 0) ImGui::Text("observed x_t = %c", x.target_residue);
    ImGui::Text("delta = %s   (fixed point %s, x 2^%d)", viterbi_ln_text(p, x.h).c_str(), term_text(x.h).c_str(),
                p.hmm_fixed->scale_log2);
    if (cell.i == 0 || cell.j == 0) {
        ImGui::TextDisabled(cell.i == 0 && cell.j == 0 ? "the begin state before the first observation: ln 1 = 0"
                            : cell.i == 0              ? "the silent begin state emits nothing: impossible after t = 0"
                                                       : "before the first observation only the begin state is possible");
    } else {
        ImGui::TextDisabled("%s", x.formula.c_str());
        ImGui::Text("ln e(%s, %c) = %s", x.state.c_str(), x.target_residue, viterbi_ln_text(p, *x.substitution).c_str());
        std::vector<Candidate> top = x.h_candidates;
        std::stable_sort(top.begin(), top.end(), [](const Candidate& a, const Candidate& b) { return a.value > b.value; });
        const size_t shown = std::min(top.size(), kTooltipCandidates);
        ImGui::TextDisabled("predecessors k (* = the stored backpointer)");
        ImGui::PushFont(mono_font());
        for (size_t k = 0; k < shown; ++k) {
            const Candidate& d = top[k];
            const ImVec4 color = d.won ? ImVec4(0.45f, 0.95f, 0.45f, 1.0f) : ImVec4(0.75f, 0.75f, 0.75f, 1.0f);
            ImGui::TextColored(color, "%s %-10.10s %s = %s", d.won ? "*" : " ", d.name.c_str(), d.expr.c_str(),
                               viterbi_ln_text(p, d.value).c_str());
        }
        ImGui::PopFont();
        if (top.size() > shown) ImGui::TextDisabled("... and %zu more states", top.size() - shown);
        if (x.back && !render::is_unreachable(x.h))
            ImGui::Text("backpointer: %s (row %d)", state_name(p, *x.back).c_str(), *x.back);
    }
    if (const auto k = path_index(c.result.path, cell))
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "on the most likely path (observation %d)", *k);
    ImGui::TextDisabled("Ctrl+C copies \"%d,%d\", Ctrl+Shift+C with ln p; right-click for more", cell.i, cell.j);
    ImGui::EndTooltip();
}

void draw_tooltip(const Computed& c, Cell cell) {
    const Problem& p = c.problem;
    const CellExplain x = explain_cell(p, c.window(cell.i, cell.i + 1, cell.j, cell.j + 1), cell);
    if (p.algo == Algorithm::viterbi) {
        draw_viterbi_tooltip(c, cell, x);
        return;
    }
    ImGui::BeginTooltip();
    ImGui::Text("(i, j) = (%d, %d)", cell.i, cell.j);
    if (p.algo == Algorithm::dtw) {
        if (cell.i > 0 && cell.j > 0)
            ImGui::Text("query %.5g   target %.5g   c(i, j) = %s", x.query_value, x.target_value,
                        cell_value_text(p, x.substitution.value_or(0)).c_str());
    } else {
        ImGui::Text("query %c   target %c", x.query_residue ? x.query_residue : '-',
                    x.target_residue ? x.target_residue : '-');
        if (x.substitution) {
            ImGui::SameLine();
            ImGui::Text("  s = %s", cell_value_text(p, *x.substitution).c_str());
        }
    }
    if (x.e)
        ImGui::Text("H = %s   E = %s   F = %s", cell_value_text(p, x.h).c_str(), cell_value_text(p, *x.e).c_str(),
                    cell_value_text(p, *x.f).c_str());
    else
        ImGui::Text("%s = %s", matrix_letter(p), cell_value_text(p, x.h).c_str());
    if (const auto land = c.landscape()) {
        const MatrixRefs l = c.landscape_cells(cell.i, cell.i + 1, cell.j, cell.j + 1);
        const int32_t v = l.value(l.H, cell.i, cell.j);
        ImGui::Text("landscape = %s%s", cell_value_text(p, v).c_str(),
                    land->at_optimum(v) ? "  (the optimum: on an optimal alignment)" : "");
    }
    ImGui::TextDisabled("%s", x.formula.c_str());
    candidate_lines(p, "candidates (* won: its direction bit is set)", x.h_candidates);
    candidate_lines(p, "E (horizontal gap)", x.e_candidates);
    candidate_lines(p, "F (vertical gap)", x.f_candidates);
    if (const auto k = path_index(c.result.path, cell))
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "on the reported path (step %d); click to show it in the text",
                           *k);
    ImGui::TextDisabled("Ctrl+C copies \"%d,%d\", Ctrl+Shift+C with the value; right-click for more", cell.i, cell.j);
    ImGui::EndTooltip();
}

// "i,j", or "i,j,value" with the shown layer's value ("inf" / "-inf" when unreachable; Viterbi:
// ln p, as the view shows it).
std::string cell_clipboard_text(const Computed& c, Layer layer, Cell cell, bool with_value) {
    std::string t = std::to_string(cell.i) + "," + std::to_string(cell.j);
    if (!with_value) return t;
    layer = c.shown_layer(layer);
    const MatrixRefs w = layer == Layer::landscape ? c.landscape_cells(cell.i, cell.i + 1, cell.j, cell.j + 1)
                                                   : c.window(cell.i, cell.i + 1, cell.j, cell.j + 1);
    const Grid<int32_t>* g = layer == Layer::E ? w.E : layer == Layer::F ? w.F : w.H;
    return t + "," + shown_value(c.problem, w.value(g, cell.i, cell.j), 6);
}

const char* layer_name(const Problem& p, Layer l) {
    if (p.algo == Algorithm::viterbi) return l == Layer::E ? "ln p behind the column's best" : "ln p";
    return l == Layer::E ? "E" : l == Layer::F ? "F" : l == Layer::landscape ? "landscape" : matrix_letter(p);
}

void draw_cell_menu(AppState& s, const Computed& c) {
    MatrixView& v = s.view;
    if (!ImGui::BeginPopup("cell_menu")) return;
    if (!v.context_cell) {
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    const Cell cell = *v.context_cell;
    ImGui::TextDisabled("cell (%d, %d)", cell.i, cell.j);
    const std::string ij = cell_clipboard_text(c, v.layer, cell, false), ijv = cell_clipboard_text(c, v.layer, cell, true);
    if (ImGui::MenuItem(("Copy " + ij).c_str(), "Ctrl+C")) ImGui::SetClipboardText(ij.c_str());
    if (ImGui::MenuItem(("Copy " + ijv + " (" + layer_name(c.problem, c.shown_layer(v.layer)) + ")").c_str(), "Ctrl+Shift+C"))
        ImGui::SetClipboardText(ijv.c_str());
    if (ImGui::MenuItem("Inspect this cell")) v.inspected = cell;
    if (ImGui::MenuItem("Centre it at table scale")) {
        v.goto_text = std::to_string(cell.i) + ", " + std::to_string(cell.j);
        go_to_cell(s, c);
    }
    ImGui::EndPopup();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Colorbar
// ---------------------------------------------------------------------------------------------

// A colorbar label: the value as the view shows it (Viterbi: ln p, one decimal).
std::string bar_label(const Problem& p, int32_t v) { return shown_value(p, v, 1); }

// The bar, then its labels: the width draw_matrix leaves for them.
float colorbar_width(const Problem& p, const render::ColorScale& scale) {
    const int32_t lo = std::min(scale.min, scale.max), hi = std::max(scale.min, scale.max);
    float labels = ImGui::CalcTextSize("unr.").x;
    for (const int32_t v : {lo, hi}) labels = std::max(labels, ImGui::CalcTextSize(bar_label(p, v).c_str()).x);
    return ui_px(8) + ui_px(16) + ui_px(4) + labels + ui_px(6);
}

void draw_colorbar(ImDrawList* dl, const Problem& p, const render::ColorScale& scale, const render::ValueRange& range,
                   ImVec2 p0, float h) {
    const float w = ui_px(16);
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
    auto label = [&](float y, const std::string& text) { dl->AddText(ImVec2(p0.x + w + ui_px(4), y - fh * 0.5f), ink, text.c_str()); };
    label(p0.y + fh * 0.5f, bar_label(p, hi));
    label(p0.y + h - fh * 0.5f, bar_label(p, lo));
    if (lo < 0 && hi > 0) {
        // The diverging map puts 0 in the middle; sequential maps at its linear position.
        const float t = scale.position(0);
        label(p0.y + h * (1.0f - t), "0");
    }
    if (range.any_unreachable) {
        const float y = p0.y + h + ui_px(8);
        dl->AddRectFilled(ImVec2(p0.x, y), ImVec2(p0.x + w, y + fh), im_color(render::unreachable_color(scale.map)));
        dl->AddText(ImVec2(p0.x + w + ui_px(4), y), ink, p.algo == Algorithm::viterbi ? "-inf" : "unr.");
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------------------------

void draw_matrix(AppState& s) {
    MatrixView& v = s.view;
    if (!s.result) {
        text_wrapped("%s", s.job.busy ? "Computing..."
                                      : "No matrix yet: pick an example in the Inputs panel, or give two inputs.");
        if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", s.error.c_str());
        v.wanted = {};
        return;
    }
    const Computed& c = *s.result;
    if (!c.has_layer(v.layer)) v.layer = Layer::H;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && !io.KeyAlt && ImGui::IsKeyPressed(kKeyG, false)) v.goto_focus = true;
    draw_toolbar(s, c);
    if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s (showing the last result)", s.error.c_str());

    // Rulers above and left of the heatmap, the colorbar right of it.
    const render::ColorScale scale = view_color_scale(s);
    const Rulers rulers = ruler_layout(c);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(std::max(avail.x - rulers.left - colorbar_width(c.problem, scale), 32.0f),
                      std::max(avail.y - rulers.top, 32.0f));
    const ImVec2 pos(origin.x + rulers.left, origin.y + rulers.top);
    ImGui::SetCursorScreenPos(pos);
    ImGui::InvisibleButton("canvas", size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    const Canvas cv{pos.x, pos.y, size.x, size.y};
    v.canvas = cv;
    const int rows = c.rows(), cols = c.cols();

    if (v.fit_pending) {
        v.xf = fit_view(s, c, cv);
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

    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
    dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), IM_COL32(32, 32, 36, 255));
    const TextureContent& tex = v.texture;
    if (tex.gl_name && tex.drawn.rows > 0 && tex.matrix_rows == rows && tex.matrix_cols == cols) {
        // Where the texture's region lies under the current transform: a texture drawn for an
        // older view is stretched into place until the loop redraws it.
        const render::TexelRequest& at = tex.placed;  // a store result's overview texels cover whole blocks
        const ImVec2 a = im_vec(to_screen(v.xf, cv, {double(at.j0), double(at.i0)}));
        const ImVec2 b = im_vec(to_screen(v.xf, cv, {double(at.j0 + at.cols), double(at.i0 + at.rows)}));
        dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex.gl_name)), a, b, ImVec2(0, 0),
                     ImVec2(tex.u1, tex.v1));
    }
    const CellRange vis = visible_cells(v.xf, cv, rows, cols);
    // At table scale the path goes under the values (its cells tinted), elsewhere over the heatmap.
    if (v.show_path) draw_path(dl, s, c, cv, scale);
    if (table_scale(s)) draw_table(dl, s, c, cv, vis, scale);
    draw_teach_overlay(dl, s, c, cv);  // playback / ownership, when a teaching view is on
    if (v.selected) outline_cell(dl, v.xf, cv, *v.selected, IM_COL32(255, 150, 0, 255), 2.0f);
    if (v.inspected) outline_cell(dl, v.xf, cv, *v.inspected, IM_COL32(80, 220, 255, 255), 2.0f);
    if (v.highlight) outline_cell(dl, v.xf, cv, *v.highlight, IM_COL32(255, 230, 0, 255), 2.5f);

    v.hover = hovered ? pick_cell(v.xf, cv, mouse, rows, cols) : std::nullopt;
    if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Right) && v.hover) {
        v.context_cell = v.hover;
        ImGui::OpenPopup("cell_menu");
    }
    const bool menu_open = ImGui::IsPopupOpen("cell_menu");
    // Ctrl+C over the matrix: the hovered cell, else (the panel focused) the one last clicked.
    const std::optional<Cell> copy_cell =
        v.hover ? v.hover : ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) ? v.inspected : std::nullopt;
    if (copy_cell && copy_cell->i < rows && copy_cell->j < cols && !menu_open && !io.WantTextInput && io.KeyCtrl &&
        !io.KeyAlt && ImGui::IsKeyPressed(kKeyC, false))
        ImGui::SetClipboardText(cell_clipboard_text(c, v.layer, *copy_cell, io.KeyShift).c_str());
    if (v.hover) {
        outline_cell(dl, v.xf, cv, *v.hover, IM_COL32(255, 255, 255, 200), 1.0f);
        if (!active && !menu_open) draw_tooltip(c, *v.hover);
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
    draw_rulers(dl, s, c, cv, vis, rulers);
    draw_cell_menu(s, c);

    const render::ValueRange range = c.layer_range(c.shown_layer(v.layer));
    draw_colorbar(dl, c.problem, scale, range, ImVec2(pos.x + size.x + ui_px(8), pos.y + ui_px(4)),
                  std::max(size.y - ImGui::GetFontSize() * 3.0f, 20.0f));
}

}  // namespace dpviz::gui
