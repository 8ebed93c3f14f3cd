// The pixels of the GUI's matrix view, specified once on the host: a max-pooled pyramid of a
// score matrix, a color table of the PNG export's ColorScale, and the texels of one view region.
// Both upload paths (host and CUDA-GL interop) produce exactly these pixels. No GL here.
#pragma once

#include <cstdint>
#include <vector>

#include "dpviz/render/colormap.hpp"
#include "dpviz/render/heatmap.hpp"
#include "dpviz/types.hpp"

namespace dpviz::render {

// The PNG export's ColorScale (heatmap.hpp) tabulated per score, so a texel costs one lookup and
// the GPU can use the same table. With at most kMaxEntries scores in [min, max] the table is
// exact (entry == scale.color(v)); a wider range is sampled evenly.
struct ColorLut {
    static constexpr int64_t kMaxEntries = 65536;
    int32_t lo = 0;
    int64_t span = 0;                 // max - min
    std::vector<uint32_t> rgba;       // packed R | G << 8 | B << 16 | A << 24 (bytes R, G, B, A)
    uint32_t unreachable = 0;
    uint32_t mask_tint = 0;           // the color blended into cells on an optimal path

    static ColorLut build(const ColorScale& scale);
    uint32_t color_of(int32_t v) const;  // the texel color of one cell (no pooling, no mask)
};

constexpr uint32_t pack_rgba(Rgb c, uint8_t a = 255) {
    return uint32_t(c.r) | uint32_t(c.g) << 8 | uint32_t(c.b) << 16 | uint32_t(a) << 24;
}

// levels[0] is the matrix itself; levels[k] pools 2x2 blocks of levels[k-1] (ceil sizes).
// Values pool as the PNG export pools: the largest finite value, unreachable (is_unreachable)
// only when every cell is. The mask of optimal-path cells pools with OR.
struct ValuePyramid {
    std::vector<Grid<int32_t>> levels;
};
struct MaskPyramid {
    std::vector<Grid<uint8_t>> levels;
};
// Stops when the longer side is at most `min_side`.
ValuePyramid build_value_pyramid(Grid<int32_t> base, int min_side = 128);
MaskPyramid build_mask_pyramid(Grid<uint8_t> base, int min_side = 128);

// One view: the matrix cells [i0, i0 + rows) x [j0, j0 + cols) drawn into out_w x out_h texels
// (out_w <= cols, out_h <= rows; each texel pools the cells it covers).
struct TexelRequest {
    int32_t i0 = 0, j0 = 0;
    int32_t rows = 0, cols = 0;
    int32_t out_w = 0, out_h = 0;
    bool mask = false;  // tint cells on an optimal path
    friend bool operator==(const TexelRequest&, const TexelRequest&) = default;
};

// The pyramid level a request reads: the coarsest whose cells are no larger than a texel.
int pick_level(const TexelRequest& req, int levels);

// The host path: writes req.out_w x req.out_h packed RGBA texels, row `y` at out + y * stride
// (stride in texels). `mask` may be null.
void draw_view_pixels(const ValuePyramid& values, const MaskPyramid* mask, const ColorLut& lut,
                      const TexelRequest& req, uint32_t* out, int32_t stride);

}  // namespace dpviz::render
