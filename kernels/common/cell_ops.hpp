// The cell operations of every DP recurrence, written once per algorithm and instantiated with
// an operation policy: HostOps (plain C++), DpxOps (Hopper DPX intrinsics), PortableOps (DPX-free).
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define DPVIZ_HD __host__ __device__ __forceinline__
#else
#define DPVIZ_HD inline
#endif

namespace dpviz::cell {

// ---------------------------------------------------------------------------------------------
// [SECTION] Operation policies
// ---------------------------------------------------------------------------------------------
// Every policy offers the same primitives; a recurrence below calls only these, so the DPX and
// the DPX-free kernels compute the same expression tree and differ only in how it is executed.
//   max2(a,b)  max3(a,b,c)  addmax(a,b,c) = max(a+b, c)  addmax_floor(a,b,c,fl) = max(a+b, c, fl)
//   max3_floor(a,b,c,fl) = max(a,b,c,fl)  and the min forms min2, min3, addmin(a,b,c) = min(a+b, c);
//   max_take(c,best,take) = max(c, best) with take = (c >= best): a running maximum that knows
//   whether the newest candidate won (Viterbi's backpointer).
//   addmin_chained(a,b,c) = addmin(a,b,c) where c is another addmin's result (Portable16x2Ops
//   runs the two in different modes).
//   ImadDpxOps alone: add(a,b) = a + b as an IMAD that ptxas does not fuse (imad_adds).
// kAlignBias: alignment scores are carried as H + kAlignBias inside a kernel (see PortableOps).

// The scalar policies' types: a value, the direction bits of a cell, a condition. A kernel keeps
// its values in 32-bit registers ("words"); lift and lower convert a word to the policy's value
// and back (the identity here; two 16-bit lanes for the 16x2 policies below), splat makes the
// word of one value in every lane.
struct ScalarTypes {
    using V = int32_t;
    using Bits = uint32_t;
    using Mask = bool;
    static constexpr int kLanes = 1;
    static DPVIZ_HD V lift(int32_t w) { return w; }
    static DPVIZ_HD int32_t lower(V v) { return v; }
    static constexpr DPVIZ_HD int32_t splat(int32_t x) { return x; }
    template <int kShift>
    static DPVIZ_HD Bits bit(bool c) { return Bits(c) << kShift; }
    template <class T>
    static DPVIZ_HD T select(bool c, T a, T b) { return c ? a : b; }
};

struct HostOps : ScalarTypes {
    static constexpr bool kDpx = false;
    static constexpr int32_t kAlignBias = 0;
    static DPVIZ_HD int32_t max2(int32_t a, int32_t b) { return a > b ? a : b; }
    static DPVIZ_HD int32_t min2(int32_t a, int32_t b) { return a < b ? a : b; }
    static DPVIZ_HD int32_t max3(int32_t a, int32_t b, int32_t c) { return max2(max2(a, b), c); }
    static DPVIZ_HD int32_t min3(int32_t a, int32_t b, int32_t c) { return min2(min2(a, b), c); }
    static DPVIZ_HD int32_t addmax(int32_t a, int32_t b, int32_t c) { return max2(a + b, c); }
    static DPVIZ_HD int32_t addmin(int32_t a, int32_t b, int32_t c) { return min2(a + b, c); }
    static DPVIZ_HD int32_t addmin_chained(int32_t a, int32_t b, int32_t c) { return addmin(a, b, c); }
    static DPVIZ_HD int32_t addmax_floor(int32_t a, int32_t b, int32_t c, int32_t fl) { return max2(max2(a + b, c), fl); }
    static DPVIZ_HD int32_t max3_floor(int32_t a, int32_t b, int32_t c, int32_t fl) { return max2(max3(a, b, c), fl); }
    static DPVIZ_HD int32_t max_take(int32_t c, int32_t best, bool& take) {
        take = c >= best;
        return take ? c : best;
    }
    static DPVIZ_HD int32_t index_min(int32_t a, int32_t b) { return a < b ? a : b; }
    static DPVIZ_HD int32_t index_max(int32_t a, int32_t b) { return a > b ? a : b; }
};

#if defined(__CUDACC__)
// Hopper DPX: VIADDMNMX, VIMNMX3 and their .RELU forms (floor 0, so kAlignBias is 0).
struct DpxOps : ScalarTypes {
    static constexpr bool kDpx = true;
    static constexpr int32_t kAlignBias = 0;
    // Two-input integer max/min is plain VIMNMX on sm_90 (no DPX form needed).
    static DPVIZ_HD int32_t max2(int32_t a, int32_t b) { return a > b ? a : b; }
    static DPVIZ_HD int32_t min2(int32_t a, int32_t b) { return a < b ? a : b; }
    static DPVIZ_HD int32_t max3(int32_t a, int32_t b, int32_t c) { return __vimax3_s32(a, b, c); }
    static DPVIZ_HD int32_t min3(int32_t a, int32_t b, int32_t c) { return __vimin3_s32(a, b, c); }
    static DPVIZ_HD int32_t addmax(int32_t a, int32_t b, int32_t c) { return __viaddmax_s32(a, b, c); }
    static DPVIZ_HD int32_t addmin(int32_t a, int32_t b, int32_t c) { return __viaddmin_s32(a, b, c); }
    static DPVIZ_HD int32_t addmin_chained(int32_t a, int32_t b, int32_t c) { return addmin(a, b, c); }
    static DPVIZ_HD int32_t addmax_floor(int32_t a, int32_t b, int32_t c, int32_t) { return __viaddmax_s32_relu(a, b, c); }
    static DPVIZ_HD int32_t max3_floor(int32_t a, int32_t b, int32_t c, int32_t) { return __vimax3_s32_relu(a, b, c); }
    static DPVIZ_HD int32_t max_take(int32_t c, int32_t best, bool& take) { return __vibmax_s32(c, best, &take); }
    static DPVIZ_HD int32_t index_min(int32_t a, int32_t b) { return a < b ? a : b; }
    static DPVIZ_HD int32_t index_max(int32_t a, int32_t b) { return a > b ? a : b; }
};

// DpxOps whose recurrences add a candidate's term with IMAD (a * 1 + b, the 1 read from constant
// memory, which ptxas cannot see through) before a three-input maximum: VIMNMX3 on the ALU pipe
// and the add on the FMA pipe, where ptxas left alone fuses the add into VIADDMNMX and needs a
// second maximum, both on the ALU pipe, which DPX instructions share with IADD3 (kImadAdds,
// imad_adds below). For a kernel whose cells wait on the ALU pipe rather than on a chain: the
// one-pair kernel (cuda/pair_score.cu). A constant of each translation unit that includes this.
static __constant__ int32_t kImadOne = 1;
struct ImadDpxOps : DpxOps {
    static constexpr bool kImadAdds = true;
    static __device__ __forceinline__ int32_t add(int32_t a, int32_t b) {
        int32_t r;
        asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(kImadOne), "r"(b));
        return r;
    }
};

