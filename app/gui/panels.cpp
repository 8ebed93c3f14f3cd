// The panel registry, the default layout and the menu bar with the job's progress.
#include "gui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "gui/compute.hpp"
#include "gui/file_dialog.hpp"
#include "gui/frame.hpp"
#include "gui/teach_inspector.hpp"
#include "gui/teach_lessons.hpp"
#include "gui/teach_machine_code.hpp"
#include "gui/teach_playback.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

std::span<const PanelEntry> panel_registry() {
    // Left column: what to align and how; center: the matrix over the alignment; right: numbers
    // and files, the whole height (the machine's lines need it at 1280 x 800). Fractions of the
    // work area, so the first layout fits any window size. Teaching views open over the right
    // column (inspector, machine code) and the inputs (lesson).
    static constexpr std::array<PanelEntry, 10> kPanels{{
        {"Inputs", &PanelsOpen::inputs, draw_inputs, 0.00f, 0.00f, 0.27f, 0.47f, 0.00f, 0.00f, 0.24f, 0.55f},
        {"Parameters", &PanelsOpen::parameters, draw_parameters, 0.00f, 0.47f, 0.27f, 0.53f, 0.00f, 0.55f, 0.24f, 0.45f},
        {"Matrix", &PanelsOpen::matrix, draw_matrix, 0.27f, 0.00f, 0.48f, 0.66f, 0.24f, 0.00f, 0.44f, 0.64f},
        {"Alignment", &PanelsOpen::alignment, draw_alignment, 0.27f, 0.66f, 0.48f, 0.34f, 0.24f, 0.64f, 0.44f, 0.36f},
        {"Timing", &PanelsOpen::timing, draw_timing, 0.75f, 0.00f, 0.25f, 0.62f},
        {"Export", &PanelsOpen::export_, draw_export, 0.75f, 0.62f, 0.25f, 0.38f},
        {"Wavefront", &PanelsOpen::wavefront, draw_wavefront, 0.75f, 0.00f, 0.25f, 1.00f, 0.68f, 0.00f, 0.32f, 1.00f},
        {"Inspector", &PanelsOpen::inspector, draw_teach_inspector, 0.62f, 0.00f, 0.38f, 0.66f, 0.68f, 0.00f, 0.32f, 1.00f},
        {"Machine code", &PanelsOpen::machine_code, draw_teach_machine_code, 0.27f, 0.00f, 0.48f, 1.00f, 0.24f, 0.00f, 0.44f, 1.00f},
        {"Lesson", &PanelsOpen::lesson, draw_teach_lesson, 0.00f, 0.00f, 0.27f, 0.47f, 0.00f, 0.00f, 0.24f, 0.55f},
    }};
    return kPanels;
}

render::ColorScale view_color_scale(const AppState& s) {
    render::HeatmapOptions opt;
    opt.auto_colormap = s.view.auto_colormap;
    opt.colormap = s.view.colormap;
    if (!s.result) return render::make_color_scale({}, opt);
    return render::make_color_scale(s.result->layer_range(s.result->shown_layer(s.view.layer)), opt);
}

namespace {

void draw_progress(AppState& s) {
    const JobState& j = s.job;
    if (!j.busy) {
        if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", s.error.c_str());
        return;
    }
    // The engine's own progress of the fill; before it reports (loading, preparing the view), an
    // estimate from the last measured throughput.
    const float frac = j.progress >= 0 ? float(j.progress)
                       : j.expected_s > 0 ? float(std::min(j.elapsed_s / j.expected_s, 0.99))
                                          : 0.0f;
    char overlay[160];
    std::snprintf(overlay, sizeof overlay, "%s  %.1f s", j.finishing_cancelled ? "stopping a superseded job" : j.stage.c_str(),
                  j.elapsed_s);
    ImGui::ProgressBar(frac, ImVec2(ui_px(260), 0), overlay);
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) s.requests.cancel = true;
}

void draw_menu_bar(AppState& s) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        for (const Example e : kAllExamples)
            if (ImGui::MenuItem(example_label(e), nullptr, false, !s.assets_dir.empty())) load_example(s, e);
        ImGui::Separator();
        if (ImGui::MenuItem("Quit")) s.requests.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        for (const PanelEntry& p : panel_registry()) ImGui::MenuItem(p.title, nullptr, &(s.panels.*p.open));
        ImGui::Separator();
        char scale[48];
        std::snprintf(scale, sizeof scale, "UI scale %.0f %%", 100.0f * ui_scale(s.ui));
        ImGui::TextDisabled("%s", scale);
        if (ImGui::MenuItem("Larger", "Ctrl +")) s.ui.zoom = zoom_step(s.ui.zoom, +1);
        if (ImGui::MenuItem("Smaller", "Ctrl -")) s.ui.zoom = zoom_step(s.ui.zoom, -1);
        if (ImGui::MenuItem("Reset", "Ctrl 0", false, s.ui.zoom != 1.0f)) s.ui.zoom = 1.0f;
        ImGui::EndMenu();
    }
    draw_lessons_menu(s);
    ImGui::Separator();
    draw_progress(s);
    if (!s.notice.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.35f, 1.0f), "%s", s.notice.c_str());
        if (ImGui::SmallButton("dismiss")) s.notice.clear();
    }
    char fps[32];
    std::snprintf(fps, sizeof fps, "%.0f fps", ImGui::GetIO().Framerate);
    ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(fps).x - ImGui::GetStyle().ItemSpacing.x * 1.5f);
    ImGui::TextDisabled("%s", fps);
    ImGui::EndMainMenuBar();
}

}  // namespace

void draw_ui(AppState& s) {
    handle_scale_keys(s);  // applied between frames (apply_ui_scale): the fonts cannot change mid-frame
    draw_menu_bar(s);
    const ImGuiIO& io = ImGui::GetIO();
    const float top = ImGui::GetFrameHeight();  // the menu bar
    const ImVec2 area(io.DisplaySize.x, io.DisplaySize.y - top);
    s.hovered_input = -1;
    const bool lesson_layout = s.teach.layout_pending;  // a lesson opened: its layout, once
    s.teach.layout_pending = false;
    for (const PanelEntry& p : panel_registry()) {
        bool& open = s.panels.*p.open;
        if (lesson_layout && p.lx < 0) open = false;
        if (!open) continue;
        if (lesson_layout) {
            ImGui::SetNextWindowPos(ImVec2(p.lx * area.x, top + p.ly * area.y), ImGuiCond_Always);
            ImGui::SetNextWindowSize(ImVec2(p.lw * area.x, p.lh * area.y), ImGuiCond_Always);
        } else {
            ImGui::SetNextWindowPos(ImVec2(p.x * area.x, top + p.y * area.y), ImGuiCond_FirstUseEver);
            ImGui::SetNextWindowSize(ImVec2(p.w * area.x, p.h * area.y), ImGuiCond_FirstUseEver);
        }
        const ImGuiWindowFlags flags = p.draw == draw_matrix ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse : 0;
        if (ImGui::Begin(p.title, &open, flags)) p.draw(s);
        ImGui::End();
    }
    draw_file_dialog(s);
}

}  // namespace dpviz::gui
