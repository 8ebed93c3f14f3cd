// The worker's jobs: inputs -> problem -> align (level matrix) -> pyramids, mask and text, on
// the host or kept in GPU memory; "run all backends" for the timing panel; the start-up probe of
// the GPU backends. Also Computed's on-demand host copies and windows of GPU-resident matrices.
#include "gui/compute.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "bench.hpp"
#include "cli_common.hpp"
#include "gui/gcups_scan.hpp"
#include "hmm_file.hpp"
#include "input.hpp"
#include "matrix_file.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {
namespace {

std::atomic<uint64_t> g_next_computed{0};

// render::build_value_pyramid's default: both paths stop pooling at the same level.
constexpr int kPyramidMinSide = 128;
// A window of a GPU-resident matrix reaches this far past what was asked (cells), so small
// pans and neighbouring tooltips need no new copy.
constexpr int kWindowMargin = 32;
// A store result's view windows carry E and F up to this many cells (see view_window).
constexpr int64_t kGapWindowCells = int64_t(1) << 20;

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A new result for the view: its id, the problem, the engine's result and the texts the panels
// show. The caller adds the view's pyramids (or the GPU's matrices) and its stage times.
std::shared_ptr<Computed> new_computed(Problem problem, DpResult result) {
    auto c = std::make_shared<Computed>();
    c->id = ++g_next_computed;
    c->problem = std::move(problem);
    c->result = std::move(result);
    c->pair_text = format_pair_text(c->problem, c->result);
    c->caption = format_caption(c->problem, c->result);
    return c;
}

// The outcome of a job that finished with `c`: its wall clock, from t0 to now, on both.
JobOutcome finished(JobOutcome out, std::shared_ptr<Computed> c, std::chrono::steady_clock::time_point t0) {
    c->wall_ms = c->stages.total = ms_since(t0);
    out.wall_ms = c->wall_ms;
    out.computed = std::move(c);
    return out;
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
    if (l == Layer::landscape) return problem.algo != Algorithm::viterbi;  // none for a trellis (docs/algorithms.md)
    if (device) return device->has_layer(int(l));
    if (stored()) return l == Layer::H;
    const auto& p = pyramid(l);
    return !p.levels.empty() && !p.levels.front().empty();
}

Layer Computed::shown_layer(Layer want) const {
    if (!has_layer(want) || (want == Layer::landscape && !landscape())) return Layer::H;
    return want;
}

render::ValueRange Computed::layer_range(Layer l) const {
    if (l == Layer::landscape) {
        const auto land = landscape();
        return land ? land->range : render::ValueRange{};
    }
    if (!device) return range[int(l)];
    const DeviceRange r = device->range(int(l));
    return {r.min, r.max, r.any_finite, r.any_unreachable};
}

const render::ValuePyramid& Computed::pyramid(Layer l) const {
    static const render::ValuePyramid none;
    switch (l) {
        case Layer::E: return e;
        case Layer::F: return f;
        case Layer::landscape: {
            const auto land = landscape();  // landscape_ keeps it while this result lives
            return land ? land->values : none;
        }
        case Layer::H: break;
    }
    return h;
}

const Grid<int32_t>& Computed::grid(Layer l) const {
    static const Grid<int32_t> none;
    if (l == Layer::landscape) {  // a store result's levels[0] are overview blocks, not cells
        const auto& p = pyramid(l);
        return stored() || p.levels.empty() ? none : p.levels.front();
    }
    if (device) {
        load_host_copy();
        return l == Layer::E ? whole_->E : l == Layer::F ? whole_->F : whole_->H;
    }
    if (stored()) return none;  // never held: the overview is pyramid(H).levels[0]
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

namespace {

std::atomic<uint64_t> g_next_window{0};
std::atomic<void (*)()> g_window_ready{nullptr};

// Cells [w.i0, w.i1) x [w.j0, w.j1) of a store result, exactly. With `land`, their landscape too
// and as the mask the cells at its optimum; without, the path's cells in it (a subset of `path`
// is enough). With `gaps`, E and F (affine gaps) too.
std::shared_ptr<const StoreWindow> compute_store_window(const Problem& p, const Checkpoints& k,
                                                        const std::vector<Cell>& path, Window w,
                                                        const LandscapeLayer* land = nullptr, bool gaps = true) {
    WindowValues v = compute_window(p, k, w, true, gaps);
    auto out = std::make_shared<StoreWindow>();
    out->w = v.w;
    out->on_gpu = v.on_gpu;
    Grid<uint8_t> mask;
    mask.reset(v.w.rows(), v.w.cols(), 0);
    if (land) {
        Grid<int32_t> L = landscape_window(land->source, v.w).H;  // the same clipping: the same cells
        for (size_t x = 0; x < L.data.size(); ++x) mask.data[x] = land->at_optimum(L.data[x]) ? 1 : 0;
        out->landscape = render::build_value_pyramid(std::move(L), kPyramidMinSide);
    } else {
        for (const Cell c : path)
            if (c.i >= v.w.i0 && c.i < v.w.i1 && c.j >= v.w.j0 && c.j < v.w.j1) mask.at(c.i - v.w.i0, c.j - v.w.j0) = 1;
    }
    out->mask = render::build_mask_pyramid(std::move(mask), kPyramidMinSide);
    out->h = render::build_value_pyramid(std::move(v.H), kPyramidMinSide);
    if (!v.E.empty()) out->e = render::build_value_pyramid(std::move(v.E), kPyramidMinSide);
    if (!v.F.empty()) out->f = render::build_value_pyramid(std::move(v.F), kPyramidMinSide);
    out->dirs = std::move(v.dirs);
    out->back = std::move(v.back);  // Viterbi
    out->version = ++g_next_window;
    return out;
}

MatrixRefs store_refs(const StoreWindow& w) {
    const auto level0 = [](const render::ValuePyramid& p) { return p.levels.empty() ? nullptr : &p.levels.front(); };
    return {level0(w.h), level0(w.e), level0(w.f), &w.dirs, {w.w.i0, w.w.j0}, &w.back};
}

}  // namespace

void set_store_window_ready_hook(void (*hook)()) { g_window_ready = hook; }

// The view's window in flight: a thread of its own fills `done`; the Computed may be gone by then.
struct Computed::PendingWindow {
    std::mutex m;
    Window w;
    std::shared_ptr<const StoreWindow> done;  // set once, when ready
};

std::shared_ptr<const StoreWindow> Computed::view_window(int i0, int i1, int j0, int j1, bool wait,
                                                        bool with_landscape) const {
    if (!stored()) return nullptr;
    const Window want{std::clamp(i0, 0, rows()), std::clamp(i1, 0, rows()), std::clamp(j0, 0, cols()),
                      std::clamp(j1, 0, cols())};
    const std::shared_ptr<const LandscapeLayer> land = with_landscape ? landscape() : nullptr;
    const bool need_land = land != nullptr;
    std::lock_guard lock(cache_mutex_);
    if (view_window_ && view_window_->covers(want, need_land)) return view_window_;
    if (pending_) {
        std::shared_ptr<const StoreWindow> done;
        {
            std::lock_guard l(pending_->m);
            done = pending_->done;
        }
        if (done) {
            pending_.reset();
            view_window_ = done;
            if (done->covers(want, need_land)) return done;
        } else if (!wait) {
            return nullptr;  // one at a time: the next call after it ends asks for this one
        }
    }
    // An eighth of the view around it: small pans need no new window.
    const int32_t mi = kWindowMargin + want.rows() / 8, mj = kWindowMargin + want.cols() / 8;
    const Window w{std::max(want.i0 - mi, 0), std::min(want.i1 + mi, rows()), std::max(want.j0 - mj, 0),
                   std::min(want.j1 + mj, cols())};
    // A store result shows E and F (affine gaps) in tables and tooltips only, never as a layer:
    // a view's window carries them while it is small enough for those (a third of the copying).
    const bool gaps = w.cells() <= kGapWindowCells;
    std::vector<Cell> path;
    for (const Cell c : result.path)
        if (c.i >= w.i0 && c.i < w.i1 && c.j >= w.j0 && c.j < w.j1) path.push_back(c);
    if (wait) {
        view_window_ = compute_store_window(problem, *result.checkpoints, path, w, land.get(), gaps);
        return view_window_;
    }
    // Tens to a hundred ms for millions of cells: off the UI thread, which draws the overview
    // until the window is ready (and is woken then).
    if (!shared_problem_) shared_problem_ = std::make_shared<const Problem>(problem);
    pending_ = std::make_shared<PendingWindow>();
    pending_->w = w;
    background_threads().run([slot = pending_, p = shared_problem_, k = result.checkpoints, path = std::move(path), w,
                              land, gaps] {
        auto done = compute_store_window(*p, *k, path, w, land.get(), gaps);
        {
            std::lock_guard l(slot->m);
            slot->done = std::move(done);
        }
        if (auto hook = g_window_ready.load()) hook();
    });
    return nullptr;
}

bool Computed::view_window_pending() const {
    std::lock_guard lock(cache_mutex_);
    return pending_ != nullptr;
}

StoreDraw store_draw(const Computed& c, const render::TexelRequest& want, bool wait, bool landscape) {
    StoreDraw d;
    d.local = d.placed = want;
    if (!c.stored() || want.rows <= 0 || want.cols <= 0 || want.out_w <= 0 || want.out_h <= 0) return d;
    const int32_t B = c.store_block();
    const int32_t ratio = std::min(want.rows / want.out_h, want.cols / want.out_w);  // cells a texel, as pick_level
    if (ratio < B && int64_t(want.rows) * want.cols <= kExactViewCells) {
        d.window = c.view_window(want.i0, want.i0 + want.rows, want.j0, want.j0 + want.cols, wait, landscape);
        if (d.window) {
            d.local.i0 -= d.window->w.i0;
            d.local.j0 -= d.window->w.j0;
            return d;
        }
        d.window_pending = true;  // the overview meanwhile
    }
    // Overview texels: the blocks the request touches, at most one texel each.
    const int32_t i0 = want.i0 / B, j0 = want.j0 / B;
    const int32_t i1 = (want.i0 + want.rows + B - 1) / B, j1 = (want.j0 + want.cols + B - 1) / B;
    d.local = {i0, j0, i1 - i0, j1 - j0, std::min(want.out_w, j1 - j0), std::min(want.out_h, i1 - i0), want.mask};
    d.placed = {i0 * B, j0 * B, std::min(i1 * B, c.rows()) - i0 * B, std::min(j1 * B, c.cols()) - j0 * B,
                d.local.out_w, d.local.out_h, want.mask};
    return d;
}

MatrixRefs Computed::window(int i0, int i1, int j0, int j1) const {
    if (stored()) {
        // The recurrence's inputs: the row and column before the window (a trellis cell reads the
        // whole column before it, which its window recomputes anyway).
        const bool trellis = problem.algo == Algorithm::viterbi;
        const Window want{trellis ? 0 : std::clamp(i0 - 1, 0, rows()), trellis ? rows() : std::clamp(i1, 0, rows()),
                          std::clamp(j0 - 1, 0, cols()), std::clamp(j1, 0, cols())};
        std::lock_guard lock(cache_mutex_);
        if (view_window_ && view_window_->covers(want, false, problem.affine())) return store_refs(*view_window_);
        if (!cell_window_ || !cell_window_->covers(want)) {
            const Window w{std::max(want.i0 - kWindowMargin, 0), std::min(want.i1 + kWindowMargin, rows()),
                           std::max(want.j0 - kWindowMargin, 0), std::min(want.j1 + kWindowMargin, cols())};
            cell_window_ = compute_store_window(problem, *result.checkpoints, result.path, w);
        }
        return store_refs(*cell_window_);
    }
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
    if (stored())
        if (const auto land = landscape()) return land->optimal;  // landscape_ keeps it while this result lives
    if (!device) return mask;
    if (!mask_built_) {
        lazy_mask_ = render::build_mask_pyramid(optimal_mask(problem, refs(), result.score), kPyramidMinSide);
        mask_built_ = true;
    }
    return lazy_mask_;
}

bool Computed::mask_ready() const { return !device || mask_built_; }

// The landscape's build, shared by the result and the thread that builds it (the result may be
// gone by the time it ends).
struct Computed::LandscapeBuild {
    std::atomic<bool> cancel{false};
    std::mutex m;
    LandscapeProgress progress;                  // under m
    std::shared_ptr<const LandscapeLayer> done;  // under m; set once
    void report(const char* stage, double fraction) {
        std::lock_guard l(m);
        progress.stage = stage;
        progress.fraction = fraction;
    }
};

namespace {

// Every cell's landscape in one grid, K x K tile by tile on the forward checkpoint lines (each
// recomputed from its own corner, as landscape_overview's tiles): beside the grid, the memory of
// one tile a thread.
Grid<int32_t> whole_landscape(const LandscapeSource& s, unsigned threads, const RunControl& control) {
    const Problem& p = *s.forward;
    const int32_t M = p.rows(), N = p.cols(), K = s.forward_checkpoints->spacing;
    Grid<int32_t> g;
    g.reset(M + 1, N + 1, minimizes(p.algo) ? kPosInf : kNegInf);
    const int32_t tile_rows = M / K + 1;
    threads = std::clamp(threads, 1u, unsigned(tile_rows));
    std::atomic<int32_t> next{0};
    auto work = [&](unsigned t) {
        for (int32_t r; !control.cancelled() && (r = next.fetch_add(1)) < tile_rows;) {
            if (t == 0) control.report(double(r) / tile_rows);
            // Rows (r K, (r + 1) K], and row 0 with the first; the same for columns.
            const int32_t i0 = r == 0 ? 0 : r * K + 1, i1 = std::min(M + 1, (r + 1) * K + 1);
            for (int32_t c = 0; c * K <= N && i0 < i1; ++c) {
                const int32_t j0 = c == 0 ? 0 : c * K + 1, j1 = std::min(N + 1, (c + 1) * K + 1);
                if (j0 >= j1) continue;
                const WindowValues v = landscape_window(s, {i0, i1, j0, j1});
                for (int32_t i = 0; i < v.H.rows; ++i) std::copy_n(&v.H.at(i, 0), v.H.cols, &g.at(v.w.i0 + i, v.w.j0));
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& th : pool) th.join();
    return g;
}

// The landscape of p: its forward checkpoints (`forward`, a store result's, or filled here), the
// reversed problem's, then every cell (block 0) or the overview at block B. Stages are reported
// with the fraction of the whole build.
Expected<std::shared_ptr<const LandscapeLayer>> build_landscape(
    std::shared_ptr<const Problem> p, std::shared_ptr<const Checkpoints> forward, int32_t block, unsigned threads,
    const std::atomic<bool>* cancel, const std::function<void(const char*, double)>& report) {
    threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    // A stage's share [lo, hi) of the whole: the engine reports fractions of its own run.
    const auto stage = [&](const char* what, double lo, double hi) {
        report(what, lo);
        return RunControl{cancel, [=, &report](double f) { report(what, lo + f * (hi - lo)); }};
    };
    const bool whole = block == 0;
    if (!forward) {
        auto f = fill_checkpoints(*p, kMinCheckpointSpacing, threads, stage("filling the checkpoints", 0.0, 0.2));
        if (!f) return f.error();
        forward = std::make_shared<const Checkpoints>(std::move(*f));
    }
    auto src = landscape_source(*p, forward->spacing, threads,
                                stage("filling the reversed problem", whole ? 0.2 : 0.0, whole ? 0.45 : 0.5), forward.get());
    if (!src) return src.error();
    auto land = std::make_shared<LandscapeLayer>();
    land->problem = std::move(p);
    land->forward = std::move(forward);
    land->source = std::move(*src);
    const RunControl combine = stage("combining both fills", whole ? 0.45 : 0.5, 1.0);
    const bool lowest = minimizes(land->problem->algo);
    if (whole) {
        Grid<int32_t> g = whole_landscape(land->source, threads, combine);
        if (combine.cancelled()) return cancelled_error("the landscape was cancelled");
        land->range = render::value_range(g);
        land->optimum = lowest ? land->range.min : land->range.max;
        land->values = render::build_value_pyramid(std::move(g), kPyramidMinSide);
    } else {
        Overview o = landscape_overview(land->source, block, threads, combine);
        if (combine.cancelled()) return cancelled_error("the landscape was cancelled");
        land->range = {o.min, o.max, o.any_finite, o.any_unreachable};
        land->optimum = lowest ? o.min : o.max;
        // A block's texel is its best cell: the block holds a co-optimal cell when that is the optimum.
        Grid<uint8_t> m;
        m.reset(o.H.rows, o.H.cols, 0);
        for (size_t k = 0; k < m.data.size(); ++k) m.data[k] = land->at_optimum(o.H.data[k]) ? 1 : 0;
        land->optimal = render::build_mask_pyramid(std::move(m), kPyramidMinSide);
        land->values = render::build_value_pyramid(std::move(o.H), kPyramidMinSide);
    }
    return std::shared_ptr<const LandscapeLayer>(std::move(land));
}

}  // namespace

Computed::~Computed() {
    if (landscape_build_) landscape_build_->cancel = true;  // nobody will look at it
}

void Computed::request_landscape(unsigned threads, bool wait) const {
    if (!has_layer(Layer::landscape)) return;
    std::shared_ptr<LandscapeBuild> b;
    bool start = false;
    std::shared_ptr<const Problem> p;
    {
        std::lock_guard lock(cache_mutex_);
        if (landscape_) return;
        if (!landscape_build_) {
            landscape_build_ = std::make_shared<LandscapeBuild>();
            landscape_build_->progress.started = true;
            start = true;
        }
        b = landscape_build_;
        if (!shared_problem_) shared_problem_ = std::make_shared<const Problem>(problem);
        p = shared_problem_;
    }
    if (start) {
        auto run = [b, p, forward = stored() ? result.checkpoints : nullptr, block = stored() ? store_block() : 0,
                    threads] {
            std::string error;
            std::shared_ptr<const LandscapeLayer> done;
            // Nothing above this thread catches: an allocation that fails ends here, in words.
            try {
                auto r = build_landscape(p, forward, block, threads, &b->cancel,
                                         [&b](const char* stage, double f) { b->report(stage, f); });
                if (r) done = std::move(*r);
                else error = r.error().message;
            } catch (const std::bad_alloc&) {
                error = "the landscape needs more memory than is free";
            } catch (const std::length_error&) {
                error = "the landscape needs more memory than one allocation can hold";
            }
            {
                std::lock_guard l(b->m);
                b->done = std::move(done);
                b->progress.error = std::move(error);
            }
            if (auto hook = g_window_ready.load()) hook();
        };
        if (wait) run();
        else background_threads().run(std::move(run), std::shared_ptr<std::atomic<bool>>(b, &b->cancel));
        return;
    }
    for (bool ended = false; wait && !ended;) {  // a build already in flight
        {
            std::lock_guard l(b->m);
            ended = b->done || !b->progress.error.empty();
        }
        if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

std::shared_ptr<const LandscapeLayer> Computed::landscape() const {
    std::lock_guard lock(cache_mutex_);
    if (!landscape_ && landscape_build_) {
        std::lock_guard l(landscape_build_->m);
        landscape_ = landscape_build_->done;
    }
    return landscape_;
}

LandscapeProgress Computed::landscape_progress() const {
    if (landscape()) return {true, "", 1.0, ""};
    std::lock_guard lock(cache_mutex_);
    if (!landscape_build_) return {};
    std::lock_guard l(landscape_build_->m);
    return landscape_build_->progress;
}

MatrixRefs Computed::landscape_cells(int i0, int i1, int j0, int j1) const {
    const auto land = landscape();
    if (!land || land->values.levels.empty()) return {};
    if (!stored()) return {&land->values.levels.front()};
    const Window want{std::clamp(i0, 0, rows()), std::clamp(i1, 0, rows()), std::clamp(j0, 0, cols()),
                      std::clamp(j1, 0, cols())};
    std::lock_guard lock(cache_mutex_);
    if (view_window_ && view_window_->covers(want, true))
        return {&view_window_->landscape.levels.front(), nullptr, nullptr, nullptr, {view_window_->w.i0, view_window_->w.j0}};
    const Window& have = landscape_cells_.w;
    if (landscape_cells_.H.empty() || want.i0 < have.i0 || want.j0 < have.j0 || want.i1 > have.i1 || want.j1 > have.j1)
        landscape_cells_ = landscape_window(land->source, {std::max(want.i0 - kWindowMargin, 0), std::min(want.i1 + kWindowMargin, rows()),
                                                           std::max(want.j0 - kWindowMargin, 0), std::min(want.j1 + kWindowMargin, cols())});
    return {&landscape_cells_.H, nullptr, nullptr, nullptr, {landscape_cells_.w.i0, landscape_cells_.w.j0}};
}

std::string effective_matrix_name(const Parameters& params, const std::string& residues) {
    if (!params.matrix.empty()) return params.matrix;
    return app::detect_alphabet(residues) == app::SeqAlphabet::protein ? "BLOSUM62" : "NUC.4.4";
}

Expected<ScoringOptions> scoring_options(const Parameters& prm) {
    ScoringOptions s;
    s.dtw_cost = prm.dtw_cost;
    s.band = prm.algo == Algorithm::dtw && prm.band_on ? prm.band : -1;
    if (!uses_gap_penalties(prm.algo)) return s;  // edit, LCS, DTW, Viterbi: no scores to scale
    // The command line's rule (app/cli_common.hpp), on the GUI's values and in its names.
    const bool mm = prm.scoring == ScoringMode::match_mismatch;
    const app::UserScores v{prm.gap_open.value, prm.gap_extend.value, mm ? prm.match.value : 100,
                            mm ? prm.mismatch.value : -100, mm};
    if (Status st = app::scale_scores(v, "", s); !st) return st.error();
    return s;
}

Expected<Problem> build_problem(const JobRequest& req, std::vector<std::string>* qnames,
                                std::vector<std::string>* tnames) {
    const Parameters& prm = req.params;
    if (prm.algo == Algorithm::viterbi) return load_viterbi(req);  // the model is the scoring
    auto scoring = scoring_options(prm);
    if (!scoring) return scoring.error();
    ScoringOptions& s = *scoring;
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
    if (uses_substitution_matrix(prm.algo) && prm.scoring == ScoringMode::matrix) {  // match/mismatch: scoring_options
        auto m = app::load_matrix(effective_matrix_name(prm, q->residues + t->residues));
        if (!m) return m.error();
        s.matrix = std::move(*m);
    }
    return make_problem(prm.algo, *q, *t, s);
}

namespace {

// The store path: a fill that keeps checkpoints and pools the overview (on the GPU when the
// backend is one, as align() routes it; its windows are then recomputed there too); the view's
// pyramid starts at the overview (one texel per block), the path's mask at its blocks.
JobOutcome store_outcome(const JobRequest& req, JobContext& ctx, Problem problem, AlignOptions opt,
                         std::string note, std::chrono::steady_clock::time_point t0, JobOutcome out) {
    opt.path_memory = PathMemory::checkpoints;
    opt.overview_side = std::max(req.engine.store_overview_side, 1);
    auto r = align(problem, opt);
    if (!r) {
        out.error = r.error();
        return out;
    }
    if (ctx.cancelled()) return out;
    if (!r->checkpoints || !r->overview) {
        out.error = resource_error("the result store kept no checkpoints for this matrix");
        return out;
    }
    ctx.set_stage("preparing the view");
    auto tp = std::chrono::steady_clock::now();
    auto c = new_computed(std::move(problem), std::move(*r));
    if (!note.empty()) c->result.fallback = c->result.fallback.empty() ? note : c->result.fallback + "; " + note;
    const Overview& o = *c->result.overview;
    {
        Grid<uint8_t> m;
        m.reset(o.H.rows, o.H.cols, 0);
        for (const Cell b : overview_path(o, c->result.path))
            if (b.i >= 0 && b.j >= 0 && b.i < m.rows && b.j < m.cols) m.at(b.i, b.j) = 1;
        c->mask = render::build_mask_pyramid(std::move(m), kPyramidMinSide);
    }
    const double prepare_ms = ms_since(tp);
    tp = std::chrono::steady_clock::now();
    c->range[0] = {o.min, o.max, o.any_finite, o.any_unreachable};
    c->h = render::build_value_pyramid(o.H, kPyramidMinSide);
    c->lut_scale = render::make_color_scale(c->range[0], req.colors);
    c->lut = std::make_shared<const render::ColorLut>(render::ColorLut::build(c->lut_scale));
    c->stages = {false, true, c->result.fill_ms, c->result.traceback_ms, ms_since(tp), prepare_ms, 0.0};
    return finished(std::move(out), std::move(c), t0);
}

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

    if (req.kind == JobRequest::Kind::gcups_scan) {
        if (problem->algo == Algorithm::viterbi) {
            out.error = usage_error("GCUPS vs size fills squares: a Viterbi trellis's rows are the model's states");
            return out;
        }
        out.gcups = run_gcups_scan(req, *problem, ctx, &out.gcups_what);
        out.wall_ms = ms_since(t0);
        out.cells = 0;  // not the shown inputs' throughput
        return out;
    }
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
            bool cancelled = false;
            const auto runs = timed_runs(kRunAllRule, [&]() -> std::optional<RunTimes> {
                const auto t0 = std::chrono::steady_clock::now();
                auto r = align(*problem, opt);
                if (!r && r.error().kind == ErrorKind::cancelled) cancelled = true;
                if (!r) {
                    row.note = r.error().message;
                    return std::nullopt;
                }
                if (!r->fallback.empty()) {
                    row.note = r->fallback;  // the engine ran the CPU instead: not this backend's numbers
                    return std::nullopt;
                }
                row.cells = r->cells;
                row.kernel = app::ran_kernel_name(*problem, *r);
                row.note = "ran on " + std::string(backend_name(r->backend));
                return RunTimes{ms_since(t0), r->fill_ms, r->traceback_ms};
            });
            if (cancelled) return out;
            if (runs) {
                std::vector<double> fill, traceback;
                for (const RunTimes& t : *runs) {
                    fill.push_back(t.fill_ms);
                    traceback.push_back(t.traceback_ms);
                }
                row.available = true;
                row.fill_ms = app::median(fill);
                row.traceback_ms = app::median(traceback);
                row.runs = int(runs->size());
                row.rows = problem->rows();
            } else {
                row.kernel.clear();
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

    opt.hints = HintStyle::gui;

    // Whole matrices this big on the host are not held: the store keeps checkpoints and an
    // overview (on the CPU, the only backend that fills a store). The GPU-resident path below
    // holds them in GPU memory instead and goes first when it runs.
    const int64_t cells = int64_t(problem->rows() + 1) * (problem->cols() + 1);
    const auto fits = [&] {
        const auto have = available_host_bytes();
        return have && estimate_host_bytes(*problem, OutputLevel::matrix) <= *have;
    };
    const bool store = cells >= req.engine.store_from_cells || !fits();

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
            auto c = new_computed(std::move(*problem), std::move(d->result));
            c->device = std::move(d->matrices);
            if (lut.valid()) {
                c->lut = std::make_shared<const render::ColorLut>(lut.get());
                c->lut_scale = lut_scale;
            }
            const DeviceStageTimes& t = d->stages;
            c->stages = {true, false, t.fill, t.borders + t.end_cell + t.traceback + t.alignment, t.pyramid, ms_since(tp), 0.0,
                         t.borders + t.end_cell, t.traceback, t.alignment};
            return finished(std::move(out), std::move(c), t0);
        }
        if (!d && d.error().kind == ErrorKind::cancelled) {
            out.error = d.error();
            return out;
        }
        // A device error (or DTW without a path, which align() reports): the host path answers.
        if (!d)
            device_note = "GPU-resident view unavailable (" + d.error().message + "); " +
                          (store ? "result store" : "host path");
    }

    if (store) return store_outcome(req, ctx, std::move(*problem), opt, device_note, t0, std::move(out));

    auto r = align(*problem, opt);
    if (!r) {
        out.error = r.error();
        return out;
    }
    if (ctx.cancelled()) return out;

    ctx.set_stage("preparing the view");
    auto tp = std::chrono::steady_clock::now();
    auto c = new_computed(std::move(*problem), std::move(*r));
    if (!device_note.empty() && c->result.fallback.empty()) c->result.fallback = device_note;
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
    c->stages = {false, false, c->result.fill_ms, c->result.traceback_ms, ms_since(tp), prepare_ms, 0.0};
    return finished(std::move(out), std::move(c), t0);
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
    info.gpu_figures = app::parse_gpu_figures(info.gpu).value_or(app::GpuFigures{});
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