// DPX-free: what a pre-Hopper GPU executes (one add and one two-input max per operation), kept
// that way on sm_90. ptxas for sm_90 fuses integer add+max and max+max into VIADDMNMX/VIMNMX3 by
// itself, at every optimisation level above -O0, whatever the source or inline PTX says. It has
// no fused form for a float max, so the maxima run as FMNMX on the scores' bit patterns: IEEE
// order equals integer order for non-negative int32 below 0x7f800000, and a negative int32 (a
// negative float or a NaN) always loses to a non-negative one. Every kernel keeps its compared
// values in that range: alignment scores carry kAlignBias = 2^30 (|H| < 2^29, E/F >= -2^30 - ext
// only ever meet a non-negative rival), edit/LCS/DTW values are >= 0 already (LCS's "no match"
// diagonal is negative and always loses). Same count of ALU instructions per cell as the sm_80
// build of the integer source (docs/gpu.md has the SASS).
struct PortableOps : ScalarTypes {
    static constexpr bool kDpx = false;
    static constexpr int32_t kAlignBias = 1 << 30;
    static __device__ __forceinline__ int32_t max2(int32_t a, int32_t b) {
        return __float_as_int(fmaxf(__int_as_float(a), __int_as_float(b)));
    }
    static __device__ __forceinline__ int32_t min2(int32_t a, int32_t b) {
        return __float_as_int(fminf(__int_as_float(a), __int_as_float(b)));
    }
    static __device__ __forceinline__ int32_t max3(int32_t a, int32_t b, int32_t c) { return max2(max2(a, b), c); }
    static __device__ __forceinline__ int32_t min3(int32_t a, int32_t b, int32_t c) { return min2(min2(a, b), c); }
    static __device__ __forceinline__ int32_t addmax(int32_t a, int32_t b, int32_t c) { return max2(a + b, c); }
    static __device__ __forceinline__ int32_t addmin(int32_t a, int32_t b, int32_t c) { return min2(a + b, c); }
    static __device__ __forceinline__ int32_t addmin_chained(int32_t a, int32_t b, int32_t c) { return addmin(a, b, c); }
    static __device__ __forceinline__ int32_t addmax_floor(int32_t a, int32_t b, int32_t c, int32_t fl) {
        return max2(max2(a + b, c), fl);
    }
    static __device__ __forceinline__ int32_t max3_floor(int32_t a, int32_t b, int32_t c, int32_t fl) {
        return max2(max3(a, b, c), fl);
    }
    // The comparison on the float images too (FSETP + SEL), so ptxas sees no integer max to fuse.
    static __device__ __forceinline__ int32_t max_take(int32_t c, int32_t best, bool& take) {
        take = __int_as_float(c) >= __int_as_float(best);
        return take ? c : best;
    }
    // Clamps of a kernel's indices and counts (|a|, |b| < 2^29): an integer min(i + c, M) is
    // fused into VIADDMNMX too, so they run as FMNMX on the values biased by 2^30 (normal
    // positive floats).
    static constexpr int32_t kIndexBias = 1 << 30;
    static __device__ __forceinline__ int32_t index_min(int32_t a, int32_t b) {
        return min2(a + kIndexBias, b + kIndexBias) - kIndexBias;
    }
    static __device__ __forceinline__ int32_t index_max(int32_t a, int32_t b) {
        return max2(a + kIndexBias, b + kIndexBias) - kIndexBias;
    }
};
#endif

