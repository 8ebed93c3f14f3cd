// The one-pair score fill (pair_score_plan.hpp says which problems it takes): local alignment,
// linear or affine gaps, score and end cell only; global alignment with a linear gap, edit
// distance and LCS in the corner form (pair_score::Scoring), the score at (M, N), and global
// alignment with affine gaps in the affine corner form; DTW without a band over the signals'
// fixed-point values, D(M, N)
// (docs/single_pair_kernel.md has the design, its variants and the H200 numbers). DPX and
// DPX-free forms of the same cell; a local end cell with the reference's tie-break (the first
// in row-major order; a best score of 0 ends at (0, 0), as select_end).
//
// Index of this file
//   [SECTION] Constants and cell operations
//   [SECTION] Fill kernel            persistent blocks of W = 4 bands, shared (mbarriers) and
//                                    global hand-over
//   [SECTION] Row-serial fill        local linear and the corner form at score level: a lane's
//                                    rows in series, lanes skewed by one column
//   [SECTION] 16x2 fill              local linear at score level on that layout, two cells in
//                                    each 16-bit lane pair, values relative to the band
//   [SECTION] Host                   inputs, launch, end cell
//
// In short: a group is W * 32 * R consecutive rows; a block takes groups in order from a global
// ticket and warp w sweeps band w of the group, R rows per lane skewed by one column so a lane's
// cells of a step are independent. H is carried as H << 8: a cell's score is one PRMT of the
// query row's 4 scores, and max(best, H + u) with u = 255 - (step mod 256) keeps the row's best
// H and its first column in one instruction (folded every 256 steps). Affine gaps carry E (along
// a lane's row, in a register) and F (down the column, beside H in every hand-over) on the same
// scale; E and F start at -open, as low as H - open ever is. Band to band: a ring in
// shared memory, each chunk guarded by a "full" and an "empty" mbarrier; group to group: two
// global row slots (affine: four, F's beside H's) of 64-bit entries tagged with the fill's epoch
// and the writing group (no flag, no fence). DTW carries D itself (no scale): a column's entry
// is its value instead of a selector, a row's table its value, and the borders are unreachable
// but for D(0, 0) = 0, the first lane's first diagonal.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "cell_ops.hpp"
#include "cuda_check.hpp"
#include "device_lines.hpp"
#include "gpu_engine.hpp"
#include "pair_score_plan.hpp"

namespace dpviz::cuda {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Constants and cell operations
// ---------------------------------------------------------------------------------------------
using pair_score::kScale;
using pair_score::kSelOff;
constexpr uint32_t kPrmtHi = 0x8000;       // PRMT's bytes 4..7: byte 4 = 0, byte 5 = -128 (padding)
constexpr uint32_t kPadTable = 0x80808080; // the table of a row beyond M: -128 against everything
constexpr int kRing = 512;                 // ring slots (ints) per band-to-band hand-over
constexpr int kRingMask = kRing - 1;
constexpr int kFetch = 32;                 // columns per global fetch / copy-out (one per lane)
constexpr int kUnroll = 8;                 // steps per unrolled inner block

// PRMT selector of a residue code x (0..3 real, 5 padding): byte 0 <- byte 4 (zero), byte 1 <-
// byte x, bytes 2 and 3 <- the sign of byte x. Result: int8(table byte x) * 256.
__host__ __device__ constexpr uint16_t selector(int x) {
    return uint16_t(0x4 | (x << 4) | ((8 | x) << 8) | ((8 | x) << 12));
}

// The padding code (rows past M, columns outside 1..N): byte 5 of the PRMT pair, -128.
constexpr int kPadCode = 5;

// The 16x2 fill's selector of the column pair (lo, hi) = (c, c - 1): the low half's bytes from the
// low row's table (byte lo, then its sign), the high half's from the high row's (byte 4 + hi); a
// padding column selects a sign byte (of byte 0 of the row's table), 0 or -1.
constexpr uint16_t selector16(int lo, int hi) {
    const uint32_t a = lo == kPadCode ? 0x88u : uint32_t(lo | ((8 | lo) << 4));
    const uint32_t b = hi == kPadCode ? 0xccu : uint32_t((4 + hi) | ((8 | (4 + hi)) << 4));
    return uint16_t(a | (b << 8));
}

// The end cell's key (pair_score::key_index_bits): the best score first, then the first cell in
// row-major order.
__device__ inline unsigned long long pack_best(int score, int i, int j, int N, int bits) {
    const unsigned long long index = static_cast<unsigned long long>(i) * static_cast<unsigned long long>(N + 1) + j;
    return (static_cast<unsigned long long>(score) << bits) | (((1ull << bits) - 1) - index);
}

// The cells are cell_ops.hpp's recurrences, the ones every kernel computes: align_linear and
// align_affine with the floor at kZero<Ops> for the local fills, and LCS's max(diag + gain, up,
// left) with gain s' for the corner form (pair_score::Scoring; `left`, the step's chain, last).
// The end-cell key is one more addmax per cell: max(h + u, best). Ops is cell::ImadDpxOps (or
// cell::DpxOps, kFill), or cell::PortableOps, what a pre-Hopper GPU executes: ptxas for sm_90
// fuses integer add + max into DPX by itself, so its maxima run as FMNMX on bit patterns, and
// every value carries a bias of 2^24, a normal positive float below 0x7f800000, where float order
// is integer order (pair_score::kMaxScore and kMaxGap keep every value in that range).
template <class Ops>
constexpr int kZero = Ops::kDpx ? 0 : pair_score::kFloatBias;  // the value carried for H = 0

// s * 256 + low for the selected byte s of table; low < 256 is byte 4 of the result's source.
__device__ __forceinline__ int prmt(uint32_t table, uint32_t sel, uint32_t low = 0) {
    int r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(table), "r"(kPrmtHi | low), "r"(sel));
    return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Fill kernel
// ---------------------------------------------------------------------------------------------
struct Params {
    const uint16_t* tsel;         // selector of column c at tsel[c + kSelOff]; padding outside 1..N
    const uint32_t* qtab;         // score table of row i at qtab[i], i in 1..M (DTW: its value)
    int M, N;
    int n_groups, steps;          // steps: per band, a multiple of P, >= N + 32 R
    int gap_s;                    // the linear gap, or the affine gap's open, << kScale
    int ext_s;                    // the affine gap's extend, << kScale
    unsigned long long* gbuf;     // 2 row slots of gstride entries: column c at [c], tag << 32 | H;
                                  // affine: 2 more for F (slot k + 2 holds the F of slot k)
    int gstride;
    uint32_t epoch;               // this fill's number (>= 1), the high half of every tag
    int* ticket;
    unsigned long long* best;     // packed end-cell key, atomicMax
    int key_bits;                 // the key's index bits (pair_score::key_index_bits)
    const int* tval;              // DTW: the value of column c at tval[c + kSelOff]; 0 outside 1..N
};
// What a fill writes besides the score and end cell: nothing, the store's lines, or the lines and
// the picture's overview.
constexpr int kScoreOut = 0, kStoreOut = 1, kPictureOut = 2;
// The store's and the picture's fills take these too. (The score fills keep Params alone: a
// larger parameter block changes how ptxas allocates their registers, and they are the fills the
// measurements in docs/ are of.)
struct LineParams : Params {
    // The store's checkpoint lines (dpviz/store.hpp): every K-th row (H, and F with affine gaps)
    // at (i / K - 1) (N + 1) + j, every K-th column (H, and E) at (j / K - 1) (M + 1) + i, in the
    // problem's terms: H = sign ((v - kZ) >> kScale - g (i + j) - c0) of the value v the kernel
    // carries (pair_score::Scoring; DTW: D = v).
    int32_t* row_h;
    int32_t* row_f;
    int32_t* col_h;
    int32_t* col_e;
    int ck_shift;                 // log2 K
    pair_score::Scoring sc;       // the corner forms' sign, g and c0 (pair_score::problem_value)
    // The picture's overview (pair_score_fill<.., kPictureOut>): cell (i, j) pooled into texel
    // (i / B, j / B) at ov[texel row * ov_cols + texel column] in the problem's terms, the largest
    // (local fills: H; LCS) by atomicMax, the lowest (edit distance, DTW: D) by atomicMin; the host
    // sets the texels past every value first and pools the borders.
    int32_t* ov;
    int ov_block, ov_cols;
    int32_t* ov_worst;            // DTW: the largest D of every cell, by atomicMax (the host sets 0)
};
template <int kOut>
using ParamsOf = std::conditional_t<kOut == kScoreOut, Params, LineParams>;

// A carried value (H, E or F) of cell (i, j) in the problem's terms, for the lines: DTW's as it
// is (no scale, no bias), a local fill's unscaled (pair_score::problem_value with sign 1, g = c0 =
// 0, without the arithmetic), a corner form's also taken back by pair_score::problem_value.
template <class Ops, int kKind, class P>  // P: LineParams
__device__ __forceinline__ int32_t line_value(const P& p, int v, int i, int j) {
    if constexpr (kKind == int(pair_score::Form::dtw) || kKind == int(pair_score::Form::dtw_squared)) return v;
    const int h = (v - kZero<Ops>) >> kScale;
    if constexpr (kKind == int(pair_score::Form::linear) || kKind == int(pair_score::Form::affine)) return h;
    return int32_t(pair_score::problem_value(p.sc, h, i, j));
}

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
// Under compute-sanitizer's racecheck a fill runs hundreds of times slower and the last band of a
// tall, narrow pair waits for every band above it: DPVIZ_GPU_WAIT_LIMIT_S sets a longer limit
// (wait_limit_ns, copied before each launch).
__device__ unsigned long long g_wait_limit_ns = 2000000000ull;
struct SpinGuard {
    unsigned polls = 0;
    unsigned long long t0 = 0;
    __device__ __forceinline__ void operator()() {
        if ((++polls & 1023) != 0) return;
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t0 == 0) t0 = t;
        else if (t - t0 > g_wait_limit_ns) __trap();
    }
};

// Band to band inside a block: mbarriers (arrive = release, wait = acquire at block scope), one
// pair per ring chunk: "full" (the producer's lane 31 wrote the chunk) and "empty" (the
// consumer's 32 lanes read it). compute-sanitizer's racecheck follows them, which it did not
// for the volatile progress counters of the probe.
__device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* b, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* b) {
    asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(smem_addr(b)) : "memory");
}
// Waits until the phase of the given parity has completed (the n-th completion: parity n & 1).
__device__ __forceinline__ void mbar_wait(uint64_t* b, unsigned parity) {
    SpinGuard guard;
    for (;;) {
        uint32_t done;
#if __CUDA_ARCH__ >= 900
        asm volatile(
            "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
            : "=r"(done)
            : "r"(smem_addr(b)), "r"(parity)
            : "memory");
#else  // sm_80 (the SASS comparison's build of this source): the non-blocking test
        asm volatile(
            "{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
            : "=r"(done)
            : "r"(smem_addr(b)), "r"(parity)
            : "memory");
#endif
        if (done) return;
        guard();
    }
}

// Calls f(std::integral_constant<int, I>) for I = 0 .. N-1: the step index is a constant expression.
template <class F, int... I>
__device__ __forceinline__ void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
__device__ __forceinline__ void static_for(F&& f) {
    static_for_impl(f, std::make_integer_sequence<int, N>{});
}

// The steps of one chunk of the row-serial fills (C steps from s0): blocks of 16 unrolled steps,
// the lane's column entries (selectors; DTW's values) loaded 8 steps ahead into two buffers of 8.
// step(ic, b, x) runs step b + ic of the chunk (ic a std::integral_constant) with x its entry;
// after_block(b) follows each block of 16.
template <int C, class T, class Step, class AfterBlock>
__device__ __forceinline__ void serial_chunk(const T* sel, int s0, Step&& step, AfterBlock&& after_block) {
    static_assert(C % 16 == 0, "blocks of 16 steps");
    uint32_t xa[8], xb[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) xa[i] = sel[s0 + i];
#pragma unroll 1
    for (int b = 0; b < C; b += 16) {
        static_for<16>([&](auto ic) {
            constexpr int i = decltype(ic)::value;
            if constexpr (i == 0) {
#pragma unroll
                for (int q = 0; q < 8; ++q) xb[q] = sel[s0 + b + 8 + q];
            }
            if constexpr (i == 8) {
#pragma unroll
                for (int q = 0; q < 8; ++q) xa[q] = sel[s0 + b + 16 + q];
            }
            step(ic, b, i < 8 ? xa[i & 7] : xb[i & 7]);
        });
        after_block(b);
    }
}

