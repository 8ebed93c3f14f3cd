// Standalone probe: does ONE long pair fill faster when a lane's R rows run in series inside a
// step (lanes skewed by one column, not rows) than in dpviz's one-pair kernel, whose rows are
// skewed by one column each? Local alignment, DNA, match +2 / mismatch -1, linear gap 2, int32,
// score only (the best score; no end cell). Not part of dpviz's build; README.md beside this
// file says how to build and run it, what it prints and what it measured.
//
// Index of this file
//   [SECTION] Fill kernel      persistent blocks of W warps, shared-memory rings between warps,
//                              tagged global rows between groups
//   [SECTION] Host             inputs, the plain O(M*N) reference, checks, timing, main
//
// Why: in pair_score.cu lane l's row k works on column s + 1 - (l R + k) at step s, so row i
// starts about i steps after row 0 (about 1.4 steps a row with the hand-overs), and a 65,536^2
// fill is ~157 k steps of one warp. Here lane l works on column s + 1 - l for all its R rows:
// row i starts about i / R steps after row 0, and the R cells of a step form a chain through
// "up" (one VIADDMNMX each: max(up - g, t), with t = max(diag + s, left - g, 0) computed off
// the chain). A step costs R dependent DPX operations plus a shuffle instead of one cell, and
// the fill's path is M / R + N steps instead of ~1.4 M + N.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define PROBE_CHECK(call)                                                                        \
    do {                                                                                         \
        cudaError_t err_ = (call);                                                               \
        if (err_ != cudaSuccess) {                                                               \
            std::fprintf(stderr, "row_serial_probe: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(err_));                                              \
            std::exit(3);                                                                        \
        }                                                                                        \
    } while (0)

namespace {

constexpr int kMatch = 2, kMismatch = -1, kGap = 2;
constexpr int kOpen = 5, kExtend = 1;  // S6's affine gaps (dpviz_gpu_bench's "local affine": match 2, gaps 5/1)
constexpr int kRing = 256;           // ring slots between two warps of a block
constexpr int kPadCode = 4;          // PRMT byte 4 = the padding word's byte 0: -128
constexpr uint32_t kPadWord = 0x80808080u;
constexpr int kSelBefore = 64;       // selector entries before column 0 (columns -63..0)

// PRMT selector of residue code x: byte x of {table, pad word}, sign-extended to 32 bits.
__host__ __device__ constexpr uint32_t selector(int x) {
    return uint32_t(x | ((8 | x) << 4) | ((8 | x) << 8) | ((8 | x) << 12));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Fill kernel
// ---------------------------------------------------------------------------------------------
// A group is W * 32 * R consecutive rows; a block takes groups in order from a global ticket.
// Warp w owns rows [32 R w, 32 R (w + 1)) of the group; lane l rows l R .. l R + R - 1 of that
// band. Steps are counted per warp: at step s lane l computes column s + 1 - l. Lane 31's bottom
// row at step p is column p - 30: "slot p" of the band's output. The band below needs slot
// s + 31 at its step s (lane 0's column s + 1); its lane 31 reads it from the ring one step
// ahead and sends it to lane 0 in the same rotating shuffle that gives lane l its upper
// neighbour's bottom row (lanes 1..31). The last warp's slots go to global memory as 64-bit
// entries tag << 32 | H (tag: the fill's epoch), one row per group, so the next group's first
// warp checks validity per entry (a warp vote) and needs no flag or fence.
struct Shared {
    int ring[/*W*/ 8][kRing];   // ring[w]: the bottom row of warp w - 1 (w = 0: of the group above)
    int last_out[kRing];        // the last warp's bottom row, staged for the global store
    volatile int produced[8];   // slots of ring[w] written (by warp w - 1)
    volatile int consumed[8];   // ring[w]'s slots below this are no longer needed (by warp w)
    int group;
};

// A wait longer than ~2 s (4e9 cycles) is a bug in the hand-over: trap, not hang.
__device__ __forceinline__ void guard(long long& since) {
    const long long now = clock64();
    if (since == 0) since = now;
    else if (now - since > 4000000000ll) __trap();
}

// Byte sel of {table, kPadWord} per result byte, the selector's bit 3 replicating the sign.
__device__ __forceinline__ int prmt(uint32_t table, uint32_t sel) {
    int r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(table), "r"(kPadWord), "r"(sel));
    return r;
}

// Bytes of {a, b} by the selector's nibbles, bit 3 replicating the selected byte's sign.
__device__ __forceinline__ uint32_t prmt2(uint32_t a, uint32_t b, uint32_t sel) {
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
    return r;
}

__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// C: steps per chunk (hand-over granularity, 16 or 32). kShort: the step's chain is one
// VIADDMNMX a row, max(up + ng_up, t): the gap comes in twice (ng_left, ng_up, both -g), so the
// compiler cannot share "h - g" between the next row's up and the next column's left (sharing
// it, as it does with one gap value, puts an add and a max on the chain).
// B: the blocks per SM the registers must allow (__launch_bounds__'s minimum).
// S: 1 local linear with kShort's chain, 2 local linear with the compiler's, 3 edit distance
// in dpviz's corner form (H' = i + j - D: max(diag' + s', up', left') with s' = 2 for a match,
// 1 for a mismatch, borders 0; the largest H' is H'(M, N), padding copies it).
template <int W, int R, int C, int S, int B>
__global__ void __launch_bounds__(W * 32, B)
    fill(const uint32_t* __restrict__ tables,  // per row (rows padded to whole groups): 4 score bytes
         const uint32_t* __restrict__ sels,    // per column j in [-63, steps + 64): at sels[j + 64]
         unsigned long long* rows,             // per group: steps + 32 entries
         int steps, int groups, unsigned epoch, int* ticket, int* best_out, int ng_left, int ng_up, int, int) {
    constexpr int kChunk = C;
    __shared__ Shared sh;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const size_t row_len = size_t(steps) + kChunk;
    int best = 0;
    for (;;) {
        if (threadIdx.x == 0) sh.group = atomicAdd(ticket, 1);
        if (threadIdx.x < 8) { sh.produced[threadIdx.x] = 0; sh.consumed[threadIdx.x] = 0; }
        __syncthreads();
        const int g = sh.group;
        if (g >= groups) break;
        const int row0 = (g * W + w) * 32 * R + lane * R;  // this lane's first row (0-based)
        uint32_t T[R];
#pragma unroll
        for (int k = 0; k < R; ++k) T[k] = tables[row0 + k];
        int* in = sh.ring[w];
        int* out = w + 1 < W ? sh.ring[w + 1] : sh.last_out;
        const unsigned long long* above = g > 0 ? rows + size_t(g - 1) * row_len : nullptr;
        unsigned long long* below = rows + size_t(g) * row_len;

        // Warp 0 takes slots [a, a + 32) of the group above into its ring (zeros for group 0).
        unsigned long long pending = 0;
        auto take_global = [&](int a, bool have) {
            if (!above) { in[(a + lane) & (kRing - 1)] = 0; return; }
            unsigned long long e = have ? pending : load_relaxed(above + a + lane);
            long long polls = 0;
            while (!__all_sync(0xffffffffu, lane >= C || unsigned(e >> 32) == epoch)) {
                guard(polls);
                e = load_relaxed(above + a + lane);
            }
            if (lane < C) in[(a + lane) & (kRing - 1)] = int(uint32_t(e));
        };
        if (w == 0) {
            for (int a = 0; a < 32 + C; a += C) take_global(a, false);
        }

        int H[R];
#pragma unroll
        for (int k = 0; k < R; ++k) H[k] = 0;
        int D = 0;   // the row above the lane's top row, previous column (the top row's diag)
        int send = 0;
        const uint32_t* sel_lane = sels + kSelBefore + 1 - lane;  // + s: this lane's column at step s

        for (int S0 = 0; S0 < steps; S0 += kChunk) {
            // In: slots S0 + 32 .. S0 + C + 31 of the band above (read at steps S0 .. S0 + C - 1).
            if (w == 0) {
                if (S0 > 0) take_global(S0 + 32, true);
                __syncwarp();
                if (above && S0 + 2 * C <= steps) pending = load_relaxed(above + S0 + C + 32 + lane);
            } else {
                if (lane == 31) {
                    long long polls = 0;
                    while (sh.produced[w] < S0 + C + 32) guard(polls);
                    __threadfence_block();
                }
                __syncwarp();
            }
            // Out: the band below may still need slots >= consumed; ring slot x reuses x - kRing.
            if (w + 1 < W && lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= S0 + C - 1 - kRing) guard(polls);
            }
            if (S0 == 0 && lane == 31) send = in[31];
            uint32_t selA[8], selB[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) selA[i] = sel_lane[S0 + i];
#pragma unroll 1
            for (int b = 0; b < kChunk; b += 16) {
#pragma unroll
                for (int half = 0; half < 2; ++half) {
                    uint32_t* cur = half == 0 ? selA : selB;
                    uint32_t* nxt = half == 0 ? selB : selA;
                    const int base = S0 + b + half * 8;
#pragma unroll
                    for (int i = 0; i < 8; ++i) nxt[i] = sel_lane[base + 8 + i];
#pragma unroll
                    for (int i = 0; i < 8; ++i) {
                        const int s = base + i;
                        const int next_above = in[(s + 32) & (kRing - 1)];  // lane 31's value for step s + 1
                        int up = __shfl_sync(0xffffffffu, send, (lane + 31) & 31);
                        int diag = D;
                        D = up;
#pragma unroll
                        for (int k = 0; k < R; ++k) {
                            const int sc = prmt(T[k], cur[i]);
                            int h;
                            if constexpr (S == 3) {
                                h = max(up, max(diag + sc, H[k]));
                            } else if constexpr (S == 1) {
                                const int t = max(max(diag + sc, H[k] + ng_left), 0);
                                h = max(up + ng_up, t);
                            } else {
                                const int t = max(max(diag + sc, H[k] - kGap), 0);
                                h = max(up - kGap, t);
                            }
                            diag = H[k];
                            H[k] = h;
                            up = h;
                        }
#pragma unroll
                        for (int k = 0; k + 1 < R; k += 2) best = max(best, max(H[k], H[k + 1]));
                        if (R & 1) best = max(best, H[R - 1]);
                        if (lane == 31) out[s & (kRing - 1)] = H[R - 1];
                        send = lane == 31 ? next_above : H[R - 1];
                    }
                }
            }
            // Publish slots S0 .. S0 + C - 1.
            if (w + 1 < W) {
                if (lane == 31) {
                    __threadfence_block();
                    sh.produced[w + 1] = S0 + kChunk;
                }
            } else {
                __syncwarp();
                if (lane < C) {
                    const int v = out[(S0 + lane) & (kRing - 1)];
                    store_relaxed(below + S0 + lane, (static_cast<unsigned long long>(epoch) << 32) | uint32_t(v));
                }
            }
            if (w > 0 && lane == 31) sh.consumed[w] = S0 + C + 31;  // slot S0 + C + 31 may still be in flight
        }
        // Slots steps .. steps + 31 (read ahead by the band below in its last chunk): zero.
        if (w + 1 < W) {
            if (lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= steps + 31 - kRing) guard(polls);
            }
            __syncwarp();
            out[(steps + lane) & (kRing - 1)] = 0;
            __syncwarp();
            if (lane == 31) {
                __threadfence_block();
                sh.produced[w + 1] = steps + 32;
            }
        } else {
            store_relaxed(below + steps + lane, static_cast<unsigned long long>(epoch) << 32);
        }
        __syncthreads();
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) best = max(best, __shfl_xor_sync(0xffffffffu, best, o));
    if (lane == 0) atomicMax(best_out, best);
}

// Local linear (S1's problem) in 16x2 lanes with values relative to the band: thread l carries
// two virtual lanes, 2l in the low 16 bits of each register and 2l + 1 in the high 16 bits, each
// with R rows, so a warp's band is 64 R rows and one DPX instruction computes two cells. Virtual
// lane v works on column s + 1 - v at step s (as lanes do above), so the two halves of a thread
// are a row block apart and a column apart, and their cells are independent.
// Range: the halves hold H - Bw, Bw a warp-uniform base (an int32, the smallest H of the warp's
// cells at the last chunk boundary). For local alignment with scores s and a linear gap g,
// H(i, j) >= H(i - 1, j) - g and H(i, j) <= H(i - 1, j) + max s + g (likewise along a row), so the
// cells a warp holds at a step (64 R rows, 64 columns of skew) lie within (64 R + 64)(max s + g)
// of each other: 4,352 for DNA 2/-1/2 at R = 16, far inside 16 bits. The floor 0 is -Bw in the
// halves; where Bw passes 32,767 no cell of the warp can reach 0 (they are all within the range
// of Bw), so the floor clamps at -32,768 without changing a cell. A flag reports a chunk whose
// cells spread past 30,000 (the host then says the probe's range argument failed).
// Hand-over: the ring and the group rows carry true H (int32); the reader subtracts its base.
// Per step one shuffle and one PRMT: the low half's up value is thread l - 1's high half bottom
// row, the high half's is the thread's own low half bottom row (both of the previous step).
// Scores: one PRMT per row and step from the two rows' tables (low: row 2l R + k, high: row
// (2l + 1) R + k) with a selector for the column pair (c, c - 1); padding columns select a sign
// byte (0 or -1), which keeps column 0's border at 0 and no padding cell above the real ones.
// A value of the band above (true H) for the low half of thread 0, in the high half of the word
// lane 31 sends: H - Bw, clamped to [-16,384, 16,376] (multiples of 8, for the key). Real columns' values lie within the
// range argument's bound of the band's cells; the clamp only meets the zero slots past the
// band above's last step (true 0 against a base past 32,767), which feed columns past N, whose
// cells then stay at most the real cells' values (never a wrapped 16-bit sum).
__device__ __forceinline__ uint32_t above_rel(int v, int base) {
    return uint32_t(min(max(v - base, -16384), 16376)) << 16;
}

template <int W, int R, int C, int B, bool kKey>
__global__ void __launch_bounds__(W * 32, B)
    fill16(const uint32_t* __restrict__ tables,  // per row (rows padded to whole groups): 4 score bytes
           const uint32_t* __restrict__ sels2,   // per column j in [-63, steps + 64): selector of (j, j - 1) at sels2[j + 64]
           unsigned long long* rows,             // per group: steps + 64 entries
           int steps, int groups, unsigned epoch, int* ticket, int* best_out, int ng_left, int ng_up, int M, int N) {
    constexpr int kChunk = C, kLag = 64;  // kLag: virtual lanes of a band (its bottom row trails by 63 columns)
    static_assert(C == 32, "one take of 32 slots per chunk");
    static_assert(!kKey || R == 8, "the key's 3 low bits are a lane's row");
    __shared__ Shared sh;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const size_t row_len = size_t(steps) + kLag;
    const uint32_t gl = uint32_t(uint16_t(int16_t(ng_left))) * 0x10001u;  // -g in both halves
    const uint32_t gu = uint32_t(uint16_t(int16_t(ng_up))) * 0x10001u;
    constexpr uint32_t kLow2 = 0x80008000u;                               // -32,768 in both halves
    int best = 0;
    unsigned long long best_key = 0;  // kKey: score << 42 | (2^42 - 1 - (i (N + 1) + j)), the largest the end cell
    for (;;) {
        if (threadIdx.x == 0) sh.group = atomicAdd(ticket, 1);
        if (threadIdx.x < 8) { sh.produced[threadIdx.x] = 0; sh.consumed[threadIdx.x] = 0; }
        __syncthreads();
        const int g = sh.group;
        if (g >= groups) break;
        const int row0 = (g * W + w) * 64 * R + 2 * lane * R;  // the low half's first row (0-based)
        uint32_t TL[R], TH[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            TL[k] = tables[row0 + k];
            TH[k] = tables[row0 + R + k];
        }
        int* in = sh.ring[w];
        int* out = w + 1 < W ? sh.ring[w + 1] : sh.last_out;
        const unsigned long long* above = g > 0 ? rows + size_t(g - 1) * row_len : nullptr;
        unsigned long long* below = rows + size_t(g) * row_len;

        unsigned long long pending = 0;
        auto take_global = [&](int a, bool have) {
            if (!above) { in[(a + lane) & (kRing - 1)] = 0; return; }
            unsigned long long e = have ? pending : load_relaxed(above + a + lane);
            long long polls = 0;
            while (!__all_sync(0xffffffffu, unsigned(e >> 32) == epoch)) {
                guard(polls);
                e = load_relaxed(above + a + lane);
            }
            in[(a + lane) & (kRing - 1)] = int(uint32_t(e));
        };
        if (w == 0) {
            for (int a = 0; a < kLag + C; a += 32) take_global(a, false);
        }

        int base = 0;               // Bw
        uint32_t floor2 = 0;        // max(-Bw, -32,768) in both halves
        uint32_t H[R];
#pragma unroll
        for (int k = 0; k < R; ++k) H[k] = 0;
        uint32_t D = 0;             // both halves' diag for their top rows
        uint32_t send = 0;
        uint32_t best2 = kLow2;     // both halves' best H - Bw since the last chunk boundary
        uint32_t key2 = kLow2;      // kKey: both halves' largest h + (7 - k) since the last chunk boundary
        int col_lo = 0, col_hi = 0; // kKey: the step in the chunk where each half's key last rose
        const uint32_t* sel_lane = sels2 + kSelBefore + 1 - 2 * lane;  // + s: the low half's column at step s

        for (int S0 = 0; S0 < steps; S0 += kChunk) {
            // In: slots S0 + 64 .. S0 + 95 of the band above (read at steps S0 .. S0 + 31).
            if (w == 0) {
                if (S0 > 0) take_global(S0 + kLag, true);
                __syncwarp();
                if (above && S0 + C + kLag + 32 <= int(row_len)) pending = load_relaxed(above + S0 + C + kLag + lane);
            } else {
                if (lane == 31) {
                    long long polls = 0;
                    while (sh.produced[w] < S0 + C + kLag) guard(polls);
                    __threadfence_block();
                }
                __syncwarp();
            }
            if (w + 1 < W && lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= S0 + C - 1 - kRing) guard(polls);
            }
            if (S0 == 0 && lane == 31) send = above_rel(in[kLag - 1], base);
            uint32_t selA[8], selB[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) selA[i] = sel_lane[S0 + i];
#pragma unroll 1
            for (int b = 0; b < kChunk; b += 16) {
#pragma unroll
                for (int half = 0; half < 2; ++half) {
                    uint32_t* cur = half == 0 ? selA : selB;
                    uint32_t* nxt = half == 0 ? selB : selA;
                    const int sb = S0 + b + half * 8;
#pragma unroll
                    for (int i = 0; i < 8; ++i) nxt[i] = sel_lane[sb + 8 + i];
#pragma unroll
                    for (int i = 0; i < 8; ++i) {
                        const int s = sb + i;
                        const int next_above = in[(s + kLag) & (kRing - 1)];  // lane 31's value for step s + 1
                        const uint32_t x = __shfl_sync(0xffffffffu, send, (lane + 31) & 31);
                        uint32_t up = __byte_perm(x, H[R - 1], 0x5432);  // low: x's high half; high: own low half
                        const uint32_t diag0 = D;
                        D = up;
                        uint32_t diag = diag0;
                        const uint32_t before = key2;
#pragma unroll
                        for (int k = 0; k < R; ++k) {
                            const uint32_t sc = prmt2(TL[k], TH[k], cur[i]);
                            const uint32_t t = __viaddmax_s16x2(H[k], gl, __viaddmax_s16x2(diag, sc, floor2));
                            const uint32_t h = __viaddmax_s16x2(up, gu, t);
                            diag = H[k];
                            H[k] = h;
                            up = h;
                            if constexpr (kKey) key2 = __viaddmax_s16x2(h, uint32_t(7 - k) * 0x10001u, key2);
                        }
                        if constexpr (kKey) {  // the step where a half's key last rose: its column
                            const uint32_t diff = key2 ^ before;
                            const int at = s - S0;
                            col_lo = (diff & 0xffffu) ? at : col_lo;
                            col_hi = (diff >> 16) ? at : col_hi;
                        } else {
#pragma unroll
                            for (int k = 0; k + 1 < R; k += 2) best2 = __vimax3_s16x2(best2, H[k], H[k + 1]);
                            if (R & 1) best2 = __vimax3_s16x2(best2, H[R - 1], H[R - 1]);
                        }
                        if (lane == 31) out[s & (kRing - 1)] = int(int16_t(H[R - 1] >> 16)) + base;
                        send = lane == 31 ? above_rel(next_above, base) : H[R - 1];
                    }
                }
            }
            // Rebase: Bw becomes the warp's smallest H (every half of every row).
            {
                uint32_t lo2 = H[0], hi2 = H[0];
#pragma unroll
                for (int k = 1; k < R; ++k) {
                    lo2 = __vimin3_s16x2(lo2, H[k], H[k]);
                    hi2 = __vimax3_s16x2(hi2, H[k], H[k]);
                }
                const int lo = __reduce_min_sync(0xffffffffu, min(int(int16_t(lo2)), int(int16_t(lo2 >> 16))));
                const int hi = __reduce_max_sync(0xffffffffu, max(int(int16_t(hi2)), int(int16_t(hi2 >> 16))));
                if (hi - lo > 30000 && lane == 0) atomicOr(best_out + 1, 1);
                if constexpr (kKey) {
                    // Each half's key: H (scaled by 8, less the base) and the row 7 - (key & 7).
#pragma unroll
                    for (int half = 0; half < 2; ++half) {
                        const int key = int(int16_t(half ? key2 >> 16 : key2));
                        const int v = (key >> 3) + (base >> 3);
                        const int i = row0 + half * R + (7 - (key & 7)) + 1;
                        const int j = S0 + (half ? col_hi : col_lo) + 1 - 2 * lane - half;
                        if (key != -32768 && v > 0 && i <= M && j >= 1 && j <= N) {
                            const unsigned long long idx = (1ull << 42) - 1 - (unsigned long long)i * (unsigned long long)(N + 1) - unsigned(j);
                            best_key = max(best_key, (static_cast<unsigned long long>(v) << 42) | idx);
                        }
                    }
                    key2 = kLow2;
                } else {
                    best = max(best, max(int(int16_t(best2)), int(int16_t(best2 >> 16))) + base);
                    best2 = kLow2;
                }
                const int d = kKey ? (lo & ~7) : lo;  // kKey: the base stays a multiple of 8 (padding columns' -1 scores)
                const uint32_t d2 = uint32_t(uint16_t(int16_t(-d))) * 0x10001u;
#pragma unroll
                for (int k = 0; k < R; ++k) H[k] = __viaddmax_s16x2(H[k], d2, kLow2);
                D = __viaddmax_s16x2(D, d2, kLow2);
                send = __viaddmax_s16x2(send, d2, kLow2);
                base += d;
                const uint32_t f = uint32_t(uint16_t(int16_t(max(-base, -32768))));
                floor2 = f * 0x10001u;
            }
            // Publish slots S0 .. S0 + C - 1.
            if (w + 1 < W) {
                if (lane == 31) {
                    __threadfence_block();
                    sh.produced[w + 1] = S0 + kChunk;
                }
            } else {
                __syncwarp();
                const int v = out[(S0 + lane) & (kRing - 1)];
                store_relaxed(below + S0 + lane, (static_cast<unsigned long long>(epoch) << 32) | uint32_t(v));
            }
            if (w > 0 && lane == 31) sh.consumed[w] = S0 + C + kLag - 1;  // slot S0 + C + 63 may still be in flight
        }
        // Slots steps .. steps + 63 (read ahead by the band below in its last chunk): zero.
        if (w + 1 < W) {
            if (lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= steps + kLag - 1 - kRing) guard(polls);
            }
            __syncwarp();
            out[(steps + lane) & (kRing - 1)] = 0;
            out[(steps + 32 + lane) & (kRing - 1)] = 0;
            __syncwarp();
            if (lane == 31) {
                __threadfence_block();
                sh.produced[w + 1] = steps + kLag;
            }
        } else {
            store_relaxed(below + steps + lane, static_cast<unsigned long long>(epoch) << 32);
            store_relaxed(below + steps + 32 + lane, static_cast<unsigned long long>(epoch) << 32);
        }
        __syncthreads();
    }
    if constexpr (kKey) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) best_key = max(best_key, __shfl_xor_sync(0xffffffffu, best_key, o));
        if (lane == 0 && best_key != 0) atomicMax(reinterpret_cast<unsigned long long*>(best_out + 3), best_key);
    } else {
        best = __reduce_max_sync(0xffffffffu, best);
        if (lane == 0) atomicMax(best_out, best);
    }
}

