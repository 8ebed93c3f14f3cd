// The teaching views' layer over the matrix canvas (an ImGui draw-list layer over the texture):
// playback greys the cells not yet computed and marks the front; ownership colours each row group
// by its block, warp or lane; both can show tile boundaries and, at cell scale, the tile order.
#pragma once

#include <imgui.h>

#include "gui/view_math.hpp"

namespace dpviz::gui {

struct AppState;
struct Computed;

// Colours the tests look for (ownership colours: owner_color in teach_playback.hpp).
inline constexpr ImU32 kPendingColor = IM_COL32(38, 38, 44, 232);   // not yet computed
inline constexpr ImU32 kFrontColor = IM_COL32(255, 120, 30, 190);   // computed at the current step
inline constexpr ImU32 kTileLineColor = IM_COL32(255, 255, 255, 150);
// From this many pixels per cell, playback is drawn cell by cell (rows of a group at once);
// below, tile by tile (tiles merged until each is a few pixels).
inline constexpr double kCellScalePx = 3.0;

// Draws the current teaching view over the canvas (nothing when the view is none) and advances
// the playback clock by this frame's time. Called by the matrix panel.
void draw_teach_overlay(ImDrawList* dl, AppState& s, const Computed& c, const Canvas& cv);

}  // namespace dpviz::gui
