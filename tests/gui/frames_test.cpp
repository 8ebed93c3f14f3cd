// Whole UI frames with no window (Dear ImGui's example_null approach): panel actions change the
// state, the wheel zooms toward the cursor, dragging pans, hovering picks the cell under the
// mouse, clicking a path cell scrolls the alignment, and a newer request supersedes a running
// job so that the result shown is always the latest.
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <mutex>

#include "gui_test_util.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/files.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

class GuiFrames : public FramesTest {};

TEST_F(GuiFrames, RunWithoutAResult) {
    for (int k = 0; k < 3; ++k) ui.frame(s);
    EXPECT_FALSE(s.result);
    EXPECT_EQ(s.view.wanted.rows, 0);  // nothing asked of the GL side
    EXPECT_NE(ImGui::FindWindowByName("Matrix"), nullptr);
    EXPECT_NE(ImGui::FindWindowByName("Inputs"), nullptr);
}

TEST_F(GuiFrames, ExampleButtonSetsInputsAndComputes) {
    load_globins(ui, s, w);
    EXPECT_EQ(s.query.record, "HBA_HUMAN");
    EXPECT_EQ(s.target.record, "HBB_HUMAN");
    EXPECT_EQ(s.params.algo, Algorithm::local);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(s.result->problem.query_name, "HBA_HUMAN");
    EXPECT_EQ(s.result->problem.target_name, "HBB_HUMAN");
    EXPECT_EQ(s.result->problem.matrix.name, "BLOSUM62");
    EXPECT_EQ(s.result->rows(), 142 + 1);
    EXPECT_EQ(s.result->cols(), 147 + 1);
    // The file has four records; the record picker learned them.
    EXPECT_EQ(s.query.record_names.size(), 4u);
    // The panel asked for the whole matrix (it was fitted) and the texture region is valid.
    EXPECT_GT(s.view.xf.cell_px, 1.0);
    EXPECT_EQ(s.view.wanted.rows, s.result->rows());
    EXPECT_EQ(s.view.wanted.cols, s.result->cols());
    EXPECT_FALSE(s.recent_files.empty());
}

TEST_F(GuiFrames, ToolbarAndExportButtonsSetRequests) {
    TempDir dir;
    s.export_settings.folder = dir.path();
    load_globins(ui, s, w);

    EXPECT_FALSE(s.view.show_mask);
    activate(widget_id("Matrix", {"optimal"}));
    ui.frame(s, &w);
    EXPECT_TRUE(s.view.show_mask);
    EXPECT_TRUE(s.view.wanted.mask);

    s.view.xf.cell_px *= 3;
    activate(widget_id("Matrix", {"Fit"}));
    ui.frame(s, &w);  // the button sets fit_pending ...
    ui.frame(s, &w);  // ... which the next frame applies
    EXPECT_FALSE(s.view.fit_pending);
    EXPECT_EQ(s.view.wanted.rows, s.result->rows());

    activate(widget_id("Matrix", {"1:1"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_DOUBLE_EQ(s.view.xf.cell_px, 1.0);

    // Export buttons: the request names a file in the chosen folder; text and CSV get written.
    activate(widget_id("Export", {"Path CSV"}));
    ui.frame(s, &w);
    EXPECT_NE(s.export_message.find(dir.file("dpviz-path.csv")), std::string::npos) << s.export_message;
    activate(widget_id("Export", {"Path CSV"}));
    ui.frame(s, &w);  // an existing file is kept: the second export gets a suffix
    EXPECT_NE(s.export_message.find(dir.file("dpviz-path-1.csv")), std::string::npos) << s.export_message;
    activate(widget_id("Export", {"Matrix PNG"}));
    ui.frame(s, &w);
    EXPECT_NE(s.export_message.find("wrote"), std::string::npos) << s.export_message;
    EXPECT_TRUE(std::filesystem::exists(dir.file("dpviz-matrix.png")));
    // The window screenshot needs GL: it stays queued for the frame loop.
    activate(widget_id("Export", {"Window PNG"}));
    ui.frame(s, &w);
    ASSERT_TRUE(s.requests.export_file);
    EXPECT_EQ(s.requests.export_file->kind, ExportKind::window_png);
}

TEST_F(GuiFrames, AlgorithmComboAndSliderRecompute) {
    load_globins(ui, s, w);
    const int32_t local_score = s.result->result.score;
    // A small matrix, fast as measured: a slider change recomputes at once (live), no release
    // needed. (The measurement is set here: the test is about the rule, not this machine.)
    s.job.ns_per_cell = 10.0;
    ASSERT_TRUE(live_recompute_ok(s));
    s.params.gap_open = Hundredths::units(4);
    request_compute(s, /*final_edit=*/false);
    EXPECT_TRUE(s.requests.compute);
    const auto shown_open = [&] { return s.result->problem.score_text(s.result->problem.gaps.open); };
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.compute && shown_open() == "4"; }));
    EXPECT_NE(s.result->result.score, local_score);
    // A large one (as measured): the same change waits for the release.
    s.job.ns_per_cell = 1e6;
    EXPECT_FALSE(live_recompute_ok(s));
    request_compute(s, false);
    EXPECT_FALSE(s.requests.compute);
    request_compute(s, true);
    EXPECT_TRUE(s.requests.compute);
}

