// Waits with an end in `dpviz gui --screenshot` and the measurement modes: cells named by --view
// and --hover are checked against the matrix before any window opens, "run all backends" never
// costs the alignment's result it waits for, and a wait that times out names what it waited for
// (headless, and the real binary under Xvfb where it is installed).
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "gui/gui.hpp"
#include "gui/measure.hpp"
#include "gui_test_util.hpp"
#include "xvfb_display.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

TEST(GuiWaits, RunAllBackendsNeverReplacesAnAlignmentNotYetTaken) {
    // The alignment has finished but its outcome is not in the state yet when "run all
    // backends" is submitted; the timing job is small and done before the frame takes outcomes
    // (an export in the same frame gives it the time). The worker keeps one finished outcome, so
    // submitting first lost the alignment's result, and a screenshot waited for it forever.
    HeadlessImGui ui;
    AppState s = fresh_state();
    TempDir dir;
    s.export_settings.folder = dir.path();
    s.query = pasted("q", "ACGTTGCAACGT");
    s.target = pasted("t", "ACGTGCAACGGT");
    s.params.backend = BackendChoice::cpu;
    Worker w(run_job);
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; }));
    for (int round = 1; round <= 5; ++round) {
        s.params.gap_open = Hundredths::units(10 + round);
        s.requests.compute = true;
        process_requests(s, w);
        for (int k = 0; k < 20000 && w.progress().busy; ++k) std::this_thread::sleep_for(std::chrono::microseconds(100));
        ASSERT_FALSE(w.progress().busy);  // done, its outcome not taken
        s.timings.clear();
        s.requests.run_all_backends = true;
        s.requests.export_file = ExportRequest{ExportKind::matrix_png, dir.file("m" + std::to_string(round) + ".png")};
        process_requests(s, w);
        ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.timings.empty(); })) << round;
        ASSERT_TRUE(s.result);
        EXPECT_EQ(s.result->problem.score_text(s.result->problem.gaps.open), std::to_string(10 + round))
            << "round " << round << ": the alignment's result was lost";
        // Only the texture is left, which headless frames never draw (no GL).
        ui.frame(s, &w);
        EXPECT_EQ(pending_work(s, /*want_timings=*/true).rfind("the matrix texture", 0), 0u) << pending_work(s, true);
    }
}

// Timings are not a result: after an alignment the engine refused, "run all backends" (whose
// rows then each say why) leaves the error line, which says why the matrix shown is an older one.
TEST(GuiWaits, RunAllBackendsKeepsTheErrorLineOfARefusedAlignment) {
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w(run_job);
    load_example(s, Example::dtw_signals);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    const uint64_t shown = s.result->id;
    s.params.band_on = true;
    s.params.band = 0;  // the signals differ in length: no warping path fits
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.compute && !s.error.empty(); }));
    const std::string refused = s.error;
    EXPECT_NE(refused.find("band"), std::string::npos) << refused;
    s.requests.run_all_backends = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.run_all_backends && !s.timings.empty(); }));
    EXPECT_EQ(s.error, refused);
    EXPECT_EQ(s.result->id, shown);
}

TEST(GuiWaits, ViewAndHoverOutsideTheMatrixAreUsageErrorsNamingItsSize) {
    // The globin example: HBA_HUMAN (142 residues) x HBB_HUMAN (147): a matrix of 143 x 148 cells.
    AppState s = fresh_state();
    load_example(s, Example::globins);
    auto p = build_problem(make_job_request(s, JobRequest::Kind::align));
    ASSERT_TRUE(p) << p.error().message;
    const int rows = p->rows() + 1, cols = p->cols() + 1;
    EXPECT_EQ(rows, 143);
    EXPECT_EQ(cols, 148);
    const auto check = [&](const std::vector<std::string>& args) {
        auto o = parse_gui_args(args, {});
        EXPECT_TRUE(o) << o.error().message;
        return o ? check_view_cells(*o, rows, cols) : Status(Ok{});
    };
    for (const std::vector<std::string>& inside :
         {std::vector<std::string>{"--view", "0,0,10"}, {"--view", "142,147,40"}, {"--view", "71.5,3,2"},
          {"--hover", "142,147"}, {"--hover", "0,0"}, {}}) {
        EXPECT_TRUE(check(inside)) << (inside.empty() ? "" : inside[1]);
    }
    for (const std::vector<std::string>& outside :
         {std::vector<std::string>{"--view", "160,160,40"}, {"--view", "143,0,8"}, {"--view", "0,148,8"},
          {"--view", "-1,5,8"}, {"--hover", "143,2"}, {"--hover", "2,148"}, {"--hover", "-1,-1"},
          {"--view", "1,1,8", "--hover", "200,1"}}) {
        const Status st = check(outside);
        ASSERT_FALSE(st) << outside[1];
        EXPECT_EQ(st.error().kind, ErrorKind::usage);
        const std::string& m = st.error().message;
        EXPECT_NE(m.find("143 x 148 matrix"), std::string::npos) << m;
        EXPECT_NE(m.find("rows 0-142, columns 0-147"), std::string::npos) << m;
        EXPECT_NE(m.find(outside.size() > 2 ? "--hover" : outside[0]), std::string::npos) << m;
    }
    EXPECT_NE(check({"--view", "160,160,40"}).error().message.find("cell (160, 160)"), std::string::npos);
}

