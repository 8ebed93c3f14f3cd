// The Wavefront panel (teaching views, part 1): which view the matrix shows, the playback
// controls (play/pause, step, scrubber, speed), the plot of cells computed per step, and the
// ownership legend. The schedule comes from the result shown (dpviz/schedule.hpp).
//
// Index of this file
// [SECTION] Schedule of the shown result, playback clock
// [SECTION] Colours
// [SECTION] Panel
#include "gui/teach_playback.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "dpviz/schedule.hpp"
#include "gui/app_state.hpp"
#include "gui/compute.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

// ---------------------------------------------------------------------------------------------
// [SECTION] Schedule of the shown result, playback clock
// ---------------------------------------------------------------------------------------------

namespace {

constexpr int kPlotPoints = 1500;  // the activity plot's resolution (steps are averaged beyond)
constexpr double kAutoPlaySeconds = 20.0;  // automatic speed: the whole fill in this time

std::string schedule_label(const Schedule& s, Backend b) {
    const std::string backend(backend_name(b));
    char buf[200];
    switch (s.kind()) {
        case ScheduleKind::gpu:
            std::snprintf(buf, sizeof buf, "%s: %d blocks x %d warps (32 lanes x 4 rows each), %d bands of 128 rows",
                          backend.c_str(), s.blocks(), s.warps_per_block(), s.bands());
            break;
        case ScheduleKind::cpu:
            std::snprintf(buf, sizeof buf, "%s: %d thread%s, %d bands of %d rows (one SIMD lane per row)", backend.c_str(),
                          s.threads(), s.threads() == 1 ? "" : "s", s.bands(), s.lanes());
            break;
        case ScheduleKind::reference:
            std::snprintf(buf, sizeof buf, "%s: one cell at a time, row by row", backend.c_str());
            break;
    }
    return buf;
}

void rebuild(WavefrontCache& cache, const Computed& c) {
    cache = {};
    cache.result_id = c.id;
    if (c.problem.algo == Algorithm::viterbi) {
        // The schedules map band kernels; the trellis has no wavefront to replay.
        cache.error = "Viterbi fills its trellis a column at a time: every state of time t needs the whole column "
                      "t - 1 (a max over all predecessors), so there is no anti-diagonal wavefront and no bands to "
                      "replay. The GPU kernel runs one block with one thread per state and synchronizes between "
                      "columns (Machine code panel).";
        return;
    }
    auto s = Schedule::of_result(c.result, c.problem.rows(), c.problem.cols());
    if (!s) {
        cache.error = s.error().message;
        return;
    }
    cache.label = schedule_label(*s, c.result.backend);
    cache.bucket = std::max<int64_t>(1, (s->steps() + kPlotPoints - 1) / kPlotPoints);
    const std::vector<double> per = s->cells_per_step(cache.bucket);
    cache.activity.assign(per.begin(), per.end());
    for (const float v : cache.activity) cache.peak = std::max(cache.peak, v);
    cache.schedule = std::make_shared<const Schedule>(std::move(*s));
}

}  // namespace

