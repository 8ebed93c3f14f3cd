// The seam between the CPU backend's band driver (parallel.cpp) and its SIMD step kernels
// (wavefront_<isa>.cpp, one translation unit per instruction set, all built from wavefront_kernel.inl).
#pragma once

// Plain structs and function pointers only: the kernel translation units are compiled for
// other instruction sets and must not instantiate standard-library templates (a weak symbol
// compiled for AVX-512 could be picked by the linker for code that runs on any x86-64).
#include <cstdint>

namespace dpviz::wavefront {

// A band is `lanes` consecutive matrix rows computed together: lane k holds row i0 + k and, at
// step t, column j = t - k (the lanes form an anti-diagonal, like a GPU warp skewed by one
// column per lane). Steps run from 1 to N + lanes - 1. Edit distance and LCS run as the
// linear-gap alignment family (edit negated, LCS with free gaps and a prohibitive mismatch).
enum class Family : uint8_t { align_linear, align_affine, dtw_abs, dtw_squared };
// What a step writes to the chunk buffers: H and F always (the driver needs the band's bottom
// row), E too at `checkpoints` (no direction bits: the result store's restart values) and at
// `matrix`, direction bits at `dirs` and `matrix`.
enum class Store : uint8_t { score, checkpoints, dirs, matrix };

struct Kernel {  // constant for one alignment
    Family family = Family::align_linear;
    Store store = Store::score;
    bool local = false;    // clamp at 0, kZero bit, track the maximum
    bool table = false;    // substitution scores from the band's profile; else match/mismatch by code
    int32_t open = 0, extend = 0;
    int32_t match = 0, mismatch = 0;
    int32_t n = 0;         // N, target length (columns 1..N)
    // Target values reversed, so that one unaligned load gives every lane its column: for the
    // load at step t, lane k reads trev[N - t + k] = value of column t - k. Valid for indices
    // [1 - lanes, N + lanes - 2]; columns outside 1..N hold 0. Values: target code, or the
    // fixed-point sample (DTW).
    const int32_t* trev = nullptr;
    // Table scoring: target codes in column order, tfwd[j] for column j, valid for indices
    // [1 - lanes - 16, N + lanes + 16]; columns outside 1..N hold 0.
    const int32_t* tfwd = nullptr;
    int32_t alphabet = 0;  // codes 0..alphabet-1
};

// A lane's profile row: 32 entries (two AVX-512 registers, one permute per 16 steps) for
// alphabets of up to 32 letters, the alphabet size beyond.
constexpr int32_t profile_stride(int32_t alphabet) { return alphabet <= 32 ? 32 : alphabet; }

// Per band: what the lanes need and the state carried from chunk to chunk.
inline constexpr int kStateVectors = 6;  // H(t-1), E(t-1), F(t-1), H(up, t-1) = diagonal, max, step of max
struct Band {
    const int32_t* query = nullptr;    // lanes: query code or fixed-point sample of row i0 + k
    const int32_t* profile = nullptr;  // table: profile[k * profile_stride(alphabet) + code] = s(query[k], code)
    const int32_t* lo = nullptr;       // DTW: lanes: first and last column of the row inside the band
    const int32_t* hi = nullptr;
    int32_t* state = nullptr;          // kStateVectors * lanes values, vector v at state + v * lanes
};

// One chunk of steps [a, z] of one band. The kernel runs the steps, writing lane k of step t to
// the buffers at (t - a) * lanes + k, then hands the band's last row on (bottom_h/bottom_f at
// its columns, which are the next band's top_h/top_f) and copies the direction bits of its
// cells into the row-major grid.
struct Chunk {
    int32_t a = 1, z = 0;
    const int32_t* top_h = nullptr;  // H and F of the row above, by column; valid for [2 - lanes, N + lanes - 1]
    const int32_t* top_f = nullptr;
    int32_t* h = nullptr;            // buffers of (a multiple of 16 steps) x lanes values
    int32_t* e = nullptr;
    int32_t* f = nullptr;
    uint8_t* dirs = nullptr;
    int32_t* scores = nullptr;       // table scoring: the substitution scores of the chunk's steps
    int rows = 0;                    // real rows of the band (the last band may be short)
    int32_t* bottom_h = nullptr;     // by column: H and F of the band's last row (lane rows - 1)
    int32_t* bottom_f = nullptr;
    uint8_t* grid = nullptr;         // direction bits of cell (i0, 0), or null
    size_t grid_stride = 0;          // N + 1
};

using ChunkFn = void (*)(const Kernel&, const Band&, const Chunk&);

// A chunk's H pooled into an overview (dpviz/store.hpp) at block B: lane k's cells are row i0 + k,
// columns max(1, a - k) .. min(n, z - k), each value times `sign`. A texel keeps the largest value
// of its cells (the lowest when `lowest`); values outside (-bound, bound) are not finite and only
// mark the overview as holding unreachable cells.
struct PoolChunk {
    const int32_t* h = nullptr;    // the chunk's H buffer (lanes x steps, as Chunk::h)
    int32_t a = 1, z = 0;          // steps
    int32_t n = 0;                 // N
    int rows = 0;                  // real rows of the band
    int32_t i0 = 0;                // the band's first row
    int32_t sign = 1;
    int32_t block = 1;
    bool lowest = false;
    int32_t bound = 0;
    int32_t* texels = nullptr;     // texel (0, 0); rows of texel_cols texels
    int64_t texel_cols = 0;
};
// The finite values' range, updated by a pool.
struct PoolRange {
    int32_t min = 0, max = 0;
    bool any_finite = false, any_unreachable = false;
};
using PoolFn = void (*)(const PoolChunk&, PoolRange&);
inline constexpr int32_t kMaxPoolSteps = 256;  // the pool's fast path takes chunks of up to this many steps

struct Isa {
    const char* name = "";  // "sse2", "avx2", "avx512"
    int lanes = 0;
    ChunkFn run = nullptr;
    PoolFn pool = nullptr;
};

Isa isa_sse2();
Isa isa_avx2();
Isa isa_avx512();

}  // namespace dpviz::wavefront
