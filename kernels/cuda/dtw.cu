// Dynamic time warping (absolute or squared local cost, optional Sakoe-Chiba band), DPX and
// DPX-free: the band kernels of this family and its launcher.
#include "band_kernel.cuh"

namespace dpviz::cuda {

Status launch_dtw(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s) {
    if (p.band >= 0)
        return v.squared ? launch_ops<Alg<Kind::dtw, false, false, true>>(p, dpx, out, s)
                         : launch_ops<Alg<Kind::dtw, false, false, false>>(p, dpx, out, s);
    return v.squared ? launch_ops<Alg<Kind::dtw, false, false, true, false>>(p, dpx, out, s)
                     : launch_ops<Alg<Kind::dtw, false, false, false, false>>(p, dpx, out, s);
}

}  // namespace dpviz::cuda
