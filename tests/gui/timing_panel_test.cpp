// The timing panel's bars: the ratio each prints against the CPU matches the times it prints
// (stubbed timings, the bundled globins' among them), and a GPU row slower than the CPU's says why;
// the line of DPX against DPX-free (its ratios from its times, and the panel that prints it);
// a GPU fill's line against its kernel's issue bound (a stubbed SASS report and GPU); the shipped
// scan tables' lines (their ratios from their times) and the node that shows them; "GCUPS vs
// size": its sizes, stop rule and axes, and a headless run (and a cancelled one) on the worker.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "assets_dir.hpp"
#include "bench_scan.hpp"
#include "gpu_model.hpp"
#include "gui/app_state.hpp"
#include "gui/gcups_scan.hpp"
#include "gui/panels.hpp"
#include "gui_test_util.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {
namespace {

TimingRow row(BackendChoice b, double fill, double traceback, int64_t cells) {
    TimingRow t;
    t.backend = b;
    t.available = true;
    t.fill_ms = fill;
    t.traceback_ms = traceback;
    t.cells = cells;
    return t;
}

// What a label prints: its milliseconds, and against the CPU "F x faster" or "F x slower"
// (factor 0: no comparison printed).
struct Printed {
    double ms = 0, factor = 0;
    bool faster = false;
};
Printed read(const std::string& text) {
    Printed p;
    double gcups = 0;
    char word[16] = {};
    const int n = std::sscanf(text.c_str(), "%lf GCUPS %lf ms %lfx %15s", &gcups, &p.ms, &p.factor, word);
    EXPECT_GE(n, 2) << text;
    if (n < 4) p.factor = 0;
    p.faster = std::string(word) == "faster";
    return p;
}

void expect_consistent(const TimingRow& gpu, const TimingRow& cpu) {
    const double cpu_ms = cpu.fill_ms + cpu.traceback_ms;
    const std::string cpu_text = timing_bar_text(cpu, cpu_ms), gpu_text = timing_bar_text(gpu, cpu_ms);
    const Printed c = read(cpu_text), g = read(gpu_text);
    EXPECT_EQ(c.factor, 0.0) << "the CPU's own bar compares with nothing: " << cpu_text;
    ASSERT_GT(g.factor, 0.0) << gpu_text;
    // From the printed times: the factor (rounded to one decimal) and its direction.
    const double ratio = c.ms / g.ms;
    EXPECT_EQ(g.faster, ratio >= 1) << gpu_text << " against " << cpu_text;
    EXPECT_NEAR(g.factor, ratio >= 1 ? ratio : 1 / ratio, 0.05 + 1e-9) << gpu_text << " against " << cpu_text;
}

TEST(TimingPanel, TheGlobinsRatiosMatchTheirTimes) {
    // The bundled globins (142 x 147) on an H200: DPX 0.35 ms, DPX-free 0.26, CPU 0.21.
    const int64_t cells = 142 * 147;
    const TimingRow dpx = row(BackendChoice::dpx, 0.30, 0.05, cells), free = row(BackendChoice::dpx_free, 0.21, 0.05, cells),
                    cpu = row(BackendChoice::cpu, 0.16, 0.05, cells);
    const double cpu_ms = cpu.fill_ms + cpu.traceback_ms;
    EXPECT_NE(timing_bar_text(dpx, cpu_ms).find("0.35 ms  1.7x slower than the CPU"), std::string::npos)
        << timing_bar_text(dpx, cpu_ms);
    EXPECT_NE(timing_bar_text(free, cpu_ms).find("0.26 ms  1.2x slower than the CPU"), std::string::npos)
        << timing_bar_text(free, cpu_ms);
    expect_consistent(dpx, cpu);
    expect_consistent(free, cpu);
    const std::string why = timing_bar_why(dpx, cpu_ms, 142);
    EXPECT_NE(why.find("2 warps busy"), std::string::npos) << why;
    EXPECT_EQ(timing_bar_why(cpu, cpu_ms, 142), "");
}

TEST(TimingPanel, EveryStubbedRatioMatchesItsTimes) {
    std::mt19937 g(17);
    std::uniform_real_distribution<double> ms(0.004, 5000.0);
    for (int k = 0; k < 2000; ++k) {
        const TimingRow cpu = row(BackendChoice::cpu, ms(g), ms(g) / 10, 1000000);
        const TimingRow gpu = row(k % 2 ? BackendChoice::dpx : BackendChoice::dpx_free, ms(g) / 50, ms(g) / 100, 1000000);
        const double cpu_ms = cpu.fill_ms + cpu.traceback_ms;
        if (std::round((gpu.fill_ms + gpu.traceback_ms) * 100) == 0 || std::round(cpu_ms * 100) == 0) continue;
        expect_consistent(gpu, cpu);
        const bool slower = gpu.fill_ms + gpu.traceback_ms > cpu_ms;
        EXPECT_EQ(timing_bar_why(gpu, cpu_ms, 1000).empty(), !slower);
        TimingRow big = gpu;
        big.cells = int64_t(20000) * 20000;
        EXPECT_EQ(timing_bar_why(big, cpu_ms, 20000), "") << "no claim about a big matrix";
        if (HasFailure()) return;
    }
}

// The line under the bars: DPX against DPX-free, the fills' times and the jobs', each ratio from
// the times as printed (stubbed timings, the 10 kb pair's on an H100 among them).
struct DpxLine {
    double fill[2] = {}, fill_factor = 0, job[2] = {}, job_factor = 0;
    bool fill_faster = false, job_faster = false;
};
DpxLine read_dpx_line(const std::string& text) {
    DpxLine d;
    char w1[16] = {}, w2[16] = {};
    const int n = std::sscanf(text.c_str(),
                              "DPX against DPX-free: the fill %lf ms vs %lf ms, %lfx %15[a-z]; fill + traceback %lf ms vs "
                              "%lf ms, %lfx %15[a-z]",
                              &d.fill[0], &d.fill[1], &d.fill_factor, w1, &d.job[0], &d.job[1], &d.job_factor, w2);
    EXPECT_EQ(n, 8) << text;
    d.fill_faster = std::string(w1) == "faster";
    d.job_faster = std::string(w2) == "faster";
    return d;
}

void expect_dpx_line_consistent(const TimingRow& dpx, const TimingRow& dpx_free) {
    const std::string text = dpx_ratio_text(dpx, dpx_free);
    const DpxLine d = read_dpx_line(text);
    EXPECT_NEAR(d.fill[0], dpx.fill_ms, 0.0005 + 1e-9) << text;
    EXPECT_NEAR(d.fill[1], dpx_free.fill_ms, 0.0005 + 1e-9) << text;
    EXPECT_NEAR(d.job[0], dpx.fill_ms + dpx.traceback_ms, 0.005 + 1e-9) << text;
    EXPECT_NEAR(d.job[1], dpx_free.fill_ms + dpx_free.traceback_ms, 0.005 + 1e-9) << text;
    const double fr = d.fill[1] / d.fill[0], jr = d.job[1] / d.job[0];
    EXPECT_EQ(d.fill_faster, fr >= 1) << text;
    EXPECT_EQ(d.job_faster, jr >= 1) << text;
    EXPECT_NEAR(d.fill_factor, fr >= 1 ? fr : 1 / fr, 0.005 + 1e-9) << text;
    EXPECT_NEAR(d.job_factor, jr >= 1 ? jr : 1 / jr, 0.005 + 1e-9) << text;
}

TEST(TimingPanel, TheDpxLineMatchesItsTimes) {
    const int64_t cells = 100210000;
    const TimingRow dpx = row(BackendChoice::dpx, 1.231, 2.569, cells), free = row(BackendChoice::dpx_free, 1.739, 2.561, cells);
    EXPECT_EQ(dpx_ratio_text(dpx, free),
              "DPX against DPX-free: the fill 1.231 ms vs 1.739 ms, 1.41x faster; fill + traceback 3.80 ms vs 4.30 ms, "
              "1.13x faster");
    expect_dpx_line_consistent(dpx, free);
    TimingRow gone = free;
    gone.available = false;
    EXPECT_EQ(dpx_ratio_text(dpx, gone), "");
    EXPECT_EQ(dpx_ratio_text(gone, dpx), "");

    std::mt19937 g(23);
    std::uniform_real_distribution<double> ms(0.01, 5000.0);
    for (int k = 0; k < 2000; ++k) {
        const TimingRow a = row(BackendChoice::dpx, ms(g), ms(g) / 10, 1000000);
        const TimingRow b = row(BackendChoice::dpx_free, ms(g), ms(g) / 10, 1000000);
        expect_dpx_line_consistent(a, b);
        if (HasFailure()) return;
    }
}

TEST(TimingPanel, AGpuFillAgainstItsIssueBound) {
    app::SassReport r;
    r.loops = app::parse_sass_loops("align-affine dpx score   203 instr  12.69 /cell  DPX  48   VIADDMNMX=48\n"
                                    "align-local dpx matrix   374 instr  23.38 /cell  DPX  24   VIMNMX3=24\n");
    app::GpuFigures g;
    g.sms = 132;
    g.warps_per_sm = 64;
    g.clock_mhz = 1980;
    // 65,536^2 in 16.29 ms: 0.2637 TCUPS of a 2.636 TCUPS bound; 512 bands against 8,448 warp slots.
    const int64_t big = int64_t(65536) * 65536;
    std::string text = fill_bound_text(r, g, "align-affine dpx score", big, 65536, 16.29);
    for (const char* part : {"align-affine dpx score: 12.69 instructions per cell", "issue bound 2.636 TCUPS",
                             "this fill 0.2637 TCUPS = 10.0 % of it", "Bound: the wavefront's ramp", "512 bands"})
        EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;
    // Twice as fast: twice the fraction, the same bound.
    text = fill_bound_text(r, g, "align-affine dpx score", big, 65536, 16.29 / 2);
    EXPECT_NE(text.find("= 20.0 % of it"), std::string::npos) << text;
    // The globins at level matrix: a launch, whatever the instructions.
    text = fill_bound_text(r, g, "align-local dpx matrix", 142 * 147, 142, 0.30);
    EXPECT_NE(text.find("23.38 instructions per cell"), std::string::npos) << text;
    EXPECT_NE(text.find("Bound: launch overhead"), std::string::npos) << text;
    // 1,048,576^2: the issue rate on the band kernels, the chain of bands on the one-pair kernel
    // (2,048 groups of 512 rows), whose loop the report has too.
    text = fill_bound_text(r, g, "align-affine dpx score", int64_t(1) << 40, 1 << 20, 1200);
    EXPECT_NE(text.find("Bound: the issue rate"), std::string::npos) << text;
    r.loops = app::parse_sass_loops("align-affine dpx score   203 instr  12.69 /cell  DPX  48   VIADDMNMX=48\n"
                                    "pair-score-affine dpx score   629 instr   9.83 /cell  DPX 252   VIADDMNMX=252\n");
    text = fill_bound_text(r, g, "pair-score-affine dpx score", int64_t(1) << 40, 1 << 20, 659.0);
    for (const char* part : {"9.83 instructions per cell", "Bound: the chain of bands", "2,048 groups of 512 rows",
                             "over 132 SMs (15.5 each)"})
        EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;
    // The same kernel on the globins: a launch first.
    text = fill_bound_text(r, g, "pair-score-affine dpx score", 142 * 147, 142, 0.30);
    EXPECT_NE(text.find("Bound: launch overhead"), std::string::npos) << text;
    // A kernel the report lacks, a GPU without a known clock.
    text = fill_bound_text(r, g, "align-local dpx picture", big, 65536, 40);
    EXPECT_NE(text.find("instructions per cell n/a"), std::string::npos) << text;
    EXPECT_EQ(text.find("TCUPS"), std::string::npos) << text;
    g.clock_mhz = 0;
    text = fill_bound_text(r, g, "align-affine dpx score", big, 65536, 16.29);
    EXPECT_NE(text.find("12.69 instructions per cell (SASS loop); issue bound n/a"), std::string::npos) << text;
}

// A row of a scan table as shown: DPX-free / DPX, as printed, from the times it prints.
void expect_scan_ratio_matches(const ScanShownRow& r) {
    SCOPED_TRACE(r.shape + " " + r.level);
    ASSERT_FALSE(r.ratio.empty());
    const double dpx_ms = std::stod(r.backends[0]), free_ms = std::stod(r.backends[1]);
    // The printed ratio is the printed times' ratio, rounded to two decimals.
    EXPECT_NEAR(std::stod(r.ratio), free_ms / dpx_ms, 0.005 + 1e-9);
    char again[16];
    std::snprintf(again, sizeof again, "%.2f", free_ms / dpx_ms);
    EXPECT_EQ(r.ratio, again);
}

TEST(TimingPanel, ScanTableRowsAndTheirRatios) {
    app::ScanTable t;
    auto add = [&](const char* w, const char* level, const char* backend, double ms, double tcups, const char* kernel,
                   int runs = 5) {
        app::ScanTableRow r;
        r.workload = w;
        r.shape = "65536^2";
        r.level = level;
        r.backend = backend;
        r.runs = runs;
        r.ms = ms;
        r.tcups = tcups;
        r.kernel = kernel;
        t.rows.push_back(r);
    };
    add("edit", "score", "cuda", 8.94, 0.481, "edit dpx score");
    add("edit", "score", "cuda-portable", 9.47, 0.454, "edit dpx-free score");
    add("edit", "path", "cuda", 33.00, 0.130, "edit dpx store");  // no DPX-free row: no ratio
    add("edit", "path", "cpu", 0, 0, "", 0);                      // in the table, not timed
    // 1.004 and 1.006 ms print as 1.00 and 1.01: the ratio is the printed times' (1.01), not
    // the unrounded times' (1.002, "1.00").
    add("edit", "picture", "cuda", 1.004, 1.0, "edit dpx picture");
    add("edit", "picture", "cuda-portable", 1.006, 1.0, "edit dpx-free picture");
    add("dtw", "score", "cuda", 8.77, 0.490, "dtw-noband dpx score");
    const auto rows = scan_table_rows(t, "edit");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].shape, "65536^2");
    EXPECT_EQ(rows[0].level, "score");
    EXPECT_EQ(rows[0].backends, (std::array<std::string, 3>{"8.94 ms = 0.481 TCUPS", "9.47 ms = 0.454 TCUPS", ""}));
    EXPECT_EQ(rows[0].ratio, "1.06");
    EXPECT_EQ(rows[0].kernel, "edit dpx score");
    expect_scan_ratio_matches(rows[0]);
    EXPECT_EQ(rows[1].level, "path");
    EXPECT_EQ(rows[1].backends, (std::array<std::string, 3>{"33.00 ms = 0.130 TCUPS", "", "not timed"}));
    EXPECT_EQ(rows[1].ratio, "");
    EXPECT_EQ(rows[1].kernel, "edit dpx store");
    EXPECT_EQ(rows[2].level, "picture");
    EXPECT_EQ(rows[2].ratio, "1.01");
    expect_scan_ratio_matches(rows[2]);
    EXPECT_TRUE(scan_table_rows(t, "local affine").empty());

    // The shipped tables: a row per size and level of each workload, every ratio from its times;
    // each named by its device and date in the chooser.
    for (const app::ScanTable& shipped : app::load_scan_tables(app::shipped_reports_dir(DPVIZ_ASSETS, "scan"))) {
        EXPECT_EQ(scan_table_label(shipped), shipped.device + ", " + shipped.date) << shipped.source;
        for (const char* w : {"local linear", "local affine", "edit", "dtw"}) {
            const auto shown = scan_table_rows(shipped, w);
            EXPECT_GE(shown.size(), 12u) << shipped.source << ": " << w;  // 4 sizes x 3 levels
            for (const ScanShownRow& r : shown) expect_scan_ratio_matches(r);
        }
    }
    app::ScanTable unnamed;
    unnamed.source = "/somewhere/bench_scan_x.txt";
    EXPECT_EQ(scan_table_label(unnamed), "bench_scan_x.txt");
}

