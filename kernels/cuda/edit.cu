// Levenshtein edit distance, DPX and DPX-free: the band kernels of this family and its launcher.
#include "band_kernel.cuh"

namespace dpviz::cuda {

Status launch_edit(const FillParams& p, bool dpx, Out out, cudaStream_t s) {
    return launch_ops<Alg<Kind::edit>>(p, dpx, out, s);
}

}  // namespace dpviz::cuda
