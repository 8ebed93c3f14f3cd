// The work the GUI's worker does: load both inputs, build the problem, align at level matrix,
// and prepare what the view needs (value pyramids, the optimal-path mask, the pair text).
// Three paths with the same path and values:
//   host          align() at level matrix, pyramids and mask built on the CPU;
//   GPU-resident  (the texture takes the interop path and a GPU backend is chosen) the fill and
//                 everything the view needs stay in GPU memory (align_on_device): the texture is
//                 written from there, the path traced there, tables and tooltips fetch small
//                 windows on demand. A device error falls back to the host path.
//   store         (the host path would hold big whole matrices: EngineSettings::store_from_cells
//                 cells, or more than fits) the CPU keeps checkpoints and an overview of H pooled
//                 into B x B blocks (dpviz/store.hpp); the view draws the overview, and any
//                 window (zoomed in, tables, tooltips) is recomputed exactly from the checkpoints.
// Any of them offers the landscape layer, built on a thread of its own when first shown.
// Also "run all backends" and "GCUPS vs size" (gcups_scan.hpp) for the timing panel and the
// start-up probe of the GPU backends.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/device_view.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "dpviz/render/gl_view_pixels.hpp"
#include "gui/app_state.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/jobs.hpp"

namespace dpviz::gui {

// Milliseconds of one job's stages (the timing panel and --measure-interactive show them).
struct StageTimes {
    bool on_device = false;  // the GPU-resident path ran
    bool store = false;      // the store path ran (checkpoints + overview)
    double fill = 0.0;       // engine fill (GPU: uploads + fill, device events in result.fill_ms)
    double traceback = 0.0;  // end cell + path (+ alignment)
    double pyramid = 0.0;    // max-pooled levels and value ranges (GPU-resident: on the device)
    double prepare = 0.0;    // the rest on the host: optimal mask, pair text, caption
    double total = 0.0;      // the whole job, inputs included
    // GPU-resident only, parts of `traceback`: borders + end cell, the path, the alignment text.
    double end_cell = 0.0, path = 0.0, alignment = 0.0;
};

// The landscape layer of a result (docs/algorithms.md, "The landscape"), built once on a thread
// of its own (Computed::request_landscape) from the checkpoints of a forward fill (a store
// result's own) and of the reversed problem: every cell of a whole result, or a store result's
// overview blocks (landscape_overview, at the H overview's block) whose windows are recomputed
// exactly when zoomed in (landscape_window).
struct LandscapeLayer {
    std::shared_ptr<const Problem> problem;  // what `source` points into
    std::shared_ptr<const Checkpoints> forward;
    LandscapeSource source;
    render::ValuePyramid values;  // levels[0]: every cell; store: one texel per overview block
    render::ValueRange range;     // exact, over every cell
    int32_t optimum = 0;          // the best finite value (the lowest for edit distance and DTW): the score
    // Store: the overview blocks holding a cell at the optimum (a block's texel is its best cell),
    // the co-optimal mask at overview scale.
    render::MaskPyramid optimal;
    bool at_optimum(int32_t v) const { return range.any_finite && v == optimum; }
};
// How far the landscape's build has come.
struct LandscapeProgress {
    bool started = false;
    std::string stage;      // what it is doing
    double fraction = 0.0;  // of the whole build
    std::string error;      // why it failed; "" while it runs and once it is built
};

// A window of a store result, recomputed exactly from the checkpoints: its H, E and F as
// pyramids (levels[0] the window's cells), the direction bits, the landscape when it was asked
// for, and as the mask the cells at the landscape's optimum (every co-optimal cell), or without
// the landscape the traced path's cells in it.
struct StoreWindow {
    Window w;  // matrix cells [i0, i1) x [j0, j1)
    render::ValuePyramid h, e, f;
    render::ValuePyramid landscape;  // empty unless asked for
    render::MaskPyramid mask;
    Grid<uint8_t> dirs;
    Grid<uint16_t> back;   // Viterbi: the predecessor rows (no direction bits)
    uint64_t version = 0;  // a new number for every window computed
    bool on_gpu = false;   // recomputed on the GPU that holds the checkpoints
    bool has_landscape() const { return !landscape.levels.empty(); }
    bool has_gaps() const { return !e.levels.empty(); }  // E and F (affine gaps; small windows only)
    const render::ValuePyramid& pyramid(Layer l) const {
        return l == Layer::E ? e : l == Layer::F ? f : l == Layer::landscape ? landscape : h;
    }
    bool covers(const Window& x, bool with_landscape = false, bool with_gaps = false) const {
        return x.i0 >= w.i0 && x.j0 >= w.j0 && x.i1 <= w.i1 && x.j1 <= w.j1 && (!with_landscape || has_landscape()) &&
               (!with_gaps || has_gaps());
    }
};

struct Computed {
    uint64_t id = 0;
    Problem problem;
    // A store result whose checkpoints are in GPU memory (its windows are recomputed there).
    bool store_on_gpu() const {
        return result.checkpoints && result.checkpoints->source && result.checkpoints->source->on_gpu();
    }
    DpResult result;  // host path: its H, E, F live in the pyramids below (levels[0]); GPU-resident: in `device`
    render::ValuePyramid h, e, f;  // host path only; Viterbi: e is delta minus its column's best
    render::MaskPyramid mask;      // host path; GPU-resident: mask_pyramid() builds it on first use
    render::ValueRange range[3];  // host path, per layer (H, E, F): finite min/max; see layer_range()
    // H's colour table for the colormap the request asked for, built on the worker (on the
    // GPU-resident path while the GPU traces the path): the view uses it when its scale is
    // `lut_scale`, and builds its own otherwise (another layer or colormap).
    std::shared_ptr<const render::ColorLut> lut;
    render::ColorScale lut_scale;
    std::shared_ptr<const DeviceMatrices> device;  // GPU-resident path: H, E, F, bits and levels there
    // Store path: result.checkpoints and result.overview are set, result.H/E/F/dirs empty; `h`
    // is the overview's pyramid (levels[0]: one texel per overview block of B x B cells), `mask`
    // the path's blocks; range[0] is the overview's exact range. E and F are shown only in
    // windows (has_layer says H only).
    StageTimes stages;
    std::string pair_text;  // EMBOSS-style text (format_pair_text)
    std::string caption;    // one line: algorithm, inputs, parameters, score, backend
    double wall_ms = 0.0;   // the whole job

