// The CPU backend's step kernels compiled for the x86-64 baseline (SSE2), 4 int32 lanes per band.
// The kernels are in wavefront_kernel.inl; parallel.cpp picks an instruction set at run time.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dpviz/types.hpp"
#include "wavefront.hpp"

#define DPVIZ_LANES 4
#define DPVIZ_WAVEFRONT_NS sse2
#include "wavefront_kernel.inl"
#undef DPVIZ_WAVEFRONT_NS
#undef DPVIZ_LANES
namespace dpviz::wavefront {

Isa isa_sse2() { return {"sse2", 4, &sse2::run_chunk, &sse2::pool_chunk}; }

}  // namespace dpviz::wavefront
