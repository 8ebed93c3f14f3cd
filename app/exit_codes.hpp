// The process exit codes of every dpviz command (the README's table; ErrorKind decides them).
#pragma once

namespace dpviz::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitScanWrong = 1;  // dpviz bench --scan: a row failed or disagrees on the score
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInput = 3;
inline constexpr int kExitResource = 4;
inline constexpr int kExitDevice = 5;

}  // namespace dpviz::app
