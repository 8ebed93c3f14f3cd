// The band-wavefront fill shared by every algorithm family: a persistent grid, one warp per band
// of 32 * kRows rows sweeping all columns (lanes skewed one step, values passed by shuffle),
// bands pipelined through a bottom-row buffer whose entries carry their band's tag.
//
// Index of this file
//   [SECTION] Algorithm traits       which recurrence, borders, per-column inputs
//   [SECTION] Band sweep             the per-warp state and one step of the wavefront
//   [SECTION] Kernels and launchers  fill, end-cell search (locate), launch helpers
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cell_ops.hpp"
#include "dpviz/types.hpp"
#include "fill_params.hpp"
#include "warp_step.cuh"

namespace dpviz::cuda {

// ---------------------------------------------------------------------------------------------
// [SECTION] Algorithm traits
// ---------------------------------------------------------------------------------------------
// Kind, Alg (which recurrence, borders, per-column inputs): warp_step.cuh, shared with the
// batch kernel.

// ---------------------------------------------------------------------------------------------
// [SECTION] Band sweep
// ---------------------------------------------------------------------------------------------
using gpu_band::kColBufInts;
using gpu_band::kColBufTail;
using gpu_band::kLanes;

// The columns of a step (step(), top_values(), the bottom-row publication) are spelled out below
// rather than called through band_shape.hpp's first_col: the same values, but the call form
// changes ptxas's register allocation of the score and path kernels (measured with -Xptxas -v:
// 8 to 16 registers and new spills in several of them), the spelled form keeps it as it was.
// This check ties each spelled form to the shared function the teaching views' schedule uses.
constexpr bool columns_spelled_as_band_shape() {
    for (int s = 0; s < 4 * kSteps; ++s)
        for (int l = 0; l < gpu_band::kLanes; ++l) {
            if (kCols * (s - l) + 1 != gpu_band::first_col(s, l)) return false;                 // step()
            if (gpu_band::step_of(gpu_band::first_col(s, l), l) != s) return false;
        }
    for (int c = 0; c < 4; ++c)
        for (int q = 0; q < kHandParts; ++q)
            for (int k = 0; k < kHandSteps; ++k)  // top_values(): lane 0's columns at step kSteps c + kHandSteps q + k
                if (kChunkCols * c + kCols * (kHandSteps * q + k) + 1 != gpu_band::first_col(kSteps * c + kHandSteps * q + k, 0))
                    return false;
    for (int s = 31; s < 4 * kSteps; ++s)  // publication by lane 31: the bottom row's columns from 1 on
        if (kCols * (s - 31) + 1 != gpu_band::first_col(s, gpu_band::kLanes - 1)) return false;
    return true;
}
static_assert(columns_spelled_as_band_shape(), "band_kernel.cuh and dpviz/band_shape.hpp disagree on the columns of a step");

template <class A, class Ops, Out kOut>
struct BandSweep {
    static constexpr bool kAffine = A::kAffine;
    static constexpr bool kLocal = A::kLocal;
    static constexpr bool kLocate = kOut == Out::locate;
    static constexpr bool kDirs = kOut == Out::path || kOut == Out::matrix;
    static constexpr bool kLines = kOut == Out::store || kOut == Out::picture;  // checkpoint lines
    static constexpr bool kPicture = kOut == Out::picture;
    static constexpr bool kGiven = kOut == Out::matrix;  // a rectangle's borders may be given (FillParams::top_h)
    static constexpr int kBits = kAffine ? 8 : 4;
    static constexpr int kWords = kRows * kCols * kBits / 32;
    static constexpr int kSnapFields = kRows + (kAffine ? kRows : 0) + 1 + kCols + (kAffine ? kCols : 0);
    static constexpr int32_t kBias = A::kKind == Kind::align ? Ops::kAlignBias : 0;
    static_assert(kCols == 2, "the column-input and staging code below moves two columns per step");
    static_assert(kWords == 1 || kWords == 2, "direction words per lane and step");

    const FillParams& p;
    const int b, lane;
    const int i_lane;                // first row of this lane
    const char* prof_lane;           // this lane's column of the profile (bytes)
    int4* stage;                     // 32 steps x {H, H, F, F} of the row above (lane 31 reads)
    int* colbuf;                     // the chunk's per-column inputs, columns 64c - 63 .. 64c + 64
    int4* stash;                     // kLines: the band's rows of the column line being kept (H, then E)

    int q[kRows];                    // DTW: query values of the lane's rows
    int jlo[kRows];                  // DTW band: first column of the row, and span
    unsigned jspan[kRows];
    int h[kRows], e[kRows];          // H, E of the last column done, per row (biased)
    int diag;                        // H(row above, column before the next block)
    int bh[kCols], bf[kCols];        // H, F of the lane's bottom row for the last block
    int run[kRows], best[kRows], bestc[kRows];  // local: running and best H per row
    int cap_r;                       // semi-global: which of the lane's rows is row M, or -1
    int found_j;                     // locate: first column of the target row with H == target
    // Out::picture: the best value of each row in the current block of columns, the worst value
    // of each row so far, the first column of the next block, the current block, the block of
    // rows of the lane's first row, and which of its rows begin a new block of rows (bit r).
    int pacc[kRows], pworst[kRows];
    int pnext, pcb, prb, pnew;

