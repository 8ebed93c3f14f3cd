// The terminal progress line of dpviz align (progress_line.hpp): text, redraw limits and the
// decision to draw at all, kept apart from the terminal so tests can drive them with a clock.
#include "progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace dpviz::app {

std::string format_cell_rate(double cells_per_second) {
    static constexpr const char* kUnits[] = {"", "K", "M", "G", "T", "P"};
    double v = std::isfinite(cells_per_second) ? std::max(0.0, cells_per_second) : 0.0;
    size_t u = 0;
    // Decided on the value as printed (no decimals for cells/s, one above), so 999.97 M reads
    // "1.0 Gcells/s", not "1000.0 Mcells/s".
    while (u + 1 < std::size(kUnits) && v >= (u == 0 ? 999.5 : 999.95)) {
        v /= 1000.0;
        ++u;
    }
    char buf[48];
    if (u == 0) std::snprintf(buf, sizeof buf, "%.0f cells/s", v);
    else std::snprintf(buf, sizeof buf, "%.1f %scells/s", v, kUnits[u]);
    return buf;
}

std::string progress_text(const std::string& what, double fraction, double cells_per_second) {
    const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
    const int percent = static_cast<int>(std::floor(f * 100.0));  // 100% only when done
    return "dpviz: " + what + " ... " + std::to_string(percent) + "% " + format_cell_rate(cells_per_second);
}

namespace {

double steady_seconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& out, bool enabled, std::string what, int64_t cells, Clock clock)
    : out_(out), enabled_(enabled), what_(std::move(what)), cells_(cells),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)) {
    if (enabled_) start_ = clock_();
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::update(double fraction) {
    if (!enabled_ || finished_) return;
    const double now = clock_();
    const double elapsed = now - start_;
    if (elapsed < kDelaySeconds) return;
    if (drawn_width_ > 0 && now - last_draw_ < kRedrawSeconds) return;
    const double rate = elapsed > 0 ? std::clamp(fraction, 0.0, 1.0) * double(cells_) / elapsed : 0.0;
    const std::string text = progress_text(what_, fraction, rate);
    out_ << '\r' << text;
    // A shorter line than the one on screen (the rate lost a digit) blanks the rest of it.
    if (text.size() < drawn_width_) out_ << std::string(drawn_width_ - text.size(), ' ');
    out_.flush();
    drawn_width_ = std::max(drawn_width_, text.size());
    last_draw_ = now;
}

void ProgressLine::finish() {
    if (finished_) return;
    finished_ = true;
    if (drawn_width_ == 0) return;
    out_ << '\r' << std::string(drawn_width_, ' ') << '\r';
    out_.flush();
}

bool progress_wanted(const std::ostream& err, bool quiet) {
    // Only the real standard error can be a terminal; a caller's string stream (tests, the fuzz
    // harness) never gets control bytes mixed into its messages.
    return !quiet && &err == &std::cerr && isatty(STDERR_FILENO) == 1;
}

Expected<DpResult> align_with_progress(const Problem& p, AlignOptions opt, std::ostream& err, bool quiet) {
    ProgressLine line(err, progress_wanted(err, quiet),
                      "filling " + std::to_string(p.rows()) + " x " + std::to_string(p.cols()) + " " +
                          std::string(algorithm_name(p.algo)),
                      int64_t(p.rows()) * int64_t(p.cols()));
    opt.control.progress = [&line, also = std::move(opt.control.progress)](double f) {
        line.update(f);
        if (also) also(f);
    };
    Expected<DpResult> r = align(p, opt);
    line.finish();  // before the caller prints a note, an error or the result
    return r;
}

}  // namespace dpviz::app
