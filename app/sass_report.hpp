// The SASS reports of the fill kernels: the steady-state loop's instructions per cell, the whole
// kernel's instruction mix, registers per thread; and the name a report gives the kernel that a
// problem (or a result) runs. Used by the GUI's machine-code and timing panels and `dpviz bench
// --scan`. Data: the build-time reports (cuobjdump over libdpviz_kernels.a, when the build had
// it), else the device run's reports shipped in docs/sass/ (installed as share/dpviz/sass).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpviz/types.hpp"

namespace dpviz::app {

using OpCounts = std::vector<std::pair<std::string, int>>;  // opcode -> count, in report order

// One kernel's steady-state loop (kernels/cuda/sass_hot_loop.py): instructions per iteration and
// per cell.
struct SassLoop {
    std::string kernel;  // "align-local dpx matrix"
    int instructions = 0;
    double per_cell = 0.0;
    int dpx = 0;
    OpCounts ops;
};

// One kernel's whole-body mix (kernels/cuda/sass_mix.py): every instruction of the kernel, counted once.
struct SassMix {
    std::string kernel;  // "fill align-local dpx matrix"
    int total = 0;
    int dpx = 0;
    OpCounts ops;
};

// Registers per thread (cuobjdump -res-usage, named by kernels/cuda/sass_res_usage.py).
struct SassResources {
    std::string kernel;  // "align-local dpx matrix"
    int registers = 0;
    int shared_static = 0;
};

struct SassReport {
    std::string loops_source, mix_source, resources_source;  // where each part came from, or why n/a
    int cells_per_iteration = 16;
    std::vector<SassLoop> loops;
    std::vector<SassMix> mix;
    std::vector<SassResources> resources;

    // The line of that name (kernels/cuda/sass_names.py gives each instantiation a name of its
    // own; of two lines of one name, the first).
    const SassLoop* loop(std::string_view kernel) const;
    const SassMix* whole(std::string_view kernel) const;  // kernel name without the "fill " prefix
    const SassResources* resources_of(std::string_view kernel) const;
};

// Parsers of the three reports; lines they do not understand are skipped. The reports name the
// kernels as kernels/cuda/sass_names.py does (the one rule; the scripts that write them use it).
std::vector<SassLoop> parse_sass_loops(std::string_view text, int* cells_per_iteration = nullptr);
std::vector<SassMix> parse_sass_mix(std::string_view text);
std::vector<SassResources> parse_res_usage(std::string_view text);

// Reads the build's reports from `build_dir` (sass_hot.txt, sass_report.txt, sass_resources.txt)
// and falls back, per part, to `docs_sass_dir` (sass_hot_sm90.txt, sass_mix_sm90.txt,
// sass_res_sm90.txt). Either may be empty.
SassReport load_sass_report(const std::string& build_dir, const std::string& docs_sass_dir);
// The directories this binary knows: the build folder (compiled in), then the shipped reports
// found from the assets folder (shipped_reports_dir: installed or the source tree's docs/sass).
SassReport load_default_sass_report(const std::string& assets_dir);

// DPX instructions of sm_90: VIADDMNMX, VIMNMX3, VIBMNMX and the 16x2 forms of VIMNMX.
bool is_dpx_opcode(std::string_view op);

// What a band kernel writes (the kernels' Out): the score only, the store's checkpoint lines,
// those and the pooled overview (the picture), direction bits (path), the whole matrices.
enum class FillOutput { score, store, picture, path, matrix };
const char* fill_output_name(FillOutput o);  // "score", "store", "picture", "path", "matrix"
FillOutput fill_output(OutputLevel level);

// The fill kernel for a problem, as the reports name it: "align-local-affine dpx matrix".
std::string fill_kernel_name(const Problem& p, bool dpx, FillOutput out);
inline std::string fill_kernel_name(const Problem& p, bool dpx, OutputLevel level) {
    return fill_kernel_name(p, dpx, fill_output(level));
}
// The kernel that filled a GPU result, read off the result: its backend (DPX or DPX-free), what
// it kept (an overview: the picture's fill; checkpoints: the store's; else its level), and the
// one-pair score kernel (pair_score_kernel in dpviz/engine.hpp: "pair-serial-r16 dpx score",
// "pair-score-affine dpx score", "pair-serial-corner-r6 dpx score", "pair-score dpx store", ...)
// where a score fill reports no band launch shape; the routing it reads (DPVIZ_PAIR_KERNEL,
// DPVIZ_PAIR_SERIAL) is the process's, as the fill's was. "" for a CPU result.
std::string ran_kernel_name(const Problem& p, const DpResult& r);

}  // namespace dpviz::app
