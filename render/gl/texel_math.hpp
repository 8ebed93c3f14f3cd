// The texel of a view, written once for both upload paths: the host loop in view_pixels.cpp and
// the CUDA kernel in cuda_interop.cu call these same functions, so their pixels are identical.
#pragma once

#include <cstdint>

#include "dpviz/types.hpp"

#ifdef __CUDACC__
#define DPVIZ_HD __host__ __device__
#else
#define DPVIZ_HD
#endif

namespace dpviz::render::texel {

struct LevelView {
    const int32_t* values = nullptr;  // rows x cols, row-major
    const uint8_t* mask = nullptr;    // same shape, or null
    int32_t rows = 0, cols = 0;
};

struct LutView {
    const uint32_t* rgba = nullptr;
    int64_t entries = 0;
    int32_t lo = 0;
    int64_t span = 1;
    uint32_t unreachable = 0;
    uint32_t mask_tint = 0;
};

struct Request {
    int32_t i0, j0, rows, cols, out_w, out_h;
    int32_t level;
    bool mask;
};

// render::is_unreachable (heatmap.hpp), callable from device code.
DPVIZ_HD inline bool reachable(int32_t v) { return v > kNegInf && v < kPosInf; }
// Pooling key: every unreachable value (kPosInf included) loses to every reachable one.
DPVIZ_HD inline int32_t pool_key(int32_t v) { return reachable(v) ? v : kNegInf; }

// The colour-table slot of a value: 0 when unreachable, else 1 + its table index. The index is a
// clamped floor of a linear map, so the slot never decreases as the value grows: the largest slot
// of a texel's cells is the slot of their largest value, and a level of 16-bit slots (the interop
// writer's, when the table has at most 65,535 entries) pools to the same colours as the values.
DPVIZ_HD inline uint32_t lut_slot(const LutView& lut, int32_t v) {
    if (!reachable(v)) return 0;
    const int64_t d = int64_t(v) - lut.lo;
    int64_t k = lut.entries == lut.span + 1 ? d : d * (lut.entries - 1) / lut.span;
    k = k < 0 ? 0 : (k >= lut.entries ? lut.entries - 1 : k);
    return uint32_t(k) + 1;
}

DPVIZ_HD inline uint32_t slot_color(const LutView& lut, uint32_t slot) {
    return slot == 0 ? lut.unreachable : lut.rgba[slot - 1];
}

DPVIZ_HD inline uint32_t lut_color(const LutView& lut, int32_t v) { return slot_color(lut, lut_slot(lut, v)); }

DPVIZ_HD inline uint32_t blend_half(uint32_t a, uint32_t b) {
    return ((a & 0xfefefefeu) >> 1) + ((b & 0xfefefefeu) >> 1) + (a & b & 0x01010101u);
}

// floor(k * count / n) for k, count >= 0 and n > 0. A 64-bit division is ~20x the instructions
// of a 32-bit one on the GPU (four per texel): the exact 32-bit one whenever the product fits.
DPVIZ_HD inline int32_t scaled_index(int32_t k, int32_t count, int32_t n) {
    const int64_t p = int64_t(k) * count;
    return p <= 0xffffffffLL ? int32_t(uint32_t(p) / uint32_t(n)) : int32_t(p / n);
}

// Texel k of n covering `count` cells from `first`: level-0 cells [b, e), never empty.
DPVIZ_HD inline void texel_span(int32_t first, int32_t count, int32_t n, int32_t k, int32_t& b, int32_t& e) {
    b = first + scaled_index(k, count, n);
    e = first + scaled_index(k + 1, count, n);
    if (e <= b) e = b + 1;
}

// The cells of pyramid level `level` under texel k of n along one axis (rows or columns, the
// request's `first` and `count` in level-0 cells): [b, e), clamped to the level's `size`.
DPVIZ_HD inline void level_span(int32_t first, int32_t count, int32_t n, int32_t k, int32_t level, int32_t size,
                                int32_t& b, int32_t& e) {
    texel_span(first, count, n, k, b, e);
    b >>= level;
    e = ((e - 1) >> level) + 1;
    if (e > size) e = size;
}

// pooled_color when both spans have 1 or 2 cells (the usual case: pick_level's level has cells no
// larger than a texel), without the loops' bookkeeping. The same maximum and OR as the loop.
DPVIZ_HD inline uint32_t pooled_color_small(const LevelView& lv, const LutView& lut, bool with_mask, int32_t ib,
                                            int32_t ie, int32_t jb, int32_t je) {
    const bool two_i = ie - ib == 2, two_j = je - jb == 2;
    const int64_t r0 = int64_t(ib) * lv.cols + jb, r1 = r0 + lv.cols;
    const int32_t a = pool_key(lv.values[r0]);
    const int32_t b = two_j ? pool_key(lv.values[r0 + 1]) : kNegInf;
    const int32_t c = two_i ? pool_key(lv.values[r1]) : kNegInf;
    const int32_t d = two_i && two_j ? pool_key(lv.values[r1 + 1]) : kNegInf;
    const int32_t ab = a > b ? a : b, cd = c > d ? c : d;
    const uint32_t col = lut_color(lut, ab > cd ? ab : cd);
    const bool on_path = with_mask && (lv.mask[r0] || (two_j && lv.mask[r0 + 1]) || (two_i && lv.mask[r1]) ||
                                       (two_i && two_j && lv.mask[r1 + 1]));
    return on_path ? blend_half(col, lut.mask_tint) : col;
}

// Whether every texel of the request covers at most 2 x 2 cells of its level: a texel spans at
// most s = ceil(count / n) level-0 cells, and s cells from b touch floor((b mod 2^level + s - 1)
// / 2^level) + 1 <= 2 + floor((s - 2) / 2^level) level cells: at most 2 when s <= 2^level + 1.
DPVIZ_HD inline bool spans_at_most_two(const Request& rq) {
    const int64_t most = (int64_t(1) << rq.level) + 1;
    return (int64_t(rq.rows) + rq.out_h - 1) / rq.out_h <= most && (int64_t(rq.cols) + rq.out_w - 1) / rq.out_w <= most;
}

// The color of the level cells [ib, ie) x [jb, je): the largest reachable value (and OR of the
// mask when `mask`).
DPVIZ_HD inline uint32_t pooled_color(const LevelView& lv, const LutView& lut, bool mask, int32_t ib, int32_t ie,
                                      int32_t jb, int32_t je) {
    const bool with_mask = mask && lv.mask;
    if (ie > ib && je > jb && ie - ib <= 2 && je - jb <= 2) return pooled_color_small(lv, lut, with_mask, ib, ie, jb, je);
    int32_t best = kNegInf;
    bool on_path = false;
    for (int32_t i = ib; i < ie; ++i) {
        const int64_t row = int64_t(i) * lv.cols;
        for (int32_t j = jb; j < je; ++j) {
            const int32_t k = pool_key(lv.values[row + j]);
            best = k > best ? k : best;
            if (with_mask) on_path = on_path || lv.mask[row + j] != 0;
        }
    }
    const uint32_t col = lut_color(lut, best);
    return on_path ? blend_half(col, lut.mask_tint) : col;
}

// The color of texel (x, y): the largest reachable value (and OR of the mask) over the cells it
// covers, read at the request's pyramid level.
DPVIZ_HD inline uint32_t texel_color(const LevelView& lv, const LutView& lut, const Request& rq, int32_t x, int32_t y) {
    int32_t ib, ie, jb, je;
    level_span(rq.i0, rq.rows, rq.out_h, y, rq.level, lv.rows, ib, ie);
    level_span(rq.j0, rq.cols, rq.out_w, x, rq.level, lv.cols, jb, je);
    return pooled_color(lv, lut, rq.mask, ib, ie, jb, je);
}

}  // namespace dpviz::render::texel