class TimingPanelScan : public testing::FramesTest {};

// The scan's node, opened on the globins' result (local affine): the newest shipped table first,
// named in the chooser by its device and date, with its rows of the result's workload and its own
// run line; choosing the other table shows that one's instead.
TEST_F(TimingPanelScan, OpensOnTheNewestTableAndShowsTheChosenOne) {
    testing::load_globins(ui, s, w);
    ASSERT_TRUE(s.result);
    const std::string workload = app::scan_workload(s.result->problem);
    ASSERT_EQ(workload, "local affine");
    const std::vector<app::ScanTable> tables = app::load_scan_tables(app::shipped_reports_dir(DPVIZ_ASSETS, "scan"));
    ASSERT_GE(tables.size(), 2u);
    auto has = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
    EXPECT_FALSE(has(testing::panel_text(draw_timing, s), tables[0].source));  // the node starts closed
    ImGuiWindow* probe = ImGui::FindWindowByName("probe");
    ASSERT_TRUE(probe);
    probe->StateStorage.SetInt(testing::widget_id("probe", {"Big pairs on a GPU (dpviz bench --scan)"}), 1);
    for (int k : {0, 1}) {
        if (k == 1) s.scan_table_shown = 1;  // what the chooser sets
        const std::string text = testing::panel_text(draw_timing, s);
        EXPECT_TRUE(has(text, scan_table_label(tables[k]))) << text;
        EXPECT_TRUE(has(text, "source: " + tables[k].source)) << text;
        EXPECT_FALSE(has(text, tables[1 - k].source)) << text;
        const auto rows = scan_table_rows(tables[k], workload);
        ASSERT_FALSE(rows.empty());
        for (const ScanShownRow& r : rows) EXPECT_TRUE(has(text, r.backends[0])) << r.shape << " " << r.level;
    }
}

