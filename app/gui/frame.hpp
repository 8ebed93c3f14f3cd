// The per-frame logic that is not drawing: turning the panels' requests into jobs and exports,
// taking the worker's outcomes into the state, and the bundled examples. No GL, no window:
// the headless tests run exactly this between ImGui frames.
#pragma once

#include <string>

#include "gui/app_state.hpp"
#include "gui/compute.hpp"

namespace dpviz::gui {

enum class Example { globins, dna_repeat_inversion, dtw_signals, casino, cpg_island };
// Every example, in menu order.
inline constexpr Example kAllExamples[] = {Example::globins, Example::dna_repeat_inversion, Example::dtw_signals,
                                           Example::casino, Example::cpg_island};
const char* example_label(Example e);
// Sets both inputs and the algorithm for a bundled example and requests a computation.
void load_example(AppState& s, Example e);

JobRequest make_job_request(const AppState& s, JobRequest::Kind kind);
// Whether the view needs the shown result's landscape: the landscape layer, or a store result's
// co-optimal mask (Computed::mask_pyramid).
bool wants_landscape(const AppState& s);
// Submits, cancels and exports what the panels asked for; starts the landscape's build when the
// view wants it; takes a finished outcome; copies the worker's progress into s.job. Window
// screenshots are left to the GL loop.
void process_requests(AppState& s, Worker& worker);
// The worker's finished outcome (if any) into the state, and its progress. process_requests
// calls it; the frame loop also calls it before drawing, so a result that arrived while the
// loop slept is on screen in that same frame.
void collect_outcome(AppState& s, Worker& worker);
// Takes one finished job into the state (the newest request's only; see JobRunner).
void apply_outcome(AppState& s, uint64_t id, JobOutcome&& out);

// What stands between the state and a frame that shows the requested work (the result, the
// matrix texture drawn for the current view, and the timings of every backend with
// `want_timings`), in words: "the CPU fill of 143 x 148 cells (40 % done, 2.0 s in)". "" when
// nothing does. The --screenshot mode waits for "" and, when it gives up, says what it was.
std::string pending_work(const AppState& s, bool want_timings);

}  // namespace dpviz::gui
