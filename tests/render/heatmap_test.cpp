// Heatmap composition: scaling (max-pool down, crisp integer up), the color scale, unreachable
// cells, the path line, colorbar and caption regions, and the rejected requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dpviz/render/heatmap.hpp"

namespace dpviz::render {
namespace {

constexpr Rgb kWhite{255, 255, 255};

Grid<int32_t> grid(int32_t rows, int32_t cols, int32_t fill = 0) {
    Grid<int32_t> g;
    g.reset(rows, cols, fill);
    return g;
}

HeatmapOptions sized(int max_side) {
    HeatmapOptions o;
    o.max_side = max_side;
    return o;
}

// No axis hints: the matrix area starts near the corner.
HeatmapOptions bare(int max_side) {
    HeatmapOptions o;
    o.max_side = max_side;
    o.row_label.clear();
    o.col_label.clear();
    return o;
}

int count_color(const Image& img, Rect r, Rgb c) {
    int n = 0;
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x) n += img.pixel(x, y) == c;
    return n;
}

// ---------------------------------------------------------------------------------------------
// Scale and colors
// ---------------------------------------------------------------------------------------------

TEST(Heatmap, FitMatrix) {
    EXPECT_EQ(fit_matrix(10, 12, 2048).width, 2040);  // upscaled 170x, crisp
    EXPECT_EQ(fit_matrix(10, 12, 2048).height, 1700);
    EXPECT_EQ(fit_matrix(10, 12, 480).width, 480);
    EXPECT_EQ(fit_matrix(5000, 4000, 2048).height, 2048);  // downsampled, aspect kept
    EXPECT_EQ(fit_matrix(5000, 4000, 2048).width, 1638);
    EXPECT_EQ(fit_matrix(1, 100000, 2048).width, 2048);
    EXPECT_EQ(fit_matrix(1, 100000, 2048).height, 1);
    EXPECT_EQ(fit_matrix(3000, 2048, 2048).width, 1398);
}

TEST(Heatmap, ValueRangeSkipsUnreachable) {
    Grid<int32_t> H = grid(3, 3, 5);
    H.at(0, 0) = kNegInf;
    H.at(1, 1) = kPosInf;
    H.at(2, 2) = -7;
    const ValueRange r = value_range(H);
    EXPECT_TRUE(r.any_unreachable);
    EXPECT_TRUE(r.any_finite);
    EXPECT_EQ(r.min, -7);
    EXPECT_EQ(r.max, 5);

    const ValueRange none = value_range(grid(2, 2, kPosInf));
    EXPECT_FALSE(none.any_finite);
    EXPECT_TRUE(none.any_unreachable);
}

TEST(Heatmap, AutoColormap) {
    HeatmapOptions o;
    EXPECT_EQ(make_color_scale({-5, 10, true, false}, o).map, Colormap::diverging);
    EXPECT_EQ(make_color_scale({0, 10, true, false}, o).map, Colormap::viridis);
    EXPECT_EQ(make_color_scale({-10, 0, true, false}, o).map, Colormap::viridis);
    o.auto_colormap = false;
    o.colormap = Colormap::magma;
    EXPECT_EQ(make_color_scale({-5, 10, true, false}, o).map, Colormap::magma);
}

TEST(Heatmap, DivergingScaleCentersZero) {
    const ColorScale s{Colormap::diverging, -20, 100};
    EXPECT_FLOAT_EQ(s.position(-20), 0.f);
    EXPECT_FLOAT_EQ(s.position(-10), 0.25f);
    EXPECT_FLOAT_EQ(s.position(0), 0.5f);
    EXPECT_FLOAT_EQ(s.position(50), 0.75f);
    EXPECT_FLOAT_EQ(s.position(100), 1.f);
    EXPECT_FLOAT_EQ(s.position(1000), 1.f);  // clamped
    EXPECT_EQ(s.color(kPosInf), unreachable_color(Colormap::diverging));
    EXPECT_EQ(s.color(kNegInf), unreachable_color(Colormap::diverging));

    const ColorScale seq{Colormap::viridis, 10, 20};
    EXPECT_FLOAT_EQ(seq.position(15), 0.5f);
    EXPECT_EQ(seq.color(20), colorize(Colormap::viridis, 1.f));
}

// ---------------------------------------------------------------------------------------------
// Resampling
// ---------------------------------------------------------------------------------------------

TEST(Heatmap, MaxPoolKeepsASingleHotCell) {
    Grid<int32_t> H = grid(1000, 1000, 0);
    H.at(537, 211) = 100;
    const ColorScale s = make_color_scale(value_range(H), HeatmapOptions{});
    Expected<Image> img = colorize_matrix(H, s, {100, 100});
    ASSERT_TRUE(img) << img.error().message;
    const Rgb hot = colorize(Colormap::viridis, 1.f), cold = colorize(Colormap::viridis, 0.f);
    EXPECT_EQ(img->pixel(21, 53), hot);
    EXPECT_EQ(count_color(*img, {0, 0, 100, 100}, hot), 1);
    EXPECT_EQ(count_color(*img, {0, 0, 100, 100}, cold), 100 * 100 - 1);

    // The same through the full composition, inside the matrix area of the layout.
    Expected<Heatmap> h = compose_heatmap_with_layout(H, {}, bare(100));
    ASSERT_TRUE(h) << h.error().message;
    const Rect m = h->layout.matrix;
    EXPECT_EQ(m.w, 100);
    EXPECT_EQ(m.h, 100);
    EXPECT_EQ(h->image.pixel(m.x + 21, m.y + 53), hot);
    EXPECT_EQ(count_color(h->image, m, hot), 1);
}

TEST(Heatmap, MaxPoolIgnoresUnreachableUnlessAllAre) {
    Grid<int32_t> H = grid(4, 4, kPosInf);
    H.at(0, 0) = 5;
    H.at(3, 3) = 0;
    H.at(2, 0) = kNegInf;
    const ColorScale s = make_color_scale(value_range(H), HeatmapOptions{});
    Expected<Image> img = colorize_matrix(H, s, {2, 2});
    ASSERT_TRUE(img);
    EXPECT_EQ(img->pixel(0, 0), colorize(Colormap::viridis, 1.f));  // 5 beats +inf
    EXPECT_EQ(img->pixel(1, 0), unreachable_color(Colormap::viridis));
    EXPECT_EQ(img->pixel(0, 1), unreachable_color(Colormap::viridis));  // -inf and +inf only
    EXPECT_EQ(img->pixel(1, 1), colorize(Colormap::viridis, 0.f));
}

// Edit distance and DTW pool the lowest value (pool_lowest): a single cheap cell shows, and a
// range override spans the colours.
TEST(Heatmap, PoolLowestKeepsASingleLowCell) {
    Grid<int32_t> H = grid(1000, 1000, 50);
    H.at(537, 211) = 3;
    H.at(10, 10) = kPosInf;
    HeatmapOptions o = bare(100);
    o.pool_lowest = true;
    o.range = ValueRange{0, 100, true, true};
    Expected<Heatmap> h = compose_heatmap_with_layout(H, {}, o);
    ASSERT_TRUE(h) << h.error().message;
    const Rect m = h->layout.matrix;
    const ColorScale s = h->scale;
    EXPECT_EQ(s.min, 0);
    EXPECT_EQ(s.max, 100);
    EXPECT_EQ(h->image.pixel(m.x + 21, m.y + 53), s.color(3));
    EXPECT_EQ(h->image.pixel(m.x + 1, m.y + 1), s.color(50)) << "+inf loses to a finite cell";
    EXPECT_EQ(count_color(h->image, m, s.color(50)), 100 * 100 - 1);
}

TEST(Heatmap, UpscaledCellsAreCrispSquares) {
    Grid<int32_t> H = grid(10, 12);
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 12; ++j) H.at(i, j) = i * 12 + j;
    HeatmapOptions o = bare(480);
    o.draw_path = false;
    Expected<Heatmap> h = compose_heatmap_with_layout(H, {}, o);
    ASSERT_TRUE(h) << h.error().message;
    const Rect m = h->layout.matrix;
    ASSERT_EQ(m.w, 480);
    ASSERT_EQ(m.h, 400);
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 12; ++j) {
            const Rgb want = h->scale.color(H.at(i, j));
            EXPECT_EQ(count_color(h->image, {m.x + j * 40, m.y + i * 40, 40, 40}, want), 40 * 40)
                << "cell " << i << ", " << j;
        }
    }
    // By default a small matrix fills max_side: far more than 400 px wide.
    Expected<Heatmap> big = compose_heatmap_with_layout(H, {}, HeatmapOptions{});
    ASSERT_TRUE(big);
    EXPECT_GE(big->layout.matrix.w, 400);
    EXPECT_EQ(big->layout.matrix.w % 12, 0);
    EXPECT_EQ(big->layout.matrix.w / 12, big->layout.matrix.h / 10);
}

