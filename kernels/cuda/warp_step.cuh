// What the band kernel (band_kernel.cuh: one long pair) and the batch kernel (batch_kernel.cuh:
// many pairs) share: the algorithm traits of a fill, and one wavefront step of a lane (kRows rows
// x kCols columns), from the row above handed down the warp to the new H, E, F and direction bits.
// The recurrences themselves are cell_ops.hpp's; the borders are dpviz/algorithm.hpp's.
//
// Index of this file
//   [SECTION] Algorithm traits
//   [SECTION] One step of a lane
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cell_ops.hpp"
#include "dpviz/band_shape.hpp"
#include "dpviz/types.hpp"

namespace dpviz::cuda {

// ---------------------------------------------------------------------------------------------
// [SECTION] Algorithm traits
// ---------------------------------------------------------------------------------------------
enum class Kind { align, edit, lcs, dtw };

// kBanded_ = false: DTW without a Sakoe-Chiba band, where no cell of columns 1..N is outside it
// (the per-cell band test and its select go; cells past column N are computed but never read).
// kFreeTop_: alignment whose row 0 is free while column 0 follows the launch (glocal).
template <Kind K, bool kLocal_ = false, bool kAffine_ = false, bool kSquared_ = false, bool kBanded_ = true,
          bool kFreeTop_ = false>
struct Alg {
    static constexpr Kind kKind = K;
    static constexpr bool kLocal = kLocal_;
    static constexpr bool kAffine = kAffine_;
    static constexpr bool kSquared = kSquared_;
    static constexpr bool kBanded = kBanded_;
    static constexpr bool kFreeTop = kFreeTop_;
    static constexpr bool kProfile = K != Kind::dtw;                 // scores from a per-band profile
    static constexpr bool kCapture = K == Kind::align && !kLocal_;   // semi-global, glocal need row M

