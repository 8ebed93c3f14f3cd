// The UI's fonts and scale: DejaVu Sans for the interface, DejaVu Sans Mono for matrix values,
// positions and sequences, rasterized by FreeType at the size the UI scale asks for. The scale
// is the monitor's content scale (or --scale) times the user's zoom (Ctrl +, Ctrl -, Ctrl 0).
#pragma once

#include <imgui.h>

#include <string>

#include "gui/app_state.hpp"

namespace dpviz::gui {

inline constexpr float kBaseFontPx = 14.0f;  // DejaVu Sans / Sans Mono at scale 1
inline constexpr float kMinUiScale = 0.5f, kMaxUiScale = 4.0f;

// base x zoom, clamped to [kMinUiScale, kMaxUiScale].
float ui_scale(const UiScale& u);
// The next zoom step up (direction > 0) or down (< 0) from `zoom`: 50 %, 67 %, 75 %, 80 %,
// 90 %, 100 %, 110 %, 125 %, 150 %, 175 %, 200 %, 250 %, 300 %.
float zoom_step(float zoom, int direction);

// Ctrl + (= or keypad +), Ctrl - and Ctrl 0 change s.ui.zoom. Called once per frame by draw_ui.
void handle_scale_keys(AppState& s);

// The TrueType file `name` (e.g. "DejaVuSans.ttf") in $DPVIZ_FONT_DIR or the usual system font
// folders (Debian's fonts-dejavu-core puts it in /usr/share/fonts/truetype/dejavu); "" if none.
std::string find_font_file(const std::string& name);

// When the scale differs from the one the fonts were built at: rebuilds the font atlas (sans
// first, mono second) at kBaseFontPx x scale and the style (dark, scaled with ScaleAllSizes).
// Returns true when it rebuilt (the GL loop then uploads the atlas again). No GL here, so the
// headless tests run it too. Sets s.ui.font_note when the TTF fonts are missing.
bool apply_ui_scale(AppState& s);

// The monospaced font (DejaVu Sans Mono), or the current font when the atlas has only one.
ImFont* mono_font();
// A length designed for the scale-1 UI, in pixels at the current font size.
float ui_px(float px_at_scale_1);

// Layout helpers for rows of widgets that wrap when the window is narrow.
// Continues the line when an item `width` wide still fits in the window, else starts a new one.
void same_line_if_fits(float width);
float button_width(const char* label);  // a Button's width for this label
float check_width(const char* label);   // a Checkbox's or RadioButton's

// ImGui::TextWrapped, but lines break only at spaces (ImGui also breaks after '.' and ',',
// which splits "0.15" into "0." and "15"); a word wider than the line is broken where it must.
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);
void text_wrapped_unformatted(const std::string& text);

}  // namespace dpviz::gui
