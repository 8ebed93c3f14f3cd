// The CPU backend's step kernels compiled for AVX-512 (F, BW, VL, DQ), 16 int32 lanes per band.
// The kernels are in wavefront_kernel.inl; parallel.cpp picks an instruction set at run time.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dpviz/types.hpp"
#include "wavefront.hpp"

#pragma GCC push_options
#pragma GCC diagnostic push
// GCC 12 flags the undefined pass-through operand inside its own AVX-512 intrinsics.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#if defined(__clang__)  // clang ignores GCC's target pragma; this is its equivalent
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512dq"))), apply_to = function)
#else
#pragma GCC target("avx2,bmi,bmi2,popcnt,fma,avx512f,avx512bw,avx512vl,avx512dq")
#endif
#define DPVIZ_LANES 16
#define DPVIZ_WAVEFRONT_NS avx512
#include "wavefront_kernel.inl"
#undef DPVIZ_WAVEFRONT_NS
#undef DPVIZ_LANES
#if defined(__clang__)
#pragma clang attribute pop
#endif
#pragma GCC diagnostic pop
#pragma GCC pop_options

// Outside the target region: parallel.cpp calls this on any x86-64 before it checks the CPU.
namespace dpviz::wavefront {

Isa isa_avx512() { return {"avx512", 16, &avx512::run_chunk, &avx512::pool_chunk}; }

}  // namespace dpviz::wavefront
