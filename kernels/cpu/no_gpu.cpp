// The GPU seam for builds without CUDA: no device, except the simulated one of the test-only
// DPVIZ_GPU_FAULT=simulate switch (cpu/simulated_gpu.cpp), so the fault paths run here too.
#include "dpviz/fault_injection.hpp"
#include "gpu_dispatch.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {

bool gpu_usable() { return gpu_fault::usable_override().value_or(false); }

Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool, const RunControl&, int32_t checkpoint_spacing,
                             int32_t overview_block) {
    gpu_fault::Run run;  // this call's allocation and launch numbers
    if (auto r = run.instead(p, level, checkpoint_spacing, overview_block)) return std::move(*r);
    return device_error("this dpviz was built without CUDA");
}

Status fill_rect_gpu(const Problem&, const GpuRect&) { return device_error("this dpviz was built without CUDA"); }

Expected<DpResult> align_viterbi_gpu(const Problem&, OutputLevel, bool, const RunControl&) {
    return device_error("this dpviz was built without CUDA");
}

Expected<DpResult> align_gpu_owners(const Problem&, bool, Grid<uint32_t>&) {
    return device_error("this dpviz was built without CUDA");
}

void prepare_gpu() {}

std::string gpu_description() { return "not available: this dpviz was built without CUDA"; }

}  // namespace dpviz
