// The command prefix for the tests that run the real binary under a private X server:
// with_xvfb.sh starts Xvfb on a display number the server picks itself, and waits for the
// server to exit after the command, so no two runs (or a run and a dying server) share a number.
#pragma once

#include <string>

namespace dpviz::gui::testing {

inline std::string with_xvfb(const std::string& screen = "1280x800x24") {
    return std::string("bash ") + DPVIZ_WITH_XVFB + " " + screen + " ";
}

}  // namespace dpviz::gui::testing
