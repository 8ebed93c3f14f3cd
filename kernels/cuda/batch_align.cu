// Batch kernels of the alignment family: local, global and semi-global, linear and affine gaps,
// DPX and DPX-free (the same source through cell_ops.hpp).
#include "batch_kernel.cuh"

namespace dpviz::cuda::batch {
namespace {

template <bool kLocal, bool kAffine, EndCell kEnd>
const void* pick(bool dpx) {
    using A = Alg<Kind::align, kLocal, kAffine>;
    return dpx ? reinterpret_cast<const void*>(&batch_fill<A, cell::DpxOps, kEnd>)
               : reinterpret_cast<const void*>(&batch_fill<A, cell::PortableOps, kEnd>);
}

}  // namespace

const void* align_kernel(bool local, bool semiglobal, bool affine, bool dpx) {
    if (local) return affine ? pick<true, true, EndCell::best_cell>(dpx) : pick<true, false, EndCell::best_cell>(dpx);
    if (semiglobal)
        return affine ? pick<false, true, EndCell::last_row_col>(dpx) : pick<false, false, EndCell::last_row_col>(dpx);
    return affine ? pick<false, true, EndCell::corner>(dpx) : pick<false, false, EndCell::corner>(dpx);
}

}  // namespace dpviz::cuda::batch
