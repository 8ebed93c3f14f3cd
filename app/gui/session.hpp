// Persistence between runs: imgui.ini (window layout) and session.ini (last inputs, parameters,
// view options, recent files) in $XDG_CONFIG_HOME/dpviz, else ~/.config/dpviz. Plain
// "key=value" lines; unknown keys are ignored, so old and new versions read each other's files.
// A session.ini that is not sound (cut short, binary, overlong lines, values out of range, not a
// plain file) is ignored as a whole: the GUI starts with the defaults and says so in one line.
#pragma once

#include <string>

#include "dpviz/expected.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

// "" when neither $XDG_CONFIG_HOME nor $HOME is set.
std::string config_dir();

std::string session_text(const AppState& s);
// Applies what it understands, line by line; returns how many keys were applied.
int apply_session_text(AppState& s, const std::string& text);
// All or nothing: applies `text` only if it is a sound session; otherwise leaves `s` as it was
// and returns why not, in a few words ("line 7: band=-3 is not a value dpviz uses").
std::string apply_session_file_text(AppState& s, const std::string& text);

Status save_session(const AppState& s, const std::string& dir);
// Applies `dir`/session.ini. A missing file is a first run (""); a file it ignores leaves `s`
// as it was and returns the one-line notice for the user (its path and why).
std::string load_session(AppState& s, const std::string& dir);

}  // namespace dpviz::gui
