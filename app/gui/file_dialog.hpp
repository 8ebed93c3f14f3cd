// The in-app file browser the Inputs panel opens for the query or target file: a modal listing
// the folders and files under a path, with Up and Home, a filter for sequence and signal files,
// hidden files on request, and a path field (a folder is entered, a file is picked). The listing
// is plain functions over std::filesystem, so the tests drive it with or without frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dpviz::gui {

struct AppState;

struct FileEntry {
    std::string name;
    bool folder = false;
    uintmax_t size = 0;  // bytes (files)
    friend bool operator==(const FileEntry&, const FileEntry&) = default;
};

struct FileDialogState {
    int side = -1;               // the input it is open for: 0 query, 1 target; -1 closed
    bool open_pending = false;   // the panel asked for it: opened on the next frame
    std::string folder;          // the folder listed (absolute)
    std::string path_text;       // the path field: a folder to enter or a file to pick
    bool show_hidden = false;    // names starting with '.'
    bool inputs_only = true;     // only sequence and signal files (and folders)
    std::vector<FileEntry> entries;  // `folder`'s listing, folders first (see list_folder)
    std::string listed_key;      // folder and filters the listing was made for
    std::string error;           // the last failure (a folder that cannot be read, no such path)
};

// Input files by name: FASTA, FASTQ, plain sequence, CSV/TSV signals, HMM models (.gz too).
bool is_input_file_name(const std::string& name);

// The folders then the files in `folder`, each group by name (case-insensitive), without
// hidden names unless asked, files filtered by is_input_file_name when `inputs_only`. Fills
// `error` (and returns what it could read) when the folder cannot be listed.
std::vector<FileEntry> list_folder(const std::string& folder, bool show_hidden, bool inputs_only, std::string& error);

// Opens the browser for input `side` (0 query, 1 target) at that input's folder, else the last
// folder browsed, else the working directory.
void open_file_dialog(AppState& s, int side);
// Lists `folder` (made absolute) and makes it the dialog's folder; false and an error if it is
// not a readable folder.
bool file_dialog_enter(AppState& s, const std::string& folder);
// The path field's action: a folder is entered, a file is picked (the input's path, its record
// cleared, a computation requested, the dialog closed). False and an error otherwise.
bool file_dialog_submit(AppState& s, const std::string& path);

// The modal itself; draw_ui calls it every frame after the panels.
void draw_file_dialog(AppState& s);

}  // namespace dpviz::gui