// S6: local alignment with affine gaps (a gap of k costs open + (k - 1) extend) on fill16's
// layout, score only. E runs along each row (left), F down the chain (up) and through the
// hand-overs as a second value beside H: a second ring per warp boundary, a second tagged entry
// per slot between groups, a second shuffle a step. All of H, E and F are relative to the warp's
// base (E and F lie within a gap's cost of H, so the range argument of fill16 carries over; the
// host emulation checks it). Borders: E and F start at H - open, which gives the same cells as
// -infinity. ng_left / ng_up carry -open / -extend.
struct SharedAff {
    Shared h;                   // H's rings, the counters and the group
    int ringF[8][kRing];        // F of the same slots
    int last_outF[kRing];
};

template <int W, int R, int C, int B>
__global__ void __launch_bounds__(W * 32, B)
    fill16_affine(const uint32_t* __restrict__ tables, const uint32_t* __restrict__ sels2,
                  unsigned long long* rows,  // per group: steps + 64 entries of H, then steps + 64 of F
                  int steps, int groups, unsigned epoch, int* ticket, int* best_out, int ng_open, int ng_ext, int, int) {
    constexpr int kChunk = C, kLag = 64;
    static_assert(C == 32, "one take of 32 slots per chunk");
    __shared__ SharedAff sa;
    Shared& sh = sa.h;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const size_t row_len = size_t(steps) + kLag;
    const uint32_t open2 = uint32_t(uint16_t(int16_t(ng_open))) * 0x10001u;
    const uint32_t ext2 = uint32_t(uint16_t(int16_t(ng_ext))) * 0x10001u;
    constexpr uint32_t kLow2 = 0x80008000u;
    int best = 0;
    for (;;) {
        if (threadIdx.x == 0) sh.group = atomicAdd(ticket, 1);
        if (threadIdx.x < 8) { sh.produced[threadIdx.x] = 0; sh.consumed[threadIdx.x] = 0; }
        __syncthreads();
        const int g = sh.group;
        if (g >= groups) break;
        const int row0 = (g * W + w) * 64 * R + 2 * lane * R;
        uint32_t TL[R], TH[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            TL[k] = tables[row0 + k];
            TH[k] = tables[row0 + R + k];
        }
        int* inH = sh.ring[w];
        int* inF = sa.ringF[w];
        int* outH = w + 1 < W ? sh.ring[w + 1] : sh.last_out;
        int* outF = w + 1 < W ? sa.ringF[w + 1] : sa.last_outF;
        const unsigned long long* above = g > 0 ? rows + size_t(g - 1) * 2 * row_len : nullptr;
        unsigned long long* below = rows + size_t(g) * 2 * row_len;

        unsigned long long pendH = 0, pendF = 0;
        auto take_global = [&](int a, bool have) {
            if (!above) {
                inH[(a + lane) & (kRing - 1)] = 0;
                inF[(a + lane) & (kRing - 1)] = ng_open;  // row 0: F = H - open
                return;
            }
            unsigned long long eh = have ? pendH : load_relaxed(above + a + lane);
            unsigned long long ef = have ? pendF : load_relaxed(above + row_len + a + lane);
            long long polls = 0;
            while (!__all_sync(0xffffffffu, unsigned(eh >> 32) == epoch && unsigned(ef >> 32) == epoch)) {
                guard(polls);
                eh = load_relaxed(above + a + lane);
                ef = load_relaxed(above + row_len + a + lane);
            }
            inH[(a + lane) & (kRing - 1)] = int(uint32_t(eh));
            inF[(a + lane) & (kRing - 1)] = int(uint32_t(ef));
        };
        if (w == 0) {
            for (int a = 0; a < kLag + C; a += 32) take_global(a, false);
        }

        int base = 0;
        uint32_t floor2 = 0;
        uint32_t H[R], E[R];
#pragma unroll
        for (int k = 0; k < R; ++k) H[k] = 0, E[k] = open2;  // column 0: H 0, E = H - open
        uint32_t D = 0, Fb = open2;  // Fb: the bottom row's F (its previous step)
        uint32_t sendH = 0, sendF = open2;
        uint32_t best2 = kLow2;
        const uint32_t* sel_lane = sels2 + kSelBefore + 1 - 2 * lane;

        for (int S0 = 0; S0 < steps; S0 += kChunk) {
            if (w == 0) {
                if (S0 > 0) take_global(S0 + kLag, true);
                __syncwarp();
                if (above && S0 + C + kLag + 32 <= int(row_len)) {
                    pendH = load_relaxed(above + S0 + C + kLag + lane);
                    pendF = load_relaxed(above + row_len + S0 + C + kLag + lane);
                }
            } else {
                if (lane == 31) {
                    long long polls = 0;
                    while (sh.produced[w] < S0 + C + kLag) guard(polls);
                    __threadfence_block();
                }
                __syncwarp();
            }
            if (w + 1 < W && lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= S0 + C - 1 - kRing) guard(polls);
            }
            if (S0 == 0 && lane == 31) {
                sendH = above_rel(inH[kLag - 1], base);
                sendF = above_rel(inF[kLag - 1], base);
            }
            uint32_t selA[8], selB[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) selA[i] = sel_lane[S0 + i];
#pragma unroll 1
            for (int b = 0; b < kChunk; b += 16) {
#pragma unroll
                for (int half = 0; half < 2; ++half) {
                    uint32_t* cur = half == 0 ? selA : selB;
                    uint32_t* nxt = half == 0 ? selB : selA;
                    const int sb = S0 + b + half * 8;
#pragma unroll
                    for (int i = 0; i < 8; ++i) nxt[i] = sel_lane[sb + 8 + i];
#pragma unroll
                    for (int i = 0; i < 8; ++i) {
                        const int s = sb + i;
                        const int nextH = inH[(s + kLag) & (kRing - 1)], nextF = inF[(s + kLag) & (kRing - 1)];
                        const uint32_t xh = __shfl_sync(0xffffffffu, sendH, (lane + 31) & 31);
                        const uint32_t xf = __shfl_sync(0xffffffffu, sendF, (lane + 31) & 31);
                        uint32_t up = __byte_perm(xh, H[R - 1], 0x5432);
                        uint32_t fup = __byte_perm(xf, Fb, 0x5432);
                        uint32_t diag = D;
                        D = up;
#pragma unroll
                        for (int k = 0; k < R; ++k) {
                            const uint32_t sc = prmt2(TL[k], TH[k], cur[i]);
                            E[k] = __viaddmax_s16x2(E[k], ext2, __viaddmax_s16x2(H[k], open2, kLow2));
                            const uint32_t f = __viaddmax_s16x2(fup, ext2, __viaddmax_s16x2(up, open2, kLow2));
                            const uint32_t h = __vimax3_s16x2(__viaddmax_s16x2(diag, sc, floor2), E[k], f);
                            diag = H[k];
                            H[k] = h;
                            up = h;
                            fup = f;
                        }
                        Fb = fup;
#pragma unroll
                        for (int k = 0; k + 1 < R; k += 2) best2 = __vimax3_s16x2(best2, H[k], H[k + 1]);
                        if (R & 1) best2 = __vimax3_s16x2(best2, H[R - 1], H[R - 1]);
                        if (lane == 31) {
                            outH[s & (kRing - 1)] = int(int16_t(H[R - 1] >> 16)) + base;
                            outF[s & (kRing - 1)] = int(int16_t(Fb >> 16)) + base;
                        }
                        sendH = lane == 31 ? above_rel(nextH, base) : H[R - 1];
                        sendF = lane == 31 ? above_rel(nextF, base) : Fb;
                    }
                }
            }
            {
                uint32_t lo2 = H[0], hi2 = H[0];
#pragma unroll
                for (int k = 1; k < R; ++k) {
                    lo2 = __vimin3_s16x2(lo2, H[k], H[k]);
                    hi2 = __vimax3_s16x2(hi2, H[k], H[k]);
                }
                const int lo = __reduce_min_sync(0xffffffffu, min(int(int16_t(lo2)), int(int16_t(lo2 >> 16))));
                const int hi = __reduce_max_sync(0xffffffffu, max(int(int16_t(hi2)), int(int16_t(hi2 >> 16))));
                if (hi - lo > 30000 && lane == 0) atomicOr(best_out + 1, 1);
                best = max(best, max(int(int16_t(best2)), int(int16_t(best2 >> 16))) + base);
                best2 = kLow2;
                const uint32_t d2 = uint32_t(uint16_t(int16_t(-lo))) * 0x10001u;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    H[k] = __viaddmax_s16x2(H[k], d2, kLow2);
                    E[k] = __viaddmax_s16x2(E[k], d2, kLow2);
                }
                D = __viaddmax_s16x2(D, d2, kLow2);
                Fb = __viaddmax_s16x2(Fb, d2, kLow2);
                sendH = __viaddmax_s16x2(sendH, d2, kLow2);
                sendF = __viaddmax_s16x2(sendF, d2, kLow2);
                base += lo;
                floor2 = uint32_t(uint16_t(int16_t(max(-base, -32768)))) * 0x10001u;
            }
            if (w + 1 < W) {
                if (lane == 31) {
                    __threadfence_block();
                    sh.produced[w + 1] = S0 + kChunk;
                }
            } else {
                __syncwarp();
                const unsigned long long tag = static_cast<unsigned long long>(epoch) << 32;
                store_relaxed(below + S0 + lane, tag | uint32_t(outH[(S0 + lane) & (kRing - 1)]));
                store_relaxed(below + row_len + S0 + lane, tag | uint32_t(outF[(S0 + lane) & (kRing - 1)]));
            }
            if (w > 0 && lane == 31) sh.consumed[w] = S0 + C + kLag - 1;
        }
        // Slots steps .. steps + 63: H 0, F -open (the band below reads them ahead; they feed
        // only columns past N).
        if (w + 1 < W) {
            if (lane == 31) {
                long long polls = 0;
                while (sh.consumed[w + 1] <= steps + kLag - 1 - kRing) guard(polls);
            }
            __syncwarp();
            for (int q = 0; q < kLag; q += 32) {
                outH[(steps + q + lane) & (kRing - 1)] = 0;
                outF[(steps + q + lane) & (kRing - 1)] = ng_open;
            }
            __syncwarp();
            if (lane == 31) {
                __threadfence_block();
                sh.produced[w + 1] = steps + kLag;
            }
        } else {
            const unsigned long long tag = static_cast<unsigned long long>(epoch) << 32;
            for (int q = 0; q < kLag; q += 32) {
                store_relaxed(below + steps + q + lane, tag);
                store_relaxed(below + row_len + steps + q + lane, tag | uint32_t(ng_open));
            }
        }
        __syncthreads();
    }
    best = __reduce_max_sync(0xffffffffu, best);
    if (lane == 0) atomicMax(best_out, best);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Host
