// The work the GUI's worker does: load both inputs, build the problem, align at level matrix,
// and prepare what the view needs (value pyramids, the optimal-path mask, the pair text).
// Also "run all backends" for the timing panel and the start-up probe of the GPU backends.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/render/gl_view_pixels.hpp"
#include "gui/app_state.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/jobs.hpp"

namespace dpviz::gui {

struct Computed {
    uint64_t id = 0;
    Problem problem;
    DpResult result;  // its H, E, F live in the pyramids below (levels[0])
    render::ValuePyramid h, e, f;
    render::MaskPyramid mask;
    render::ValueRange range[3];  // per layer (H, E, F): finite min/max, for the color scale
    std::string pair_text;  // EMBOSS-style text (format_pair_text)
    std::string caption;    // one line: algorithm, inputs, parameters, score, backend
    double wall_ms = 0.0;   // the whole job

    int rows() const { return problem.rows() + 1; }
    int cols() const { return problem.cols() + 1; }
    bool has_layer(Layer l) const;
    const render::ValuePyramid& pyramid(Layer l) const;
    const Grid<int32_t>& grid(Layer l) const { return pyramid(l).levels.front(); }
    MatrixRefs refs() const;
};

struct JobRequest {
    enum class Kind { align, all_backends } kind = Kind::align;
    InputSide query, target;
    Parameters params;
};

struct JobOutcome {
    JobRequest::Kind kind = JobRequest::Kind::align;
    std::shared_ptr<const Computed> computed;
    std::optional<Error> error;
    std::vector<std::string> query_records, target_records;  // record names of file inputs
    std::vector<TimingRow> timings;                          // all_backends
    double wall_ms = 0.0;
    int64_t cells = 0;
};

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
