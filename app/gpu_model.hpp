// A model of the GPU a fill kernel runs on: the band kernels' launch shape and occupancy on
// sm_90. Pure functions of their inputs (no GUI in them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dpviz/types.hpp"

namespace dpviz::app {

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
