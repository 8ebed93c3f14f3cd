// Standalone probe: how fast can ONE long pair be filled on an H200 with a block-of-bands design?
// Local alignment (Smith-Waterman), DNA, match +2 / mismatch -1, linear gap 2, int32, score only
// (best score and its end cell, ties to the first cell in row-major order). Not part of dpviz's
// build; README.md beside this file says how to build and run it and what it prints.
//
// Index of this file
//   [SECTION] Problem and constants     scoring, the scaled score domain, the packed end-cell key
//   [SECTION] Cell operations           DPX and DPX-free forms of one cell and of the max key
//   [SECTION] Fill kernel               persistent blocks of W bands, shared and global hand-over
//   [SECTION] Host: inputs, reference   the seeded pair, the plain O(M*N) CPU reference
//   [SECTION] Host: variants, checks, timing, main
//
// Design in short (README.md has the reasoning):
// - A group is W * 32 * R consecutive rows; a block takes groups in order from a global ticket.
//   Warp w of the block owns band w of the group: 32 * R rows, R rows per lane.
// - Skew: lane l's row k at step s works on column s + 1 - (l * R + k). All R cells of a lane in
//   one step are independent (each uses only values of the previous two steps), and the lane's
//   top row takes its up value from the lane above with one __shfl_up_sync per step.
// - H is carried scaled by 256 (H << 8): the low 8 bits are zero, so "max(best, H + u)" with
//   u = 255 - (step mod 256) tracks the row's maximum AND its first step in one VIADDMNMX.
//   Every 256 steps the per-row key is folded into (best score, column) with a strict '>'.
// - The score of a cell is one PRMT: the row's 4 scores are 4 bytes of a register; the column's
//   selector (a 16-bit value per target residue) picks one byte, sign-extends it and places it
//   at bits 8..31, which yields s * 256 directly.
// - Band to band inside a block: a ring of the band's bottom-row H in shared memory plus a
//   volatile progress counter (and a consumption counter for back-pressure), published every P
//   steps. Group to group: two global row slots (group g writes slot g mod 2) of 64-bit entries
//   (tag << 32 | H), tag = this fill's epoch and the writer's group, stored and loaded relaxed at
//   gpu scope: each entry carries its own validity, so neither side needs a fence or a flag, and
//   the reader keeps its next 32-column load in flight and only checks the tags when it uses it.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define PROBE_CHECK(call)                                                                          \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "single_pair_probe: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(err_));                                                \
            std::exit(3);                                                                          \
        }                                                                                          \
    } while (0)