// The fills: local with a linear gap, local with affine gaps, the corner form (pair_score::Scoring:
// no gap, no end-cell key; H'(M, N) read from the last band's bottom row), DTW with the absolute
// or the squared cost and the affine corner form (D(M, N), H'(M, N) kept by the lane of row M at
// the step of column N).
using pair_score::Form;
// What a chunk's steps watch for (watched_steps): the cell (M, N), a column line, a texel column
// boundary (the overview; cell by cell), and with it the first padding column (where the last
// texel column ends).
constexpr int kWatchCorner = 1, kWatchLines = 2, kWatchTexels = 4, kWatchTail = 8;
// kWatchEdge: the corner form's and DTW's pictures in the chunks where a lane's rows are left of
// column 1 (steps < kBandRows): a row's fold there drops what it pooled (the padding's H' = 0, DTW's
// unreachable column 0, are no cells).
constexpr int kWatchEdge = 16;
// The corner form's picture pools u = v + o(t), o(t) = kShiftBias - (g (i + j)) << kScale: H' - g (i + j)
// (sign H - c0, the problem's value up to its sign) in the kernel's scale, biased so that it stays
// >= kZ (H' - g (i + j) >= -(M + N) > -2^22) and a normal float below 2^31 in the DPX-free form.
constexpr int kShiftBias = 1 << 30;
constexpr int kLinear = int(Form::linear), kAffineGaps = int(Form::affine), kCornerForm = int(Form::corner),
              kDtwAbs = int(Form::dtw), kDtwSquared = int(Form::dtw_squared),
              kCornerAffine = int(Form::corner_affine);
// DTW's borders, from the rules every backend reads (dpviz/algorithm.hpp): row 0 and column 0
// unreachable past the corner; dtw_left(i) the column-0 value of row i (D(0, 0) = 0 for i = 0).
// DTW's values are >= 0 in both forms: no bias (pair_score_plan.hpp, kFloatBias).
constexpr AlgorithmRules kDtwRules = rules_of(Algorithm::dtw);
constexpr int kDtwTop = border_h(kDtwRules.top, 1, 0, 0), kDtwLeft = border_h(kDtwRules.left, 1, 0, 0);
__device__ __forceinline__ int dtw_left(int i) { return border_h(kDtwRules.left, i, 0, 0); }

