// Inputs panel: the bundled examples (one click each), then the query and the target: a file
// path (typed, browsed for, picked from the recent files, or dropped on the window) with its
// record, or pasted text. DTW inputs are numeric columns; Viterbi's are the HMM file (always a
// file) and the observations.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "gui/file_dialog.hpp"
#include "gui/frame.hpp"
#include "gui/panels.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

// The width to leave right of a field for its label.
float label_room(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x; }

// The sides' titles: sequences (or signals), or Viterbi's model and observations.
const char* side_title(Algorithm a, int index) {
    if (a == Algorithm::viterbi) return index == 0 ? "Model (rows: states)" : "Observations (columns)";
    return index == 0 ? "Query (rows)" : "Target (columns)";
}

void draw_side(AppState& s, InputSide& in, int index) {
    ImGui::PushID(index);
    const bool dtw = s.params.algo == Algorithm::dtw;
    const bool viterbi = s.params.algo == Algorithm::viterbi;
    const bool model = viterbi && index == 0;  // an HMM file: no pasted form, no records
    ImGui::BeginGroup();
    ImGui::TextUnformatted(side_title(s.params.algo, index));
    // Both sides' radio buttons in one column, whatever the titles' widths.
    const float titles = std::max(ImGui::CalcTextSize(side_title(s.params.algo, 0)).x,
                                  ImGui::CalcTextSize(side_title(s.params.algo, 1)).x);
    bool changed = false;
    if (model) {
        in.source = InputSource::file;  // the job reads the model from `path` only
    } else {
        ImGui::SameLine(titles + ImGui::GetStyle().ItemSpacing.x * 2);
        int source = int(in.source);
        changed |= ImGui::RadioButton("file", &source, int(InputSource::file));
        ImGui::SameLine();
        changed |= ImGui::RadioButton("paste", &source, int(InputSource::paste));
        in.source = InputSource(source);
    }

    if (in.source == InputSource::file) {
        const ImGuiStyle& st = ImGui::GetStyle();
        const float browse_w = ImGui::CalcTextSize("Browse...").x + st.FramePadding.x * 2;
        ImGui::SetNextItemWidth(-(browse_w + ImGui::GetFrameHeight() + st.ItemSpacing.x * 2));
        ImGui::InputTextWithHint("##path", model ? "HMM file (.hmm), or drop one on the window"
                                                  : "path, or drop a file on the window",
                                 &in.path);
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
        if (!dtw && !model && in.record_names.size() > 1) {
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
            ImGui::TextDisabled(dtw       ? "numbers, one per line or comma-separated"
                                : viterbi ? "symbols of the model's alphabet (FASTA or bare)"
                                          : "FASTA text or a bare sequence");
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
    static constexpr std::pair<const char*, Example> kButtons[] = {
        {"Globins", Example::globins},           {"DNA repeat/inversion", Example::dna_repeat_inversion},
        {"DTW signals", Example::dtw_signals},   {"Casino (HMM)", Example::casino},
        {"CpG island (HMM)", Example::cpg_island},
    };
    for (size_t k = 0; k < std::size(kButtons); ++k) {
        const auto& [label, example] = kButtons[k];
        if (k > 0) same_line_if_fits(button_width(label));
        if (ImGui::Button(label)) load_example(s, example);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", example_label(example));
    }
    if (!have_assets) {
        ImGui::EndDisabled();
        ImGui::TextDisabled("examples not found (set $DPVIZ_ASSETS)");
    }
    ImGui::Separator();
    draw_side(s, s.query, 0);
    ImGui::Separator();
    draw_side(s, s.target, 1);
    ImGui::Separator();
    if (s.params.algo != Algorithm::viterbi) {  // a model and its observations do not swap
        if (ImGui::Button("Swap")) {
            std::swap(s.query, s.target);
            request_compute(s, true);
        }
        ImGui::SameLine();
    }
    if (ImGui::Button("Compute")) s.requests.compute = true;
}

}  // namespace dpviz::gui
