// "GCUPS vs size" in the timing panel: seeded random pairs over the current inputs' letters (or
// values, for DTW), with the current algorithm and scoring, filled at score level as squares of
// 128 to 65,536 on DPX, DPX-free and the CPU, each point the median of a few runs; a backend's
// series stops after a point that took more than ~2 s. The job runs on the GUI's worker (cancel
// and supersede as any job); the size list, the stop rule and the plot's axes are pure. The
// repeat rule (RepeatRule, timed_runs) is the timing panel's for both of its timings: this plot's
// points and Run all backends' rows (compute.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gui/app_state.hpp"
#include "gui/compute.hpp"

namespace dpviz::gui {

// The squares' sides: first, 2 first, ... up to last (powers of two when first is one).
std::vector<int> gcups_scan_sizes(int first, int last);

// How often the timing panel times a job, the median of its runs shown: at most `repeats` runs,
// and none more once the runs so far took `limit_ms` (a 4 s fill is not run three times).
struct RepeatRule {
    int repeats = 3;
    double limit_ms = 2000;
};
// GCUPS vs size: each point (a point whose runs took longer than the limit ends its series).
inline constexpr RepeatRule kGcupsScanRule{3, 2000};
// Run all backends: each backend, after a warm-up run that does not count unless it alone took
// longer than the limit (a first run pays for loading the kernels).
inline constexpr RepeatRule kRunAllRule{5, 1000};
// Whether a job whose runs so far took `run_ms` gets another run.
bool another_run(const RepeatRule& rule, const std::vector<double>& run_ms);
// One run's times: the whole call's, the fill's (the kernel's events, or the CPU's fill), the
// traceback's.
struct RunTimes {
    double wall_ms = 0, fill_ms = 0, traceback_ms = 0;
};
// Runs `once` as `rule` says after a warm-up run, which counts only when it alone took longer
// than the limit; returns the runs that count. `once` returns nothing to stop (an error, a
// cancel: the caller knows which), and then so does timed_runs.
std::optional<std::vector<RunTimes>> timed_runs(const RepeatRule& rule, const std::function<std::optional<RunTimes>()>& once);
// Whether the series goes on to the next (4x bigger) point after one whose runs took `run_ms`.
bool gcups_series_goes_on(const RepeatRule& rule, const std::vector<double>& run_ms);

// The plot's axes: log2 of the side from first to last, log10 of GCUPS over whole decades that
// hold every point (one decade around 1 GCUPS when there are none).
struct GcupsAxes {
    double x0 = 7, x1 = 16;  // log2(side)
    double y0 = -1, y1 = 1;  // log10(GCUPS)
};
GcupsAxes gcups_axes(const std::vector<GcupsSeries>& series, int first_side, int last_side, bool whole_call);
// A point's place in the plot rectangle [left, right] x [top, bottom] (screen y grows down).
struct PlotXY {
    float x = 0, y = 0;
};
PlotXY gcups_plot_xy(const GcupsAxes& a, float left, float top, float right, float bottom, int side, double gcups);

// The worker's job: the series for `current` (the problem the request's inputs make, built by the
// caller); `what` says what was filled. Returns early (series cut short) when cancelled.
std::vector<GcupsSeries> run_gcups_scan(const JobRequest& req, const Problem& current, JobContext& ctx,
                                        std::string* what);

}  // namespace dpviz::gui
