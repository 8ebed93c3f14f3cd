// The batch fill: one block per pair (blocks loop over pairs), its warps each take a band of
// 32 * kRows rows and hand the band's bottom row to the warp of the band below. Score level:
// the score and the end cell with the reference's tie-breaks, nothing per cell.
//
// Index of this file
//   [SECTION] Shape and parameters   band geometry, what the host hands the kernel
//   [SECTION] Algorithm traits       borders, which end cell
//   [SECTION] Pair sweep             one warp's state over a band and one wavefront step
//   [SECTION] Kernel                 a block's bands, each at its own pace, and the end-cell reduction
//   [SECTION] Kernel selection       one instantiation per algorithm variant and operation policy
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "cell_ops.hpp"
#include "dpviz/types.hpp"
#include "warp_step.cuh"

namespace dpviz::cuda::batch {

// ---------------------------------------------------------------------------------------------
// [SECTION] Shape and parameters
// ---------------------------------------------------------------------------------------------
// A lane holds kRows rows and does kCols columns per step; lane l runs one step behind lane l-1.
// A chunk is kSteps steps (kChunkCols columns of lane 0). Warp w takes bands w, w + warps, ...
// and runs each at its own pace. A chunk runs in BatchParams::parts parts of kSteps / parts steps;
// band b publishes how many parts it has done (a counter per hand-over slot, in global memory
// beside the slots, so only plain loads and stores share memory between warps). Lane 31 trails
// lane 0 by 31 steps, so the row above of part q of chunk c comes out of part q of chunk c + 1 of
// the band above: before it, band b waits for that part, then loads and stages it. A band thus
// trails the one above by one chunk and one part, and a slow chunk (a band's first, with its
// profile, or a guarded one) holds up only the bands below it: no barrier of the whole block
// inside a pair.
inline constexpr int kRows = 4;
inline constexpr int kCols = 2;
inline constexpr int kBandRows = 32 * kRows;
inline constexpr int kSteps = 32;
inline constexpr int kChunkCols = kSteps * kCols;
inline constexpr int kMaxWarps = 16;
inline constexpr int kColLead = kChunkCols;                    // zero columns before column 1
inline constexpr int kColBufTail = 8;                          // read ahead past a chunk, zero
inline constexpr int kColBufInts = 2 * kChunkCols + kColBufTail;
static_assert(kCols == 2 && kRows == 4, "the profile (int4) and hand-over (int4) layouts assume 4 x 2 cells");
static_assert(kRows == kStepRows && kCols == kStepCols, "a lane's step is warp_step.cuh's");

__host__ __device__ constexpr int bands_of(int M) { return (M + kBandRows - 1) / kBandRows; }
__host__ __device__ constexpr int chunks_of(int N) { return ((N + kCols - 1) / kCols + 31 + kSteps - 1) / kSteps; }
// Shared memory of one warp: the band's query profile (int4 per letter and lane), the 32 staged
// entries of the row above, the chunk's column inputs.
__host__ __device__ constexpr size_t smem_per_warp(int letters, bool profile) {
    return (profile ? size_t(letters) * 32 * sizeof(int4) : 0) + kSteps * sizeof(int4) + kColBufInts * sizeof(int);
}
// A block's dynamic shared memory: its warps' parts, then one end-cell candidate per warp and
// pair of a word (`lanes`: 2 with 16x2 lanes).
__host__ __device__ constexpr size_t smem_per_block(int letters, bool profile, int warps, int lanes = 1) {
    return smem_per_warp(letters, profile) * warps + size_t(kMaxWarps) * lanes * sizeof(int4);
}

// One pair, or with 16x2 lanes two pairs of one shape: the first in the words' low lanes, the
// second (`index_b`, `rows_b`) in their high lanes, and one column input holds both pairs'
// profile offsets (low and high 16 bits).
struct PairDesc {
    int M = 0, N = 0;
    int index = 0;        // the pair's position in the caller's batch (output slot)
    int index_b = 0;      // 16x2 lanes: the second pair's output slot
    long long rows = 0;   // offset of row 1's input in BatchParams::rows (bands_of(M) * kBandRows entries)
    long long cols = 0;   // offset of column 1 - kColLead in BatchParams::cols (kChunkCols * (chunks + 1) entries)
    long long rows_b = 0; // 16x2 lanes: the second pair's row inputs
};

struct BatchParams {
    int npairs = 0;
    const PairDesc* pairs = nullptr;  // largest first
    const int32_t* rows = nullptr;    // query codes or DTW values
    const int32_t* cols = nullptr;    // profile byte offsets (code * 512) or DTW values
    const int32_t* table = nullptr;   // letters x letters
    int letters = 0;
    int open = 0, ext = 0;            // alignment gaps (linear: open == ext)
    int gap_border = 0;               // alignment: column 0 costs gaps (row 0 too unless Alg::kFreeTop)
    int band = -1;                    // DTW Sakoe-Chiba half-width, -1 = none
    int parts = 1;                    // parts of a chunk: 1, 2, 4 (see Shape and parameters)
    int* done = nullptr;              // per block: kMaxWarps + 1 progress counters, one per slot
    int4* hand = nullptr;             // per block: (warps + 1) slots x hand_pitch, {H, H, F, F} of two columns
                                      // (band b's slot is band b + warps + 1's: the warp that reads
                                      // band b, as band b + 1, writes it next)
    long long hand_pitch = 0;         // int4 per slot: kSteps * largest chunk count
    int4* out = nullptr;              // per pair: {score, end i, end j, 0}
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Algorithm traits
// ---------------------------------------------------------------------------------------------
// Where the score is: a kernel's EndRule (dpviz/algorithm.hpp: corner, best cell, last row and
// column, last row), ties to the first cell in row-major order.

// Kind and Alg (the algorithm traits, borders included): warp_step.cuh, shared with the band kernel.

// The lane's column of a band's profile (the band kernel spells it out): the scores of its kRows query codes `q` against every
// target letter, as one int4 per letter at prof[letter * 32 + lane].
__device__ __forceinline__ void lane_profile(const int32_t* table, int letters, const int (&q)[kStepRows], int lane,
                                             int4* prof) {
    for (int c = 0; c < letters; ++c) {
        int4 v;
        v.x = table[q[0] * letters + c];
        v.y = table[q[1] * letters + c];
        v.z = table[q[2] * letters + c];
        v.w = table[q[3] * letters + c];
        prof[c * 32 + lane] = v;
    }
}


// The 16x2 profile (two pairs of a word): per letter and lane an int4 of 16-bit lanes, the
// first pair's rows 0|1 and 2|3, then the second pair's, each score plus Ops::kProfileBias.
template <class Ops>
__device__ __forceinline__ void lane_profile16(const int32_t* table, int letters, const int (&q)[kStepRows],
                                               const int (&qb)[kStepRows], int lane, int4* prof) {
    auto two = [&](int a, int b, int c) {
        return int((uint32_t(table[a * letters + c] + Ops::kProfileBias) & 0xffffu) |
                   (uint32_t(table[b * letters + c] + Ops::kProfileBias) << 16));
    };
    for (int c = 0; c < letters; ++c)
        prof[c * 32 + lane] = make_int4(two(q[0], q[1], c), two(q[2], q[3], c), two(qb[0], qb[1], c), two(qb[2], qb[3], c));
}

// An end-cell candidate: higher score wins, ties go to the smaller (i, j). i == kNone: none.
struct Candidate {
    int v, i, j;
};
static_assert(sizeof(Candidate) <= sizeof(int4), "a candidate fits its shared-memory slot");
inline constexpr int kNone = INT_MAX;
__device__ __forceinline__ bool better(const Candidate& a, const Candidate& b) {
    if (a.i == kNone) return false;
    if (b.i == kNone) return true;
    if (a.v != b.v) return a.v > b.v;
    return a.i < b.i || (a.i == b.i && a.j < b.j);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Pair sweep
// ---------------------------------------------------------------------------------------------
// Every value the sweep holds is a word of Ops (cell_ops.hpp): one pair's value, or with the
// 16x2 policies (kLanes == 2) two pairs' values, one per 16-bit lane.
template <class A, class Ops, EndRule kEnd>
struct PairSweep {
    static constexpr bool kAffine = A::kAffine;
    static constexpr bool kLocal = A::kLocal;
    static constexpr bool kTrackRows = kEnd != EndRule::corner;  // best H per row and its first column
    static constexpr int kLanes = Ops::kLanes;
    static constexpr bool kPacked = kLanes == 2;
    // The bias of a word (every lane of a 16x2 word is biased, edit's too: the half-float maxima
    // of Portable16x2Ops need lanes of at least 1024), of one lane, and "no value".
    static constexpr int32_t kBias = A::kKind == Kind::align || kPacked ? Ops::kAlignBias : 0;
    static constexpr int32_t kLaneBias = kPacked ? int32_t(uint32_t(kBias) & 0xffffu) : kBias;
    static constexpr int32_t kNeg = (kPacked ? Ops::splat(cell::kNegInf16) : kNegInf) + kBias;

    const BatchParams& p;
    const PairDesc d;
    const int lane, nbands, nchunks, nslots;
    int4* const prof;      // this warp's profile
    const char* const prof_lane;
    int4* const stage;     // the row above, one entry per step of the chunk (lane 31 reads)
    int* const colbuf;     // the chunk's column inputs: columns 64c - 63 .. 64c + 64, then the tail
    int4* const hand;      // this block's hand-over slots
    volatile int* const done;  // per slot: chunks done by the band in it, as key(band) + chunks

    int b = 0, i_lane = 0;
    int q[kRows];                    // query code (or DTW value) of the lane's rows
    int qb[kRows];                   // 16x2: the second pair's query codes
    int jlo[kRows];                  // DTW band: first column of the row, and span
    unsigned jspan[kRows];
    int h[kRows], e[kRows];          // H, E of the last column done (biased)
    int diag;                        // H of the row above, column before the next step
    int bh[kCols], bf[kCols];        // H, F of the lane's bottom row, last step
    int best[kRows], bestj[kRows];   // kTrackRows: best H of each row and its first column
    int bestj_b[kRows];              // 16x2: the second pair's first column of its best
    int lc[kRows];                   // H(row, N)
    int4 colv;                       // the next chunk's column inputs (this lane's share)

    __device__ PairSweep(const BatchParams& p_, const PairDesc& d_, int lane_, int warps, int4* prof_, int4* hand_,
                         int* done_)
        : p(p_), d(d_), lane(lane_), nbands(bands_of(d_.M)), nchunks(chunks_of(d_.N)), nslots(warps + 1),
          prof(prof_), prof_lane(reinterpret_cast<const char*>(prof_) + lane_ * 16),
          stage(prof_ + (A::kProfile ? size_t(p_.letters) * 32 : 0)),
          colbuf(reinterpret_cast<int*>(stage + kSteps)), hand(hand_), done(done_) {}

    __device__ __forceinline__ int4* slot(int band) const { return hand + (size_t)(band % nslots) * p.hand_pitch; }

    // Progress keys grow with the band, so a slot's older band never passes for a newer one.
    __device__ __forceinline__ int key(int band) const { return band * (nchunks * p.parts + 1); }
    // Wait until the band above has done `parts` parts (at most all of them); its slot's entries
    // are then visible to every lane (the fence pairs with the one in publish()).
    __device__ __forceinline__ void wait_above(int parts) const {
        if (b == 0) return;
        const int want = key(b - 1) + Ops::index_min(parts, nchunks * p.parts);  // no add-then-min for ptxas to fuse
        while (done[(b - 1) % nslots] < want) __nanosleep(32);
        __threadfence_block();
    }
    // Lane 31 wrote the slot's entries of this band's first `parts` parts: make them visible,
    // then say so.
    __device__ __forceinline__ void publish(int parts) const {
        if (lane == 31 && b < nbands - 1) {
            __threadfence_block();
            done[b % nslots] = key(b) + parts;
        }
    }

    __device__ void begin_band(int band) {
        b = band;
        i_lane = 1 + b * kBandRows + lane * kRows;
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const int i = i_lane + r;
            q[r] = i <= d.M ? p.rows[d.rows + i - 1] : 0;
            if constexpr (kPacked) qb[r] = i <= d.M ? p.rows[d.rows_b + i - 1] : 0;
        }
        if constexpr (A::kProfile) {
            __syncwarp();  // the previous band's last steps are done reading the profile
            if constexpr (kPacked) lane_profile16<Ops>(p.table, p.letters, q, qb, lane, prof);
            else lane_profile(p.table, p.letters, q, lane, prof);
        }
        if constexpr (A::kKind == Kind::dtw) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) dtw_row_band(i_lane + r, d.M, d.N, p.band, jlo[r], jspan[r]);
        }
        if (lane < kColBufTail) colbuf[2 * kChunkCols + lane] = 0;
        __syncwarp();
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            h[r] = Ops::splat(A::template border<false>(p, i_lane + r)) + kBias;
            e[r] = kNeg;
            best[r] = h[r];  // H(i, 0): the row's best so far
            bestj[r] = 0;
            bestj_b[r] = 0;
            lc[r] = kBias;
        }
        diag = Ops::splat(A::template border<false>(p, i_lane - 1)) + kBias;
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
            bh[c] = h[kRows - 1];
            bf[c] = kNeg;
        }
        colv = column_chunk(0);
    }

    // This lane's share of the row above for chunk c: the two columns lane 0 needs at step
    // kSteps * c + lane. Band 0 computes the border; later bands read band b-1's slot.
    __device__ __forceinline__ int4 top_values(int c) const {
        if (b == 0) {
            const int j = kChunkCols * c + kCols * lane + 1;
            return make_int4(Ops::splat(A::template border<true>(p, j)) + kBias,
                             Ops::splat(A::template border<true>(p, j + 1)) + kBias, kNeg, kNeg);
        }
        return slot(b - 1)[kSteps * c + lane];
    }
    __device__ __forceinline__ int4 column_chunk(int c) const {
        return *reinterpret_cast<const int4*>(p.cols + d.cols + kChunkCols * c + 4 * lane);
    }
    __device__ __forceinline__ int2 column_inputs(int t) const {
        return *reinterpret_cast<const int2*>(colbuf + kCols * (t - lane) + kChunkCols);
    }
    __device__ __forceinline__ void profile_scores(int2 cd, int4 (&scv)[kCols]) const {
        if constexpr (A::kProfile && kPacked) {
            // Both pairs' letters of a column (byte offsets, low and high 16 bits), their rows'
            // scores put together lane by lane, less the profile's bias.
            const int cds[kCols] = {cd.x, cd.y};
#pragma unroll
            for (int k = 0; k < kCols; ++k) {
                const uint2 a = *reinterpret_cast<const uint2*>(prof_lane + (uint32_t(cds[k]) & 0xffffu));
                const uint2 b = *reinterpret_cast<const uint2*>(prof_lane + (uint32_t(cds[k]) >> 16) + 8);
                constexpr int32_t kUnbias = Ops::splat(Ops::kProfileBias);
                scv[k] = make_int4(int(__byte_perm(a.x, b.x, 0x5410)) - kUnbias, int(__byte_perm(a.x, b.x, 0x7632)) - kUnbias,
                                   int(__byte_perm(a.y, b.y, 0x5410)) - kUnbias, int(__byte_perm(a.y, b.y, 0x7632)) - kUnbias);
            }
        } else if constexpr (A::kProfile) {
            scv[0] = *reinterpret_cast<const int4*>(prof_lane + cd.x);
            scv[1] = *reinterpret_cast<const int4*>(prof_lane + cd.y);
        } else {
#pragma unroll
            for (int k = 0; k < kCols; ++k) scv[k] = make_int4(0, 0, 0, 0);
        }
    }

    // One chunk of the band, part by part: stage the part's row above once the band above has
    // done it, run the part's steps, say so. The chunk's column inputs are staged with part 0 and
    // the next chunk's asked for then.
    __device__ void chunk(int c) {
        const int P = p.parts, S = kSteps / P;
        // Guarded: lanes not yet at column 1 (chunk 0) or at column N and beyond.
        const bool guard = c == 0 || kChunkCols * (c + 1) >= d.N;
        for (int q = 0; q < P; ++q) {
            wait_above((c + 1) * P + q + 1);
            const int4 top = lane / S == q ? top_values(c) : int4{};
            __syncwarp();  // every lane is done with the stage entries and column inputs it replaces
            if (lane / S == q) stage[lane] = top;
            if (q == 0) reinterpret_cast<int4*>(colbuf)[lane] = colv;
            __syncwarp();
            if (q == 0 && c + 1 < nchunks) colv = column_chunk(c + 1);
            if (guard) steps<true>(c, q * S, (q + 1) * S);
            else steps<false>(c, q * S, (q + 1) * S);
            publish(c * P + q + 1);
        }
    }

    // Steps t0 .. t1 - 1 of chunk c.
    template <bool kGuard>
    __device__ void steps(int c, int t0, int t1) {
        // Shared-memory reads of a step (column inputs, profile, row above) are issued one step
        // ahead. The read-ahead past the part is never used (colbuf's tail is zero; the next
        // part starts with its own reads).
        int2 cd = column_inputs(t0);
        int4 top = stage[t0];
        int4 scv[kCols];
        profile_scores(cd, scv);
        const bool publishes = b < nbands - 1;
#pragma unroll 2
        for (int t = t0; t < t1; ++t) {
            const int2 next_cd = column_inputs(t + 1);
            const int4 next_top = stage[(t + 1) & (kSteps - 1)];
            int4 next_scv[kCols];
            profile_scores(next_cd, next_scv);
            step<kGuard>(kSteps * c + t, top, cd, scv, publishes);
            cd = next_cd;
            top = next_top;
#pragma unroll
            for (int k = 0; k < kCols; ++k) scv[k] = next_scv[k];
        }
    }

    template <bool kGuard>
    __device__ __forceinline__ void step(int s, int4 top, int2 cd, const int4 (&scv)[kCols], bool publishes) {
        int uh[kCols], uf[kCols];
        rows_above<kAffine>(bh, bf, top, lane, uh, uf);
        const int j0 = kCols * (s - lane) + 1;
        const bool started = !kGuard || s >= lane;
        const int cdv[kCols] = {cd.x, cd.y};

        int nh[kRows][kCols], ne[kRows][kCols], nf[kRows][kCols];
        uint32_t bits[kRows][kCols];  // no direction bits here: unused, never computed
        step_cells<A, Ops, false, true>(*this, uh, uf, scv, cdv, j0, Ops::splat(p.open), Ops::splat(p.ext), kBias, nh, ne,
                                        nf, bits);

        // End-cell bookkeeping. Columns past N and lanes not yet started never count.
        if constexpr (kTrackRows) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                int v0 = nh[r][0], v1 = nh[r][1];
                if constexpr (kGuard) {  // a value no cell can lose to (glocal's row M may be all negative)
                    v0 = (started && j0 <= d.N) ? v0 : kNeg;
                    v1 = (started && j0 + 1 <= d.N) ? v1 : kNeg;
                }
                if constexpr (kPacked) {
                    // Column by column, so a tie goes to the first column (Ops::keep_max: a lane
                    // takes the column only when it is greater).
                    Ops::template keep_max<false>(best[r], v0, j0, bestj[r], bestj_b[r]);
                    Ops::template keep_max<true>(best[r], v1, j0 + 1, bestj[r], bestj_b[r]);
                } else {
                    // The maxima go through Ops too: a plain integer max here would let ptxas fuse
                    // the two steps of an unrolled pair into VIMNMX3 in the DPX-free kernel.
                    const int m = Ops::max2(v0, v1);
                    const bool gain = m > best[r];
                    best[r] = Ops::max2(best[r], m);
                    bestj[r] = gain ? (v0 == m ? j0 : j0 + 1) : bestj[r];
                }
            }
        }
        if constexpr (kGuard) {
            // Column N passes through every lane inside a guarded chunk.
            if (started) {
#pragma unroll
                for (int k = 0; k < kCols; ++k)
                    if (j0 + k == d.N) {
#pragma unroll
                        for (int r = 0; r < kRows; ++r) lc[r] = nh[r][k];
                    }
            }
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

        // Lane 31 hands the band's bottom row to the band below (two columns per step).
        if (publishes && lane == 31 && (!kGuard || s >= 31)) slot(b)[s - 31] = make_int4(bh[0], bh[1], bf[0], bf[1]);
    }

    // The band's end-cell candidates of each pair (lane k of the words), reduced over the warp into
    // acc[k] (the same in every lane). Candidates carry kLaneBias.
    __device__ void end_band(Candidate (&acc)[kLanes]) const {
#pragma unroll
        for (int k = 0; k < kLanes; ++k) {
            auto val = [&](int w) {
                if constexpr (kPacked) return Ops::lane(w, k);
                else return w;
            };
            auto col = [&](int r) { return k == 0 ? bestj[r] : bestj_b[r]; };
            Candidate mine{0, kNone, 0};
            auto offer = [&](int v, int i, int j) {
                const Candidate c{v, i, j};
                if (better(c, mine)) mine = c;
            };
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                const int i = i_lane + r;
                if (i > d.M) continue;
                if constexpr (kEnd == EndRule::best_cell) {
                    offer(val(best[r]), i, col(r));
                } else if constexpr (kEnd == EndRule::last_row_or_column) {
                    offer(val(lc[r]), i, d.N);
                    if (i == d.M) offer(val(best[r]), i, col(r));
                } else if constexpr (kEnd == EndRule::last_row) {
                    if (i == d.M) offer(val(best[r]), i, col(r));
                } else {
                    if (i == d.M) offer(val(lc[r]), i, d.N);
                }
            }
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                const Candidate o{__shfl_xor_sync(0xffffffffu, mine.v, off), __shfl_xor_sync(0xffffffffu, mine.i, off),
                                  __shfl_xor_sync(0xffffffffu, mine.j, off)};
                if (better(o, mine)) mine = o;
            }
            if (better(mine, acc[k])) acc[k] = mine;
        }
    }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernel
