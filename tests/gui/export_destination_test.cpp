// The Export panel's writes: a FIFO, a folder or a link to a FIFO at the destination is refused
// with the reason in the status line and left as it was; a link to a file is followed.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "gui_test_util.hpp"
#include "gui/files.hpp"

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

}  // namespace
}  // namespace dpviz::gui
