// A model of the GPU a fill kernel runs on: its figures (SMs, SM clock, warp slots), the issue
// bound that instructions per cell imply, the band kernels' launch shape and occupancy on sm_90,
// and which bound a measured fill met (launch overhead, the wavefront's ramp, the issue rate).
// Pure functions of their inputs, shared by the GUI's panels and `dpviz bench --scan`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dpviz/types.hpp"
#include "sass_report.hpp"

namespace dpviz::app {

// ---------------------------------------------------------------------------------------------
// The GPU's figures and the issue bound
// ---------------------------------------------------------------------------------------------
struct GpuFigures {
    std::string name;          // "NVIDIA H200"
    int sms = 0;               // 0: no GPU
    int warps_per_sm = 0;      // resident warps an SM holds (by compute capability); 0: unknown
    double clock_mhz = 0.0;    // the SM clock; 0: unknown
    std::string clock_source;  // where clock_mhz comes from, or why it is unknown
};
// The figures in the engine's gpu_description(): "NAME (132 SMs, 140.4 GiB, compute capability
// 9.0, SM clock 1980 MHz, ...)": the clock is the one the device reports (its boost clock); 0 or
// absent leaves it unknown, clock_source saying so. nullopt for "not available: ...".
std::optional<GpuFigures> parse_gpu_figures(std::string_view description);
// This process's GPU (gpu_description()); sms = 0 without one.
GpuFigures gpu_figures();

// Cells per second when every scheduler issues one warp instruction per cycle and nothing else
// limits: SMs x 4 schedulers x clock x 32 lanes / instructions per cell. 0 when a figure is unknown.
double issue_bound_cells_per_s(const GpuFigures& g, double instructions_per_cell);

// A GPU fill against its issue bound: the kernel's instructions per cell from the SASS report's
// steady-state loop, the bound on this GPU, and the measured fraction of it (0 where unknown).
struct KernelBound {
    std::string kernel;           // "align-local dpx score"
    double per_cell = 0.0;        // 0: the report has no line for the kernel, or it is a picture kernel
    double bound_cells_per_s = 0.0;
    double fraction = 0.0;        // measured cells/s over the bound
};
KernelBound kernel_bound(const SassReport& r, const std::string& kernel, const GpuFigures& g, int64_t cells,
                         double fill_ms);

// ---------------------------------------------------------------------------------------------
// Which bound applies
// ---------------------------------------------------------------------------------------------
// Below this many cells a GPU fill is mostly its launch and set-up.
inline constexpr int64_t kLaunchBoundCells = int64_t(2048) * 2048;
// A fill this short is dominated by a fixed cost (a launch, the pipeline's set-up) whatever its size.
inline constexpr double kFixedCostDominatesMs = 0.1;
// Bands (warps) below this fraction of the GPU's warp slots cannot keep every scheduler issuing
// through a cell's dependency chain (about 4 warps per scheduler hide it).
inline constexpr double kRampWarpFraction = 0.25;

enum class Bound { launch, ramp, issue, chain };
// "launch overhead", "the wavefront's ramp", "the issue rate", "the chain of bands"
const char* bound_name(Bound b);

struct BoundInput {
    int64_t cells = 0;
    int rows = 0;          // the fill's rows: one band (warp) of gpu_band::kBandRows rows each
    double fill_ms = 0.0;  // measured
    int sms = 0, warps_per_sm = 0;  // 0: unknown (then the ramp is judged against nothing: issue)
    bool one_pair = false;  // the one-pair kernel filled it (a "pair-score" or "pair-serial" kernel)
    int group_rows = 0;     // its rows a group (0: pair_score_group_rows())
};
struct BoundVerdict {
    Bound bound = Bound::issue;
    std::string why;  // one sentence with the numbers that decided it
};
// launch: cells below kLaunchBoundCells or a fill shorter than kFixedCostDominatesMs; the chain
// of bands: any other one-pair fill (its groups of bands each follow the one above, and its warps
// wait for the band above more than to issue: docs/single_pair_kernel.md); ramp: fewer bands
// than kRampWarpFraction of SMs x warps per SM; the issue rate otherwise.
BoundVerdict which_bound(const BoundInput& in);

// ---------------------------------------------------------------------------------------------
// The band kernels' launch shape and occupancy on sm_90
// ---------------------------------------------------------------------------------------------
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

}  // namespace dpviz::app
