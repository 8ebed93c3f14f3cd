// The GPU seam for builds without CUDA: no device, ever.
#include "gpu_dispatch.hpp"

namespace dpviz {

bool gpu_usable() { return false; }

Expected<DpResult> align_gpu(const Problem&, OutputLevel, bool) {
    return device_error("this dpviz was built without CUDA");
}

}  // namespace dpviz