TEST(GuiWaits, TimeoutOptionIsParsedAndChecked) {
    auto o = parse_gui_args({"--timeout", "2.5", "--screenshot", "x.png"}, {});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_DOUBLE_EQ(o->timeout_s, 2.5);
    EXPECT_EQ(parse_gui_args({}, {})->timeout_s, 0.0);  // the modes' own defaults
    for (const char* bad : {"0", "-1", "nan", "1e9", "soon", ""}) {
        auto b = parse_gui_args({"--timeout", bad}, {});
        ASSERT_FALSE(b) << bad;
        EXPECT_EQ(b.error().kind, ErrorKind::usage);
        EXPECT_NE(b.error().message.find("--timeout"), std::string::npos);
    }
}

TEST(GuiWaits, PendingWorkNamesWhatIsPending) {
    AppState s = fresh_state();
    s.params.backend = BackendChoice::cpu;
    s.job.busy = true;
    s.job.stage = "filling 10000 x 10000 cells";
    s.job.progress = 0.37;
    s.job.elapsed_s = 119.6;
    EXPECT_EQ(pending_work(s, false), "the CPU fill of 10000 x 10000 cells (37 % done, 119.6 s in)");
    s.params.backend = BackendChoice::automatic;
    s.job.progress = -1;
    EXPECT_EQ(pending_work(s, false), "the fill of 10000 x 10000 cells (backend auto) (119.6 s in)");
    s.job.stage = "timing DPX-free";
    EXPECT_EQ(pending_work(s, true), "the job's stage 'timing DPX-free' (119.6 s in)");
    s.job.stage = "queued";
    EXPECT_NE(pending_work(s, false).find("the worker to start the job"), std::string::npos);
    s.job.finishing_cancelled = true;
    s.job.stage = "filling 5 x 5 cells";
    EXPECT_NE(pending_work(s, false).find("a superseded job to stop"), std::string::npos);
    s.job = {};

    s.requests.compute = true;
    EXPECT_EQ(pending_work(s, false), "a requested computation to be submitted");
    s.requests.compute = false;
    s.requests.run_all_backends = true;
    EXPECT_EQ(pending_work(s, true), "the run of all backends to be submitted");
    s.requests.run_all_backends = false;
    EXPECT_EQ(pending_work(s, true), "the timings of all backends (none is running or requested)");
    EXPECT_EQ(pending_work(s, false), "a first result (none is running or requested)");
    s.error = "query: no input";
    EXPECT_EQ(pending_work(s, true), "");  // a failed job is on screen: its error is the picture

    // With a result: the texture for the view the panel asked for, unless nothing is visible.
    s.error.clear();
    s.query = pasted("q", "ACGTACGT");
    s.target = pasted("t", "ACGTTACGT");
    Worker w(run_job);
    HeadlessImGui ui;
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; }));
    ui.frame(s, &w);
    EXPECT_EQ(pending_work(s, false), "the matrix texture of the shown 9 x 10 result (rows 0-8, columns 0-9)");
    s.view.texture.result_id = s.result->id;
    s.view.texture.drawn = s.view.texture.placed = s.view.wanted;
    EXPECT_EQ(pending_work(s, false), "");
    s.view.center_pending = MatrixView::CenterOn{1, 1, 8};
    EXPECT_EQ(pending_work(s, false), "the matrix panel to center the requested cell");
    s.view.center_pending.reset();
    s.view.xf.x0 = 1000;  // a view with no cell of the matrix in it: nothing to draw, nothing to wait for
    s.view.texture = {};
    EXPECT_EQ(pending_work(s, false), "");
    s.view.fit_pending = true;  // a result of a new shape, before the panel fitted it
    EXPECT_EQ(pending_work(s, false), "the matrix panel to lay out the shown result");
}

// ---------------------------------------------------------------------------------------------
// The real binary
// ---------------------------------------------------------------------------------------------

struct GuiRun {
    int code = -1;
    std::string output;
};

// Runs `dpviz gui ARGS` in a temporary folder with its own config home; with `xvfb`, under
// a private Xvfb. Output is stdout and stderr together.
GuiRun run_gui_binary(const TempDir& dir, const std::string& args, bool xvfb) {
    const std::string log = dir.file("log.txt");
    // Under Xvfb the exit code comes back on a line of its own, apart from the wrapper's.
    const std::string run = std::string(DPVIZ_BINARY) + " gui " + args;
    const std::string cmd = "cd " + dir.path() + " && XDG_CONFIG_HOME=" + dir.path() + " " +
                            (xvfb ? with_xvfb() + "sh -c '" + run + "; echo \"dpviz exit $?\"'"
                                  : "env -u DISPLAY -u WAYLAND_DISPLAY " + run) +
                            " >" + log + " 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream lf(log);
    GuiRun r;
    r.output.assign(std::istreambuf_iterator<char>(lf), {});
    std::smatch m;
    if (!xvfb && WIFEXITED(rc)) r.code = WEXITSTATUS(rc);
    else if (std::regex_search(r.output, m, std::regex("dpviz exit ([0-9]+)"))) r.code = std::stoi(m[1].str());
    return r;
}