namespace probe {

// ---------------------------------------------------------------------------------------------
// [SECTION] Problem and constants
// ---------------------------------------------------------------------------------------------
constexpr int kMatch = 2, kMismatch = -1, kGap = 2;
constexpr int kScale = 8;                  // H is carried as H << kScale inside the kernel
constexpr int kGapS = kGap << kScale;
constexpr int kRing = 512;                 // ring slots (ints) per band-to-band hand-over
constexpr int kRingMask = kRing - 1;
constexpr int kFetch = 32;                 // columns per global fetch / copy-out (one per lane)
constexpr int kUnroll = 8;                 // steps per unrolled inner block
constexpr int kSelOff = 256;               // selector of column c at tsel[c + kSelOff]
constexpr int kKeyBits = 20;               // end-cell key: score << 40 | ~i << 20 | ~j
constexpr int kMaxDim = (1 << kKeyBits) - 1;
constexpr uint32_t kPrmtHi = 0x8000;       // PRMT's bytes 4..7: byte 4 = 0, byte 5 = -128 (padding)
constexpr uint32_t kPadTable = 0x80808080; // the table of a row beyond M: -128 against everything

// PRMT selector of a residue code x (0..3 real, 5 padding): byte 0 <- byte 4 (zero), byte 1 <-
// byte x, bytes 2 and 3 <- the sign of byte x. Result: int8(table byte x) * 256.
__host__ __device__ constexpr uint16_t selector(int x) {
    return uint16_t(0x4 | (x << 4) | ((8 | x) << 8) | ((8 | x) << 12));
}
constexpr int kPadCode = 5;

uint32_t row_table(int q) {  // 4 bytes: score of query residue q against target residue 0..3
    uint32_t t = 0;
    for (int x = 0; x < 4; ++x) t |= uint32_t(uint8_t(int8_t(q == x ? kMatch : kMismatch))) << (8 * x);
    return t;
}

struct Best {
    int score = 0, i = 0, j = 0;
    bool operator==(const Best& o) const { return score == o.score && i == o.i && j == o.j; }
};

__host__ __device__ inline unsigned long long pack_best(int score, int i, int j) {
    return (static_cast<unsigned long long>(score) << (2 * kKeyBits)) |
           (static_cast<unsigned long long>(kMaxDim - i) << kKeyBits) | static_cast<unsigned long long>(kMaxDim - j);
}

inline Best unpack_best(unsigned long long key) {
    if (key == 0) return {};  // no positive cell: the reference's convention is (0, 0), score 0
    return {int(key >> (2 * kKeyBits)), kMaxDim - int((key >> kKeyBits) & kMaxDim), kMaxDim - int(key & kMaxDim)};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Cell operations
// ---------------------------------------------------------------------------------------------
// cell(diag, up, left, s) = max(diag + s, up - g, left - g, floor); key(h, u, best) = max(h + u, best).
struct DpxOps {
    static constexpr bool kDpx = true;
    static constexpr int kZero = 0;  // the value carried for H = 0
    static __device__ __forceinline__ int cell(int diag, int up, int left, int s) {
        return __viaddmax_s32_relu(up, -kGapS, __viaddmax_s32(left, -kGapS, diag + s));
    }
    static __device__ __forceinline__ int key(int h, int u, int best) { return __viaddmax_s32(h, u, best); }
};

// DPX-free: what a pre-Hopper GPU executes. ptxas for sm_90 fuses integer add+max into DPX forms
// by itself, so the maxima run as FMNMX on bit patterns (dpviz's cell_ops.hpp trick): every
// compared value is carried with a bias of 2^30, so it is a positive float below 0x7f800000 and
// float order equals integer order.
struct FreeOps {
    static constexpr bool kDpx = false;
    static constexpr int kZero = 1 << 30;
    static __device__ __forceinline__ int fmax_i(int a, int b) {
        return __float_as_int(fmaxf(__int_as_float(a), __int_as_float(b)));
    }
    static __device__ __forceinline__ int cell(int diag, int up, int left, int s) {
        return fmax_i(fmax_i(up - kGapS, fmax_i(left - kGapS, diag + s)), kZero);
    }
    static __device__ __forceinline__ int key(int h, int u, int best) { return fmax_i(h + u, best); }
};

// s * 256 + low for the selected byte s of table; low < 256 is byte 4 of the result's source.
__device__ __forceinline__ int prmt(uint32_t table, uint32_t sel, uint32_t low = 0) {
    int r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(table), "r"(kPrmtHi | low), "r"(sel));
    return r;
}

// Direction bits (DPX only): the 2-bit code of the winning predecessor rides in the low byte of
// each candidate, at bits 2 * pos (pos = step mod 4), so one max yields H and its code together:
// diag 3, up 2, left 1, zero 0 (ties go to the larger code: diag, then up, then left, then zero).
// The inputs are clean (low byte 0), so the result's low byte is exactly code << 2 * pos.
template <int kPos>
__device__ __forceinline__ int cell_dir(int diag, int up, int left, uint32_t table, uint32_t sel) {
    const int d = diag + prmt(table, sel, 3u << (2 * kPos));
    return __viaddmax_s32_relu(up, (2 << (2 * kPos)) - kGapS, __viaddmax_s32(left, (1 << (2 * kPos)) - kGapS, d));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Fill kernel
// ---------------------------------------------------------------------------------------------
struct Params {
    const uint16_t* tsel;         // selector of column c at tsel[c + kSelOff]; padding outside 1..N
    const uint32_t* qtab;         // score table of row i at qtab[i], i in 1..M
    int M, N;
    int n_groups, steps;          // steps: per band, a multiple of P, >= N + 32 R
    unsigned long long* gbuf;     // 2 row slots of gstride entries: column c at [c], tag << 32 | H
    int gstride;
    uint32_t epoch;               // this fill's number (>= 1), the high half of every tag
    int* ticket;
    unsigned long long* best;     // packed end-cell key, atomicMax
    uint32_t* dirs;               // direction bits (kDirs): see the kernel
    int dir_words;                // 32-bit words per row of a band = steps / 16
};

// Group-to-group entries: 64-bit, naturally aligned, relaxed at gpu scope (single-copy atomic,
// served by L2, no fence). The tag names the fill and the writing group, so a stale entry (an
// earlier group using the slot, an earlier fill) is never taken for a current one.
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long* p, unsigned long long v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ uint32_t tag_of(uint32_t epoch, int group) { return (epoch << 16) | uint32_t(group); }
__device__ __forceinline__ unsigned long long entry(uint32_t tag, int h) {
    return (static_cast<unsigned long long>(tag) << 32) | static_cast<uint32_t>(h);
}
// A wait that never ends is a bug in the hand-over: stop the kernel (the host reports the launch
// error) instead of hanging the device. A whole fill takes milliseconds; one wait of 2 s is a hang.
struct SpinGuard {
    unsigned polls = 0;
    unsigned long long t0 = 0;
    __device__ __forceinline__ void operator()() {
        if ((++polls & 1023) != 0) return;
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t0 == 0) t0 = t;
        else if (t - t0 > 2000000000ull) __trap();
    }
};

// kDirs: also store the 2-bit direction code of every cell (cell_dir). Layout, per band b (= group
// * W + warp): word q (steps 16 q .. 16 q + 15, 2 bits per step, the first step in bits 0-1) of
// lane l, row k at dirs[((b * dir_words + q) * 32 + l) * R + k]; the cell of step s in that row
// is column s + 1 - (l * R + k). One coalesced store of 32 * R words per 16 steps.
// Calls f(std::integral_constant<int, I>) for I = 0 .. N-1: the step index is a constant expression.
template <class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
    static_for_impl(f, std::make_integer_sequence<int, N>{});
}

