// Glocal (infix) alignment, linear and affine gaps, DPX and DPX-free: the alignment band kernels
// with row 0 free and column 0 costing gaps (Alg's kFreeTop), in their own file so that the other
// alignment kernels compile exactly as they do without it.
#include "band_kernel.cuh"

namespace dpviz::cuda {

Status launch_glocal(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s) {
    if (out == Out::locate || v.local) return device_error("internal: glocal has no local end-cell search");
    return v.affine ? launch_ops<Alg<Kind::align, false, true, false, true, true>>(p, dpx, out, s)
                    : launch_ops<Alg<Kind::align, false, false, false, true, true>>(p, dpx, out, s);
}

}  // namespace dpviz::cuda