// After "Run all backends" (stubbed rows on the globins' result), the panel prints the DPX line.
TEST_F(TimingPanelScan, RunAllBackendsShowsTheDpxLine) {
    testing::load_globins(ui, s, w);
    ASSERT_TRUE(s.result);
    const int64_t cells = 142 * 147;
    s.timings = {row(BackendChoice::dpx, 0.30, 0.05, cells), row(BackendChoice::dpx_free, 0.21, 0.05, cells),
                 row(BackendChoice::cpu, 0.16, 0.05, cells)};
    // The panel wraps the line to its width: compared without the spaces and line breaks.
    auto squeezed = [](std::string t) {
        std::erase_if(t, [](char c) { return c == ' ' || c == '\n'; });
        return t;
    };
    const std::string text = squeezed(testing::panel_text(draw_timing, s));
    EXPECT_NE(text.find(squeezed(dpx_ratio_text(s.timings[0], s.timings[1]))), std::string::npos) << text;
    EXPECT_NE(text.find(squeezed("the fill 0.300 ms vs 0.210 ms, 1.43x slower")), std::string::npos) << text;
    s.timings.pop_back();
    s.timings.erase(s.timings.begin());  // DPX-free alone: no line
    EXPECT_EQ(squeezed(testing::panel_text(draw_timing, s)).find("DPXagainstDPX-free"), std::string::npos);
}

