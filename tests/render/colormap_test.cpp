// Colormaps: published endpoints, monotonic luminance, the diverging center, and overlay colors
// (unreachable, path) that no map value can be mistaken for.
#include <gtest/gtest.h>

#include <cmath>

#include "dpviz/render/colormap.hpp"

namespace dpviz::render {
namespace {

constexpr Colormap kAll[] = {Colormap::viridis, Colormap::magma, Colormap::grayscale, Colormap::diverging};

// WCAG relative luminance of an sRGB color.
double luminance(Rgb c) {
    const auto lin = [](uint8_t v) {
        const double x = v / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

double distance(Rgb a, Rgb b) {
    const double dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
    return std::sqrt(dr * dr + dg * dg + db * db);
}

TEST(Colormap, EndpointsMatchMatplotlib) {
    // round(255 * _viridis_data[0]), [255]; the same for magma.
    EXPECT_EQ(colorize(Colormap::viridis, 0.f), (Rgb{68, 1, 84}));
    EXPECT_EQ(colorize(Colormap::viridis, 1.f), (Rgb{253, 231, 37}));
    EXPECT_EQ(colorize(Colormap::magma, 0.f), (Rgb{0, 0, 4}));
    EXPECT_EQ(colorize(Colormap::magma, 1.f), (Rgb{252, 253, 191}));
    EXPECT_EQ(colorize(Colormap::grayscale, 0.f), (Rgb{0, 0, 0}));
    EXPECT_EQ(colorize(Colormap::grayscale, 1.f), (Rgb{255, 255, 255}));
}

TEST(Colormap, MidpointMatchesMatplotlib) {
    // _viridis_data[128] = (0.127568, 0.566949, 0.550556); [127] and [128] straddle t = 0.5.
    const Rgb v = colorize(Colormap::viridis, 0.5f);
    EXPECT_NEAR(v.r, 33, 1);
    EXPECT_NEAR(v.g, 145, 1);
    EXPECT_NEAR(v.b, 140, 1);
}

TEST(Colormap, ClampsOutOfRangeAndNan) {
    for (Colormap c : kAll) {
        EXPECT_EQ(colorize(c, -3.f), colorize(c, 0.f)) << colormap_name(c);
        EXPECT_EQ(colorize(c, 7.f), colorize(c, 1.f)) << colormap_name(c);
        EXPECT_EQ(colorize(c, std::nanf("")), colorize(c, 0.f)) << colormap_name(c);
    }
}

TEST(Colormap, SequentialLuminanceIncreases) {
    for (Colormap c : {Colormap::viridis, Colormap::magma, Colormap::grayscale}) {
        double previous = luminance(colorize(c, 0.f));
        for (int k = 1; k <= 100; ++k) {
            const double l = luminance(colorize(c, k / 100.f));
            EXPECT_GT(l, previous) << colormap_name(c) << " at t = " << k / 100.0;
            previous = l;
        }
        EXPECT_GT(luminance(colorize(c, 1.f)) - luminance(colorize(c, 0.f)), 0.7) << colormap_name(c);
    }
}

TEST(Colormap, DivergingIsBlueWhiteRed) {
    const Rgb center = colorize(Colormap::diverging, 0.5f);
    EXPECT_GE(center.r, 240);
    EXPECT_GE(center.g, 240);
    EXPECT_GE(center.b, 240);
    const Rgb low = colorize(Colormap::diverging, 0.f), high = colorize(Colormap::diverging, 1.f);
    EXPECT_GT(low.b, low.r + 50);
    EXPECT_GT(high.r, high.b + 50);
    // Symmetric in lightness: equal distances from the center are about equally light.
    for (float d : {0.1f, 0.25f, 0.4f}) {
        EXPECT_NEAR(luminance(colorize(Colormap::diverging, 0.5f - d)),
                    luminance(colorize(Colormap::diverging, 0.5f + d)), 0.12)
            << d;
    }
}

TEST(Colormap, OverlayColorsAreNotMapColors) {
    for (Colormap c : kAll) {
        const Rgb gray = unreachable_color(c);
        const PathStyle path = path_style(c);
        double to_gray = 1e9, to_core = 1e9;
        for (int k = 0; k <= 1000; ++k) {
            const Rgb v = colorize(c, k / 1000.f);
            to_gray = std::min(to_gray, distance(v, gray));
            to_core = std::min(to_core, distance(v, path.core));
        }
        EXPECT_GT(to_gray, 10.0) << colormap_name(c);
        EXPECT_GT(to_core, 60.0) << colormap_name(c);
        EXPECT_GT(distance(path.core, path.outline), 200.0) << colormap_name(c);
    }
    // Dark gray everywhere but on the grayscale map, where gray is a value.
    const Rgb g = unreachable_color(Colormap::viridis);
    EXPECT_TRUE(g.r == g.g && g.g == g.b && g.r < 100);
}

TEST(Colormap, NamesRoundTrip) {
    for (Colormap c : kAll) EXPECT_EQ(parse_colormap(colormap_name(c)), c);
    EXPECT_EQ(parse_colormap("MAGMA"), Colormap::magma);
    EXPECT_EQ(parse_colormap("gray"), Colormap::grayscale);
    EXPECT_EQ(parse_colormap("jet"), std::nullopt);
    EXPECT_EQ(parse_colormap(""), std::nullopt);
}

}  // namespace
}  // namespace dpviz::render
