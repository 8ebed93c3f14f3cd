// The seam between the CPU engine and the optional CUDA backends. Built without CUDA, the
// definitions in cpu/no_gpu.cpp answer "no device"; with CUDA, cuda/dispatch.cu does.
#pragma once

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"

namespace dpviz {

// True when a CUDA device of compute capability >= 7.0 answers (cached after the first call).
bool gpu_usable();
// Fill + traceback on the GPU: DPX kernels when `dpx`, the DPX-free kernels otherwise.
// Device errors come back as ErrorKind::device; align() falls back to the CPU on them. `control`
// is checked between stages (upload, fill, end cell, copy-back, traceback). With a
// `checkpoint_spacing` at level path, the fill keeps the store's checkpoints (store.hpp) in
// device memory in place of direction bits, and the path is traced on the host over tiles whose
// edges it fetches from there (DpResult::checkpoints holds them). kGpuChoosesSpacing: the
// smallest K whose lines take at most half the free device memory.
inline constexpr int32_t kGpuChoosesSpacing = -1;
// With an `overview_block` too (level path with checkpoints), the fill also pools H into blocks
// of that many cells a side (DpResult::overview), as align_cpu_checkpoints does.
Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control = {},
                             int32_t checkpoint_spacing = 0, int32_t overview_block = 0);

// A rectangle of a bigger matrix on the GPU, from given borders (fill_rect_cpu's inputs: `p`
// holds the rectangle's inputs): its interior rows [i0, i1) and columns [j0, j1) (0-based,
// rectangle cell (i + 1, j + 1)) come back at level matrix into H, E and F (affine gaps) and,
// when not null, dirs, row k at k * pitch elements. off_i, off_j: where the rectangle's row 0
// and column 0 lie in a full_M x full_N matrix (DTW's band is that matrix's).
struct GpuRect {
    RectBorders borders;
    int32_t off_i = 0, off_j = 0, full_M = 0, full_N = 0;
    int32_t i0 = 0, i1 = 0, j0 = 0, j1 = 0;
    int32_t* H = nullptr;
    int32_t* E = nullptr;
    int32_t* F = nullptr;
    uint8_t* dirs = nullptr;
    size_t pitch = 0;
};
Status fill_rect_gpu(const Problem& p, const GpuRect& rect);
// For the schedule's tests: align_gpu at level matrix that also returns, for every interior
// cell, which block, warp and lane computed it (gpu_band::pack_owner; borders 0xffffffff).
Expected<DpResult> align_gpu_owners(const Problem& p, bool dpx, Grid<uint32_t>& owner);

}  // namespace dpviz
