// Builds without CUDA: the interop path does not exist and the host path always runs.
#include "dpviz/fault_injection.hpp"
#include "interop.hpp"

namespace dpviz::render {

bool interop_compiled() { return false; }

Expected<std::unique_ptr<InteropWriter>> make_interop_writer(uint32_t) {
    if (auto refusal = gpu_fault::simulated_interop_refusal()) return device_error(*refusal);  // test-only switch
    return device_error("built without CUDA: host upload path");
}

}  // namespace dpviz::render
