// The matrix panel's cell tools in headless frames: go to a cell (the field, its Go button,
// Ctrl+G), copying a cell's coordinates and value (Ctrl+C, Ctrl+Shift+C, the context menu) into
// the clipboard, and the parsing and ruler maths behind them.
#include "gui_test_util.hpp"
#include "gui/keys.hpp"
#include "gui/view_math.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

class GuiMatrixTools : public FramesTest {};

Vec2d canvas_center(const Canvas& cv) { return {cv.x + cv.w / 2, cv.y + cv.h / 2}; }

TEST_F(GuiMatrixTools, ParseCellText) {
    for (const char* t : {"12, 40", "12,40", "12 40", " (12, 40) ", "12\t40", "(12,40)"}) {
        const auto c = parse_cell_text(t);
        ASSERT_TRUE(c) << t;
        EXPECT_EQ(*c, (Cell{12, 40})) << t;
    }
    for (const char* t : {"", "12", "12,", "-1, 4", "1, 2, 3", "a, b", "(1, 2", "1 2)", "99999999999, 1"})
        EXPECT_FALSE(parse_cell_text(t)) << "'" << t << "'";
}

TEST_F(GuiMatrixTools, RulerStepIsTheSmallestNiceIntervalThatFits) {
    EXPECT_EQ(ruler_step(40.0, 30.0), 1);
    EXPECT_EQ(ruler_step(20.0, 30.0), 2);
    EXPECT_EQ(ruler_step(7.0, 30.0), 5);
    EXPECT_EQ(ruler_step(3.0, 30.0), 10);
    EXPECT_EQ(ruler_step(1.0, 30.0), 50);
    EXPECT_EQ(ruler_step(0.01, 30.0), 5000);
    for (const double px : {0.003, 0.2, 1.7, 9.0, 33.0})
        EXPECT_GE(double(ruler_step(px, 42.0)) * px, 42.0) << px;
}

