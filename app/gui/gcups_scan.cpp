// "GCUPS vs size": the sizes, the stop rule, the plot's axes and the worker's job (see
// gcups_scan.hpp).
#include "gui/gcups_scan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <set>

#include "bench.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {

std::vector<int> gcups_scan_sizes(int first, int last) {
    std::vector<int> out;
    for (int64_t n = std::max(1, first); n <= last; n *= 2) out.push_back(int(n));
    return out;
}

namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

bool another_run(const RepeatRule& rule, const std::vector<double>& run_ms) {
    return int(run_ms.size()) < rule.repeats && sum(run_ms) <= rule.limit_ms;
}

std::optional<std::vector<RunTimes>> timed_runs(const RepeatRule& rule, const std::function<std::optional<RunTimes>()>& once) {
    std::vector<RunTimes> runs;
    std::vector<double> wall;
    bool warm = false;
    while (another_run(rule, wall)) {
        const std::optional<RunTimes> t = once();
        if (!t) return std::nullopt;
        if (!warm) {
            warm = true;
            if (t->wall_ms <= rule.limit_ms) continue;  // the warm-up
        }
        runs.push_back(*t);
        wall.push_back(t->wall_ms);
    }
    return runs;
}

bool gcups_series_goes_on(const RepeatRule& rule, const std::vector<double>& run_ms) {
    return sum(run_ms) <= rule.limit_ms;
}

GcupsAxes gcups_axes(const std::vector<GcupsSeries>& series, int first_side, int last_side, bool whole_call) {
    GcupsAxes a;
    a.x0 = std::log2(double(std::max(1, first_side)));
    a.x1 = std::max(a.x0 + 1, std::log2(double(std::max(1, last_side))));
    double lo = INFINITY, hi = -INFINITY;
    for (const GcupsSeries& s : series)
        for (const GcupsPoint& p : s.points)
            if (const double g = p.gcups(whole_call); g > 0) {
                lo = std::min(lo, std::log10(g));
                hi = std::max(hi, std::log10(g));
            }
    if (lo > hi) return a;  // no points: -1 .. 1
    a.y0 = std::floor(lo);
    a.y1 = std::max(a.y0 + 1, std::ceil(hi));
    return a;
}

PlotXY gcups_plot_xy(const GcupsAxes& a, float left, float top, float right, float bottom, int side, double gcups) {
    const double fx = (std::log2(double(side)) - a.x0) / (a.x1 - a.x0);
    const double fy = gcups > 0 ? (std::log10(gcups) - a.y0) / (a.y1 - a.y0) : 0.0;
    return {float(left + fx * (right - left)), float(bottom - fy * (bottom - top))};
}

namespace {

// The request with both inputs pasted: a seeded random pair of `side` letters drawn from the
// current inputs' letters (DTW: values drawn from the current signals), the matrix pinned to the
// one the current inputs use.
JobRequest random_pair_request(const JobRequest& req, const Problem& current, int side, uint32_t seed) {
    JobRequest r = req;
    r.kind = JobRequest::Kind::align;
    std::mt19937 g(seed ^ uint32_t(side));
    for (InputSide* input : {&r.query, &r.target}) {
        input->source = InputSource::paste;
        input->path.clear();
        input->record.clear();
        input->column.clear();
        input->pasted.clear();
    }
    if (current.algo == Algorithm::dtw) {
        std::vector<double> pool = current.query_signal;
        pool.insert(pool.end(), current.target_signal.begin(), current.target_signal.end());
        std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
        char number[40];
        for (InputSide* input : {&r.query, &r.target})
            for (int k = 0; k < side; ++k) {
                std::snprintf(number, sizeof number, "%.17g\n", pool[pick(g)]);
                input->pasted += number;
            }
        return r;
    }
    const std::set<char> set(current.query.begin(), current.query.end());
    std::string letters(set.begin(), set.end());
    for (const char c : current.target)
        if (letters.find(c) == std::string::npos) letters += c;
    std::uniform_int_distribution<size_t> pick(0, letters.size() - 1);
    for (InputSide* input : {&r.query, &r.target}) {
        input->pasted.reserve(size_t(side));
        for (int k = 0; k < side; ++k) input->pasted += letters[pick(g)];
    }
    if (r.params.scoring == ScoringMode::matrix)
        r.params.matrix = effective_matrix_name(req.params, current.query + current.target);
    return r;
}

std::string describe(const Problem& p, const JobRequest& req) {
    std::string what = std::string(algorithm_name(p.algo));
    if (p.algo == Algorithm::dtw) return what + (p.dtw_cost == DtwCost::squared ? ", squared cost" : ", abs cost") +
                                         (p.band >= 0 ? ", band " + std::to_string(p.band) : "") +
                                         ", values drawn from the inputs' signals";
    if (uses_gap_penalties(p.algo)) {
        what += req.params.scoring == ScoringMode::matrix
                    ? ", " + effective_matrix_name(req.params, p.query + p.target)
                    : ", match " + req.params.match.text() + " / mismatch " + req.params.mismatch.text();
        what += ", gaps " + req.params.gap_open.text() + "/" + req.params.gap_extend.text();
    }
    std::set<char> letters(p.query.begin(), p.query.end());
    letters.insert(p.target.begin(), p.target.end());
    return what + ", " + std::to_string(letters.size()) + " letters drawn from the inputs'";
}

}  // namespace

