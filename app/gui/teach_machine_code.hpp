// The machine-code panel: the SASS instruction mix of the fill kernel that ran (per cell of its
// steady-state loop, and over the whole kernel), DPX opcodes highlighted, beside the DPX-free
// kernel of the same algorithm; registers per thread and occupancy; why fused add-max helps.
// Data: the build-time report (cuobjdump over libdpviz_kernels.a, when the build had it), else
// the device run's report shipped in docs/sass/. Parsing is pure and tested.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpviz/types.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

using OpCounts = std::vector<std::pair<std::string, int>>;  // opcode -> count, in report order

// One kernel's steady-state loop (sass_hot_loop.py): instructions per iteration and per cell.
struct SassLoop {
    std::string kernel;  // "align-local dpx matrix"
    int instructions = 0;
    double per_cell = 0.0;
    int dpx = 0;
    OpCounts ops;
};

// One kernel's whole-body mix (sass_mix.sh): every instruction of the kernel, counted once.
struct SassMix {
    std::string kernel;  // "fill align-local dpx matrix"
    int total = 0;
    int dpx = 0;
    OpCounts ops;
};

// Registers per thread (cuobjdump -res-usage).
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

    const SassLoop* loop(std::string_view kernel) const;
    const SassMix* whole(std::string_view kernel) const;  // kernel name without the "fill " prefix
    const SassResources* resources_of(std::string_view kernel) const;
};

// Parsers of the three reports; lines they do not understand are skipped.
std::vector<SassLoop> parse_sass_loops(std::string_view text, int* cells_per_iteration = nullptr);
std::vector<SassMix> parse_sass_mix(std::string_view text);
std::vector<SassResources> parse_res_usage(std::string_view text);
// The scripts' short name of a mangled band_fill kernel ("" for other functions).
std::string short_kernel_name(std::string_view mangled);

// Reads the build's reports from `build_dir` (sass_hot.txt, sass_report.txt, sass_resources.txt)
// and falls back, per part, to `docs_sass_dir` (sass_hot_sm90.txt, sass_mix_sm90.txt,
// sass_res_sm90.txt). Either may be empty.
SassReport load_sass_report(const std::string& build_dir, const std::string& docs_sass_dir);
// The directories this binary knows: the build folder (compiled in), then the shipped reports
// found from the assets folder (app::sass_reports_dir: installed or the source tree's docs/sass).
SassReport load_default_sass_report(const std::string& assets_dir);

// DPX instructions of sm_90: VIADDMNMX, VIMNMX3, VIBMNMX and the 16x2 forms of VIMNMX.
bool is_dpx_opcode(std::string_view op);

// The fill kernel for a problem, as the reports name it: "align-local-affine dpx matrix".
std::string fill_kernel_name(const Problem& p, bool dpx, OutputLevel level);

// Theoretical occupancy on sm_90 (the CUDA occupancy calculator's rules): resident warps per SM
// of a launch with `warps_per_block` warps, `regs` registers per thread and `smem` bytes of
// shared memory per block.
struct Occupancy {
    int blocks_per_sm = 0;
    int warps_per_sm = 0;
    double fraction = 0.0;  // of the 64 warps an SM holds
    std::string limiter;    // "registers", "shared memory", "warps", "blocks"
};
std::optional<Occupancy> sm90_occupancy(int regs, int warps_per_block, int smem_per_block);
// The band kernels' launch shape for a problem: 4 warps per block (fewer when the alphabet's
// profile does not fit), shared memory per block, and how many bands (warps) the problem has.
struct LaunchShape {
    int warps_per_block = 4;
    int smem_per_block = 0;
    int bands = 0;  // one warp per band of 128 rows
};
LaunchShape band_launch_shape(const Problem& p);

void draw_teach_machine_code(AppState& s);

}  // namespace dpviz::gui
