// What the host hands every band kernel (one plain struct, passed by value) and the shape of
// the band decomposition. Shared by the per-family .cu files and dispatch.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.hpp"
#include "dpviz/band_shape.hpp"

namespace dpviz::cuda {

// One warp sweeps a band of 32 * kRows rows across all columns, kCols columns per step, lanes
// skewed by one step. Chunks of kSteps steps are the unit of input staging and bookkeeping.
// The shape and the cell -> (band, lane, step) functions live in dpviz/band_shape.hpp, which
// the teaching views' schedule uses too.
using gpu_band::kRows;
using gpu_band::kCols;
using gpu_band::kBandRows;
using gpu_band::kSteps;
using gpu_band::kChunkCols;
using gpu_band::kHandSteps;
using gpu_band::kHandParts;
using gpu_band::kMaxWarpsPerBlock;
inline constexpr int kSnapEvery = 16;    // chunks between warp-state snapshots (local end-cell search)
inline constexpr int kColPad = 128;      // padding of column-indexed arrays on both sides

struct LaunchShape;

// score: the score and end cell; store: those and the checkpoint lines (ck_*); picture: those
// and the overview (ov_*); path: direction bits too; matrix: H, E, F and bits; locate: the local
// end-cell search's re-run of one band.
enum class Out { score, store, picture, path, matrix, locate };

struct FillParams {
    int M = 0, N = 0;
    int nbands = 0, nchunks = 0, steps_alloc = 0;  // steps_alloc = nchunks * kSteps
    int A = 0;                                     // alphabet size (profile rows)
    int open = 0, ext = 0;                         // alignment gaps (linear: open == ext)
    int gap_border = 0;                            // alignment: column 0 costs gaps (global, glocal; row 0 too
                                                   //   unless the kernel's row 0 is free: Alg::kFreeTop)
    int last_row = 0;                              // capture row M (the end rule reads it)
    int band = -1;                                 // DTW Sakoe-Chiba half-width, -1 = none
    int snap_bias = 0;                             // bias of the values in `snap` (locate converts)

    const int32_t* rows = nullptr;   // [M + kBandRows + 1], index i: query code or DTW value
    const int32_t* cols = nullptr;   // [N + 2 kColPad], index kColPad + j - 1: profile byte offset or DTW value
    const int32_t* table = nullptr;  // [A * A] score of (query code, target code)

    // Bottom row of band b, column j at slot * bot_pitch + kColPad + j - 1, as {value, tag} pairs
    // (biased as the kernel holds them): a column is published when its 64-bit pair carries band
    // b's tag, epoch + b (no flags, no fences). The slot is b & ring_mask (gpu_band::ring_rows
    // says when slots are reused); an Out::store fill's row line i = K, 2K, .. <= M has slot
    // ring + i / K - 1, kept to the end.
    int2* bot_h = nullptr;
    int2* bot_f = nullptr;           // affine: F of that row
    long long bot_pitch = 0;
    int ring_mask = -1;              // a ring of 2^k slots: 2^k - 1; every band its own slot: -1
    int ring = 0;                    // slots before the row lines'
    int epoch = 1;                   // > 0; launches over the same buffers use disjoint tags epoch .. epoch + nbands - 1
    int spin_ns = 0;                 // sleep between two polls of the row above (0: spin)

    int32_t* lastcol = nullptr;      // [M + 1] H(i, N)
    int32_t* rowbest = nullptr;      // local: [M + 1] best H of row i
    int32_t* rowchunk = nullptr;     // local: [M + 1] chunk where row i first reached it
    int32_t* rowM = nullptr;         // semi-global, glocal: [N + 1] H(M, j)
    int32_t* snap = nullptr;         // local: [nbands][nsnap][fields][32]
    int nsnap = 0;
    uint32_t* dirs = nullptr;        // path: [nbands][steps_alloc][32][words per step]
    // Matrix level: the kernel writes H, E, F in its own order, coalesced: band b, step s, column
    // k of the step, lane l -> int4 (rows 0..3 of the lane) at ((b * steps_alloc + s) * 2 + k) * 32 + l,
    // unbiased; the direction bits go to `dirs` as at level path. unpack_matrix (dispatch.cu) then
    // writes the row-major (M+1) x (N+1) interiors Hm, Em, Fm (and unpack_dirs Dm).
    int4* Hb = nullptr;
    int4* Eb = nullptr;
    int4* Fb = nullptr;
    int32_t* Hm = nullptr;           // matrix level: (M+1) x (N+1), interior written by unpack_matrix
    int32_t* Em = nullptr;
    int32_t* Fm = nullptr;
    uint8_t* Dm = nullptr;