// ---------------------------------------------------------------------------------------------
template <class A, class Ops, EndRule kEnd>
__global__ void __launch_bounds__(kMaxWarps * 32) batch_fill(const BatchParams p) {
    extern __shared__ int4 smem[];
    using Sweep = PairSweep<A, Ops, kEnd>;
    constexpr int kLanes = Sweep::kLanes;
    constexpr int32_t kBias = Sweep::kLaneBias;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    const size_t per_warp = smem_per_warp(p.letters, A::kProfile) / sizeof(int4);
    int4* prof = smem + w * per_warp;
    Candidate* cand = reinterpret_cast<Candidate*>(smem + warps * per_warp);  // kLanes per warp
    int4* hand = p.hand + (size_t)blockIdx.x * (warps + 1) * p.hand_pitch;
    int* done = p.done + (size_t)blockIdx.x * (kMaxWarps + 1);

    for (int k = blockIdx.x; k < p.npairs; k += gridDim.x) {
        const PairDesc d = p.pairs[k];
        if (threadIdx.x <= kMaxWarps) done[threadIdx.x] = INT_MIN;
        __syncthreads();  // the previous pair is done with the slots, the candidates and `done`
        Sweep sw(p, d, lane, warps, prof, hand, done);
        Candidate acc[kLanes];
#pragma unroll
        for (int x = 0; x < kLanes; ++x) {
            acc[x] = {kBias, kNone, 0};
            if constexpr (kEnd == EndRule::best_cell) acc[x] = {kBias, 0, 0};           // H(0, 0) = 0
            if constexpr (kEnd == EndRule::last_row_or_column) acc[x] = {kBias, 0, d.N};  // H(0, N) = 0
        }
        for (int b = w; b < sw.nbands; b += warps) {
            sw.begin_band(b);
            for (int c = 0; c < sw.nchunks; ++c) sw.chunk(c);
            sw.end_band(acc);
        }
        if (lane == 0)
#pragma unroll
            for (int x = 0; x < kLanes; ++x) cand[x * warps + w] = acc[x];
        __syncthreads();
        if (threadIdx.x == 0) {
#pragma unroll
            for (int x = 0; x < kLanes; ++x) {
                Candidate r = cand[x * warps];
                for (int y = 1; y < warps; ++y)
                    if (better(cand[x * warps + y], r)) r = cand[x * warps + y];
                p.out[x == 0 ? d.index : d.index_b] = make_int4(r.v - kBias, r.i, r.j, 0);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernel selection
// ---------------------------------------------------------------------------------------------
// The batch_fill instantiation of an algorithm variant (batch_align.cu, batch_other.cu):
// DpxOps when `dpx`, PortableOps otherwise.
const void* align_kernel(EndRule end, bool affine, bool dpx);
const void* edit_kernel(bool dpx);
// 16x2 lanes, two pairs per word (local alignment and edit distance: lanes16_fit, batch_pack.hpp):
// Dpx16x2Ops when `dpx`, Portable16x2Ops otherwise.
const void* local16_kernel(bool affine, bool dpx);
const void* edit16_kernel(bool dpx);
const void* lcs_kernel(bool dpx);
const void* dtw_kernel(bool squared, bool dpx);

}  // namespace dpviz::cuda::batch
