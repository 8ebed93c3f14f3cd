// The cell operations of every DP recurrence, written once per algorithm and instantiated with
// an operation policy: HostOps (plain C++), DpxOps (Hopper DPX intrinsics), PortableOps (DPX-free).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
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
// kAlignBias: alignment scores are carried as H + kAlignBias inside a kernel (see PortableOps).

// The scalar policies' types: a value, the direction bits of a cell, a condition.
struct ScalarTypes {
    using V = int32_t;
    using Bits = uint32_t;
    using Mask = bool;
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
    static DPVIZ_HD int32_t addmax_floor(int32_t a, int32_t b, int32_t c, int32_t) { return __viaddmax_s32_relu(a, b, c); }
    static DPVIZ_HD int32_t max3_floor(int32_t a, int32_t b, int32_t c, int32_t) { return __vimax3_s32_relu(a, b, c); }
    static DPVIZ_HD int32_t max_take(int32_t c, int32_t best, bool& take) { return __vibmax_s32(c, best, &take); }
    static DPVIZ_HD int32_t index_min(int32_t a, int32_t b) { return a < b ? a : b; }
    static DPVIZ_HD int32_t index_max(int32_t a, int32_t b) { return a > b ? a : b; }
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
// [SECTION] Direction bits (dpviz::dir values; kept numeric here so this header stands alone)
// ---------------------------------------------------------------------------------------------
inline constexpr uint32_t kDiag = 1, kUp = 2, kLeft = 4, kZero = 8;
inline constexpr uint32_t kEOpen = 16, kEExtend = 32, kFOpen = 64, kFExtend = 128;

template <class Ops>
using value_t = typename Ops::V;  // the parameters' type: never deduced, so any integer argument converts

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
template <class Ops, bool kLocal, bool kDirs>
DPVIZ_HD value_t<Ops> align_linear(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> s,
                                   value_t<Ops> g, value_t<Ops> floor, typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    if constexpr (!kDirs) {
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
    const V d = diag + s;
    if constexpr (!kDirs) {
        e = Ops::addmax(eleft, -ext, hleft - open);
        f = Ops::addmax(fup, -ext, hup - open);
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
        return Ops::addmin(up, one, Ops::addmin(diag, mismatch, left + one));
    } else {
        const V d = diag + mismatch, u = up + one, l = left + one;
        const V h = Ops::min3(d, u, l);
        bits = eq_bits<Ops>(h, d, u, l);
        return h;
    }
}

// LCS: L = max(diag + match_gain, up, left); match_gain is 1 on a match and a large negative
// number otherwise (the reference's "no diagonal candidate").
template <class Ops, bool kDirs>
DPVIZ_HD value_t<Ops> lcs(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> gain,
                          typename Ops::Bits& bits) {
    using V = value_t<Ops>;
    if constexpr (!kDirs) {
        return Ops::addmax(diag, gain, Ops::max2(up, left));
    } else {
        const V d = diag + gain;
        const V h = Ops::max3(d, up, left);
        bits = eq_bits<Ops>(h, d, up, left);
        return h;
    }
}

// DTW: D = cost + min(diag, up, left); unreachable (kPosInf) stays unreachable and outside the
// band nothing is reachable. pos_inf is dpviz::kPosInf.
template <class Ops, bool kDirs>
DPVIZ_HD value_t<Ops> dtw(value_t<Ops> diag, value_t<Ops> up, value_t<Ops> left, value_t<Ops> cost,
                          typename Ops::Mask in_band, value_t<Ops> pos_inf, typename Ops::Bits& bits) {
    using V = value_t<Ops>;
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
