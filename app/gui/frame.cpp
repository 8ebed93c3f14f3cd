// Requests -> jobs and files, outcomes -> state (see frame.hpp).
#include "gui/frame.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli_common.hpp"
#include "gui/files.hpp"
#include "gui/teach_lessons.hpp"

namespace dpviz::gui {

Expected<Hundredths> parse_hundredths(const std::string& name, const std::string& text) {
    auto h = app::parse_hundredths(name, text);  // the command line's one reading of a score
    if (!h) return h.error();
    return Hundredths{*h};
}

const char* layer_key(Layer l) {
    switch (l) {
        case Layer::H: return "H";
        case Layer::E: return "E";
        case Layer::F: return "F";
        case Layer::landscape: return "landscape";
    }
    return "H";
}

std::optional<Layer> parse_layer(const std::string& key) {
    for (const Layer l : {Layer::H, Layer::E, Layer::F, Layer::landscape})
        if (key == layer_key(l)) return l;
    return std::nullopt;
}

void request_compute(AppState& s, bool final_edit) {
    if (final_edit || live_recompute_ok(s)) s.requests.compute = true;
}

bool live_recompute_ok(const AppState& s) {
    if (!s.result) return true;
    // A frame is ~16 ms; leave most of it to drawing.
    const double expected_ms = double(s.result->result.cells) * s.job.ns_per_cell * 1e-6;
    return expected_ms < 8.0;
}

void remember_file(AppState& s, const std::string& path) {
    if (path.empty()) return;
    auto& r = s.recent_files;
    r.erase(std::remove(r.begin(), r.end(), path), r.end());
    r.insert(r.begin(), path);
    if (r.size() > 12) r.resize(12);
}

void apply_dropped_files(AppState& s) {
    auto& files = s.requests.dropped_files;
    if (files.empty()) return;
    auto set = [&](InputSide& side, const std::string& path) {
        side.source = InputSource::file;
        side.path = path;
        side.record.clear();
        side.record_names.clear();
        remember_file(s, path);
    };
    if (files.size() >= 2) {
        set(s.query, files[0]);
        set(s.target, files[1]);
    } else if (s.hovered_input == 1 || (s.hovered_input != 0 && !s.query.path.empty())) {
        set(s.target, files[0]);
    } else {
        set(s.query, files[0]);
    }
    files.clear();
    s.requests.compute = true;
}

namespace {

// The bundled examples: the label the Inputs panel shows, each side's file in assets/examples
// and its record ("" for a signal file or the first record), and the algorithm. Viterbi's query
// is the model, its target the observations.
struct ExampleSpec {
    Example example;
    const char* label;
    const char *query_file, *query_record;
    const char *target_file, *target_record;
    Algorithm algo;
};
constexpr ExampleSpec kExamples[] = {
    {Example::globins, "Globins: HBA_HUMAN vs HBB_HUMAN (local)", "globins.fa", "HBA_HUMAN", "globins.fa", "HBB_HUMAN",
     Algorithm::local},
    {Example::dna_repeat_inversion, "DNA: repeat + inversion (local)", "dna_repeat_inversion.fa", "1",
     "dna_repeat_inversion.fa", "2", Algorithm::local},
    {Example::dtw_signals, "Signals: two warped series (DTW)", "signal_a.csv", "", "signal_b.csv", "", Algorithm::dtw},
    {Example::casino, "HMM: the occasionally dishonest casino, 300 rolls (Viterbi)", "casino.hmm", "",
     "casino_rolls.txt", "", Algorithm::viterbi},
    {Example::cpg_island, "HMM: a CpG island in the human insulin receptor gene, EMBL M23100 (Viterbi)", "cpg.hmm", "",
     "insr_exon1.fa", "", Algorithm::viterbi},
};

const ExampleSpec* example_spec(Example e) {
    for (const ExampleSpec& x : kExamples)
        if (x.example == e) return &x;
    return nullptr;
}

InputSide file_input(std::string path, std::string record) {
    InputSide in;
    in.path = std::move(path);
    in.record = std::move(record);
    return in;
}

}  // namespace

const char* example_label(Example e) {
    const ExampleSpec* x = example_spec(e);
    return x ? x->label : "?";
}

void load_example(AppState& s, Example e) {
    namespace fs = std::filesystem;
    const fs::path ex = fs::path(s.assets_dir) / "examples";
    if (const ExampleSpec* x = example_spec(e)) {
        s.query = file_input((ex / x->query_file).string(), x->query_record);
        s.target = file_input((ex / x->target_file).string(), x->target_record);
        s.params.algo = x->algo;
    }
    s.params.scoring = ScoringMode::matrix;
    s.params.matrix.clear();  // automatic: BLOSUM62 for the globins, NUC.4.4 for DNA
    s.view.fit_pending = true;
    s.requests.compute = true;
}

JobRequest make_job_request(const AppState& s, JobRequest::Kind kind) {
    JobRequest r;
    r.kind = kind;
    r.query = s.query;
    r.target = s.target;
    r.query.record_names.clear();
    r.target.record_names.clear();
    r.params = s.params;
    r.engine = s.engine;
    r.device_view = s.system.device_view;
    r.colors.auto_colormap = s.view.auto_colormap;
    r.colors.colormap = s.view.colormap;
    return r;
}

void apply_outcome(AppState& s, uint64_t id, JobOutcome&& out) {
    if (!out.query_records.empty()) s.query.record_names = std::move(out.query_records);
    if (!out.target_records.empty()) s.target.record_names = std::move(out.target_records);
    if (out.error) {
        s.error = out.error->message;
        return;
    }
    if (out.cells > 0 && out.wall_ms > 0) s.job.ns_per_cell = std::max(out.wall_ms * 1e6 / double(out.cells), 0.1);
    if (s.query.source == InputSource::file) remember_file(s, s.query.path);
    if (s.target.source == InputSource::file) remember_file(s, s.target.path);
    if (out.kind == JobRequest::Kind::gcups_scan) {  // not a result either
        s.gcups.series = std::move(out.gcups);
        s.gcups.what = std::move(out.gcups_what);
        return;
    }
    if (out.kind == JobRequest::Kind::all_backends) {
        // Timings are not a result: the error line of a refused alignment stays with the older
        // result still shown (a DTW band too narrow, then Run all: the matrix is not the DTW one).
        s.timings = std::move(out.timings);
        return;
    }
    s.error.clear();
    if (!out.computed) return;
    const bool same_shape = s.result && s.result->rows() == out.computed->rows() && s.result->cols() == out.computed->cols();
    if (!same_shape) s.view.fit_pending = true;
    s.result = std::move(out.computed);
    s.job.shown = id;
    if (!s.result->has_layer(s.view.layer)) s.view.layer = Layer::H;
    s.view.hover.reset();
    s.view.highlight.reset();
    s.view.selected.reset();
    s.alignment = {};
}

bool wants_landscape(const AppState& s) {
    if (!s.result || !s.panels.matrix || !s.result->has_layer(Layer::landscape)) return false;
    return s.view.layer == Layer::landscape || (s.view.show_mask && s.result->stored());
}

void process_requests(AppState& s, Worker& worker) {
    Requests& rq = s.requests;
    apply_dropped_files(s);
    if (rq.cancel) {
        worker.cancel();
        rq.compute = rq.run_all_backends = rq.gcups_scan = false;
        rq.cancel = false;
        s.error = "cancelled";
    }
    if (rq.compute) {
        s.job.submitted = worker.submit(make_job_request(s, JobRequest::Kind::align));
        rq.compute = false;
    }
    // Timing every backend waits for the alignment in flight (it would supersede it otherwise),
    // and for its outcome to be in the state: the worker keeps one finished outcome, and a
    // timing job that finished before the next take replaced the alignment's result.
    if (rq.run_all_backends && !rq.compute) {
        collect_outcome(s, worker);  // not busy after this: the last outcome has been taken
        if (!s.job.busy) {
            s.job.submitted = worker.submit(make_job_request(s, JobRequest::Kind::all_backends));
            rq.run_all_backends = false;
        }
    }
    // "GCUPS vs size" likewise.
    if (rq.gcups_scan && !rq.compute && !rq.run_all_backends) {
        collect_outcome(s, worker);
        if (!s.job.busy) {
            JobRequest r = make_job_request(s, JobRequest::Kind::gcups_scan);
            r.gcups_first_side = s.gcups.first_side;
            r.gcups_last_side = s.gcups.last_side;
            s.job.submitted = worker.submit(std::move(r));
            rq.gcups_scan = false;
        }
    }
    if (rq.export_file && rq.export_file->kind != ExportKind::window_png) {
        auto written = export_result(s, *rq.export_file);
        s.export_message = written ? "wrote " + *written : "export failed: " + written.error().message;
        rq.export_file.reset();
    }
    collect_outcome(s, worker);
    // Built once a result, on first showing, on a thread of its own (it wakes the loop when done).
    if (wants_landscape(s)) s.result->request_landscape(s.engine.threads);
}

namespace {

// The running job in words. The stage is the job's own ("filling 143 x 148 cells", "timing
// DPX", "loading inputs", ...); a fill also names the backend it was asked for.
std::string running_job(const AppState& s) {
    const JobState& j = s.job;
    std::string what;
    if (j.finishing_cancelled) what = "a superseded job to stop (it was " + j.stage + ")";
    else if (j.stage == "queued" || j.stage == "starting" || j.stage.empty()) what = "the worker to start the job";
    else if (j.stage.rfind("filling ", 0) == 0)
        what = s.params.backend == BackendChoice::automatic
                   ? "the fill of " + j.stage.substr(8) + " (backend auto)"
                   : std::string("the ") + backend_choice_label(s.params.backend) + " fill of " + j.stage.substr(8);
    else what = "the job's stage '" + j.stage + "'";
    char how[80];
    if (j.progress >= 0) std::snprintf(how, sizeof how, " (%.0f %% done, %.1f s in)", 100.0 * j.progress, j.elapsed_s);
    else std::snprintf(how, sizeof how, " (%.1f s in)", j.elapsed_s);
    return what + how;
}

}  // namespace

std::string pending_work(const AppState& s, bool want_timings) {
    if (s.job.busy) return running_job(s);
    if (s.requests.compute) return "a requested computation to be submitted";
    if (s.requests.run_all_backends) return "the run of all backends to be submitted";
    if (s.requests.gcups_scan) return "the GCUPS vs size run to be submitted";
    if (want_timings && s.timings.empty() && s.error.empty())
        return "the timings of all backends (none is running or requested)";
    if (!s.result) return s.error.empty() ? "a first result (none is running or requested)" : "";
    if (!lesson_view_applied(s)) return "the lesson step's view";
    if (s.view.center_pending) return "the matrix panel to center the requested cell";
    if (!s.panels.matrix) return "";
    if (wants_landscape(s) && !s.result->landscape()) {
        const LandscapeProgress p = s.result->landscape_progress();
        if (p.error.empty()) {
            char done[32];
            std::snprintf(done, sizeof done, " (%.0f %% done)", 100.0 * p.fraction);
            return "the landscape layer: " + (p.started ? p.stage + done : std::string("its build to start"));
        }
    }
    const int rows = s.result->rows(), cols = s.result->cols();
    if (s.view.fit_pending || s.view.canvas.w <= 0) return "the matrix panel to lay out the shown result";
    // What the panel asks of this result (its `wanted` may still be the last result's): with no
    // cell of the matrix in view there is no texture to wait for.
    const render::TexelRequest visible = view_request(s.view.xf, s.view.canvas, rows, cols, s.view.show_mask);
    if (visible.rows <= 0 || visible.out_w <= 0) return "";
    const TextureContent& t = s.view.texture;
    if (t.result_id == s.result->id && t.drawn == s.view.wanted && t.drawn == visible) {
        if (t.window_pending) return "the exact values of the zoomed-in window (recomputed from the checkpoints)";
        return "";
    }
    return "the matrix texture of the shown " + std::to_string(rows) + " x " + std::to_string(cols) + " result (rows " +
           std::to_string(visible.i0) + "-" + std::to_string(visible.i0 + visible.rows - 1) + ", columns " +
           std::to_string(visible.j0) + "-" + std::to_string(visible.j0 + visible.cols - 1) + ")";
}

void collect_outcome(AppState& s, Worker& worker) {
    // Progress before take(): "not busy" then guarantees the last outcome has been taken.
    const JobProgress p = worker.progress();
    if (auto done = worker.take()) apply_outcome(s, done->first, std::move(done->second));
    s.job.busy = p.busy;
    s.job.finishing_cancelled = p.running_cancelled;
    s.job.stage = p.stage;
    s.job.progress = p.fraction;
    s.job.elapsed_s = p.elapsed_s;
    s.job.expected_s = s.result ? double(s.result->result.cells) * s.job.ns_per_cell * 1e-9 : 0.0;
}

}  // namespace dpviz::gui