// ---------------------------------------------------------------------------------------------
// Overlays: unreachable cells, the path
// ---------------------------------------------------------------------------------------------

TEST(Heatmap, UnreachableCellsAreGrayAndOutOfTheRange) {
    // A DTW-like band: cells far from the diagonal are +inf, the first row and column -inf.
    Grid<int32_t> H = grid(50, 50);
    for (int i = 0; i < 50; ++i)
        for (int j = 0; j < 50; ++j) H.at(i, j) = std::abs(i - j) > 10 ? kPosInf : i + j;
    for (int k = 1; k < 50; ++k) H.at(0, k) = H.at(k, 0) = kNegInf;
    Expected<Heatmap> h = compose_heatmap_with_layout(H, {}, bare(500));
    ASSERT_TRUE(h) << h.error().message;
    EXPECT_EQ(h->scale.map, Colormap::viridis);
    EXPECT_EQ(h->scale.min, 0);
    EXPECT_EQ(h->scale.max, 98);  // cell (49, 49); nowhere near 2^30
    const Rect m = h->layout.matrix;
    const Rgb gray = unreachable_color(Colormap::viridis);
    const auto at_cell = [&](int i, int j) { return h->image.pixel(m.x + j * 10 + 5, m.y + i * 10 + 5); };
    EXPECT_EQ(at_cell(0, 40), gray);
    EXPECT_EQ(at_cell(45, 3), gray);
    EXPECT_EQ(at_cell(0, 30), gray);
    EXPECT_EQ(at_cell(49, 49), colorize(Colormap::viridis, 1.f));
    EXPECT_EQ(at_cell(5, 5), h->scale.color(10));
    // The legend swatch: unreachable gray outside the matrix area too.
    int outside = 0;
    for (int y = 0; y < h->image.height; ++y)
        for (int x = 0; x < h->image.width; ++x) outside += !m.contains(x, y) && h->image.pixel(x, y) == gray;
    EXPECT_GT(outside, 0);
}