    __device__ BandSweep(const FillParams& p_, int b_, int lane_, const char* prof_warp, int4* stage_)
        : p(p_), b(b_), lane(lane_), i_lane(gpu_band::first_row(b_, lane_)),
          prof_lane(prof_warp + lane_ * 16), stage(stage_), colbuf(reinterpret_cast<int*>(stage_ + kSteps)),
          stash(reinterpret_cast<int4*>(colbuf + kColBufInts)) {}

    __device__ __forceinline__ int floor_value() const { return kBias; }

    // Row inputs, the profile, and the state at column 0.
    __device__ void init(int4* prof_warp) {
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const int i = i_lane + r;
            q[r] = i <= p.M ? p.rows[i] : 0;
        }
        // The lane's column of the profile, spelled here rather than called (the batch kernel's
        // lane_profile): the call form changes ptxas's register allocation of the affine path
        // kernels (spills, +6 % on an H200).
        if constexpr (A::kProfile) {
            for (int c = 0; c < p.A; ++c) {
                int4 v;
                v.x = p.table[q[0] * p.A + c];
                v.y = p.table[q[1] * p.A + c];
                v.z = p.table[q[2] * p.A + c];
                v.w = p.table[q[3] * p.A + c];
                prof_warp[c * 32 + lane] = v;
            }
            __syncwarp();
        }
        if constexpr (A::kKind == Kind::dtw) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                dtw_row_band(p.off_i + i_lane + r, p.full_M, p.full_N, p.band, jlo[r], jspan[r]);
                jlo[r] -= p.off_j;
            }
        }
        // colbuf's tail (past the 128 columns a chunk writes) is read ahead, never used: keep it a
        // valid profile offset.
        if (lane < kColBufTail) colbuf[kChunkCols * 2 + lane] = 0;
        __syncwarp();
        reset_state();
        cap_r = -1;
        if constexpr (A::kCapture) {
            if (p.last_row && p.M >= i_lane && p.M < i_lane + kRows) cap_r = p.M - i_lane;
        }
        found_j = -1;
        if constexpr (kPicture) pool_init();
    }

    // Column 0 (H, and E) by the rules, or as given (a rectangle of a bigger matrix).
    __device__ __forceinline__ int left_h(int i) const {
        if (kGiven && p.left_h) return p.left_h[Ops::index_min(i, p.M)];
        return A::template border<false>(p, i);
    }
    __device__ void reset_state() {
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            h[r] = left_h(i_lane + r) + kBias;
            e[r] = (kGiven && p.left_e ? p.left_e[Ops::index_min(i_lane + r, p.M)] : kNegInf) + kBias;
            run[r] = floor_value();
            best[r] = floor_value();
            bestc[r] = 0;
        }
        diag = left_h(i_lane - 1) + kBias;
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
            bh[c] = h[kRows - 1];
            bf[c] = kNegInf + kBias;
        }
    }

    __device__ int32_t* snap_slot(int k) const {
        return p.snap + ((size_t)(b * p.nsnap + k) * kSnapFields) * 32 + lane;
    }
    __device__ void store_snapshot(int k) const {
        int32_t* s = snap_slot(k);
        int f = 0;
#pragma unroll
        for (int r = 0; r < kRows; ++r) s[32 * f++] = h[r];
        if constexpr (kAffine) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) s[32 * f++] = e[r];
        }
        s[32 * f++] = diag;
#pragma unroll
        for (int c = 0; c < kCols; ++c) s[32 * f++] = bh[c];
        if constexpr (kAffine) {
#pragma unroll
            for (int c = 0; c < kCols; ++c) s[32 * f++] = bf[c];
        }
    }
    __device__ void load_snapshot(int k) {
        const int32_t* s = snap_slot(k);
        const int d = kBias - p.snap_bias;
        int f = 0;
#pragma unroll
        for (int r = 0; r < kRows; ++r) h[r] = s[32 * f++] + d;
        if constexpr (kAffine) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) e[r] = s[32 * f++] + d;
        }
        diag = s[32 * f++] + d;