TEST(GcupsVsSize, SizesStopRuleAndAxes) {
    const std::vector<int> sizes = gcups_scan_sizes(128, 65536);
    ASSERT_EQ(sizes.size(), 10u);
    EXPECT_EQ(sizes.front(), 128);
    EXPECT_EQ(sizes.back(), 65536);
    for (size_t k = 1; k < sizes.size(); ++k) EXPECT_EQ(sizes[k], 2 * sizes[k - 1]);
    EXPECT_EQ(gcups_scan_sizes(128, 300), (std::vector<int>{128, 256}));
    EXPECT_TRUE(gcups_scan_sizes(512, 256).empty());

    const RepeatRule rule = kGcupsScanRule;  // 3 runs, 2 s
    EXPECT_TRUE(another_run(rule, {}));
    EXPECT_TRUE(another_run(rule, {100, 100}));
    EXPECT_FALSE(another_run(rule, {100, 100, 100}));
    EXPECT_FALSE(another_run(rule, {2500}));  // one 2.5 s run is the point
    EXPECT_TRUE(gcups_series_goes_on(rule, {600, 600, 600}));
    EXPECT_FALSE(gcups_series_goes_on(rule, {1500, 600}));
    EXPECT_FALSE(gcups_series_goes_on(rule, {2500}));

    // Points from 0.05 to 300 GCUPS: the decades 10^-2 .. 10^3.
    std::vector<GcupsSeries> series(2);
    series[0].points = {{128, 3, 0.1, 128.0 * 128 / 0.05 / 1e6}, {65536, 1, 10, 65536.0 * 65536 / 300 / 1e6}};
    series[1].points = {{1024, 3, 1, 1024.0 * 1024 / 2 / 1e6}};
    EXPECT_NEAR(series[0].points[0].gcups(true), 0.05, 1e-12);
    const GcupsAxes a = gcups_axes(series, 128, 65536, true);
    EXPECT_EQ(a.x0, 7);
    EXPECT_EQ(a.x1, 16);
    EXPECT_EQ(a.y0, -2);
    EXPECT_EQ(a.y1, 3);
    // The corners and the middle of a 100 x 50 rectangle at (10, 20).
    PlotXY p = gcups_plot_xy(a, 10, 20, 110, 70, 128, 0.01);
    EXPECT_FLOAT_EQ(p.x, 10);
    EXPECT_FLOAT_EQ(p.y, 70);
    p = gcups_plot_xy(a, 10, 20, 110, 70, 65536, 1000);
    EXPECT_FLOAT_EQ(p.x, 110);
    EXPECT_FLOAT_EQ(p.y, 20);
    p = gcups_plot_xy(a, 10, 20, 110, 70, 2048, 1);  // log2 11 of 7..16, 10^0 of 10^-2..10^3
    EXPECT_NEAR(p.x, 10 + 100.0 * 4 / 9, 1e-4);
    EXPECT_NEAR(p.y, 70 - 50.0 * 2 / 5, 1e-4);
    // The fill's time instead of the call's: other values, other decades.
    EXPECT_EQ(gcups_axes(series, 128, 65536, false).y0, -1);  // 0.16 GCUPS the lowest
    // No points: a decade either side of 1 GCUPS.
    const GcupsAxes none = gcups_axes({}, 128, 65536, true);
    EXPECT_EQ(none.y0, -1);
    EXPECT_EQ(none.y1, 1);
}