template <int W, int R, int P, class Ops, bool kDirs>
__global__ void __launch_bounds__(W * 32, 1) sp_fill(Params p) {
    static_assert(P % kUnroll == 0 && (32 * R) % P == 0 && 256 % P == 0 && kRing % P == 0, "chunk shape");
    static_assert(!kDirs || (Ops::kDpx && P % (2 * kUnroll) == 0), "direction bits: DPX, pairs of blocks");
    constexpr int kBand = 32 * R;          // rows per warp
    constexpr int kGroupRows = W * kBand;  // rows per block-group
    constexpr int kZ = Ops::kZero;

    extern __shared__ int ring[];          // (W + 1) rings: ring w is the input of warp w
    __shared__ int prog[W + 1];            // columns ready in ring w
    __shared__ int cons[W + 1];            // columns consumed from ring w by warp w
    __shared__ int s_group;

    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    for (int k = threadIdx.x; k < (W + 1) * kRing; k += W * 32) ring[k] = kZ;
    volatile int* vprog = prog;
    volatile int* vcons = cons;

    for (;;) {
        __syncthreads();  // every warp is done with the previous group
        if (threadIdx.x == 0) s_group = atomicAdd(p.ticket, 1);
        if (threadIdx.x <= W) {
            prog[threadIdx.x] = 0;
            cons[threadIdx.x] = 0;
        }
        __syncthreads();
        const int g = s_group;
        if (g >= p.n_groups) return;

        const int row0 = g * kGroupRows + w * kBand + lane * R + 1;  // the lane's first row
        uint32_t tab[R];
        int hp[R], hpp[R], x[R], best[R], rbest[R], rcol[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            tab[k] = row0 + k <= p.M ? p.qtab[row0 + k] : kPadTable;
            hp[k] = hpp[k] = kZ;
            x[k] = selector(kPadCode);
            best[k] = kZ - 255;  // keys are H + u, u = 255 - (step mod 256); kept relative to u
            rbest[k] = 0;
            rcol[k] = 0;
        }
        int prev_up = kZ;  // lane's top row: the up value of the previous step (= this step's diag)

        int* ring_in = ring + w * kRing;
        int* ring_out = ring + (w + 1) * kRing;
        const bool first = w == 0, last = w == W - 1;
        const bool fetch_global = first && g > 0;
        const bool write_global = last && g + 1 < p.n_groups;
        // Two slots suffice: group g + 1 overwrites column c of slot (g - 1) mod 2 only after it
        // computed c, which needs group g to have computed c, which needs group g to have taken c
        // from that slot; and g's earlier loads of a column it has not used yet cannot see g + 1's
        // entry for the same reason. Columns past N are not loaded (they are H = 0 padding).
        const unsigned long long* gin = p.gbuf + static_cast<size_t>((g + 1) & 1) * p.gstride;
        unsigned long long* gout = p.gbuf + static_cast<size_t>(g & 1) * p.gstride;
        const uint32_t want = tag_of(p.epoch, g - 1), mine = tag_of(p.epoch, g);

        int fetched = 0;   // warp 0: columns 1..fetched are in ring_in
        unsigned long long pending = entry(want, kZ);  // warp 0: column fetched + 1 + lane, in flight
        auto load_pending = [&]() {
            const int c = fetched + 1 + lane;
            pending = c <= p.N ? ld_relaxed(gin + c) : entry(want, kZ);
        };
        if (fetch_global) load_pending();
        int copied = 0;    // last warp: columns 1..copied are in the global row buffer

        // Selectors of the lane's top row: step s reads tsel[s + 1 - lane * R + kSelOff]. Two buffers of
        // kUnroll steps: one in use, the next one loading (ping-pong, no register copies for P >= 16).
        const uint16_t* tq = p.tsel + kSelOff + 1 - lane * R;
        int sel_a[kUnroll], sel_b[kUnroll];
#pragma unroll
        for (int i = 0; i < kUnroll; ++i) sel_a[i] = __ldg(tq + i);
        tq += kUnroll;

        // kUnroll steps from step s with the selectors in cur; loads the next block's into nxt.
        // best[k] is kept relative to the block's u (bk = key - u of the block's first step), so the
        // key update is one VIADDMNMX with an immediate: max(h - i, bk); +kUnroll per block.
        uint32_t dw[R] = {}, sub[R] = {};  // kDirs: the word of 16 steps, the byte of 4 steps being built
        uint32_t* dir_out = nullptr;
        if constexpr (kDirs)
            dir_out = p.dirs + (static_cast<size_t>(g * W + w) * p.dir_words * 32 + lane) * R;
        auto block = [&](const int s, int (&cur)[kUnroll], int (&nxt)[kUnroll], auto half_c) {
            constexpr int kHalf = decltype(half_c)::value;  // which 8 steps of a 16-step word
#pragma unroll
            for (int i = 0; i < kUnroll; ++i) nxt[i] = __ldg(tq + i);
            tq += kUnroll;
            const int* rin = ring_in + (s & kRingMask);
            int* rout = ring_out + ((s - kBand) & kRingMask);
            static_for<kUnroll>([&](auto i_c) {
                constexpr int i = decltype(i_c)::value;
                const int rv = rin[i];
                const int sh = __shfl_up_sync(0xffffffffu, hp[R - 1], 1);
                const int up0 = lane == 0 ? rv : sh;
                if (lane == 31) rout[i] = hp[R - 1];  // column s + i + 1 - kBand (previous step's)
#pragma unroll
                for (int k = R - 1; k > 0; --k) x[k] = x[k - 1];
                x[0] = cur[i];
                int h[R];
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    const int up = k == 0 ? up0 : hp[k - 1];
                    const int dg = k == 0 ? prev_up : hpp[k - 1];
                    if constexpr (kDirs) {
                        constexpr int kPos = i & 3;
                        const int hd = cell_dir<kPos>(dg, up, hp[k], tab[k], x[k]);
                        h[k] = hd & ~255;
                        sub[k] = kPos == 0 ? (hd & 3) : (sub[k] | (hd & (3 << (2 * kPos))));
                        if constexpr (kPos == 3) {
                            constexpr int kByte = kHalf * 2 + i / 4;
                            dw[k] = kByte == 0 ? sub[k] : (dw[k] | (sub[k] << (8 * kByte)));
                        }
                    } else {
                        h[k] = Ops::cell(dg, up, hp[k], prmt(tab[k], x[k]));
                    }
                    best[k] = Ops::key(h[k], -i, best[k]);
                }
                prev_up = up0;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    hpp[k] = hp[k];
                    hp[k] = h[k];
                }
            });
#pragma unroll
            for (int k = 0; k < R; ++k) best[k] += kUnroll;
            if constexpr (kDirs && kHalf == 1) {  // one coalesced store of the lane's R words
                uint32_t* dst = dir_out + static_cast<size_t>((s - kUnroll) >> 4) * 32 * R;
                if constexpr (R == 4) {
                    __stcs(reinterpret_cast<uint4*>(dst), make_uint4(dw[0], dw[1], dw[2], dw[3]));
                } else if constexpr (R == 2) {
                    __stcs(reinterpret_cast<uint2*>(dst), make_uint2(dw[0], dw[1]));
                } else {
                    __stcs(dst, dw[0]);
                }
            }
        };

        for (int s0 = 0; s0 < p.steps; s0 += P) {
            // 1. Input columns s0 + 1 .. s0 + P of the row above the band.
            if (first) {
                while (fetched < s0 + P) {
                    if (fetch_global) {  // the entries loaded a fetch ago; reload until all are current
                        SpinGuard guard;
                        while (!__all_sync(0xffffffffu, uint32_t(pending >> 32) == want)) {
                            guard();
                            load_pending();
                        }
                    }
                    ring_in[(fetched + lane) & kRingMask] = fetch_global ? int(uint32_t(pending)) : kZ;
                    fetched += kFetch;
                    if (fetch_global) load_pending();  // the next 32 columns, used a fetch later
                }
                __syncwarp();
            } else {
                const int need = min(s0 + P, p.N);
                SpinGuard guard;
                while (vprog[w] < need) guard();
                __threadfence_block();
            }
            // 2. Back-pressure: this chunk overwrites ring_out slots of columns up to s0 + P - kBand - kRing.
            if (!last) {
                SpinGuard guard;
                while (vcons[w + 1] < s0 + P - kBand - kRing) guard();
            }
            // 3. P steps.
            if constexpr (P % (2 * kUnroll) == 0) {
#pragma unroll 1
                for (int sb = 0; sb < P; sb += 2 * kUnroll) {
                    block(s0 + sb, sel_a, sel_b, std::integral_constant<int, 0>{});
                    block(s0 + sb + kUnroll, sel_b, sel_a, std::integral_constant<int, 1>{});
                }
            } else {
                block(s0, sel_a, sel_b, std::integral_constant<int, 0>{});
#pragma unroll
                for (int i = 0; i < kUnroll; ++i) sel_a[i] = sel_b[i];
            }
            // 4. Publish: columns up to s0 + P - kBand are in ring_out; s0 + P of ring_in are consumed.
            __syncwarp();
            if (lane == 31) {
                __threadfence_block();
                if (!last) vprog[w + 1] = s0 + P - kBand;
                vcons[w] = s0 + P;
            }
            // 5. Last band of the group: copy the bottom row to the global buffer, 32 columns at a time.
            if (write_global) {
                const int ready = min(s0 + P - kBand, p.N);  // reaches N in the last chunk
                while (copied < ready && (copied + kFetch <= ready || ready == p.N)) {
                    st_relaxed(gout + copied + 1 + lane, entry(mine, ring_out[(copied + lane) & kRingMask]));
                    copied += kFetch;
                }
            }
            // 6. Every 256 steps: fold the per-row keys into (best score, first column).
            if (((s0 + P) & 255) == 0 || s0 + P >= p.steps) {
                const int base = (s0 + P - 1) & ~255;
                const int u_next = 255 - ((s0 + P - 1) & 255) - 1;  // best[k] is relative to it
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    const int key = best[k] + u_next - kZ;
                    const int v = key >> kScale;
                    const int col = base + 255 - (key & 255) + 1 - lane * R - k;
                    if (v > rbest[k] && col >= 1 && col <= p.N) {
                        rbest[k] = v;
                        rcol[k] = col;
                    }
                    best[k] = kZ - 255;  // the next step is the first of a 256-step range: u = 255
                }
            }
        }

        // The band's best cell: per lane, then per warp, then one atomicMax.
        unsigned long long key = 0;
