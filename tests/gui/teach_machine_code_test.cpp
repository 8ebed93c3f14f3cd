// The machine-code panel draws headless and finds the shown result's kernel in the report it
// loaded (the report's parsers: tests/app/sass_report_test.cpp).
#include "gui/teach_machine_code.hpp"
#include "gui_test_util.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

TEST(TeachMachineCode, PanelDrawsHeadless) {
    HeadlessImGui ui;
    AppState s = fresh_state();
    s.panels.machine_code = true;
    load_example(s, Example::globins);
    Worker w(run_job);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    for (int k = 0; k < 3; ++k) ui.frame(s, &w);
    ASSERT_TRUE(s.teach.sass);
    EXPECT_TRUE(s.teach.sass->loop(app::fill_kernel_name(s.result->problem, true, OutputLevel::matrix)));
    EXPECT_NE(ImGui::FindWindowByName("Machine code"), nullptr);
}

}  // namespace
}  // namespace dpviz::gui
