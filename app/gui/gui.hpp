// `dpviz gui [QUERY TARGET] [options]` (and `dpviz` with no arguments): the Dear ImGui window.
// run_gui never exits the process; it returns the exit code (0, 2 usage, 3 input, 5 no display
// or a blank frame in --screenshot mode).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "gui/app_state.hpp"
#include "gui/frame.hpp"
#include "gui/measure.hpp"

namespace dpviz::gui {

// What the command line asks for (parsed without opening a window; tests use it).
struct GuiOptions {
    AppState initial;            // inputs and parameters from the command line
    bool have_inputs = false;    // QUERY TARGET given: compute at start
    std::optional<Example> example;  // --example: loaded once the assets folder is known
    std::string screenshot;      // --screenshot FILE: render, save, exit
    int frames = 3;              // --frames N: frames rendered before the screenshot
    int width = 1280, height = 800;
    bool use_session = true;     // off with --screenshot or --no-session
    bool run_all_backends = false;  // --run-all: fill the timing panel at start
    std::optional<Cell> hover;   // --hover I,J: put the mouse on this cell (screenshots of the tooltip)
    std::optional<int> lesson;   // --lesson N (1-based): open this lesson at start
    int lesson_step = 1;         // --lesson-step K (1-based)
    MeasureOptions measure;      // --measure-interactive N, --measure-upload N, --json
    double timeout_s = 0;        // --timeout S for --screenshot and the measurements (0: their defaults)
    bool help = false;
};
// `args` are the arguments after "gui". `session` holds a saved session applied before the
// command line (command-line values win).
Expected<GuiOptions> parse_gui_args(const std::vector<std::string>& args, const AppState& session);
// The --view centre and the --hover cell must lie in the matrix of `rows` x `cols` cells
// (query length + 1 by target length + 1); the usage error names its size.
Status check_view_cells(const GuiOptions& o, int rows, int cols);

extern const char* const kGuiHelp;

}  // namespace dpviz::gui

namespace dpviz::app {
// The `gui` sub-command (app/main.cpp gives it to run_cli): `dpviz gui ...` and `dpviz` (no
// arguments, with a display) land here. `args` are the
// arguments after "gui" (a leading "gui" is skipped too).
int run_gui(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
}  // namespace dpviz::app
