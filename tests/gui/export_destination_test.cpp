// The GUI's writes: the Export panel refuses a FIFO or a folder at the destination with the
// reason in the status line and leaves it as it was, follows a link to a file; a session that
// cannot be saved is an error that names the file.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "gui_test_util.hpp"
#include "gui/files.hpp"
#include "gui/session.hpp"

namespace dpviz::gui {
namespace {

using namespace testing;
namespace fs = std::filesystem;

TEST(GuiExport, NonRegularDestinationsAreRefusedInTheStatusLine) {
    TempDir dir;
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w(run_job);
    s.export_settings.folder = dir.path();
    s.export_settings.overwrite = true;  // else an existing name gets a suffix and nothing is at risk
    ui.frame(s, &w);
    activate(widget_id("Inputs", {"Globins"}));
    ui.frame(s, &w);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;

    ASSERT_EQ(::mkfifo(dir.file("dpviz-path.csv").c_str(), 0600), 0);
    fs::create_directory(dir.file("dpviz-alignment.txt"));
    activate(widget_id("Export", {"Path CSV"}));
    ui.frame(s, &w);
    EXPECT_EQ(s.export_message,
              "export failed: writing " + dir.file("dpviz-path.csv") + ": it is a FIFO, and dpviz replaces only regular files");
    activate(widget_id("Export", {"Alignment text"}));
    ui.frame(s, &w);
    EXPECT_NE(s.export_message.find("export failed: writing " + dir.file("dpviz-alignment.txt") + ": it is a folder"),
              std::string::npos)
        << s.export_message;
    struct stat sb {};
    ASSERT_EQ(::lstat(dir.file("dpviz-path.csv").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISFIFO(sb.st_mode));
    EXPECT_TRUE(fs::is_empty(dir.file("dpviz-alignment.txt")));

    // A link to a regular file: the file behind it gets the export, the link stays.
    fs::remove(dir.file("dpviz-path.csv"));
    { std::ofstream(dir.file("kept.csv")) << "old"; }
    fs::create_symlink("kept.csv", dir.file("dpviz-path.csv"));
    activate(widget_id("Export", {"Path CSV"}));
    ui.frame(s, &w);
    EXPECT_EQ(s.export_message, "wrote " + dir.file("dpviz-path.csv"));
    EXPECT_TRUE(fs::is_symlink(dir.file("dpviz-path.csv")));
    std::ifstream in(dir.file("kept.csv"));
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first.rfind("step,i,j", 0), 0u) << first;
}

TEST(GuiSessionSave, AFailedSaveNamesTheFileAndLeavesItAsItWas) {
    TempDir dir;
    AppState s = fresh_state();
    ASSERT_EQ(::mkfifo(dir.file("session.ini").c_str(), 0600), 0);
    const Status fifo = save_session(s, dir.path());
    ASSERT_FALSE(fifo);
    EXPECT_EQ(fifo.error().kind, ErrorKind::resource);
    EXPECT_EQ(fifo.error().message.rfind("writing " + dir.file("session.ini") + ": it is a FIFO", 0), 0u)
        << fifo.error().message;
    struct stat sb {};
    ASSERT_EQ(::lstat(dir.file("session.ini").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISFIFO(sb.st_mode));
    // A file where the config folder should be.
    { std::ofstream(dir.file("not_a_folder")) << "x"; }
    const Status blocked = save_session(s, dir.file("not_a_folder"));
    ASSERT_FALSE(blocked);
    EXPECT_NE(blocked.error().message.find("writing " + dir.file("not_a_folder") + "/session.ini: "), std::string::npos)
        << blocked.error().message;
    ASSERT_TRUE(save_session(s, dir.file("fresh/dpviz")));  // a missing folder is made
    EXPECT_TRUE(std::filesystem::is_regular_file(dir.file("fresh/dpviz/session.ini")));
}

}  // namespace
}  // namespace dpviz::gui
