// The command line: exit codes, one-line errors that name the problem, JSON fields, and
// output files that are never partial or clobbered on failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "app/cli_run.hpp"
#include "cli.hpp"
#include "dpviz/engine.hpp"

namespace fs = std::filesystem;

namespace dpviz::app {
namespace {

using namespace test;

TEST(Cli, HelpVersionAndUsage) {
    const CliResult help = run({"--help"});
    EXPECT_EQ(help.code, kExitOk);
    EXPECT_NE(help.out.find("Exit codes"), std::string::npos);
    const CliResult ahelp = run({"align", "--help"});
    EXPECT_EQ(ahelp.code, kExitOk);
    EXPECT_NE(ahelp.out.find("--gap-open"), std::string::npos);
    EXPECT_EQ(run({"--version"}).out.rfind("dpviz ", 0), 0u);
    EXPECT_EQ(run({}).code, kExitUsage);
    const CliResult bad = run({"frobnicate"});
    EXPECT_EQ(bad.code, kExitUsage);
    EXPECT_NE(bad.err.find("frobnicate"), std::string::npos);
}

TEST(Cli, UsageErrorsNameTheOption) {
    const CliResult unknown = run({"align", "--seq", "--gapopen", "3", "ACGT", "ACGT"});
    EXPECT_EQ(unknown.code, kExitUsage);
    EXPECT_NE(unknown.err.find("--gapopen"), std::string::npos);
    EXPECT_EQ(run({"align", "--seq", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(run({"align", "--seq", "--algo", "blast", "ACGT", "ACGT"}).code, kExitUsage);
    const CliResult neg = run({"align", "--seq", "--gap-open", "-3", "ACGT", "ACGT"});
    EXPECT_EQ(neg.code, kExitUsage);
    EXPECT_NE(neg.err.find("positive"), std::string::npos);
    EXPECT_EQ(run({"align", "--seq", "--gap-open", "99999999", "ACGT", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(run({"align", "--seq", "--gap-open", "ten", "ACGT", "ACGT"}).code, kExitUsage);
    const CliResult ext = run({"align", "--seq", "--gap-open", "1", "--gap-extend", "5", "ACGT", "ACGT"});
    EXPECT_EQ(ext.code, kExitUsage);
    EXPECT_NE(ext.err.find("--gap-extend"), std::string::npos) << ext.err;
    EXPECT_EQ(run({"align", "--seq", "--match", "2", "--mismatch", "3", "ACGT", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(run({"align", "--seq", "--algo", "edit", "--matrix", "BLOSUM62", "ACGT", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(run({"align", "--seq", "--band", "3", "ACGT", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(run({"align", "--seq", "--backend", "tpu", "ACGT", "ACGT"}).code, kExitUsage);
    for (const CliResult& r : {unknown, neg}) EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// `bench --copies K` multiplies the literature workloads' pairs: refused anywhere else, and
// outside 1..1000, before anything is measured.
TEST(Cli, BenchCopiesIsForTheLiteratureWorkloadsOnly) {
    const CliResult alone = run({"bench", "--copies", "4"});
    EXPECT_EQ(alone.code, kExitUsage);
    EXPECT_NE(alone.err.find("--workloads literature"), std::string::npos) << alone.err;
    for (const char* bad : {"0", "1001", "many", "-2"}) {
        const CliResult r = run({"bench", "--workloads", "literature", "--copies", bad});
        EXPECT_EQ(r.code, kExitUsage) << bad;
        EXPECT_NE(r.err.find("--copies"), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    EXPECT_NE(run({"bench", "--help"}).out.find("--copies K"), std::string::npos);
}

TEST(Cli, JsonCarriesEveryFieldAndTheReferenceScore) {
    const std::string q = "MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMF", t = "MVHLTPEEKSAVTALWGKVNVDEVGGEALGRLL";
    const CliResult r = run({"align", "--seq", "--json", "--algo", "global", "--matrix", "BLOSUM62", "--gap-open", "10",
                       "--gap-extend", "1", "--backend", "cpu", q, t});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);  // exactly one object
    for (const char* key : {"algo", "score", "query_begin", "query_end", "target_begin", "target_end", "cigar",
                            "identity", "cells", "backend", "fill_ms", "traceback_ms"})
        EXPECT_NE(json_field(r.out, key), "<missing>") << key;
    EXPECT_EQ(json_field(r.out, "backend"), "\"cpu\"");
    EXPECT_EQ(json_field(r.out, "cells"), std::to_string(q.size() * t.size()));
    EXPECT_EQ(json_field(r.out, "query_end"), std::to_string(q.size()));
    // The whole job's wall clock holds the fill and the traceback it reports.
    EXPECT_GE(std::stod(json_field(r.out, "job_ms")),
              std::stod(json_field(r.out, "fill_ms")) + std::stod(json_field(r.out, "traceback_ms")));

    // The same problem through the library's reference: the CLI must report its score.
    const CliResult ref = run({"align", "--seq", "--json", "--algo", "global", "--matrix", "BLOSUM62", "--gap-open", "10",
                         "--gap-extend", "1", "--backend", "cpu-reference", q, t});
    ASSERT_EQ(ref.code, kExitOk) << ref.err;
    EXPECT_EQ(json_field(ref.out, "score"), json_field(r.out, "score"));
    EXPECT_EQ(json_field(ref.out, "cigar"), json_field(r.out, "cigar"));
}

TEST(Cli, DefaultTextShowsTheAlignment) {
    // Wikipedia's Smith-Waterman example.
    const CliResult r = run({"align", "--seq", "--match", "3", "--mismatch", "-3", "--gap-open", "2", "--gap-extend", "2",
                       "TGTTACGG", "GGTTGACTA"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(r.out.find("# Score: 13"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("GTT-AC"), std::string::npos) << r.out;
}

TEST(Cli, InputErrorsNameFileRecordPositionAndCharacter) {
    TempDir d;
    // E is not in NUC.4.4 (BLOSUM62 no longer rejects anything: J, O and U score 0 there, as in EMBOSS).
    const std::string q = d.file("q.fa", ">first\nACG\n>second\nACGTEA\n");
    const std::string t = d.file("t.fa", ">t\nACGTA\n");
    expect_failure(run({"align", "--matrix", "NUC.4.4", "--query-record", "second", q, t}), kExitInput,
                   {q, "second", "position 5", "'E'"});

    const CliResult missing = run({"align", d.path("nope.fa"), t});
    EXPECT_EQ(missing.code, kExitInput);
    EXPECT_NE(missing.err.find("nope.fa"), std::string::npos);
    EXPECT_EQ(run({"align", d.file("empty.fa", ""), t}).code, kExitInput);
    EXPECT_EQ(run({"align", d.file("garbage.bin", std::string("\x00\x01\xff\xfe", 4)), t}).code, kExitInput);
    const CliResult badmatrix = run({"align", "--matrix", "BLOSUM63", q, t});
    EXPECT_EQ(badmatrix.code, kExitUsage);  // neither a built-in name nor a file
    EXPECT_NE(badmatrix.err.find("BLOSUM63"), std::string::npos);
}

TEST(Cli, MemoryLimitIsAResourceErrorWithAHint) {
    setenv("DPVIZ_MEMORY_LIMIT", "1000", 1);
    const CliResult r = run({"align", "--seq", std::string(3000, 'A'), std::string(3000, 'C')});
    unsetenv("DPVIZ_MEMORY_LIMIT");
    EXPECT_EQ(r.code, kExitResource);
    EXPECT_NE(r.err.find("needs"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--score-only"), std::string::npos) << r.err;
}

TEST(Cli, ScoreOnlyRunsInLinearMemory) {
    const CliResult full = run({"align", "--seq", "--json", std::string(300, 'A') + "CCC", "CCC" + std::string(200, 'A')});
    ASSERT_EQ(full.code, kExitOk) << full.err;
    // 1 MB is far below the full matrix but enough for rolling rows.
    setenv("DPVIZ_MEMORY_LIMIT", "2000000", 1);
    const CliResult r = run({"align", "--seq", "--score-only", std::string(300, 'A') + "CCC", "CCC" + std::string(200, 'A')});
    unsetenv("DPVIZ_MEMORY_LIMIT");
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(r.out.rfind("score " + json_field(full.out, "score") + " ", 0), 0u) << r.out;
}

TEST(Cli, PngIsWrittenWholeOrNotAtAll) {
    TempDir d;
    const std::string png = d.path("m.png");
    const CliResult ok = run({"align", "--seq", "--png", png, "ACGTTGCAACGT", "ACGGCAACG"});
    ASSERT_EQ(ok.code, kExitOk) << ok.err;
    const std::string bytes = slurp(png);
    ASSERT_GT(bytes.size(), 8u);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

    // A failing run (bad input) leaves an existing file untouched.
    const std::string keep = d.file("keep.png", "old contents");
    EXPECT_EQ(run({"align", "--seq", "--gap-open", "-1", "--png", keep, "ACGT", "ACGT"}).code, kExitUsage);
    EXPECT_EQ(slurp(keep), "old contents");

    // An unwritable destination is a resource error and leaves nothing behind.
    const CliResult bad = run({"align", "--seq", "--png", d.path("no/such/dir/m.png"), "ACGT", "ACGT"});
    EXPECT_EQ(bad.code, kExitResource);
    EXPECT_FALSE(fs::exists(d.path("no")));
}

TEST(Cli, DtwReadsSignalsAndReportsQuantization) {
    TempDir d;
    const std::string a = d.file("a.csv", "value\n0.0\n1.5\n3.25\n2.0\n");
    const std::string b = d.file("b.csv", "value\n0.0\n0.1\n1.5\n3.0\n2.0\n2.0\n");
    const CliResult r = run({"align", "--algo", "dtw", "--json", a, b});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(json_field(r.out, "dtw_scale"), "<missing>");
    const double dist = std::stod(json_field(r.out, "dtw_distance"));
    const double ref = std::stod(json_field(r.out, "dtw_reference"));
    EXPECT_NEAR(dist, 0.35, 1e-3);  // |0.1-0| + |3.25-3.0| = 0.35 along the best warp
    EXPECT_NEAR(dist, ref, 1e-3);
    const CliResult nan = run({"align", "--algo", "dtw", a, d.file("nan.csv", "value\n1\nnan\n")});
    EXPECT_EQ(nan.code, kExitInput);
    EXPECT_NE(nan.err.find("nan.csv"), std::string::npos) << nan.err;
}

}  // namespace
}  // namespace dpviz::app
