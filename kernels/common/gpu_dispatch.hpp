// The seam between the CPU engine and the optional CUDA backends. Built without CUDA, the
// definitions in cpu/no_gpu.cpp answer "no device"; with CUDA, cuda/dispatch.cu does.
#pragma once

#include "dpviz/engine.hpp"

namespace dpviz {

// True when a CUDA device of compute capability >= 7.0 answers (cached after the first call).
bool gpu_usable();
// Fill + traceback on the GPU: DPX kernels when `dpx`, the DPX-free kernels otherwise.
// Device errors come back as ErrorKind::device; align() falls back to the CPU on them.
Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool dpx);

}  // namespace dpviz