    // Checkpoint lines of an Out::store fill, phase 0: the row lines in bot_h / bot_f (above);
    // column line j = K, 2K, .. <= N at (j / K - 1) (M + 1) + i (H, and E with affine gaps),
    // unbiased, as dpviz::Checkpoints lays them out (row 0's entry is the host's: the rules).
    int ck_spacing = 0;              // K: a power of two, a multiple of kBandRows
    int ck_shift = 0;                // log2(K): the lines' indices by shifts, not by divisions
    int32_t* ck_col_h = nullptr;
    int32_t* ck_col_e = nullptr;

    // The overview of an Out::picture fill (dpviz::Overview): cell (i, j) pooled into texel
    // (i / ov_block, j / ov_block) at ov[texel row * ov_cols + texel column], the best finite value
    // (the largest; the lowest for edit distance and DTW) by atomics, unbiased; the worst finite
    // value of every cell (the lowest; the largest) into ov_worst[0]. The host sets both to values
    // that are not finite first, and pools the borders itself.
    int ov_block = 0, ov_cols = 0;
    int32_t* ov = nullptr;
    int32_t* ov_worst = nullptr;

    // A rectangle of a bigger matrix (Out::matrix, fill_rect_gpu): row 0 (H, F) and column 0 (H, E)
    // given, unbiased, in place of the rules; top_* hold N + 2 entries, left_* M + 1. DTW's band
    // stays the whole matrix's: row i, column j here are its row off_i + i, column off_j + j of
    // full_M x full_N (a whole fill: 0, 0, M, N).
    const int32_t* top_h = nullptr;
    const int32_t* top_f = nullptr;
    const int32_t* left_h = nullptr;
    const int32_t* left_e = nullptr;
    int off_i = 0, off_j = 0, full_M = 0, full_N = 0;

    int loc_band = 0, loc_lane = 0, loc_r = 0, loc_chunk = 0, loc_target = 0;  // local end-cell search
    int* loc_out = nullptr;

    uint32_t* owner = nullptr;       // matrix level, optional (tests): gpu_band::pack_owner per band, step and lane,
                                     // at (b * steps_alloc + s) * 32 + l (unpack_matrix spreads it to the cells)
    LaunchShape* launched = nullptr; // host side only, optional: launch_band records the shape it chose
};

struct LaunchShape {
    int blocks = 0;
    int warps_per_block = 0;
    size_t smem_bytes = 0;
};

// Per-family launchers (alignment.cu, edit.cu, lcs.cu, dtw.cu). `variant` picks the kernel
// inside the family: alignment {local, affine}, dtw {squared}.
struct Variant {
    bool local = false;
    bool affine = false;
    bool squared = false;
    bool free_top = false;  // alignment: row 0 free, column 0 by FillParams::gap_border (glocal)
};

Status launch_alignment(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s);
Status launch_glocal(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s);  // glocal.cu
Status launch_edit(const FillParams& p, bool dpx, Out out, cudaStream_t s);
Status launch_lcs(const FillParams& p, bool dpx, Out out, cudaStream_t s);
Status launch_dtw(const FillParams& p, Variant v, bool dpx, Out out, cudaStream_t s);
// A kernel of the family, for occupancy queries and "is there code for this device".
const void* probe_kernel();

}  // namespace dpviz::cuda