// A 5000 x 4000 grid (20M cells) shrinks to 2048 x 1638; the diagonal path must stay one line.
TEST(Heatmap, PathSurvivesDownsamplingAsAContinuousLine) {
    const int rows = 5000, cols = 4000;
    Grid<int32_t> H = grid(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) H.at(i, j) = (i + 3 * j) % 200;
    std::vector<Cell> path;
    for (int i = 0; i < rows; ++i) {
        const int j = static_cast<int>(static_cast<int64_t>(i) * (cols - 1) / (rows - 1));
        path.push_back({i, j});  // each step is down or diagonal: one move
    }
    Expected<Heatmap> h = compose_heatmap_with_layout(H, path, HeatmapOptions{});
    ASSERT_TRUE(h) << h.error().message;
    const Image& img = h->image;
    const Rect m = h->layout.matrix;
    ASSERT_EQ(m.h, 2048);
    ASSERT_EQ(m.w, 1638);
    const PathStyle style = path_style(h->scale.map);

    int min_x = img.width, max_x = -1, min_y = img.height, max_y = -1;
    std::vector<int> per_column(m.w, 0), per_row(m.h, 0);
    int outline = 0;
    for (int y = m.y; y < m.y + m.h; ++y) {
        for (int x = m.x; x < m.x + m.w; ++x) {
            const Rgb c = img.pixel(x, y);
            outline += c == style.outline;
            if (c != style.core) continue;
            ++per_column[x - m.x];
            ++per_row[y - m.y];
            min_x = std::min(min_x, x);
            max_x = std::max(max_x, x);
            min_y = std::min(min_y, y);
            max_y = std::max(max_y, y);
            // On the diagonal from corner to corner, within the line's width.
            const double expected_y = m.y + (x - m.x + 0.5) * m.h / m.w;
            EXPECT_NEAR(y, expected_y, 12.0) << "stray path pixel at " << x << ", " << y;
        }
    }
    ASSERT_GE(max_x, 0) << "no path pixels";
    EXPECT_LE(min_x - m.x, 4);
    EXPECT_GE(max_x, m.x + m.w - 5);
    EXPECT_LE(min_y - m.y, 4);
    EXPECT_GE(max_y, m.y + m.h - 5);
    for (int x = min_x; x <= max_x; ++x) EXPECT_GE(per_column[x - m.x], 2) << "gap in column " << x;
    for (int y = min_y; y <= max_y; ++y) EXPECT_GE(per_row[y - m.y], 2) << "gap in row " << y;
    EXPECT_GT(outline, m.h) << "the path has an outline";
}