// The DNA example with its fill shown: where a run of the GCUPS-vs-size plot starts.
class GcupsVsSizeRun : public testing::FramesTest {
protected:
    void SetUp() override {
        load_example(s, Example::dna_repeat_inversion);
        ASSERT_TRUE(testing::frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    }
};

TEST_F(GcupsVsSizeRun, RunsOnTheWorkerAndDraws) {
    using namespace testing;
    const uint64_t shown = s.result->id;
    s.gcups.last_side = 512;  // 128, 256, 512: a short run
    activate(widget_id("Timing", {"GCUPS vs size"}));
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.gcups.series.empty() && !s.job.busy; }, 120)) << s.error;
    for (int k = 0; k < 3; ++k) ui.frame(s, &w);  // the plot drawn
    ASSERT_EQ(s.gcups.series.size(), 3u);
    EXPECT_EQ(s.gcups.series[0].backend, BackendChoice::dpx);
    EXPECT_EQ(s.gcups.series[1].backend, BackendChoice::dpx_free);
    const GcupsSeries& cpu = s.gcups.series[2];
    EXPECT_EQ(cpu.backend, BackendChoice::cpu);
    ASSERT_TRUE(cpu.available) << cpu.note;
    ASSERT_EQ(cpu.points.size(), 3u) << cpu.note;
    for (size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(cpu.points[k].side, 128 << k);
        EXPECT_EQ(cpu.points[k].runs, 3);
        EXPECT_GT(cpu.points[k].gcups(true), 0.0);
        EXPECT_GT(cpu.points[k].gcups(false), 0.0);
    }
    EXPECT_EQ(cpu.kernel, "");
    for (const GcupsSeries& g : s.gcups.series)
        if (!g.available) EXPECT_FALSE(g.note.empty()) << backend_choice_label(g.backend);
    if (gpu_description().rfind("not available", 0) == 0) {
        EXPECT_FALSE(s.gcups.series[0].available);
        EXPECT_FALSE(s.gcups.series[1].available);
    }
    EXPECT_NE(s.gcups.what.find(std::string(algorithm_name(s.params.algo))), std::string::npos) << s.gcups.what;
    EXPECT_NE(s.gcups.what.find("NUC.4.4"), std::string::npos) << s.gcups.what;
    // The run was no result: the shown matrix is the example's.
    EXPECT_EQ(s.result->id, shown);
}

