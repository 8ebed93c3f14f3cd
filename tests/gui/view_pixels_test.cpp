// The view's pixels: the host path equals render's colors (ColorScale::color, the PNG export's
// mapping) cell for cell, pooled texels are the largest finite value of their cells, the mask
// tints exactly the masked cells, and (with a display) the GL texture holds those pixels.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "dpviz/engine.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"
#include "dpviz/render/gl_view_pixels.hpp"
#include "dpviz/render/heatmap.hpp"
#include "gl_context_fixture.hpp"
#include "texel_math.hpp"

namespace dpviz::render {
namespace {

Grid<int32_t> random_grid(int rows, int cols, int lo, int hi, uint32_t seed, double unreachable = 0.0) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Grid<int32_t> g;
    g.reset(rows, cols, 0);
    for (auto& v : g.data) v = u(rng) < unreachable ? (u(rng) < 0.5 ? kNegInf : kPosInf) : d(rng);
    return g;
}

ColorScale scale_for(const Grid<int32_t>& g, Colormap map, bool automatic) {
    HeatmapOptions opt;
    opt.auto_colormap = automatic;
    opt.colormap = map;
    return make_color_scale(value_range(g), opt);
}

std::vector<uint32_t> host_pixels(const ValuePyramid& p, const MaskPyramid* m, const ColorLut& lut, const TexelRequest& r) {
    std::vector<uint32_t> out(size_t(r.out_w) * r.out_h, 0xdeadbeef);
    draw_view_pixels(p, m, lut, r, out.data(), r.out_w);
    return out;
}

TEST(ViewPixels, HostPathEqualsRenderColorsCellForCell) {
    for (const Colormap map : {Colormap::viridis, Colormap::magma, Colormap::grayscale, Colormap::diverging}) {
        const Grid<int32_t> g = random_grid(37, 53, -120, 300, 7 + int(map), 0.05);
        const ColorScale scale = scale_for(g, map, false);
        const ColorLut lut = ColorLut::build(scale);
        const ValuePyramid p = build_value_pyramid(g, 8);
        const TexelRequest all{0, 0, g.rows, g.cols, g.cols, g.rows, false};
        const auto px = host_pixels(p, nullptr, lut, all);
        for (int i = 0; i < g.rows; ++i)
            for (int j = 0; j < g.cols; ++j)
                ASSERT_EQ(px[size_t(i) * g.cols + j], pack_rgba(scale.color(g.at(i, j))))
                    << colormap_name(map) << " cell " << i << "," << j << " value " << g.at(i, j);
    }
}

TEST(ViewPixels, AutoColormapAndARealMatrixMatchRender) {
    // A real global alignment with affine gaps; the automatic map, as the PNG export picks it.
    ScoringOptions s;
    s.match = 5;
    s.mismatch = -4;
    auto p = make_problem(Algorithm::global, {"q", "HEAGAWGHEEAWHEAE"}, {"t", "PAWHEAEHEAGAWGHE"}, s);
    ASSERT_TRUE(p) << p.error().message;
    const DpResult r = align_reference(*p);
    const ColorScale scale = scale_for(r.H, Colormap::viridis, true);
    const ColorLut lut = ColorLut::build(scale);
    const TexelRequest all{0, 0, r.H.rows, r.H.cols, r.H.cols, r.H.rows, false};
    const auto px = host_pixels(build_value_pyramid(r.H), nullptr, lut, all);
    for (size_t k = 0; k < px.size(); ++k) ASSERT_EQ(px[k], pack_rgba(scale.color(r.H.data[k])));
}

TEST(ViewPixels, WideRangesUseASampledTableThatStaysMonotone) {
    Grid<int32_t> g;
    g.reset(1, 3, 0);
    g.data = {0, 250'000'000, 500'000'000};  // DTW-sized scores: the table is sampled
    const ColorScale scale = scale_for(g, Colormap::grayscale, false);
    const ColorLut lut = ColorLut::build(scale);
    EXPECT_EQ(int64_t(lut.rgba.size()), ColorLut::kMaxEntries);
    EXPECT_EQ(lut.color_of(0), pack_rgba(scale.color(0)));
    EXPECT_EQ(lut.color_of(500'000'000), pack_rgba(scale.color(500'000'000)));
    uint32_t prev = 0;
    for (int32_t v = 0; v <= 500'000'000; v += 4'999'999) {
        const uint32_t c = lut.color_of(v) & 0xff;  // grayscale: red channel rises with v
        EXPECT_GE(c, prev);
        prev = c;
        EXPECT_NEAR(double(c), double(scale.color(v).r), 1.0);
    }
}

// The interop writer pools 16-bit colour-table slots instead of values (cuda_interop.cu): that is
// exact only if the slot never decreases as the value grows and unreachable is below every
// reachable slot. Exact and sampled tables, values below, inside and above the table's range.
TEST(ViewPixels, TableSlotsPoolToTheColourOfTheLargestValue) {
    for (const int32_t hi : {4000, 70'000, 500'000'000}) {
        ColorScale scale;
        scale.map = Colormap::viridis;
        scale.min = -1000;
        scale.max = hi;
        const ColorLut lut = ColorLut::build(scale);
        const texel::LutView lv{lut.rgba.data(), int64_t(lut.rgba.size()), lut.lo, lut.span, lut.unreachable, lut.mask_tint};
        EXPECT_EQ(texel::lut_slot(lv, kNegInf), 0u);
        EXPECT_EQ(texel::lut_slot(lv, kPosInf), 0u);
        EXPECT_EQ(texel::slot_color(lv, 0), lut.unreachable);
        std::mt19937 g{uint32_t(hi)};
        std::uniform_int_distribution<int32_t> d(-5000, hi + 5000);
        uint32_t prev = 0;
        for (int32_t v = -5000; v <= hi + 5000; v += std::max(1, (hi + 10000) / 4099)) {
            const uint32_t slot = texel::lut_slot(lv, v);
            EXPECT_GE(slot, std::max(prev, 1u)) << "v " << v;
            EXPECT_LE(slot, uint32_t(lut.rgba.size())) << "v " << v;
            EXPECT_EQ(texel::slot_color(lv, slot), texel::lut_color(lv, v)) << "v " << v;
            prev = slot;
        }
        for (int trial = 0; trial < 2000; ++trial) {  // four cells of a texel, some unreachable
            int32_t best = kNegInf;
            uint32_t best_slot = 0;
            for (int c = 0; c < 4; ++c) {
                const int32_t v = g() % 5 == 0 ? (g() % 2 ? kNegInf : kPosInf) : d(g);
                best = std::max(best, texel::pool_key(v));
                best_slot = std::max(best_slot, texel::lut_slot(lv, v));
            }
            EXPECT_EQ(texel::slot_color(lv, best_slot), texel::lut_color(lv, best));
        }
    }
}

TEST(ViewPixels, PooledTexelsTakeTheLargestFiniteValue) {
    const Grid<int32_t> g = random_grid(301, 517, -50, 50, 11, 0.1);
    const ColorScale scale = scale_for(g, Colormap::magma, false);
    const ColorLut lut = ColorLut::build(scale);
    const ValuePyramid p = build_value_pyramid(g, 16);
    ASSERT_GT(p.levels.size(), 3u);
    // Level k cell = max over its 2^k x 2^k block of level 0 (finite values only).
    for (size_t k = 1; k < p.levels.size(); ++k) {
        const Grid<int32_t>& lv = p.levels[k];
        for (int i = 0; i < lv.rows; i += 3)
            for (int j = 0; j < lv.cols; j += 5) {
                int32_t best = kNegInf;
                for (int a = i << k; a < std::min((i + 1) << k, g.rows); ++a)
                    for (int b = j << k; b < std::min((j + 1) << k, g.cols); ++b)
                        if (!is_unreachable(g.at(a, b))) best = std::max(best, g.at(a, b));
                ASSERT_EQ(lv.at(i, j), best) << "level " << k << " cell " << i << "," << j;
            }
    }
    // A view aligned with level-2 blocks (each texel 4 x 4 cells) reads them exactly.
    const TexelRequest r{0, 0, 300, 516, 129, 75, false};
    ASSERT_EQ(pick_level(r, int(p.levels.size())), 2);
    const auto px = host_pixels(p, nullptr, lut, r);
    for (int y = 0; y < r.out_h; ++y)
        for (int x = 0; x < r.out_w; ++x) ASSERT_EQ(px[size_t(y) * r.out_w + x], lut.color_of(p.levels[2].at(y, x)));
}

TEST(ViewPixels, TexelSpansTakeTheExact32BitDivisionOnlyWhereItIsExact) {
    // scaled_index divides in 32 bits when k * count fits and in 64 bits otherwise; both must
    // equal floor(k * count / n), also right at the switch (k * count = 2^32 - 1, 2^32).
    std::mt19937_64 g(5);
    auto check = [](int32_t k, int32_t count, int32_t n) {
        const int64_t want = int64_t(k) * count / n;
        ASSERT_EQ(texel::scaled_index(k, count, n), want) << k << " * " << count << " / " << n;
    };
    for (int t = 0; t < 200000; ++t) {
        const int32_t n = int32_t(1 + g() % 16384), count = int32_t(1 + g() % 2000000000);
        check(int32_t(g() % uint64_t(n + 1)), count, n);
    }
    check(65535, 65537, 7);       // 2^32 - 1
    check(65536, 65536, 3);       // 2^32: the 64-bit division
    check(16384, 131072, 16384);  // 2^31
    check(0, 2000000000, 1);
}

TEST(ViewPixels, EveryTexelIsTheLargestValueOfTheCellsItCovers) {
    // Views of every shape: 1:1, pooled at a level whose cells are at most a texel (the 2 x 2
    // fast path), and views coarser than the top level (the general loop). A texel's value is
    // the largest finite value of the level-0 cells in its level's cells; with the mask, tinted
    // when any of them is on a path.
    const Grid<int32_t> g = random_grid(301, 517, -50, 80, 21, 0.05);
    Grid<uint8_t> m;
    m.reset(g.rows, g.cols, 0);
    std::mt19937 rng(3);
    for (auto& v : m.data) v = rng() % 9 == 0;
    const ColorLut lut = ColorLut::build(scale_for(g, Colormap::viridis, false));
    const ValuePyramid p = build_value_pyramid(g, 16);
    const MaskPyramid mp = build_mask_pyramid(m, 16);
    const int L = int(p.levels.size());
    // (301 x 517 -> 61 x 103: 4.93 and 5.02 cells per texel at level 2, the 2 x 2 kernel's edge.)
    const TexelRequest reqs[] = {{0, 0, 301, 517, 517, 301, true},  {0, 0, 301, 517, 300, 200, true},
                                 {17, 33, 200, 300, 123, 77, true}, {0, 0, 301, 517, 9, 5, true},
                                 {5, 7, 290, 500, 3, 2, false},     {100, 200, 64, 64, 64, 64, false},
                                 {0, 0, 301, 517, 103, 61, true},   {3, 1, 298, 516, 129, 75, true}};
    int small_views = 0;
    for (const TexelRequest& r : reqs) {
        const auto px = host_pixels(p, &mp, lut, r);
        const int level = pick_level(r, L);
        // The GPU writer's choice of its 2 x 2 kernel must hold for every texel.
        const bool small = texel::spans_at_most_two({r.i0, r.j0, r.rows, r.cols, r.out_w, r.out_h, level, r.mask});
        small_views += small;
        for (int y = 0; y < r.out_h; ++y)
            for (int x = 0; x < r.out_w; ++x) {
                int32_t ib, ie, jb, je;
                texel::level_span(r.i0, r.rows, r.out_h, y, level, p.levels[size_t(level)].rows, ib, ie);
                texel::level_span(r.j0, r.cols, r.out_w, x, level, p.levels[size_t(level)].cols, jb, je);
                if (small) {
                    ASSERT_TRUE(ie - ib <= 2 && je - jb <= 2) << x << "," << y;
                }
                int32_t best = kNegInf;
                bool on = false;
                for (int i = ib << level; i < std::min(ie << level, g.rows); ++i)
                    for (int j = jb << level; j < std::min(je << level, g.cols); ++j) {
                        if (!is_unreachable(g.at(i, j))) best = std::max(best, g.at(i, j));
                        on = on || m.at(i, j);
                    }
                const uint32_t c = lut.color_of(best);
                const uint32_t want = r.mask && on ? texel::blend_half(c, lut.mask_tint) : c;
                ASSERT_EQ(px[size_t(y) * r.out_w + x], want) << "view " << r.out_w << "x" << r.out_h << " texel " << x
                                                             << "," << y << " level " << level;
            }
    }
    EXPECT_GE(small_views, 3);  // 1:1, the 64 x 64 window and the level-2 views at the edge
}

TEST(ViewPixels, AllUnreachableBlockIsUnreachableColor) {
    Grid<int32_t> g;
    g.reset(4, 4, kPosInf);
    g.at(0, 0) = 3;
    g.at(3, 3) = 9;
    const ColorLut lut = ColorLut::build(scale_for(g, Colormap::viridis, false));
    const ValuePyramid p = build_value_pyramid(g, 1);
    const auto px = host_pixels(p, nullptr, lut, {0, 0, 4, 4, 2, 2, false});
    EXPECT_EQ(px[0], lut.color_of(3));
    EXPECT_EQ(px[1], lut.unreachable);
    EXPECT_EQ(px[2], lut.unreachable);
    EXPECT_EQ(px[3], lut.color_of(9));
}

TEST(ViewPixels, MaskTintsExactlyTheMaskedCells) {
    const Grid<int32_t> g = random_grid(20, 30, 0, 99, 5);
    Grid<uint8_t> m;
    m.reset(20, 30, 0);
    for (int k = 0; k < 20; ++k) m.at(k, k) = 1;
    const ColorLut lut = ColorLut::build(scale_for(g, Colormap::viridis, false));
    const ValuePyramid p = build_value_pyramid(g, 4);
    const MaskPyramid mp = build_mask_pyramid(m, 4);
    ASSERT_EQ(p.levels.size(), mp.levels.size());
    const TexelRequest r{0, 0, 20, 30, 30, 20, true};
    const auto with = host_pixels(p, &mp, lut, r);
    TexelRequest no = r;
    no.mask = false;
    const auto without = host_pixels(p, &mp, lut, no);
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 30; ++j) {
            const size_t k = size_t(i) * 30 + j;
            EXPECT_EQ(without[k], lut.color_of(g.at(i, j)));
            if (i == j) EXPECT_NE(with[k], without[k]);
            else EXPECT_EQ(with[k], without[k]);
        }
}

// ---------------------------------------------------------------------------------------------
// The GL texture (host path) with a real context: skipped without a display; CTest runs these
// again under Xvfb (dpviz_gui_gl_under_xvfb).
// ---------------------------------------------------------------------------------------------

class GlTexture : public dpviz::testing::GlContextTest {};

TEST_F(GlTexture, HostUploadHoldsTheHostPixelsAndGrows) {
    const Grid<int32_t> g = random_grid(700, 900, -40, 80, 3, 0.02);
    const ColorLut lut = ColorLut::build(scale_for(g, Colormap::viridis, true));
    const ValuePyramid p = build_value_pyramid(g);
    auto tex = MatrixTexture::create(128, 128, /*prefer_interop=*/false);
    ASSERT_TRUE(tex) << tex.error().message;
    EXPECT_EQ(tex->path(), UploadPath::host);
    const ViewSource src{&p, nullptr, &lut, 1, 1};
    for (const TexelRequest r : {TexelRequest{0, 0, 700, 900, 450, 350, false},      // pooled, grows the texture
                                 TexelRequest{100, 200, 60, 80, 80, 60, false}}) {  // one texel per cell
        ASSERT_TRUE(tex->draw(src, r));
        EXPECT_GE(tex->width(), r.out_w);
        std::vector<uint32_t> want(size_t(r.out_w) * r.out_h);
        MatrixTexture::draw_host(src, r, want.data(), r.out_w);
        EXPECT_EQ(tex->read_back(r.out_w, r.out_h), want);
    }
}

TEST_F(GlTexture, InteropIsChosenOnlyWhenRegistrationWorks) {
    auto tex = MatrixTexture::create(64, 64, /*prefer_interop=*/true);
    ASSERT_TRUE(tex);
    // Without CUDA (or on Mesa) the host path runs and says why; with NVIDIA GL + CUDA, interop
    // (required where DPVIZ_REQUIRE_INTEROP is set: scripts/device_gui.sh on the H200).
    if (tex->path() == UploadPath::host) {
        EXPECT_FALSE(tex->path_note().empty());
    }
    if (std::getenv("DPVIZ_REQUIRE_INTEROP")) {
        EXPECT_EQ(tex->path(), UploadPath::cuda_interop) << tex->path_note();
    }
    Grid<int32_t> g;
    g.reset(8, 8, 1);
    g.at(3, 4) = 5;
    const ColorLut lut = ColorLut::build(scale_for(g, Colormap::magma, false));
    const ValuePyramid p = build_value_pyramid(g);
    const ViewSource src{&p, nullptr, &lut, 7, 7};
    const TexelRequest r{0, 0, 8, 8, 8, 8, false};
    ASSERT_TRUE(tex->draw(src, r));
    std::vector<uint32_t> want(64);
    MatrixTexture::draw_host(src, r, want.data(), 8);
    EXPECT_EQ(tex->read_back(8, 8), want) << "upload path: " << upload_path_name(tex->path());
}

}  // namespace
}  // namespace dpviz::render
