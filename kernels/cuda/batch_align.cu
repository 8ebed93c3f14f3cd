// Batch kernels of the alignment family: local, global, semi-global and glocal, linear and affine gaps,
// DPX and DPX-free (the same source through cell_ops.hpp).
#include "batch_kernel.cuh"

namespace dpviz::cuda::batch {
namespace {

template <bool kLocal, bool kAffine, EndRule kEnd>
const void* pick(bool dpx) {
    using A = Alg<Kind::align, kLocal, kAffine, false, true, kEnd == EndRule::last_row>;  // glocal: row 0 free
    return dpx ? reinterpret_cast<const void*>(&batch_fill<A, cell::DpxOps, kEnd>)
               : reinterpret_cast<const void*>(&batch_fill<A, cell::PortableOps, kEnd>);
}

}  // namespace

const void* local16_kernel(bool affine, bool dpx) {
    using Linear = Alg<Kind::align, true, false>;
    using Affine = Alg<Kind::align, true, true>;
    constexpr EndRule kEnd = EndRule::best_cell;
    if (affine)
        return dpx ? reinterpret_cast<const void*>(&batch_fill<Affine, cell::Dpx16x2Ops, kEnd>)
                   : reinterpret_cast<const void*>(&batch_fill<Affine, cell::Portable16x2Ops, kEnd>);
    return dpx ? reinterpret_cast<const void*>(&batch_fill<Linear, cell::Dpx16x2Ops, kEnd>)
               : reinterpret_cast<const void*>(&batch_fill<Linear, cell::Portable16x2Ops, kEnd>);
}

// Local alignment is the one with the best-cell end rule (and the floor at 0).
const void* align_kernel(EndRule end, bool affine, bool dpx) {
    switch (end) {
        case EndRule::best_cell:
            return affine ? pick<true, true, EndRule::best_cell>(dpx) : pick<true, false, EndRule::best_cell>(dpx);
        case EndRule::last_row_or_column:
            return affine ? pick<false, true, EndRule::last_row_or_column>(dpx)
                          : pick<false, false, EndRule::last_row_or_column>(dpx);
        case EndRule::last_row:
            return affine ? pick<false, true, EndRule::last_row>(dpx) : pick<false, false, EndRule::last_row>(dpx);
        case EndRule::corner: break;
    }
    return affine ? pick<false, true, EndRule::corner>(dpx) : pick<false, false, EndRule::corner>(dpx);
}

}  // namespace dpviz::cuda::batch
