// Export panel: the matrix at full resolution as PNG (path, colorbar, caption), a screenshot
// of the window, the alignment as text and the path as CSV. Writes are atomic; an existing
// file is kept unless "overwrite" is on (the new one gets a numeric suffix).
#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/files.hpp"
#include "gui/panels.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

void draw_export(AppState& s) {
    ExportSettings& e = s.export_settings;
    ImGui::PushItemWidth(-(ImGui::CalcTextSize("folder").x + ImGui::GetStyle().ItemInnerSpacing.x * 2));
    ImGui::InputTextWithHint("folder", "current directory", &e.folder);
    ImGui::InputText("name", &e.stem);
    ImGui::PopItemWidth();
    ImGui::Checkbox("overwrite existing files", &e.overwrite);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("off: an existing file is kept and the new one is named NAME-1, NAME-2, ...");

    const bool have = s.result != nullptr;
    struct Item {
        ExportKind kind;
        const char* label;
    };
    const Item items[] = {{ExportKind::matrix_png, "Matrix PNG"},
                          {ExportKind::window_png, "Window PNG"},
                          {ExportKind::alignment_text, "Alignment text"},
                          {ExportKind::path_csv, "Path CSV"}};
    for (const Item& it : items) {
        const bool needs_result = it.kind != ExportKind::window_png;
        if (needs_result && !have) ImGui::BeginDisabled();
        const std::string target = export_target(e, it.kind);
        // Buttons of one width (the longest label's); the file name beside, else below, wrapped.
        const float w = ImGui::CalcTextSize("Alignment text").x + ImGui::GetStyle().FramePadding.x * 4;
        if (ImGui::Button(it.label, ImVec2(w, 0))) s.requests.export_file = ExportRequest{it.kind, target};
        if (needs_result && !have) ImGui::EndDisabled();
        ImGui::SameLine();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", target.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!s.export_message.empty()) text_wrapped("%s", s.export_message.c_str());
}

}  // namespace dpviz::gui