#pragma unroll
        for (int c = 0; c < kCols; ++c) bh[c] = s[32 * f++] + d;
        if constexpr (kAffine) {
#pragma unroll
            for (int c = 0; c < kCols; ++c) bf[c] = s[32 * f++] + d;
        }
    }

    // Band `band`'s bottom row is a row line (Out::store), and the slot of the row buffers it
    // publishes to: the ring's (band & ring_mask), or past the ring the line's own. Shifts, not
    // divisions: the poll of the row above and lane 31's publication compute a slot at every look
    // and step, and an integer division there (20-odd instructions around a MUFU.RCP) took 19 to
    // 29 % of the time of the fills that keep lines on an H200 (docs/performance.md).
    __device__ __forceinline__ bool row_line(int band) const {
        const int bottom = (band + 1) * kBandRows;
        return kLines && (bottom & (p.ck_spacing - 1)) == 0 && bottom <= p.M;
    }
    __device__ __forceinline__ int slot_of(int band) const {
        if (row_line(band)) return p.ring + (((band + 1) * kBandRows) >> p.ck_shift) - 1;
        return band & p.ring_mask;
    }

    // --- the row above: band 0 computes the border, later bands read band b-1's bottom row ---
    // Each column travels as a 64-bit {value, tag} pair (single-copy atomic): the reader spins
    // until every column it needs carries band b-1's tag. Columns past N are never needed.
    static __device__ __forceinline__ void store_pairs(int2* at, int v0, int v1, int tag) {
        const unsigned long long a = (unsigned long long)(unsigned)v0 | ((unsigned long long)(unsigned)tag << 32);
        const unsigned long long c = (unsigned long long)(unsigned)v1 | ((unsigned long long)(unsigned)tag << 32);
        asm volatile("st.relaxed.gpu.global.v2.b64 [%0], {%1, %2};" ::"l"(at), "l"(a), "l"(c));
    }
    static __device__ __forceinline__ void load_pairs(const int2* at, int& v0, int& v1, int& t0, int& t1) {
        unsigned long long a, c;
        asm volatile("ld.relaxed.gpu.global.v2.b64 {%0, %1}, [%2];" : "=l"(a), "=l"(c) : "l"(at));
        v0 = (int)(unsigned)a;
        t0 = (int)(a >> 32);
        v1 = (int)(unsigned)c;
        t1 = (int)(c >> 32);
    }
    // The row above travels in parts of kHandSteps steps (a quarter of a chunk): lane k's share
    // of part q of chunk c is the row-above pair lane 0 needs at step kHandSteps * q + k % kHandSteps
    // (lanes past kHandSteps load the same pairs again, so the warp's vote covers them).
    __device__ __forceinline__ int4 top_values(int c, int q, bool& ok) const {
        const int j = kChunkCols * c + kCols * (kHandSteps * q + (lane & (kHandSteps - 1))) + 1;
        int4 v;
        ok = true;
        if (kGiven && b == 0 && p.top_h) {
            v.x = p.top_h[Ops::index_min(j, p.N + 1)] + kBias;
            v.y = p.top_h[Ops::index_min(j + 1, p.N + 1)] + kBias;
            v.z = (p.top_f ? p.top_f[Ops::index_min(j, p.N + 1)] : kNegInf) + kBias;
            v.w = (p.top_f ? p.top_f[Ops::index_min(j + 1, p.N + 1)] : kNegInf) + kBias;
        } else if (b == 0) {
            v.x = A::template border<true>(p, j) + kBias;
            v.y = A::template border<true>(p, j + 1) + kBias;
            v.z = kNegInf + kBias;
            v.w = kNegInf + kBias;
        } else {
            const size_t at = size_t(slot_of(b - 1)) * p.bot_pitch + kColPad + j - 1;
            const int tag_above = p.epoch + b - 1;
            int t0, t1;
            load_pairs(p.bot_h + at, v.x, v.y, t0, t1);
            ok = (j > p.N || t0 == tag_above) && (j + 1 > p.N || t1 == tag_above);
            if constexpr (kAffine) {
                int u0, u1;
                load_pairs(p.bot_f + at, v.z, v.w, u0, u1);
                ok = ok && (j > p.N || u0 == tag_above) && (j + 1 > p.N || u1 == tag_above);
            } else {
                v.z = v.w = 0;
            }
            if constexpr (kLocate) {
                // The fill that wrote the row may have used another bias than this re-run.
                const int d = kBias - p.snap_bias;
                v.x += d; v.y += d; v.z += d; v.w += d;
                ok = true;
            }
        }
        return v;
    }
    __device__ int4 wait_top_values(int c, int q) const {
        bool ok;
        int4 v = top_values(c, q, ok);
        // Spin without sleeping by default: a warp waits alone on its scheduler, and a sleep
        // (DPVIZ_GPU_SPIN_NS, for measurements) only adds to the hand-over's latency.
        while (!__all_sync(0xffffffffu, ok)) {
            if (p.spin_ns > 0) __nanosleep((unsigned)p.spin_ns);
            v = top_values(c, q, ok);
        }
        return v;
    }
    // Per-column inputs travel through shared memory a chunk at a time (one coalesced load per
    // lane, issued a chunk ahead), so no step waits on global memory for them.
    __device__ __forceinline__ int4 column_chunk(int c) const {
        return *reinterpret_cast<const int4*>(p.cols + kColPad + kChunkCols * c - 64 + 4 * lane);
    }
    __device__ __forceinline__ int2 column_inputs(int s, int c) const {
        return *reinterpret_cast<const int2*>(colbuf + kCols * (s - lane) - (kChunkCols * c - 64));
    }

    // --- one step of the wavefront: lane l does columns j0, j0+1 of its kRows rows ---
    template <bool kGuard, bool kCap>
    __device__ __forceinline__ void step(int s, int4 top, int2 cd, const int4 (&scv)[kCols], bool publishes) {
        // The row above (`top`: lane 0's, read from the stage a step ahead).
        int uh[kCols], uf[kCols];
        rows_above<kAffine>(bh, bf, top, lane, uh, uf);

        const int j0 = kCols * (s - lane) + 1;
        const bool started = !kGuard || s >= lane;
        const int cdv[kCols] = {cd.x, cd.y};

        int nh[kRows][kCols], ne[kRows][kCols], nf[kRows][kCols];
        uint32_t bits[kRows][kCols];
        step_cells<A, Ops, kDirs, A::kBanded>(*this, uh, uf, scv, cdv, j0, p.open, p.ext, floor_value(), nh, ne, nf, bits);

        // Outputs of this step (before the state moves on).
        if constexpr (kOut == Out::path || kOut == Out::matrix) {
            uint32_t w[kWords];
            if constexpr (kWords == 1) {
                w[0] = 0;
#pragma unroll
                for (int k = 0; k < kCols; ++k)
#pragma unroll
                    for (int r = 0; r < kRows; ++r) w[0] |= bits[r][k] << ((k * kRows + r) * kBits);
                p.dirs[((size_t)b * p.steps_alloc + s) * 32 + lane] = w[0];
            } else {
#pragma unroll
                for (int k = 0; k < kCols; ++k) {
                    w[k] = 0;
#pragma unroll
                    for (int r = 0; r < kRows; ++r) w[k] |= bits[r][k] << (r * kBits);
                }
                reinterpret_cast<uint2*>(p.dirs)[((size_t)b * p.steps_alloc + s) * 32 + lane] = make_uint2(w[0], w[1]);
            }
        }
        if constexpr (kOut == Out::matrix) {
            // Whole int4s in the kernel's own order (one 512-byte store per warp and array);
            // unpack_matrix moves them to row-major afterwards. Slots of lanes that have not
            // started, and of columns past N, hold values no cell reads.
            static_assert(kRows == 4 && kCols == 2, "one int4 per lane, step and column");
            const size_t at = ((size_t)b * p.steps_alloc + s) * 2 * 32 + lane;
#pragma unroll
            for (int k = 0; k < kCols; ++k) {
                p.Hb[at + 32 * k] = make_int4(nh[0][k] - kBias, nh[1][k] - kBias, nh[2][k] - kBias, nh[3][k] - kBias);
                if constexpr (kAffine) {
                    p.Eb[at + 32 * k] = make_int4(ne[0][k] - kBias, ne[1][k] - kBias, ne[2][k] - kBias, ne[3][k] - kBias);
                    p.Fb[at + 32 * k] = make_int4(nf[0][k] - kBias, nf[1][k] - kBias, nf[2][k] - kBias, nf[3][k] - kBias);
                }
            }
            if (p.owner && started)
                p.owner[((size_t)b * p.steps_alloc + s) * 32 + lane] =
                    gpu_band::pack_owner(blockIdx.x, threadIdx.x >> 5, lane);
        }
        if constexpr (kGuard) {
            // Column N passes through every lane inside a guarded chunk (see sweep()).
            if (started && !kLocate) {
#pragma unroll
                for (int k = 0; k < kCols; ++k)
                    if (j0 + k == p.N) {
#pragma unroll
                        for (int r = 0; r < kRows; ++r)
                            if (i_lane + r <= p.M) p.lastcol[i_lane + r] = nh[r][k] - kBias;
                    }
            }
        }
        if constexpr (kCap) {
            if (cap_r >= 0 && started) {
#pragma unroll
                for (int k = 0; k < kCols; ++k)
#pragma unroll
                    for (int r = 0; r < kRows; ++r)
                        if (r == cap_r && j0 + k <= p.N) p.rowM[j0 + k] = nh[r][k] - kBias;
            }
        }
        if constexpr (kLocal && !kLocate) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                int v0 = nh[r][0], v1 = nh[r][1];
                if constexpr (kGuard) {
                    v0 = (started && j0 <= p.N) ? v0 : floor_value();
                    v1 = (started && j0 + 1 <= p.N) ? v1 : floor_value();
                }
                run[r] = Ops::max3(run[r], v0, v1);
            }
        }
        if constexpr (kLocate) {
            if (lane == p.loc_lane && started && found_j < 0) {
#pragma unroll
                for (int k = 0; k < kCols; ++k)
#pragma unroll
                    for (int r = 0; r < kRows; ++r)
                        if (r == p.loc_r && found_j < 0 && j0 + k <= p.N && nh[r][k] == p.loc_target + kBias)
                            found_j = j0 + k;
            }
        }

        // The picture's pooling may branch (a lane's flush), and the band below waits on lane 31's
        // bottom row, so the picture's fill publishes it first (profiled: the picture's warps
        // spend most of their stall samples polling the row above).
        if constexpr (kPicture) {
            if (publishes && lane == 31 && (!kGuard || s >= 31))
                publish_bottom(s, nh[kRows - 1][0], nh[kRows - 1][1], kAffine ? nf[kRows - 1][0] : 0,
                               kAffine ? nf[kRows - 1][1] : 0);
            pool_step<kGuard>(j0, started, nh);
        }

        // Move on (lanes not yet at column 1 keep the column-0 state).
        if (started) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                h[r] = nh[r][kCols - 1];
                if constexpr (kAffine) e[r] = ne[r][kCols - 1];
            }
            diag = uh[kCols - 1];
