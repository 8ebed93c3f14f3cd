// `dpviz align --region I0:I1,J0:J1 --table FILE / --png FILE`: the window's values, recomputed
// from the checkpoints of the fill (a GPU backend's or the CPU's), against the reference's whole
// matrices cell by cell, for every algorithm; the PNG of a window; one-line errors with their
// exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "dpviz/engine.hpp"
#include "exit_codes.hpp"
#include "gpu_dispatch.hpp"
#include "kernels/result_compare.hpp"

namespace dpviz::app {
namespace {

using test::run;

struct Pair {
    std::string query, target;
};

Pair related_pair(uint32_t seed, int m, int n) {
    std::mt19937 rng(seed);
    Pair p;
    p.query = dpviz::test::random_sequence(rng, dpviz::test::kDna, m);
    p.target = dpviz::test::mutate(rng, p.query, dpviz::test::kDna, 0.06);
    p.target.resize(size_t(n), 'G');
    return p;
}

std::string unit(const Problem& p, int32_t v) {
    if (v <= -kScoreBound) return "-inf";
    if (v >= kScoreBound) return "inf";
    return value_text(p, v);
}

// Every line of the table against the reference's cell: coordinates in row-major order, the
// values in the user's units, the bits.
void expect_table_is_reference(const std::string& table, const Problem& p, const DpResult& ref, int i0, int i1,
                               int j0, int j1) {
    const std::vector<std::string> lines = dpviz::test::lines_of(table);
    ASSERT_EQ(lines.size(), size_t((i1 - i0) * (j1 - j0) + 1));
    EXPECT_EQ(lines[0], p.affine() ? "i\tj\tH\tE\tF\tbits" : "i\tj\tH\tbits");
    size_t k = 1;
    for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j, ++k) {
            std::string want = std::to_string(i) + "\t" + std::to_string(j) + "\t" + unit(p, ref.H.at(i, j));
            if (p.affine()) want += "\t" + unit(p, ref.E.at(i, j)) + "\t" + unit(p, ref.F.at(i, j));
            want += "\t" + std::to_string(int(ref.dirs.at(i, j)));
            ASSERT_EQ(lines[k], want) << "line " << k;
        }
}

// Windows across several checkpoint lines (K = 256) and at the matrix's edges, for every
// alignment algorithm, linear and affine, on the CPU backend and the reference.
TEST(RegionCli, TableEqualsTheReferenceCells) {
    dpviz::test::TempDir dir;
    const Pair pair = related_pair(5, 1200, 1100);
    const std::string q = dir.file("q.fa", ">q\n" + pair.query + "\n"), t = dir.file("t.fa", ">t\n" + pair.target + "\n");
    struct Case {
        const char* algo;
        std::vector<std::string> scoring;
        const char* region;
        int i0, i1, j0, j1;
    };
    const Case cases[] = {
        {"local", {}, "250:262,500:515", 250, 262, 500, 515},
        {"global", {"--gap-open", "4", "--gap-extend", "1.5"}, "1190:1201,0:6", 1190, 1201, 0, 6},
        {"semiglobal", {"--match", "2", "--mismatch", "-3", "--gap-open", "3", "--gap-extend", "3"}, "0:4,1090:1101", 0, 4,
         1090, 1101},
        {"glocal", {}, "767:771,254:259", 767, 771, 254, 259},
        {"edit", {}, "510:515,768:775", 510, 515, 768, 775},
        {"lcs", {}, "1:3,1:1101", 1, 3, 1, 1101},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.algo);
        std::vector<std::string> args = {"align", "--algo", c.algo, "--region", c.region, "--table", dir.path("w.tsv"), q, t};
        args.insert(args.end(), c.scoring.begin(), c.scoring.end());
        const auto r = run(args);
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_NE(r.out.find("# table: " + dir.path("w.tsv")), std::string::npos) << r.out;
        // The reference with the same options.
        std::vector<std::string> ref_args = args;
        ref_args.push_back("--backend");
        ref_args.push_back("cpu-reference");
        ref_args[6] = dir.path("ref.tsv");
        const auto rr = run(ref_args);
        ASSERT_EQ(rr.code, kExitOk) << rr.err;
        EXPECT_EQ(dpviz::test::slurp(dir.path("w.tsv")), dpviz::test::slurp(dir.path("ref.tsv")));
        // And both against the engine's reference matrices, cell by cell.
        // (The cases scored with NUC.4.4 are checked through the CLI's reference above.)
        ScoringOptions s;
        const bool match_mismatch = !c.scoring.empty() && c.scoring[0] == "--match";
        if (match_mismatch) s.match = 2, s.mismatch = -3, s.gaps = {3, 3};
        else if (std::string(c.algo) != "edit" && std::string(c.algo) != "lcs") continue;
        auto p = make_problem(*parse_algorithm(c.algo), {"q", pair.query}, {"t", pair.target}, s);
        ASSERT_TRUE(p) << p.error().message;
        expect_table_is_reference(dpviz::test::slurp(dir.path("w.tsv")), *p, align_reference(*p), c.i0, c.i1, c.j0,
                                  c.j1);
    }
}

