// dpviz bench --scan: its shapes, its refusals, the issue-bound columns (printed from stubbed
// figures; n/a on CPU rows), and on the CPU one store-sized pair per workload whose levels
// (score fill, the picture's store fill, a path over the checkpoints) agree.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "bench_scan.hpp"
#include "cli_run.hpp"
#include "dpviz/engine.hpp"
#include "exit_codes.hpp"

namespace dpviz::app {
namespace {

using test::expect_failure;
using test::run;

TEST(BenchScan, ShapesAreSquaresOrRectanglesWithinTheLimit) {
    EXPECT_EQ(parse_scan_shape("8192"), (std::pair{8192, 8192}));
    EXPECT_EQ(parse_scan_shape("1k"), (std::pair{1000, 1000}));
    EXPECT_EQ(parse_scan_shape("1M"), (std::pair{1 << 20, 1 << 20}));
    EXPECT_EQ(parse_scan_shape("185000x2200000"), (std::pair{185000, 2200000}));
    EXPECT_EQ(parse_scan_shape("4194304x1"), (std::pair{4194304, 1}));
    for (const char* bad : {"", "0", "x5", "5x", "4194305", "1.5k", "-3", "12345678901", "3x4x5", "5M"})
        EXPECT_FALSE(parse_scan_shape(bad)) << bad;
    const auto shapes = default_scan_shapes();
    ASSERT_FALSE(shapes.empty());
    EXPECT_EQ(shapes.front(), (std::pair{16384, 16384}));
    EXPECT_EQ(shapes.back(), (std::pair{185000, 2200000}));
}

TEST(BenchScan, RefusesWhatItDoesNotMeasure) {
    expect_failure(run({"bench", "--scan", "--algo", "local"}), kExitUsage, {"--algo", "--scan"});
    expect_failure(run({"bench", "--scan", "--level", "path"}), kExitUsage, {"--level"});
    expect_failure(run({"bench", "--scan", "--backend", "cpu-reference"}), kExitUsage, {"cpu-reference"});
    expect_failure(run({"bench", "--scan", "--pairs", "0"}), kExitUsage, {"--pairs", "'0'"});
    // Without a GPU the default backends (cuda, cuda-portable) end at once: the CPU never stands
    // in for them.
    if (gpu_description().rfind("not available", 0) == 0) {
        const auto r = run({"bench", "--scan", "--pairs", "2k"});
        expect_failure(r, kExitDevice, {"no GPU", "--backend cpu"});
        EXPECT_EQ(r.out, "");
    }
}

TEST(BenchScan, IssueBoundColumnsPrintWhatIsKnown) {
    KernelBound b;
    b.kernel = "align-affine dpx score";
    ScanBoundText t = scan_bound_text(b);  // nothing known: every column n/a
    EXPECT_EQ(t.per_cell, "n/a");
    EXPECT_EQ(t.bound_tcups, "n/a");
    EXPECT_EQ(t.fraction, "n/a");
    // 132 SMs at 1980 MHz, 12.69 instructions per cell: 132 x 4 x 1.98e9 x 32 / 12.69 = 2.636 TCUPS.
    GpuFigures g;
    g.sms = 132;
    g.clock_mhz = 1980;
    SassReport r;
    r.loops = parse_sass_loops("align-affine dpx score   203 instr  12.69 /cell  DPX  48   VIADDMNMX=48\n");
    b = kernel_bound(r, "align-affine dpx score", g, int64_t(65536) * 65536, 16.29);
    t = scan_bound_text(b);
    EXPECT_EQ(t.per_cell, "12.69");
    EXPECT_EQ(t.bound_tcups, "2.636");
    EXPECT_EQ(t.fraction, "10.0 %");  // 4.295e9 cells in 16.29 ms = 0.2637 TCUPS
    g.clock_mhz = 0;  // a GPU whose clock is unknown: the loop's count, no bound
    t = scan_bound_text(kernel_bound(r, "align-affine dpx score", g, int64_t(65536) * 65536, 16.29));
    EXPECT_EQ(t.per_cell, "12.69");
    EXPECT_EQ(t.bound_tcups, "n/a");
    EXPECT_EQ(t.fraction, "n/a");
}

TEST(BenchScan, CpuRowsHaveNoIssueBound) {
    const auto r = run({"bench", "--scan", "--backend", "cpu", "--pairs", "1k", "--repeat", "1"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("instr/cell"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bound TCUPS"), std::string::npos) << r.out;
    std::istringstream lines(r.out);
    int rows = 0;
    for (std::string l; std::getline(lines, l);) {
        if (l.find("1000^2") == std::string::npos) continue;
        ++rows;
        int na = 0;
        for (size_t at = l.find("n/a"); at != std::string::npos; at = l.find("n/a", at + 1)) ++na;
        EXPECT_EQ(na, 3) << "instr/cell, bound TCUPS and of bound: " << l;
        EXPECT_EQ(l.find(" dpx"), std::string::npos) << "a CPU row names no kernel: " << l;
    }
    EXPECT_EQ(rows, 12) << r.out;
}

// 8192^2 is past kCheckpointPathCells: every level goes through the result store.
TEST(BenchScan, EveryLevelOfAPairAgreesOnTheScore) {
    const auto r = run({"bench", "--scan", "--backend", "cpu", "--pairs", "8192", "--repeat", "1", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    std::map<std::string, std::map<std::string, std::string>> score;  // workload -> level -> score
    size_t rows = 0;
    for (size_t at = r.out.find("{\"workload\""); at != std::string::npos; at = r.out.find("{\"workload\"", at + 1)) {
        const std::string row = r.out.substr(at, r.out.find('}', at) - at + 1);
        ++rows;
        EXPECT_EQ(test::json_field(row, "m"), "8192") << row;
        EXPECT_EQ(test::json_field(row, "n"), "8192") << row;
        EXPECT_EQ(test::json_field(row, "runs"), "1") << row;
        EXPECT_GT(std::stod(test::json_field(row, "tcups")), 0.0) << row;
        EXPECT_EQ(test::json_field(row, "note"), "<missing>") << row;
        for (const char* gpu_only : {"kernel", "instr_per_cell", "bound_tcups", "of_bound"})
            EXPECT_EQ(test::json_field(row, gpu_only), "<missing>") << row;
        const std::string level = test::json_field(row, "level");
        EXPECT_EQ(test::json_field(row, "over_score") != "<missing>", level != "\"score\"") << row;
        score[test::json_field(row, "workload")][level] = test::json_field(row, "score");
    }
    EXPECT_EQ(rows, 12u) << r.out;
    ASSERT_EQ(score.size(), 4u) << r.out;
    for (const auto& [workload, levels] : score) {
        ASSERT_EQ(levels.size(), 3u) << workload;
        EXPECT_EQ(levels.at("\"picture\""), levels.at("\"score\"")) << workload;
        EXPECT_EQ(levels.at("\"path\""), levels.at("\"score\"")) << workload;
    }
    // The scores come from different fills (the score kernel's, the store's with the overview,
    // the store's traced): equal scores are the scan's own check too, and it found no mismatch.
    EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos);
}

}  // namespace
}  // namespace dpviz::app