#pragma unroll
            for (int k = 0; k < kCols; ++k) {
                bh[k] = nh[kRows - 1][k];
                if constexpr (kAffine) bf[k] = nf[kRows - 1][k];
            }
        }

        // Lane 31 publishes the band's bottom row for the band below (the picture's fill did above).
        if constexpr (!kPicture) {
            if (publishes && lane == 31 && (!kGuard || s >= 31)) publish_bottom(s, bh[0], bh[1], bf[0], bf[1]);
        }
    }
    __device__ __forceinline__ void publish_bottom(int s, int h0, int h1, int f0, int f1) const {
        const size_t at = size_t(slot_of(b)) * p.bot_pitch + kColPad + kCols * (s - 31);
        store_pairs(p.bot_h + at, h0, h1, p.epoch + b);
        if constexpr (kAffine) store_pairs(p.bot_f + at, f0, f1, p.epoch + b);
    }

    // Checkpoint lines (FillParams::ck_spacing; Out::store). A row line is the bottom row its
    // band publishes anyway (slot_of() gives it a slot of its own). A column line is kept in two
    // moves: a lane whose last column of a step is the line puts its rows, as the step leaves
    // them, in the warp's stash (one predicated shared-memory store, no branch); after the part
    // where lane 31 did, the whole warp writes the band's rows of the line, 32 consecutive rows
    // per store, rather than each lane writing its own rows on its own step (a divergent branch
    // of a dozen instructions that the other 31 lanes would wait out).
    __device__ __forceinline__ void stash_column_line() const {
        static_assert(kRows == 4, "a lane's rows are one int4 of the stash");
        stash[lane] = make_int4(h[0], h[1], h[2], h[3]);
        if constexpr (kAffine) stash[32 + lane] = make_int4(e[0], e[1], e[2], e[3]);
    }
    // The whole warp, after the step s31 where lane 31 stashed its rows of the line.
    __device__ __forceinline__ void write_column_line(int s31) const {
        __syncwarp();
        const int j = kCols * (s31 - (kLanes - 1) + 1);
        const size_t at = size_t((j >> p.ck_shift) - 1) * size_t(p.M + 1);
        const int* sh = reinterpret_cast<const int*>(stash);
        const int i0 = gpu_band::first_row(b, 0);
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const int k = kLanes * r + lane, i = i0 + k;
            if (i <= p.M) {
                p.ck_col_h[at + i] = sh[k] - kBias;
                if constexpr (kAffine) p.ck_col_e[at + i] = sh[kBandRows + k] - kBias;
            }
        }
        __syncwarp();  // every lane has read the stash before a lane writes the next line's
    }
    // The step of chunk c after which this lane's last column is a column line (columns
    // 64c - 2 lane + 2 .. 64c - 2 lane + 64 end its steps; K >= 64 puts at most one line there), or -1.
    __device__ __forceinline__ int column_line_step(int c) const {
        if (!kLines) return -1;
        const int first = kChunkCols * c - kCols * lane + kCols, last = first + kChunkCols - kCols;
        const int j = ((Ops::index_max(first, kCols) + p.ck_spacing - 1) >> p.ck_shift) << p.ck_shift;
        return j <= last && j <= p.N ? j / kCols + lane - 1 : -1;
    }
    template <bool kGuard, bool kCap, bool kLines>
    __device__ void steps(int c, int t0, int t1, bool publishes, int line_step) {
        // Everything a step reads from shared memory (column inputs, the profile's scores, the
        // row above) is read one step ahead, so its latency hides behind a step's cells. The
        // read-ahead past the part reads entries not written yet (unused; colbuf's tail is 0).
        int2 cd = column_inputs(kSteps * c + t0, c);
        int4 top = stage[t0];
        int4 scv[kCols];
        profile_scores(cd, scv);
#pragma unroll 2
        for (int t = t0; t < t1; ++t) {
            const int2 next_cd = column_inputs(kSteps * c + t + 1, c);
            const int4 next_top = stage[(t + 1) & (kSteps - 1)];
            int4 next_scv[kCols];
            profile_scores(next_cd, next_scv);
            step<kGuard, kCap>(kSteps * c + t, top, cd, scv, publishes);
            if constexpr (kLines) {
                if (kSteps * c + t == line_step) stash_column_line();
            }
            cd = next_cd;
            top = next_top;
#pragma unroll
            for (int k = 0; k < kCols; ++k) scv[k] = next_scv[k];
        }
    }
    __device__ __forceinline__ void profile_scores(int2 cd, int4 (&scv)[kCols]) const {
        if constexpr (A::kProfile) {
            scv[0] = *reinterpret_cast<const int4*>(prof_lane + cd.x);
            scv[1] = *reinterpret_cast<const int4*>(prof_lane + cd.y);
        } else {
#pragma unroll
            for (int k = 0; k < kCols; ++k) scv[k] = make_int4(0, 0, 0, 0);
        }
    }

    // The whole band, chunks [c0, c1]. Semi-global's and glocal's last band also records row M (kCap): a
    // separate instantiation, so no other band pays for it.
    __device__ void sweep(int c0, int c1) {
        if constexpr (A::kCapture && !kLocate) {
            if (b == p.nbands - 1 && p.last_row) return sweep_impl<true>(c0, c1);
        }
        sweep_impl<false>(c0, c1);
    }

    template <bool kCap>
    __device__ void sweep_impl(int c0, int c1) {
        // A row line's band publishes even when it is the last: its row is the line.
        const bool publishes = !kLocate && (b < p.nbands - 1 || row_line(b));
        // The row above is asked for one part (kHandSteps steps) ahead and looked at when that
        // part starts, so a band trails the one above by ~31 + 2 kHandSteps steps, not a chunk.
        bool ok;
        int4 next = top_values(c0, 0, ok);
        int4 colv = column_chunk(c0);
        for (int c = c0; c <= c1; ++c) {
            if constexpr (kLocal && !kLocate) {
                if (p.snap && c % kSnapEvery == 0) store_snapshot(c / kSnapEvery);
            }
            // Guarded: lanes still before column 1 (chunk 0) or reaching column N.
            const bool guard = c == 0 || kChunkCols * (c + 1) >= p.N;
            const int line_step = column_line_step(c);
            for (int q = 0; q < kHandParts; ++q) {
                if (!__all_sync(0xffffffffu, ok)) next = wait_top_values(c, q);
                __syncwarp();  // lane 31 is done with the stage entries of this part (last chunk)
                if (lane < kHandSteps) stage[kHandSteps * q + lane] = next;
                if (q == 0) reinterpret_cast<int4*>(colbuf)[lane] = colv;
                __syncwarp();
                if (q == 0 && c < c1) colv = column_chunk(c + 1);
                ok = true;
                if (q + 1 < kHandParts) next = top_values(c, q + 1, ok);
                else if (c < c1) next = top_values(c + 1, 0, ok);
                // A part where some lane reaches a column line takes the steps that keep it (the
                // whole warp: a uniform branch), every other part the plain ones.
                const int s0 = kSteps * c + kHandSteps * q;
                const bool lines = kLines && __any_sync(0xffffffffu, line_step >= s0 && line_step < s0 + kHandSteps);
                if (guard) {
                    if (lines) steps<true, kCap, true>(c, kHandSteps * q, kHandSteps * (q + 1), publishes, line_step);
                    else steps<true, kCap, false>(c, kHandSteps * q, kHandSteps * (q + 1), publishes, line_step);
                } else {
                    if (lines) steps<false, kCap, true>(c, kHandSteps * q, kHandSteps * (q + 1), publishes, line_step);
                    else steps<false, kCap, false>(c, kHandSteps * q, kHandSteps * (q + 1), publishes, line_step);
                }
                if (lines) {
                    const int s31 = __shfl_sync(0xffffffffu, line_step, kLanes - 1);
                    if (s31 >= s0 && s31 < s0 + kHandSteps) write_column_line(s31);
                }
            }
            if constexpr (kLocal && !kLocate) {
#pragma unroll
                for (int r = 0; r < kRows; ++r)
                    if (run[r] > best[r]) { best[r] = run[r]; bestc[r] = c; }
            }
        }
        if constexpr (kLocal && !kLocate) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                const int i = i_lane + r;
                if (i <= p.M) {
                    p.rowbest[i] = best[r] - kBias;
                    p.rowchunk[i] = bestc[r];
                }
            }
        }
        if constexpr (kPicture) pool_band_end();
    }

    // --- Out::picture: the overview, pooled as the cells are computed ---
    // Each lane keeps, per row, the best value of the block of columns it is in, and writes it
    // to the block's texel (one atomic per block of rows, at most two) when its columns pass into
    // the next block. (Holding finished blocks until the whole warp had one, to write one atomic
    // per warp, measured slower on an H200: the atomics cost less than the code that saves them.)
    static constexpr bool kLowest = A::kKind == Kind::edit || A::kKind == Kind::dtw;  // as minimizes()
    // The worst finite value bounds the colour scale. Local alignment and LCS never go below
    // their borders' 0 and edit distance never above its borders' largest (a distance is at most
    // the longer prefix), so the host's borders already hold it there.
    static constexpr bool kWorst = !(kLocal || A::kKind == Kind::lcs || A::kKind == Kind::edit);
    // Values that are not finite (Overview's rule: strictly inside +-kScoreBound), biased; the
    // worst's is positive and below the float image of infinity (PortableOps compares floats).
    static constexpr int kNoBest = (kLowest ? kPosInf : kNegInf) + kBias;
    static constexpr int kNoWorst = kLowest ? 0 : 0x7f000000;
    static __device__ __forceinline__ bool finite(int v) {
        return v > kBias - int(kScoreBound) && v < kBias + int(kScoreBound);
    }
    static __device__ __forceinline__ int best2(int a, int b) { return kLowest ? Ops::min2(a, b) : Ops::max2(a, b); }
    static __device__ __forceinline__ int best3(int a, int b, int c) { return kLowest ? Ops::min3(a, b, c) : Ops::max3(a, b, c); }
    static __device__ __forceinline__ int worst2(int a, int b) { return kLowest ? Ops::max2(a, b) : Ops::min2(a, b); }
    static __device__ __forceinline__ int worst3(int a, int b, int c) { return kLowest ? Ops::max3(a, b, c) : Ops::min3(a, b, c); }

    __device__ void pool_init() {
        const int B = p.ov_block;
        prb = i_lane / B;
        pnew = 0;
#pragma unroll
        for (int r = 1; r < kRows; ++r)
            if ((i_lane + r) % B == 0) pnew |= 1 << r;
        pcb = 1 / B;  // the block of column 1
        pnext = (pcb + 1) * B;
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            pacc[r] = kNoBest;
            pworst[r] = kNoWorst;
        }
    }
    template <bool kGuard>
    __device__ __forceinline__ void pool_step(int j0, bool started, const int (&nh)[kRows][kCols]) {
        int v[kRows][kCols];
#pragma unroll
        for (int r = 0; r < kRows; ++r)
#pragma unroll
            for (int k = 0; k < kCols; ++k) v[r][k] = nh[r][k];
        if constexpr (kGuard) {  // columns before 1 (lanes not started) and past N are no cells
#pragma unroll
            for (int k = 0; k < kCols; ++k)
                if (!started || j0 + k > p.N) {
#pragma unroll
                    for (int r = 0; r < kRows; ++r) v[r][k] = kNoBest;
                }
        }
        if constexpr (kWorst) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                int w[kCols];
#pragma unroll
                for (int k = 0; k < kCols; ++k) {
                    w[k] = v[r][k];
                    // No cell (guarded columns), or DTW outside its band (+inf): never the worst.
                    if constexpr (kGuard || (A::kKind == Kind::dtw && A::kBanded))
                        w[k] = finite(w[k]) ? w[k] : kNoWorst;
                }
                pworst[r] = worst3(pworst[r], w[0], w[1]);
            }
        }
        if (j0 + kCols - 1 < pnext) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) pacc[r] = best3(pacc[r], v[r][0], v[r][1]);
            return;
        }