// A GPU backend's window comes from its own store (recomputed on that GPU); without one, the
// CPU's store answers and says so. Either way the table is the CPU's, value for value.
TEST(RegionCli, AGpuBackendsWindowEqualsTheCpus) {
    dpviz::test::TempDir dir;
    const Pair pair = related_pair(9, 900, 700);
    const std::string q = dir.file("q.fa", ">q\n" + pair.query + "\n"), t = dir.file("t.fa", ">t\n" + pair.target + "\n");
    const auto cpu = run({"align", "--region", "300:620,100:400", "--table", dir.path("cpu.tsv"), "--backend", "cpu", q, t});
    ASSERT_EQ(cpu.code, kExitOk) << cpu.err;
    for (const char* backend : {"cuda", "cuda-portable", "auto"}) {
        SCOPED_TRACE(backend);
        const auto r = run({"align", "--region", "300:620,100:400", "--table", dir.path("gpu.tsv"), "--backend", backend, q, t});
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_EQ(dpviz::test::slurp(dir.path("gpu.tsv")), dpviz::test::slurp(dir.path("cpu.tsv")));
        if (!gpu_usable() && std::string(backend) != "auto")
            EXPECT_NE(r.err.find(std::string(backend) + " unavailable ("), std::string::npos) << r.err;
    }
}

TEST(RegionCli, DtwWindowAndTheWholeMatrixTable) {
    dpviz::test::TempDir dir;
    std::mt19937 rng(8);
    std::normal_distribution<double> g(0.0, 1.0);
    std::string a, b;
    std::vector<double> qa, tb;
    for (int k = 0; k < 300; ++k) qa.push_back(g(rng)), a += std::to_string(qa.back()) + "\n";
    for (int k = 0; k < 280; ++k) tb.push_back(g(rng)), b += std::to_string(tb.back()) + "\n";
    const std::string qf = dir.file("a.txt", a), tf = dir.file("b.txt", b);
    const auto r = run({"align", "--algo", "dtw", "--band", "20", "--region", "100:120,90:140", "--table", "-", qf, tf});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    ScoringOptions s;
    s.band = 20;
    auto p = make_dtw_problem({"a", qa}, {"b", tb}, s);
    ASSERT_TRUE(p);
    // The signals as the CLI read them (printed with six decimals).
    auto rq = run({"align", "--algo", "dtw", "--band", "20", "--table", "-", "--backend", "cpu-reference", qf, tf});
    ASSERT_EQ(rq.code, kExitOk) << rq.err;
    const std::vector<std::string> whole = dpviz::test::lines_of(rq.out), window = dpviz::test::lines_of(r.out);
    ASSERT_EQ(whole.size(), size_t(301 * 281 + 1));
    ASSERT_EQ(window.size(), size_t(20 * 50 + 1));
    EXPECT_EQ(window[0], "i\tj\tH\tbits");
    size_t k = 1;
    for (int i = 100; i < 120; ++i)
        for (int j = 90; j < 140; ++j, ++k) ASSERT_EQ(window[k], whole[size_t(i * 281 + j + 1)]) << i << "," << j;
    EXPECT_NE(r.out.find("\tinf\t0"), std::string::npos) << "cells outside the band are unreachable";
}