// ---------------------------------------------------------------------------------------------
struct Pair {
    std::vector<uint8_t> q, t;
};

Pair make_pair(int M, int N, uint64_t seed) {
    std::mt19937_64 rng(seed);
    Pair p;
    p.q.resize(M);
    for (auto& c : p.q) c = uint8_t(rng() & 3);
    // The target: a mutated copy (10 % substitutions, ~1 % indels), cut or padded to N.
    for (size_t i = 0; p.t.size() < size_t(N); ++i) {
        const uint64_t r = rng() % 1000;
        const uint8_t c = i < p.q.size() ? p.q[i] : uint8_t(rng() & 3);
        if (r < 5) continue;                                  // deletion
        if (r < 10) p.t.push_back(uint8_t(rng() & 3));        // insertion
        p.t.push_back(r < 110 ? uint8_t(rng() & 3) : c);
    }
    p.t.resize(N);
    return p;
}

// S6's problem: local alignment, match 2, mismatch -1, a gap of k costing kOpen + (k - 1) kExtend.
int affine_reference(const Pair& p) {
    const int M = int(p.q.size()), N = int(p.t.size());
    const int kInf = 1 << 28;
    std::vector<int> h(size_t(N) + 1, 0), f(size_t(N) + 1, -kInf);
    int best = 0;
    for (int i = 1; i <= M; ++i) {
        int diag = 0, left = 0, e = -kInf;
        for (int j = 1; j <= N; ++j) {
            const int up = h[j];
            e = std::max(e - kExtend, left - kOpen);
            f[j] = std::max(f[j] - kExtend, up - kOpen);
            const int s = p.q[i - 1] == p.t[j - 1] ? kMatch : kMismatch;
            const int v = std::max({diag + s, e, f[j], 0});
            diag = up;
            h[j] = left = v;
            best = std::max(best, v);
        }
    }
    return best;
}