TEST(Heatmap, PathOnUpscaledCellsPassesThroughCellCenters) {
    Grid<int32_t> H = grid(4, 4);
    const std::vector<Cell> path = {{0, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 3}};
    Expected<Heatmap> h = compose_heatmap_with_layout(H, path, bare(400));
    ASSERT_TRUE(h);
    const Rect m = h->layout.matrix;
    const Rgb core = path_style(h->scale.map).core;
    for (const Cell& c : path) EXPECT_EQ(h->image.pixel(m.x + c.j * 100 + 50, m.y + c.i * 100 + 50), core);
    for (size_t k = 1; k < path.size(); ++k) {  // unbroken between the centers
        for (int s = 0; s <= 20; ++s) {
            const double f = s / 20.0;
            const double i = path[k - 1].i + f * (path[k].i - path[k - 1].i);
            const double j = path[k - 1].j + f * (path[k].j - path[k - 1].j);
            EXPECT_EQ(h->image.pixel(m.x + static_cast<int>(j * 100 + 50), m.y + static_cast<int>(i * 100 + 50)), core)
                << "segment " << k << " at " << f;
        }
    }
    EXPECT_NE(h->image.pixel(m.x + 3 * 100 + 50, m.y + 0 * 100 + 50), core);  // off the path

    HeatmapOptions no_path = bare(400);
    no_path.draw_path = false;
    Expected<Heatmap> plain = compose_heatmap_with_layout(H, path, no_path);
    ASSERT_TRUE(plain);
    EXPECT_EQ(count_color(plain->image, m, core), 0);
}

// ---------------------------------------------------------------------------------------------
// Colorbar, caption, axis hints
// ---------------------------------------------------------------------------------------------

Grid<int32_t> ramp(int rows, int cols) {
    Grid<int32_t> H = grid(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) H.at(i, j) = i + j;
    return H;
}

TEST(Heatmap, ColorbarShowsTheMapMaxOnTop) {
    Expected<Heatmap> h = compose_heatmap_with_layout(ramp(60, 80), {}, bare(400));
    ASSERT_TRUE(h);
    const Rect bar = h->layout.colorbar;
    ASSERT_FALSE(bar.empty());
    EXPECT_GE(bar.x, h->layout.matrix.x + h->layout.matrix.w);  // to the right of the matrix
    EXPECT_EQ(count_color(h->image, bar, kWhite), 0);
    const Rgb top = h->image.pixel(bar.x + bar.w / 2, bar.y), bottom = h->image.pixel(bar.x + bar.w / 2, bar.y + bar.h - 1);
    const Rgb hi = colorize(Colormap::viridis, 1.f), lo = colorize(Colormap::viridis, 0.f);
    EXPECT_NEAR(top.g, hi.g, 4);
    EXPECT_NEAR(top.b, hi.b, 4);
    EXPECT_NEAR(bottom.g, lo.g, 4);
    EXPECT_NEAR(bottom.b, lo.b, 4);
    // Labels: dark text pixels right of the bar.
    int ink = 0;
    for (int y = 0; y < h->image.height; ++y)
        for (int x = bar.x + bar.w + 2; x < h->image.width; ++x) ink += h->image.pixel(x, y).r < 100;
    EXPECT_GT(ink, 20);

    HeatmapOptions none = bare(400);
    none.colorbar = false;
    Expected<Heatmap> without = compose_heatmap_with_layout(ramp(60, 80), {}, none);
    ASSERT_TRUE(without);
    EXPECT_TRUE(without->layout.colorbar.empty());
    EXPECT_LE(without->layout.width, h->layout.width);
}

TEST(Heatmap, CaptionIsDrawnBelowTheMatrix) {
    HeatmapOptions o = bare(300);
    Expected<Heatmap> plain = compose_heatmap_with_layout(ramp(30, 30), {}, o);
    o.caption = "local  match 2 mismatch -3 gap 5/2  score 196";
    Expected<Heatmap> h = compose_heatmap_with_layout(ramp(30, 30), {}, o);
    ASSERT_TRUE(plain);
    ASSERT_TRUE(h);
    const Rect c = h->layout.caption;
    ASSERT_FALSE(c.empty());
    EXPECT_TRUE(plain->layout.caption.empty());
    EXPECT_GE(c.y, h->layout.matrix.y + h->layout.matrix.h);
    EXPECT_GT(h->layout.height, plain->layout.height);
    const int background = count_color(h->image, c, kWhite);
    EXPECT_GT(c.w * c.h - background, 100) << "caption text pixels";
}

