// The seam between the CPU engine and the optional CUDA backends. Built without CUDA, the
// definitions in cpu/no_gpu.cpp answer "no device"; with CUDA, cuda/dispatch.cu does.
#pragma once

#include "dpviz/engine.hpp"

namespace dpviz {

// True when a CUDA device of compute capability >= 7.0 answers (cached after the first call).
bool gpu_usable();
// Fill + traceback on the GPU: DPX kernels when `dpx`, the DPX-free kernels otherwise.
// Device errors come back as ErrorKind::device; align() falls back to the CPU on them. `control`
// is checked between stages (upload, fill, end cell, copy-back, traceback).
Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control = {});
// For the schedule's tests: align_gpu at level matrix that also returns, for every interior
// cell, which block, warp and lane computed it (gpu_band::pack_owner; borders 0xffffffff).
Expected<DpResult> align_gpu_owners(const Problem& p, bool dpx, Grid<uint32_t>& owner);

}  // namespace dpviz