TEST_F(GcupsVsSizeRun, ACancelledRunLeavesNoSeries) {
    using namespace testing;
    s.requests.gcups_scan = true;  // the whole run, 128^2 to 65,536^2
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.job.stage.rfind("GCUPS vs size", 0) == 0; })) << s.job.stage;
    s.requests.cancel = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy; }, 60)) << s.job.stage;
    for (int k = 0; k < 3; ++k) ui.frame(s, &w);
    EXPECT_TRUE(s.gcups.series.empty());
    EXPECT_EQ(s.error, "cancelled");
}

// Run all backends times each backend after a warm-up run: the warm-up never counts unless it
// alone took longer than the limit, the runs stop at the rule's count or once they took the limit,
// and a failed run ends the timing with nothing.
TEST(RunAllTiming, AWarmUpThenTheRulesRuns) {
    const auto scripted = [](std::vector<double> wall, int fail_at = -1) {
        auto k = std::make_shared<size_t>(0);
        return [wall, fail_at, k]() -> std::optional<RunTimes> {
            const size_t i = (*k)++;
            if (int(i) == fail_at || i >= wall.size()) return std::nullopt;
            return RunTimes{wall[i], wall[i] / 2, double(i)};  // traceback = the run's index
        };
    };
    const RepeatRule rule{5, 1000};
    // A slow first run (loading the kernels) is dropped; five more count.
    auto runs = timed_runs(rule, scripted({400, 10, 12, 11, 13, 9, 99}));
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 5u);
    EXPECT_EQ(runs->front().traceback_ms, 1);
    EXPECT_EQ(runs->back().traceback_ms, 5);
    // Runs of 400 ms: three reach the limit.
    runs = timed_runs(rule, scripted({400, 400, 400, 400, 400, 400}));
    ASSERT_TRUE(runs);
    EXPECT_EQ(runs->size(), 3u);
    EXPECT_EQ(runs->front().traceback_ms, 1);
    // A first run past the limit is the measurement.
    runs = timed_runs(rule, scripted({1500, 10}));
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(runs->front().wall_ms, 1500);
    // A failure in the warm-up or later: nothing.
    EXPECT_FALSE(timed_runs(rule, scripted({10, 10, 10}, 0)));
    EXPECT_FALSE(timed_runs(rule, scripted({10, 10, 10, 10}, 3)));
}

}  // namespace
}  // namespace dpviz::gui