TEST_F(GuiFrames, TheJobBuildsTheColourTableOfTheChosenColormap) {
    load_globins(ui, s, w);
    for (const bool automatic : {true, false}) {
        s.view.auto_colormap = automatic;
        s.view.colormap = render::Colormap::magma;
        s.params.gap_open.value += 100;  // a new result, computed with this colormap choice
        request_compute(s, true);
        ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.compute; })) << s.error;
        const Computed& c = *s.result;
        ASSERT_TRUE(c.lut);
        // What the view would build for H itself: same scale, same table.
        const render::ColorScale scale = view_color_scale(s);
        EXPECT_EQ(c.lut_scale.map, scale.map);
        EXPECT_EQ(c.lut_scale.min, scale.min);
        EXPECT_EQ(c.lut_scale.max, scale.max);
        EXPECT_EQ(c.lut->rgba, render::ColorLut::build(scale).rgba);
        EXPECT_EQ(scale.map == render::Colormap::magma, !automatic);
    }
}

TEST_F(GuiFrames, WheelZoomsTowardTheCursorAndDragPans) {
    load_globins(ui, s, w);
    ImGuiIO& io = ImGui::GetIO();
    const Canvas cv = s.view.canvas;
    ASSERT_GT(cv.w, 100);
    // Whole pixels: ImGui floors the mouse position.
    const Vec2d cursor{std::floor(cv.x + cv.w * 0.3), std::floor(cv.y + cv.h * 0.6)};
    io.MousePos = ImVec2(float(cursor.x), float(cursor.y));
    ui.frame(s, &w);  // hover first
    const Vec2d before = to_cell_space(s.view.xf, cv, cursor);
    const double px = s.view.xf.cell_px;
    io.MouseWheel = 2.0f;
    ui.frame(s, &w);
    io.MouseWheel = 0.0f;
    EXPECT_NEAR(s.view.xf.cell_px, px * 1.25 * 1.25, 1e-9);
    const Vec2d after = to_cell_space(s.view.xf, cv, cursor);
    EXPECT_NEAR(after.x, before.x, 1e-6);
    EXPECT_NEAR(after.y, before.y, 1e-6);

    // Drag with the left button: the cell under the mouse follows it.
    const ViewTransform start = s.view.xf;
    io.MouseDown[0] = true;
    ui.frame(s, &w);
    for (int k = 1; k <= 10; ++k) {
        io.MousePos = ImVec2(float(cursor.x + 4 * k), float(cursor.y - 2 * k));
        ui.frame(s, &w);
    }
    io.MouseDown[0] = false;
    ui.frame(s, &w);
    const Vec2d grabbed = to_cell_space(start, cv, cursor);
    const Vec2d now = to_screen(s.view.xf, cv, grabbed);
    EXPECT_NEAR(now.x, cursor.x + 40, 1e-3);
    EXPECT_NEAR(now.y, cursor.y - 20, 1e-3);
}

TEST_F(GuiFrames, HoverPicksTheCellAndClickScrollsTheAlignment) {
    load_globins(ui, s, w);
    ImGuiIO& io = ImGui::GetIO();
    const Canvas cv = s.view.canvas;
    // Zoom in so cells are large, then hover the middle cell of the path.
    const auto& path = s.result->result.path;
    const Cell target = path[path.size() / 2];
    s.view.center_pending = MatrixView::CenterOn{double(target.i), double(target.j), 30.0};
    ui.frame(s, &w);
    const Vec2d at = to_screen(s.view.xf, cv, {target.j + 0.5, target.i + 0.5});
    io.MousePos = ImVec2(float(at.x), float(at.y));
    ui.frame(s, &w);
    ASSERT_TRUE(s.view.hover);
    EXPECT_EQ(*s.view.hover, target);
    // A neighbour one cell right and down, picked from its corner region.
    io.MousePos = ImVec2(float(at.x + 30 * 0.9), float(at.y + 30 * 0.9));
    ui.frame(s, &w);
    ASSERT_TRUE(s.view.hover);
    EXPECT_EQ(*s.view.hover, (Cell{target.i + 1, target.j + 1}));

    // Click on the path cell (press and release without moving).
    click_at(ui, s, w, ImVec2(float(at.x), float(at.y)));
    ASSERT_TRUE(s.view.selected);
    EXPECT_EQ(*s.view.selected, target);
    // The alignment panel consumed the scroll request (it is drawn after the matrix).
    EXPECT_FALSE(s.alignment.scroll_to_column);
    ImGuiWindow* strip = nullptr;
    for (ImGuiWindow* win : ImGui::GetCurrentContext()->Windows)
        if (std::string(win->Name).find("Alignment/strip") != std::string::npos) strip = win;
    ASSERT_NE(strip, nullptr);
    ui.frame(s, &w);
    EXPECT_GT(strip->Scroll.x, 0.0f);  // column ~70 of 145: not at the start any more
}

