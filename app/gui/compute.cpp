// The worker's jobs: inputs -> problem -> align (level matrix) -> pyramids, mask and text;
// "run all backends" for the timing panel; the start-up probe of the GPU backends.
#include "gui/compute.hpp"

#include <atomic>
#include <chrono>
#include <sstream>

#include "input.hpp"
#include "matrix_file.hpp"

namespace dpviz::gui {
namespace {

std::atomic<uint64_t> g_next_computed{0};

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
    const auto& p = pyramid(l);
    return !p.levels.empty() && !p.levels.front().empty();
}

const render::ValuePyramid& Computed::pyramid(Layer l) const {
    switch (l) {
        case Layer::E: return e;
        case Layer::F: return f;
        case Layer::H: break;
    }
    return h;
}

MatrixRefs Computed::refs() const {
    static const Grid<int32_t> none;
    auto first = [&](const render::ValuePyramid& p) { return p.levels.empty() ? &none : &p.levels.front(); };
    return {first(h), first(e), first(f), &result.dirs};
}

std::string effective_matrix_name(const Parameters& params, const std::string& residues) {
    if (!params.matrix.empty()) return params.matrix;
    return app::detect_alphabet(residues) == app::SeqAlphabet::protein ? "BLOSUM62" : "NUC.4.4";
}

Expected<Problem> build_problem(const JobRequest& req, std::vector<std::string>* qnames,
                                std::vector<std::string>* tnames) {
    const Parameters& prm = req.params;
    ScoringOptions s;
    s.gaps = {prm.gap_open, prm.gap_extend};
    s.dtw_cost = prm.dtw_cost;
    s.band = prm.algo == Algorithm::dtw && prm.band_on ? prm.band : -1;
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

JobOutcome run_job(const JobRequest& req, JobContext& ctx) {
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
            opt.level = OutputLevel::path;
            auto r = align(*problem, opt);
            if (!r) {
                row.note = r.error().message;
            } else if (!r->fallback.empty()) {
                row.note = r->fallback;  // the engine ran the CPU instead: not this backend's numbers
            } else {
                row.available = true;
                row.fill_ms = r->fill_ms;
                row.traceback_ms = r->traceback_ms;
                row.cells = r->cells;
                row.note = "ran on " + r->backend;
            }
            out.timings.push_back(std::move(row));
        }
        out.wall_ms = ms_since(t0);
        return out;
    }

    ctx.set_stage("filling " + std::to_string(problem->rows()) + " x " + std::to_string(problem->cols()) + " cells");
    AlignOptions opt;
    opt.backend = engine_backend(req.params.backend);
    opt.level = OutputLevel::matrix;
    auto r = align(*problem, opt);
    if (!r) {
        out.error = r.error();
        return out;
    }
    if (ctx.cancelled()) return out;

    ctx.set_stage("preparing the view");
    auto c = std::make_shared<Computed>();
    c->id = ++g_next_computed;
    c->problem = std::move(*problem);
    c->result = std::move(*r);
    c->pair_text = format_pair_text(c->problem, c->result);
    c->caption = format_caption(c->problem, c->result);
    {
        const MatrixRefs refs{&c->result.H, &c->result.E, &c->result.F, &c->result.dirs};
        c->mask = render::build_mask_pyramid(optimal_mask(c->problem, refs, c->result.score));
    }
    Grid<int32_t>* grids[3] = {&c->result.H, &c->result.E, &c->result.F};
    for (int k = 0; k < 3; ++k) {
        if (grids[k]->empty() && k > 0) continue;
        c->range[k] = render::value_range(*grids[k]);
        render::ValuePyramid& dst = k == 0 ? c->h : (k == 1 ? c->e : c->f);
        dst = render::build_value_pyramid(std::move(*grids[k]));
        if (ctx.cancelled()) return out;
    }
    c->wall_ms = ms_since(t0);
    out.wall_ms = c->wall_ms;
    out.computed = std::move(c);
    return out;
}

void probe_backends(SystemInfo& info) {
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
