// The in-app file browser: listing a folder (folders first, hidden names and non-input files
// left out unless asked), and in headless frames the Inputs panel's Browse... button, entering
// a folder, Up, typing a path, and picking a file, which sets the input's path.
#include <fstream>

#include "gui_test_util.hpp"
#include "gui/file_dialog.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

void touch(const std::string& path, const std::string& text = ">s\nACGT\n") { std::ofstream(path) << text; }

// A folder of inputs and others: sub/ (with b.fq), .hidden/, Zeta/, a.fa, signal.csv,
// notes.pdf, .secret.fa.
struct Tree {
    TempDir dir;
    Tree() {
        std::filesystem::create_directories(dir.file("sub"));
        std::filesystem::create_directories(dir.file(".hidden"));
        std::filesystem::create_directories(dir.file("Zeta"));
        touch(dir.file("a.fa"));
        touch(dir.file("signal.csv"), "x\n1\n2\n");
        touch(dir.file("notes.pdf"));
        touch(dir.file(".secret.fa"));
        touch(dir.file("sub/b.fq.gz"));
    }
};

std::vector<std::string> names(const std::vector<FileEntry>& v) {
    std::vector<std::string> n;
    for (const FileEntry& e : v) n.push_back(e.folder ? e.name + "/" : e.name);
    return n;
}

TEST(GuiFileDialog, InputFileNames) {
    for (const char* n :
         {"x.fa", "x.FASTA", "x.fq.gz", "x.fastq", "x.csv", "x.tsv", "x.txt", "x.seq", "genome.fna.gz", "casino.hmm"})
        EXPECT_TRUE(is_input_file_name(n)) << n;
    for (const char* n : {"x.pdf", "x.gz", "fa", "x.fa.bak", "x.png"}) EXPECT_FALSE(is_input_file_name(n)) << n;
}

TEST(GuiFileDialog, ListFolderSortsAndFilters) {
    Tree t;
    std::string error;
    EXPECT_EQ(names(list_folder(t.dir.path(), false, true, error)),
              (std::vector<std::string>{"sub/", "Zeta/", "a.fa", "signal.csv"}));
    EXPECT_EQ(error, "");
    EXPECT_EQ(names(list_folder(t.dir.path(), true, false, error)),
              (std::vector<std::string>{".hidden/", "sub/", "Zeta/", ".secret.fa", "a.fa", "notes.pdf", "signal.csv"}));
    const auto entries = list_folder(t.dir.path(), false, true, error);
    EXPECT_EQ(entries[2].size, 8u);  // ">s\nACGT\n"
    EXPECT_TRUE(list_folder(t.dir.file("nothing-here"), false, true, error).empty());
    EXPECT_NE(error.find("cannot list"), std::string::npos) << error;
}