    Computed() = default;
    ~Computed();  // stops a landscape build still running (its thread ends at its next check)
    Computed(const Computed&) = delete;
    Computed& operator=(const Computed&) = delete;

    bool resident() const { return device != nullptr; }
    bool stored() const { return result.checkpoints != nullptr && result.overview != nullptr; }
    int32_t store_block() const { return stored() ? result.overview->block : 1; }
    int rows() const { return problem.rows() + 1; }
    int cols() const { return problem.cols() + 1; }
    // Whether the result offers the layer (the landscape: every algorithm but Viterbi, built or not).
    bool has_layer(Layer l) const;
    // What the view shows when `want` is asked for: `want` when offered (the landscape once it is
    // built), else H.
    Layer shown_layer(Layer want) const;
    // A layer's finite min/max (the color scale). GPU-resident: from the device, where E's and
    // F's are computed on first use.
    render::ValueRange layer_range(Layer l) const;
    const render::ValuePyramid& pyramid(Layer l) const;  // host path (empty when resident)
    // The whole matrix on the host. A GPU-resident result copies H, E, F and the bits back on
    // first use (once; for exports, the optimal mask and views that need every cell). Store
    // path: empty (use window()).
    const Grid<int32_t>& grid(Layer l) const;
    MatrixRefs refs() const;  // store path: empty grids (use window())
    // Cells [i0, i1) x [j0, j1) plus the row and column before them (the recurrence's inputs),
    // for tables and tooltips: the whole matrices on the host path; on the GPU-resident path a
    // window copied from the device, kept until a request leaves it (the refs stay valid until
    // the next call). Store path: recomputed from the checkpoints, a view window that covers it
    // answers first. Outside the window values read as unreachable.
    MatrixRefs window(int i0, int i1, int j0, int j1) const;
    // Store path: the exact values of cells [i0, i1) x [j0, j1) (clipped, plus an eighth and
    // kWindowMargin around), for the view. The last one is kept; a new one is computed on a
    // thread of its own (one at a time), null until it is ready; `wait` computes it here.
    // `with_landscape`: the window carries the landscape and its co-optimal mask too (once the
    // landscape is built; without it the window has neither).
    std::shared_ptr<const StoreWindow> view_window(int i0, int i1, int j0, int j1, bool wait = false,
                                                   bool with_landscape = false) const;
    bool view_window_pending() const;  // a view window is being computed
    // Whole and GPU-resident results: the optimal-path mask from the direction bits. Store: the
    // overview blocks at the landscape's optimum once it is built, the path's blocks until then.
    const render::MaskPyramid& mask_pyramid() const;
    bool mask_ready() const;  // mask_pyramid() is built (it always is on the host path)

