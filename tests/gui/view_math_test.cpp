// Zoom toward the cursor keeps the point under it fixed; pan, fit, 1:1, picking (screen ->
// cell) and the visible region with its texel count.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/view_math.hpp"

namespace dpviz::gui {
namespace {

const Canvas kCanvas{100, 50, 600, 400};

TEST(ViewMath, ScreenAndCellSpaceAreInverse) {
    const ViewTransform v{3.5, -2.25, 10.0};
    for (const Vec2d s : {Vec2d{100, 50}, Vec2d{433.3, 271.9}, Vec2d{699, 449}}) {
        const Vec2d back = to_screen(v, kCanvas, to_cell_space(v, kCanvas, s));
        EXPECT_NEAR(back.x, s.x, 1e-9);
        EXPECT_NEAR(back.y, s.y, 1e-9);
    }
}

TEST(ViewMath, ZoomTowardCursorKeepsThePointUnderIt) {
    ViewTransform v = fit(kCanvas, 300, 500);
    const Vec2d cursor{512.0, 123.0};
    const Vec2d before = to_cell_space(v, kCanvas, cursor);
    for (const double factor : {1.25, 1.25, 4.0, 0.5, 1.0 / 1.25}) {
        const ViewTransform z = zoom_at(v, kCanvas, cursor, factor, 300, 500);
        EXPECT_NEAR(z.cell_px, v.cell_px * factor, 1e-12);
        const Vec2d after = to_cell_space(z, kCanvas, cursor);
        EXPECT_NEAR(after.x, before.x, 1e-9);
        EXPECT_NEAR(after.y, before.y, 1e-9);
        v = z;
    }
}

TEST(ViewMath, ZoomIsClampedAndStillKeepsThePoint) {
    ViewTransform v = fit(kCanvas, 10, 10);
    const Vec2d cursor{300, 300};
    const Vec2d before = to_cell_space(v, kCanvas, cursor);
    const ViewTransform z = zoom_at(v, kCanvas, cursor, 1e6, 10, 10);
    EXPECT_DOUBLE_EQ(z.cell_px, kMaxCellPx);
    EXPECT_NEAR(to_cell_space(z, kCanvas, cursor).x, before.x, 1e-9);
    const ViewTransform out = zoom_at(v, kCanvas, cursor, 1e-9, 100000, 100000);
    EXPECT_DOUBLE_EQ(out.cell_px, min_cell_px(kCanvas, 100000, 100000));
    EXPECT_GT(out.cell_px, 0.0);
}

TEST(ViewMath, PanMovesContentWithTheMouse) {
    const ViewTransform v{4.0, 10.0, 20.0};
    const Vec2d grab{300, 200};
    const Vec2d cell = to_cell_space(v, kCanvas, grab);
    const ViewTransform p = pan_by(v, {40.0, -12.0});
    const Vec2d moved = to_screen(p, kCanvas, cell);
    EXPECT_NEAR(moved.x, 340.0, 1e-9);
    EXPECT_NEAR(moved.y, 188.0, 1e-9);
}

TEST(ViewMath, FitShowsTheWholeMatrixCentered) {
    const ViewTransform v = fit(kCanvas, 200, 100);  // taller than wide: height decides
    EXPECT_DOUBLE_EQ(v.cell_px, 2.0);
    const Vec2d tl = to_screen(v, kCanvas, {0, 0}), br = to_screen(v, kCanvas, {100, 200});
    EXPECT_NEAR(tl.y, kCanvas.y, 1e-9);
    EXPECT_NEAR(br.y, kCanvas.y + kCanvas.h, 1e-9);
    EXPECT_NEAR((tl.x + br.x) / 2, kCanvas.x + kCanvas.w / 2, 1e-9);
}

TEST(ViewMath, OneToOneKeepsTheCenter) {
    const ViewTransform v = fit(kCanvas, 3000, 3000);
    const Vec2d center{kCanvas.x + kCanvas.w / 2, kCanvas.y + kCanvas.h / 2};
    const Vec2d before = to_cell_space(v, kCanvas, center);
    const ViewTransform o = one_to_one(v, kCanvas);
    EXPECT_DOUBLE_EQ(o.cell_px, 1.0);
    EXPECT_NEAR(to_cell_space(o, kCanvas, center).x, before.x, 1e-9);
    EXPECT_NEAR(to_cell_space(o, kCanvas, center).y, before.y, 1e-9);
}

TEST(ViewMath, PickingMapsScreenToCell) {
    const ViewTransform v{10.0, 0.0, 0.0};  // cell (i, j) at x in [100 + 10j, 110 + 10j)
    EXPECT_EQ(pick_cell(v, kCanvas, {100.0, 50.0}, 20, 30), (Cell{0, 0}));
    EXPECT_EQ(pick_cell(v, kCanvas, {109.99, 59.99}, 20, 30), (Cell{0, 0}));
    EXPECT_EQ(pick_cell(v, kCanvas, {110.0, 60.0}, 20, 30), (Cell{1, 1}));
    EXPECT_EQ(pick_cell(v, kCanvas, {100 + 10 * 7 + 5, 50 + 10 * 3 + 5}, 20, 30), (Cell{3, 7}));
    EXPECT_FALSE(pick_cell(v, kCanvas, {99.0, 60.0}, 20, 30));          // outside the canvas
    EXPECT_FALSE(pick_cell(v, kCanvas, {100 + 10 * 30 + 1, 60}, 20, 30));  // right of the matrix
    // Under a zoom: the cell under the cursor is the one zoom_at kept there.
    const Vec2d cursor{377.0, 211.0};
    const ViewTransform z = zoom_at(v, kCanvas, cursor, 3.7, 20, 30);
    EXPECT_EQ(pick_cell(z, kCanvas, cursor, 20, 30), pick_cell(v, kCanvas, cursor, 20, 30));
}

TEST(ViewMath, VisibleRegionAndTexels) {
    // Zoomed out: 1000 x 2000 cells at 0.25 px -> pooled, one texel per screen pixel.
    ViewTransform v{0.25, 0.0, 0.0};
    render::TexelRequest r = view_request(v, kCanvas, 1000, 2000, false);
    EXPECT_EQ(r.i0, 0);
    EXPECT_EQ(r.j0, 0);
    EXPECT_EQ(r.rows, 1000);
    EXPECT_EQ(r.cols, 2000);
    EXPECT_EQ(r.out_w, 500);
    EXPECT_EQ(r.out_h, 250);
    // Zoomed in: one texel per cell, only the visible cells.
    v = {8.0, 100.5, 40.0};
    r = view_request(v, kCanvas, 1000, 2000, true);
    EXPECT_EQ(r.i0, 40);
    EXPECT_EQ(r.j0, 100);
    EXPECT_EQ(r.rows, 50);   // 400 / 8
    EXPECT_EQ(r.cols, 76);   // cells 100 .. 175 (partly visible at both ends)
    EXPECT_EQ(r.out_w, r.cols);
    EXPECT_EQ(r.out_h, r.rows);
    EXPECT_TRUE(r.mask);
    // Panned off the matrix: nothing.
    v = {8.0, -500.0, 0.0};
    EXPECT_EQ(view_request(v, kCanvas, 1000, 2000, false).rows, 0);
}

}  // namespace
}  // namespace dpviz::gui
