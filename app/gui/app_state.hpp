// All of the GUI's state in one plain struct: inputs, parameters, the view transform, which
// panels are open, pending requests, and what the worker handed back. Panels read and write it;
// the frame loop (frame.cpp, gl_view.cpp) turns its requests into jobs, GL uploads and files.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/render/colormap.hpp"
#include "dpviz/render/gl_view_pixels.hpp"
#include "dpviz/types.hpp"
#include "gpu_model.hpp"
#include "gui/file_dialog.hpp"
#include "gui/teach_playback.hpp"
#include "gui/view_math.hpp"

namespace dpviz::app {
struct SassReport;  // sass_report.hpp
struct ScanTable;   // bench_scan.hpp
}  // namespace dpviz::app

namespace dpviz::gui {

struct Computed;  // compute.hpp: one finished job (problem, result, pyramids, mask, text)

enum class InputSource { file, paste };

// One side of the comparison: the query (rows) or the target (columns). Viterbi: the query is
// the HMM file (rows: its states; always a file), the target the observations.
struct InputSide {
    InputSource source = InputSource::file;
    std::string path;
    std::string record;    // "" = first record; a record name or a 1-based index
    std::string pasted;    // sequence text (FASTA or bare) or numbers for DTW
    std::string column;    // DTW: signal column name or 1-based index ("" = the only one)
    std::vector<std::string> record_names;  // records of `path`, filled in by the last load
    friend bool operator==(const InputSide&, const InputSide&) = default;
};

enum class ScoringMode { matrix, match_mismatch };
enum class BackendChoice { automatic, dpx, dpx_free, cpu };
const char* backend_choice_label(BackendChoice b);  // "auto", "DPX", "DPX-free", "CPU"

// A score or gap cost as the user gives it, with at most two decimals, held exactly in
// hundredths (10.5 is 1050) as `dpviz align` reads its options (cli_common.hpp:
// hundredths_option). A job puts them on the problem's integer scale (compute.hpp:
// scoring_options).
struct Hundredths {
    int64_t value = 0;
    static constexpr Hundredths units(int64_t whole) { return {whole * 100}; }
    std::string text() const { return format_score(value, 100); }  // "10", "0.5", "-0.25"
    friend constexpr auto operator<=>(const Hundredths&, const Hundredths&) = default;
};
// `text` as `dpviz align` reads a score (at most two decimals; "10" and "10.5"); a usage error
// naming `name` otherwise.
Expected<Hundredths> parse_hundredths(const std::string& name, const std::string& text);

struct Parameters {
    Algorithm algo = Algorithm::local;
    ScoringMode scoring = ScoringMode::matrix;
    std::string matrix;    // "" = automatic: BLOSUM62 for protein, NUC.4.4 for DNA/RNA
    Hundredths match = Hundredths::units(2);
    Hundredths mismatch = Hundredths::units(-1);
    // The command line's defaults, EMBOSS needle's and water's: open 10, extend 0.5.
    Hundredths gap_open{app::kDefaultGapOpen};
    Hundredths gap_extend{app::kDefaultGapExtend};
    bool band_on = false;
    int band = 10;
    DtwCost dtw_cost = DtwCost::abs;
    BackendChoice backend = BackendChoice::automatic;
    friend bool operator==(const Parameters&, const Parameters&) = default;
};

// The matrix shown: H, or an affine alignment's gap matrices E and F. Viterbi (no E or F) shows
// delta as H, and as E each delta minus the best of its column (how far behind the most likely
// state each state is at that time). The landscape (docs/algorithms.md, "The landscape"): the
// best score of an alignment through each cell, every algorithm but Viterbi, computed on its
// first showing (Computed::request_landscape).
enum class Layer { H, E, F, landscape };
// A layer's name on the command line and in session.ini ("H", "E", "F", "landscape"), and back.
const char* layer_key(Layer l);
std::optional<Layer> parse_layer(const std::string& key);

// What the GL texture holds now (set by the frame loop; the matrix panel draws it where its
// cells are under the current transform, so a stale texture is never misplaced).
struct TextureContent {
    uint64_t gl_name = 0;
    int matrix_rows = 0, matrix_cols = 0;  // shape of the matrix it was drawn from
    float u1 = 0.0f, v1 = 0.0f;  // texture coordinates of the drawn region's bottom-right corner
    render::TexelRequest drawn;  // the request it answers (rows == 0: nothing yet)
    // The cells its texels cover: `drawn` itself, except for a store result (Computed::stored),
    // whose overview texels cover whole blocks.
    render::TexelRequest placed;
    bool window_pending = false;  // store result: the overview stands in until the exact window is ready
    uint64_t result_id = 0;
};

struct MatrixView {
    ViewTransform xf;
    bool fit_pending = true;          // fit the matrix to the canvas on the next frame
    bool one_to_one_pending = false;
    struct CenterOn {
        double i = 0, j = 0, cell_px = 1;
    };
    std::optional<CenterOn> center_pending;  // center this cell at this zoom (after any fit)
    Canvas canvas;                    // the heatmap's screen rectangle, last frame
    std::optional<ViewTransform> drag_start;  // the transform when the current drag began
    Layer layer = Layer::H;
    bool auto_colormap = true;
    render::Colormap colormap = render::Colormap::viridis;
    bool show_path = true;
    bool show_mask = false;           // cells on any optimal path (direction bits; a store result: the landscape)
    bool show_details = true;         // residues, scores and arrows once cells are large enough
    std::optional<Cell> hover;        // cell under the mouse
    std::optional<Cell> highlight;    // cell of the alignment column under the mouse
    std::optional<Cell> selected;     // path cell last clicked (its column is marked in the text)
    std::optional<Cell> inspected;    // any cell last clicked: the recurrence inspector shows it
    render::TexelRequest wanted;      // the region the panel wants in the texture (panel -> loop)
    TextureContent texture;           // what the texture holds (loop -> panel)
    std::string goto_text;            // the go-to-cell field: "row, column"
    std::string goto_error;           // why the last go-to was refused ("" after one that worked)
    bool goto_focus = false;          // Ctrl+G: put the keyboard in the field on the next frame
    std::optional<Cell> context_cell; // the cell the matrix's context menu was opened on
};

// The UI scale (ui_scale.hpp): fonts and style are rebuilt whenever base x zoom changes.
struct UiScale {
    float base = 1.0f;         // the monitor's content scale (GLFW), or --scale S
    bool base_fixed = false;   // --scale given: a change of monitor does not move it
    float zoom = 1.0f;         // Ctrl + / Ctrl - / Ctrl 0; saved in session.ini (ui_zoom)
    float built = 0.0f;        // the scale the fonts and style were last built at (0: not yet)
    std::string font_note;     // why the DejaVu fonts are not in use; "" when they are
};

struct AlignmentView {
    std::optional<int> hover_column;      // column under the mouse in the alignment text
    std::optional<int> scroll_to_column;  // set by a click on a path cell; consumed by the panel
};

struct PanelsOpen {
    bool inputs = true, parameters = true, matrix = true, alignment = true, timing = true, export_ = true;
    bool inspector = false, machine_code = false, lesson = false;  // teaching views
    bool wavefront = false;                                        // playback and ownership (teach_playback.hpp)
};

// Teaching views (teach_*.hpp): the open lesson and the machine-code report, loaded on first use.
struct TeachState {
    int lesson = -1;               // index into lessons(), -1 = none open
    int step = 0;
    bool view_pending = false;     // the step's view settings wait for its result
    bool layout_pending = false;   // a lesson opened: place the panels for it (next frame)
    std::shared_ptr<const app::SassReport> sass;
};

// Progress of the worker (copied from the job runner every frame).
struct JobState {
    bool busy = false;
    bool finishing_cancelled = false;  // cancelled, stopping at the engine's next check
    std::string stage;
    double progress = -1.0;            // the engine's fraction of the stage; -1 = unknown (estimated)
    double elapsed_s = 0.0;
    double expected_s = 0.0;           // from the cell count and the last measured throughput
    double ns_per_cell = 20.0;         // measured on the last job (load + fill + traceback + pooling)
    uint64_t submitted = 0;            // id of the newest request
    uint64_t shown = 0;                // id of the job whose result is shown
};

// One backend in the timing panel.
struct TimingRow {
    BackendChoice backend = BackendChoice::cpu;
    bool available = false;
    std::string note;     // why it is not available, or which backend actually ran
    double fill_ms = 0.0, traceback_ms = 0.0;  // the medians of its runs (gcups_scan.hpp: kRunAllRule)
    int runs = 0;
    int64_t cells = 0;
    int rows = 0;        // the fill's rows (its bands of 128)
    std::string kernel;  // the GPU kernel that filled it (sass_report.hpp: ran_kernel_name); "" on the CPU
    double gcups() const { return fill_ms + traceback_ms > 0 ? double(cells) / ((fill_ms + traceback_ms) * 1e6) : 0.0; }
};

// "GCUPS vs size" in the timing panel (gcups_scan.hpp): one backend's series of square fills at
// score level, each point the medians of a few runs.
struct GcupsPoint {
    int side = 0;        // side x side cells
    int runs = 0;
    double fill_ms = 0;  // median fill: the kernel's events (GPU) or the CPU's fill
    double wall_ms = 0;  // median of the whole align() call: uploads, launches, copies included
    double gcups(bool whole_call) const {
        const double ms = whole_call ? wall_ms : fill_ms;
        return ms > 0 ? double(side) * side / (ms * 1e6) : 0.0;
    }
};
struct GcupsSeries {
    BackendChoice backend = BackendChoice::cpu;
    bool available = false;
    std::string note;    // why not available, or why the series stopped where it did
    std::string kernel;  // the GPU kernel of its last point ("" on the CPU)
    std::vector<GcupsPoint> points;
};
struct GcupsPlot {
    std::vector<GcupsSeries> series;  // the last run's: DPX, DPX-free, CPU
    std::string what;                 // what it filled: algorithm, scoring, letters
    int first_side = 128, last_side = 65536;  // tests shorten the run
    bool whole_call = true;           // plot the whole call's time (else the fill's)
};

enum class ExportKind { matrix_png, window_png, alignment_text, path_csv };
struct ExportRequest {
    ExportKind kind = ExportKind::matrix_png;
    std::string path;
};
struct ExportSettings {
    std::string folder;       // default: the current directory of the process (never used by tests)
    std::string stem = "dpviz";
    bool overwrite = false;   // off: an existing file gets a numeric suffix (name-1.png)
    int png_max_side = 4096;  // matrix area of the exported PNG; one pixel per cell up to this
};

// Everything the panels ask for; the frame loop carries it out and clears it.
struct Requests {
    bool compute = false;
    bool cancel = false;
    bool run_all_backends = false;
    bool gcups_scan = false;  // "GCUPS vs size"
    std::optional<ExportRequest> export_file;
    std::vector<std::string> dropped_files;  // dropped on the window (GLFW callback)
    bool quit = false;
};

// Facts about this machine and build, filled once at start-up.
struct SystemInfo {
    std::string gl_renderer;       // GL_RENDERER, or "no GL" headless
    std::string upload_path;       // "host" or "CUDA-GL interop"
    std::string upload_note;       // why host, or the CUDA device
    bool device_view = false;      // the texture takes the interop path: results may stay in GPU memory
    std::string gpu;               // gpu_description(): name, SMs, memory, driver; or "not available: why"
    app::GpuFigures gpu_figures;   // SMs, SM clock, warp slots (sms = 0 without a GPU)
    bool backends_probed = false;
    bool dpx_available = false, dpx_free_available = false;
    std::string dpx_note, dpx_free_note;  // "not available" reasons
};

// Engine settings from the command line (--threads, --dtw-scale), as `dpviz align` takes them;
// not part of the saved session.
struct EngineSettings {
    unsigned threads = 0;             // CPU backends: 0 = all hardware threads
    std::optional<double> dtw_scale;  // DTW fixed-point scale; unset: the largest safe one
    // Matrices of this many cells or more (or that do not fit in memory) open through the
    // result store (Computed::stored); tests lower it to compare with whole matrices.
    int64_t store_from_cells = kCheckpointPathCells;
    // The store's overview: at most this many texels a side (its block B, the smallest that fits:
    // a screen's width several times over, so the overview carries the view down to a few pixels
    // per texel before windows are recomputed).
    int32_t store_overview_side = 4096;
    friend bool operator==(const EngineSettings&, const EngineSettings&) = default;
};

struct AppState {
    InputSide query, target;
    Parameters params;
    EngineSettings engine;
    MatrixView view;
    AlignmentView alignment;
    PanelsOpen panels;
    Requests requests;
    JobState job;
    std::shared_ptr<const Computed> result;
    std::string error;                     // last job's error (one line), shown until the next result
    std::string notice;                    // one line from start-up (a session file that was ignored), until dismissed
    std::vector<TimingRow> timings;        // last "run all backends"
    GcupsPlot gcups;                       // last "GCUPS vs size"
    std::shared_ptr<const std::vector<app::ScanTable>> scan_tables;  // the shipped `dpviz bench --scan` tables, newest first, read when first shown
    int scan_table_shown = 0;              // which of them the timing panel shows
    std::vector<std::string> recent_files;  // newest first
    ExportSettings export_settings;
    std::string export_message;            // where the last export went, or why it failed
    std::string assets_dir;                // bundled examples and matrices
    int hovered_input = -1;                // 0 query, 1 target: where a dropped file goes
    std::string matrix_file_draft;         // a matrix file path being typed
    SystemInfo system;
    TeachState teach;
    WavefrontView wavefront;               // playback and ownership overlays: view, step, playing, speed
    UiScale ui;                            // font size and style scale
    FileDialogState file_dialog;           // the in-app file browser (file_dialog.hpp)
    bool headless = false;                 // tests: no GL texture, no window
};

// A parameter or input change: compute now (small problems, also while dragging) or when the
// control is released. `final_edit` is true on release and for discrete controls.
void request_compute(AppState& s, bool final_edit);
// Whether a recompute fits in a frame, judged from the last measured throughput.
bool live_recompute_ok(const AppState& s);
// Adds a path to the recent files (newest first, no duplicates, at most 12).
void remember_file(AppState& s, const std::string& path);
// Files dropped on the window: two go to query and target; one goes to the input under the
// mouse, else to the query if it has no file yet, else to the target. Requests a computation.
void apply_dropped_files(AppState& s);

}  // namespace dpviz::gui
