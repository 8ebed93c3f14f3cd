// The command line: `dpviz align`, `dpviz bench`, `dpviz --help`, `dpviz --version`.
// run_cli never exits; it returns the process exit code (see exit codes in --help / README).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "exit_codes.hpp"

namespace dpviz::app {

// A sub-command's entry point: its arguments (the command's name left out) -> the exit code.
using Command = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `gui`: the GUI's entry (gui::run_gui), given by main.cpp where the GUI is built (app/gui links
// this library, not the other way round); null: `dpviz gui` says the GUI is not built in. With
// no arguments and a display, run_cli starts the GUI too.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, Command gui = nullptr);

}  // namespace dpviz::app
