// The batch GPU seam for builds without CUDA: no device, so align_batch() runs on the CPU.
#include "batch_gpu.hpp"

namespace dpviz {

Expected<BatchResult> align_batch_gpu(std::span<const Problem>, const BatchCodes&, bool, int) {
    return device_error("this dpviz was built without CUDA");
}

}  // namespace dpviz
