// The SASS reports' parsers, their loading and the kernels' report names (see sass_report.hpp).
//
// Index of this file
// [SECTION] Parsers
// [SECTION] Loading
// [SECTION] Kernel names
#include "sass_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <sstream>

#include "assets_dir.hpp"
#include "dpviz/engine.hpp"

namespace dpviz::app {

// ---------------------------------------------------------------------------------------------
// [SECTION] Parsers
// ---------------------------------------------------------------------------------------------
namespace {

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> words(const std::string& l) {
    std::istringstream in(l);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool is_dpx_opcode(std::string_view op) {
    const std::string_view base = op.substr(0, op.find('.'));
    // VHMNMX: the three-input half min/max that only sm_90 has (ptxas makes it out of two HMNMX2).
    if (base == "VIADDMNMX" || base == "VIMNMX3" || base == "VIBMNMX" || base == "VHMNMX") return true;
    return base == "VIMNMX" && op.find("16x2") != std::string_view::npos;
}

std::vector<SassLoop> parse_sass_loops(std::string_view text, int* cells_per_iteration) {
    // "align-local dpx matrix   429 instr  26.81 /cell  DPX  24   VIMNMX3=24 IADD3=22 ..."
    static const std::regex row(R"(^(\S.*?)\s+(\d+) instr\s+([0-9.]+) /cell\s+DPX\s+(\d+)\s*(.*)$)");
    static const std::regex head(R"(\((\d+) cells per iteration\))");
    std::vector<SassLoop> out;
    for (const std::string& l : lines_of(text)) {
        std::smatch m;
        if (cells_per_iteration && std::regex_search(l, m, head)) *cells_per_iteration = std::stoi(m[1]);
        if (!std::regex_match(l, m, row)) continue;
        SassLoop k;
        k.kernel = m[1];
        k.instructions = std::stoi(m[2]);
        k.per_cell = std::stod(m[3]);
        k.dpx = std::stoi(m[4]);
        for (const std::string& w : words(m[5])) {
            const auto eq = w.find('=');
            if (eq == std::string::npos || !all_digits(w.substr(eq + 1))) continue;
            k.ops.emplace_back(w.substr(0, eq), std::stoi(w.substr(eq + 1)));
        }
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<SassMix> parse_sass_mix(std::string_view text) {
    // Header "kernel total DPX OP1 OP2 ...", then "fill align-local dpx matrix 1777 48 0 48 ...":
    // the name has spaces, so the numbers are counted from the right.
    std::vector<std::string> columns;
    std::vector<SassMix> out;
    for (const std::string& l : lines_of(text)) {
        if (l.empty() || l[0] == '#') continue;
        const std::vector<std::string> w = words(l);
        if (w.size() > 3 && w[0] == "kernel" && w[1] == "total" && w[2] == "DPX") {
            columns.assign(w.begin() + 3, w.end());
            continue;
        }
        if (columns.empty() || w.size() < columns.size() + 3) continue;
        const size_t first = w.size() - columns.size() - 2;
        if (!std::all_of(w.begin() + long(first), w.end(), all_digits)) continue;
        SassMix k;
        for (size_t t = 0; t < first; ++t) k.kernel += (t ? " " : "") + w[t];
        k.total = std::stoi(w[first]);
        k.dpx = std::stoi(w[first + 1]);
        for (size_t c = 0; c < columns.size(); ++c) k.ops.emplace_back(columns[c], std::stoi(w[first + 2 + c]));
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<SassResources> parse_res_usage(std::string_view text) {
    // kernels/cuda/sass_res_usage.py: "pair-score-corner dpx picture  REG:128 STACK:0 SHARED:2064 ..."
    static const std::regex row(R"(^(\S.*?)\s+REG:(\d+)\b(.*)$)");
    static const std::regex shared(R"(SHARED:(\d+))");
    std::vector<SassResources> out;
    for (const std::string& l : lines_of(text)) {
        std::smatch m;
        if (l.empty() || l[0] == '#' || !std::regex_match(l, m, row)) continue;
        SassResources r;
        r.kernel = m[1];
        r.registers = std::stoi(m[2]);
        const std::string rest = m[3];
        if (std::regex_search(rest, m, shared)) r.shared_static = std::stoi(m[1]);
        out.push_back(std::move(r));
    }
    return out;
}

const SassLoop* SassReport::loop(std::string_view kernel) const {
    for (const SassLoop& k : loops)
        if (k.kernel == kernel) return &k;
    return nullptr;
}
const SassMix* SassReport::whole(std::string_view kernel) const {
    for (const SassMix& k : mix)
        if (k.kernel == "fill " + std::string(kernel)) return &k;
    return nullptr;
}
const SassResources* SassReport::resources_of(std::string_view kernel) const {
    for (const SassResources& k : resources)
        if (k.kernel == kernel) return &k;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Loading
// ---------------------------------------------------------------------------------------------
namespace {

std::optional<std::string> read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The first "# ..." line of a shipped report says where and when it was made.
std::string provenance(const std::string& text) {
    if (text.rfind("# ", 0) != 0) return {};
    return text.substr(2, text.find('\n') - 2);
}

template <class Parse>
void load_part(const std::string& build_dir, const char* build_name, const std::string& docs_dir, const char* docs_name,
               std::string& source, Parse parse) {
    namespace fs = std::filesystem;
    if (!build_dir.empty()) {
        const fs::path p = fs::path(build_dir) / build_name;
        if (auto t = read_text(p); t && parse(*t)) {
            source = "this build: " + p.string();
            return;
        }
    }
    if (!docs_dir.empty()) {
        const fs::path p = fs::path(docs_dir) / docs_name;
        if (auto t = read_text(p); t && parse(*t)) {
            const std::string from = provenance(*t);
            source = "shipped report " + p.filename().string() + (from.empty() ? "" : " (" + from.substr(0, from.find(':')) + ")") +
                     "; this build made none (no cuobjdump)";
            return;
        }
    }
    source = "n/a (no report: build with CUDA where cuobjdump is installed)";
}

}  // namespace

SassReport load_sass_report(const std::string& build_dir, const std::string& docs_sass_dir) {
    SassReport r;
    load_part(build_dir, "sass_hot.txt", docs_sass_dir, "sass_hot_sm90.txt", r.loops_source, [&](const std::string& t) {
        r.loops = parse_sass_loops(t, &r.cells_per_iteration);
        return !r.loops.empty();
    });
    load_part(build_dir, "sass_report.txt", docs_sass_dir, "sass_mix_sm90.txt", r.mix_source, [&](const std::string& t) {
        r.mix = parse_sass_mix(t);
        return !r.mix.empty();
    });
    load_part(build_dir, "sass_resources.txt", docs_sass_dir, "sass_res_sm90.txt", r.resources_source,
              [&](const std::string& t) {
                  r.resources = parse_res_usage(t);
                  return !r.resources.empty();
              });
    return r;
}

SassReport load_default_sass_report(const std::string& assets_dir) {
    std::string build_dir;
#ifdef DPVIZ_BUILD_DIR
    build_dir = DPVIZ_BUILD_DIR;
#endif
    // The shipped reports come from where the examples came from: installed or the source tree.
    return load_sass_report(build_dir, shipped_reports_dir(assets_dir, "sass"));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernel names
// ---------------------------------------------------------------------------------------------
const char* fill_output_name(FillOutput o) {
    switch (o) {
        case FillOutput::score: return "score";
        case FillOutput::store: return "store";
        case FillOutput::picture: return "picture";
        case FillOutput::path: return "path";
        case FillOutput::matrix: return "matrix";
    }
    return "?";
}

FillOutput fill_output(OutputLevel level) {
    return level == OutputLevel::score ? FillOutput::score : level == OutputLevel::path ? FillOutput::path : FillOutput::matrix;
}

std::string fill_kernel_name(const Problem& p, bool dpx, FillOutput out) {
    std::string s;
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            s = "align";
            if (p.algo == Algorithm::local) s += "-local";
            if (p.affine()) s += "-affine";
            if (p.algo == Algorithm::glocal) s += "-glocal";  // kernels/cuda/glocal.cu: row 0 free
            break;
        case Algorithm::edit: s = "edit"; break;
        case Algorithm::lcs: s = "lcs"; break;
        case Algorithm::dtw:
            s = p.dtw_cost == DtwCost::squared ? "dtw-squared" : "dtw";
            if (p.band < 0) s += "-noband";  // kernels/cuda/dtw.cu: no band test per cell
            break;
        case Algorithm::viterbi: s = "viterbi"; break;  // not a band kernel: no report line (yet)
    }
    s += dpx ? " dpx " : " dpx-free ";
    return s + fill_output_name(out);
}

std::string ran_kernel_name(const Problem& p, const DpResult& r) {
    if (r.backend != Backend::cuda && r.backend != Backend::cuda_portable) return {};
    const bool dpx = r.backend == Backend::cuda;
    const FillOutput out = r.overview ? FillOutput::picture : r.checkpoints ? FillOutput::store : fill_output(r.level);
    // The one-pair kernel leaves the result's launch shape empty (the band schedule is not its);
    // it fills score levels, the store's lines and the pictures of local fills.
    if ((out == FillOutput::score || out == FillOutput::store || out == FillOutput::picture) && r.shape.blocks == 0)
        if (const std::string kernel =
                pair_score_kernel(p, out == FillOutput::score ? OutputLevel::score : OutputLevel::path, dpx, !r.refilled32);
            !kernel.empty())
            return kernel + (dpx ? " dpx " : " dpx-free ") + fill_output_name(out);
    return fill_kernel_name(p, dpx, out);
}

}  // namespace dpviz::app
