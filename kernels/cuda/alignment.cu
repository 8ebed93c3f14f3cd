// Smith-Waterman (local), Needleman-Wunsch (global) and semi-global alignment, linear and affine
// gaps, DPX and DPX-free: the band kernels of this family and its launcher (glocal's: glocal.cu).
#include "band_kernel.cuh"

namespace dpviz::cuda {

Status launch_alignment(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s) {
    if (v.free_top) return launch_glocal(p, v, dpx, out, s);
    if (out == Out::locate) {
        if (!v.local) return device_error("internal: end-cell search is for local alignment only");
        return v.affine ? launch_locate<Alg<Kind::align, true, true>>(p, s)
                        : launch_locate<Alg<Kind::align, true, false>>(p, s);
    }
    if (v.local)
        return v.affine ? launch_ops<Alg<Kind::align, true, true>>(p, dpx, out, s)
                        : launch_ops<Alg<Kind::align, true, false>>(p, dpx, out, s);
    return v.affine ? launch_ops<Alg<Kind::align, false, true>>(p, dpx, out, s)
                    : launch_ops<Alg<Kind::align, false, false>>(p, dpx, out, s);
}

const void* probe_kernel() {
    return reinterpret_cast<const void*>(&band_fill<Alg<Kind::align, true, false>, cell::DpxOps, Out::score>);
}

}  // namespace dpviz::cuda