int edit_reference(const Pair& p) {
    const int M = int(p.q.size()), N = int(p.t.size());
    std::vector<int> d(size_t(N) + 1);
    for (int j = 0; j <= N; ++j) d[j] = j;
    for (int i = 1; i <= M; ++i) {
        int diag = d[0];
        d[0] = i;
        for (int j = 1; j <= N; ++j) {
            const int up = d[j];
            d[j] = std::min({diag + (p.q[i - 1] != p.t[j - 1]), up + 1, d[j - 1] + 1});
            diag = up;
        }
    }
    return d[N];
}

// The best score; with i, j: its first cell in row-major order (1-based; 0, 0 when no cell is positive).
int reference(const Pair& p, int* end_i = nullptr, int* end_j = nullptr) {
    const int M = int(p.q.size()), N = int(p.t.size());
    std::vector<int> h(size_t(N) + 1, 0);
    int best = 0, bi = 0, bj = 0;
    for (int i = 1; i <= M; ++i) {
        int diag = 0, left = 0;
        for (int j = 1; j <= N; ++j) {
            const int up = h[j];
            const int s = p.q[i - 1] == p.t[j - 1] ? kMatch : kMismatch;
            const int v = std::max({diag + s, up - kGap, left - kGap, 0});
            diag = up;
            h[j] = left = v;
            if (v > best) best = v, bi = i, bj = j;
        }
    }
    if (end_i) *end_i = bi, *end_j = bj;
    return best;
}