std::vector<GcupsSeries> run_gcups_scan(const JobRequest& req, const Problem& current, JobContext& ctx,
                                        std::string* what) {
    const RepeatRule rule = kGcupsScanRule;
    const std::vector<int> sides = gcups_scan_sizes(req.gcups_first_side, req.gcups_last_side);
    if (what) *what = describe(current, req) + " (seeded random pairs, score level)";
    std::vector<GcupsSeries> out;
    const BackendChoice backends[] = {BackendChoice::dpx, BackendChoice::dpx_free, BackendChoice::cpu};
    const double points = double(std::size(backends) * sides.size());
    for (size_t k = 0; k < std::size(backends); ++k) {
        const BackendChoice b = backends[k];
        const size_t done = k * sides.size();
        GcupsSeries series;
        series.backend = b;
        for (const int side : sides) {
            if (ctx.cancelled()) return out;
            ctx.set_stage(std::string("GCUPS vs size: ") + backend_choice_label(b) + " " + std::to_string(side) + "^2");
            ctx.set_progress(double(done + series.points.size()) / points);
            auto problem = build_problem(random_pair_request(req, current, side, 2024));
            if (!problem) {
                series.note = problem.error().message;
                break;
            }
            AlignOptions opt;
            opt.backend = engine_backend(b);
            opt.threads = req.engine.threads;
            opt.level = OutputLevel::score;
            opt.cpu_fallback = false;  // never the CPU's time in a GPU's series
            opt.control.cancel = ctx.cancel_flag();
            std::vector<double> wall, fill;
            std::string failed;
            while (another_run(rule, wall)) {
                const auto t0 = std::chrono::steady_clock::now();
                auto r = align(*problem, opt);
                const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                if (!r && r.error().kind == ErrorKind::cancelled) return out;
                if (!r || !r->fallback.empty()) {
                    failed = !r ? r.error().message : r->fallback;
                    break;
                }
                wall.push_back(ms);
                fill.push_back(r->fill_ms);
                series.kernel = app::ran_kernel_name(*problem, *r);
            }
            if (!failed.empty()) {
                series.note = series.points.empty() ? failed : "stopped at " + std::to_string(side) + "^2: " + failed;
                break;
            }
            series.available = true;
            series.points.push_back({side, int(wall.size()), app::median(fill), app::median(wall)});
            if (!gcups_series_goes_on(rule, wall)) {
                char note[96];
                std::snprintf(note, sizeof note, "stopped after %d^2: its runs took %.1f s", side,
                              std::accumulate(wall.begin(), wall.end(), 0.0) / 1000);
                series.note = note;
                break;
            }
        }
        out.push_back(std::move(series));
    }
    ctx.set_progress(1.0);
    return out;
}

}  // namespace dpviz::gui
