// The command line: `dpviz align`, `dpviz bench`, `dpviz --help`, `dpviz --version`.
// run_cli never exits; it returns the process exit code (see exit codes in --help / README).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dpviz::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInput = 3;
inline constexpr int kExitResource = 4;
inline constexpr int kExitDevice = 5;

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
