// The UI scale: Ctrl +, Ctrl - and Ctrl 0 step the zoom, the font atlas and style are rebuilt at
// the new size (DejaVu Sans and Sans Mono when installed), the zoom is saved in session.ini and
// read back, and `--scale` sets the base instead of the monitor. Headless frames, no GL.
#include "gui_test_util.hpp"
#include "gui/gui.hpp"
#include "gui/keys.hpp"
#include "gui/session.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

float font_px_in_a_frame(HeadlessImGui& ui, AppState& s) {
    apply_ui_scale(s);  // what the frame loop does before each frame
    ui.frame(s);
    return ImGui::GetFontSize();
}

TEST(GuiScale, ZoomSteps) {
    EXPECT_FLOAT_EQ(zoom_step(1.0f, +1), 1.1f);
    EXPECT_FLOAT_EQ(zoom_step(1.0f, -1), 0.9f);
    EXPECT_FLOAT_EQ(zoom_step(1.05f, +1), 1.1f);  // a zoom between steps goes to the next one
    EXPECT_FLOAT_EQ(zoom_step(1.05f, -1), 1.0f);
    EXPECT_FLOAT_EQ(zoom_step(3.0f, +1), 3.0f);   // the ends stay
    EXPECT_FLOAT_EQ(zoom_step(0.5f, -1), 0.5f);
    UiScale u;
    u.base = 2.0f;
    u.zoom = 3.0f;
    EXPECT_FLOAT_EQ(ui_scale(u), kMaxUiScale);  // clamped
    u.base = 1.5f;
    u.zoom = 1.0f;
    EXPECT_FLOAT_EQ(ui_scale(u), 1.5f);
}

TEST(GuiScale, CtrlPlusMinusAndZeroRebuildTheFonts) {
    HeadlessImGui ui;
    AppState s = fresh_state();
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), kBaseFontPx);
    const float padding = ImGui::GetStyle().FramePadding.x;

    press_key(ui, s, kKeyEqual, /*ctrl=*/true);  // Ctrl + (the = key)
    EXPECT_FLOAT_EQ(s.ui.zoom, 1.1f);
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), std::round(kBaseFontPx * 1.1f));
    press_key(ui, s, kKeyKeypadAdd, /*ctrl=*/true);
    EXPECT_FLOAT_EQ(s.ui.zoom, 1.25f);
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), std::round(kBaseFontPx * 1.25f));
    // The style is the base style scaled (ScaleAllSizes rounds down), not scaled again and again.
    EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, std::floor(padding * 1.25f));
    EXPECT_GT(ImGui::GetStyle().FramePadding.x, padding);

    for (int k = 0; k < 4; ++k) press_key(ui, s, kKeyMinus, /*ctrl=*/true);
    EXPECT_FLOAT_EQ(s.ui.zoom, 0.8f);
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), std::round(kBaseFontPx * 0.8f));
    press_key(ui, s, kKeyMinus, /*ctrl=*/false);  // no Ctrl: no change
    EXPECT_FLOAT_EQ(s.ui.zoom, 0.8f);
    press_key(ui, s, kKey0, /*ctrl=*/true);
    EXPECT_FLOAT_EQ(s.ui.zoom, 1.0f);
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), kBaseFontPx);

    EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, padding);
    // The same scale again: nothing to rebuild.
    EXPECT_FALSE(apply_ui_scale(s));
    // The monitor's scale (or --scale) multiplies the zoom.
    s.ui.base = 2.0f;
    EXPECT_TRUE(apply_ui_scale(s));
    EXPECT_FLOAT_EQ(font_px_in_a_frame(ui, s), 2 * kBaseFontPx);
}

TEST(GuiScale, DejaVuSansAndMonoWhenInstalled) {
    if (find_font_file("DejaVuSans.ttf").empty() || find_font_file("DejaVuSansMono.ttf").empty())
        GTEST_SKIP() << "fonts-dejavu-core is not installed";
    HeadlessImGui ui;
    AppState s = fresh_state();
    apply_ui_scale(s);
    EXPECT_TRUE(s.ui.font_note.empty()) << s.ui.font_note;
    ui.frame(s);
    ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    ASSERT_EQ(atlas.Fonts.Size, 2);
    EXPECT_NE(std::string(atlas.Fonts[0]->GetDebugName()).find("DejaVuSans.ttf"), std::string::npos);
    EXPECT_NE(std::string(atlas.Fonts[1]->GetDebugName()).find("DejaVuSansMono.ttf"), std::string::npos);
    EXPECT_EQ(mono_font(), atlas.Fonts[1]);
    // Mono: every letter as wide as the next; Sans: proportional.
    const auto width = [](ImFont* f, const char* t) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, t).x; };
    EXPECT_FLOAT_EQ(width(atlas.Fonts[1], "i"), width(atlas.Fonts[1], "W"));
    EXPECT_LT(width(atlas.Fonts[0], "i"), width(atlas.Fonts[0], "W"));
}

TEST(GuiScale, ZoomIsSavedAndLoaded) {
    AppState s = fresh_state();
    s.ui.zoom = 1.25f;
    s.ui.base = 2.0f;  // the monitor's: not saved
    const std::string text = session_text(s);
    EXPECT_NE(text.find("\nui_zoom=1.25\n"), std::string::npos) << text;
    TempDir dir;
    ASSERT_TRUE(save_session(s, dir.path()));
    AppState back;
    load_session(back, dir.path());
    EXPECT_FLOAT_EQ(back.ui.zoom, 1.25f);
    EXPECT_FLOAT_EQ(back.ui.base, 1.0f);
    // An old session without the key keeps the default; a value out of range is not taken.
    AppState old;
    apply_session_text(old, "algo=global\n");
    EXPECT_EQ(old.params.algo, Algorithm::global);
    EXPECT_FLOAT_EQ(old.ui.zoom, 1.0f);
    EXPECT_EQ(apply_session_text(old, "ui_zoom=40\n"), 0);
    EXPECT_FLOAT_EQ(old.ui.zoom, 1.0f);
}

TEST(GuiScale, ScaleOption) {
    const AppState session;
    auto o = parse_gui_args({"gui", "--scale", "2"}, session);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_FLOAT_EQ(o->initial.ui.base, 2.0f);
    EXPECT_TRUE(o->initial.ui.base_fixed);
    auto d = parse_gui_args({"gui"}, session);
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->initial.ui.base_fixed);  // the monitor's content scale
    for (const char* bad : {"0", "9", "two", ""}) {
        const auto e = parse_gui_args({"gui", "--scale", bad}, session);
        ASSERT_FALSE(e) << bad;
        EXPECT_NE(e.error().message.find("--scale"), std::string::npos);
    }
}

TEST(GuiOptions, TeachStepCountsFromOne) {
    const AppState session;
    auto o = parse_gui_args({"gui", "--teach", "playback", "--teach-step", "1"}, session);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->initial.wavefront.playback.step, 0);  // the schedule's first step
    o = parse_gui_args({"gui", "--teach-step", "75"}, session);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->initial.wavefront.playback.step, 74);
    EXPECT_FALSE(parse_gui_args({"gui", "--teach-step", "0"}, session));
}

}  // namespace
}  // namespace dpviz::gui