#pragma unroll
        for (int k = 0; k < kCols; ++k) {
            if (j0 + k >= pnext) {
                pool_flush(pcb);
                pnext += p.ov_block;
                ++pcb;
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r) pacc[r] = best2(pacc[r], v[r][k]);
        }
    }
    __device__ __forceinline__ void pool_emit(int rb, int cb, int v) const {
        if (!finite(v)) return;
        int32_t* t = p.ov + (size_t)rb * p.ov_cols + cb;
        if constexpr (kLowest) atomicMin(t, v - kBias);
        else atomicMax(t, v - kBias);
    }
    // The lane's rows inside the matrix (the last band's may pass row M), consecutive rows of one
    // block of rows as one value: up to two with blocks of 4 rows or more.
    template <class Put>
    __device__ __forceinline__ void pool_rows(Put&& put) const {
        const int rows = p.M - i_lane + 1;
        if (rows <= 0) return;
        int rb = prb, v = pacc[0];
#pragma unroll
        for (int r = 1; r < kRows; ++r) {
            if (r < rows) {
                if ((pnew >> r) & 1) {
                    put(rb, v);
                    ++rb;
                    v = pacc[r];
                } else {
                    v = best2(v, pacc[r]);
                }
            }
        }
        put(rb, v);
    }
    // Block `cb` of this lane, written by the lane itself. A flush runs on the lanes that reach
    // the block's end at this step only (one lane a step, as the warp's lanes are skewed), so its
    // common case is kept short: a lane whose rows are all in the matrix and in one block of rows
    // writes one value.
    __device__ void pool_flush(int cb) {
        static_assert(kRows == 4, "the one-block flush reduces four rows");
        if (pnew == 0 && i_lane + kRows - 1 <= p.M) {
            pool_emit(prb, cb, best2(best3(pacc[0], pacc[1], pacc[2]), pacc[3]));
        } else {
            pool_rows([&](int rb, int v) { pool_emit(rb, cb, v); });
        }
#pragma unroll
        for (int r = 0; r < kRows; ++r) pacc[r] = kNoBest;
    }
    // The end of the band: the last block of columns, and the worst value of the band's cells.
    __device__ void pool_band_end() {
        pool_flush(pcb);
        if constexpr (kWorst) {
            const int rows = p.M - i_lane + 1;
            int v = kNoWorst;
#pragma unroll
            for (int r = 0; r < kRows; ++r)
                if (r < rows) v = worst2(v, pworst[r]);
            v = kLowest ? __reduce_max_sync(0xffffffffu, v) : __reduce_min_sync(0xffffffffu, v);
            if (lane == 0 && rows > 0 && finite(v)) {  // lane 0 has the band's first rows
                if constexpr (kLowest) atomicMax(p.ov_worst, v - kBias);
                else atomicMin(p.ov_worst, v - kBias);
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernels and launchers
// ---------------------------------------------------------------------------------------------
__host__ __device__ constexpr size_t profile_bytes_per_warp(int A, bool profile) {
    return size_t(gpu_band::profile_bytes_per_warp(A, profile));
}
// A warp's shared memory in band_fill: the profile, the staged steps and column inputs, the
// column line's stash where the fill keeps lines.
template <class A, class Ops, Out kOut>
__host__ __device__ constexpr size_t band_warp_bytes(int letters) {
    return profile_bytes_per_warp(letters, A::kProfile) +
           size_t(gpu_band::line_stash_bytes(BandSweep<A, Ops, kOut>::kLines, A::kAffine));
}
static_assert(gpu_band::profile_bytes_per_warp(3, true) == 3 * 32 * sizeof(int4) + kSteps * sizeof(int4) +
                                                             kColBufInts * sizeof(int),
              "band_shape.hpp counts an int4 as 16 bytes");
static_assert(kColBufInts % 4 == 0, "the stash after the column inputs is int4-aligned");

// Score-level fills ask ptxas for 5 blocks per multiprocessor (at most 96 registers), and 4 when
// they keep checkpoint lines: left to itself it picks fewer registers and spills, or more and
// loses a block (measured with -Xptxas -v; 6 blocks spill the linear-gap kernels, 5 the affine
// store kernels).
template <Out kOut>
inline constexpr int kMinBlocks = kOut == Out::score ? 5 : kOut == Out::store || kOut == Out::picture ? 4 : 1;

template <class A, class Ops, Out kOut>
__global__ void __launch_bounds__(kMaxWarpsPerBlock * 32, kMinBlocks<kOut>) band_fill(const FillParams p) {
    extern __shared__ int4 smem[];
    const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    const int wpb = blockDim.x >> 5;
    const size_t per_warp = band_warp_bytes<A, Ops, kOut>(p.A) / sizeof(int4);
    int4* prof = smem + wib * per_warp;
    int4* stage = prof + (A::kProfile ? size_t(p.A) * 32 : 0);
    // Bands go to warps round-robin, in order: band b-1 is always taken before band b, so the
    // band a warp waits on is held by a resident warp that is not waiting on it (no deadlock).
    for (int b = gpu_band::first_band(blockIdx.x, wib, wpb); b < p.nbands; b += gpu_band::band_stride(gridDim.x, wpb)) {
        BandSweep<A, Ops, kOut> sw(p, b, lane, reinterpret_cast<const char*>(prof), stage);
        sw.init(prof);
        sw.sweep(0, p.nchunks - 1);
        __syncwarp();
    }
}

// End-cell search for local alignment: one warp re-runs the target row's band from the last
// snapshot before the chunk where that row first reached the best score.
template <class A>
__global__ void __launch_bounds__(32) band_locate(const FillParams p) {
    extern __shared__ int4 smem[];
    const int lane = threadIdx.x & 31;
    int4* prof = smem;
    int4* stage = prof + size_t(p.A) * 32;
    BandSweep<A, cell::PortableOps, Out::locate> sw(p, p.loc_band, lane, reinterpret_cast<const char*>(prof), stage);
    sw.init(prof);
    const int k = p.loc_chunk / kSnapEvery;
    if (k > 0) sw.load_snapshot(k);
    sw.sweep(k * kSnapEvery, p.loc_chunk);
    if (lane == p.loc_lane) *p.loc_out = sw.found_j;
}

template <class A, class Ops, Out kOut>
Status launch_band(const FillParams& p, cudaStream_t stream) {
    auto info = device_info();
    if (!info) return info.error();
    const void* kernel = reinterpret_cast<const void*>(&band_fill<A, Ops, kOut>);
    const size_t per_warp = band_warp_bytes<A, Ops, kOut>(p.A);
    const int wpb = gpu_band::warps_per_block(long(per_warp), long(info->smem_optin));
    if (wpb == 0)
        return device_error("alphabet of " + std::to_string(p.A) + " letters needs " + std::to_string(per_warp) +
                            " bytes of shared memory per warp; the device has " + std::to_string(info->smem_optin));
    const size_t smem = per_warp * wpb;
    DPVIZ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    int per_sm = 0;
    DPVIZ_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, wpb * 32, smem));
    if (per_sm < 1) return device_error("the fill kernel does not fit on one multiprocessor");
    // Score-level fills: at most gpu_band::kScoreBlocksPerSm (measured: band_shape.hpp).
    const int chosen = kOut == Out::score && per_sm > gpu_band::kScoreBlocksPerSm ? gpu_band::kScoreBlocksPerSm : per_sm;
    per_sm = blocks_per_sm(chosen, per_sm, "DPVIZ_BAND_BLOCKS_PER_SM");
    const int want = (p.nbands + wpb - 1) / wpb;
    const int blocks = want < per_sm * info->sms ? want : per_sm * info->sms;
    if (p.launched) *p.launched = {blocks, wpb, smem};
    FillParams args = p;
    void* argv[] = {&args};
    // Cooperative launch: every warp resident at once, which the band pipeline relies on.
    DPVIZ_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(wpb * 32), argv, smem, stream));
    DPVIZ_CUDA_CHECK(cudaGetLastError());
    return Ok{};
}

