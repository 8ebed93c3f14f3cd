// Persistence between runs: imgui.ini (window layout) and session.ini (last inputs, parameters,
// view options, recent files) in $XDG_CONFIG_HOME/dpviz, else ~/.config/dpviz. Plain
// "key=value" lines; unknown keys are ignored, so old and new versions read each other's files.
#pragma once

#include <string>

#include "dpviz/expected.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

// "" when neither $XDG_CONFIG_HOME nor $HOME is set.
std::string config_dir();

std::string session_text(const AppState& s);
// Applies what it understands; returns how many keys were applied.
int apply_session_text(AppState& s, const std::string& text);

Status save_session(const AppState& s, const std::string& dir);
void load_session(AppState& s, const std::string& dir);  // a missing or bad file is no error

}  // namespace dpviz::gui
