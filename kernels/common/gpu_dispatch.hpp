// The seam between the CPU engine and the optional CUDA backends. Built without CUDA, the
// definitions in cpu/no_gpu.cpp answer "no device"; with CUDA, cuda/dispatch.cu does.
#pragma once

#include "dpviz/engine.hpp"

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
Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control = {},
                             int32_t checkpoint_spacing = 0);
// For the schedule's tests: align_gpu at level matrix that also returns, for every interior
// cell, which block, warp and lane computed it (gpu_band::pack_owner; borders 0xffffffff).
Expected<DpResult> align_gpu_owners(const Problem& p, bool dpx, Grid<uint32_t>& owner);

}  // namespace dpviz