#pragma unroll
        for (int k = 0; k < R; ++k)
            if (rbest[k] > 0 && row0 + k <= p.M) key = max(key, pack_best(rbest[k], row0 + k, rcol[k]));
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) key = max(key, __shfl_xor_sync(0xffffffffu, key, d));
        if (lane == 0 && key != 0) atomicMax(p.best, key);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Host: inputs, reference
// ---------------------------------------------------------------------------------------------
std::vector<uint8_t> random_seq(int n, std::mt19937_64& rng) {
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = uint8_t(rng() & 3);
    return s;
}

// A mutated copy of q: 10 % substitutions, ~0.5 % insertions and ~0.5 % deletions, cut or
// extended (random residues) to length n.
std::vector<uint8_t> mutated(const std::vector<uint8_t>& q, int n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<uint8_t> t;
    t.reserve(n);
    for (size_t k = 0; k < q.size() && int(t.size()) < n; ++k) {
        const double r = u(rng);
        if (r < 0.005) continue;                              // deletion
        if (r < 0.010) t.push_back(uint8_t(rng() & 3));       // insertion, then the residue
        if (int(t.size()) >= n) break;
        if (u(rng) < 0.10) t.push_back(uint8_t((q[k] + 1 + rng() % 3) & 3));  // substitution
        else t.push_back(q[k]);
    }
    while (int(t.size()) < n) t.push_back(uint8_t(rng() & 3));
    return t;
}