bool have_gui_binary() { return std::system((std::string(DPVIZ_BINARY) + " gui --help >/dev/null 2>&1").c_str()) == 0; }
bool have_xvfb() { return std::system("command -v Xvfb >/dev/null 2>&1") == 0; }

TEST(GuiWaits, CellsOutsideTheMatrixFailBeforeAnyWindowOpens) {
    if (!have_gui_binary()) GTEST_SKIP() << "this dpviz has no gui command";
    TempDir dir;
    // No display at all: the check comes first, so this is exit 2, not 5 (no display).
    const std::string fa = assets() + "/examples/globins.fa";
    for (const std::string& args : std::vector<std::string>{
             "--example globins --view 160,160,40 --screenshot shot.png",
             "--example globins --hover 143,0 --screenshot shot.png",
             "--query-record HBA_HUMAN --target-record HBB_HUMAN " + fa + " " + fa + " --view 0,500,4 --screenshot shot.png",
             "--random-pair 100 --measure-interactive 2 --hover 5,500"}) {
        const GuiRun r = run_gui_binary(dir, args, /*xvfb=*/false);
        EXPECT_EQ(r.code, 2) << args << ": " << r.output;
        EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
        EXPECT_NE(r.output.find("is outside the"), std::string::npos) << r.output;
        EXPECT_FALSE(std::filesystem::exists(dir.file("shot.png")));
    }
    EXPECT_NE(run_gui_binary(dir, "--example globins --view 160,160,40 --screenshot shot.png", false)
                  .output.find("143 x 148 matrix"),
              std::string::npos);
}

TEST(GuiWaits, RunAllOnABundledExampleFinishes) {
    if (!have_gui_binary()) GTEST_SKIP() << "this dpviz has no gui command";
    if (!have_xvfb()) GTEST_SKIP() << "Xvfb is not installed";
    TempDir dir;
    for (const char* example : {"globins", "dna"}) {
        const GuiRun r = run_gui_binary(dir, std::string("--example ") + example + " --run-all --timeout 60 --screenshot shot.png",
                                     /*xvfb=*/true);
        EXPECT_EQ(r.code, 0) << example << ": " << r.output;
        EXPECT_TRUE(std::filesystem::exists(dir.file("shot.png"))) << r.output;
        std::filesystem::remove(dir.file("shot.png"));
    }
}

TEST(GuiWaits, AWaitThatTimesOutSaysWhatItWaitedFor) {
    if (!have_gui_binary()) GTEST_SKIP() << "this dpviz has no gui command";
    if (!have_xvfb()) GTEST_SKIP() << "Xvfb is not installed";
    TempDir dir;
    // 64 million cells on one CPU thread, then their pyramid and mask: far more than 0.1 s on any
    // machine (about 2 s here).
    const std::string pair = "--random-pair 8000 --backend cpu --threads 1 --gap-open 4 --gap-extend 4 --timeout 0.1 ";
    // What the job may be doing 0.1 s in: waiting for the worker, loading, filling, preparing.
    const std::regex job("(the worker to start the job|the job's stage 'loading inputs'|the CPU fill of 8000 x [0-9]+ "
                         "cells|the job's stage 'preparing the view')");
    const GuiRun shot = run_gui_binary(dir, pair + "--screenshot shot.png", /*xvfb=*/true);
    EXPECT_EQ(shot.code, 4) << shot.output;
    // The time it waited: the limit, or a little more when a frame ended past it.
    EXPECT_TRUE(std::regex_search(shot.output, std::regex("dpviz: --screenshot: waited [0-9]+\\.[0-9] s for ")))
        << shot.output;
    EXPECT_NE(shot.output.find("; nothing written (--timeout S waits longer)"), std::string::npos) << shot.output;
    EXPECT_TRUE(std::regex_search(shot.output, job)) << shot.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("shot.png")));

    const GuiRun measure = run_gui_binary(dir, pair + "--measure-interactive 2", /*xvfb=*/true);
    EXPECT_EQ(measure.code, 4) << measure.output;
    EXPECT_TRUE(std::regex_search(measure.output,
                                  std::regex("dpviz: measurement: waited [0-9]+\\.[0-9] s for the first result on screen: ")))
        << measure.output;
    EXPECT_EQ(measure.output.find("median"), std::string::npos) << "an empty table: " << measure.output;
    EXPECT_TRUE(std::regex_search(measure.output, job)) << measure.output;
}

}  // namespace
}  // namespace dpviz::gui