TEST(Heatmap, LongOrOddCaptionsStayBounded) {
    HeatmapOptions o = bare(300);
    o.caption = std::string(5000, 'x') + " " + std::string(200, 'y') + "\nsecond paragraph";
    Expected<Heatmap> h = compose_heatmap_with_layout(ramp(30, 30), {}, o);
    ASSERT_TRUE(h);
    EXPECT_LE(h->layout.caption.h, kCaptionLines * 12 * h->layout.text_scale);
    EXPECT_LE(h->layout.caption.x + h->layout.caption.w, h->layout.width);

    o.caption = "score \xc2\xb5 \x01\x7f\t\xff end";  // UTF-8, controls, a stray byte: drawn as '?'
    Expected<Heatmap> odd = compose_heatmap_with_layout(ramp(30, 30), {}, o);
    ASSERT_TRUE(odd);
    EXPECT_EQ(odd->layout.caption.h, 12 * odd->layout.text_scale);
}

TEST(Heatmap, AxisHintsAreDrawnWhenAsked) {
    HeatmapOptions o = bare(300);
    Expected<Heatmap> bare_h = compose_heatmap_with_layout(ramp(30, 30), {}, o);
    Expected<Heatmap> labelled = compose_heatmap_with_layout(ramp(30, 30), {}, sized(300));
    ASSERT_TRUE(bare_h);
    ASSERT_TRUE(labelled);
    const Rect m = labelled->layout.matrix;
    EXPECT_GT(m.x, bare_h->layout.matrix.x);
    EXPECT_GT(m.y, bare_h->layout.matrix.y);
    const Rect top{m.x, 0, m.w, m.y - 1}, left{0, m.y, m.x - 1, m.h};  // short of the matrix frame
    EXPECT_GT(top.w * top.h - count_color(labelled->image, top, kWhite), 50) << "column hint";
    EXPECT_GT(left.w * left.h - count_color(labelled->image, left, kWhite), 50) << "row hint";
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

TEST(Heatmap, EmptyGridGivesOnePixel) {
    Expected<Image> img = compose_heatmap(Grid<int32_t>{}, {}, HeatmapOptions{});
    ASSERT_TRUE(img);
    EXPECT_EQ(img->width, 1);
    EXPECT_EQ(img->height, 1);
    EXPECT_EQ(img->rgb.size(), 3u);
}

TEST(Heatmap, RejectsAbsurdRequests) {
    const Grid<int32_t> H = ramp(5, 5);
    for (int side : {0, -1, kMaxImageSide + 1, 1 << 30}) {
        Expected<Image> img = compose_heatmap(H, {}, sized(side));
        ASSERT_FALSE(img) << side;
        EXPECT_EQ(img.error().kind, ErrorKind::usage);
        EXPECT_NE(img.error().message.find(std::to_string(side)), std::string::npos) << img.error().message;
    }
    Grid<int32_t> torn = ramp(5, 5);
    torn.data.pop_back();
    ASSERT_FALSE(compose_heatmap(torn, {}, HeatmapOptions{}));
    EXPECT_EQ(compose_heatmap(torn, {}, HeatmapOptions{}).error().kind, ErrorKind::usage);

    Expected<Image> off = compose_heatmap(H, {{0, 0}, {5, 5}}, HeatmapOptions{});
    ASSERT_FALSE(off);
    EXPECT_EQ(off.error().kind, ErrorKind::usage);
    EXPECT_NE(off.error().message.find("(5, 5)"), std::string::npos) << off.error().message;

    EXPECT_FALSE(colorize_matrix(H, ColorScale{}, {0, 10}));
    EXPECT_FALSE(colorize_matrix(H, ColorScale{}, {kMaxImageSide + 1, 10}));
}

TEST(Heatmap, MaxSideIsHonored) {
    for (int side : {1, 7, 100, 333}) {
        Expected<Heatmap> h = compose_heatmap_with_layout(ramp(50, 70), {{0, 0}, {1, 1}}, bare(side));
        ASSERT_TRUE(h) << side;
        EXPECT_LE(std::max(h->layout.matrix.w, h->layout.matrix.h), side);
        EXPECT_GE(h->layout.matrix.w, 1);
        EXPECT_EQ(h->image.rgb.size(), static_cast<size_t>(h->image.width) * h->image.height * 3);
    }
}

}  // namespace
}  // namespace dpviz::render
