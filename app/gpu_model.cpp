// The GPU model behind the instructions-per-cell bound and the timing panel's verdicts (see
// gpu_model.hpp).
#include "gpu_model.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"

namespace dpviz::app {

namespace {

// Resident warps per SM by compute capability (the CUDA programming guide's table).
int warps_per_sm_of(int major, int minor) {
    if (major == 7) return minor == 5 ? 32 : 64;
    if (major == 8) return minor == 0 ? 64 : 48;
    if (major == 9) return 64;
    return 0;
}

std::string with_commas(int64_t v) {
    std::string s = std::to_string(v);
    for (int k = int(s.size()) - 3; k > (v < 0 ? 1 : 0); k -= 3) s.insert(size_t(k), ",");
    return s;
}

}  // namespace

std::optional<GpuFigures> parse_gpu_figures(std::string_view description) {
    static const std::regex head(R"(^(.+?) \((\d+) SMs\b)");
    static const std::regex cc(R"(compute capability (\d+)\.(\d+))");
    const std::string d(description);
    std::smatch m;
    if (d.rfind("not available", 0) == 0 || !std::regex_search(d, m, head)) return std::nullopt;
    GpuFigures g;
    g.name = m[1];
    g.sms = std::stoi(m[2]);
    if (std::regex_search(d, m, cc)) g.warps_per_sm = warps_per_sm_of(std::stoi(m[1]), std::stoi(m[2]));
    static const std::regex clock(R"(SM clock (\d+) MHz)");
    if (std::regex_search(d, m, clock) && std::stoi(m[1]) > 0) {
        g.clock_mhz = std::stoi(m[1]);
        g.clock_source = "the SM clock the device reports, " + std::string(m[1]) + " MHz";
    } else {
        g.clock_source = "unknown: the device reports no SM clock";
    }
    return g;
}

GpuFigures gpu_figures() { return parse_gpu_figures(gpu_description()).value_or(GpuFigures{}); }

double issue_bound_cells_per_s(const GpuFigures& g, double instructions_per_cell) {
    if (g.sms <= 0 || g.clock_mhz <= 0 || instructions_per_cell <= 0) return 0.0;
    return double(g.sms) * 4.0 * g.clock_mhz * 1e6 * 32.0 / instructions_per_cell;
}

KernelBound kernel_bound(const SassReport& r, const std::string& kernel, const GpuFigures& g, int64_t cells,
                         double fill_ms) {
    KernelBound b;
    b.kernel = kernel;
    // A band kernel's picture loop holds the pooling's flush of a block of columns, taken once per
    // block but counted as if every iteration ran it (the loops' counts run past the measured
    // times: docs/performance.md): no bound from it. The one-pair kernel's (`pair-score ...
    // picture`) writes its texels after a chunk, outside the loop the report counts.
    const bool picture = kernel.size() >= 8 && kernel.compare(kernel.size() - 8, 8, " picture") == 0;
    const bool flush_in_loop = picture && kernel.rfind("pair-score", 0) != 0;
    if (const SassLoop* loop = r.loop(kernel); loop && !flush_in_loop) b.per_cell = loop->per_cell;
    b.bound_cells_per_s = issue_bound_cells_per_s(g, b.per_cell);
    if (b.bound_cells_per_s > 0 && fill_ms > 0 && cells > 0)
        b.fraction = double(cells) / (fill_ms * 1e-3) / b.bound_cells_per_s;
    return b;
}

const char* bound_name(Bound b) {
    switch (b) {
        case Bound::launch: return "launch overhead";
        case Bound::ramp: return "the wavefront's ramp";
        case Bound::issue: return "the issue rate";
        case Bound::chain: return "the chain of bands";
    }
    return "?";
}

BoundVerdict which_bound(const BoundInput& in) {
    BoundVerdict v;
    char text[512];
    if (in.cells < kLaunchBoundCells || in.fill_ms < kFixedCostDominatesMs) {
        v.bound = Bound::launch;
        std::snprintf(text, sizeof text,
                      "%s cells in %.3f ms: %s, so a launch and the fill's set-up cost more than the cells",
                      with_commas(in.cells).c_str(), in.fill_ms,
                      in.cells < kLaunchBoundCells ? "fewer than 2048^2" : "a fill this short is mostly a fixed cost");
        v.why = text;
        return v;
    }
    if (in.one_pair) {
        v.bound = Bound::chain;
        const int group = in.group_rows > 0 ? in.group_rows : pair_score_group_rows();
        const int64_t groups = (int64_t(in.rows) + group - 1) / group;
        char per_sm[48] = "";
        if (in.sms > 0) std::snprintf(per_sm, sizeof per_sm, " over %d SMs (%.1f each)", in.sms, double(groups) / in.sms);
        std::snprintf(text, sizeof text,
                      "%s group%s of %d rows%s: a band starts only behind the band above and a group behind "
                      "the group above, so the fill lasts as long as that chain, and its warps wait for the band "
                      "above more than to issue (an affine corner fill on an H200: 40 %% of its stall samples): fewer "
                      "instructions per cell help only where they shorten the chain's step",
                      with_commas(groups).c_str(), groups == 1 ? "" : "s", group, per_sm);
        v.why = text;
        return v;
    }
    const int bands = gpu_band::band_count(in.rows);
    const int64_t slots = int64_t(in.sms) * in.warps_per_sm;
    if (slots > 0 && double(bands) < kRampWarpFraction * double(slots)) {
        v.bound = Bound::ramp;
        std::snprintf(text, sizeof text,
                      "%s band%s of %d rows = as many warps, against %s warp slots (%d SMs x %d): %.1f warps per SM, "
                      "too few to issue every cycle through each cell's dependency chain, and the front ramps up and "
                      "down at the corners",
                      with_commas(bands).c_str(), bands == 1 ? "" : "s", gpu_band::kBandRows,
                      with_commas(slots).c_str(), in.sms, in.warps_per_sm, double(bands) / in.sms);
        v.why = text;
        return v;
    }
    v.bound = Bound::issue;
    if (slots > 0)
        std::snprintf(text, sizeof text,
                      "%s bands keep the GPU's %s warp slots busy enough: each scheduler issues at most one "
                      "instruction a cycle and its warps share one integer ALU pipe (which a long pair fills "
                      "first): the instructions per cell set the pace",
                      with_commas(bands).c_str(), with_commas(slots).c_str());
    else
        std::snprintf(text, sizeof text, "%s bands; the GPU's warp slots are unknown: judged by the issue rate",
                      with_commas(bands).c_str());
    v.why = text;
    return v;
}

LaunchShape band_launch_shape(const Problem& p) {
    // The kernels' own rules (band_shape.hpp) with the H200's 227 KiB of opt-in shared memory
    // per block (the panel describes that machine; the fill reads it from the device).
    constexpr long kOptin = 232448;
    const long per_warp = gpu_band::profile_bytes_per_warp(std::max(1, p.matrix.size()), p.algo != Algorithm::dtw);
    LaunchShape s;
    s.warps_per_block = std::max(1, gpu_band::warps_per_block(per_warp, kOptin));
    s.smem_per_block = int(per_warp) * s.warps_per_block;
    s.bands = gpu_band::band_count(p.rows());
    return s;
}

std::optional<Occupancy> sm90_occupancy(int regs, int warps_per_block, int smem_per_block) {
    constexpr int kWarpsPerSm = 64, kBlocksPerSm = 32, kRegsPerSm = 65536, kRegUnit = 256;
    constexpr int kSmemPerSm = 233472, kSmemReservedPerBlock = 1024, kSmemUnit = 128;
    if (regs <= 0 || regs > 255 || warps_per_block <= 0 || smem_per_block < 0) return std::nullopt;
    const int regs_per_warp = (regs * 32 + kRegUnit - 1) / kRegUnit * kRegUnit;
    const int by_regs = (kRegsPerSm / regs_per_warp) / warps_per_block;
    const int smem = (smem_per_block + kSmemReservedPerBlock + kSmemUnit - 1) / kSmemUnit * kSmemUnit;
    const int by_smem = kSmemPerSm / smem;
    const int by_warps = kWarpsPerSm / warps_per_block;
    Occupancy o;
    o.blocks_per_sm = std::min({by_regs, by_smem, by_warps, kBlocksPerSm});
    o.limiter = o.blocks_per_sm == by_regs ? "registers" : o.blocks_per_sm == by_smem ? "shared memory"
                                         : o.blocks_per_sm == by_warps        ? "warps"
                                                                              : "blocks";
    o.warps_per_sm = o.blocks_per_sm * warps_per_block;
    o.fraction = double(o.warps_per_sm) / kWarpsPerSm;
    return o;
}


}  // namespace dpviz::app
