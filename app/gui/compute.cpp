// The worker's jobs: inputs -> problem -> align (level matrix) -> pyramids, mask and text, on
// the host or kept in GPU memory; "run all backends" for the timing panel; the start-up probe of
// the GPU backends. Also Computed's on-demand host copies and windows of GPU-resident matrices.
#include "gui/compute.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <new>
#include <sstream>
#include <stdexcept>

#include "hmm_file.hpp"
#include "input.hpp"
#include "matrix_file.hpp"

namespace dpviz::gui {
namespace {

std::atomic<uint64_t> g_next_computed{0};

// render::build_value_pyramid's default: both paths stop pooling at the same level.
constexpr int kPyramidMinSide = 128;
// A window of a GPU-resident matrix reaches this far past what was asked (cells), so small
// pans and neighbouring tooltips need no new copy.
constexpr int kWindowMargin = 32;

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Expected<SequenceInput> load_sequence(const InputSide& side, const std::string& role,
                                      std::vector<std::string>* names) {
    const bool pasted = side.source == InputSource::paste;
    if (pasted ? side.pasted.empty() : side.path.empty())
        return usage_error(role + ": no input (" + (pasted ? "paste a sequence" : "give a file") + ")");
    auto records = pasted ? app::parse_sequences(side.pasted, role) : app::read_sequences(side.path);
    if (!records) return records.error();
    if (names) {
        names->clear();
        for (const auto& r : *records) names->push_back(r.name);
    }
    auto rec = app::pick_record(*records, side.record, pasted ? role : side.path);
    if (!rec) return rec.error();
    return SequenceInput{rec->name.empty() ? role : rec->name, rec->residues};
}

Expected<SignalInput> load_signal(const InputSide& side, const std::string& role) {
    const bool pasted = side.source == InputSource::paste;
    if (pasted ? side.pasted.empty() : side.path.empty())
        return usage_error(role + ": no signal (" + (pasted ? "paste numbers" : "give a CSV file") + ")");
    return pasted ? app::parse_signal(side.pasted, role, side.column) : app::read_signal(side.path, side.column);
}

// Viterbi: the model is the query side's file (rows: states), the observations the target side
// (a file, or pasted symbols), read by the CLI's own loader.
Expected<Problem> load_viterbi(const JobRequest& req) {
    if (req.query.path.empty()) return usage_error("model: no HMM file (choose one in the Inputs panel, or --hmm MODEL)");
    const InputSide& obs = req.target;
    const bool pasted = obs.source == InputSource::paste;
    if (pasted ? obs.pasted.empty() : obs.path.empty())
        return usage_error(std::string("observations: no input (") + (pasted ? "paste the symbols" : "give a file") + ")");
    return app::load_viterbi_problem(req.query.path, pasted ? obs.pasted : obs.path, pasted, obs.record);
}

// Viterbi's second layer (Layer::E): each cell's delta minus the best delta of its column, so a
// column reads as how far each state is behind the most likely one at that time (0 = the best;
// the absolute delta falls with t and hides the states' differences).
Grid<int32_t> behind_column_best(const Grid<int32_t>& H) {
    Grid<int32_t> g;
    g.reset(H.rows, H.cols, kNegInf);
    for (int32_t j = 0; j < H.cols; ++j) {
        int32_t best = kNegInf;
        for (int32_t i = 0; i < H.rows; ++i) best = std::max(best, H.at(i, j));
        if (best <= kNegInf) continue;
        for (int32_t i = 0; i < H.rows; ++i)
            if (H.at(i, j) > kNegInf) g.at(i, j) = H.at(i, j) - best;
    }
    return g;
}

}  // namespace

const char* backend_choice_label(BackendChoice b) {
    switch (b) {
        case BackendChoice::automatic: return "auto";
        case BackendChoice::dpx: return "DPX";
        case BackendChoice::dpx_free: return "DPX-free";
        case BackendChoice::cpu: return "CPU";
    }
    return "?";
}

Backend engine_backend(BackendChoice b) {
    switch (b) {
        case BackendChoice::automatic: return Backend::automatic;
        case BackendChoice::dpx: return Backend::cuda;
        case BackendChoice::dpx_free: return Backend::cuda_portable;
        case BackendChoice::cpu: return Backend::cpu;
    }
    return Backend::automatic;
}

bool Computed::has_layer(Layer l) const {
    if (device) return device->has_layer(int(l));
    const auto& p = pyramid(l);
    return !p.levels.empty() && !p.levels.front().empty();
}

render::ValueRange Computed::layer_range(Layer l) const {
    if (!device) return range[int(l)];
    const DeviceRange r = device->range(int(l));
    return {r.min, r.max, r.any_finite, r.any_unreachable};
}

const render::ValuePyramid& Computed::pyramid(Layer l) const {
    switch (l) {
        case Layer::E: return e;
        case Layer::F: return f;
        case Layer::H: break;
    }
    return h;
}

const Grid<int32_t>& Computed::grid(Layer l) const {
    static const Grid<int32_t> none;
    if (device) {
        load_host_copy();
        return l == Layer::E ? whole_->E : l == Layer::F ? whole_->F : whole_->H;
    }
    const auto& p = pyramid(l);
    return p.levels.empty() ? none : p.levels.front();
}

MatrixRefs Computed::refs() const {
    if (device) {
        load_host_copy();
        return {&whole_->H, &whole_->E, &whole_->F, &whole_->dirs};
    }
    return {&grid(Layer::H), &grid(Layer::E), &grid(Layer::F), &result.dirs, {}, &result.back};
}

void Computed::load_host_copy() const {
    std::lock_guard lock(cache_mutex_);
    if (whole_) return;
    auto copy = std::make_unique<HostCopy>();
    const int R = rows(), C = cols();
    Grid<int32_t>* dst[3] = {&copy->H, &copy->E, &copy->F};
    Status st = Ok{};
    for (int k = 0; k < 3 && st; ++k) {
        if (!device->has_layer(k)) continue;
        dst[k]->reset(R, C, 0);
        st = device->fetch(k, 0, 0, R, C, dst[k]->data.data());
    }
    if (st) {
        copy->dirs.reset(R, C, 0);
        st = device->fetch_bits(0, 0, R, C, copy->dirs.data.data());
    }
    if (!st) *copy = {};  // a failed copy reads as unreachable cells, never as garbage
    whole_ = std::move(copy);
}

MatrixRefs Computed::window(int i0, int i1, int j0, int j1) const {
    if (!device) return refs();
    std::lock_guard lock(cache_mutex_);
    if (whole_) return {&whole_->H, &whole_->E, &whole_->F, &whole_->dirs};
    const int R = rows(), C = cols();
    const int a = std::clamp(i0 - 1, 0, R), b = std::clamp(i1, 0, R), c = std::clamp(j0 - 1, 0, C), d = std::clamp(j1, 0, C);
    const auto covers = [&](const HostCopy& w) {
        return a >= w.origin.i && c >= w.origin.j && b <= w.origin.i + w.H.rows && d <= w.origin.j + w.H.cols;
    };
    if (!window_ || !covers(*window_)) {
        auto w = std::make_unique<HostCopy>();
        const int wa = std::max(a - kWindowMargin, 0), wb = std::min(b + kWindowMargin, R);
        const int wc = std::max(c - kWindowMargin, 0), wd = std::min(d + kWindowMargin, C);
        w->origin = {wa, wc};
        Grid<int32_t>* dst[3] = {&w->H, &w->E, &w->F};
        Status st = Ok{};
        for (int k = 0; k < 3 && st; ++k) {
            if (!device->has_layer(k)) continue;
            dst[k]->reset(wb - wa, wd - wc, 0);
            st = device->fetch(k, wa, wc, wb - wa, wd - wc, dst[k]->data.data());
        }
        if (st) {
            w->dirs.reset(wb - wa, wd - wc, 0);
            st = device->fetch_bits(wa, wc, wb - wa, wd - wc, w->dirs.data.data());
        }
        if (!st) *w = {};
        window_ = std::move(w);
    }
    return {&window_->H, &window_->E, &window_->F, &window_->dirs, window_->origin};
}

const render::MaskPyramid& Computed::mask_pyramid() const {
    if (!device) return mask;
    if (!mask_built_) {
        lazy_mask_ = render::build_mask_pyramid(optimal_mask(problem, refs(), result.score), kPyramidMinSide);
        mask_built_ = true;
    }
    return lazy_mask_;
}

bool Computed::mask_ready() const { return !device || mask_built_; }

std::string effective_matrix_name(const Parameters& params, const std::string& residues) {
    if (!params.matrix.empty()) return params.matrix;
    return app::detect_alphabet(residues) == app::SeqAlphabet::protein ? "BLOSUM62" : "NUC.4.4";
}

Expected<Problem> build_problem(const JobRequest& req, std::vector<std::string>* qnames,
                                std::vector<std::string>* tnames) {
    const Parameters& prm = req.params;
    if (prm.algo == Algorithm::viterbi) return load_viterbi(req);  // the model is the scoring
    ScoringOptions s;
    s.gaps = {prm.gap_open, prm.gap_extend};
    s.dtw_cost = prm.dtw_cost;
    s.band = prm.algo == Algorithm::dtw && prm.band_on ? prm.band : -1;
    s.dtw_scale = req.engine.dtw_scale;
    if (prm.algo == Algorithm::dtw) {
        auto q = load_signal(req.query, "query");
        if (!q) return q.error();
        auto t = load_signal(req.target, "target");
        if (!t) return t.error();
        return make_dtw_problem(*q, *t, s);
    }
    auto q = load_sequence(req.query, "query", qnames);
    if (!q) return q.error();
    auto t = load_sequence(req.target, "target", tnames);
    if (!t) return t.error();
    if (uses_substitution_matrix(prm.algo)) {
        if (prm.scoring == ScoringMode::match_mismatch) {
            if (prm.match <= 0) return usage_error("match must be > 0");
            if (prm.mismatch > 0) return usage_error("mismatch is a score and must be <= 0");
            s.match = prm.match;
            s.mismatch = prm.mismatch;
        } else {
            auto m = app::load_matrix(effective_matrix_name(prm, q->residues + t->residues));
            if (!m) return m.error();
            s.matrix = std::move(*m);
        }
    }
    return make_problem(prm.algo, *q, *t, s);
}

namespace {

JobOutcome compute_outcome(const JobRequest& req, JobContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    JobOutcome out;
    out.kind = req.kind;
    ctx.set_stage("loading inputs");
    auto problem = build_problem(req, &out.query_records, &out.target_records);
    if (!problem) {
        out.error = problem.error();
        return out;
    }
    out.cells = int64_t(problem->rows()) * problem->cols();
    if (ctx.cancelled()) return out;

    if (req.kind == JobRequest::Kind::all_backends) {
        // Path level: what an alignment costs without keeping the matrices for display.
        for (const BackendChoice b : {BackendChoice::dpx, BackendChoice::dpx_free, BackendChoice::cpu}) {
            if (ctx.cancelled()) return out;
            ctx.set_stage(std::string("timing ") + backend_choice_label(b));
            TimingRow row;
            row.backend = b;
            AlignOptions opt;
            opt.backend = engine_backend(b);
            opt.threads = req.engine.threads;
            opt.level = OutputLevel::path;
            opt.control.cancel = ctx.cancel_flag();
            auto r = align(*problem, opt);
            if (!r && r.error().kind == ErrorKind::cancelled) return out;
            if (!r) {
                row.note = r.error().message;
            } else if (!r->fallback.empty()) {
                row.note = r->fallback;  // the engine ran the CPU instead: not this backend's numbers
            } else {
                row.available = true;
                row.fill_ms = r->fill_ms;
                row.traceback_ms = r->traceback_ms;
                row.cells = r->cells;
                row.note = "ran on " + std::string(backend_name(r->backend));
            }
            out.timings.push_back(std::move(row));
        }
        out.wall_ms = ms_since(t0);
        return out;
    }

    ctx.set_stage("filling " + std::to_string(problem->rows()) + " x " + std::to_string(problem->cols()) + " cells");
    AlignOptions opt;
    opt.backend = engine_backend(req.params.backend);
    opt.threads = req.engine.threads;
    opt.level = OutputLevel::matrix;
    opt.control.cancel = ctx.cancel_flag();  // a newer request or Cancel stops the engine early
    opt.control.progress = [&ctx](double f) { ctx.set_progress(f); };

    std::string device_note;
    // Viterbi's trellis has no GPU-resident form (DeviceMatrices holds H, E, F and direction bits):
    // its matrices come back to the host.
    if (req.device_view && req.params.backend != BackendChoice::cpu && problem->algo != Algorithm::viterbi &&
        device_view_available()) {
        // H's colour table is built on another thread while the GPU traces the path.
        std::future<render::ColorLut> lut;
        render::ColorScale lut_scale;
        const auto on_range = [&](const DeviceRange& r) {
            lut_scale = render::make_color_scale({r.min, r.max, r.any_finite, r.any_unreachable}, req.colors);
            lut = std::async(std::launch::async, [scale = lut_scale] { return render::ColorLut::build(scale); });
        };
        auto d = align_on_device(*problem, req.params.backend != BackendChoice::dpx_free, kPyramidMinSide, opt.control,
                                 on_range);
        if (d && !(problem->algo == Algorithm::dtw && d->result.score >= kPosInf)) {
            ctx.set_stage("preparing the view");
            const auto tp = std::chrono::steady_clock::now();
            auto c = std::make_shared<Computed>();
            c->id = ++g_next_computed;
            c->problem = std::move(*problem);
            c->result = std::move(d->result);
            c->device = std::move(d->matrices);
            c->pair_text = format_pair_text(c->problem, c->result);
            c->caption = format_caption(c->problem, c->result);
            if (lut.valid()) {
                c->lut = std::make_shared<const render::ColorLut>(lut.get());
                c->lut_scale = lut_scale;
            }
            const DeviceStageTimes& t = d->stages;
            c->stages = {true, t.fill, t.borders + t.end_cell + t.traceback + t.alignment, t.pyramid, ms_since(tp), 0.0,
                         t.borders + t.end_cell, t.traceback, t.alignment};
            c->wall_ms = c->stages.total = ms_since(t0);
            out.wall_ms = c->wall_ms;
            out.computed = std::move(c);
            return out;
        }
        if (!d && d.error().kind == ErrorKind::cancelled) {
            out.error = d.error();
            return out;
        }
        // A device error (or DTW without a path, which align() reports): the host path answers.
        if (!d) device_note = "GPU-resident view unavailable (" + d.error().message + "); host path";
    }

    auto r = align(*problem, opt);
    if (!r) {
        out.error = r.error();
        return out;
    }
    if (ctx.cancelled()) return out;

    ctx.set_stage("preparing the view");
    auto tp = std::chrono::steady_clock::now();
    auto c = std::make_shared<Computed>();
    c->id = ++g_next_computed;
    c->problem = std::move(*problem);
    c->result = std::move(*r);
    if (!device_note.empty() && c->result.fallback.empty()) c->result.fallback = device_note;
    c->pair_text = format_pair_text(c->problem, c->result);
    c->caption = format_caption(c->problem, c->result);
    {
        const MatrixRefs refs{&c->result.H, &c->result.E, &c->result.F, &c->result.dirs, {}, &c->result.back};
        c->mask = render::build_mask_pyramid(optimal_mask(c->problem, refs, c->result.score), kPyramidMinSide);
    }
    const bool viterbi = c->problem.algo == Algorithm::viterbi;
    Grid<int32_t> behind = viterbi ? behind_column_best(c->result.H) : Grid<int32_t>{};
    const double prepare_ms = ms_since(tp);
    tp = std::chrono::steady_clock::now();
    Grid<int32_t>* grids[3] = {&c->result.H, &c->result.E, &c->result.F};
    if (viterbi) grids[1] = &behind;  // the engine keeps no E for Viterbi: the view's second layer
    for (int k = 0; k < 3; ++k) {
        if (grids[k]->empty() && k > 0) continue;
        c->range[k] = render::value_range(*grids[k]);
        render::ValuePyramid& dst = k == 0 ? c->h : (k == 1 ? c->e : c->f);
        dst = render::build_value_pyramid(std::move(*grids[k]), kPyramidMinSide);
        if (ctx.cancelled()) return out;
    }
    c->lut_scale = render::make_color_scale(c->range[0], req.colors);
    c->lut = std::make_shared<const render::ColorLut>(render::ColorLut::build(c->lut_scale));
    c->stages = {false, c->result.fill_ms, c->result.traceback_ms, ms_since(tp), prepare_ms, 0.0};
    c->wall_ms = c->stages.total = ms_since(t0);
    out.wall_ms = c->wall_ms;
    out.computed = std::move(c);
    return out;
}

}  // namespace

JobOutcome run_job(const JobRequest& req, JobContext& ctx) {
    // Nothing above the worker thread catches: an exception out of here would end the program.
    // align() checks its estimate first, but the limits move and the view's pyramids, mask and
    // text are not estimated, so an allocation can still fail; the user sees it on the error line.
    JobOutcome out;
    out.kind = req.kind;
    try {
        return compute_outcome(req, ctx);
    } catch (const std::bad_alloc&) {
        out.error = resource_error("out of memory (an allocation failed): try shorter inputs");
    } catch (const std::length_error& e) {
        out.error = resource_error(std::string("out of memory (a size beyond what one allocation can hold: ") +
                                   e.what() + "): try shorter inputs");
    }
    return out;
}

void probe_backends(SystemInfo& info) {
    info.gpu = gpu_description();
    ScoringOptions s;
    auto tiny = make_problem(Algorithm::global, {"a", "ACGT"}, {"b", "ACGA"}, s);
    info.backends_probed = true;
    if (!tiny) {
        info.dpx_note = info.dpx_free_note = tiny.error().message;
        return;
    }
    auto probe = [&](Backend b, bool& ok, std::string& note) {
        AlignOptions opt;
        opt.backend = b;
        opt.level = OutputLevel::score;
        auto r = align(*tiny, opt);
        ok = r && r->fallback.empty();
        note = !r ? r.error().message : r->fallback;
        // "cuda unavailable (REASON); ran on the CPU" -> REASON
        if (const auto a = note.find('('), b2 = note.rfind(')'); !ok && a != std::string::npos && b2 > a)
            note = note.substr(a + 1, b2 - a - 1);
    };
    probe(Backend::cuda, info.dpx_available, info.dpx_note);
    probe(Backend::cuda_portable, info.dpx_free_available, info.dpx_free_note);
}

}  // namespace dpviz::gui