void prepare_wavefront(AppState& s, double dt) {
    WavefrontView& w = s.wavefront;
    if (!s.result) {
        w.cache = {};
        return;
    }
    if (w.cache.result_id != s.result->id) rebuild(w.cache, *s.result);
    const int64_t last = w.cache.schedule ? std::max<int64_t>(0, w.cache.schedule->steps() - 1) : 0;
    PlaybackState& p = w.playback;
    p.step = std::clamp<int64_t>(p.step, 0, last);
    if (p.auto_speed) p.speed = std::clamp(double(last + 1) / kAutoPlaySeconds, 5.0, 100000.0);
    if (!p.playing || w.view != TeachView::playback) {
        p.carry = 0.0;
        return;
    }
    p.carry += std::max(0.0, p.speed) * std::max(0.0, dt);
    const double whole = std::floor(p.carry);
    p.carry -= whole;
    p.step = std::min<int64_t>(last, p.step + int64_t(whole));
    if (p.step >= last) p.playing = false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Colours
// ---------------------------------------------------------------------------------------------

uint32_t owner_color(OwnerField field, int value) {
    // Golden-ratio hues: neighbours (lane l and l+1, warp w and w+1) always differ clearly.
    const float offset = field == OwnerField::block ? 0.05f : field == OwnerField::warp ? 0.33f : 0.61f;
    const float h = std::fmod(offset + 0.6180339887f * float(value), 1.0f);
    float r = 0, g = 0, b = 0;
    ImGui::ColorConvertHSVtoRGB(h, 0.72f, 0.95f, r, g, b);
    return IM_COL32(int(r * 255.0f + 0.5f), int(g * 255.0f + 0.5f), int(b * 255.0f + 0.5f), 165);
}

const char* owner_field_name(OwnerField field, bool cpu) {
    switch (field) {
        case OwnerField::block: return cpu ? "thread" : "block";
        case OwnerField::warp: return "warp";
        case OwnerField::lane: return "lane";
    }
    return "?";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------------------------

namespace {

// How many distinct values a field takes in this schedule.
int field_count(const Schedule& s, OwnerField f) {
    switch (s.kind()) {
        case ScheduleKind::gpu:
            return f == OwnerField::block ? std::min(s.blocks(), std::max(1, (s.bands() + s.warps_per_block() - 1) / s.warps_per_block()))
                   : f == OwnerField::warp ? s.warps_per_block()
                                           : 32;
        case ScheduleKind::cpu: return f == OwnerField::block ? s.threads() : f == OwnerField::warp ? 1 : s.lanes();
        case ScheduleKind::reference: return 1;
    }
    return 1;
}

void draw_playback_controls(AppState& s, const Schedule& sch) {
    WavefrontView& w = s.wavefront;
    PlaybackState& p = w.playback;
    const int64_t last = std::max<int64_t>(0, sch.steps() - 1);
    if (ImGui::Button("|<###start")) p.step = 0, p.playing = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the first step");
    ImGui::SameLine();
    if (ImGui::Button("<###back")) p.step = std::max<int64_t>(0, p.step - 1), p.playing = false;
    ImGui::SameLine();
    if (ImGui::Button(p.playing ? "Pause###play" : "Play###play")) {
        if (!p.playing && p.step >= last) p.step = 0;  // play again from the start
        p.playing = !p.playing;
    }
    ImGui::SameLine();
    if (ImGui::Button(">###step")) p.step = std::min(last, p.step + 1), p.playing = false;
    ImGui::SameLine();
    if (ImGui::Button(">|###end")) p.step = last, p.playing = false;
    ImGui::SameLine();
    float speed = float(p.speed);
    const float speed_label = ImGui::CalcTextSize("steps/s").x + ImGui::GetStyle().ItemInnerSpacing.x;
    same_line_if_fits(ui_px(80) + speed_label);
    ImGui::SetNextItemWidth(std::max(ui_px(80), ImGui::GetContentRegionAvail().x - speed_label));
    if (ImGui::SliderFloat("steps/s", &speed, 1.0f, 100000.0f, "%.0f", ImGuiSliderFlags_Logarithmic)) {
        p.speed = speed;
        p.auto_speed = false;
    }

    // Steps are counted from 1 on screen (p.step is the 0-based index the schedule uses).
    const int64_t first_shown = 1, last_shown = last + 1;
    int64_t shown = p.step + 1;
    char format[64];
    std::snprintf(format, sizeof format, "step %%lld of %lld", static_cast<long long>(sch.steps()));
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderScalar("##scrub", ImGuiDataType_S64, &shown, &first_shown, &last_shown, format)) {
        p.step = std::clamp<int64_t>(shown - 1, 0, last);
        p.playing = false;
    }
    const ImVec2 s0 = ImGui::GetItemRectMin(), s1 = ImGui::GetItemRectMax();
    w.cache.scrub[0] = s0.x, w.cache.scrub[1] = s0.y, w.cache.scrub[2] = s1.x, w.cache.scrub[3] = s1.y;

    // Cells per step: the ramp-up while lanes and bands join, the plateau, the ramp-down.
    const WavefrontCache& cache = w.cache;
    const size_t at = size_t(std::min<int64_t>(p.step / cache.bucket, int64_t(cache.activity.size()) - 1));
    char overlay[160];
    std::snprintf(overlay, sizeof overlay, "%.0f cells at this step (peak %.0f)%s",
                  cache.activity.empty() ? 0.0 : double(cache.activity[at]), double(cache.peak),
                  cache.bucket > 1 ? ", averaged" : "");
    ImGui::PlotLines("##activity", cache.activity.data(), int(cache.activity.size()), 0, overlay, 0.0f,
                     std::max(1.0f, cache.peak * 1.15f), ImVec2(std::max(ui_px(60), ImGui::GetContentRegionAvail().x), ui_px(90)));
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    if (!cache.activity.empty()) {
        const float x = a.x + (b.x - a.x) * float(double(p.step) / double(std::max<int64_t>(1, sch.steps())));
        ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 140, 40, 255), 1.5f);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("cells per step over the whole fill (%lld steps%s)", (long long)sch.steps(),
                 cache.bucket > 1 ? ", each point a mean" : "");
    ImGui::PopStyleColor();
    text_wrapped("Dark: not yet computed. Orange: computed at this step (the front).");
}

void draw_legend(AppState& s, const Schedule& sch) {
    WavefrontView& w = s.wavefront;
    const bool cpu = sch.kind() != ScheduleKind::gpu;
    int field = int(w.color_by);
    ImGui::TextUnformatted("colour by");
    for (const OwnerField f : {OwnerField::block, OwnerField::warp, OwnerField::lane}) {
        if (cpu && f == OwnerField::warp) continue;
        same_line_if_fits(check_width(owner_field_name(f, cpu)));
        ImGui::RadioButton(owner_field_name(f, cpu), &field, int(f));
    }
    w.color_by = OwnerField(field);
    if (cpu && w.color_by == OwnerField::warp) w.color_by = OwnerField::lane;

    const int n = field_count(sch, w.color_by);
    const int shown = std::min(n, 64);
    const float swatch = ImGui::GetFontSize();
    const float cell_w = swatch + ImGui::CalcTextSize("000").x + ui_px(14);
    const int per_row = std::max(1, int(ImGui::GetContentRegionAvail().x / cell_w));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int v = 0; v < shown; ++v) {
        if (v % per_row) ImGui::SameLine(0.0f, 0.0f);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(p, ImVec2(p.x + swatch, p.y + swatch), owner_color(w.color_by, v));
        ImGui::Dummy(ImVec2(swatch + 3.0f, swatch));
        ImGui::SameLine(0.0f, 0.0f);
        char t[16];
        std::snprintf(t, sizeof t, "%d", v);
        ImGui::TextUnformatted(t);
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::Dummy(ImVec2(std::max(0.0f, cell_w - swatch - 3.0f - ImGui::CalcTextSize(t).x), swatch));
    }
    if (n > shown) ImGui::TextDisabled("... %d %ss in all", n, owner_field_name(w.color_by, cpu));
    switch (sch.kind()) {
        case ScheduleKind::gpu:
            text_wrapped("A lane owns 4 rows for every column; a warp owns a band of 128 rows; bands go to "
                         "warps round-robin (band b: warp b mod %d of the grid).",
                         sch.blocks() * sch.warps_per_block());
            break;
        case ScheduleKind::cpu:
            text_wrapped("A SIMD lane owns one row; a band of %d rows goes to the next free thread (as this run "
                         "recorded).",
                         sch.lanes());
            break;
        case ScheduleKind::reference: text_wrapped("The reference computes every cell on one thread."); break;
    }
}

