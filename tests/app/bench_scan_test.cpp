// dpviz bench --scan: its shapes, its refusals, the issue-bound columns (printed from stubbed
// figures; n/a on CPU rows), and on the CPU one store-sized pair per workload whose levels
// (score fill, the picture's store fill, a path over the checkpoints) agree; the table read back
// (the shipped one the GUI shows among them) and the workload a problem falls under.
#include <gtest/gtest.h>
#include <sys/stat.h>  // mkfifo

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "assets_dir.hpp"
#include "bench_scan.hpp"
#include "cli_run.hpp"
#include "dpviz/engine.hpp"
#include "exit_codes.hpp"
#include "temp_dir.hpp"

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

// A row's TCUPS from its shape ("N^2" or "M x N") and its time. Both are printed rounded (the
// time to 0.01 ms, TCUPS to 0.001): callers allow for that.
double printed_tcups(const ScanTableRow& r) {
    const size_t square = r.shape.find("^2"), x = r.shape.find(" x ");
    const double cells = square != std::string::npos ? std::pow(std::stod(r.shape.substr(0, square)), 2)
                                                     : std::stod(r.shape.substr(0, x)) * std::stod(r.shape.substr(x + 3));
    return cells / r.ms / 1e9;
}

// The table reads back as printed: a CPU scan's own output, every row that ran with its cells
// over its time (the pictures of a pair this small are skipped: no times, a note).
TEST(BenchScan, TableReadsBackAsPrinted) {
    const auto r = run({"bench", "--scan", "--backend", "cpu", "--pairs", "1000x1500", "--repeat", "1"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto rows = parse_scan_rows(r.out);
    ASSERT_EQ(rows.size(), 12u) << r.out;
    std::map<std::string, int> per_workload;
    for (const ScanTableRow& row : rows) {
        ++per_workload[row.workload];
        EXPECT_EQ(row.shape, "1000 x 1500");
        EXPECT_EQ(row.backend, "cpu");
        EXPECT_EQ(row.kernel, "");  // a CPU row names no kernel (a note is no kernel)
        if (row.level == "picture") {
            EXPECT_EQ(row.runs, 0) << r.out;
            continue;
        }
        EXPECT_EQ(row.runs, 1);
        EXPECT_GT(row.ms, 0.0);
        EXPECT_NEAR(row.tcups, printed_tcups(row), 0.0005 + printed_tcups(row) * 0.005 / row.ms) << row.workload;
    }
    EXPECT_EQ(per_workload, (std::map<std::string, int>{{"dtw", 3}, {"edit", 3}, {"local affine", 3}, {"local linear", 3}}));
}

// A row as the scan prints it, in its columns' widths.
std::string line(const std::string& w, const std::string& shape, const std::string& b, const std::string& lv,
                 const std::string& runs, const std::string& ms, const std::string& tc, const std::string& tail) {
    using C = ScanColumn;
    auto cell = [](C c, const std::string& v, bool left) {
        std::string pad(size_t(scan_width(c)) - v.size(), ' ');
        return left ? v + pad : pad + v;
    };
    return cell(C::workload, w, true) + cell(C::shape, shape, true) + cell(C::backend, b, true) +
           cell(C::level, lv, true) + cell(C::runs, runs, false) + cell(C::ms, ms, false) + cell(C::tcups, tc, false) +
           cell(C::over_score, "", false) + cell(C::per_cell, "n/a", false) + cell(C::bound_tcups, "n/a", false) +
           cell(C::of_bound, "n/a", false) + tail;
}

TEST(BenchScan, RowsOfATableAndNothingElse) {
    const std::string text =
        "# a comment\nworkload  M x N ...\n" +
        line("dtw", "185000 x 2200000", "cuda", "score", "1", "217.01", "1.876", "  dtw-noband dpx score; a note") + "\n" +
        line("edit", "65536^2", "cuda-portable", "path", "0", "-", "-", "  out of memory") + "\n" +
        line("edit", "65536^2", "warp-drive", "path", "1", "1.00", "4.295", "") + "\n" +  // no such backend
        line("edit", "65536^2", "cuda", "nowhere", "1", "1.00", "4.295", "") + "\n" +  // no such level
        "\n" + line("edit", "65536^2", "cuda", "score", "1", "1.00", "4.295", "  after the table") + "\n";
    const auto rows = parse_scan_rows(text);
    ASSERT_EQ(rows.size(), 2u) << text;
    EXPECT_EQ(rows[0].workload, "dtw");
    EXPECT_EQ(rows[0].shape, "185000 x 2200000");
    EXPECT_EQ(rows[0].runs, 1);
    EXPECT_DOUBLE_EQ(rows[0].ms, 217.01);
    EXPECT_DOUBLE_EQ(rows[0].tcups, 1.876);
    EXPECT_EQ(rows[0].kernel, "dtw-noband dpx score");
    EXPECT_EQ(rows[1].level, "path");
    EXPECT_EQ(rows[1].runs, 0);
    EXPECT_EQ(rows[1].ms, 0.0);
    EXPECT_EQ(rows[1].kernel, "");
    EXPECT_TRUE(parse_scan_rows("no table here\n").empty());
}

// The shipped tables (docs/scan), one per device: each names its device and date, the newest
// first; each workload's sizes and levels on both GPU backends, every row's TCUPS its cells over
// its time.
TEST(BenchScan, ShippedTablesHaveBothGpuBackendsOfEveryRow) {
    const std::vector<ScanTable> tables = load_scan_tables(shipped_reports_dir(DPVIZ_ASSETS, "scan"));
    ASSERT_GE(tables.size(), 2u) << tables[0].source;  // the H100's and the H200's
    for (size_t k = 0; k < tables.size(); ++k) {
        const ScanTable& t = tables[k];
        ASSERT_FALSE(t.rows.empty()) << t.source;
        EXPECT_NE(t.device.find("H"), std::string::npos) << t.about;
        EXPECT_EQ(t.date.size(), 10u) << t.about;
        if (k > 0) {
            EXPECT_GE(tables[k - 1].date, t.date) << t.source;
        }
        std::map<std::string, std::map<std::string, int>> backends;  // "workload shape level" -> backend -> rows
        for (const ScanTableRow& r : t.rows) {
            backends[r.workload + " " + r.shape + " " + r.level][r.backend]++;
            ASSERT_GT(r.runs, 0) << t.source << ": " << r.workload << " " << r.shape;
            EXPECT_NEAR(r.tcups, printed_tcups(r), 0.0005 + printed_tcups(r) * 0.005 / r.ms) << r.workload << " " << r.shape;
            EXPECT_FALSE(r.kernel.empty()) << "a GPU row names its kernel: " << r.workload << " " << r.shape;
        }
        EXPECT_GE(backends.size(), 48u) << t.source;  // 4 workloads x 4 sizes x 3 levels
        for (const auto& [row, by_backend] : backends)
            EXPECT_EQ(by_backend, (std::map<std::string, int>{{"cuda", 1}, {"cuda-portable", 1}})) << t.source << ": " << row;
    }
}

// The folder's tables: only regular bench_scan_*.txt files with rows (a FIFO is never opened),
// the newest run first whatever the files' names; the device and the date from the first line;
// why there is none when there is none.
TEST(BenchScan, TablesOfAFolderNewestFirst) {
    namespace fs = std::filesystem;
    test::TempDir d;
    const std::string row = line("edit", "65536^2", "cuda", "score", "1", "1.00", "4.295", "  edit dpx score") + "\n";
    EXPECT_EQ(load_scan_tables(d.path()).size(), 1u);
    EXPECT_NE(load_scan_tables(d.path())[0].source.find("holds no bench_scan_"), std::string::npos);
    d.file("bench_scan_a.txt", "# H200 (one GPU), 2026-12-03, load 0.5, `dpviz bench --scan`\nworkload ...\n" + row);
    d.file("bench_scan_b.txt", "# H100 80GB HBM3 (one GPU, a host), 2026-12-06 at 04:22, `dpviz bench --scan`\nworkload ...\n" + row);
    d.file("bench_scan_c.txt", "# H100 (one GPU), 2026-12-09, nothing measured\n");
    d.file("bench_scan_d.csv", "# H100 (one GPU), 2026-12-10\nworkload ...\n" + row);
    d.file("scan_e.txt", "# H100 (one GPU), 2026-12-11\nworkload ...\n" + row);
    d.file("bench_scan_f.txt", "no first line of the run\nworkload ...\n" + row);
    d.file("bench_scan_g.txt", "# A100, 2026-12-01, `dpviz bench --scan`\nworkload ...\n" + row);
    ASSERT_EQ(mkfifo(d.path("bench_scan_h.txt").c_str(), 0600), 0);  // never opened: it would block
    fs::create_directory(d.path("bench_scan_i.txt"));
    const std::vector<ScanTable> t = load_scan_tables(d.path());
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(t[0].device, "H100 80GB HBM3");
    EXPECT_EQ(t[0].date, "2026-12-06");
    EXPECT_EQ(t[0].source, d.path("bench_scan_b.txt"));
    EXPECT_EQ(t[0].rows.size(), 1u);
    EXPECT_EQ(t[1].device, "H200");
    EXPECT_EQ(t[1].date, "2026-12-03");
    EXPECT_EQ(t[2].device, "A100");  // no " (": the words before the first comma
    EXPECT_EQ(t[2].date, "2026-12-01");
    EXPECT_EQ(t[3].source, d.path("bench_scan_f.txt"));  // no date: last
    EXPECT_EQ(t[3].device, "");
    EXPECT_EQ(t[3].about, "");
    EXPECT_NE(read_scan_table(d.path("bench_scan_c.txt")).source.find("holds no rows"), std::string::npos);
    EXPECT_TRUE(load_scan_tables("")[0].rows.empty());
    EXPECT_NE(load_scan_tables("/nonexistent")[0].source.find("cannot be read"), std::string::npos);
}

TEST(BenchScan, WorkloadOfAProblem) {
    ScoringOptions s;
    s.gaps = {2, 2};
    auto workload = [&](Algorithm a) {
        auto p = make_problem(a, {"q", "ACGT"}, {"t", "ACGA"}, s);
        EXPECT_TRUE(p);
        return p ? scan_workload(*p) : "?";
    };
    EXPECT_EQ(workload(Algorithm::local), "local linear");
    EXPECT_EQ(workload(Algorithm::edit), "edit");
    EXPECT_EQ(workload(Algorithm::global), "");
    EXPECT_EQ(workload(Algorithm::lcs), "");
    s.gaps = {10, 1};
    EXPECT_EQ(workload(Algorithm::local), "local affine");
    auto dtw = make_dtw_problem({"q", {1.0, 2.0}}, {"t", {1.5, 2.5}}, s);
    ASSERT_TRUE(dtw);
    EXPECT_EQ(scan_workload(*dtw), "dtw");
}

}  // namespace
}  // namespace dpviz::app
