// In-app measurements and the seeded random pair (see measure.hpp).
#include "gui/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <random>

#include "cli_common.hpp"
#include "gui/compute.hpp"
#include "gui/frame.hpp"

namespace dpviz::gui {
namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::pair<std::string, std::string> random_dna_pair(int length, uint64_t seed) {
    static constexpr char kBases[] = "ACGT";
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> base(0, 3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::string q(size_t(std::max(length, 0)), 'A');
    for (char& c : q) c = kBases[base(rng)];
    std::string t;
    t.reserve(q.size() + q.size() / 8);
    for (const char c : q) {
        const double x = u(rng);
        if (x < 0.05) continue;                 // deletion
        if (x < 0.10) t += kBases[base(rng)];   // insertion before this residue
        if (x >= 0.10 && x < 0.20) {            // substitution (a different base)
            char d;
            do d = kBases[base(rng)];
            while (d == c);
            t += d;
        } else {
            t += c;
        }
    }
    return {q, t};
}

Summary summarize(std::vector<double> v) {
    Summary s;
    s.n = int(v.size());
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    s.p90 = v[std::min(v.size() - 1, size_t(std::ceil(0.9 * double(v.size()))) - 1)];
    return s;
}

void InteractiveMeasure::before_frame(AppState& s) {
    if (pending_ || started_ >= opt_.interactive + kWarmup || !error_.empty()) return;
    if (!s.result || s.job.busy || s.requests.compute) return;  // the first result (or the last trial's) first
    if (s.view.texture.result_id != s.result->id) return;       // ... on screen
    if (started_ == 0) base_open_ = s.params.gap_open;
    // Alternate between two gap-open values: every change is a real recompute of the same shape.
    s.params.gap_open = (started_ % 2 == 0) ? Hundredths{base_open_.value + 100} : base_open_;
    if (s.params.gap_extend > s.params.gap_open) s.params.gap_extend = s.params.gap_open;
    before_id_ = s.result->id;
    s.requests.compute = true;
    pending_ = true;
    t0_ = now_ms();
    t_submit_ = t_collect_ = -1;
    ++started_;
}

void InteractiveMeasure::after_submit(const AppState& s) {
    if (pending_ && t_submit_ < 0 && !s.requests.compute) t_submit_ = now_ms();
}

void InteractiveMeasure::after_collect(const AppState& s) {
    if (pending_ && t_collect_ < 0 && s.result && s.result->id != before_id_) t_collect_ = now_ms();
}

bool InteractiveMeasure::after_frame(const AppState& s, uint64_t drawn_result, double upload_ms) {
    if (!error_.empty()) return true;
    if (!s.result && !s.job.busy && !s.requests.compute && !s.error.empty()) {
        error_ = "no result to measure: " + s.error;
        return true;
    }
    if (opt_.interactive <= 0) return s.result && !s.job.busy && drawn_result == s.result->id;
    if (pending_) {
        if (!s.job.busy && !s.requests.compute && !s.error.empty() && (!s.result || s.result->id == before_id_)) {
            error_ = "the recompute failed: " + s.error;
            return true;
        }
        if (s.result && s.result->id != before_id_ && drawn_result == s.result->id) {
            // This frame drew the new texture and path, and glFinish returned.
            const double latency = now_ms() - t0_;
            pending_ = false;
            if (started_ > kWarmup) {
                const StageTimes& st = s.result->stages;
                const double now = t0_ + latency;
                const double sub = t_submit_ < 0 ? t0_ : t_submit_, col = t_collect_ < 0 ? now : t_collect_;
                trials_.push_back({latency, st.total, st.fill, s.result->result.fill_ms, st.traceback, st.end_cell,
                                   st.path, st.alignment, st.pyramid, st.prepare, upload_ms, sub - t0_, col - sub,
                                   now - col, ui_ms_, gl_ms_});
            }
        }
    }
    return !pending_ && started_ >= opt_.interactive + kWarmup;
}

void InteractiveMeasure::time_windows(const Computed& c, int side) {
    std::mt19937_64 rng(20261201);
    const int h = std::min(side, c.rows() + 1), w = std::min(side, c.cols() + 1);
    for (int k = 0; k < opt_.window; ++k) {
        const int i0 = int(rng() % uint64_t(c.rows() + 2 - h)), j0 = int(rng() % uint64_t(c.cols() + 2 - w));
        // The engine's exact window alone, then the view's (its margins, mask and pyramids).
        double t0 = now_ms();
        (void)compute_window(c.problem, *c.result.checkpoints, Window{i0, i0 + h, j0, j0 + w}, true, false);
        engine_window_ms_.push_back(now_ms() - t0);
        t0 = now_ms();
        const auto got = c.view_window(i0, i0 + h, j0, j0 + w, true);
        window_ms_.push_back(now_ms() - t0);
        if (!got) continue;
        window_ = got->w;
        window_gpu_ += got->on_gpu;
    }
    engine_window_ = Window{0, h, 0, w};
}

std::string InteractiveMeasure::waiting_for(const AppState& s, uint64_t drawn_result) const {
    std::string what;
    const int total = opt_.interactive + kWarmup;
    if (opt_.interactive <= 0 || started_ == 0) what = "the first result on screen";
    else if (pending_)
        what = "change " + std::to_string(started_) + " of " + std::to_string(total) + " (gap open " +
               s.params.gap_open.text() + ", " + std::to_string(kWarmup) + " of them warm-up) to reach the screen";
    else what = "change " + std::to_string(started_ + 1) + " of " + std::to_string(total) + " to start";
    std::string detail = pending_work(s, false);
    // The texture the loop drew last (the measured frame's), not the one the panel reports.
    if (detail.empty() && s.result && drawn_result != s.result->id) detail = "the matrix texture of the new result";
    return detail.empty() ? what : what + ": " + detail;
}

void InteractiveMeasure::report(const AppState& s, std::ostream& out, std::ostream& err) const {
    if (!error_.empty()) {
        err << "dpviz: --measure-interactive: " << error_ << "\n";
        return;
    }
    const Computed* c = s.result.get();
    const bool resident = c && c->resident();
    char line[256];
    out << "dpviz: measurement\n";
    if (c) {
        std::snprintf(line, sizeof line, "  problem: %s %d x %d (%s), backend %s, score %s\n",
                      std::string(algorithm_name(c->problem.algo)).c_str(), c->problem.rows(), c->problem.cols(),
                      c->problem.matrix.name.c_str(), std::string(backend_name(c->result.backend)).c_str(),
                      value_text(c->problem, c->result.score).c_str());
        out << line;
    }
    out << "  GL_RENDERER: " << s.system.gl_renderer << "\n";
    out << "  texture path: " << s.system.upload_path << " (" << s.system.upload_note << ")\n";
    const bool stored = c && c->stored();
    out << "  view path: "
        << (resident ? std::string("GPU-resident (fill, pyramid, path on the GPU; texture written from device memory)")
            : stored ? std::string("result store (checkpoints + overview filled on the ") +
                           (c->store_on_gpu() ? "GPU" : "CPU") + "; windows recomputed exactly there)"
                     : std::string("host (matrices copied to the host, pooled and uploaded there)"))
        << "\n";
    out << "  GPU: " << s.system.gpu << "\n";
    struct Column {
        const char* name;
        double Trial::*field;
    };
    static constexpr Column kColumns[] = {
        {"request -> frame on screen", &Trial::latency}, {"  job on the worker", &Trial::job},
        {"    fill (allocations, uploads, kernel)", &Trial::fill},
        {"      fill kernel alone", &Trial::fill_kernel}, {"    end cell + traceback", &Trial::traceback},
        {"      borders + end cell (GPU)", &Trial::end_cell}, {"      path (GPU)", &Trial::path},
        {"      alignment text (GPU path)", &Trial::align_text},
        {"    pyramid + ranges", &Trial::pyramid},      {"    view prep (text, mask)", &Trial::prepare},
        {"  view update (colour table + texture)", &Trial::upload},
        {"  request -> job submitted", &Trial::to_submit},
        {"  job submitted -> result taken by the UI", &Trial::to_collect},
        {"  result taken -> frame on screen", &Trial::to_screen},
        {"    that frame: panels + ImGui::Render", &Trial::frame_ui},
        {"    that frame: GL draw + glFinish", &Trial::frame_gl},
    };
    std::vector<std::pair<std::string, Summary>> rows;
    if (!trials_.empty()) {
        std::snprintf(line, sizeof line, "  %d gap-open changes (%s <-> %s), %d warm-up first\n", int(trials_.size()),
                      base_open_.text().c_str(), Hundredths{base_open_.value + 100}.text().c_str(), kWarmup);
        out << line;
        for (const Column& col : kColumns) {
            std::vector<double> v;
            for (const Trial& t : trials_) v.push_back(t.*(col.field));
            rows.emplace_back(col.name, summarize(v));
        }
    }
    if (!upload_ms_.empty()) {
        std::snprintf(line, sizeof line, "texture update %dx%d view", upload_w_, upload_h_);
        rows.emplace_back(line, summarize(upload_ms_));
    }
    std::snprintf(line, sizeof line, "  %-40s %9s %9s %9s %9s %5s\n", "ms", "median", "p90", "min", "max", "n");
    out << line;
    for (const auto& [name, m] : rows) {
        std::snprintf(line, sizeof line, "  %-40s %9.3f %9.3f %9.3f %9.3f %5d\n", name.c_str(), m.median, m.p90, m.min, m.max,
                      m.n);
        out << line;
    }
    if (!window_ms_.empty()) {
        std::snprintf(line, sizeof line, "  exact windows: %dx%d cells (compute_window), and the view's %dx%d (its margins, "
                      "mask and pyramids), %d of %d on the GPU\n", engine_window_.rows(), engine_window_.cols(),
                      window_.rows(), window_.cols(), window_gpu_, int(window_ms_.size()));
        out << line;
        for (const auto& [name, v] : {std::pair{"  window: H and bits (engine)", &engine_window_ms_},
                                      std::pair{"  window: the view's, ready to draw", &window_ms_}}) {
            const Summary m = summarize(*v);
            std::snprintf(line, sizeof line, "  %-40s %9.3f %9.3f %9.3f %9.3f %5d\n", name, m.median, m.p90, m.min, m.max, m.n);
            out << line;
        }
    }
    if (upload_b2b_ms_ >= 0) {
        std::snprintf(line, sizeof line, "  texture update %dx%d, %d back to back: %.3f ms per draw\n", upload_w_, upload_h_,
                      int(upload_ms_.size()), upload_b2b_ms_);
        out << line;
    }
    if (!opt_.json) return;
    auto obj = [](const Summary& m) {
        char b[160];
        std::snprintf(b, sizeof b, "{\"median\":%.4f,\"p90\":%.4f,\"min\":%.4f,\"max\":%.4f,\"n\":%d}", m.median, m.p90,
                      m.min, m.max, m.n);
        return std::string(b);
    };
    static constexpr const char* kKeys[] = {"latency_ms",  "job_ms",     "fill_ms",    "fill_kernel_ms",
                                            "traceback_ms", "end_cell_ms", "path_ms", "alignment_text_ms",
                                            "pyramid_ms", "prepare_ms", "view_update_ms",
                                            "to_submit_ms", "to_collect_ms", "to_screen_ms", "frame_ui_ms",
                                            "frame_gl_ms"};
    out << "{\"gl_renderer\":\"" << app::json_escape(s.system.gl_renderer) << "\",\"texture_path\":\""
        << app::json_escape(s.system.upload_path) << "\",\"gpu_resident\":" << (resident ? "true" : "false")
        << ",\"result_store\":" << (stored ? "true" : "false") << ",\"gpu\":\""
        << app::json_escape(s.system.gpu) << "\"";
    if (c)
        out << ",\"algo\":\"" << algorithm_name(c->problem.algo) << "\",\"rows\":" << c->problem.rows()
            << ",\"cols\":" << c->problem.cols() << ",\"backend\":\"" << backend_name(c->result.backend) << "\"";
    static_assert(std::size(kKeys) == std::size(kColumns), "one JSON key per column");
    size_t k = 0;
    if (!trials_.empty())
        for (; k < std::size(kKeys); ++k) out << ",\"" << kKeys[k] << "\":" << obj(rows[k].second);
    if (!upload_ms_.empty())
        out << ",\"upload\":{\"width\":" << upload_w_ << ",\"height\":" << upload_h_ << ",\"ms\":" << obj(rows.back().second)
            << ",\"back_to_back_ms\":" << upload_b2b_ms_ << "}";
    if (!window_ms_.empty())
        out << ",\"window\":{\"rows\":" << engine_window_.rows() << ",\"cols\":" << engine_window_.cols()
            << ",\"engine_ms\":" << obj(summarize(engine_window_ms_)) << ",\"view_rows\":" << window_.rows()
            << ",\"view_cols\":" << window_.cols() << ",\"on_gpu\":" << window_gpu_
            << ",\"view_ms\":" << obj(summarize(window_ms_)) << "}";
    out << "}\n";
}

}  // namespace dpviz::gui
