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
#include <string_view>
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

// The text table's columns, in order, and their widths: the table is printed with them and read
// back with them (parse_scan_rows: the GUI's timing panel shows the shipped table).
enum class ScanColumn { workload, shape, backend, level, runs, ms, tcups, over_score, per_cell, bound_tcups, of_bound };
inline constexpr int kScanColumnWidths[] = {14, 20, 15, 9, 5, 12, 9, 12, 12, 13, 10};
constexpr int scan_width(ScanColumn c) { return kScanColumnWidths[int(c)]; }

// A row of a printed table, read back.
struct ScanTableRow {
    std::string workload, shape, backend, level;  // shape: "65536^2" or "185000 x 2200000"
    int runs = 0;                                  // 0: the row failed (no times)
    double ms = 0, tcups = 0;
    std::string kernel;                            // the GPU kernel that ran ("" on the CPU, or when none ran)
};
// The rows of a printed table: the lines after its header line, up to the first blank line; a
// line that is no row (another table, a comment) is skipped.
std::vector<ScanTableRow> parse_scan_rows(std::string_view text);

// A table shipped in docs/scan (installed as share/dpviz/scan), one per device it ran on: what
// its first line says of the run (device, date, load, command, conditions), the device and the
// date from that line ("H100 80GB HBM3", "2026-12-06": the words before its first " (" or ","
// and its first YYYY-MM-DD), its rows, and which file they came from (or why none did).
struct ScanTable {
    std::string about, source, device, date;
    std::vector<ScanTableRow> rows;
};
ScanTable read_scan_table(const std::string& path);
// Every bench_scan_*.txt of the folder that holds rows, the newest run first (by date, then by
// file name); when none does, one table without rows whose source says why.
std::vector<ScanTable> load_scan_tables(const std::string& scan_dir);

// The scan's workload a problem's fill is timed by ("local linear", "local affine", "edit",
// "dtw": a kernel does not depend on the scores' values), or "" when the scan has none. The
// scan's pairs are DNA: its local score rows (linear and affine) and edit's are the one-pair
// kernel's (edit in its corner form), which takes at most 4 residue codes and scores within its
// range and end-cell key (a protein pair's score fill runs the band kernel), as DTW's rows
// without a band are (pair_score_kernel in dpviz/engine.hpp); each row names its kernel.
std::string scan_workload(const Problem& p);

// Exit status: 0; 1 when a row failed or disagrees with the pair's first row on the score;
// kExitDevice when a GPU backend was asked for and no GPU runs it (a scan never measures the CPU
// in a GPU's place: the scan ends there).
int run_scan_bench(const ScanOptions& o, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