struct Variant {
    const char* name;
    int W, R;
    bool edit;
    bool lanes16;  // fill16: two virtual lanes a thread
    bool key;      // fill16 with the end cell (S5): values scaled by 8
    bool affine;   // fill16_affine (S6): gaps kOpen / kExtend, two entries a slot between groups
    void (*kernel)(const uint32_t*, const uint32_t*, unsigned long long*, int, int, unsigned, int*, int*, int, int, int, int);
};

// Name: W<warps per block> R<rows per lane> C<steps per chunk> S<1: one VIADDMNMX a row on the
// step's chain (kShort); 2: the compiler's own chain, an add and a max a row> B<blocks per SM the
// registers allow at least>.
#define PROBE_VARIANT(W, R, C, S, B) \
    Variant{"W" #W " R" #R " C" #C " S" #S " B" #B, W, R, S == 3, false, false, false, fill<W, R, C, S, B>}
// S4: fill16, local linear in 16x2 lanes (W warps of 64 R rows); S5: the same with the end cell.
#define PROBE_VARIANT16(W, R, B) Variant{"W" #W " R" #R " C32 S4 B" #B, W, R, false, true, false, false, fill16<W, R, 32, B, false>}
#define PROBE_VARIANT16_KEY(W, B) Variant{"W" #W " R8 C32 S5 B" #B, W, 8, false, true, true, false, fill16<W, 8, 32, B, true>}
// S6: fill16_affine, local alignment with affine gaps in 16x2 lanes.
#define PROBE_VARIANT16_AFF(W, R, B) Variant{"W" #W " R" #R " C32 S6 B" #B, W, R, false, true, false, true, fill16_affine<W, R, 32, B>}
const Variant kVariants[] = {
    PROBE_VARIANT(4, 16, 32, 1, 4), PROBE_VARIANT(4, 16, 32, 1, 1), PROBE_VARIANT(4, 12, 32, 1, 1),
    PROBE_VARIANT(4, 8, 32, 1, 4),  PROBE_VARIANT(4, 6, 32, 1, 1),  PROBE_VARIANT(4, 5, 32, 1, 1),
    PROBE_VARIANT(2, 6, 32, 1, 1),  PROBE_VARIANT(8, 16, 32, 1, 2), PROBE_VARIANT(4, 16, 32, 3, 4),
    PROBE_VARIANT(4, 6, 32, 3, 1),  PROBE_VARIANT(4, 8, 32, 3, 4),
    PROBE_VARIANT16(4, 16, 1),      PROBE_VARIANT16(4, 16, 2),      PROBE_VARIANT16(4, 8, 2),
    PROBE_VARIANT16(4, 8, 4),       PROBE_VARIANT16(4, 4, 4),       PROBE_VARIANT16_KEY(4, 2),
    PROBE_VARIANT16_KEY(4, 4),      PROBE_VARIANT16_AFF(4, 8, 2),   PROBE_VARIANT16_AFF(4, 4, 4),
};

struct Device {
    int sms = 0;
    uint32_t* tables = nullptr;
    uint32_t* sels = nullptr;
    unsigned long long* rows = nullptr;
    size_t rows_cap = 0;
    int* ticket = nullptr;   // [0] ticket, [1] best, [2] fill16's spread flag, [4..5] S5's end key
    unsigned epoch = 0;
};

struct Run {
    int score = 0;
    float ms = 0;
    bool spread = false;  // fill16: a chunk's cells spread past 30,000 (the range argument failed)
    int i = 0, j = 0;     // S5: the end cell (1-based; 0, 0 when no cell is positive)
};

// fill16's selector of the column pair (j, j - 1): the low half's bytes from the low row's
// table (byte x, then its sign), the high half's from the high row's (byte 4 + x); a padding
// column (code kPadCode) selects a sign byte, 0 or -1.
uint32_t selector16(int lo, int hi) {
    const uint32_t a = lo == kPadCode ? 0x88u : uint32_t(lo | ((8 | lo) << 4));
    const uint32_t b = hi == kPadCode ? 0xccu : uint32_t((4 + hi) | ((8 | (4 + hi)) << 4));
    return a | (b << 8);
}

// One fill of the pair with variant v at k blocks per SM (0: as many as fit); `reps` timed fills.
std::vector<Run> run(Device& d, const Variant& v, const Pair& p, int k, int reps) {
    const int M = int(p.q.size()), N = int(p.t.size());
    const int lanes = v.lanes16 ? 64 : 32;  // (virtual) lanes of a band
    const int rows_per_group = v.W * lanes * v.R;
    const int groups = (M + rows_per_group - 1) / rows_per_group;
    const int steps = (N + lanes - 1 + 31) / 32 * 32;
    std::vector<uint32_t> tables(size_t(groups) * rows_per_group, kPadWord);
    for (int i = 0; i < M; ++i) {
        uint32_t w = 0;
        for (int x = 0; x < 4; ++x) {
            const int sc = (v.key ? 8 : 1) * (v.edit ? (p.q[i] == x ? 2 : 1) : (p.q[i] == x ? kMatch : kMismatch));
            w |= uint32_t(uint8_t(int8_t(sc))) << (8 * x);
        }
        tables[i] = w;
    }
    std::vector<uint32_t> sels(size_t(steps) + kSelBefore + 64, selector(kPadCode));
    for (int j = 1; j <= N; ++j) sels[size_t(j) + kSelBefore] = selector(p.t[j - 1]);
    if (v.lanes16) {
        const auto code = [&](int j) { return j >= 1 && j <= N ? int(p.t[j - 1]) : kPadCode; };
        for (size_t x = 0; x < sels.size(); ++x) {
            const int j = int(x) - kSelBefore;
            sels[x] = selector16(code(j), code(j - 1));
        }
    }
    PROBE_CHECK(cudaFree(d.tables));
    PROBE_CHECK(cudaFree(d.sels));
    PROBE_CHECK(cudaMalloc(&d.tables, tables.size() * 4));
    PROBE_CHECK(cudaMalloc(&d.sels, sels.size() * 4));
    PROBE_CHECK(cudaMemcpy(d.tables, tables.data(), tables.size() * 4, cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMemcpy(d.sels, sels.data(), sels.size() * 4, cudaMemcpyHostToDevice));
    const size_t need = size_t(groups) * (size_t(steps) + lanes) * (v.affine ? 2 : 1);
    if (need > d.rows_cap) {
        PROBE_CHECK(cudaFree(d.rows));
        PROBE_CHECK(cudaMalloc(&d.rows, need * 8));
        PROBE_CHECK(cudaMemset(d.rows, 0, need * 8));
        d.rows_cap = need;
    }
    int fit = 0;
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, v.kernel, v.W * 32, 0));
    const int per_sm = k > 0 ? std::min(k, fit) : fit;
    const int grid = std::min(groups, per_sm * d.sms);
    cudaEvent_t e0, e1;
    PROBE_CHECK(cudaEventCreate(&e0));
    PROBE_CHECK(cudaEventCreate(&e1));
    std::vector<Run> out;
    for (int r = 0; r < reps; ++r) {
        PROBE_CHECK(cudaMemset(d.ticket, 0, 32));
        ++d.epoch;
        PROBE_CHECK(cudaEventRecord(e0));
        const int gap = (v.key ? 8 : 1) * kGap;
        const int ng_left = v.affine ? -kOpen : -gap, ng_up = v.affine ? -kExtend : -gap;  // S6: -open, -extend
        v.kernel<<<grid, v.W * 32>>>(d.tables, d.sels, d.rows, steps, groups, d.epoch, d.ticket, d.ticket + 1, ng_left, ng_up, M, N);
        PROBE_CHECK(cudaEventRecord(e1));
        PROBE_CHECK(cudaGetLastError());
        PROBE_CHECK(cudaEventSynchronize(e1));
        Run x;
        PROBE_CHECK(cudaEventElapsedTime(&x.ms, e0, e1));
        PROBE_CHECK(cudaMemcpy(&x.score, d.ticket + 1, 4, cudaMemcpyDeviceToHost));
        int spread = 0;
        PROBE_CHECK(cudaMemcpy(&spread, d.ticket + 2, 4, cudaMemcpyDeviceToHost));
        x.spread = spread != 0;
        if (v.key) {
            unsigned long long key = 0;
            PROBE_CHECK(cudaMemcpy(&key, d.ticket + 4, 8, cudaMemcpyDeviceToHost));
            const unsigned long long low = (1ull << 42) - 1, idx = key ? low - (key & low) : 0;
            x.score = int(key >> 42);
            x.i = key ? int(idx / unsigned(N + 1)) : 0;
            x.j = key ? int(idx % unsigned(N + 1)) : 0;
        }
        if (v.edit) x.score = M + N - x.score;  // H'(M, N) = M + N - D(M, N)
        out.push_back(x);
    }
    PROBE_CHECK(cudaEventDestroy(e0));
    PROBE_CHECK(cudaEventDestroy(e1));
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> only;
    std::vector<int> sizes = {65536, 262144, 1048576};
    std::vector<int> ks = {1, 2, 3, 4};
    int reps = 5;
    bool check_big = false, check = true;
    for (int a = 1; a < argc; ++a) {
        const std::string s = argv[a];
        if (s == "--only" && a + 1 < argc) only.push_back(argv[++a]);
        else if (s == "--sizes" && a + 1 < argc) {
            sizes.clear();
            for (char* t = std::strtok(argv[++a], ","); t; t = std::strtok(nullptr, ",")) sizes.push_back(std::atoi(t));
        } else if (s == "--k" && a + 1 < argc) {
            ks.clear();
            for (char* t = std::strtok(argv[++a], ","); t; t = std::strtok(nullptr, ",")) ks.push_back(std::atoi(t));
        } else if (s == "--reps" && a + 1 < argc) reps = std::atoi(argv[++a]);
        else if (s == "--check-big") check_big = true;
        else if (s == "--no-check") check = false;
        else {
            std::fprintf(stderr, "usage: row_serial_probe [--only NAME]... [--sizes N,..] [--k K,..] [--reps R] [--check-big] [--no-check]\n");
            return 2;
        }
    }
    Device d;
    cudaDeviceProp prop{};
    PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
    d.sms = prop.multiProcessorCount;
    PROBE_CHECK(cudaMalloc(&d.ticket, 32));  // ticket, best, fill16's spread flag, -, S5's end key (64 bits)
    std::printf("device: %s, %d SMs\n", prop.name, d.sms);
    bool ok = true;
    const int shapes[][2] = {{1, 1}, {1, 100}, {100, 1}, {33, 65}, {1000, 999}, {4097, 3001}, {20000, 20000}, {70000, 300}, {300, 70000}};
    struct Check {
        Pair p;
        int local, edit, i, j, affine;  // i, j: the local end cell
    };
    std::vector<Check> checks;
    for (const auto& sh : shapes) {
        if (!check) break;
        Pair p = make_pair(sh[0], sh[1], 1000 + sh[0] * 7 + sh[1]);
        int i = 0, j = 0;
        const int local = reference(p, &i, &j), edit = edit_reference(p);
        const int affine = affine_reference(p);
        checks.push_back(Check{std::move(p), local, edit, i, j, affine});
    }
    for (const Variant& v : kVariants) {
        bool take = only.empty();
        for (const auto& o : only) take |= std::strstr(v.name, o.c_str()) != nullptr;
        if (!take || !check) continue;
        for (const auto& [p, local, edit, ei, ej, affine] : checks) {
            const int ref = v.edit ? edit : v.affine ? affine : local;
            for (int k : {1, 4}) {
                const Run got = run(d, v, p, k, 2)[1];
                if (got.score != ref || got.spread || (v.key && (got.i != ei || got.j != ej))) {
                    std::printf("%s: MISMATCH %zux%zu k=%d: gpu %d (%d, %d), reference %d (%d, %d)%s\n", v.name, p.q.size(), p.t.size(), k,
                                got.score, got.i, got.j, ref, ei, ej, got.spread ? " (cells spread past 16 bits)" : "");
                    ok = false;
                }
            }
        }
        std::printf("%s: checks %s\n", v.name, ok ? "OK" : "FAILED");
        std::fflush(stdout);
    }
    for (int n : sizes) {
        const Pair p = make_pair(n, n, 42);
        int ref_local = -1, ref_edit = -1, ref_affine = -1;
        if (check_big && n <= 65536) ref_local = reference(p), ref_edit = edit_reference(p), ref_affine = affine_reference(p);
        for (const Variant& v : kVariants) {
            bool take = only.empty();
            for (const auto& o : only) take |= std::strstr(v.name, o.c_str()) != nullptr;
            if (!take) continue;
            const int ref = v.edit ? ref_edit : v.affine ? ref_affine : ref_local;
            for (int k : ks) {
                const int r = n >= 1048576 ? std::max(3, reps / 2) : reps;
                std::vector<Run> runs = run(d, v, p, k, r + 1);
                runs.erase(runs.begin());  // warm-up
                std::vector<float> ms;
                bool agree = true;
                for (const Run& x : runs) { ms.push_back(x.ms); agree &= x.score == runs[0].score && !x.spread; }
                std::sort(ms.begin(), ms.end());
                const float med = ms[ms.size() / 2];
                const bool good = agree && (ref < 0 || runs[0].score == ref);
                ok &= good;
                std::printf("%-8s %8d^2 k=%d score %d%s: %.3f ms (median of %zu; %.3f..%.3f) %.3f TCUPS%s\n", v.name, n, k,
                            runs[0].score, ref >= 0 ? (runs[0].score == ref ? " (= reference)" : " (REFERENCE DIFFERS)") : "", med,
                            ms.size(), ms.front(), ms.back(), double(n) * n / (med * 1e9), good ? "" : " FAILED");
                std::fflush(stdout);
            }
        }
    }
    std::printf("%s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