TEST(GuiFileDialog, BrowseNavigateAndPickSetsTheInputPath) {
    Tree t;
    HeadlessImGui ui;
    AppState s = fresh_state();
    s.query.path = t.dir.file("a.fa");  // the browser opens where the query is
    ui.frame(s);
    activate(widget_id("Inputs", {0, "Browse..."}));
    ui.frame(s);  // the button asks for the dialog ...
    ui.frame(s);  // ... which opens on the next frame
    ASSERT_EQ(s.file_dialog.side, 0);
    ASSERT_TRUE(ImGui::IsPopupOpen("Open file", ImGuiPopupFlags_AnyPopupId)) << "the modal is not open";
    EXPECT_EQ(s.file_dialog.folder, t.dir.path());
    EXPECT_EQ(names(s.file_dialog.entries), (std::vector<std::string>{"sub/", "Zeta/", "a.fa", "signal.csv"}));

    // Into sub/ (a click on a folder enters it), then Up.
    const std::string list = child_window_name("Open file", "entries");
    activate(widget_id(list.c_str(), {"sub/"}));
    ui.frame(s);
    ui.frame(s);
    EXPECT_EQ(s.file_dialog.folder, t.dir.file("sub"));
    EXPECT_EQ(names(s.file_dialog.entries), (std::vector<std::string>{"b.fq.gz"}));
    activate(widget_id("Open file", {"Up"}));
    ui.frame(s);
    ui.frame(s);
    EXPECT_EQ(s.file_dialog.folder, t.dir.path());

    // Hidden files on: the hidden folder and file join the list.
    activate(widget_id("Open file", {"hidden files"}));
    ui.frame(s);
    ui.frame(s);
    EXPECT_TRUE(s.file_dialog.show_hidden);
    EXPECT_EQ(names(s.file_dialog.entries).front(), ".hidden/");

    // A typed path that does not exist: an error, the dialog stays.
    s.file_dialog.path_text = t.dir.file("missing.fa");
    activate(widget_id("Open file", {"Open"}));
    ui.frame(s);
    EXPECT_NE(s.file_dialog.error.find("no such file or folder"), std::string::npos) << s.file_dialog.error;
    EXPECT_EQ(s.file_dialog.side, 0);

    // A click on a file puts it in the path field; Open picks it.
    activate(widget_id(list.c_str(), {"signal.csv"}));
    ui.frame(s);
    EXPECT_EQ(s.file_dialog.path_text, t.dir.file("signal.csv"));
    s.requests.compute = false;
    activate(widget_id("Open file", {"Open"}));
    ui.frame(s);
    ui.frame(s);
    EXPECT_EQ(s.query.path, t.dir.file("signal.csv"));
    EXPECT_EQ(s.query.source, InputSource::file);
    EXPECT_TRUE(s.query.record.empty());
    EXPECT_TRUE(s.requests.compute);  // the new input is aligned
    EXPECT_EQ(s.file_dialog.side, -1);
    EXPECT_FALSE(ImGui::IsPopupOpen("Open file", ImGuiPopupFlags_AnyPopupId));
    EXPECT_EQ(s.target.path, "");  // the other side is untouched
}

TEST(GuiFileDialog, TypedFolderAndTargetSide) {
    Tree t;
    HeadlessImGui ui;
    AppState s = fresh_state();
    ui.frame(s);
    activate(widget_id("Inputs", {1, "Browse..."}));  // the target's button
    ui.frame(s);
    ui.frame(s);
    ASSERT_EQ(s.file_dialog.side, 1);
    // The path field has the keyboard as the dialog opens (ImGui owns its text while it is
    // active); a click elsewhere, then the typed folder: Open enters it.
    EXPECT_EQ(ImGui::GetActiveID(), widget_id("Open file", {"##path"}));
    ImGui::ClearActiveID();
    s.file_dialog.path_text = t.dir.path();
    activate(widget_id("Open file", {"Open"}));
    ui.frame(s);
    EXPECT_EQ(s.file_dialog.folder, t.dir.path());
    // A name relative to the folder shown.
    EXPECT_TRUE(file_dialog_submit(s, "sub/b.fq.gz"));
    EXPECT_EQ(s.target.path, t.dir.file("sub/b.fq.gz"));
    EXPECT_EQ(s.query.path, "");
    ui.frame(s);
    EXPECT_FALSE(ImGui::IsPopupOpen("Open file", ImGuiPopupFlags_AnyPopupId));

    // Cancel closes it and changes nothing.
    activate(widget_id("Inputs", {1, "Browse..."}));
    ui.frame(s);
    ui.frame(s);
    ASSERT_EQ(s.file_dialog.side, 1);
    activate(widget_id("Open file", {"Cancel"}));
    ui.frame(s);
    ui.frame(s);
    EXPECT_EQ(s.file_dialog.side, -1);
    EXPECT_FALSE(ImGui::IsPopupOpen("Open file", ImGuiPopupFlags_AnyPopupId));
    EXPECT_EQ(s.target.path, t.dir.file("sub/b.fq.gz"));
}

}  // namespace
}  // namespace dpviz::gui
