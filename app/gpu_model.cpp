// The GPU model: the band kernels' launch shape and sm_90 occupancy (see gpu_model.hpp).
#include "gpu_model.hpp"

#include <algorithm>

#include "dpviz/band_shape.hpp"

namespace dpviz::app {

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
