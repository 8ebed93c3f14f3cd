// Host side of the view pixels: the color table (render's ColorScale, tabulated),
// the pooled pyramids and the host loop over texels (the same texel_color the GPU runs).
#include "dpviz/render/gl_view_pixels.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <thread>

#include "texel_math.hpp"

namespace dpviz::render {

ColorLut ColorLut::build(const ColorScale& scale) {
    ColorLut lut;
    lut.lo = std::min(scale.min, scale.max);
    lut.span = int64_t(std::max(scale.min, scale.max)) - lut.lo;
    const int64_t n = std::min(lut.span + 1, kMaxEntries);
    lut.rgba.resize(size_t(n));
    for (int64_t k = 0; k < n; ++k) {
        // Entry k stands for the score lo + k (exact table) or for an even sample of the range.
        const int64_t v = n == lut.span + 1 ? lut.lo + k : lut.lo + k * lut.span / (n - 1);
        lut.rgba[size_t(k)] = pack_rgba(scale.color(int32_t(v)));
    }
    lut.unreachable = pack_rgba(unreachable_color(scale.map));
    lut.mask_tint = pack_rgba(path_style(scale.map).core);
    return lut;
}

namespace {

texel::LutView lut_view(const ColorLut& lut) {
    return {lut.rgba.data(), int64_t(lut.rgba.size()), lut.lo, lut.span, lut.unreachable, lut.mask_tint};
}

template <class T, class Pool>
std::vector<Grid<T>> build_levels(Grid<T> base, int min_side, T empty, Pool pool) {
    std::vector<Grid<T>> levels;
    levels.push_back(std::move(base));
    while (std::max(levels.back().rows, levels.back().cols) > min_side) {
        const Grid<T>& src = levels.back();
        Grid<T> dst;
        dst.reset((src.rows + 1) / 2, (src.cols + 1) / 2, empty);
        for (int32_t i = 0; i < src.rows; ++i)
            for (int32_t j = 0; j < src.cols; ++j) {
                T& d = dst.at(i / 2, j / 2);
                d = pool(d, src.at(i, j));
            }
        levels.push_back(std::move(dst));
    }
    return levels;
}

}  // namespace

uint32_t ColorLut::color_of(int32_t v) const { return texel::lut_color(lut_view(*this), v); }

ValuePyramid build_value_pyramid(Grid<int32_t> base, int min_side) {
    return {build_levels<int32_t>(std::move(base), min_side, kNegInf,
                                  [](int32_t a, int32_t b) { return std::max(a, texel::pool_key(b)); })};
}

MaskPyramid build_mask_pyramid(Grid<uint8_t> base, int min_side) {
    return {build_levels<uint8_t>(std::move(base), min_side, 0,
                                  [](uint8_t a, uint8_t b) { return uint8_t(a | (b ? 1 : 0)); })};
}

int pick_level(const TexelRequest& req, int levels) {
    if (req.out_w <= 0 || req.out_h <= 0) return 0;
    const int32_t ratio = std::min(req.rows / req.out_h, req.cols / req.out_w);
    if (ratio <= 1) return 0;
    const int level = std::bit_width(uint32_t(ratio)) - 1;  // floor(log2(ratio))
    return std::min(level, std::max(levels - 1, 0));
}

void draw_view_pixels(const ValuePyramid& values, const MaskPyramid* mask, const ColorLut& lut,
                      const TexelRequest& req, uint32_t* out, int32_t stride) {
    if (values.levels.empty() || req.out_w <= 0 || req.out_h <= 0 || req.rows <= 0 || req.cols <= 0) return;
    const int level = pick_level(req, int(values.levels.size()));
    const Grid<int32_t>& g = values.levels[size_t(level)];
    const bool with_mask = req.mask && mask && size_t(level) < mask->levels.size();
    const texel::LevelView lv{g.data.data(), with_mask ? mask->levels[size_t(level)].data.data() : nullptr, g.rows,
                              g.cols};
    const texel::LutView lt = lut_view(lut);
    const texel::Request rq{req.i0, req.j0, req.rows, req.cols, req.out_w, req.out_h, level, with_mask};
    auto rows = [&](int32_t y0, int32_t y1) {
        for (int32_t y = y0; y < y1; ++y) {
            uint32_t* row = out + int64_t(y) * stride;
            for (int32_t x = 0; x < req.out_w; ++x) row[x] = texel::texel_color(lv, lt, rq, x, y);
        }
    };
    // Large views split in two halves: the UI thread keeps its frame budget on a 2-core machine.
    if (int64_t(req.out_w) * req.out_h < 200'000 || std::thread::hardware_concurrency() < 2) {
        rows(0, req.out_h);
        return;
    }
    const int32_t mid = req.out_h / 2;
    std::thread other(rows, mid, req.out_h);
    rows(0, mid);
    other.join();
}

}  // namespace dpviz::render