// The plain O(M*N) reference with two rows; ties to the first cell in row-major order.
Best reference(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t) {
    const int M = int(q.size()), N = int(t.size());
    std::vector<int> prev(N + 1, 0), cur(N + 1, 0);
    Best b;
    for (int i = 1; i <= M; ++i) {
        cur[0] = 0;
        const uint8_t qi = q[i - 1];
        for (int j = 1; j <= N; ++j) {
            const int s = qi == t[j - 1] ? kMatch : kMismatch;
            int h = prev[j - 1] + s;
            h = std::max(h, prev[j] - kGap);
            h = std::max(h, cur[j - 1] - kGap);
            h = std::max(h, 0);
            cur[j] = h;
            if (h > b.score) b = {h, i, j};
        }
        std::swap(prev, cur);
    }
    return b;
}

// The first cell (row-major) whose direction code in dirs (the kernel's layout, see sp_fill)
// differs from the reference's; {0, 0} when all agree. Code: diag 3, up 2, left 1, zero 0, ties to
// the larger code.
std::pair<int, int> check_dirs(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t,
                               const std::vector<uint32_t>& dirs, int R, int dir_words) {
    const int M = int(q.size()), N = int(t.size()), band_rows = 32 * R;
    std::vector<int> prev(N + 1, 0), cur(N + 1, 0);
    for (int i = 1; i <= M; ++i) {
        cur[0] = 0;
        const int band = (i - 1) / band_rows, lane = (i - 1) % band_rows / R, k = (i - 1) % R;
        for (int j = 1; j <= N; ++j) {
            const int d = prev[j - 1] + (q[i - 1] == t[j - 1] ? kMatch : kMismatch);
            const int u = prev[j] - kGap, l = cur[j - 1] - kGap;
            const int h = std::max(std::max(d, u), std::max(l, 0));
            cur[j] = h;
            const uint32_t want = h == d ? 3 : h == u ? 2 : h == l ? 1 : 0;
            const int step = j - 1 + lane * R + k;
            const size_t word = ((size_t(band) * dir_words + (step >> 4)) * 32 + lane) * R + k;
            if (((dirs[word] >> (2 * (step & 15))) & 3) != want) return {i, j};
        }
        std::swap(prev, cur);
    }
    return {0, 0};
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Host: variants, checks, timing, main
// ---------------------------------------------------------------------------------------------
struct Device {  // inputs and control buffers of one pair on the device
    uint16_t* tsel = nullptr;
    uint32_t* qtab = nullptr;
    unsigned long long* gbuf = nullptr;  // the two group-to-group row slots
    size_t gbuf_entries = 0;
    unsigned char* ctrl = nullptr;  // ticket (8 bytes), best (8)
    size_t ctrl_bytes = 0;
    uint32_t* dirs = nullptr;       // direction bits, allocated by the first variant that writes them
    size_t dirs_words = 0;
    int M = 0, N = 0;
};

void free_device(Device& d) {
    cudaFree(d.tsel);
    cudaFree(d.qtab);
    cudaFree(d.gbuf);
    cudaFree(d.ctrl);
    cudaFree(d.dirs);
    d = Device{};
}

Device upload(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t) {
    Device d;
    d.M = int(q.size());
    d.N = int(t.size());
    const size_t nsel = size_t(d.N) + 2 * kSelOff + 2048;  // steps reach N + 32 R + P + kUnroll
    std::vector<uint16_t> sel(nsel, selector(kPadCode));
    for (int j = 1; j <= d.N; ++j) sel[j + kSelOff] = selector(t[j - 1]);
    std::vector<uint32_t> tab(size_t(d.M) + 1, kPadTable);
    for (int i = 1; i <= d.M; ++i) tab[i] = row_table(q[i - 1]);
    PROBE_CHECK(cudaMalloc(&d.tsel, nsel * sizeof(uint16_t)));
    PROBE_CHECK(cudaMemcpy(d.tsel, sel.data(), nsel * sizeof(uint16_t), cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMalloc(&d.qtab, tab.size() * sizeof(uint32_t)));
    PROBE_CHECK(cudaMemcpy(d.qtab, tab.data(), tab.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    d.ctrl_bytes = 16;
    PROBE_CHECK(cudaMalloc(&d.ctrl, d.ctrl_bytes));
    return d;
}

struct VariantInfo {
    int regs = 0, blocks_per_sm = 0, warps_per_sm = 0, grid = 0, groups = 0;
    size_t smem = 0, dirs_words = 0;
};

struct Variant {
    const char* ops;
    int W, R, P;
    bool dpx, dirs;
    VariantInfo (*prepare)(Device&, Params&);     // sizes the grid and the global buffer
    void (*launch)(const Params&, const VariantInfo&, cudaStream_t);
};

template <int W, int R, int P, class Ops, bool kDirs>
VariantInfo prepare(Device& d, Params& p) {
    VariantInfo v;
    auto kern = sp_fill<W, R, P, Ops, kDirs>;
    cudaFuncAttributes attr{};
    PROBE_CHECK(cudaFuncGetAttributes(&attr, kern));
    v.smem = size_t(W + 1) * kRing * sizeof(int);
    PROBE_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.smem)));
    PROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.blocks_per_sm, kern, W * 32, v.smem));
    int dev = 0, sms = 0;
    PROBE_CHECK(cudaGetDevice(&dev));
    PROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    v.regs = attr.numRegs;
    v.warps_per_sm = v.blocks_per_sm * W;
    const int group_rows = W * 32 * R;
    v.groups = (d.M + group_rows - 1) / group_rows;
    v.grid = std::min(v.blocks_per_sm * sms, v.groups);  // no block without a group
    p.tsel = d.tsel;
    p.qtab = d.qtab;
    p.M = d.M;
    p.N = d.N;
    p.n_groups = v.groups;
    p.steps = (d.N + 32 * R + P - 1) / P * P;
    p.gstride = (d.N + kFetch + 64 + 31) / 32 * 32;
    const size_t need = 2 * size_t(p.gstride);
    if (need > d.gbuf_entries) {  // tag 0 (epoch 0) is never a current tag
        PROBE_CHECK(cudaFree(d.gbuf));
        PROBE_CHECK(cudaMalloc(&d.gbuf, need * sizeof(unsigned long long)));
        PROBE_CHECK(cudaMemset(d.gbuf, 0, need * sizeof(unsigned long long)));
        d.gbuf_entries = need;
    }
    p.gbuf = d.gbuf;
    p.ticket = reinterpret_cast<int*>(d.ctrl);
    p.best = reinterpret_cast<unsigned long long*>(d.ctrl + 8);
    p.dirs = nullptr;
    p.dir_words = p.steps / 16;
    if (kDirs) {
        v.dirs_words = size_t(v.groups) * group_rows * p.dir_words;
        if (v.dirs_words > d.dirs_words) {
            PROBE_CHECK(cudaFree(d.dirs));
            PROBE_CHECK(cudaMalloc(&d.dirs, v.dirs_words * sizeof(uint32_t)));
            d.dirs_words = v.dirs_words;
        }
        p.dirs = d.dirs;
    }
    return v;
}

