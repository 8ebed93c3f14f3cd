// `dpviz bench --scan`: one pair's fill at growing sizes, the way a user's big pair runs: local
// linear and affine alignment, edit distance and DTW, at score level, with the result store's
// epilogues (the picture's fill: checkpoint lines and the pooled overview) and with a path, on
// each backend asked for. One table of TCUPS, the epilogues' cost over the bare score fill, a
// GPU row's fill against the issue bound of its kernel's instructions per cell (the SASS
// report), and a check that every level and backend agree on the score.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpviz/types.hpp"
#include "gpu_model.hpp"

namespace dpviz::app {

struct ScanOptions {
    std::vector<std::pair<int, int>> shapes;  // query x target lengths
    std::vector<Backend> backends;
    std::optional<int> repeat;                // timed runs per row (default by size, see the help)
    unsigned threads = 0;                     // CPU backend threads (0: all)
    uint32_t seed = 1;
    bool json = false;
};

// The default shapes: 16,384^2 to 1,048,576^2, and 185,000 x 2,200,000 (a bacterial region
// against a genome).
std::vector<std::pair<int, int>> default_scan_shapes();
// "N" (a square) or "MxN", each side 1 to 4,194,304; "k" and "M" suffixes allowed (1k = 1,000,
// 1M = 1,048,576).
std::optional<std::pair<int, int>> parse_scan_shape(const std::string& text);

// A row's issue-bound columns as printed: instructions per cell ("12.69"), the bound in TCUPS
// ("4.122") and the fill's fraction of it ("7.8 %"); "n/a" where unknown (a CPU row, a kernel the
// SASS report has no line for, a device that reports no clock).
struct ScanBoundText {
    std::string per_cell = "n/a", bound_tcups = "n/a", fraction = "n/a";
};
ScanBoundText scan_bound_text(const KernelBound& b);

// Exit status: 0; 1 when a row failed or disagrees with the pair's first row on the score;
// kExitDevice when a GPU backend was asked for and no GPU runs it (a scan never measures the CPU
// in a GPU's place: the scan ends there).
int run_scan_bench(const ScanOptions& o, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