// kOut >= kStoreOut (kLines): the store's fill, which also writes the checkpoint lines
// (Params::row_h, col_h): a band whose bottom row is a row line copies it from its ring after each
// chunk; a lane keeps its rows' cells of a column line at the steps it computes them (one
// predicated move a step, pair_score::line_step), in the chunks that hold such a step (the others
// run the plain loop), and writes them after the chunk in which its rows passed the line.
// kPictureOut (local fills): also the overview: each row keeps the largest H of the texel column
// it is in, folding two cells with one 3-input max at the steps of its parity; in every chunk,
// the fold of a row's first cell of the next texel column (at a fixed step of the block,
// pair_score::texel_fold) starts the next maximum and keeps the last one where the lane is there
// (two predicated selects); after the chunk in which all four passed, the lane writes them to their
// texels, one atomicMax per texel row they touch. A row's last texel column ends where it reaches
// column N + 1: it writes it there (its last cell may not be folded yet), so the padding columns
// past N are never pooled.
// The pictures of edit distance, LCS and DTW (pair_score::pools) pool a texel's edges alone
// (kEdges). A min-plus cell with costs >= 0 is at least the lowest of the cells it comes from, so
// a texel's lowest D lies on its first row or its first column: every row keeps its cell of a
// texel column's first column (one predicated move at the fold that starts the column), the lane
// writes the lowest of them with one atomicMin after the chunk; only a texel's first row folds,
// the lane's last row where it is one (`top`: B is a multiple of 8, so a texel row starts at a
// lane's row R - 1), in the problem's terms u = v + o(t) (kShiftBias: two VIADDMNMX a fold, as a
// corner-form value varies along a row by g a column; the cells left of column 1 dropped,
// kWatchEdge). LCS never falls along a row or a column, so a texel's largest cell is its last
// one: every row keeps its cell left of a texel column's first column, and the rows that end a
// texel row (or row M) write it with atomicMax, and their cell of column N at N + 1. DTW also
// keeps the largest finite D of the lane's rows (the overview's range: it may lie inside the
// matrix), one 3-input max into wmax a fold, which a row hands to the lane's `worst` where it
// reaches column N + 1 (rows past M never do; the padding past N is never read), the cells left
// of column 1 (unreachable) dropped (kWatchEdge); a warp's worst goes to ov_worst.
template <class Ops, int kKind, int kOut>
// The store's fills ask ptxas for 3 blocks per SM (at most 168 registers): left to itself it takes
// 182 for the local affine store (2 blocks), where the score fill runs 4 at 1,048,576^2; the store
// fits without spilling. The local pictures ask for 2: at 3 the local affine picture spills 24-36
// bytes and its 1,048,576^2 fill is 1.12x slower with DPX (every chunk watched, docs/performance.md);
// the edges' pictures fit 3.
__global__ void __launch_bounds__(pair_score::kWarps * 32,
                                  kOut == kScoreOut                                 ? 1
                                  : kOut == kStoreOut                               ? 3
                                  : kKind == int(pair_score::Form::linear) ||
                                          kKind == int(pair_score::Form::affine) ? 2
                                                                                    : 3)
    pair_score_fill(ParamsOf<kOut> p) {
    constexpr bool kCorner = kKind == kCornerForm, kCornerA = kKind == kCornerAffine;
    constexpr bool kAffine = kKind == kAffineGaps || kCornerA;  // E and F
    constexpr bool kDtw = kKind == kDtwAbs || kKind == kDtwSquared;
    constexpr bool kLocal = kKind == kLinear || kKind == kAffineGaps;
    constexpr bool kWatch = kDtw || kCornerA;  // the score is the cell (M, N), kept as computed
    constexpr bool kLines = kOut >= kStoreOut, kPicture = kOut == kPictureOut;
    static_assert(!kPicture || kLocal || kCorner || kDtw,
                  "the one-pair kernel pools overviews of local fills, edit distance, LCS and DTW");
    constexpr bool kEdges = kPicture && !kLocal;  // pools the texels' edges (above)
    constexpr bool kShift = kEdges && kCorner;    // a first row pools u = v + o(t) (kShiftBias)
    constexpr bool kLowest = kEdges && kDtw;      // pools the lowest D, and keeps the largest
    constexpr int W = pair_score::kWarps, R = pair_score::kRowsPerLane, P = pair_score::kPublish;
    static_assert(P % kUnroll == 0 && (32 * R) % P == 0 && 256 % P == 0 && kRing % P == 0, "chunk shape");
    static_assert(P % (2 * kUnroll) == 0, "steps come in pairs of unrolled blocks");
    static_assert(kUnroll == pair_score::kLineBlock, "column lines are met at fixed steps of a block");
    static_assert(!kLines || P == 32, "a row line's chunk is copied one column per lane");
    constexpr int kBand = 32 * R;          // rows per warp
    constexpr int kGroupRows = W * kBand;  // rows per block-group
    constexpr int kZ = kZero<Ops>;
    // The borders past the corner: H = 0 (the local fills, the corner forms' H'); DTW's (kDtwTop,
    // kDtwLeft; the corner D(0, 0) is lane 0's first diagonal below).
    constexpr int kTop = kDtw ? kDtwTop : kZ;    // row 0
    constexpr int kLeft = kDtw ? kDtwLeft : kZ;  // column 0

    // Ring w (w >= 1) carries the bottom row of band w - 1 to band w, kSlots chunks of P columns:
    // column chunk c (columns P c + 1 .. P c + P) in slot c mod kSlots. Ring 0 is warp 0's own
    // (filled from the global row buffer), ring W the last warp's own (copied to it). Affine gaps:
    // the bottom row's F in (W + 1) more rings, the same slots.
    constexpr int kSlots = kRing / P;
    constexpr int kRings = (W + 1) * kRing;
    extern __shared__ __align__(16) int ring[];  // (W + 1) rings: ring w is the input of warp w
    __shared__ uint64_t full[W > 1 ? W : 1][kSlots], empty[W > 1 ? W : 1][kSlots];  // [w] guards ring w
    __shared__ int s_group;

    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    // F (and E) above row 1 and left of column 1: -infinity in the reference. As H >= 0, H - open
    // is never below -open, so -open is as low as the gaps' maxima see (and keeps DPX-free values
    // positive floats). The affine corner form: -c0, as low as H' - c0 is on a border (0 - c0).
    const int no_gap = kZ - p.gap_s;
    for (int k = threadIdx.x; k < (kAffine ? 2 : 1) * kRings; k += W * 32) ring[k] = k < kRings ? kTop : no_gap;

    for (;;) {
        __syncthreads();  // every warp is done with the previous group
        if (threadIdx.x == 0) s_group = atomicAdd(p.ticket, 1);
        if (W > 1 && threadIdx.x < (W - 1) * kSlots) {  // a fresh phase count per group
            const int r = 1 + int(threadIdx.x) / kSlots, k = int(threadIdx.x) % kSlots;
            mbar_init(&full[r][k], 1);
            mbar_init(&empty[r][k], 32);
        }
        __syncthreads();
        const int g = s_group;
        if (g >= p.n_groups) return;

        const int row0 = g * kGroupRows + w * kBand + lane * R + 1;  // the lane's first row
        uint32_t tab[R];
        int hp[R], hpp[R], x[R], best[R], rbest[R], rcol[R];
        int e[R], fp[R];  // affine: E of the row's last cell, F of the previous step's
#pragma unroll
        for (int k = 0; k < R; ++k) {
            tab[k] = row0 + k <= p.M ? p.qtab[row0 + k] : kDtw ? 0u : kPadTable;
            hp[k] = hpp[k] = kLeft;
            e[k] = no_gap;
            // The affine corner form: F' = 0 left of column 1 carries H' = 0 down those columns
            // (pair_score::Scoring), the border.
            fp[k] = kCornerA ? kZ : no_gap;
            x[k] = kDtw ? 0 : selector(kPadCode);
            best[k] = kZ - 255;  // keys are H + u, u = 255 - (step mod 256); kept relative to u
            rbest[k] = 0;
            rcol[k] = 0;
        }
        // The lane's top row: the up value of the previous step (= this step's diag), at first
        // column 0's (DTW: the corner's for row 1; the affine corner form: c0 for row 1).
        int prev_up = kDtw ? dtw_left(row0 - 1) : kCornerA && row0 == 1 ? kZ + p.gap_s : kZ;
        // DTW, the affine corner form: the band of row M keeps the cell (M, N), computed by lane
        // corner_lane's row corner_k at step corner_step (a row's column at step s is s + 1 - lane R - k).
        [[maybe_unused]] bool holds_corner = false;
        [[maybe_unused]] int corner_lane = 0, corner_k = 0, corner_step = 0, corner = 0;
        if constexpr (kWatch) {
            const int r_m = p.M - 1 - g * kGroupRows - w * kBand;  // row M's index in the band
            holds_corner = r_m >= 0 && r_m < kBand;
            corner_lane = r_m / R;
            corner_k = r_m % R;
            corner_step = p.N - 1 + r_m;
        }

        // The lines (kLines): this band's bottom row is a row line, or not; the lane's rows reach
        // column line `cursor.jn` at steps from cursor.first on (pair_score::LineCursor).
        [[maybe_unused]] int32_t *line_h = nullptr, *line_f = nullptr, *col_h = nullptr, *col_e = nullptr;
        [[maybe_unused]] const int bottom = g * kGroupRows + (w + 1) * kBand;
        [[maybe_unused]] int rows_in = 0;  // the lane's rows in the matrix, negative past row M (the score fills compute nothing here)
        [[maybe_unused]] pair_score::LineCursor cursor(0, 0, 0, 0);
        [[maybe_unused]] int cv[R], ce[R];  // the rows' cells on the column line (affine: and E), as kept
        if constexpr (kLines) {
            rows_in = Ops::index_min(R, p.M - row0 + 1);
            cursor = pair_score::LineCursor(1 << p.ck_shift, p.N, lane, rows_in);
        }
        // The overview (kPicture): the texel column boundaries the lane's rows reach, the first
        // padding column, each row's largest value in its texel column so far, and those of the
        // column its rows left.
        [[maybe_unused]] pair_score::LineCursor texel(0, 0, 0, 0), tail(0, 0, 0, 0);
        if constexpr (kPicture) {
            texel = pair_score::LineCursor(p.ov_block, p.N, lane, rows_in);
            tail = pair_score::LineCursor::one(p.N + 1, lane, rows_in);
        }
        // What a row pools: the best of two values, and where it starts (H >= 0, u >= kZ: as low as
        // a value pooled; DTW: unreachable, as high).
        [[maybe_unused]] constexpr int kPoolStart = kLowest ? kPosInf : kZ;
        [[maybe_unused]] auto better = [](int a, int b) { return kLowest ? Ops::min2(a, b) : Ops::max2(a, b); };
        [[maybe_unused]] int pacc[R], pdone[R], wmax[R], worst = 0;  // wmax, worst: DTW's (D >= 0)
#pragma unroll
        for (int k = 0; k < R; ++k) {
            pacc[k] = pdone[k] = kPoolStart;
            wmax[k] = 0;
        }
        // kShift: o(t) = o_base - t o_step (a row's column at step t is t + 1 - lane R - k, so
        // i + j = the band's first row + t + 1 for every row); the lane's rows are left of column 1
        // up to step edge0 + k.
        [[maybe_unused]] int o_step = 0, o_base = 0;
        if constexpr (kShift) {
            o_step = p.sc.g << kScale;
            o_base = kShiftBias - o_step * (g * kGroupRows + w * kBand + 2);
        }
        [[maybe_unused]] const int edge0 = lane * R - 1;
        // kEdges: a texel's best lies on its first row and column (`falls`: edit distance, DTW) or
        // is its last cell (LCS); row R - 1 starts a texel row (`top`); the rows that end one or
        // are row M (bit k of `closes`); each row's cell at the last texel fold.
        [[maybe_unused]] bool falls = true, top = false;
        [[maybe_unused]] int closes = 0, cap[R];
        if constexpr (kEdges) {
            falls = kDtw || p.sc.sign < 0;
            top = R - 1 < rows_in && (row0 + R - 1) % p.ov_block == 0;
#pragma unroll
            for (int k = 0; k < R; ++k) {
                cap[k] = kPoolStart;
                if (k < rows_in && ((row0 + k + 1) % p.ov_block == 0 || row0 + k == p.M)) closes |= 1 << k;
            }
        }
        // A texel's value in the problem's terms from what a row pooled, and its write.
        [[maybe_unused]] auto pool_texel = [&](int* at, int v) {
            if constexpr (kShift) {
                const int h = p.sc.sign * (((v - kZ - kShiftBias) >> kScale) - p.sc.c0);
                if (p.sc.sign < 0) atomicMin(at, h);
                else atomicMax(at, h);
            } else if constexpr (kLowest) {
                atomicMin(at, v);
            } else {
                atomicMax(at, (v - kZ) >> kScale);
            }
        };
        if constexpr (kLines) {
            if (pair_score::is_row_line(bottom, 1 << p.ck_shift, p.M)) {
                const size_t at = size_t((bottom >> p.ck_shift) - 1) * (size_t(p.N) + 1);
                line_h = p.row_h + at;
                if constexpr (kAffine) line_f = p.row_f + at;
            }
            if (p.col_h) col_h = p.col_h + row0;  // none when N < K
            if constexpr (kAffine) {
                if (p.col_e) col_e = p.col_e + row0;
            }
        }

        int* ring_in = ring + w * kRing;
        int* ring_out = ring + (w + 1) * kRing;
        int* fring_in = ring_in + kRings;    // affine only
        int* fring_out = ring_out + kRings;
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
        const size_t fslot = 2 * static_cast<size_t>(p.gstride);  // affine: F's slot after H's

        const int n_pub = (p.steps - kBand) / P;  // column chunks a band publishes to the band below
        int fetched = 0;   // warp 0: columns 1..fetched are in ring_in
        unsigned long long pending = entry(want, kTop);  // warp 0: column fetched + 1 + lane, in flight
        unsigned long long pending_f = entry(want, no_gap);  // affine: its F
        auto load_pending = [&]() {
            const int c = fetched + 1 + lane;
            pending = c <= p.N ? ld_relaxed(gin + c) : entry(want, kTop);
            if constexpr (kAffine) pending_f = c <= p.N ? ld_relaxed(gin + fslot + c) : entry(want, no_gap);
        };
        if (fetch_global) load_pending();
        int copied = 0;    // last warp: columns 1..copied are in the global row buffer

        // Selectors of the lane's top row: step s reads tsel[s + 1 - lane * R + kSelOff]. Two buffers of
        // kUnroll steps: one in use, the next one loading (ping-pong, no register copies for P >= 16).
        std::conditional_t<kDtw, const int*, const uint16_t*> tq;
        if constexpr (kDtw) tq = p.tval + kSelOff + 1 - lane * R;
        else tq = p.tsel + kSelOff + 1 - lane * R;
        int sel_a[kUnroll], sel_b[kUnroll];
#pragma unroll
        for (int i = 0; i < kUnroll; ++i) sel_a[i] = __ldg(tq + i);
        tq += kUnroll;

        // kUnroll steps from step s with the selectors in cur; loads the next block's into nxt.
        // best[k] is kept relative to the block's u (bk = key - u of the block's first step), so the
        // key update is one VIADDMNMX with an immediate: max(h - i, bk); +kUnroll per block.
        // watch: kWatchCorner (the chunk of corner_step only): keep the cell (M, N) as it is
        // computed; kWatchLines: write the cells of column line jn as they are computed.
        const int gs = p.gap_s;
        auto block = [&](auto watch, const int s, int (&cur)[kUnroll], int (&nxt)[kUnroll]) {
#pragma unroll
            for (int i = 0; i < kUnroll; ++i) nxt[i] = __ldg(tq + i);
            tq += kUnroll;
            // The row above the band for these kUnroll columns (lane 0's up values), read at once
            // with two 16-byte loads instead of one 4-byte load per step (1-2 % faster on an H200).
            // s is a multiple of kUnroll, so the slots are 32-byte aligned.
            static_assert(kUnroll == 8, "two int4 ring reads per block");
            const int4* rin = reinterpret_cast<const int4*>(ring_in + (s & kRingMask));
            const int4 rv03 = rin[0], rv47 = rin[1];
            const int rv[kUnroll] = {rv03.x, rv03.y, rv03.z, rv03.w, rv47.x, rv47.y, rv47.z, rv47.w};
            [[maybe_unused]] int fv[kUnroll] = {};
            if constexpr (kAffine) {
                const int4* fin = reinterpret_cast<const int4*>(fring_in + (s & kRingMask));
                const int4 fv03 = fin[0], fv47 = fin[1];
                const int v[kUnroll] = {fv03.x, fv03.y, fv03.z, fv03.w, fv47.x, fv47.y, fv47.z, fv47.w};
#pragma unroll
                for (int i = 0; i < kUnroll; ++i) fv[i] = v[i];
            }
            // A column line (pair_score::line_step): this block is the one that holds the lane's
            // `first` (at_line), or the next one (after_line).
            [[maybe_unused]] bool at_line = false, after_line = false;
            if constexpr ((decltype(watch)::value & kWatchLines) != 0) {
                const int first_block = cursor.first & ~(kUnroll - 1);
                at_line = s == first_block;
                after_line = s == first_block + kUnroll;
            }
            // A texel column boundary (pair_score::texel_fold): odd lanes fold its cells in the
            // block that holds `first`, even lanes in the next one.
            [[maybe_unused]] bool odd_fold = false, even_fold = false;
            if constexpr ((decltype(watch)::value & kWatchTexels) != 0) {
                const int first_block = texel.first & ~(kUnroll - 1);
                odd_fold = (lane & 1) && s == first_block;
                even_fold = !(lane & 1) && s == first_block + kUnroll;
            }
            int* rout = ring_out + ((s - kBand) & kRingMask);
            [[maybe_unused]] int* fout = fring_out + ((s - kBand) & kRingMask);
            static_for<kUnroll>([&](auto i_c) {
                constexpr int i = decltype(i_c)::value;
                const int sh = __shfl_up_sync(0xffffffffu, hp[R - 1], 1);
                const int up0 = lane == 0 ? rv[i] : sh;
                if (lane == 31) rout[i] = hp[R - 1];  // column s + i + 1 - kBand (previous step's)
                [[maybe_unused]] int fup0 = 0;
                if constexpr (kAffine) {
                    const int shf = __shfl_up_sync(0xffffffffu, fp[R - 1], 1);
                    fup0 = lane == 0 ? fv[i] : shf;
                    if (lane == 31) fout[i] = fp[R - 1];
                }
#pragma unroll
                for (int k = R - 1; k > 0; --k) x[k] = x[k - 1];
                x[0] = cur[i];
                int h[R];
                [[maybe_unused]] int f[R];
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    const int up = k == 0 ? up0 : hp[k - 1];
                    const int dg = k == 0 ? prev_up : hpp[k - 1];
                    uint32_t no_bits;  // score level: no direction bits
                    if constexpr (kAffine) {
                        // E from the row's previous cell, F from the cell above (the previous
                        // step's, as `up`). The affine corner form: no floor, no extend.
                        h[k] = cell::align_affine<Ops, kLocal, false>(dg, up, k == 0 ? fup0 : fp[k - 1], hp[k], e[k],
                                                                    prmt(tab[k], x[k]), gs, p.ext_s, kZ, e[k], f[k],
                                                                    no_bits);
                    } else if constexpr (kCorner) {
                        h[k] = cell::lcs<Ops, false, true>(dg, up, hp[k], prmt(tab[k], x[k]), no_bits);
                    } else if constexpr (kDtw) {
                        const int cost = cell::dtw_cost<kKind == kDtwSquared>(int(tab[k]), x[k]);
                        h[k] = cell::dtw<Ops, false>(dg, up, hp[k], cost, true, kPosInf, no_bits);
                    } else {
                        h[k] = cell::align_linear<Ops, true, false>(dg, up, hp[k], prmt(tab[k], x[k]), gs, kZ, no_bits);
                    }
                    if constexpr (kLocal) best[k] = Ops::addmax(h[k], -i, best[k]);
                }
                if constexpr ((decltype(watch)::value & kWatchLines) != 0) {  // keep the cells at column jn
                    static_for<R>([&](auto k_c) {
                        constexpr int k = decltype(k_c)::value;
                        constexpr pair_score::LineStep odd = pair_score::line_step(true, k), even = pair_score::line_step(false, k);
                        if constexpr (odd.step == i || even.step == i) {
                            const bool odd_keeps = odd.step == i && (lane & 1) && (odd.block ? after_line : at_line);
                            const bool even_keeps = even.step == i && !(lane & 1) && (even.block ? after_line : at_line);
                            if (odd_keeps || even_keeps) {
                                cv[k] = h[k];
                                if constexpr (kAffine) ce[k] = e[k];
                            }
                        }
                    });
                }
                if constexpr ((decltype(watch)::value & kWatchCorner) != 0) {
                    if (s + i == corner_step && lane == corner_lane) {
#pragma unroll
                        for (int k = 0; k < R; ++k)
                            if (k == corner_k) corner = h[k];
                    }
                }
                if constexpr (kPicture) {  // the overview: row k folds two cells a step of k's parity
                    constexpr int kw = decltype(watch)::value;
                    [[maybe_unused]] int o_cur = 0, o_prev = 0;  // kShift: o(s + i), o(s + i - 1)
                    if constexpr (kShift) {
                        o_cur = o_base - (s + i) * o_step;
                        o_prev = o_cur + o_step;
                    }
                    // This step folds the cell that starts row k's next texel column and the one
                    // after it (pair_score::texel_fold).
                    bool starts[R];
                    static_for<R>([&](auto k_c) {
                        constexpr int k = decltype(k_c)::value;
                        constexpr pair_score::LineStep odd = pair_score::texel_fold(true, k), even = pair_score::texel_fold(false, k);
                        starts[k] = (kw & kWatchTexels) == 0 ? false : odd.step == i ? odd_fold : even.step == i ? even_fold : false;
                    });
                    if constexpr ((kw & kWatchTail) != 0) {  // row dt is at column N + 1: its last texel column ends
                        if (const int dt = tail.row_at(s + i); dt >= 0 && dt < rows_in) {  // rows_in < 0 past row M
                            int* const at = p.ov + size_t((row0 + dt) / p.ov_block) * size_t(p.ov_cols) + p.N / p.ov_block;
                            int v = kZ;  // the texel's best with the row's last cell, which may not be folded yet
                            bool pooled = !kEdges;
#pragma unroll
                            for (int k = 0; k < R; ++k) {
                                const int last = kShift ? hp[k] + o_prev : hp[k];
                                if (dt == k) {
                                    v = starts[k] ? last : better(pacc[k], last);
                                    if constexpr (kLowest) worst = Ops::max2(worst, Ops::max2(wmax[k], last));
                                    if constexpr (kEdges) {
                                        if (!falls && ((closes >> k) & 1)) atomicMax(at, line_value<Ops, kKind>(p, hp[k], row0 + k, p.N));
                                        pooled = falls && top && k == R - 1;
                                    }
                                }
                            }
                            if (pooled) pool_texel(at, v);
                        }
                    }
                    if constexpr (kEdges) {  // the cells at a texel column's first column (LCS: left of it)
#pragma unroll
                        for (int k = 0; k < R; ++k)
                            if (starts[k]) cap[k] = kDtw || falls ? hp[k] : hpp[k];
                    }
#pragma unroll
                    for (int k = i % 2; k < R; k += 2) {
                        if constexpr (kLowest) {  // DTW's largest D, in every row
                            if constexpr ((kw & kWatchEdge) != 0) {  // column 0 is unreachable, left of it no cell
                                wmax[k] = s + i <= edge0 + k ? 0 : s + i == edge0 + k + 1 ? h[k] : Ops::max3(wmax[k], hp[k], h[k]);
                            } else {
                                wmax[k] = Ops::max3(wmax[k], hp[k], h[k]);
                            }
                        }
                        if (kEdges && k != R - 1) continue;  // only a texel's first row folds
                        pdone[k] = starts[k] ? pacc[k] : pdone[k];
                        if constexpr (kShift) {
                            pacc[k] = Ops::addmax(h[k], o_cur, Ops::addmax(hp[k], o_prev, starts[k] ? kZ : pacc[k]));
                            if constexpr ((kw & kWatchEdge) != 0) {  // row k is left of column 1: nothing pooled yet
                                if (s + i <= edge0 + k) pacc[k] = kZ;
                            }
                        } else if constexpr (kLowest) {
                            pacc[k] = Ops::min3(starts[k] ? kPosInf : pacc[k], hp[k], h[k]);
                        } else {
                            pacc[k] = Ops::max3(starts[k] ? kZ : pacc[k], hp[k], h[k]);
                        }
                    }
                }
                prev_up = up0;
#pragma unroll
                for (int k = 0; k < R; ++k) {
                    hpp[k] = hp[k];
                    hp[k] = h[k];
                    if constexpr (kAffine) fp[k] = f[k];
                }
            });
#pragma unroll
            for (int k = 0; k < R; ++k) best[k] += kUnroll;  // unused (and dropped) but in local fills
        };
        // P steps from s0; the chunk of corner_step, in the band of row M, watches for the cell
        // (M, N) in every block, a chunk that holds a step of a lane's column line writes it, the
        // others watch nothing: the steady-state loop holds no watch.
        auto watched_steps = [&](const int s0) __attribute__((always_inline)) {
            auto steps = [&](auto watch) {
#pragma unroll 1
                for (int sb = 0; sb < P; sb += 2 * kUnroll) {
                    block(watch, s0 + sb, sel_a, sel_b);
                    block(watch, s0 + sb + kUnroll, sel_b, sel_a);
                }
            };
            const bool corner_chunk = kWatch && holds_corner && corner_step >= s0 && corner_step < s0 + P;
            if constexpr (!kLines) {  // the score fills: the corner's watch or none
                if (corner_chunk) steps(std::integral_constant<int, kWatchCorner>{});
                else steps(std::integral_constant<int, 0>{});
                return;
            }
            const bool line_chunk = kLines && __any_sync(0xffffffffu, cursor.in_chunk(s0));
            const bool tail_chunk = kPicture && __any_sync(0xffffffffu, tail.in_chunk(s0));
            // The picture's chunks all watch the lines and the texels (a watch with nothing at
            // its steps changes nothing): one loop and the tail's, which run rarely. Watching
            // only the chunks that hold a boundary was no faster with DPX and 1.40x slower
            // without (1,048,576^2, docs/performance.md): two hot loops, which the instruction
            // cache may not hold (not measured).
            const int mask = (corner_chunk ? kWatchCorner : 0) | (line_chunk || kPicture ? kWatchLines : 0) |
                             (kPicture ? kWatchTexels : 0) | (tail_chunk ? kWatchTail : 0) |
                             ((kShift || kLowest) && s0 < kBand ? kWatchEdge : 0);
            static_for<32>([&](auto m_c) {  // the loop of this chunk's watches, among those the fill has
                constexpr int m = decltype(m_c)::value;
                constexpr bool has = ((m & kWatchCorner) == 0 || kWatch) && ((m & kWatchLines) == 0 || kLines) &&
                                     ((m & kWatchTexels) == 0 || kPicture) &&
                                     ((m & kWatchTail) == 0 || (m & kWatchTexels) != 0) &&
                                     ((m & kWatchEdge) == 0 || kShift || kLowest) &&
                                     (!kPicture || ((m & kWatchLines) != 0 && (m & kWatchTexels) != 0));
                if constexpr (has) {
                    if (mask == m) steps(m_c);
                }
            });
        };

        for (int s0 = 0; s0 < p.steps; s0 += P) {
            // 1. Input columns s0 + 1 .. s0 + P of the row above the band.
            if (first) {
                while (fetched < s0 + P) {
                    if (fetch_global) {  // the entries loaded a fetch ago; reload until all are current
                        SpinGuard guard;
                        while (!__all_sync(0xffffffffu, uint32_t(pending >> 32) == want &&
                                                            (!kAffine || uint32_t(pending_f >> 32) == want))) {
                            guard();
                            load_pending();
                        }
                    }
                    ring_in[(fetched + lane) & kRingMask] = fetch_global ? int(uint32_t(pending)) : kTop;
                    if constexpr (kAffine)
                        fring_in[(fetched + lane) & kRingMask] = fetch_global ? int(uint32_t(pending_f)) : no_gap;
                    fetched += kFetch;
                    if (fetch_global) load_pending();  // the next 32 columns, used a fetch later
                }
                __syncwarp();
            } else if (s0 / P < n_pub) {  // column chunk s0 / P; later ones are never written (past N)
                mbar_wait(&full[w][(s0 / P) % kSlots], unsigned(s0 / P / kSlots) & 1u);
            }
            // 2. This chunk writes column chunk (s0 - kBand) / P of ring_out: its slot's last
            // occupant, kSlots chunks earlier, must have been read by the band below.
            const int c_out = (s0 - kBand) / P;  // negative in the first kBand steps (columns <= 0)
            if (!last && s0 >= kBand && c_out >= kSlots)
                mbar_wait(&empty[w + 1][c_out % kSlots], unsigned(c_out / kSlots - 1) & 1u);
            // 3. P steps.
            if constexpr (kWatch || kLines) {  // kPicture: kLines too
                watched_steps(s0);
            } else {  // the block called directly: the other forms' code is as it was without DTW's
#pragma unroll 1
                for (int sb = 0; sb < P; sb += 2 * kUnroll) {
                    block(std::integral_constant<int, 0>{}, s0 + sb, sel_a, sel_b);
                    block(std::integral_constant<int, 0>{}, s0 + sb + kUnroll, sel_b, sel_a);
                }
            }
            if constexpr (kLines) {  // the lane's rows have passed its column line: write it, the next one
                if (const int passed = cursor.after_chunk(s0, 1 << p.ck_shift, p.N); passed != 0) {
#pragma unroll
                    for (int k = 0; k < R; ++k)
                        if (k < rows_in) {
                            col_h[k] = line_value<Ops, kKind>(p, cv[k], row0 + k, passed);
                            if constexpr (kAffine) col_e[k] = line_value<Ops, kKind>(p, ce[k], row0 + k, passed);
                        }
                    col_h += size_t(p.M) + 1;
                    if constexpr (kAffine) col_e += size_t(p.M) + 1;
                }
            }
            if constexpr (kPicture) {  // the lane's rows have all left a texel column: write it
                if (const int passed = texel.after_chunk(s0, p.ov_block, p.N); passed != 0) {
                    const int B = p.ov_block, tc = (passed - 1) / B, tr0 = row0 / B;
                    int* const ov_row = p.ov + size_t(tr0) * size_t(p.ov_cols);
                    if constexpr (kEdges) {
                        if (falls) {  // texel column passed / B's first column; the top row's texel ends at passed - 1
                            int v0 = kPosInf, v1 = kPosInf;  // a texel row starts only at row R - 1 (`top`)
#pragma unroll
                            for (int k = 0; k < R; ++k) {
                                if (k >= rows_in) break;
                                const int v = line_value<Ops, kKind>(p, cap[k], row0 + k, passed);
                                if (top && k == R - 1) v1 = min(v1, v);
                                else v0 = min(v0, v);
                            }
                            atomicMin(ov_row + passed / B, v0);
                            if (top) {
                                atomicMin(ov_row + p.ov_cols + passed / B, v1);
                                pool_texel(ov_row + p.ov_cols + tc, pdone[R - 1]);
                            }
                        } else {  // LCS: the texel's last column, in the rows that end a texel row
#pragma unroll
                            for (int k = 0; k < R; ++k)
                                if ((closes >> k) & 1)
                                    atomicMax(p.ov + size_t((row0 + k) / B) * size_t(p.ov_cols) + tc,
                                              line_value<Ops, kKind>(p, cap[k], row0 + k, passed - 1));
                        }
                    } else {
                        int v0 = kPoolStart, v1 = kPoolStart;  // the texel rows of the lane's first row and the next one
#pragma unroll
                        for (int k = 0; k < R; ++k) {
                            if (k >= rows_in) break;
                            if ((row0 + k) / B == tr0) v0 = better(v0, pdone[k]);
                            else v1 = better(v1, pdone[k]);
                        }
                        pool_texel(ov_row + tc, v0);
                        if ((row0 + rows_in - 1) / B != tr0) pool_texel(ov_row + p.ov_cols + tc, v1);
                    }
                }
                (void)tail.after_chunk(s0, p.N + 1, p.N + 1);  // past column N: no more watching
            }
            // 4. Publish: column chunk c_out is in ring_out (lane 31 wrote it); chunk s0 / P of
            // ring_in is read (every lane read it).
            __syncwarp();
            if (!last && s0 >= kBand && lane == 31) mbar_arrive(&full[w + 1][c_out % kSlots]);
            if (!first && s0 / P < n_pub) mbar_arrive(&empty[w][(s0 / P) % kSlots]);
            // 4b. A row line: its column chunk c_out, as lane 31 wrote it into ring_out.
            if constexpr (kLines) {
                const int j = s0 - kBand + 1 + lane;
                if (line_h && s0 >= kBand && j <= p.N) {
                    line_h[j] = line_value<Ops, kKind>(p, ring_out[(j - 1) & kRingMask], bottom, j);
                    if constexpr (kAffine) line_f[j] = line_value<Ops, kKind>(p, fring_out[(j - 1) & kRingMask], bottom, j);
                }
            }
            // 5. Last band of the group: copy the bottom row to the global buffer, 32 columns at a time.
            if (write_global) {
                const int ready = Ops::index_min(s0 + P - kBand, p.N);  // reaches N in the last chunk
                while (copied < ready && (copied + kFetch <= ready || ready == p.N)) {
                    st_relaxed(gout + copied + 1 + lane, entry(mine, ring_out[(copied + lane) & kRingMask]));
                    if constexpr (kAffine)
                        st_relaxed(gout + fslot + copied + 1 + lane, entry(mine, fring_out[(copied + lane) & kRingMask]));
                    copied += kFetch;
                }
            }
            // 6. Every 256 steps: fold the per-row keys into (best score, first column).
            if (kLocal && (((s0 + P) & 255) == 0 || s0 + P >= p.steps)) {
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

        if constexpr (kCorner) {
            // H'(M, N): the last band's bottom row holds row M from column 1 on (pair_score::Scoring);
            // lane 31 wrote its column N in ring_out, where the sweep's later columns (fewer than
            // kRing past N) left it.
            if (last && g == p.n_groups - 1) {
                __syncwarp();
                if (lane == 0) *p.best = static_cast<unsigned long long>(ring_out[(p.N - 1) & kRingMask] - kZ);
            }
            continue;
        }
        if constexpr (kDtw) {
            if (holds_corner && lane == corner_lane) *p.best = static_cast<unsigned long long>(uint32_t(corner));
            if constexpr (kLowest) {  // the band's largest D: per lane, then per warp, then one atomicMax
#pragma unroll
                for (int d = 16; d > 0; d >>= 1) worst = Ops::max2(worst, __shfl_xor_sync(0xffffffffu, worst, d));
                if (lane == 0) atomicMax(p.ov_worst, worst);
            }
            continue;
        }
        if constexpr (kCornerA) {  // H'(M, N) << kScale, negative down to -c0 << kScale
            if (holds_corner && lane == corner_lane) *p.best = static_cast<unsigned long long>(uint32_t(corner - kZ));
            continue;
        }
        // The band's best cell: per lane, then per warp, then one atomicMax.
        unsigned long long key = 0;
#pragma unroll
        for (int k = 0; k < R; ++k)
            if (rbest[k] > 0 && row0 + k <= p.M) key = max(key, pack_best(rbest[k], row0 + k, rcol[k], p.N, p.key_bits));
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) key = max(key, __shfl_xor_sync(0xffffffffu, key, d));
        if (lane == 0 && key != 0) atomicMax(p.best, key);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Row-serial fill
// ---------------------------------------------------------------------------------------------
// The score fills of local alignment with a linear gap, of the corner form and of DTW
// (pair_score::takes_serial) with a lane's rows in series: at step s lane l computes column
// s + 1 - l for its R rows (pair_score::serial_rows), row k taking its up value from row k - 1 of the same step.
// Row i so starts about i / R steps after row 0 (above: about 1.4 i), and a step is a chain of R
// cells, one VIADDMNMX each: t = max(diag + s, left - g, 0) off the chain, h = max(up - g, t) on
// it (cell::align_linear with kUpChain; the corner form cell::lcs with up last; DTW cell::dtw with
// kUpChain, one VIADDMNMX on the chain too; docs/single_pair_kernel.md, "The row-serial fill"). H is carried as H << kScale like above, so a cell's score is one PRMT and the end cell
// one more VIADDMNMX a cell: max(h + u, key) with u = (15 - k) 16 + (15 - i) for row k at step i
// of a 16-step block keeps the block's best H and, among ties, its smallest row and then column
// (row-major order); every 16 steps a lane folds the block's key into its packed end cell.
// Hand-over: one rotating shuffle a step (lane l takes lane l - 1's bottom row; lane 31 sends the
// row above the band, read from its ring a step ahead, to lane 0); lane 31's bottom row at step
// p (column p - 30) is slot p of the band's output: ring w + 1 between the warps of a block
// (chunks of 32 slots guarded by "full" and "empty" mbarriers, like the fill above), group to
// group the two global row slots of tagged entries, read one chunk ahead by the next group's
// first warp. DTW carries D itself, its borders unreachable but for D(0, 0) = 0 (the first lane's
// first diagonal), and keeps D(M, N) as the lane of row M computes it (the chunk of that step
// watched, as the fill above).
template <class Ops, int kKind, int R>
__global__ void __launch_bounds__(pair_score::kSerialWarps * 32, pair_score::kSerialMinBlocks)
    pair_serial_fill(const Params p) {
    using pair_score::kScale;
    constexpr int W = pair_score::kSerialWarps, C = pair_score::kSerialChunk;
    constexpr int kRingSlots = pair_score::kSerialRing, kMask = kRingSlots - 1, kChunks = kRingSlots / C;
    constexpr bool kLocal = kKind == kLinear;
    constexpr bool kDtw = kKind == kDtwAbs || kKind == kDtwSquared;
    static_assert(kLocal || kKind == kCornerForm || kDtw, "the row-serial fill takes local linear, the corner form and DTW");
    static_assert(R <= 16 && C % 16 == 0 && C == 32 && kRingSlots % C == 0, "16-step key blocks, a lane a slot");
    constexpr int kZ = kZero<Ops>;
    constexpr int kNoKey = kZ + 255;  // below h + u of every cell with h >= 1 (h << kScale >= 256)
    // The borders: H = 0 (kZ); DTW's (kDtwTop, kDtwLeft; D(0, 0) = 0 below).
    constexpr int kTop = kDtw ? kDtwTop : kZ;    // row 0
    constexpr int kLeft = kDtw ? kDtwLeft : kZ;  // column 0

    __shared__ int ring[W + 1][kRingSlots];                  // ring w: the input of warp w; ring W: the last warp's output
    __shared__ uint64_t full[W][kChunks], empty[W][kChunks];  // [w] guards ring w, w >= 1
    __shared__ int s_group;

    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const bool first = w == 0, last = w == W - 1;
    unsigned long long best_key = 0;

    for (;;) {
        __syncthreads();  // every warp is done with the previous group
        if (threadIdx.x == 0) s_group = atomicAdd(p.ticket, 1);
        if (threadIdx.x < (W - 1) * kChunks) {  // a fresh phase count per group
            const int r = 1 + int(threadIdx.x) / kChunks, k = int(threadIdx.x) % kChunks;
            mbar_init(&full[r][k], 1);
            mbar_init(&empty[r][k], 1);
        }
        __syncthreads();
        const int g = s_group;
        if (g >= p.n_groups) break;

        const int row0 = (g * W + w) * 32 * R + lane * R + 1;  // the lane's first row
        uint32_t tab[R];
        int h[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            tab[k] = row0 + k <= p.M ? p.qtab[row0 + k] : kDtw ? 0u : kPadTable;
            h[k] = kLeft;  // column 0 (and the skew's columns left of it)
        }
        // DTW: the lane of row M keeps D(M, N), its row corner_k at step corner_step (lane l's
        // column at step s is s + 1 - l); the warp watches that step's chunk.
        [[maybe_unused]] int corner_k = -1, corner_step = -1, watched_s0 = -1, corner = kTop;
        if constexpr (kDtw) {
            const int r_m = p.M - ((g * W + w) * 32 * R + 1);  // row M's index in the band
            if (r_m >= 0 && r_m < 32 * R) {
                watched_s0 = (p.N - 1 + r_m / R) / C * C;
                if (lane == r_m / R) {
                    corner_k = r_m % R;
                    corner_step = p.N - 1 + lane;
                }
            }
        }
        int* in = ring[w];
        int* out = ring[w + 1];
        const unsigned long long* gin = p.gbuf + size_t((g + 1) & 1) * size_t(p.gstride);
        unsigned long long* gout = p.gbuf + size_t(g & 1) * size_t(p.gstride);
        const uint32_t tag_in = tag_of(p.epoch, g - 1), tag_out = tag_of(p.epoch, g);

        // The first warp takes slots a .. a + 31 of the group above into ring 0 (row 0: H = 0),
        // from `pending` (loaded a chunk earlier) while its tags are current.
        unsigned long long pending = 0;
        const auto take = [&](int a, bool have) {
            int v = kTop;
            if (g > 0) {
                unsigned long long e = have ? pending : ld_relaxed(gin + a + lane);
                SpinGuard guard;
                while (!__all_sync(0xffffffffu, uint32_t(e >> 32) == tag_in)) {
                    guard();
                    e = ld_relaxed(gin + a + lane);
                }
                v = int(uint32_t(e));
            }
            in[(a + lane) & kMask] = v;
        };
        // Lane 0's first up value (column 1) is slot 31, the last of the band above's chunk 0.
        if (first) {
            take(0, false);
            take(C, false);
            __syncwarp();
        } else if (lane == 31) {
            mbar_wait(&full[w][0], 0);
        }
        int send = lane == 31 ? in[31] : kLeft;  // what this lane gives the next in the step's shuffle
        if (!first && lane == 31) mbar_arrive(&empty[w][0]);
        // The row above the lane's top row, the previous column (DTW: D(0, 0) = 0 above row 1).
        int diag_top = kDtw ? dtw_left(row0 - 1) : kZ;
        int key = kNoKey;
        // [s]: the lane's column at step s, its selector (DTW: its value)
        std::conditional_t<kDtw, const int*, const uint16_t*> sel;
        if constexpr (kDtw) sel = p.tval + pair_score::kSelOff + 1 - lane;
        else sel = p.tsel + pair_score::kSelOff + 1 - lane;

        for (int s0 = 0; s0 < p.steps; s0 += C) {
            const int u = s0 / C;
            // In: chunk u + 1 of the band above (slots s0 + 32 .. s0 + 63, read at steps s0 .. s0 + 31).
            if (first) {
                if (s0 > 0) take(s0 + C, true);
                __syncwarp();
                if (g > 0 && s0 + 2 * C <= p.steps) pending = ld_relaxed(gin + s0 + 2 * C + lane);
            } else if (lane == 31) {
                mbar_wait(&full[w][(u + 1) % kChunks], unsigned((u + 1) / kChunks) & 1u);
            }
            // Out: chunk u of ring w + 1 reuses the slots of chunk u - kChunks, read by then.
            if (!last && lane == 31 && u >= kChunks) mbar_wait(&empty[w + 1][u % kChunks], unsigned(u / kChunks - 1) & 1u);

            // watch: DTW's chunk of D(M, N) (std::true_type), the others (std::false_type).
            const auto chunk = [&](auto watch) {
                serial_chunk<C>(
                    sel, s0,
                    [&](auto ic, int b, uint32_t x) {
                        constexpr int i = decltype(ic)::value;
                        const int s = s0 + b + i;
                        // Lane 31's for step s + 1 (slot s + 32): only lane 31 waited for the ring.
                        const int next_above = lane == 31 ? in[(s + C) & kMask] : kTop;
                        int up = __shfl_sync(0xffffffffu, send, (lane + 31) & 31);
                        int diag = diag_top;
                        diag_top = up;
#pragma unroll
                        for (int k = 0; k < R; ++k) {
                            uint32_t no_bits;  // score level: no direction bits
                            int v;
                            if constexpr (kLocal) {  // up, the chain, last: one addmax on it
                                v = cell::align_linear<Ops, true, false, true>(diag, up, h[k], prmt(tab[k], x), p.gap_s,
                                                                               kZ, no_bits);
                                key = Ops::addmax(v, (15 - k) * 16 + (15 - i), key);
                            } else if constexpr (kDtw) {  // up, the chain, last: one addmin on it
                                const int cost = cell::dtw_cost<kKind == kDtwSquared>(int(tab[k]), int(x));
                                v = cell::dtw<Ops, false, true>(diag, up, h[k], cost, true, kPosInf, no_bits);
                            } else {  // the corner form (LCS's recurrence), up last; Ops has no IMAD adds here
                                v = cell::lcs<Ops, false, true>(diag, h[k], up, prmt(tab[k], x), no_bits);
                            }
                            diag = h[k];
                            h[k] = v;
                            up = v;
                            if constexpr (decltype(watch)::value) corner = k == corner_k && s == corner_step ? v : corner;
                        }
                        if (lane == 31) out[s & kMask] = h[R - 1];
                        send = lane == 31 ? next_above : h[R - 1];
                    },
                    [&](int b) {  // the block's best cell into the lane's end cell
                        if constexpr (kLocal) {
                            if (key > kNoKey) {
                                const int v = (key - kZ) >> kScale, u16 = (key - kZ) & 255;
                                const int row = row0 + 15 - (u16 >> 4), col = s0 + b + 15 - (u16 & 15) + 1 - lane;
                                if (row <= p.M && col >= 1 && col <= p.N)
                                    best_key = max(best_key, pack_best(v, row, col, p.N, p.key_bits));
                                key = kNoKey;
                            }
                        }
                    });
            };
            if constexpr (kDtw) {
                if (s0 == watched_s0) chunk(std::true_type{});
                else chunk(std::false_type{});
            } else {
                chunk(std::false_type{});
            }
            // Publish chunk u: to the warp below, or (the last warp) to the group below.
            if (!last) {
                if (lane == 31) mbar_arrive(&full[w + 1][u % kChunks]);
            } else {
                __syncwarp();
                st_relaxed(gout + s0 + lane, entry(tag_out, out[(s0 + lane) & kMask]));
            }
            if (!first && lane == 31) mbar_arrive(&empty[w][(u + 1) % kChunks]);
        }
        // The chunk past the sweep (slots steps .. steps + 31), which the band below reads ahead in
        // its last chunk: row 0's value, feeding only columns past N.
        const int u_end = p.steps / C;
        if (!last) {
            if (lane == 31) {
                if (u_end >= kChunks) mbar_wait(&empty[w + 1][u_end % kChunks], unsigned(u_end / kChunks - 1) & 1u);
                for (int q = 0; q < C; ++q) out[(p.steps + q) & kMask] = kTop;
                mbar_arrive(&full[w + 1][u_end % kChunks]);
            }
        } else {
            st_relaxed(gout + p.steps + lane, entry(tag_out, kTop));
        }
        if constexpr (kDtw) {
            if (corner_k >= 0) *p.best = static_cast<unsigned long long>(uint32_t(corner));
        } else if constexpr (!kLocal) {
            // H'(M, N): the last row of the last group at the last column, which padding rows and
            // columns copy from (M, N) (pair_score::Scoring).
            if (last && lane == 31 && g == p.n_groups - 1) *p.best = static_cast<unsigned long long>(h[R - 1] - kZ);
        }
    }
    if constexpr (kLocal) {
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) best_key = max(best_key, __shfl_xor_sync(0xffffffffu, best_key, d));
        if (lane == 0 && best_key != 0) atomicMax(p.best, best_key);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] 16x2 fill
// ---------------------------------------------------------------------------------------------
// Local alignment at score level (pair_score::takes16; a linear gap, or affine gaps in the kAffine
// form below) on the row-serial layout, two virtual lanes a thread: virtual lane 2l in the low 16
// bits of lane l's words, 2l + 1 in the high ones, each with R rows, so a band is 64 R rows and
// one VIADDMNMX.S16x2 computes two cells. Virtual lane v computes column s + 1 - v at step s, so a thread's halves are R rows and
// one column apart and their cells independent. A half holds S H less the warp's base Bw (an
// int32, a multiple of S: the warp's lowest S H at the last 32-step chunk boundary), S =
// pair_score::lanes16_scale(R); pair_score::fits16 has the range argument. The floor 0 is -Bw,
// clamped at -32,768 where no cell of the warp can reach it. The end cell: a key per S rows,
// key = max(key, h + (S - 1 - k mod S)) for row k, keeps the chunk's best H of those rows and its
// first row; the step at which a half's key last rose is its column; each chunk's keys go to the
// lane's packed end cell (row-major first among ties, as pack_best).
// Scores: one PRMT a row and step from the two rows' tables (S s' as int8; low half: byte x of the
// low row's, high half: byte 4 + x of the high row's) with a selector for the column pair
// (c, c - 1) (Params16::tsel2); a padding column selects a sign byte, 0 or -1, which keeps column
// 0's border at 0 and no padding cell above the real cells before it.
// Hand-over: the rings and the row slots carry true S H (int32). One shuffle and one PRMT a step:
// the low half's up value is lane l - 1's high half's bottom row, the high half's the lane's own low
// half's; lane 31 sends the row above the band (read from its ring a step ahead, less Bw, clamped
// to [-16,384, 32,632]: real values lie inside, the clamp meets only the zero slots past the band
// above's sweep, which feed columns past N) in its high half. Virtual lane 63's bottom row at step
// p is column p - 62, slot p of the band's output; the band below reads slot s + 64 at its step s,
// so a warp waits for chunk u + 2 before its chunk u. Rings, mbarriers and the row slots as the
// row-serial fill's.
struct Params16 {
    const uint16_t* tsel2;        // selector of the column pair (c, c - 1) at tsel2[c + kSelOff]
    const uint32_t* qtab16;        // row i's 4 scores times S (int8) at qtab16[i], i in 1..M
    int M, N;
    int n_groups, steps;          // pair_score::groups16, steps16
    int gap_s16;                  // S g (affine gaps: S open)
    int ext_s16;                  // affine gaps: S extend
    int spread;                   // pair_score::lanes16_spread: the largest spread at a chunk boundary
    unsigned long long* gbuf;     // 2 row slots of gstride (>= steps + 64) entries: tag << 32 | S H
    int gstride;
    uint32_t epoch;
    int* ticket;                  // [0] the group ticket, [1] the spread flag
    unsigned long long* best;     // packed end-cell key, atomicMax
    int key_bits;
};

__device__ __forceinline__ uint32_t above16(int v, int base) {
    return uint32_t(min(max(v - base, -16384), 32632)) << 16;
}
// Bytes of {a, b} by the selector's nibbles, bit 3 replicating the selected byte's sign.
__device__ __forceinline__ uint32_t prmt2(uint32_t a, uint32_t b, uint32_t sel) {
    uint32_t r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
    return r;
}

// kAffine: local alignment with affine gaps on the same layout. E runs along a row in a register,
// F down the chain and through the hand-overs beside H (a second ring, the row slots' F entries
// 2 + slot, a second shuffle a step); E and F start at -open, relative like H, and lie within
// open of the H they come from, so the range argument holds with open in the place of g.
template <int R, bool kAffine>
__global__ void __launch_bounds__(pair_score::kSerialWarps * 32, R <= 8 ? 2 : 1) pair_serial16_fill(const Params16 p) {
    constexpr int W = pair_score::kSerialWarps, C = pair_score::kSerialChunk, kLag = 64;
    constexpr int kRingSlots = pair_score::kSerialRing, kMask = kRingSlots - 1, kChunks = kRingSlots / C;
    constexpr int S = pair_score::lanes16_scale(R), kKeys = R / S;  // a key per S rows of a lane
    constexpr int kShift = S == 8 ? 3 : 2;
    static_assert(R % S == 0 && S == 1 << kShift, "a key's low bits are a row of S");
    static_assert(C == 32 && kRingSlots % C == 0 && kChunks >= 4, "a lane a slot; two chunks read ahead");
    constexpr uint32_t kLow2 = 0x80008000u;  // -32,768 in both halves

    __shared__ int ring[W + 1][kRingSlots];
    __shared__ int ring_f[kAffine ? W + 1 : 1][kRingSlots];
    __shared__ uint64_t full[W][kChunks], empty[W][kChunks];
    __shared__ int s_group;

    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const bool first = w == 0, last = w == W - 1;
    const uint32_t ng2 = uint32_t(uint16_t(int16_t(-p.gap_s16))) * 0x10001u;  // -g (affine: -open) in both halves
    const uint32_t ne2 = uint32_t(uint16_t(int16_t(-p.ext_s16))) * 0x10001u;  // affine: -extend
    unsigned long long best_key = 0;

    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) s_group = atomicAdd(p.ticket, 1);
        if (threadIdx.x < (W - 1) * kChunks) {
            const int r = 1 + int(threadIdx.x) / kChunks, k = int(threadIdx.x) % kChunks;
            mbar_init(&full[r][k], 1);
            mbar_init(&empty[r][k], 1);
        }
        __syncthreads();
        const int g = s_group;
        if (g >= p.n_groups) break;

        const int row0 = (g * W + w) * 64 * R + 2 * lane * R + 1;  // the low half's first row
        uint32_t TL[R], TH[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            TL[k] = row0 + k <= p.M ? p.qtab16[row0 + k] : kPadTable;
            TH[k] = row0 + R + k <= p.M ? p.qtab16[row0 + R + k] : kPadTable;
        }
        int* in = ring[w];
        int* out = ring[w + 1];
        int* in_f = ring_f[kAffine ? w : 0];
        int* out_f = ring_f[kAffine ? w + 1 : 0];
        const unsigned long long* gin = p.gbuf + size_t((g + 1) & 1) * size_t(p.gstride);
        unsigned long long* gout = p.gbuf + size_t(g & 1) * size_t(p.gstride);
        const size_t f_slots = 2 * size_t(p.gstride);  // affine: F's entries two slots on
        const uint32_t tag_in = tag_of(p.epoch, g - 1), tag_out = tag_of(p.epoch, g);

        unsigned long long pending = 0, pending_f = 0;
        const auto take = [&](int a, bool have) {
            int v = 0, f = -p.gap_s16;  // row 0: H = 0, F = H - open
            if (g > 0) {
                unsigned long long e = have ? pending : ld_relaxed(gin + a + lane);
                unsigned long long ef = 0;
                if constexpr (kAffine) ef = have ? pending_f : ld_relaxed(gin + f_slots + a + lane);
                SpinGuard guard;
                while (!__all_sync(0xffffffffu, uint32_t(e >> 32) == tag_in && (!kAffine || uint32_t(ef >> 32) == tag_in))) {
                    guard();
                    e = ld_relaxed(gin + a + lane);
                    if constexpr (kAffine) ef = ld_relaxed(gin + f_slots + a + lane);
                }
                v = int(uint32_t(e));
                f = int(uint32_t(ef));
            }
            in[(a + lane) & kMask] = v;
            if constexpr (kAffine) in_f[(a + lane) & kMask] = f;
        };
        // Lane 0's first up value (column 1) is slot 63, the last of the band above's chunk 1.
        if (first) {
            take(0, false);
            take(C, false);
            take(2 * C, false);
            __syncwarp();
        } else if (lane == 31) {
            mbar_wait(&full[w][0], 0);
            mbar_wait(&full[w][1], 0);
        }
        int base = 0;
        uint32_t floor2 = 0;  // max(-Bw, -32,768) in both halves
        uint32_t H[R], E[kAffine ? R : 1];
#pragma unroll
        for (int k = 0; k < R; ++k) H[k] = 0;
        if constexpr (kAffine) {
#pragma unroll
            for (int k = 0; k < R; ++k) E[k] = ng2;  // column 0: E = H - open
        }
        uint32_t D = 0;  // both halves' diag for their top rows
        uint32_t send = lane == 31 ? above16(in[kLag - 1], 0) : 0u;
        uint32_t Fb = ng2, send_f = 0;  // affine: both halves' bottom-row F (the previous step); what lane 31 sends
        if constexpr (kAffine) send_f = lane == 31 ? above16(in_f[kLag - 1], 0) : ng2;
        if (!first && lane == 31) {
            mbar_arrive(&empty[w][0]);
            mbar_arrive(&empty[w][1]);
        }
        uint32_t key2[kKeys];  // both halves' largest h + (S - 1 - k mod S) of key q's rows since the chunk began
        int col_lo[kKeys], col_hi[kKeys];  // the step of the chunk at which each half's key last rose
#pragma unroll
        for (int q = 0; q < kKeys; ++q) {
            key2[q] = kLow2;
            col_lo[q] = col_hi[q] = 0;
        }
        const uint16_t* sel = p.tsel2 + pair_score::kSelOff + 1 - 2 * lane;  // [s]: the low half's column at step s

        for (int s0 = 0; s0 < p.steps; s0 += C) {
            const int u = s0 / C;
            // In: chunk u + 2 of the band above (slots s0 + 64 .. s0 + 95, read at steps s0 .. s0 + 31).
            if (first) {
                if (s0 > 0) take(s0 + kLag, true);
                __syncwarp();
                if (g > 0 && s0 + kLag <= p.steps) pending = ld_relaxed(gin + s0 + C + kLag + lane);
            } else if (lane == 31) {
                mbar_wait(&full[w][(u + 2) % kChunks], unsigned((u + 2) / kChunks) & 1u);
            }
            if constexpr (kAffine) {
                if (first && g > 0 && s0 + kLag <= p.steps) pending_f = ld_relaxed(gin + f_slots + s0 + C + kLag + lane);
            }
            if (!last && lane == 31 && u >= kChunks) mbar_wait(&empty[w + 1][u % kChunks], unsigned(u / kChunks - 1) & 1u);
            // A chunk's slots are consecutive in a ring: index them from the chunk's first.
            const int* above = &in[(s0 + kLag) & kMask];  // [j]: lane 31's for step s0 + j + 1
            int* below = &out[s0 & kMask];                 // [j]: the band's bottom row at step s0 + j
            const int* above_f = &in_f[(s0 + kLag) & kMask];
            int* below_f = &out_f[s0 & kMask];

            serial_chunk<C>(
                sel, s0,
                [&](auto ic, int b, uint32_t x) {
                    constexpr int i = decltype(ic)::value;
                    const int next_above = lane == 31 ? above[b + i] : 0;  // lane 31's for step s + 1
                    const uint32_t xs = __shfl_sync(0xffffffffu, send, (lane + 31) & 31);
                    uint32_t up = __byte_perm(xs, H[R - 1], 0x5432);  // low: xs's high half; high: own low half
                    uint32_t diag = D;
                    D = up;
                    [[maybe_unused]] int next_above_f = 0;  // kAffine
                    [[maybe_unused]] uint32_t fup = 0;
                    if constexpr (kAffine) {
                        next_above_f = lane == 31 ? above_f[b + i] : 0;
                        fup = __byte_perm(__shfl_sync(0xffffffffu, send_f, (lane + 31) & 31), Fb, 0x5432);
                    }
                    uint32_t before[kKeys];
#pragma unroll
                    for (int q = 0; q < kKeys; ++q) before[q] = key2[q];
#pragma unroll
                    for (int k = 0; k < R; ++k) {
                        const uint32_t sc = prmt2(TL[k], TH[k], x);
                        uint32_t h;
                        if constexpr (kAffine) {
                            E[k] = __viaddmax_s16x2(E[k], ne2, __viaddmax_s16x2(H[k], ng2, kLow2));
                            const uint32_t f = __viaddmax_s16x2(fup, ne2, __viaddmax_s16x2(up, ng2, kLow2));
                            h = __vimax3_s16x2(__viaddmax_s16x2(diag, sc, floor2), E[k], f);
                            fup = f;
                        } else {
                            const uint32_t t = __viaddmax_s16x2(H[k], ng2, __viaddmax_s16x2(diag, sc, floor2));
                            h = __viaddmax_s16x2(up, ng2, t);
                        }
                        diag = H[k];
                        H[k] = h;
                        up = h;
                        key2[k / S] = __viaddmax_s16x2(h, uint32_t(S - 1 - k % S) * 0x10001u, key2[k / S]);
                    }
#pragma unroll
                    for (int q = 0; q < kKeys; ++q) {
                        bool same_hi, same_lo;  // before >= key: the half's key did not rise (keys never fall)
                        (void)__vibmax_s16x2(before[q], key2[q], &same_hi, &same_lo);
                        col_lo[q] = same_lo ? col_lo[q] : b + i;
                        col_hi[q] = same_hi ? col_hi[q] : b + i;
                    }
                    if (lane == 31) below[b + i] = int(int16_t(H[R - 1] >> 16)) + base;
                    send = lane == 31 ? above16(next_above, base) : H[R - 1];
                    if constexpr (kAffine) {
                        Fb = fup;
                        if (lane == 31) below_f[b + i] = int(int16_t(Fb >> 16)) + base;
                        send_f = lane == 31 ? above16(next_above_f, base) : Fb;
                    }
                },
                [](int) {});
            // The chunk's keys into the end cell; the base becomes the warp's lowest S H (a multiple of S).
            {
                uint32_t lo2 = H[0], hi2 = H[0];
#pragma unroll
                for (int k = 1; k < R; ++k) {
                    lo2 = __vimin3_s16x2(lo2, H[k], H[k]);
                    hi2 = __vimax3_s16x2(hi2, H[k], H[k]);
                }
                const int lo = __reduce_min_sync(0xffffffffu, min(int(int16_t(lo2)), int(int16_t(lo2 >> 16))));
                const int hi = __reduce_max_sync(0xffffffffu, max(int(int16_t(hi2)), int(int16_t(hi2 >> 16))));
                if (hi - lo > p.spread && lane == 0) atomicOr(p.ticket + 1, 1);
#pragma unroll
                for (int q = 0; q < kKeys; ++q) {
#pragma unroll
                    for (int half = 0; half < 2; ++half) {
                        const int key = int(int16_t(half ? key2[q] >> 16 : key2[q]));
                        const int v = (key >> kShift) + (base >> kShift);
                        const int i = row0 + half * R + q * S + S - 1 - (key & (S - 1));
                        const int j = s0 + (half ? col_hi[q] : col_lo[q]) + 1 - 2 * lane - half;
                        if (key != -32768 && v > 0 && i <= p.M && j >= 1 && j <= p.N)
                            best_key = max(best_key, pack_best(v, i, j, p.N, p.key_bits));
                    }
                    key2[q] = kLow2;
                }
                const int d = lo & ~(S - 1);
                const uint32_t d2 = uint32_t(uint16_t(int16_t(-d))) * 0x10001u;
#pragma unroll
                for (int k = 0; k < R; ++k) H[k] = __viaddmax_s16x2(H[k], d2, kLow2);
                D = __viaddmax_s16x2(D, d2, kLow2);
                send = __viaddmax_s16x2(send, d2, kLow2);
                if constexpr (kAffine) {
#pragma unroll
                    for (int k = 0; k < R; ++k) E[k] = __viaddmax_s16x2(E[k], d2, kLow2);
                    Fb = __viaddmax_s16x2(Fb, d2, kLow2);
                    send_f = __viaddmax_s16x2(send_f, d2, kLow2);
                }
                base += d;
                floor2 = uint32_t(uint16_t(int16_t(max(-base, -32768)))) * 0x10001u;
            }
            // Publish chunk u: to the warp below, or (the last warp) to the group below.
            if (!last) {
                if (lane == 31) mbar_arrive(&full[w + 1][u % kChunks]);
            } else {
                __syncwarp();
                st_relaxed(gout + s0 + lane, entry(tag_out, out[(s0 + lane) & kMask]));
                if constexpr (kAffine) st_relaxed(gout + f_slots + s0 + lane, entry(tag_out, out_f[(s0 + lane) & kMask]));
            }
            if (!first && lane == 31) mbar_arrive(&empty[w][(u + 2) % kChunks]);
        }
        // The two chunks past the sweep (slots steps .. steps + 63), which the band below reads
        // ahead in its last chunks: 0, feeding only columns past N.
        const int u_end = p.steps / C;
        if (!last) {
            if (lane == 31) {
                for (int u = u_end; u < u_end + 2; ++u) {
                    if (u >= kChunks) mbar_wait(&empty[w + 1][u % kChunks], unsigned(u / kChunks - 1) & 1u);
                    for (int q = 0; q < C; ++q) {
                        out[(u * C + q) & kMask] = 0;
                        if constexpr (kAffine) out_f[(u * C + q) & kMask] = -p.gap_s16;  // F = H - open
                    }
                    mbar_arrive(&full[w + 1][u % kChunks]);
                }
            }
        } else {
            st_relaxed(gout + p.steps + lane, entry(tag_out, 0));
            st_relaxed(gout + p.steps + C + lane, entry(tag_out, 0));
            if constexpr (kAffine) {
                st_relaxed(gout + f_slots + p.steps + lane, entry(tag_out, -p.gap_s16));
                st_relaxed(gout + f_slots + p.steps + C + lane, entry(tag_out, -p.gap_s16));
            }
        }
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) best_key = max(best_key, __shfl_xor_sync(0xffffffffu, best_key, d));
    if (lane == 0 && best_key != 0) atomicMax(p.best, best_key);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Host
// ---------------------------------------------------------------------------------------------

// The DPX fills add a cell's terms on the FMA pipe (cell::ImadDpxOps) but the corner form's score
// fill, whose step is a chain at the sizes it takes (65,536^2: 10 % slower with IMAD, 1,048,576^2:
// 1 % faster; its store's and picture's loops, with the lines' and texels' captures, gain 12 % and
// 4 % at 1,048,576^2; docs/performance.md). Ops: ImadDpxOps or PortableOps.
template <class Ops, int kKind, int kOut>
constexpr auto kFill = pair_score_fill<std::conditional_t<Ops::kDpx && kKind == kCornerForm && kOut == kScoreOut,
                                                          cell::DpxOps, Ops>,
                                       kKind, kOut>;

template <class Ops, int kOut>
auto fill_of(Form f) {
    if constexpr (kOut == kPictureOut) {  // local fills, edit distance, LCS and DTW (pair_score::pools)
        switch (f) {
            case Form::affine: return kFill<Ops, kAffineGaps, kOut>;
            case Form::corner: return kFill<Ops, kCornerForm, kOut>;
            case Form::dtw: return kFill<Ops, kDtwAbs, kOut>;
            case Form::dtw_squared: return kFill<Ops, kDtwSquared, kOut>;
            case Form::linear:
            case Form::corner_affine: break;
        }
        return kFill<Ops, kLinear, kOut>;
    } else {
        switch (f) {
            case Form::affine: return kFill<Ops, kAffineGaps, kOut>;
            case Form::corner: return kFill<Ops, kCornerForm, kOut>;
            case Form::dtw: return kFill<Ops, kDtwAbs, kOut>;
            case Form::dtw_squared: return kFill<Ops, kDtwSquared, kOut>;
            case Form::corner_affine: return kFill<Ops, kCornerAffine, kOut>;
            case Form::linear: break;
        }
        return kFill<Ops, kLinear, kOut>;
    }
}
template <int kOut>
auto kernel_of(bool dpx, Form f) {
    return dpx ? fill_of<cell::ImadDpxOps, kOut>(f) : fill_of<cell::PortableOps, kOut>(f);
}

// The row-serial fill of form f (linear, corner, DTW) with R rows a lane (pair_score::serial_rows).
// The corner form's and DTW's DPX fills on cell::DpxOps, as the skewed fill's score fill: their
// cells are LCS's recurrence and DTW's with the chain last (with IMAD adds, cell::lcs would
// compare the three at once).
template <class Ops, int kKind>
auto serial_rows_of(int R) {
    return R == pair_score::kSerialRowsSmall ? pair_serial_fill<Ops, kKind, pair_score::kSerialRowsSmall>
                                             : pair_serial_fill<Ops, kKind, pair_score::kSerialRowsLarge>;
}
template <class Ops>
auto serial_of(Form f, int R) {
    using ChainOps = std::conditional_t<Ops::kDpx, cell::DpxOps, Ops>;
    switch (f) {
        case Form::corner: return serial_rows_of<ChainOps, kCornerForm>(R);
        case Form::dtw: return serial_rows_of<ChainOps, kDtwAbs>(R);
        case Form::dtw_squared: return serial_rows_of<ChainOps, kDtwSquared>(R);
        default: return serial_rows_of<Ops, kLinear>(R);
    }
}
auto serial_kernel_of(bool dpx, Form f, int R) {
    return dpx ? serial_of<cell::ImadDpxOps>(f, R) : serial_of<cell::PortableOps>(f, R);
}

// The hang guard's limit from DPVIZ_GPU_WAIT_LIMIT_S (seconds, >= 1; for runs under
// compute-sanitizer), or nothing: the kernels' 2 s.
std::optional<unsigned long long> wait_limit_ns() {
    static const std::optional<unsigned long long> limit = []() -> std::optional<unsigned long long> {
        const char* e = std::getenv("DPVIZ_GPU_WAIT_LIMIT_S");
        const long s = e ? std::atol(e) : 0;
        if (s < 1) return std::nullopt;
        return static_cast<unsigned long long>(s) * 1000000000ull;
    }();
    return limit;
}

// rows16: the 16x2 fill's R, 0 for none (32 bits), -1 for pair_score's choice. A 16x2 fill that
// raised its range flag returns no result, its time and *flagged (its buffers freed on return).
Expected<PairScoreRun> run_pair_score(const Problem& p, bool dpx, const GpuRunOptions& opt, int rows16, bool* flagged) {
    using namespace pair_score;
    const int M = p.rows(), N = p.cols();
    const Compact c = compact_codes(p);
    const auto sc = scoring_of(p, c);
    if (!sc || !applies(p, OutputLevel::score))
        return device_error("internal: the one-pair score kernel does not take this problem");
    const bool lines = opt.checkpoint_spacing != 0;
    // The 16x2 fill's inputs are its own (8 s', column pairs) in the same buffers.
    if (rows16 < 0) rows16 = !lines && takes16(*sc, c, OutputLevel::score, M, dpx) ? lanes16_rows() : 0;
    const bool lanes16 = rows16 > 0;

    // Inputs: per row the 4 scores s' of its residue against the pair's 4 codes (bytes, int8), per
    // column its PRMT selector; padding rows and columns score -128 against everything. DTW: per
    // row and per column its fixed-point value, 0 for padding (a padding column's cells left of
    // column 1 add a cost to unreachable and stay unreachable; the cells of padding rows and of the
    // columns past N feed no real cell).
    std::vector<uint16_t> sel;
    std::vector<int32_t> val;
    std::vector<uint32_t> tab(size_t(M) + 1, sc->dtw ? 0u : kPadTable);
    if (sc->dtw) {
        val.assign(size_t(selector_entries(N)), 0);
        for (int j = 1; j <= N; ++j) val[size_t(j + kSelOff)] = p.target_fixed[size_t(j - 1)];
        for (int i = 1; i <= M; ++i) tab[size_t(i)] = uint32_t(p.query_fixed[size_t(i - 1)]);
    } else {
        const auto code = [&](int64_t j) { return j >= 1 && j <= N ? int(c.code[p.target_codes[size_t(j - 1)]]) : kPadCode; };
        sel.assign(size_t(selector_entries(N)), selector(kPadCode));
        for (size_t x = 0; x < sel.size(); ++x) {
            const int64_t j = int64_t(x) - kSelOff;
            sel[x] = lanes16 ? selector16(code(j), code(j - 1)) : selector(code(j));
        }
        const int32_t scale = lanes16 ? lanes16_scale(rows16) : 1;
        for (int i = 1; i <= M; ++i) {
            uint32_t t = 0;
            for (int x = 0; x < 4; ++x) {
                const int32_t v = x < c.used ? scale * sc->s[size_t(c.code[p.query_codes[size_t(i - 1)]] * 4 + x)] : -128;
                t |= uint32_t(uint8_t(int8_t(v))) << (8 * x);
            }
            tab[size_t(i)] = t;
        }
    }

    const auto cancelled = [&] { return opt.control && opt.control->cancelled(); };
    if (cancelled()) return cancelled_error();
    Stream stream;
    DPVIZ_TRY(stream.create());
    const cudaStream_t s = stream.get();
    DeviceBuffer<uint16_t> d_sel;
    DeviceBuffer<int32_t> d_val;
    DeviceBuffer<uint32_t> d_tab;
    DeviceBuffer<unsigned long long> d_rows, d_ctrl;
    DPVIZ_TRY(sc->dtw ? upload(d_val, val, s) : upload(d_sel, sel, s));
    DPVIZ_TRY(upload(d_tab, tab, s));
    const int gstride = int(row_slot_entries(N));
    DPVIZ_TRY(d_rows.allocate(size_t(row_slots(p)) * size_t(gstride)));
    DPVIZ_TRY(d_ctrl.allocate(2));  // the group ticket, the packed best cell
    // Tag 0 (epoch 0) is never current: a zeroed slot reads as "not written" (recycled blocks too).
    DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_rows.get(), 0, d_rows.bytes(), s));

    // The store's fill: the checkpoint lines, at the spacing asked for or the finest whose lines
    // take at most half the free memory (as the band kernels' store).
    int32_t K = opt.checkpoint_spacing;
    if (K == kGpuChoosesSpacing) {
        size_t free_now = 0, total_now = 0;
        DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_now, &total_now));
        K = finest_device_spacing([&](int32_t k) { return checkpoint_bytes(p, k) <= free_now / 2; });
    }
    DeviceBuffer<int32_t> d_row_h, d_row_f, d_col_h, d_col_e;
    if (lines) {
        // Row lines are band bottoms: K a power of two, a multiple of a band's rows (as the band
        // kernels', which align() checks the caller's K against).
        if (K < kBandRows || K % kBandRows != 0 || (K & (K - 1)) != 0)
            return device_error("internal: checkpoint lines every " + std::to_string(K) + " rows and columns");
        size_t free_b = 0, total_b = 0;
        DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (checkpoint_bytes(p, K) > free_b)
            return device_error(std::to_string(M) + " x " + std::to_string(N) + " " + std::string(algorithm_name(p.algo)) +
                                ": the checkpoint lines every " + std::to_string(K) + " rows and columns need " +
                                gib(checkpoint_bytes(p, K)) + " of GPU memory, " + gib(free_b) + " free");
        // dpviz/store.hpp's layout: row line k at k (N + 1), column line k at k (M + 1).
        const bool gaps = p.affine();
        const size_t rows = size_t(Checkpoints::lines(K, 0, M)) * (size_t(N) + 1);
        const size_t cols = size_t(Checkpoints::lines(K, 0, N)) * (size_t(M) + 1);
        DPVIZ_TRY(d_row_h.allocate(rows));
        if (gaps) DPVIZ_TRY(d_row_f.allocate(rows));
        DPVIZ_TRY(d_col_h.allocate(cols));
        if (gaps) DPVIZ_TRY(d_col_e.allocate(cols));
    }
    // The picture's overview (with the lines): texels below every value (bytes 0xc0; above every
    // value, 0x40, where it pools the lowest: edit distance, DTW), the borders pooled by the host
    // (overview_from_interior); DTW's largest value from 0 (D >= 0).
    const int32_t B = lines ? opt.overview_block : 0;
    const bool picture = B > 0;
    if (picture && !pools(p, B))
        return device_error("internal: the one-pair kernel pools no overview of blocks of " + std::to_string(B));
    DeviceBuffer<int32_t> d_ov, d_ov_worst;
    const uint64_t texels = picture ? overview_texels(M, N, B) : 0;
    if (picture) {
        DPVIZ_TRY(d_ov.allocate(texels));
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ov.get(), sc->dtw || sc->sign < 0 ? 0x40 : 0xc0, d_ov.bytes(), s));
        if (sc->dtw) {
            DPVIZ_TRY(d_ov_worst.allocate(1));
            DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ov_worst.get(), 0, d_ov_worst.bytes(), s));
        }
    }

    const Form form = form_of(*sc);
    const bool affine = form == Form::affine || form == Form::corner_affine;  // F's rings too
    // Score fills of local linear and the corner form: the row-serial fill (its own shared memory).
    const bool serial = !lines && takes_serial(form, OutputLevel::score, M, dpx);
    const int serial_r = serial_rows(M);
    // The score fills take Params, the others LineParams (ParamsOf).
    const auto fill16 = affine ? (rows16 == kLanes16RowsLarge ? pair_serial16_fill<kLanes16RowsLarge, true>
                                                              : pair_serial16_fill<kLanes16RowsSmall, true>)
                               : (rows16 == kLanes16RowsLarge ? pair_serial16_fill<kLanes16RowsLarge, false>
                                                              : pair_serial16_fill<kLanes16RowsSmall, false>);
    const void* kernel = lanes16  ? reinterpret_cast<const void*>(fill16)
                         : picture ? reinterpret_cast<const void*>(kernel_of<kPictureOut>(dpx, form))
                         : lines  ? reinterpret_cast<const void*>(kernel_of<kStoreOut>(dpx, form))
                         : serial ? reinterpret_cast<const void*>(serial_kernel_of(dpx, form, serial_r))
                                  : reinterpret_cast<const void*>(kernel_of<kScoreOut>(dpx, form));
    const int threads = serial || lanes16 ? kSerialWarps * 32 : kWarps * 32;
    const size_t smem = serial || lanes16 ? 0 : size_t(affine ? 2 : 1) * (kWarps + 1) * kRing * sizeof(int);
    if (!serial && !lanes16) DPVIZ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    int per_sm = 0;
    DPVIZ_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    const auto info = device_info();
    if (!info) return info.error();
    const int sms = info->sms;
    if (per_sm < 1) return device_error("the one-pair score kernel does not fit on an SM of this GPU");
    per_sm = blocks_per_sm(lanes16  ? lanes16_blocks_per_sm(affine)
                           : serial ? serial_blocks_per_sm(form, M, sms, per_sm, dpx)
                                    : choose_blocks_per_sm(form, M, N, sms, per_sm),
                           per_sm, "DPVIZ_PAIR_BLOCKS_PER_SM");

    LineParams kp{};
    kp.tsel = d_sel.get();
    kp.tval = d_val.get();
    kp.qtab = d_tab.get();
    kp.M = M;
    kp.N = N;
    kp.n_groups = lanes16 ? groups16(M, rows16) : serial ? serial_groups(M) : groups(M);
    kp.steps = lanes16 ? steps16(N) : serial ? serial_steps(N) : steps(N);
    kp.gap_s = sc->open << kScale;
    kp.ext_s = sc->extend << kScale;
    kp.gbuf = d_rows.get();
    kp.gstride = gstride;
    kp.ticket = reinterpret_cast<int*>(d_ctrl.get());
    kp.best = d_ctrl.get() + 1;
    kp.key_bits = key_index_bits(M, N);
    kp.row_h = d_row_h.get();
    kp.row_f = d_row_f.get();
    kp.col_h = d_col_h.get();
    kp.col_e = d_col_e.get();
    while (lines && (1 << kp.ck_shift) < K) ++kp.ck_shift;
    kp.sc = *sc;
    kp.ov = d_ov.get();
    kp.ov_block = B;
    kp.ov_cols = picture ? N / B + 1 : 0;
    kp.ov_worst = d_ov_worst.get();
    const int grid = std::min(per_sm * sms, kp.n_groups);  // no block without a group
    Params16 kq{};
    if (lanes16) {
        kq.tsel2 = d_sel.get();
        kq.qtab16 = d_tab.get();
        kq.M = M;
        kq.N = N;
        kq.n_groups = kp.n_groups;
        kq.steps = kp.steps;
        kq.gap_s16 = sc->open * lanes16_scale(rows16);
        kq.ext_s16 = sc->extend * lanes16_scale(rows16);
        kq.spread = lanes16_spread(*largest_score(*sc, c), sc->open, rows16);
        if (const char* e = std::getenv("DPVIZ_PAIR_16X2_SPREAD")) kq.spread = std::atoi(e);  // tests: force the flag
        kq.gbuf = kp.gbuf;
        kq.gstride = kp.gstride;
        kq.ticket = kp.ticket;
        kq.best = kp.best;
        kq.key_bits = kp.key_bits;
    }
    int spread_flag = 0;

    Event e0, e1;
    DPVIZ_TRY(e0.create());
    DPVIZ_TRY(e1.create());
    std::vector<float> fills;
    unsigned long long key = 0;
    if (const auto limit = wait_limit_ns())
        DPVIZ_CUDA_CHECK(cudaMemcpyToSymbolAsync(g_wait_limit_ns, &*limit, sizeof *limit, 0, cudaMemcpyHostToDevice, s));
    for (int rep = 0; rep < std::max(1, opt.repeats); ++rep) {
        kp.epoch = uint32_t(rep + 1);  // a new tag space per fill (< 2^16 fills per buffer)
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ctrl.get(), 0, d_ctrl.bytes(), s));
        DPVIZ_CUDA_CHECK(cudaEventRecord(e0.get(), s));
        DPVIZ_LAUNCH_FAULT_POINT("pair_score");
        if (lanes16) {
            kq.epoch = kp.epoch;
            fill16<<<grid, threads, 0, s>>>(kq);
        } else if (picture) kernel_of<kPictureOut>(dpx, form)<<<grid, kWarps * 32, smem, s>>>(kp);
        else if (lines) kernel_of<kStoreOut>(dpx, form)<<<grid, kWarps * 32, smem, s>>>(kp);
        else if (serial) serial_kernel_of(dpx, form, serial_r)<<<grid, threads, 0, s>>>(static_cast<const Params&>(kp));
        else kernel_of<kScoreOut>(dpx, form)<<<grid, kWarps * 32, smem, s>>>(static_cast<const Params&>(kp));
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        DPVIZ_CUDA_CHECK(cudaEventRecord(e1.get(), s));
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(&key, kp.best, sizeof key, cudaMemcpyDeviceToHost, s));
        if (lanes16) DPVIZ_CUDA_CHECK(cudaMemcpyAsync(&spread_flag, kp.ticket + 1, sizeof spread_flag, cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        float ms = 0;
        DPVIZ_CUDA_CHECK(cudaEventElapsedTime(&ms, e0.get(), e1.get()));
        if (spread_flag != 0) {
            *flagged = true;
            return PairScoreRun{std::nullopt, ms};
        }
        fills.push_back(ms);
        if (rep + 1 >= (1 << 16)) break;
    }
    std::sort(fills.begin(), fills.end());

    DpResult r;
    r.algo = p.algo;
    r.level = OutputLevel::score;
    r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
    r.cells = int64_t(M) * N;
    r.fill_ms = fills[fills.size() / 2];
    // r.shape stays empty: the teaching views' band schedule is not this kernel's.
    if (sc->dtw) {  // key: D(M, N)
        r.score = int32_t(key);
        r.end = {M, N};
    } else if (sc->corner) {  // key: H'(M, N) << kScale in its low 32 bits (>= 0 but in the affine form)
        r.score = int32_t(corner_score(*sc, int64_t(int32_t(uint32_t(key)) >> kScale), M, N));
        r.end = {M, N};
    } else if (key == 0) {  // no cell above 0: the reference ends at (0, 0) with score 0
        r.score = 0;
        r.end = {0, 0};
    } else {
        const unsigned long long mask = (1ull << kp.key_bits) - 1;
        const unsigned long long index = mask - (key & mask);
        const int64_t best = int64_t(key >> kp.key_bits);
        const int32_t hi = *largest_score(*sc, c);
        const int64_t limit = score_limit(*sc, M, N);
        if (worst_score(*sc, hi, M, N) > limit && !proves_range(best, limit, hi))
            return PairScoreRun{std::nullopt, r.fill_ms};
        r.score = int32_t(best);
        r.end = {int32_t(index / uint64_t(N + 1)), int32_t(index % uint64_t(N + 1))};
    }
    if (r.end.i < 0 || r.end.i > M || r.end.j < 0 || r.end.j > N)
        return device_error("internal: the one-pair score kernel reported an end cell outside the matrix");
    if (lines) {  // the caller traces over them (run_gpu's store)
        auto source = std::make_shared<DeviceLines>();
        source->tagged_rows = false;
        source->row_h = std::move(d_row_h);
        source->row_f = std::move(d_row_f);
        source->col_h = std::move(d_col_h);
        source->col_e = std::move(d_col_e);
        source->M = M;
        source->N = N;
        source->K = K;
        r.checkpoints = device_checkpoints(std::move(source), p.affine());
        if (picture && opt.copy_back) {  // (a benchmark's fill alone leaves them)
            std::vector<int32_t> t;
            DPVIZ_TRY(download(t, d_ov.get(), size_t(texels), s));
            // The worst value is on the borders, which the host pools, but DTW's: 0 for a local
            // fill and LCS, max(M, N) for edit distance (D(i, j) <= max(i, j)).
            int32_t worst = kPosInf;
            if (sc->dtw) {
                std::vector<int32_t> w;
                DPVIZ_TRY(download(w, d_ov_worst.get(), 1, s));
                worst = w[0];
            }
            r.overview = std::make_shared<Overview>(overview_from_interior(p, B, t, worst));
        }
    } else if (opt.copy_back) {
        finish_result(p, r);
    }
    const double ms = r.fill_ms;
    return PairScoreRun{std::move(r), ms};
}
}  // namespace

Expected<PairScoreRun> run_pair_score(const Problem& p, bool dpx, const GpuRunOptions& opt) {
    bool flagged = false;
    auto r = run_pair_score(p, dpx, opt, -1, &flagged);
    if (!r || !flagged) return r;
    // A 16x2 fill whose range check fired: again in 32 bits (DPVIZ_PAIR_16X2_REFILL=0: an error,
    // for tests that must see the 16x2 fill's own result); its time is the job's too.
    if (const char* e = std::getenv("DPVIZ_PAIR_16X2_REFILL"); e && std::string(e) == "0")
        return device_error("the 16x2 fill's range check fired (a chunk's cells spread past 16 bits) and "
                            "DPVIZ_PAIR_16X2_REFILL=0 refuses the 32-bit refill");
    const double flagged_ms = r->spent_ms;
    bool again_flagged = false;
    auto again = run_pair_score(p, dpx, opt, 0, &again_flagged);
    if (again) {
        again->spent_ms += flagged_ms;
        if (again->result) {
            again->result->fill_ms += flagged_ms;
            again->result->refilled32 = true;
        }
    }
    return again;
}

}  // namespace dpviz::cuda