// ---------------------------------------------------------------------------------------------
// [SECTION] 16x2 policies: two pairs in one 32-bit word
// ---------------------------------------------------------------------------------------------
// The batch kernels run two pairs of one shape in the two 16-bit lanes of each word when their
// scores provably fit (cuda/batch_pack.hpp, lanes16_fit). Same recurrences, same expression
// tree; a lane of a word is one pair's cell.
//   Dpx16x2Ops: Hopper's 16x2 DPX intrinsics on words whose lanes are two's complement 16-bit
//     values (kBias 0, so the floor is .RELU's 0); ptxas makes VIADDMNMX.S16x2 and
//     VIMNMX.S16x2 (.RELU) of them.
//   Portable16x2Ops: what a pre-Hopper GPU executes. A word is the integer lo + 65536 * hi of
//     two lanes kept in [kLow16, kHigh16] + kBias16 by the bias: a plain 32-bit add or subtract of two
//     words is then the two lanes' adds (neither lane leaves [0, 65535], so nothing carries
//     across), and lanes below 0x7C00 order like the half floats of their bit patterns, so the
//     maxima are HMNMX2 (no integer max for ptxas to fuse into DPX; the sm_80 build of this
//     source executes the same instructions).
// Both keep every value of a real cell in [kLow16, kHigh16] (lanes16_fit's bounds), so the two
// kernels compute the same values. Cells past column N or row M compute garbage that no real
// cell reads; in Portable16x2Ops it stays below 65536, so it never carries into the other lane.
inline constexpr int32_t kBias16 = 4096;       // Portable16x2Ops' bias of a lane
inline constexpr int32_t kNegInf16 = -2048;    // a lane's "no value" (E, F before the first gap)
inline constexpr int32_t kLow16 = -3072;       // the lowest value of a real cell's lane
inline constexpr int32_t kHigh16 = 27600;      // the highest value of a real cell's lane
inline constexpr int32_t kProfileBias16 = 1024;  // added to the profile's scores in Portable16x2Ops

