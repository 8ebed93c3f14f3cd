// Longest common subsequence, DPX and DPX-free: the band kernels of this family and its launcher.
#include "band_kernel.cuh"

namespace dpviz::cuda {

Status launch_lcs(const FillParams& p, bool dpx, Out out, cudaStream_t s) {
    return launch_ops<Alg<Kind::lcs>>(p, dpx, out, s);
}

}  // namespace dpviz::cuda
