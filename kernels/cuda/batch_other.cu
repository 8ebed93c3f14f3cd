// Batch kernels of edit distance, LCS and DTW (abs and squared cost), DPX and DPX-free.
#include "batch_kernel.cuh"

namespace dpviz::cuda::batch {
namespace {

template <class A>
const void* pick(bool dpx) {
    return dpx ? reinterpret_cast<const void*>(&batch_fill<A, cell::DpxOps, EndRule::corner>)
               : reinterpret_cast<const void*>(&batch_fill<A, cell::PortableOps, EndRule::corner>);
}

}  // namespace

const void* edit_kernel(bool dpx) { return pick<Alg<Kind::edit>>(dpx); }
const void* edit16_kernel(bool dpx) {
    return dpx ? reinterpret_cast<const void*>(&batch_fill<Alg<Kind::edit>, cell::Dpx16x2Ops, EndRule::corner>)
               : reinterpret_cast<const void*>(&batch_fill<Alg<Kind::edit>, cell::Portable16x2Ops, EndRule::corner>);
}
const void* lcs_kernel(bool dpx) { return pick<Alg<Kind::lcs>>(dpx); }
const void* dtw_kernel(bool squared, bool dpx) {
    return squared ? pick<Alg<Kind::dtw, false, false, true>>(dpx) : pick<Alg<Kind::dtw>>(dpx);
}

}  // namespace dpviz::cuda::batch