TEST_F(GuiMatrixTools, GoToCellCentresItAtTableScale) {
    load_globins(ui, s, w);
    const double fitted = s.view.xf.cell_px;
    ASSERT_LT(fitted, 26.0);  // the whole matrix: far from table scale

    s.view.goto_text = "55, 52";
    activate(widget_id("Matrix", {"Go"}));
    ui.frame(s, &w);  // the button sets the centre ...
    ui.frame(s, &w);  // ... the next frame applies it
    EXPECT_TRUE(s.view.goto_error.empty()) << s.view.goto_error;
    EXPECT_GE(s.view.xf.cell_px, 40.0);
    ASSERT_TRUE(s.view.inspected);
    EXPECT_EQ(*s.view.inspected, (Cell{55, 52}));
    // The cell under the canvas's centre is the one asked for.
    const auto under = pick_cell(s.view.xf, s.view.canvas, canvas_center(s.view.canvas), s.result->rows(), s.result->cols());
    ASSERT_TRUE(under);
    EXPECT_EQ(*under, (Cell{55, 52}));

    // Outside the matrix, or not two numbers: refused with a reason, the view stays.
    const ViewTransform before = s.view.xf;
    for (const char* bad : {"143, 1", "1, 148", "row 3"}) {
        s.view.goto_text = bad;
        activate(widget_id("Matrix", {"Go"}));
        ui.frame(s, &w);
        ui.frame(s, &w);
        EXPECT_FALSE(s.view.goto_error.empty()) << bad;
        if (bad[0] != 'r')
            EXPECT_NE(s.view.goto_error.find("outside the matrix (rows 0-142, columns 0-147)"), std::string::npos)
                << s.view.goto_error;
        EXPECT_EQ(s.view.xf.cell_px, before.cell_px) << bad;
        EXPECT_EQ(s.view.xf.x0, before.x0) << bad;
    }

    // The last cell of the matrix is a valid target.
    s.view.goto_text = "142, 147";
    activate(widget_id("Matrix", {"Go"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_TRUE(s.view.goto_error.empty()) << s.view.goto_error;
    EXPECT_EQ(*s.view.inspected, (Cell{142, 147}));
}

TEST_F(GuiMatrixTools, CtrlGPutsTheKeyboardInTheGoToField) {
    load_globins(ui, s, w);
    const ImGuiID field = widget_id("Matrix", {"##goto"});
    EXPECT_NE(ImGui::GetActiveID(), field);
    press_key(ui, s, kKeyG, /*ctrl=*/true);
    ui.frame(s);
    EXPECT_EQ(ImGui::GetActiveID(), field);
    EXPECT_TRUE(ImGui::GetIO().WantTextInput);
    // G without Ctrl types a letter; it does not move the keyboard.
    ImGui::ClearActiveID();
    ui.frame(s);
    press_key(ui, s, kKeyG, /*ctrl=*/false);
    ui.frame(s);
    EXPECT_NE(ImGui::GetActiveID(), field);
}

TEST_F(GuiMatrixTools, CtrlCCopiesTheHoveredCellAndShiftAddsItsValue) {
    load_globins(ui, s, w);
    mouse_on_cell(ui, s, w, 55, 52);
    ASSERT_TRUE(s.view.hover);
    ASSERT_EQ(*s.view.hover, (Cell{55, 52}));

    ui.clipboard() = "untouched";
    press_key(ui, s, kKeyC, /*ctrl=*/false);
    EXPECT_EQ(ui.clipboard(), "untouched");  // C alone copies nothing
    press_key(ui, s, kKeyC, /*ctrl=*/true);
    EXPECT_EQ(ui.clipboard(), "55,52");
    press_key(ui, s, kKeyC, /*ctrl=*/true, /*shift=*/true);
    // The value in the user's units: the globins' default gaps (10 / 0.5) put the matrix at
    // score_scale 2, where H holds twice the score.
    const Problem& p = s.result->problem;
    ASSERT_EQ(p.score_scale, 2);
    const int32_t h = s.result->grid(Layer::H).at(55, 52);
    EXPECT_EQ(ui.clipboard(), "55,52," + format_score(h, 2));

    // Layer E shown (globins are affine): its value.
    s.view.layer = Layer::E;
    ui.frame(s, &w);
    press_key(ui, s, kKeyC, /*ctrl=*/true, /*shift=*/true);
    EXPECT_EQ(ui.clipboard(), "55,52," + format_score(s.result->grid(Layer::E).at(55, 52), 2));
    s.view.layer = Layer::H;

    // Mouse away from the matrix, Matrix panel not focused: nothing under the keys, nothing copied.
    ImGui::GetIO().MousePos = ImVec2(5, 300);
    ImGui::SetWindowFocus("Inputs");
    ui.frame(s, &w);
    ui.clipboard() = "untouched";
    press_key(ui, s, kKeyC, /*ctrl=*/true);
    EXPECT_EQ(ui.clipboard(), "untouched");
}

TEST_F(GuiMatrixTools, ContextMenuCopiesTheCellItWasOpenedOn) {
    load_globins(ui, s, w);
    mouse_on_cell(ui, s, w, 20, 30);
    ImGuiIO& io = ImGui::GetIO();
    io.MouseDown[1] = true;  // a right click
    ui.frame(s, &w);
    io.MouseDown[1] = false;
    ui.frame(s, &w);
    ASSERT_TRUE(s.view.context_cell);
    EXPECT_EQ(*s.view.context_cell, (Cell{20, 30}));
    const std::string menu = popup_window_name("Matrix", "cell_menu");
    ASSERT_NE(ImGui::FindWindowByName(menu.c_str()), nullptr);
    io.MousePos = ImVec2(5, 300);  // the mouse moves on: the menu keeps its cell
    ui.frame(s, &w);
    activate(widget_id(menu.c_str(), {"Copy 20,30"}));
    ui.frame(s, &w);
    EXPECT_EQ(ui.clipboard(), "20,30");
}

}  // namespace
}  // namespace dpviz::gui