// The cell under the mouse in the matrix: who computes it and when.
void draw_hovered(const AppState& s, const Schedule& sch) {
    const auto& h = s.view.hover;
    if (!h || h->i < 1 || h->j < 1 || h->i > sch.rows() || h->j > sch.cols()) {
        ImGui::TextDisabled("hover a cell: its owner and step show here");
        return;
    }
    const CellOwner o = sch.owner(h->i, h->j);
    // Steps counted from 1, as the scrubber shows them.
    const long long t = (long long)sch.step(h->i, h->j) + 1;
    switch (sch.kind()) {
        case ScheduleKind::gpu:
            text_wrapped("(%d, %d): step %lld; band %d = block %d warp %d, lane %d, its step %d", h->i, h->j, t, o.band,
                         o.block, o.warp, o.lane, o.band_step + 1);
            break;
        case ScheduleKind::cpu:
            text_wrapped("(%d, %d): step %lld; band %d on thread %d, lane %d, its step %d", h->i, h->j, t, o.band,
                         o.block, o.lane, o.band_step + 1);
            break;
        case ScheduleKind::reference: text_wrapped("(%d, %d): step %lld (row by row)", h->i, h->j, t); break;
    }
}

}  // namespace

void draw_wavefront(AppState& s) {
    WavefrontView& w = s.wavefront;
    prepare_wavefront(s, 0.0);  // the matrix panel advances the clock; here only the schedule
    if (w.raise) {
        ImGui::SetWindowFocus();  // opened by the command line or a lesson: over the panels it shares room with
        w.raise = false;
    }
    if (ImGui::IsWindowAppearing() && w.view == TeachView::none) w.view = TeachView::playback;  // opened from the View menu
    if (!s.result) {
        text_wrapped("No matrix yet.");
        return;
    }
    int view = int(w.view);
    ImGui::RadioButton("off", &view, int(TeachView::none));
    same_line_if_fits(check_width("playback"));
    ImGui::RadioButton("playback", &view, int(TeachView::playback));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the fill step by step, in the order the kernel that ran computes it");
    same_line_if_fits(check_width("ownership"));
    ImGui::RadioButton("ownership", &view, int(TeachView::ownership));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("which block, warp and lane (or thread and lane) computed each cell");
    same_line_if_fits(check_width("tiles"));
    ImGui::Checkbox("tiles", &w.tiles);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("tile boundaries (a band of rows x a chunk of columns) and the order tiles start in");
    w.view = TeachView(view);

    const WavefrontCache& cache = w.cache;
    if (!cache.schedule) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.4f, 1.0f));
        text_wrapped("%s", cache.error.c_str());
        ImGui::PopStyleColor();
        return;
    }
    const Schedule& sch = *cache.schedule;
    text_wrapped("%s", cache.label.c_str());
    if (sch.steps() == 0) {
        ImGui::TextDisabled("no interior cell: nothing to play");
        return;
    }
    ImGui::Separator();
    if (w.view == TeachView::playback) draw_playback_controls(s, sch);
    if (w.view == TeachView::ownership) draw_legend(s, sch);
    if (w.view != TeachView::none) draw_hovered(s, sch);
    if (w.view != TeachView::none) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        text_wrapped("Owners and each band's steps are exact (this run's launch shape); the order across bands "
                     "is a model: every step takes equal time, each hand-over of the row above as early as the "
                     "kernel allows.");
        ImGui::PopStyleColor();
    }
}

}  // namespace dpviz::gui
