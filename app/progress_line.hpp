// The progress line of a long fill on a terminal ("dpviz: filling 30000 x 30000 local ... 42%
// 1.2 Gcells/s"): drawn after the first second, rewritten in place with \r, cleared at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "dpviz/engine.hpp"

namespace dpviz::app {

// "950 cells/s", "12.3 Mcells/s", "1.2 Gcells/s" (powers of 1000, as GCUPS).
std::string format_cell_rate(double cells_per_second);
// One state of the line, without the \r: "dpviz: WHAT ... 42% 1.2 Gcells/s".
std::string progress_text(const std::string& what, double fraction, double cells_per_second);

class ProgressLine {
public:
    using Clock = std::function<double()>;  // seconds, never decreasing
    static constexpr double kDelaySeconds = 1.0;  // shorter runs never draw: no flicker
    static constexpr double kRedrawSeconds = 0.1; // at most ten redraws a second

    // `enabled` false (not a terminal, --quiet): nothing is ever written. `cells` (M * N) turns
    // the fraction done into the rate. The clock starts here.
    ProgressLine(std::ostream& out, bool enabled, std::string what, int64_t cells, Clock clock = {});
    ~ProgressLine();  // finish()
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // RunControl::progress: redraws when past the delay and the last redraw is old enough.
    void update(double fraction);
    // Blanks the line if one was drawn and leaves the cursor at its start, so whatever is
    // written next (a result, an error) starts on a clean line. Later calls write nothing.
    void finish();

private:
    std::ostream& out_;
    bool enabled_;
    std::string what_;
    int64_t cells_;
    Clock clock_;
    double start_ = 0.0;
    double last_draw_ = 0.0;
    size_t drawn_width_ = 0;  // characters of the line now on screen; 0: none
    bool finished_ = false;
};

// Whether `err` should carry a progress line: it is the process's standard error, that is a
// terminal, and the user did not ask for --quiet.
bool progress_wanted(const std::ostream& err, bool quiet);

// align() with a progress line on `err` (when progress_wanted) for "filling M x N ALGO";
// the line is cleared before this returns.
Expected<DpResult> align_with_progress(const Problem& p, AlignOptions opt, std::ostream& err, bool quiet);

}  // namespace dpviz::app