TEST(RegionCli, PngOfAWindowHasTheWindowsShape) {
    dpviz::test::TempDir dir;
    const Pair pair = related_pair(6, 900, 900);
    const std::string q = dir.file("q.fa", ">q\n" + pair.query + "\n"), t = dir.file("t.fa", ">t\n" + pair.target + "\n");
    const auto r = run({"align", "--region", "300:340,280:400", "--png", dir.path("w.png"), q, t});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const std::string png = dpviz::test::slurp(dir.path("w.png"));
    ASSERT_GT(png.size(), 33u);
    ASSERT_EQ(png.substr(1, 3), "PNG");
    auto be32 = [&](size_t at) {
        return (uint32_t(uint8_t(png[at])) << 24) | (uint32_t(uint8_t(png[at + 1])) << 16) |
               (uint32_t(uint8_t(png[at + 2])) << 8) | uint32_t(uint8_t(png[at + 3]));
    };
    EXPECT_GT(be32(16), 2 * be32(20)) << "a 40 x 120 window is three times wider than high";
}

// The landscape table: every cell of the reported path is at the optimum, and nothing is above it.
TEST(RegionCli, LandscapeIsTheScoreAlongThePath) {
    dpviz::test::TempDir dir;
    const Pair pair = related_pair(9, 400, 380);
    const std::string q = dir.file("q.fa", ">q\n" + pair.query + "\n"), t = dir.file("t.fa", ">t\n" + pair.target + "\n");
    for (const char* algo : {"global", "local", "edit"}) {
        SCOPED_TRACE(algo);
        const auto r = run({"align", "--algo", algo, "--layer", "landscape", "--table", dir.path("l.tsv"), "--json", q, t});
        ASSERT_EQ(r.code, kExitOk) << r.err;
        auto p = make_problem(*parse_algorithm(algo), {"q", pair.query}, {"t", pair.target}, ScoringOptions{});
        const double score = std::stod(dpviz::test::json_field(r.out, "score"));
        const std::vector<std::string> lines = dpviz::test::lines_of(dpviz::test::slurp(dir.path("l.tsv")));
        ASSERT_EQ(lines.size(), size_t(401 * 381 + 1));
        EXPECT_EQ(lines[0], "i\tj\tL");
        const bool low = std::string(algo) == "edit";
        std::vector<double> L(lines.size() - 1);
        for (size_t k = 1; k < lines.size(); ++k) L[k - 1] = std::stod(dpviz::test::fields(lines[k])[2]);
        for (const double v : L) EXPECT_TRUE(low ? v >= score : v <= score) << v << " beyond the optimum " << score;
        // The path from the JSON's CIGAR, from its begin cell.
        int i = std::stoi(dpviz::test::json_field(r.out, "query_begin")), j = std::stoi(dpviz::test::json_field(r.out, "target_begin"));
        const std::string cigar = dpviz::test::json_field(r.out, "cigar");
        EXPECT_EQ(L[size_t(i) * 381 + j], score);
        int run_length = 0;
        for (const char c : cigar.substr(1, cigar.size() - 2)) {
            if (c >= '0' && c <= '9') { run_length = run_length * 10 + (c - '0'); continue; }
            for (int k = 0; k < run_length; ++k) {
                if (c != 'D') ++i;
                if (c != 'I') ++j;
                ASSERT_EQ(L[size_t(i) * 381 + j], score) << "path cell " << i << "," << j;
            }
            run_length = 0;
        }
    }
}

TEST(RegionCli, ErrorsAreOneLineWithTheirExitCodes) {
    dpviz::test::TempDir dir;
    const std::string out = dir.path("w.tsv");
    auto bad = [&](std::vector<std::string> extra, int code, std::string part) {
        std::vector<std::string> args = {"align", "--seq", "ACGTAC", "ACGA"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = run(args);
        test::expect_failure(r, code, {part});
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    };
    bad({"--region", "0:8,0:3", "--table", out}, kExitUsage, "rows 0:8 is not a non-empty range within 0:7");
    bad({"--region", "2:2,0:3", "--table", out}, kExitUsage, "rows 2:2");
    bad({"--region", "0:3,1:x", "--table", out}, kExitUsage, "the columns '1:x' is not START:END");
    bad({"--region", "0:3", "--table", out}, kExitUsage, "is not I0:I1,J0:J1");
    bad({"--region", "0:3,0:3"}, kExitUsage, "--region needs an output");
    bad({"--layer", "landscape", "--table", out, "--backend", "cuda"}, kExitUsage, "use --backend cpu");
    bad({"--table", "-", "--json"}, kExitUsage, "--table - is the only output");
    bad({"--table", dir.path()}, kExitResource, dir.path());
    bad({"--layer", "e", "--table", out}, kExitUsage, "unknown --layer 'e' (H, landscape)");
    bad({"--layer", "landscape"}, kExitUsage, "--layer landscape needs an image or a table");
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace dpviz::app