template <int W, int R, int P, class Ops, bool kDirs>
void launch(const Params& p, const VariantInfo& v, cudaStream_t st) {
    sp_fill<W, R, P, Ops, kDirs><<<v.grid, W * 32, v.smem, st>>>(p);
}

#define PROBE_VARIANT(W, R, P, OPS) \
    Variant{#OPS, W, R, P, OPS::kDpx, false, prepare<W, R, P, OPS, false>, launch<W, R, P, OPS, false>}
#define PROBE_DIRS_VARIANT(W, R, P) \
    Variant{"DpxOps", W, R, P, true, true, prepare<W, R, P, DpxOps, true>, launch<W, R, P, DpxOps, true>}

const std::vector<Variant>& variants() {
    static const std::vector<Variant> v = {
        PROBE_VARIANT(1, 4, 32, DpxOps),  PROBE_VARIANT(2, 2, 32, DpxOps),  PROBE_VARIANT(2, 4, 32, DpxOps),
        PROBE_VARIANT(4, 1, 8, DpxOps),   PROBE_VARIANT(4, 1, 16, DpxOps),  PROBE_VARIANT(4, 1, 32, DpxOps),
        PROBE_VARIANT(4, 2, 8, DpxOps),   PROBE_VARIANT(4, 2, 16, DpxOps),  PROBE_VARIANT(4, 2, 32, DpxOps),
        PROBE_VARIANT(4, 4, 8, DpxOps),   PROBE_VARIANT(4, 4, 16, DpxOps),  PROBE_VARIANT(4, 4, 32, DpxOps),
        PROBE_VARIANT(8, 1, 8, DpxOps),   PROBE_VARIANT(8, 1, 16, DpxOps),  PROBE_VARIANT(8, 1, 32, DpxOps),
        PROBE_VARIANT(8, 2, 8, DpxOps),   PROBE_VARIANT(8, 2, 16, DpxOps),  PROBE_VARIANT(8, 2, 32, DpxOps),
        PROBE_VARIANT(8, 4, 8, DpxOps),   PROBE_VARIANT(8, 4, 16, DpxOps),  PROBE_VARIANT(8, 4, 32, DpxOps),
        PROBE_VARIANT(16, 1, 8, DpxOps),  PROBE_VARIANT(16, 1, 16, DpxOps), PROBE_VARIANT(16, 1, 32, DpxOps),
        PROBE_VARIANT(16, 2, 8, DpxOps),  PROBE_VARIANT(16, 2, 16, DpxOps), PROBE_VARIANT(16, 2, 32, DpxOps),
        PROBE_VARIANT(16, 4, 8, DpxOps),  PROBE_VARIANT(16, 4, 16, DpxOps), PROBE_VARIANT(16, 4, 32, DpxOps),
        PROBE_VARIANT(8, 1, 16, FreeOps), PROBE_VARIANT(8, 2, 16, FreeOps), PROBE_VARIANT(8, 4, 16, FreeOps),
        PROBE_VARIANT(8, 1, 32, FreeOps), PROBE_VARIANT(8, 2, 32, FreeOps), PROBE_VARIANT(8, 4, 32, FreeOps),
        PROBE_VARIANT(16, 1, 16, FreeOps), PROBE_VARIANT(16, 2, 16, FreeOps),
        PROBE_DIRS_VARIANT(8, 1, 16), PROBE_DIRS_VARIANT(8, 2, 16), PROBE_DIRS_VARIANT(8, 4, 16),
        PROBE_DIRS_VARIANT(8, 1, 32), PROBE_DIRS_VARIANT(8, 2, 32), PROBE_DIRS_VARIANT(8, 4, 32),
        PROBE_DIRS_VARIANT(16, 2, 16), PROBE_DIRS_VARIANT(4, 2, 16),
    };
    return v;
}

std::string variant_name(const Variant& v) {
    char b[64];
    std::snprintf(b, sizeof b, "%s W%d R%d P%d", v.dirs ? "dirs" : v.dpx ? "dpx" : "free", v.W, v.R, v.P);
    return b;
}

struct Fill {
    Best best;
    float reset_ms = 0, fill_ms = 0;
};

Fill run_fill(const Variant& v, Device& d, const VariantInfo& info, Params p, cudaStream_t st,
              cudaEvent_t e0, cudaEvent_t e1, cudaEvent_t e2) {
    static uint32_t epoch = 0;  // a new tag space for the group-to-group entries of every fill
    if (++epoch >= (1u << 16)) {
        std::fprintf(stderr, "single_pair_probe: more than 65535 fills in one run\n");
        std::exit(2);
    }
    p.epoch = epoch;
    Fill f;
    PROBE_CHECK(cudaEventRecord(e0, st));
    PROBE_CHECK(cudaMemsetAsync(d.ctrl, 0, 16, st));
    PROBE_CHECK(cudaEventRecord(e1, st));
    v.launch(p, info, st);
    PROBE_CHECK(cudaGetLastError());
    PROBE_CHECK(cudaEventRecord(e2, st));
    unsigned long long key = 0;
    PROBE_CHECK(cudaMemcpyAsync(&key, d.ctrl + 8, sizeof key, cudaMemcpyDeviceToHost, st));
    PROBE_CHECK(cudaStreamSynchronize(st));
    PROBE_CHECK(cudaEventElapsedTime(&f.reset_ms, e0, e1));
    PROBE_CHECK(cudaEventElapsedTime(&f.fill_ms, e1, e2));
    f.best = unpack_best(key);
    return f;
}

struct Case {
    int M, N;
    std::vector<uint8_t> q, t;
    Best ref;
    Device dev;
};

Case make_case(int M, int N, uint64_t seed, bool with_ref) {
    Case c;
    c.M = M;
    c.N = N;
    std::mt19937_64 rng(seed);
    c.q = random_seq(M, rng);
    c.t = mutated(c.q, N, rng);
    if (with_ref) c.ref = reference(c.q, c.t);
    c.dev = upload(c.q, c.t);
    return c;
}

void usage() {
    std::printf(
        "usage: single_pair_probe [--list] [--only NAME_SUBSTRING]... [--check-big] [--no-time]\n"
        "                         [--size N] [--reps K]\n"
        "  --list        print the compiled variants and exit\n"
        "  --only S      run only variants whose name contains S (e.g. \"W8 R2\", \"free\"); repeatable\n"
        "  --check-big   also check the timed N x N fill against the CPU reference (~5-10 s on the host)\n"
        "  --no-time     correctness checks only\n"
        "  --size N      timed pair is N x N (default 65536)\n"
        "  --reps K      timed fills per variant (default 10; median reported; 3 warm-up fills first)\n");
}

}  // namespace probe