#if defined(__CUDACC__)
// The word of x in both lanes: two 16-bit two's complement lanes (kNative) or the integer
// x + 65536 * x.
template <bool kNative>
constexpr DPVIZ_HD int32_t splat16(int32_t x) {
    if constexpr (kNative) return int32_t((uint32_t(x) & 0xffffu) | (uint32_t(x) << 16));
    else return int32_t(uint32_t(x) * 0x10001u);
}

// A word of two 16-bit lanes; arithmetic on it is per lane (kNative: the 16x2 adds of sm_90,
// else plain 32-bit adds of the lo + 65536 * hi form). A scalar converts by splatting.
template <bool kNative>
struct Lanes16 {
    uint32_t w = 0;
    Lanes16() = default;
    __device__ __forceinline__ Lanes16(int32_t x) : w(uint32_t(splat16<kNative>(x))) {}
    static __device__ __forceinline__ Lanes16 word(uint32_t u) {
        Lanes16 v;
        v.w = u;
        return v;
    }
    friend __device__ __forceinline__ Lanes16 operator+(Lanes16 a, Lanes16 b) {
        if constexpr (kNative) return word(__vadd2(a.w, b.w));
        else return word(a.w + b.w);
    }
    friend __device__ __forceinline__ Lanes16 operator-(Lanes16 a, Lanes16 b) {
        if constexpr (kNative) return word(__vsub2(a.w, b.w));
        else return word(a.w - b.w);
    }
    __device__ __forceinline__ Lanes16 operator-() const { return Lanes16(0) - *this; }
};

template <bool kNative>
struct Lanes16Types {
    using Bits = uint32_t;
    using Mask = bool;
    static constexpr int kLanes = 2;
    static constexpr DPVIZ_HD int32_t splat(int32_t x) { return splat16<kNative>(x); }
};

struct Dpx16x2Ops : Lanes16Types<true> {
    using V = Lanes16<true>;
    static constexpr bool kDpx = true;
    static constexpr int32_t kAlignBias = 0;
    static constexpr int32_t kProfileBias = 0;
    static __device__ __forceinline__ V lift(int32_t w) { return V::word(uint32_t(w)); }
    static __device__ __forceinline__ int32_t lower(V v) { return int32_t(v.w); }
    // Lane k of a word, as a plain integer.
    static __device__ __forceinline__ int32_t lane(int32_t w, int k) { return int16_t(uint32_t(w) >> (16 * k)); }
    static __device__ __forceinline__ V max2(V a, V b) { return V::word(__vmaxs2(a.w, b.w)); }
    static __device__ __forceinline__ V min2(V a, V b) { return V::word(__vmins2(a.w, b.w)); }
    static __device__ __forceinline__ V max3(V a, V b, V c) { return V::word(__vimax3_s16x2(a.w, b.w, c.w)); }
    static __device__ __forceinline__ V min3(V a, V b, V c) { return V::word(__vimin3_s16x2(a.w, b.w, c.w)); }
    static __device__ __forceinline__ V addmax(V a, V b, V c) { return V::word(__viaddmax_s16x2(a.w, b.w, c.w)); }
    static __device__ __forceinline__ V addmin(V a, V b, V c) { return V::word(__viaddmin_s16x2(a.w, b.w, c.w)); }
    static __device__ __forceinline__ V addmin_chained(V a, V b, V c) { return addmin(a, b, c); }
    static __device__ __forceinline__ V addmax_floor(V a, V b, V c, V) {
        return V::word(__viaddmax_s16x2_relu(a.w, b.w, c.w));
    }
    static __device__ __forceinline__ V max3_floor(V a, V b, V c, V) {
        return V::word(__vimax3_s16x2_relu(a.w, b.w, c.w));
    }
    // best = max(best, v) lane by lane; a lane where v is greater takes column j (j_lo: lane 0).
    template <bool kSecond = false>
    static __device__ __forceinline__ void keep_max(int32_t& best, int32_t v, int32_t j, int32_t& j_lo, int32_t& j_hi) {
        bool keep_hi, keep_lo;
        best = int32_t(__vibmax_s16x2(uint32_t(best), uint32_t(v), &keep_hi, &keep_lo));
        j_lo = keep_lo ? j_lo : j;
        j_hi = keep_hi ? j_hi : j;
    }
    static __device__ __forceinline__ int32_t index_min(int32_t a, int32_t b) { return a < b ? a : b; }
    static __device__ __forceinline__ int32_t index_max(int32_t a, int32_t b) { return a > b ? a : b; }
};