    // The landscape layer. The first call starts its build on a thread of its own (`threads` CPU
    // threads, 0 = all; the store window hook is called when it ends); `wait` builds it here, or
    // waits for the build in flight. Nothing for Viterbi.
    void request_landscape(unsigned threads, bool wait = false) const;
    std::shared_ptr<const LandscapeLayer> landscape() const;  // null until built
    LandscapeProgress landscape_progress() const;
    // The landscape's values of cells [i0, i1) x [j0, j1) in MatrixRefs::H (null until it is
    // built; outside the window values read as unreachable): a whole result's every cell; a store
    // result's view window when it covers them, else recomputed here (kept until a request
    // leaves it; the refs stay valid until the next call).
    MatrixRefs landscape_cells(int i0, int i1, int j0, int j1) const;

private:
    struct HostCopy {
        Grid<int32_t> H, E, F;
        Grid<uint8_t> dirs;
        Cell origin;
    };
    void load_host_copy() const;  // GPU-resident: whole matrices, once
    mutable std::mutex cache_mutex_;
    mutable std::unique_ptr<HostCopy> whole_;   // GPU-resident: grid()/refs()
    mutable std::unique_ptr<HostCopy> window_;  // GPU-resident: window()
    mutable std::shared_ptr<const StoreWindow> view_window_, cell_window_;  // store: view, window()
    struct PendingWindow;
    mutable std::shared_ptr<PendingWindow> pending_;           // store: the view window in flight
    mutable std::shared_ptr<const Problem> shared_problem_;    // store: a copy its thread may keep
    mutable render::MaskPyramid lazy_mask_;  // GPU-resident: mask_pyramid()
    mutable bool mask_built_ = false;
    struct LandscapeBuild;
    mutable std::shared_ptr<LandscapeBuild> landscape_build_;  // shared with the build's thread
    mutable std::shared_ptr<const LandscapeLayer> landscape_;  // set once, when built
    mutable WindowValues landscape_cells_;                     // store: landscape_cells() outside the view window
};

// What the matrix view draws of a store result for a request in matrix cells: the overview
// (its texels are B x B blocks) while a texel covers B cells or more, or while the visible
// cells are more than kExactViewCells; otherwise the visible window, recomputed exactly (on a
// thread of its own: about 25 ns a cell with direction bits on this 2-core machine, 100 ms for
// 4 Mi cells).
inline constexpr int64_t kExactViewCells = int64_t(4) << 20;
struct StoreDraw {
    std::shared_ptr<const StoreWindow> window;  // null: the overview (Computed::pyramid and mask_pyramid)
    render::TexelRequest local;  // the request in the units of the pyramid's levels[0]
    render::TexelRequest placed; // the cells the texels cover, in matrix cells (out_w/out_h = local's)
    bool window_pending = false; // the exact window is being computed: the overview meanwhile
};
// `wait`: compute the window here instead of on its own thread (tests, exports). `landscape`:
// the window must carry the landscape (Computed::view_window's with_landscape).
StoreDraw store_draw(const Computed& c, const render::TexelRequest& want, bool wait = false, bool landscape = false);
// Called (on the window's thread) when a view window is ready: the frame loop wakes its wait.
void set_store_window_ready_hook(void (*hook)());

struct JobRequest {
    enum class Kind { align, all_backends, gcups_scan } kind = Kind::align;
    InputSide query, target;
    Parameters params;
    EngineSettings engine;     // threads, DTW scale, the store's threshold
    bool device_view = false;  // the texture takes the interop path: keep the matrices on the GPU
    render::HeatmapOptions colors;  // the view's colormap choice: the job builds H's colour table
    int gcups_first_side = 128, gcups_last_side = 65536;  // gcups_scan: the squares' sides
};

struct JobOutcome {
    JobRequest::Kind kind = JobRequest::Kind::align;
    std::shared_ptr<const Computed> computed;
    std::optional<Error> error;
    std::vector<std::string> query_records, target_records;  // record names of file inputs
    std::vector<TimingRow> timings;                          // all_backends
    std::vector<GcupsSeries> gcups;                          // gcups_scan
    std::string gcups_what;                                  // gcups_scan: what it filled
    double wall_ms = 0.0;
    int64_t cells = 0;
};

// The scoring of `params` as make_problem takes it, less the substitution matrix (build_problem
// loads that for the residues): `dpviz align`'s checks (match > 0, mismatch <= 0, no score
// beyond kMaxScoreMagnitude) and its scale, the smallest that makes the gap costs, and match and
// mismatch when they score, integers (10 / 0.5: score_scale 2, gaps {20, 1}). make_problem
// checks the gaps' signs and order.
Expected<ScoringOptions> scoring_options(const Parameters& params);
// Builds the problem from the inputs and parameters (loads files; record names out).
Expected<Problem> build_problem(const JobRequest& req, std::vector<std::string>* query_records = nullptr,
                                std::vector<std::string>* target_records = nullptr);
// The worker's job function. Keeps no state between calls.
JobOutcome run_job(const JobRequest& req, JobContext& ctx);
// The matrix the GUI would use for `params` with these residues ("BLOSUM62", "NUC.4.4", ...).
std::string effective_matrix_name(const Parameters& params, const std::string& residues);
Backend engine_backend(BackendChoice b);

// Asks the engine whether the DPX and DPX-free backends run here (a tiny alignment each).
void probe_backends(SystemInfo& info);

using Worker = JobRunner<JobRequest, JobOutcome>;

}  // namespace dpviz::gui
