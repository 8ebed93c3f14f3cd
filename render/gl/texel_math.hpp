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

DPVIZ_HD inline uint32_t lut_color(const LutView& lut, int32_t v) {
    if (!reachable(v)) return lut.unreachable;
    const int64_t d = int64_t(v) - lut.lo;
    int64_t k = lut.entries == lut.span + 1 ? d : d * (lut.entries - 1) / lut.span;
    k = k < 0 ? 0 : (k >= lut.entries ? lut.entries - 1 : k);
    return lut.rgba[k];
}

DPVIZ_HD inline uint32_t blend_half(uint32_t a, uint32_t b) {
    return ((a & 0xfefefefeu) >> 1) + ((b & 0xfefefefeu) >> 1) + (a & b & 0x01010101u);
}

// Texel k of n covering `count` cells from `first`: level-0 cells [b, e), never empty.
DPVIZ_HD inline void texel_span(int32_t first, int32_t count, int32_t n, int32_t k, int32_t& b, int32_t& e) {
    b = first + int32_t(int64_t(k) * count / n);
    e = first + int32_t(int64_t(k + 1) * count / n);
    if (e <= b) e = b + 1;
}

// The color of texel (x, y): the largest reachable value (and OR of the mask) over the cells it
// covers, read at the request's pyramid level.
DPVIZ_HD inline uint32_t texel_color(const LevelView& lv, const LutView& lut, const Request& rq, int32_t x, int32_t y) {
    int32_t ib, ie, jb, je;
    texel_span(rq.i0, rq.rows, rq.out_h, y, ib, ie);
    texel_span(rq.j0, rq.cols, rq.out_w, x, jb, je);
    const int32_t L = rq.level;
    ib >>= L;
    jb >>= L;
    ie = ((ie - 1) >> L) + 1;
    je = ((je - 1) >> L) + 1;
    if (ie > lv.rows) ie = lv.rows;
    if (je > lv.cols) je = lv.cols;
    int32_t best = kNegInf;
    bool on_path = false;
    for (int32_t i = ib; i < ie; ++i) {
        const int64_t row = int64_t(i) * lv.cols;
        for (int32_t j = jb; j < je; ++j) {
            const int32_t k = pool_key(lv.values[row + j]);
            best = k > best ? k : best;
            if (rq.mask && lv.mask) on_path = on_path || lv.mask[row + j] != 0;
        }
    }
    const uint32_t c = lut_color(lut, best);
    return on_path ? blend_half(c, lut.mask_tint) : c;
}

}  // namespace dpviz::render::texel