// The maxima and minima run as HMNMX2 in four modes: the lanes' bit patterns read as half or as
// bfloat16 pairs (both order like the lanes: positive, finite, normal), each with or without
// .NaN. ptxas for sm_90 fuses two chained HMNMX2 of one mode into VHMNMX, a
// three-input form only sm_90 has (sm_80 to sm_89 have none); it does not fuse two of different
// modes. So every chain of two minima or maxima that a recurrence here makes changes mode
// (no real cell of a pair that fits is ever NaN; a local pair past the range may be, and its
// floor maximum turns it back into a number, so its row maxima still see the overflow):
//   addmax, addmin                     F            (its result may feed a B, N or NB)
//   addmax_floor(a, b, c, fl)          N(B(a + b, c), fl)
//   max3(a, b, c), max3_floor          N(B(a, b), c), then B(..., fl)
//   addmin_chained (edit's outer one)  B            (its inner one is an addmin)
//   keep_max                           F for a step's first column, NB for its second
// F = half, B = bfloat16, N = half .NaN, NB = bfloat16 .NaN. The sm_80 build of this source
// executes the same HMNMX2, one per minimum or maximum.
struct Portable16x2Ops : Lanes16Types<false> {
    using V = Lanes16<false>;
    static constexpr bool kDpx = false;
    static constexpr int32_t kAlignBias = splat16<false>(kBias16);
    static constexpr int32_t kProfileBias = kProfileBias16;
    enum class Mode { F, B, N, NB };
    static __device__ __forceinline__ V lift(int32_t w) { return V::word(uint32_t(w)); }
    static __device__ __forceinline__ int32_t lower(V v) { return int32_t(v.w); }
    static __device__ __forceinline__ int32_t lane(int32_t w, int k) { return int32_t((uint32_t(w) >> (16 * k)) & 0xffffu); }
    template <class T>
    static __device__ __forceinline__ T as(uint32_t u) {
        T t;
        __builtin_memcpy(&t, &u, sizeof t);
        return t;
    }
    template <class T>
    static __device__ __forceinline__ V word_of(T t) {
        uint32_t u;
        __builtin_memcpy(&u, &t, sizeof u);
        return V::word(u);
    }
    // The maximum (kMax) or minimum of a and b, lane by lane, in mode kMode.
    template <bool kMax, bool kNan, class T>
    static __device__ __forceinline__ T extreme_of(T a, T b) {
        if constexpr (kMax && kNan) return __hmax2_nan(a, b);
        else if constexpr (kMax) return __hmax2(a, b);
        else if constexpr (kNan) return __hmin2_nan(a, b);
        else return __hmin2(a, b);
    }
    template <Mode kMode, bool kMax>
    static __device__ __forceinline__ V extreme(V a, V b) {
        constexpr bool kNan = kMode == Mode::N || kMode == Mode::NB;
        using T = std::conditional_t<kMode == Mode::B || kMode == Mode::NB, __nv_bfloat162, __half2>;
        return word_of(extreme_of<kMax, kNan>(as<T>(a.w), as<T>(b.w)));
    }
    template <Mode kMode>
    static __device__ __forceinline__ V max_in(V a, V b) { return extreme<kMode, true>(a, b); }
    template <Mode kMode>
    static __device__ __forceinline__ V min_in(V a, V b) { return extreme<kMode, false>(a, b); }
    static __device__ __forceinline__ V max2(V a, V b) { return max_in<Mode::F>(a, b); }
    static __device__ __forceinline__ V min2(V a, V b) { return min_in<Mode::F>(a, b); }
    static __device__ __forceinline__ V max3(V a, V b, V c) { return max_in<Mode::N>(max_in<Mode::B>(a, b), c); }
    static __device__ __forceinline__ V min3(V a, V b, V c) { return min_in<Mode::N>(min_in<Mode::B>(a, b), c); }
    static __device__ __forceinline__ V addmax(V a, V b, V c) { return max_in<Mode::F>(a + b, c); }
    static __device__ __forceinline__ V addmin(V a, V b, V c) { return min_in<Mode::F>(a + b, c); }
    static __device__ __forceinline__ V addmin_chained(V a, V b, V c) { return min_in<Mode::B>(a + b, c); }
    static __device__ __forceinline__ V addmax_floor(V a, V b, V c, V fl) {
        return max_in<Mode::N>(max_in<Mode::B>(a + b, c), fl);
    }
    static __device__ __forceinline__ V max3_floor(V a, V b, V c, V fl) { return max_in<Mode::B>(max3(a, b, c), fl); }
    // keep_max as Dpx16x2Ops's: one HMNMX2 (kSecond: a step's second column, another mode) and
    // one HSETP2 for both lanes' comparisons.
    template <bool kSecond = false>
    static __device__ __forceinline__ void keep_max(int32_t& best, int32_t v, int32_t j, int32_t& j_lo, int32_t& j_hi) {
        const int32_t m = lower(max_in<kSecond ? Mode::NB : Mode::F>(lift(best), lift(v)));
        asm("{\n\t.reg .pred lo, hi;\n\tsetp.ge.f16x2 lo|hi, %2, %3;\n\tselp.b32 %0, %0, %4, lo;\n\tselp.b32 %1, %1, %4, hi;\n\t}"
            : "+r"(j_lo), "+r"(j_hi)
            : "r"(best), "r"(v), "r"(j));
        best = m;
    }
    static __device__ __forceinline__ int32_t index_min(int32_t a, int32_t b) { return PortableOps::index_min(a, b); }
    static __device__ __forceinline__ int32_t index_max(int32_t a, int32_t b) { return PortableOps::index_max(a, b); }
};
#endif

