// Teaching views, part 1: the wavefront playback (the fill step by step in the order the kernel
// that ran computes it) and the ownership overlay (which block, warp, lane or thread computed each
// cell). Plain state here, part of AppState: lessons switch a view on by writing `view` (and the
// playback fields); the Wavefront panel and the matrix overlay (teach_overlay.hpp) read it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dpviz {
class Schedule;
}

namespace dpviz::gui {

struct AppState;

enum class TeachView { none, playback, ownership };
enum class OwnerField { block, warp, lane };  // the CPU backend's "block" is its thread

struct PlaybackState {
    int64_t step = 0;       // cells whose step is <= this are shown computed; this step's cells are the front
    bool playing = false;   // advances `speed` steps per second, stops at the last step
    double speed = 30.0;    // steps per second
    bool auto_speed = true; // speed follows the fill: the whole of it in about 20 s (off once the user sets one)
    double carry = 0.0;     // the fraction of a step left from earlier frames
};

// The schedule of the result shown, rebuilt when the result changes (prepare_wavefront).
struct WavefrontCache {
    uint64_t result_id = 0;                   // Computed::id it belongs to; 0 = none
    std::shared_ptr<const Schedule> schedule; // null when the result cannot be mapped (`error` says why)
    std::string error;
    std::string label;                        // "cuda: 132 blocks x 4 warps x 32 lanes", ...
    std::vector<float> activity;              // cells computed per step, averaged over `bucket` steps
    int64_t bucket = 1;
    float peak = 0.0f;
    float scrub[4] = {0, 0, 0, 0};            // the scrubber's screen rectangle last frame (x0, y0, x1, y1; tests)
};

struct WavefrontView {
    TeachView view = TeachView::none;
    PlaybackState playback;
    OwnerField color_by = OwnerField::warp;
    bool tiles = true;        // tile boundaries and (at cell scale) the order tiles run in
    bool raise = false;       // bring the Wavefront panel to the front on its next frame (set with `view`)
    WavefrontCache cache;
};

// The Wavefront panel: view choice, play/pause/step/scrubber/speed, the active-cells plot, the
// ownership legend.
void draw_wavefront(AppState& s);
// Once per frame before drawing either: the schedule of the shown result (rebuilt when it
// changed), the step clamped to it, and playback advanced by `dt` seconds.
void prepare_wavefront(AppState& s, double dt);

// Colour and legend label of an owner value (block, warp, lane or thread number).
uint32_t owner_color(OwnerField field, int value);
const char* owner_field_name(OwnerField field, bool cpu);  // "block"/"thread", "warp", "lane"

}  // namespace dpviz::gui
