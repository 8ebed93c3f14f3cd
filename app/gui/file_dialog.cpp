// The in-app file browser (see file_dialog.hpp). No desktop portal: the browser works the same
// on any X server, Xvfb and remote displays included.
#include "gui/file_dialog.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "gui/app_state.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTitle = "Open file";

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "~" and "~/..." from $HOME; a relative path from the folder shown.
fs::path resolve(const std::string& text, const std::string& folder) {
    std::string t = text;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    if (t == "~" || t.rfind("~/", 0) == 0)
        if (const char* h = std::getenv("HOME"); h && *h) t = std::string(h) + t.substr(1);
    fs::path p(t);
    if (p.is_relative()) p = fs::path(folder) / p;
    return p.lexically_normal();
}

std::string size_text(uintmax_t n) {
    char b[32];
    if (n < 1024) std::snprintf(b, sizeof b, "%ju B", n);
    else if (n < 1024 * 1024) std::snprintf(b, sizeof b, "%.1f KiB", double(n) / 1024);
    else if (n < uintmax_t(1) << 30) std::snprintf(b, sizeof b, "%.1f MiB", double(n) / (1024 * 1024));
    else std::snprintf(b, sizeof b, "%.1f GiB", double(n) / double(uintmax_t(1) << 30));
    return b;
}

std::string listing_key(const FileDialogState& d) {
    return d.folder + (d.show_hidden ? "|h" : "|") + (d.inputs_only ? "i" : "");
}

void pick(AppState& s, const std::string& path) {
    InputSide& in = s.file_dialog.side == 1 ? s.target : s.query;
    in.source = InputSource::file;
    in.path = path;
    in.record.clear();
    in.record_names.clear();
    s.file_dialog.side = -1;
    s.file_dialog.error.clear();
    request_compute(s, true);
}

}  // namespace

bool is_input_file_name(const std::string& name) {
    std::string n = lower(name);
    if (n.size() > 3 && n.ends_with(".gz")) n.resize(n.size() - 3);
    static const char* const kExt[] = {".fa",  ".fasta", ".fna", ".faa", ".ffn", ".frn", ".fas", ".fsa", ".seq",
                                       ".fq",  ".fastq", ".txt", ".csv", ".tsv", ".tab", ".dat", ".hmm"};
    return std::any_of(std::begin(kExt), std::end(kExt), [&](const char* e) { return n.ends_with(e); });
}

std::vector<FileEntry> list_folder(const std::string& folder, bool show_hidden, bool inputs_only, std::string& error) {
    std::vector<FileEntry> out;
    error.clear();
    std::error_code ec;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error = "cannot list " + folder + ": " + ec.message();
        return out;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec) {
            error = "listing " + folder + ": " + ec.message();
            break;
        }
        const std::string name = it->path().filename().string();
        if (!show_hidden && !name.empty() && name[0] == '.') continue;
        std::error_code e2;
        FileEntry f{name, it->is_directory(e2), 0};  // follows links: a link to a folder is a folder
        if (!f.folder) {
            if (inputs_only && !is_input_file_name(name)) continue;
            f.size = it->file_size(e2);
            if (e2) f.size = 0;
        }
        out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(), [](const FileEntry& a, const FileEntry& b) {
        if (a.folder != b.folder) return a.folder;
        const std::string la = lower(a.name), lb = lower(b.name);
        return la != lb ? la < lb : a.name < b.name;
    });
    return out;
}

bool file_dialog_enter(AppState& s, const std::string& folder) {
    FileDialogState& d = s.file_dialog;
    std::error_code ec;
    const fs::path p = fs::absolute(fs::path(folder), ec).lexically_normal();
    if (ec || !fs::is_directory(p, ec)) {
        d.error = "not a folder: " + folder;
        return false;
    }
    std::string error;
    std::vector<FileEntry> entries = list_folder(p.string(), d.show_hidden, d.inputs_only, error);
    if (!error.empty() && entries.empty()) {
        d.error = error;
        return false;
    }
    std::string shown = p.string();
    if (shown.size() > 1 && shown.back() == '/') shown.pop_back();
    d.folder = shown;
    d.entries = std::move(entries);
    d.listed_key = listing_key(d);
    d.error = error;
    d.path_text = d.folder == "/" ? "/" : d.folder + "/";
    return true;
}