// ---------------------------------------------------------------------------------------------
// [SECTION] Direction bits (dpviz::dir values; kept numeric here so this header stands alone)
// ---------------------------------------------------------------------------------------------
inline constexpr uint32_t kDiag = 1, kUp = 2, kLeft = 4, kZero = 8;
inline constexpr uint32_t kEOpen = 16, kEExtend = 32, kFOpen = 64, kFExtend = 128;

template <class Ops>
using value_t = typename Ops::V;  // the parameters' type: never deduced, so any integer argument converts

// Whether Ops adds a candidate's term with Ops::add before a three-input maximum (ImadDpxOps).
template <class Ops, class = void>
struct imad_adds : std::false_type {};
template <class Ops>
struct imad_adds<Ops, std::void_t<decltype(Ops::kImadAdds)>> : std::bool_constant<Ops::kImadAdds> {};
// A candidate's term a + b (term_less: a - b): Ops::add for such a policy, the plain add (or
// subtraction: a 16x2 word's is one instruction, its negation another) for every other.
template <class Ops>
DPVIZ_HD value_t<Ops> term(value_t<Ops> a, value_t<Ops> b) {
    if constexpr (imad_adds<Ops>::value) return Ops::add(a, b);
    else return a + b;
}
template <class Ops>
DPVIZ_HD value_t<Ops> term_less(value_t<Ops> a, value_t<Ops> b) {
    if constexpr (imad_adds<Ops>::value) return Ops::add(a, -b);
    else return a - b;
}