    // H(0, k) (kTop) or H(k, 0), unbiased: the border rules of dpviz/algorithm.hpp. Alignment's
    // borders are Border::free or, when the launch says so (P::gap_border), Border::gap, spelled
    // out here: this exact form keeps ptxas's register allocation of the band kernels (a bit
    // mask per border, or a call of border_h, costs the DPX-free path kernels up to 9 % on an
    // H200). Glocal's row 0 is free whatever the launch says (kFreeTop).
    template <bool kTop, class P>
    static __device__ __forceinline__ int32_t border(const P& p, int k) {
        if constexpr (K == Kind::align && kTop && kFreeTop_) {
            return 0;
        } else if constexpr (K == Kind::align) {
            return (p.gap_border && k > 0) ? -(p.open + (k - 1) * p.ext) : 0;
        } else {
            constexpr Algorithm a = K == Kind::edit ? Algorithm::edit : K == Kind::lcs ? Algorithm::lcs : Algorithm::dtw;
            return border_h(kTop ? rules_of(a).top : rules_of(a).left, k, 0, 0);
        }
    }
};

// ---------------------------------------------------------------------------------------------
// [SECTION] One step of a lane
// ---------------------------------------------------------------------------------------------
inline constexpr int kStepRows = gpu_band::kRows;
inline constexpr int kStepCols = gpu_band::kCols;

__device__ __forceinline__ long long floor_div(long long a, long long b) {  // b > 0
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// DTW's Sakoe-Chiba band for row i of an M x N matrix (Problem::in_band's rule, band < 0: none):
// the first column `lo` and the span hi - lo; a row with no column gets a first column past N.
__device__ __forceinline__ void dtw_row_band(long long i, long long M, long long N, int band, int& lo_out,
                                             unsigned& span_out) {
    long long lo = 1, hi = N;
    if (band >= 0) {
        const long long bm = (long long)band * M;
        lo = -floor_div(-(i * N - bm), M);  // ceil
        hi = floor_div(i * N + bm, M);
        lo = lo < 1 ? 1 : lo;
        hi = hi > N ? N : hi;
    }
    if (hi < lo) { lo = N + 1000; hi = lo; }
    lo_out = (int)lo;
    span_out = (unsigned)(hi - lo);
}

// The row above this lane's rows for the step's kCols columns (H, and F for affine gaps): lane
// l - 1's bottom row, and for lane 0 the band's row above (`top`, from lane 31), both through the
// one rotation that moves every lane's bottom row one lane down.
template <bool kAffine>
__device__ __forceinline__ void rows_above(const int (&bh)[kStepCols], const int (&bf)[kStepCols], int4 top, int lane,
                                           int (&uh)[kStepCols], int (&uf)[kStepCols]) {
    int sh[kStepCols] = {bh[0], bh[1]}, sf[kStepCols] = {bf[0], bf[1]};
    if (lane == 31) {
        sh[0] = top.x; sh[1] = top.y; sf[0] = top.z; sf[1] = top.w;
    }
    const int src = (lane + 31) & 31;
#pragma unroll
    for (int k = 0; k < kStepCols; ++k) {
        uh[k] = __shfl_sync(0xffffffffu, sh[k], src);
        if constexpr (kAffine) uf[k] = __shfl_sync(0xffffffffu, sf[k], src);
        else uf[k] = 0;
    }
}

// The lane's cells of one step: `w` is the sweep's lane state (h, e: H and E of the last column
// done; diag; q, jlo, jspan: DTW's query values and band per row), uh/uf the rows above,
// scv the profile scores per column, cdv DTW's target values, j0 the first column. `floor` is
// local alignment's 0 (biased). kBandTest: DTW tests each cell against its band. Every int here
// is a word of the policy (Ops::lift makes it a value: the identity but for the 16x2 policies).
template <class A, class Ops, bool kDirs, bool kBandTest, class Lane>
__device__ __forceinline__ void step_cells(const Lane& w, const int (&uh)[kStepCols], const int (&uf)[kStepCols],
                                           const int4 (&scv)[kStepCols], const int (&cdv)[kStepCols], int j0, int open,
                                           int ext, int floor, int (&nh)[kStepRows][kStepCols],
                                           int (&ne)[kStepRows][kStepCols], int (&nf)[kStepRows][kStepCols],
                                           uint32_t (&bits)[kStepRows][kStepCols]) {
    constexpr int kRows = kStepRows, kCols = kStepCols;
    using V = typename Ops::V;
#pragma unroll
    for (int k = 0; k < kCols; ++k) {
        int sc[kRows] = {0, 0, 0, 0};
        if constexpr (A::kProfile) {
            sc[0] = scv[k].x; sc[1] = scv[k].y; sc[2] = scv[k].z; sc[3] = scv[k].w;
        }
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const V up = Ops::lift(r == 0 ? uh[k] : nh[r - 1][k]);
            const V left = Ops::lift(k == 0 ? w.h[r] : nh[r][k - 1]);
            const V dg = Ops::lift(r == 0 ? (k == 0 ? w.diag : uh[k - 1]) : (k == 0 ? w.h[r - 1] : nh[r - 1][k - 1]));
            const V s = Ops::lift(sc[r]);
            uint32_t bb = 0;
            if constexpr (A::kKind == Kind::align) {
                if constexpr (A::kAffine) {
                    const V fup = Ops::lift(r == 0 ? uf[k] : nf[r - 1][k]);
                    const V eleft = Ops::lift(k == 0 ? w.e[r] : ne[r][k - 1]);
                    if constexpr (Ops::kLanes == 1) {  // E and F straight into the step's arrays
                        nh[r][k] = cell::align_affine<Ops, A::kLocal, kDirs>(dg, up, fup, left, eleft, s, open, ext,
                                                                             floor, ne[r][k], nf[r][k], bb);
                    } else {
                        V e, f;
                        nh[r][k] = Ops::lower(cell::align_affine<Ops, A::kLocal, kDirs>(
                            dg, up, fup, left, eleft, s, Ops::lift(open), Ops::lift(ext), Ops::lift(floor), e, f, bb));
                        ne[r][k] = Ops::lower(e);
                        nf[r][k] = Ops::lower(f);
                    }
                } else {
                    nh[r][k] = Ops::lower(
                        cell::align_linear<Ops, A::kLocal, kDirs>(dg, up, left, s, Ops::lift(open), Ops::lift(floor), bb));
                    ne[r][k] = nf[r][k] = 0;
                }
            } else if constexpr (A::kKind == Kind::edit) {
                nh[r][k] = Ops::lower(cell::edit<Ops, kDirs>(dg, up, left, s, bb));
            } else if constexpr (A::kKind == Kind::lcs) {
                nh[r][k] = Ops::lower(cell::lcs<Ops, kDirs>(dg, up, left, s, bb));
            } else {
                const int cost = cell::dtw_cost<A::kSquared>(w.q[r], cdv[k]);
                const bool inb = !kBandTest || (unsigned)(j0 + k - w.jlo[r]) <= w.jspan[r];
                nh[r][k] = Ops::lower(cell::dtw<Ops, kDirs>(dg, up, left, cost, inb, kPosInf, bb));
            }
            bits[r][k] = bb;
        }
    }
}

}  // namespace dpviz::cuda
