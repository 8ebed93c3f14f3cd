// Assets lookup, non-clobbering export names and the exports (files.hpp).
#include "gui/files.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/render/heatmap.hpp"
#include "dpviz/render/output_file.hpp"
#include "dpviz/render/png.hpp"
#include "gui/compute.hpp"

namespace dpviz::gui {

namespace fs = std::filesystem;

std::string unique_path(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return path;
    const fs::path p(path);
    const std::string stem = p.stem().string(), ext = p.extension().string();
    for (int n = 1; n < 100000; ++n) {
        const fs::path candidate = p.parent_path() / (stem + "-" + std::to_string(n) + ext);
        if (!fs::exists(candidate, ec)) return candidate.string();
    }
    return path;  // 100000 siblings: give up on suffixes rather than loop forever
}

namespace {

// RFC 4180: a field with a comma, a quote or a line break goes in quotes, its quotes doubled.
std::string csv_field(const std::string& v) {
    if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
    std::string q = "\"";
    for (const char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

// Viterbi: path[0] is the begin cell (0, 0), then one cell (state + 1, t) per observation.
std::string viterbi_path_csv(const Problem& p, const std::vector<Cell>& path) {
    std::ostringstream o;
    o << "step,t,state,observation\n";
    for (size_t k = 1; k < path.size(); ++k) {
        const Cell c = path[k];
        o << k << "," << c.j << "," << csv_field(p.hmm->states[size_t(c.i - 1)]) << ","
          << csv_field(std::string(1, p.target[size_t(c.j - 1)])) << "\n";
    }
    return o.str();
}

}  // namespace

std::string path_csv(const Problem& p, const std::vector<Cell>& path) {
    if (p.algo == Algorithm::viterbi) return viterbi_path_csv(p, path);
    std::ostringstream o;
    const bool dtw = p.algo == Algorithm::dtw;
    o << "step,i,j,move," << (dtw ? "query_value,target_value" : "query_residue,target_residue") << "\n";
    // path[0] is where the traceback stopped: (0, 0), a border cell, or the local start cell
    // whose H is 0. It is the cell before the alignment, so the rows are the steps after it.
    for (size_t k = 1; k < path.size(); ++k) {
        const Cell from = path[k - 1], c = path[k];
        const bool down = c.i > from.i, right = c.j > from.j;
        const char move = down && right ? 'M' : (down ? 'I' : 'D');
        o << k << "," << c.i << "," << c.j << "," << move << ",";
        if (dtw) {
            // A warping-path cell always pairs two samples: I and D repeat the other side's.
            o << p.query_signal[size_t(c.i - 1)] << "," << p.target_signal[size_t(c.j - 1)];
        } else {
            o << (down ? p.query[size_t(c.i - 1)] : '-') << "," << (right ? p.target[size_t(c.j - 1)] : '-');
        }
        o << "\n";
    }
    return o.str();
}

std::string export_target(const ExportSettings& s, ExportKind kind, const std::string& suffix) {
    const char* ext = ".png";
    std::string name = s.stem.empty() ? "dpviz" : s.stem;
    switch (kind) {
        case ExportKind::matrix_png: name += "-matrix" + suffix; break;
        case ExportKind::window_png: name += "-window"; break;
        case ExportKind::alignment_text: name += "-alignment", ext = ".txt"; break;
        case ExportKind::path_csv: name += "-path", ext = ".csv"; break;
    }
    const fs::path p = fs::path(s.folder.empty() ? "." : s.folder) / (name + ext);
    return s.overwrite ? p.string() : unique_path(p.string());
}

render::HeatmapOptions matrix_png_options(const AppState& s) {
    render::HeatmapOptions opt;
    if (!s.result) return opt;
    const Computed& c = *s.result;
    const Layer layer = c.shown_layer(s.view.layer);
    // One pixel per cell (at least) up to the limit: the full-resolution matrix.
    opt.max_side = std::clamp(std::max({c.rows(), c.cols(), 1024}), 1, std::min(s.export_settings.png_max_side,
                                                                              render::kMaxImageSide));
    opt.auto_colormap = s.view.auto_colormap;
    opt.colormap = s.view.colormap;
    opt.draw_path = s.view.show_path;
    opt.caption = c.caption + (layer == Layer::H   ? ""
                               : layer == Layer::E ? "  (layer E)"
                               : layer == Layer::F ? "  (layer F)"
                                                   : app::kLandscapeCaption);
    opt.value_text = [&p = c.problem](int64_t v) { return value_text(p, v); };
    if (c.problem.algo == Algorithm::viterbi) {
        // The colorbar is labelled in ln p (value_text).
        opt.row_label = "states (rows)";
        opt.col_label = "observations (columns)";
        opt.caption = c.caption + (layer == Layer::E ? "  (delta - best of its column)" : "  (delta)") +
                      "; colorbar in ln p (computed as ln p x 2^" + std::to_string(c.problem.hmm_fixed->scale_log2) +
                      " in int32)";
    }
    if (c.stored()) {
        // The overview's blocks stand for the whole matrix, as `dpviz align --png` draws them.
        const Overview& o = *c.result.overview;
        opt.range = layer == Layer::landscape ? c.layer_range(layer)
                                              : render::ValueRange{o.min, o.max, o.any_finite, o.any_unreachable};
        opt.pool_lowest = o.lowest;
        opt.rows_shown = {0, c.problem.rows()};
        opt.cols_shown = {0, c.problem.cols()};
    }
    return opt;
}

Expected<std::string> export_result(const AppState& s, const ExportRequest& req) {
    if (!s.result) return usage_error("nothing to export yet: compute an alignment first");
    const Computed& c = *s.result;
    switch (req.kind) {
        case ExportKind::matrix_png: {
            const Layer layer = c.shown_layer(s.view.layer);
            const render::HeatmapOptions opt = matrix_png_options(s);
            // A store result holds no whole matrix: the overview the fill pooled (or the
            // landscape's, at the same block).
            const Overview* o = c.stored() ? c.result.overview.get() : nullptr;
            const Grid<int32_t>& values = !o ? c.grid(layer) : layer == Layer::landscape ? c.pyramid(layer).levels.front() : o->H;
            auto img = render::compose_heatmap(values, o ? overview_path(*o, c.result.path) : c.result.path, opt);
            if (!img) return img.error();
            if (Status st = render::write_png_atomic(*img, req.path); !st) return st.error();
            return req.path;
        }
        case ExportKind::alignment_text:
            if (Status st = render::write_file_atomic(req.path, c.pair_text); !st) return st.error();
            return req.path;
        case ExportKind::path_csv:
            if (Status st = render::write_file_atomic(req.path, path_csv(c.problem, c.result.path)); !st) return st.error();
            return req.path;
        case ExportKind::window_png: break;
    }
    return usage_error("a window screenshot is taken by the frame loop");
}

}  // namespace dpviz::gui