// The bits of the candidates equal to the winner: diag (bit 0), up (1), left (2).
template <class Ops>
DPVIZ_HD typename Ops::Bits eq_bits(value_t<Ops> best, value_t<Ops> diag, value_t<Ops> up,
                                    value_t<Ops> left) {
    return Ops::template bit<0>(diag == best) | Ops::template bit<1>(up == best) | Ops::template bit<2>(left == best);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Recurrences (one function per algorithm; kLocal adds the floor and the zero bit)
// ---------------------------------------------------------------------------------------------
// Written over the policy's value type V (int32_t for HostOps, DpxOps and PortableOps; a GCC
// vector of int32 lanes for the CPU backend's WavefrontOps, cpu/wavefront_kernel.inl) and its
// bit type, so every backend computes the same expression tree.

// Alignment, linear gaps: H = max(diag + s, up - g, left - g [, floor]).
// kUpChain: `up` is the step's chain (cuda/pair_score.cu's row-serial fill, whose lane computes
// its rows one after the other), compared last in one addmax. The left term's add goes through
// term(): a plain left - g is the same expression as the chain's up - g of the row below one
// step earlier, and ptxas would share the two, putting an add and a max on the chain.
template <class Ops, bool kLocal, bool kDirs, bool kUpChain = false>
DPVIZ_HD value_t<Ops> align_linear(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> s,
                                   value_t<Ops> g, value_t<Ops> floor, typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    if constexpr (!kDirs && kUpChain) {
        V t;
        if constexpr (kLocal) t = Ops::addmax_floor(diag, s, term<Ops>(left, -g), floor);
        else t = Ops::addmax(diag, s, term<Ops>(left, -g));
        return Ops::addmax(up, -g, t);
    } else if constexpr (!kDirs && imad_adds<Ops>::value) {  // the same maximum, its adds as IMAD
        const V d = term<Ops>(diag, s), u = term<Ops>(up, -g), l = term<Ops>(left, -g);
        if constexpr (kLocal) return Ops::max3_floor(d, u, l, floor);
        else return Ops::max3(d, u, l);
    } else if constexpr (!kDirs) {
        const V t = Ops::addmax(left, -g, diag + s);
        if constexpr (kLocal) return Ops::addmax_floor(up, -g, t, floor);
        else return Ops::addmax(up, -g, t);
    } else {
        const V d = diag + s, u = up - g, l = left - g;
        V h;
        if constexpr (kLocal) h = Ops::max3_floor(d, u, l, floor);
        else h = Ops::max3(d, u, l);
        bits = eq_bits<Ops>(h, d, u, l);
        if constexpr (kLocal) bits |= Ops::template bit<3>(h == floor);
        return h;
    }
}

// Alignment, affine gaps (Gotoh): E from the left, F from above, H = max(diag + s, E, F [, floor]).
template <class Ops, bool kLocal, bool kDirs>
DPVIZ_HD value_t<Ops> align_affine(value_t<Ops> diag, value_t<Ops> hup, value_t<Ops> fup, value_t<Ops> hleft,
                                   value_t<Ops> eleft, value_t<Ops> s, value_t<Ops> open, value_t<Ops> ext,
                                   value_t<Ops> floor, value_t<Ops>& e, value_t<Ops>& f, typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    const V d = term<Ops>(diag, s);
    if constexpr (!kDirs) {
        e = Ops::addmax(eleft, -ext, term_less<Ops>(hleft, open));
        f = Ops::addmax(fup, -ext, term_less<Ops>(hup, open));
        if constexpr (kLocal) return Ops::max3_floor(d, e, f, floor);
        else return Ops::max3(d, e, f);
    } else {
        const V eo = hleft - open, ee = eleft - ext, fo = hup - open, fe = fup - ext;
        e = Ops::max2(eo, ee);
        f = Ops::max2(fo, fe);
        V h;
        if constexpr (kLocal) h = Ops::max3_floor(d, e, f, floor);
        else h = Ops::max3(d, e, f);
        bits = eq_bits<Ops>(h, d, f, e) | Ops::template bit<4>(eo == e) | Ops::template bit<5>(ee == e) |
               Ops::template bit<6>(fo == f) | Ops::template bit<7>(fe == f);
        if constexpr (kLocal) bits |= Ops::template bit<3>(h == floor);
        return h;
    }
}

// Levenshtein: D = min(diag + mismatch, up + 1, left + 1).
template <class Ops, bool kDirs>
DPVIZ_HD value_t<Ops> edit(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> mismatch,
                           typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    const V one = V{} + 1;
    if constexpr (!kDirs) {
        // `up` last: a lane computes the cell below right after this one, so `up` is its newest
        // input; one addmin between the two (edit score fills 9 % faster on an H200, both forms).
        return Ops::addmin_chained(up, one, Ops::addmin(diag, mismatch, left + one));
    } else {
        const V d = diag + mismatch, u = up + one, l = left + one;
        const V h = Ops::min3(d, u, l);
        bits = eq_bits<Ops>(h, d, u, l);
        return h;
    }
}

// LCS: L = max(diag + match_gain, up, left); match_gain is 1 on a match and a large negative
// number otherwise (the reference's "no diagonal candidate"; 0 gives the same L, as L never
// falls along a row or a column: the one-pair kernel's corner form passes its s' here).
// kLeftLast: for a kernel whose lane sweeps along a row (that corner form, cuda/pair_score.cu),
// `left` is the step's chain and is compared last (the DPX fill 4-7 % faster on an H200 than
// left first).
template <class Ops, bool kDirs, bool kLeftLast = false>
DPVIZ_HD value_t<Ops> lcs(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> gain,
                          typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    if constexpr (!kDirs && imad_adds<Ops>::value) {
        return Ops::max3(term<Ops>(diag, gain), up, left);  // the same maximum, its add as IMAD
    } else if constexpr (!kDirs) {
        if constexpr (kLeftLast) return Ops::max2(Ops::addmax(diag, gain, up), left);
        return Ops::addmax(diag, gain, Ops::max2(up, left));
    } else {
        const V d = diag + gain;
        const V h = Ops::max3(d, up, left);
        bits = eq_bits<Ops>(h, d, up, left);
        return h;
    }
}

// DTW's local cost of a row's and a column's fixed-point values: |a - b|, or (a - b)^2
// (Problem::dtw_local_cost, the reference's).
template <bool kSquared>
DPVIZ_HD int32_t dtw_cost(int32_t a, int32_t b) {
    const int32_t d = a - b;
    if constexpr (kSquared) return d * d;
    else return d < 0 ? -d : d;
}

// DTW: D = cost + min(diag, up, left); unreachable (kPosInf) stays unreachable and outside the
// band nothing is reachable. pos_inf is dpviz::kPosInf.
// kUpChain (a score fill without a band, in_band true): `up` is the step's chain, as
// align_linear's, and meets the rest in one addmin: min(up + cost, min(min(diag, left) + cost,
// pos_inf)), the same value (every D <= pos_inf and cost < 2^29: no sum overflows).
template <class Ops, bool kDirs, bool kUpChain = false>
DPVIZ_HD value_t<Ops> dtw(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> cost,
                          typename Ops::Mask in_band, value_t<Ops> pos_inf, typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    if constexpr (!kDirs && kUpChain) return Ops::addmin(up, cost, Ops::addmin(Ops::min2(diag, left), cost, pos_inf));
    const V m = Ops::min3(diag, up, left);
    const V h = Ops::addmin(m, cost, pos_inf);
    if constexpr (kDirs)
        bits = Ops::select(in_band && m < pos_inf, eq_bits<Ops>(m, diag, up, left), typename Ops::Bits{});
    return Ops::select(in_band, h, pos_inf);
}

// Viterbi (docs/algorithms.md, "Viterbi"), max-plus over log probabilities in fixed point:
//   delta(s, t) = max(max_k(delta(k, t-1) + ln a(k, s)) + ln e(s, x_t), impossible).
// `impossible` is kNegInf (+ Ops::kAlignBias: the DPX-free kernel carries biased values so that
// every compared value is non-negative). Finite path sums stay above -2^29 (make_viterbi_problem
// picks the scale), so a sum with an impossible term is <= kNegInf and loses to every finite
// one, and the outer max turns it back into exactly `impossible`: no absorbing-add branch.
// One predecessor k into the running maximum of state s:
template <class Ops>
DPVIZ_HD int32_t viterbi_candidate(int32_t prev, int32_t trans, int32_t best) { return Ops::addmax(prev, trans, best); }
// The same, keeping the winner: predecessors are visited from the highest index down, so with
// `take` on >= a tie goes to the lowest state. Callers reset `arg` to 0 when best stays impossible.
template <class Ops>
DPVIZ_HD int32_t viterbi_candidate_arg(int32_t prev, int32_t trans, int32_t best, int32_t k, int32_t& arg) {
    bool take;
    const int32_t b = Ops::max_take(prev + trans, best, take);
    arg = take ? k : arg;
    return b;
}
// The cell from its best predecessor and the emission of the observation.
template <class Ops>
DPVIZ_HD int32_t viterbi_cell(int32_t best, int32_t emit, int32_t impossible) { return Ops::addmax(best, emit, impossible); }

}  // namespace dpviz::cell
