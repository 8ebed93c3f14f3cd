// In-app measurements (`dpviz gui --measure-interactive N`, `--measure-upload N`): the time from
// a parameter change to the frame that shows the new matrix texture and path (glFinish'ed), with
// the job's stages, and the texture update time of a 2048^2 view. Also the seeded random DNA
// pair (`--random-pair LEN`) such measurements run on. The frame loop (gui.cpp) calls the hooks;
// the logic here has no GL of its own.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "dpviz/store.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

struct Computed;

// A DNA pair of about `length` residues each, ~80% identical (the target is the query with
// ~10% substitutions, ~5% insertions and ~5% deletions), the same for the same seed.
std::pair<std::string, std::string> random_dna_pair(int length, uint64_t seed);

struct MeasureOptions {
    int interactive = 0;  // parameter changes to time (0: off)
    int upload = 0;       // timed draws of a 2048^2 view (0: off; at least 50 when on)
    int window = 0;       // timed exact windows of a store result (0: off)
    bool json = false;    // also print one JSON object
};

// Five-number view of a sample, in ms.
struct Summary {
    double median = 0, p90 = 0, min = 0, max = 0;
    int n = 0;
};
Summary summarize(std::vector<double> v);

class InteractiveMeasure {
public:
    explicit InteractiveMeasure(MeasureOptions o) : opt_(o) {}

    bool active() const { return opt_.interactive > 0 || opt_.upload > 0 || opt_.window > 0; }
    // Top of a frame: when the previous trial is on screen (or at the start, the first result),
    // changes gap open (alternating two values) and requests a recompute.
    void before_frame(AppState& s);
    // After the frame was rendered and glFinish'ed. `drawn_result` is the id of the result the
    // texture holds, `upload_ms` the time of its last update. True once every trial is done;
    // then wants_upload() says whether to time the 2048^2 draws (the loop does, then report()).
    bool after_frame(const AppState& s, uint64_t drawn_result, double upload_ms);
    // Where the latency goes: the loop calls these after it submitted jobs (process_requests)
    // and after it took a finished outcome (collect_outcome, top of a frame).
    void after_submit(const AppState& s);
    void after_collect(const AppState& s);
    // This frame's UI pass (panels, ImGui::Render) and GL pass (draw + glFinish), in ms.
    void frame_parts(double ui_ms, double gl_ms) {
        ui_ms_ = ui_ms;
        gl_ms_ = gl_ms;
    }
    bool wants_upload() const { return opt_.upload > 0; }
    bool wants_windows() const { return opt_.window > 0; }
    // opt_.window exact windows of side x side cells of `c` (a store result), each at a seeded
    // random place: the engine's window (compute_window) and the view's, as a zoom in computes
    // it (Computed::view_window), timed.
    void time_windows(const Computed& c, int side);
    int upload_repeats() const { return opt_.upload; }
    void set_upload_back_to_back(double ms) { upload_b2b_ms_ = ms; }
    void set_upload_times(std::vector<double> ms, int w, int h) {
        upload_ms_ = std::move(ms);
        upload_w_ = w;
        upload_h_ = h;
    }
    bool failed() const { return !error_.empty(); }
    int trials() const { return int(trials_.size()); }  // timed changes done so far
    // What the measurement waits for now, in words ("change 3 of 22 (gap open 11) to reach the
    // screen: the CPU fill of ..."), for the message of a measurement that timed out.
    std::string waiting_for(const AppState& s, uint64_t drawn_result) const;
    // The table (and JSON with --json) on `out`; errors on `err`.
    void report(const AppState& s, std::ostream& out, std::ostream& err) const;

private:
    struct Trial {
        double latency = 0, job = 0, fill = 0, fill_kernel = 0, traceback = 0, end_cell = 0, path = 0, align_text = 0;
        double pyramid = 0, prepare = 0, upload = 0;
        double to_submit = 0, to_collect = 0, to_screen = 0;  // request -> submitted -> taken -> on screen
        double frame_ui = 0, frame_gl = 0;                     // the frame that showed the result
    };
    static constexpr int kWarmup = 2;  // trials before the timed ones (allocator, caches, JIT-free warm GPU)

    MeasureOptions opt_;
    int started_ = 0;             // trials begun, warm-up included
    bool pending_ = false;
    uint64_t before_id_ = 0;
    Hundredths base_open_;
    double t0_ = 0;
    double t_submit_ = -1, t_collect_ = -1;
    double ui_ms_ = 0, gl_ms_ = 0;
    std::vector<Trial> trials_;
    std::vector<double> upload_ms_;
    int upload_w_ = 0, upload_h_ = 0;
    double upload_b2b_ms_ = -1;  // per draw, the same draws back to back (one glFinish at the end)
    std::vector<double> window_ms_, engine_window_ms_;
    Window window_;               // the last window computed (the view's plus its margins)
    Window engine_window_;        // the shape of the engine's windows
    int window_gpu_ = 0;          // how many of them the GPU computed
    std::string error_;
};

}  // namespace dpviz::gui
