// The simulated device behind DPVIZ_GPU_FAULT=simulate: plain C++, in every build, so the fault
// paths of align_gpu run (and are checked under ASan) on machines without a GPU.
#pragma once

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"

namespace dpviz::gpu_fault {

// Makes the allocations (on the host) and launches the real device makes for this problem and
// level (at level path over checkpoints every `checkpoint_spacing` rows and columns when that is
// not 0, pooling an overview of `overview_block` cells a side when that is not 0), in the same
// order and through the same injection points. With no fault firing it
// still fails, as "no kernels": the stand-in never pretends to compute, the CPU does.
Expected<DpResult> align_simulated(const Problem& p, OutputLevel level, const Spec& spec, int32_t checkpoint_spacing = 0,
                                   int32_t overview_block = 0);

}  // namespace dpviz::gpu_fault