bool file_dialog_submit(AppState& s, const std::string& text) {
    FileDialogState& d = s.file_dialog;
    if (text.empty()) return false;
    const fs::path p = resolve(text, d.folder);
    std::error_code ec;
    if (fs::is_directory(p, ec)) return file_dialog_enter(s, p.string());
    if (!fs::exists(p, ec)) {
        d.error = "no such file or folder: " + p.string();
        return false;
    }
    pick(s, p.string());
    return true;
}

void open_file_dialog(AppState& s, int side) {
    FileDialogState& d = s.file_dialog;
    d.side = side;
    d.open_pending = true;
    d.error.clear();
    const InputSide& in = side == 1 ? s.target : s.query;
    std::error_code ec;
    std::vector<std::string> candidates;
    if (!in.path.empty()) candidates.push_back(fs::path(in.path).parent_path().string());
    if (!d.folder.empty()) candidates.push_back(d.folder);
    candidates.push_back(fs::current_path(ec).string());
    for (const std::string& c : candidates)
        if (!c.empty() && file_dialog_enter(s, c)) break;
    if (!in.path.empty() && fs::is_regular_file(in.path, ec)) d.path_text = fs::absolute(in.path, ec).lexically_normal().string();
}

void draw_file_dialog(AppState& s) {
    FileDialogState& d = s.file_dialog;
    if (d.open_pending) {
        ImGui::OpenPopup(kTitle);
        d.open_pending = false;
    }
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.6f, io.DisplaySize.y * 0.7f), ImGuiCond_Appearing);
    bool open = true;
    if (!ImGui::BeginPopupModal(kTitle, &open)) {
        if (d.side >= 0 && !ImGui::IsPopupOpen(kTitle)) d.side = -1;  // closed by Escape or its X
        return;
    }
    if (!open || d.side < 0) {
        d.side = -1;
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    if (listing_key(d) != d.listed_key) file_dialog_enter(s, d.folder);  // a filter changed

    ImGui::TextDisabled("%s", d.side == 1 ? "Target file (columns)" : "Query file (rows)");
    std::string go_to;  // what a click asks for, carried out after the list is drawn
    std::string submit;
    if (ImGui::Button("Up")) go_to = fs::path(d.folder).parent_path().string();
    ImGui::SameLine();
    if (ImGui::Button("Home"))
        if (const char* h = std::getenv("HOME"); h && *h) go_to = h;
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(d.folder.c_str());
    ImGui::PopTextWrapPos();

    const float open_w = ImGui::CalcTextSize("Open").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(-(open_w + ImGui::GetStyle().ItemSpacing.x));
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    if (ImGui::InputTextWithHint("##path", "a folder or a file; Enter opens it", &d.path_text,
                                 ImGuiInputTextFlags_EnterReturnsTrue))
        submit = d.path_text;
    ImGui::SameLine();
    if (ImGui::Button("Open")) submit = d.path_text;
    ImGui::Checkbox("sequence and signal files only", &d.inputs_only);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("FASTA, FASTQ, plain sequences, CSV/TSV signals, HMM models (.fa .fasta .fq .fastq .seq .txt "
                          ".csv .tsv .hmm, also .gz)");
    ImGui::SameLine();
    ImGui::Checkbox("hidden files", &d.show_hidden);
    if (!d.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        text_wrapped("%s", d.error.c_str());
        ImGui::PopStyleColor();
    }

    const float footer = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild("entries", ImVec2(0, -footer), true);
    if (d.entries.empty()) ImGui::TextDisabled("(nothing here%s)", d.inputs_only ? " with a sequence or signal name" : "");
    const float size_x = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("0000.0 KiB").x;
    for (const FileEntry& e : d.entries) {
        const std::string full = (fs::path(d.folder) / e.name).string();
        const std::string label = e.folder ? e.name + "/" : e.name;
        const bool selected = !e.folder && d.path_text == full;
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            if (e.folder) go_to = full;
            else if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) submit = full;
            else d.path_text = full;
        }
        if (!e.folder) {
            ImGui::SameLine(std::max(size_x, ImGui::GetCursorPosX()));
            ImGui::TextDisabled("%s", size_text(e.size).c_str());
        }
    }
    ImGui::EndChild();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) d.side = -1;

    if (!go_to.empty()) file_dialog_enter(s, go_to);
    if (!submit.empty()) file_dialog_submit(s, submit);
    if (d.side < 0) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace dpviz::gui
