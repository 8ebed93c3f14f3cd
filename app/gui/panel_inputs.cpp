// Inputs panel: the bundled examples (one click each), then the query and the target: a file
// path (typed, browsed for, picked from the recent files, or dropped on the window) with its
// record, or pasted text. DTW inputs are numeric columns.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "gui/file_dialog.hpp"
#include "gui/frame.hpp"
#include "gui/panels.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

// The width to leave right of a field for its label.
float label_room(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x; }

void draw_side(AppState& s, InputSide& in, const char* title, int index) {
    ImGui::PushID(index);
    const bool dtw = s.params.algo == Algorithm::dtw;
    ImGui::BeginGroup();
    ImGui::TextUnformatted(title);
    // Both sides' radio buttons in one column, whatever the titles' widths.
    const float titles = std::max(ImGui::CalcTextSize("Query (rows)").x, ImGui::CalcTextSize("Target (columns)").x);
    ImGui::SameLine(titles + ImGui::GetStyle().ItemSpacing.x * 2);
    int source = int(in.source);
    bool changed = ImGui::RadioButton("file", &source, int(InputSource::file));
    ImGui::SameLine();
    changed |= ImGui::RadioButton("paste", &source, int(InputSource::paste));
    in.source = InputSource(source);

    if (in.source == InputSource::file) {
        const ImGuiStyle& st = ImGui::GetStyle();
        const float browse_w = ImGui::CalcTextSize("Browse...").x + st.FramePadding.x * 2;
        ImGui::SetNextItemWidth(-(browse_w + ImGui::GetFrameHeight() + st.ItemSpacing.x * 2));
        ImGui::InputTextWithHint("##path", "path, or drop a file on the window", &in.path);
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            in.record.clear();
            in.record_names.clear();
            changed = true;
        }
        ImGui::SameLine();
        if (ImGui::Button("Browse...")) open_file_dialog(s, index);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("pick a file from a folder listing");
        ImGui::SameLine();
        if (ImGui::BeginCombo("##recent", "recent", ImGuiComboFlags_NoPreview | ImGuiComboFlags_HeightLarge)) {
            if (s.recent_files.empty()) ImGui::TextDisabled("no recent files");
            for (const std::string& f : s.recent_files)
                if (ImGui::Selectable(f.c_str(), f == in.path)) {
                    in.path = f;
                    in.record.clear();
                    in.record_names.clear();
                    changed = true;
                }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("recent files");
        if (!dtw && in.record_names.size() > 1) {
            // A multi-record file: pick by name (the loader also accepts a 1-based index).
            std::string preview = in.record.empty() ? in.record_names.front() : in.record;
            ImGui::SetNextItemWidth(-label_room("record"));
            if (ImGui::BeginCombo("record", preview.c_str())) {
                for (size_t k = 0; k < in.record_names.size(); ++k) {
                    const std::string& name = in.record_names[k];
                    const bool selected = name == in.record || (in.record == std::to_string(k + 1));
                    ImGui::PushID(int(k));
                    if (ImGui::Selectable(name.c_str(), selected)) {
                        in.record = name;
                        changed = true;
                    }
                    ImGui::PopID();
                }
                ImGui::EndCombo();
            }
        }
    } else {
        ImGui::InputTextMultiline("##pasted", &in.pasted, ImVec2(-1, ImGui::GetTextLineHeight() * 4),
                                  ImGuiInputTextFlags_None);
        if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
        if (in.pasted.empty())
            ImGui::TextDisabled(dtw ? "numbers, one per line or comma-separated" : "FASTA text or a bare sequence");
    }
    if (dtw) {
        ImGui::SetNextItemWidth(-label_room("column"));
        ImGui::InputTextWithHint("column", "name or 1-based index", &in.column);
        if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
    }
    ImGui::EndGroup();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) s.hovered_input = index;
    if (changed) request_compute(s, true);
    ImGui::PopID();
}

}  // namespace

void draw_inputs(AppState& s) {
    ImGui::TextDisabled("Examples");
    const bool have_assets = !s.assets_dir.empty();
    if (!have_assets) ImGui::BeginDisabled();
    if (ImGui::Button("Globins")) load_example(s, Example::globins);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", example_label(Example::globins));
    same_line_if_fits(button_width("DNA repeat/inversion"));
    if (ImGui::Button("DNA repeat/inversion")) load_example(s, Example::dna_repeat_inversion);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", example_label(Example::dna_repeat_inversion));
    same_line_if_fits(button_width("DTW signals"));
    if (ImGui::Button("DTW signals")) load_example(s, Example::dtw_signals);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", example_label(Example::dtw_signals));
    if (!have_assets) {
        ImGui::EndDisabled();
        ImGui::TextDisabled("examples not found (set $DPVIZ_ASSETS)");
    }
    ImGui::Separator();
    draw_side(s, s.query, "Query (rows)", 0);
    ImGui::Separator();
    draw_side(s, s.target, "Target (columns)", 1);
    ImGui::Separator();
    if (ImGui::Button("Swap")) {
        std::swap(s.query, s.target);
        request_compute(s, true);
    }
    ImGui::SameLine();
    if (ImGui::Button("Compute")) s.requests.compute = true;
}

}  // namespace dpviz::gui
