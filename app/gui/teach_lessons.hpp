// Lessons: guided scenarios from the "Lessons" menu. Each is a few steps; a step is a short
// text plus what it sets (inputs, parameters, panels) and the view it shows once its result is in
// (layer, mask, the inspected cell, the zoom).
#pragma once

#include <span>

#include "gui/app_state.hpp"

namespace dpviz::gui {

struct LessonStep {
    const char* title;
    const char* text;
    void (*apply)(AppState&);  // inputs, parameters, panels; requests the computation
    void (*view)(AppState&);   // once this step's result is shown: layer, mask, cell, zoom (may be null)
};

struct Lesson {
    const char* title;
    std::span<const LessonStep> steps;
};

std::span<const Lesson> lessons();

// Opens lesson `lesson` (0-based) at `step` (0-based, clamped) and applies that step.
void open_lesson(AppState& s, int lesson, int step = 0);
// Next / Back: apply the neighbouring step (nothing past either end).
void lesson_next(AppState& s);
void lesson_back(AppState& s);
void close_lesson(AppState& s);
// The step's view settings wait for its result: true once they have been applied.
bool lesson_view_applied(const AppState& s);

// Frame work of the lessons: applies a waiting view once its result is in. Called by the panel
// and by the menu bar, so it runs whether or not the Lesson panel is open.
void update_lesson(AppState& s);

void draw_lessons_menu(AppState& s);  // the menu bar's "Lessons" menu
void draw_teach_lesson(AppState& s);  // the Lesson panel: text, step k of n, Back / Next

}  // namespace dpviz::gui