template <class A>
Status launch_locate(const FillParams& p, cudaStream_t stream) {
    const void* kernel = reinterpret_cast<const void*>(&band_locate<A>);
    const size_t smem = profile_bytes_per_warp(p.A, true);
    DPVIZ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    band_locate<A><<<1, 32, smem, stream>>>(p);
    DPVIZ_CUDA_CHECK(cudaGetLastError());
    return Ok{};
}

template <class A, class Ops>
Status launch_level(const FillParams& p, Out out, cudaStream_t s) {
    switch (out) {
        case Out::score: return launch_band<A, Ops, Out::score>(p, s);
        case Out::store: return launch_band<A, Ops, Out::store>(p, s);
        case Out::picture: return launch_band<A, Ops, Out::picture>(p, s);
        case Out::path: return launch_band<A, Ops, Out::path>(p, s);
        case Out::matrix: return launch_band<A, Ops, Out::matrix>(p, s);
        case Out::locate: break;
    }
    return device_error("internal: no kernel for this output level");
}

template <class A>
Status launch_ops(const FillParams& p, bool dpx, Out out, cudaStream_t s) {
    return dpx ? launch_level<A, cell::DpxOps>(p, out, s) : launch_level<A, cell::PortableOps>(p, out, s);
}

}  // namespace dpviz::cuda