int main(int argc, char** argv) {
    using namespace probe;
    std::vector<std::string> only;
    bool check_big = false, do_time = true;
    int size = 65536, reps = 10;
    for (int a = 1; a < argc; ++a) {
        const std::string s = argv[a];
        if (s == "--list") {
            for (const auto& v : variants()) std::printf("%s\n", variant_name(v).c_str());
            return 0;
        } else if (s == "--only" && a + 1 < argc) {
            only.push_back(argv[++a]);
        } else if (s == "--check-big") {
            check_big = true;
        } else if (s == "--no-time") {
            do_time = false;
        } else if (s == "--size" && a + 1 < argc) {
            size = std::atoi(argv[++a]);
        } else if (s == "--reps" && a + 1 < argc) {
            reps = std::atoi(argv[++a]);
        } else {
            usage();
            return s == "--help" || s == "-h" ? 0 : 2;
        }
    }
    if (size < 1 || size > kMaxDim || reps < 1) {
        std::fprintf(stderr, "single_pair_probe: --size must be in 1..%d and --reps >= 1\n", kMaxDim);
        return 2;
    }
    std::vector<Variant> run;
    for (const auto& v : variants()) {
        bool take = only.empty();
        for (const auto& o : only) take = take || variant_name(v).find(o) != std::string::npos;
        if (take) run.push_back(v);
    }
    if (run.empty()) {
        std::fprintf(stderr, "single_pair_probe: no variant matches --only (see --list)\n");
        return 2;
    }

    int dev = 0;
    cudaDeviceProp prop{};
    PROBE_CHECK(cudaGetDevice(&dev));
    PROBE_CHECK(cudaGetDeviceProperties(&prop, dev));
    std::printf("device: %s, %d SMs, sm_%d%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);

    // Correctness shapes (reference on the host once, reused by every variant).
    const int shapes[][2] = {{1, 1}, {1, 100}, {100, 1}, {33, 65}, {1000, 999}, {4097, 3001}, {20000, 20000}};
    std::vector<Case> cases;
    const auto t_ref0 = std::chrono::steady_clock::now();
    uint64_t seed = 12345;
    for (const auto& sh : shapes) cases.push_back(make_case(sh[0], sh[1], seed++, true));
    Case big = make_case(size, size, 777, check_big);
    const double ref_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_ref0).count();
    std::printf("inputs and CPU references: %.1f s%s\n", ref_s, check_big ? " (incl. the big one)" : "");
    if (check_big)
        std::printf("reference %dx%d: score %d end (%d, %d)\n", size, size, big.ref.score, big.ref.i, big.ref.j);

    cudaStream_t st;
    cudaEvent_t e0, e1, e2;
    PROBE_CHECK(cudaStreamCreate(&st));
    PROBE_CHECK(cudaEventCreate(&e0));
    PROBE_CHECK(cudaEventCreate(&e1));
    PROBE_CHECK(cudaEventCreate(&e2));

    struct Row {
        std::string name;
        VariantInfo info;
        float ms = 0, reset_ms = 0;
        double tcups = 0;
        bool ok = true;
    };
    std::vector<Row> rows;
    bool all_ok = true;
    for (const auto& v : run) {
        Row row;
        row.name = variant_name(v);
        std::printf("%s: checking\n", row.name.c_str());  // names the variant if a launch fails
        std::fflush(stdout);
        // Checks.
        for (auto& c : cases) {
            Params p{};
            const VariantInfo info = v.prepare(c.dev, p);
            const Fill f = run_fill(v, c.dev, info, p, st, e0, e1, e2);
            if (!(f.best == c.ref)) {
                std::printf("%s: MISMATCH %dx%d: gpu score %d end (%d, %d), reference score %d end (%d, %d)\n",
                            row.name.c_str(), c.M, c.N, f.best.score, f.best.i, f.best.j, c.ref.score, c.ref.i,
                            c.ref.j);
                row.ok = false;
                break;
            }
            if (v.dirs && size_t(c.M) * c.N <= 20'000'000) {  // every cell's direction code
                std::vector<uint32_t> dirs(info.dirs_words);
                PROBE_CHECK(cudaMemcpy(dirs.data(), c.dev.dirs, dirs.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
                const auto bad = check_dirs(c.q, c.t, dirs, v.R, p.dir_words);
                if (bad.first != 0) {
                    std::printf("%s: MISMATCH %dx%d: direction code of cell (%d, %d)\n", row.name.c_str(), c.M, c.N,
                                bad.first, bad.second);
                    row.ok = false;
                    break;
                }
            }
        }
        Params p{};
        row.info = v.prepare(big.dev, p);
        std::printf("%s: %d regs/thread, %zu B smem/block, %d blocks/SM, %d warps/SM, grid %d, groups %d\n",
                    row.name.c_str(), row.info.regs, row.info.smem, row.info.blocks_per_sm, row.info.warps_per_sm,
                    row.info.grid, row.info.groups);
        if (row.ok && (do_time || check_big)) {
            std::vector<float> ms, reset;
            Best got;
            const int warm = do_time ? 3 : 0, timed = do_time ? reps : 1;
            for (int k = 0; k < warm + timed; ++k) {
                const Fill f = run_fill(v, big.dev, row.info, p, st, e0, e1, e2);
                if (k == 0) got = f.best;
                if (!(f.best == got)) {
                    std::printf("%s: fills of %dx%d disagree: (%d, %d, %d) vs (%d, %d, %d)\n", row.name.c_str(), size,
                                size, f.best.score, f.best.i, f.best.j, got.score, got.i, got.j);
                    row.ok = false;
                }
                if (k >= warm) {
                    ms.push_back(f.fill_ms);
                    reset.push_back(f.reset_ms);
                }
            }
            if (check_big && !(got == big.ref)) {
                std::printf("%s: MISMATCH %dx%d: gpu score %d end (%d, %d), reference score %d end (%d, %d)\n",
                            row.name.c_str(), size, size, got.score, got.i, got.j, big.ref.score, big.ref.i,
                            big.ref.j);
                row.ok = false;
            }
            std::sort(ms.begin(), ms.end());
            std::sort(reset.begin(), reset.end());
            row.ms = ms[ms.size() / 2];
            row.reset_ms = reset[reset.size() / 2];
            row.tcups = double(size) * double(size) / (double(row.ms) * 1e-3) / 1e12;
            if (do_time)
                std::printf("%s: %dx%d score %d end (%d, %d): fill %.3f ms (median of %d; min %.3f max %.3f), "
                            "reset %.4f ms, %.3f TCUPS\n",
                            row.name.c_str(), size, size, got.score, got.i, got.j, row.ms, timed, ms.front(),
                            ms.back(), row.reset_ms, row.tcups);
        }
        std::printf("%s: %s\n", row.name.c_str(), row.ok ? "OK" : "FAILED");
        std::fflush(stdout);
        all_ok = all_ok && row.ok;
        rows.push_back(row);
    }

    std::printf("\n%-16s %5s %7s %7s %6s %10s %9s %7s  %s\n", "variant", "regs", "blk/SM", "warp/SM", "grid",
                "fill ms", "reset ms", "TCUPS", "check");
    for (const auto& r : rows)
        std::printf("%-16s %5d %7d %7d %6d %10.3f %9.4f %7.3f  %s\n", r.name.c_str(), r.info.regs,
                    r.info.blocks_per_sm, r.info.warps_per_sm, r.info.grid, r.ms, r.reset_ms, r.tcups,
                    r.ok ? "OK" : "FAILED");
    for (auto& c : cases) free_device(c.dev);
    free_device(big.dev);
    std::printf("%s\n", all_ok ? "OK" : "FAILED");
    return all_ok ? 0 : 1;
}
