// The shape of the band decompositions, shared by the kernels that run them and by the schedule
// that describes them (schedule.hpp): one definition, so the drawing cannot drift from the code.
// Plain C++ (no CUDA types); the functions are __host__ __device__ when nvcc compiles them.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define DPVIZ_BAND_FN __host__ __device__ __forceinline__ constexpr
#else
#define DPVIZ_BAND_FN constexpr
#endif

namespace dpviz {

// The CUDA fill (kernels/cuda/band_kernel.cuh): one warp sweeps a band of kLanes * kRows rows
// across all columns, kCols columns per step, lane l one step behind lane l-1. Chunks of kSteps
// steps are the unit of input staging; the row above travels between bands in parts of
// kHandSteps steps.
namespace gpu_band {

inline constexpr int kLanes = 32;
inline constexpr int kRows = 4;
inline constexpr int kCols = 2;
inline constexpr int kBandRows = kLanes * kRows;
inline constexpr int kSteps = 32;
inline constexpr int kChunkCols = kSteps * kCols;
inline constexpr int kHandSteps = 8;  // steps per hand-over of the row above between bands
inline constexpr int kHandParts = kSteps / kHandSteps;
static_assert(kHandSteps * kHandParts == kSteps && (kHandSteps & (kHandSteps - 1)) == 0, "hand-over parts");
inline constexpr int kMaxWarpsPerBlock = 4;
// Blocks per SM of a score-level fill, though 5 fit: on an H200, 4 were 7 % faster than 5 for edit
// distance and DTW at 1,048,576^2 and equal for local affine, and equal at 65,536^2 and
// 262,144^2; 2 and 3 were slower (docs/gpu.md, "Blocks per SM").
inline constexpr int kScoreBlocksPerSm = 4;
inline constexpr int kColBufTail = 8;  // ints after a chunk's column inputs (read ahead, zero)
inline constexpr int kColBufInts = 2 * kChunkCols + kColBufTail;  // a chunk's columns + the read-ahead

// Shared memory of one warp of the band fill: the substitution profile (A letters x 32 lanes x
// an int4) where the algorithm has one, a chunk's staged steps (an int4 each) and its column
// inputs.
DPVIZ_BAND_FN long profile_bytes_per_warp(int A, bool profile) {
    return (profile ? long(A) * 32 * 16 : 0) + long(kSteps) * 16 + long(kColBufInts) * 4;
}
// Fills that keep checkpoint lines (the store's, the picture's): a warp's rows of a column line
// pass through shared memory, each lane's as it reaches the line, then the band's at once (H, and
// E with affine gaps).
DPVIZ_BAND_FN long line_stash_bytes(bool lines, bool affine) { return lines ? long(kBandRows) * 4 * (affine ? 2 : 1) : 0; }
// Warps per block of the band fill: kMaxWarpsPerBlock, fewer when their shared memory would pass
// what a block may opt in to (`optin` bytes; 0 when even one warp does not fit).
DPVIZ_BAND_FN int warps_per_block(long per_warp, long optin) {
    int wpb = kMaxWarpsPerBlock;
    while (wpb > 1 && per_warp * wpb > optin) --wpb;
    return per_warp * wpb > optin ? 0 : wpb;
}

// Rows i >= 1 and columns j >= 1 are matrix indices (row 0 and column 0 are the borders).
DPVIZ_BAND_FN int band_of_row(int i) { return (i - 1) / kBandRows; }
DPVIZ_BAND_FN int lane_of_row(int i) { return ((i - 1) % kBandRows) / kRows; }
DPVIZ_BAND_FN int row_in_lane(int i) { return (i - 1) % kRows; }
DPVIZ_BAND_FN int first_row(int band, int lane) { return 1 + band * kBandRows + lane * kRows; }
// At step s of its band, lane l computes columns first_col(s, l) .. + kCols - 1 of its rows.
DPVIZ_BAND_FN int first_col(int step, int lane) { return kCols * (step - lane) + 1; }
DPVIZ_BAND_FN int step_of(int j, int lane) { return (j - 1) / kCols + lane; }
DPVIZ_BAND_FN int col_in_step(int j) { return (j - 1) % kCols; }
// Bands of an M-row matrix; steps of a band that hold cells of an N-column matrix (the last
// lane finishes column N at step steps - 1); chunks the kernel sweeps (a multiple of kSteps).
DPVIZ_BAND_FN int band_count(int M) { return (M + kBandRows - 1) / kBandRows; }
DPVIZ_BAND_FN int band_steps(int N) { return (N + kCols - 1) / kCols + kLanes - 1; }
DPVIZ_BAND_FN int band_chunks(int N) { return (band_steps(N) + kSteps - 1) / kSteps; }

// The bottom rows a band hands to the next one. A score-level fill passes them through a ring of
// kRingRows rows (band b writes slot b mod kRingRows, each entry tagged with its band), so its
// memory is linear in the lengths. The other levels keep every band's row, and so does local
// alignment's score level when they fit in kWholeRowsBytes (`row_bytes` a row): its end-cell search
// re-runs a band over the row above it (past the ring, the search runs on the host over
// checkpoint lines, kLocateSpacing). Band b + ring overwrites column j of a slot only after band
// b + 1 has read it: it computes j only after band b + ring - 1 did, and so on up to band b + 1.
inline constexpr int kRingRows = 64;  // a power of two
inline constexpr long long kWholeRowsBytes = 4ll << 30;
DPVIZ_BAND_FN int ring_rows(int nbands, bool score_level, bool local, long long row_bytes) {
    const int all = nbands > 1 ? nbands - 1 : 0;
    if (!score_level || all <= kRingRows) return all;
    return local && row_bytes * all <= kWholeRowsBytes ? all : kRingRows;
}
// A local score-level fill whose ring wraps keeps checkpoint lines this far apart (row lines at
// band bottoms, column lines) for the end-cell search, which then runs on the host over one tile.
inline constexpr int kLocateSpacing = 4096;

// Bands go to the persistent grid's warps round-robin: warp w of block k (wpb warps per block)
// runs bands first_band(k, w, wpb), + band_stride(blocks, wpb), ...
DPVIZ_BAND_FN int first_band(int block, int warp, int wpb) { return block * wpb + warp; }
DPVIZ_BAND_FN int band_stride(int blocks, int wpb) { return blocks * wpb; }
DPVIZ_BAND_FN int block_of_band(int band, int blocks, int wpb) { return band % band_stride(blocks, wpb) / wpb; }
DPVIZ_BAND_FN int warp_of_band(int band, int blocks, int wpb) { return band % band_stride(blocks, wpb) % wpb; }

// The owner word of the fill's optional per-cell output (FillParams::owner).
static_assert(kMaxWarpsPerBlock <= 4 && kLanes == 32, "owner word: 5 bits of lane, 2 of warp");
DPVIZ_BAND_FN uint32_t pack_owner(unsigned block, unsigned warp, unsigned lane) {
    return (block << 7) | (warp << 5) | lane;
}
DPVIZ_BAND_FN int owner_block(uint32_t w) { return int(w >> 7); }
DPVIZ_BAND_FN int owner_warp(uint32_t w) { return int((w >> 5) & 3u); }
DPVIZ_BAND_FN int owner_lane(uint32_t w) { return int(w & 31u); }

}  // namespace gpu_band

// The fast CPU backend (kernels/cpu/parallel.cpp): a band is `lanes` rows (one SIMD lane per
// row: 16 with AVX-512, 8 with AVX2, 4 with SSE2); lane k does column t - k at step t
// (t = 1 .. N + lanes - 1); bands hand their bottom row on after every chunk of kChunkSteps steps.
namespace cpu_band {

inline constexpr int32_t kChunkSteps = 256;

}  // namespace cpu_band

}  // namespace dpviz