TEST_F(GuiFrames, HoveringAnAlignmentColumnHighlightsItsPathCell) {
    load_globins(ui, s, w);
    ImGuiWindow* strip = nullptr;
    for (ImGuiWindow* win : ImGui::GetCurrentContext()->Windows)
        if (std::string(win->Name).find("Alignment/strip") != std::string::npos) strip = win;
    ASSERT_NE(strip, nullptr);
    const float cw = ImGui::CalcTextSize("M").x;
    const ImVec2 origin(strip->Pos.x + strip->WindowPadding.x + 6.0f, strip->Pos.y + 20);
    ImGui::GetIO().MousePos = ImVec2(origin.x + cw * 5.5f, origin.y);
    ui.frame(s, &w);
    ui.frame(s, &w);
    ASSERT_TRUE(s.alignment.hover_column);
    EXPECT_EQ(*s.alignment.hover_column, 5);
    ASSERT_TRUE(s.view.highlight);
    EXPECT_EQ(*s.view.highlight, s.result->result.path[6]);
}

// A fake job: blocks until released, so the test controls the overlap.
struct Gate {
    std::mutex m;
    std::condition_variable cv;
    int released = 0;
    std::atomic<int> started{0};
    void release_one() {
        std::lock_guard l(m);
        ++released;
        cv.notify_all();
    }
};

TEST(GuiJobs, NewerRequestSupersedesTheRunningOne) {
    Gate gate;
    JobRunner<int, int> runner([&](const int& x, JobContext& ctx) {
        const int n = ++gate.started;
        std::unique_lock l(gate.m);
        gate.cv.wait(l, [&] { return gate.released >= n; });
        return ctx.cancelled() ? -1 : x * 10;
    });
    const uint64_t a = runner.submit(1);
    while (gate.started < 1) std::this_thread::yield();
    const uint64_t b = runner.submit(2);  // cancels a (running)
    const uint64_t c = runner.submit(3);  // replaces b before it starts
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_TRUE(runner.progress().running_cancelled);
    gate.release_one();  // a finishes: dropped
    while (gate.started < 2) std::this_thread::yield();
    EXPECT_FALSE(runner.take());
    gate.release_one();  // c finishes
    std::optional<std::pair<uint64_t, int>> out;
    for (int k = 0; k < 2000 && !out; ++k) {
        out = runner.take();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(out);
    EXPECT_EQ(out->first, c);
    EXPECT_EQ(out->second, 30);
    EXPECT_EQ(gate.started, 2);  // b never ran
    EXPECT_FALSE(runner.take());
}

TEST(GuiJobs, CancelDropsTheRunningJobsOutcome) {
    Gate gate;
    JobRunner<int, int> runner([&](const int& x, JobContext&) {
        const int n = ++gate.started;
        std::unique_lock l(gate.m);
        gate.cv.wait(l, [&] { return gate.released >= n; });
        return x;
    });
    runner.submit(7);
    while (gate.started < 1) std::this_thread::yield();
    runner.cancel();
    EXPECT_TRUE(runner.progress().busy);  // still running: the engine cannot stop mid-fill
    gate.release_one();
    for (int k = 0; k < 200 && runner.progress().busy; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_FALSE(runner.progress().busy);
    EXPECT_FALSE(runner.take());
}

TEST(GuiJobs, RapidParameterChangesShowTheLatest) {
    // The real worker: many requests in a burst (a slider being dragged); the result shown
    // must be the last one's, never an earlier one that happened to finish later.
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w(run_job);
    load_globins(ui, s, w);
    for (int open = 20; open >= 5; --open) {
        s.params.gap_open = Hundredths::units(open);
        s.requests.compute = true;
        ui.frame(s, &w);
    }
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.compute; }));
    ui.frame(s, &w);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(s.result->problem.score_text(s.result->problem.gaps.open), "5");
    EXPECT_EQ(s.job.shown, s.job.submitted);
}

TEST_F(GuiFrames, DroppedFilesBecomeInputs) {
    s.requests.dropped_files = {"/a.fa", "/b.fa"};
    apply_dropped_files(s);
    EXPECT_EQ(s.query.path, "/a.fa");
    EXPECT_EQ(s.target.path, "/b.fa");
    EXPECT_TRUE(s.requests.compute);
    s.requests.dropped_files = {"/c.fa"};
    s.hovered_input = -1;  // not over an input: the query has a file, so the target gets it
    apply_dropped_files(s);
    EXPECT_EQ(s.target.path, "/c.fa");
    s.requests.dropped_files = {"/d.fa"};
    s.hovered_input = 0;  // over the query's input
    apply_dropped_files(s);
    EXPECT_EQ(s.query.path, "/d.fa");
    EXPECT_EQ(s.recent_files.front(), "/d.fa");
}

TEST_F(GuiFrames, ErrorsAreShownNotThrown) {
    s.query.path = "/nonexistent/q.fa";
    s.target.path = "/nonexistent/t.fa";
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.error.empty() && !s.job.busy; }));
    EXPECT_NE(s.error.find("no such file"), std::string::npos) << s.error;
    EXPECT_FALSE(s.result);
}

}  // namespace
}  // namespace dpviz::gui
