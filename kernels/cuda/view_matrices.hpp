// The device matrices of a level-matrix fill, handed from run_gpu (dispatch.cu) to the
// GPU-resident view (view_matrices.cu) instead of being copied back. Internal to kernels/cuda.
#pragma once

#include <cstdint>

#include "cuda_check.hpp"

namespace dpviz::cuda {

struct KeptMatrices {
    DeviceBuffer<int32_t> H, E, F;  // (M+1) x (N+1), row-major; E and F only with affine gaps
    DeviceBuffer<uint8_t> D;        // direction bytes, same shape
};

}  // namespace dpviz::cuda
