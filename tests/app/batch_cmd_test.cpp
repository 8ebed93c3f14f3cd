// `dpviz batch`: one line (or JSON object) per pair whose score and end cell equal `dpviz align
// --score-only` on the same pair, the pairing rules, and the exit codes of bad requests.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "app/cli_run.hpp"
#include "cli.hpp"
#include "gpu_dispatch.hpp"

namespace fs = std::filesystem;

namespace dpviz::app {
namespace {

using namespace test;

// "score S end I J backend B" of dpviz align --score-only.
std::string align_score(std::vector<std::string> args) {
    args.insert(args.begin(), "align");
    args.push_back("--score-only");
    args.push_back("--backend");
    args.push_back("cpu-reference");
    const CliResult r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    std::smatch m;
    const std::string out = r.out;
    EXPECT_TRUE(std::regex_search(out, m, std::regex("score (-?[0-9.]+) end ([0-9]+) ([0-9]+)"))) << out;
    return m.size() == 4 ? m[1].str() + " " + m[2].str() + " " + m[3].str() : "<none>";
}

const char* kTargets = ">t1 first\nACGTTGCAACGTAGGT\n>t2\nTTTTACGTAC\n>t3\nGATTACAGATTACA\n";

}  // namespace

TEST(BatchCli, HelpAndUsageErrors) {
    const CliResult help = run({"batch", "--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("Usage: dpviz batch"), std::string::npos);
    EXPECT_NE(run({"--help"}).out.find("dpviz batch"), std::string::npos);
    EXPECT_EQ(run({"batch"}).code, 2);
    EXPECT_EQ(run({"batch", "--seq", "AC"}).code, 2);
    const CliResult unknown = run({"batch", "--frobnicate", "--seq", "AC", "GA"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("--frobnicate"), std::string::npos) << unknown.err;
    EXPECT_EQ(run({"batch", "--threads", "-3", "--seq", "AC", "GA"}).code, 2);
    EXPECT_EQ(run({"batch", "--backend", "gpu9", "--seq", "AC", "GA"}).code, 2);
    EXPECT_EQ(run({"batch", "--algo", "edit", "--gap-open", "3", "--seq", "AC", "GA"}).code, 2);
    const CliResult counts = run({"batch", "--seq", "AC,GT", "GA,CC,TT"});
    EXPECT_EQ(counts.code, 2);
    EXPECT_NE(counts.err.find("--all-vs-all"), std::string::npos) << counts.err;
    EXPECT_EQ(std::count(counts.err.begin(), counts.err.end(), '\n'), 1) << counts.err;
}

TEST(BatchCli, OneQueryAgainstManyTargetsEqualsAlignScoreOnly) {
    TempDir dir;
    const std::string q = dir.file("q.fa", ">q\nACGTAGGTACGA\n");
    const std::string t = dir.file("t.fa", kTargets);
    for (const std::string algo : {"local", "global", "semiglobal", "edit", "lcs"}) {
        const CliResult r = run({"batch", "--algo", algo, "--backend", "cpu", q, t});
        ASSERT_EQ(r.code, 0) << algo << ": " << r.err;
        const auto lines = lines_of(r.out);
        ASSERT_EQ(lines.size(), 4u) << r.out;
        EXPECT_EQ(lines[0].rfind("#pair\tquery\ttarget", 0), 0u) << lines[0];
        for (int k = 1; k <= 3; ++k) {
            const auto f = fields(lines[k]);
            ASSERT_EQ(f.size(), 9u) << lines[k];
            EXPECT_EQ(f[0], std::to_string(k));
            EXPECT_EQ(f[1], "q");
            EXPECT_EQ(f[2], "t" + std::to_string(k));
            EXPECT_EQ(f[8], "cpu");
            const std::string want =
                align_score({"--algo", algo, q, t, "--target-record", std::to_string(k)});
            EXPECT_EQ(f[5] + " " + f[6] + " " + f[7], want) << algo << " pair " << k;
        }
    }
}

TEST(BatchCli, PairingRulesAndJsonLines) {
    // Equal counts pair k with k; --all-vs-all makes the cross product, query-major.
    const CliResult pairwise = run({"batch", "--algo", "edit", "--backend", "cpu", "--json", "--seq", "KITTEN,ABC", "SITTING,ABD"});
    ASSERT_EQ(pairwise.code, 0) << pairwise.err;
    auto lines = lines_of(pairwise.out);
    ASSERT_EQ(lines.size(), 2u) << pairwise.out;
    EXPECT_NE(lines[0].find("\"score\":3"), std::string::npos) << lines[0];  // kitten -> sitting
    EXPECT_NE(lines[0].find("\"end_cell\":[6,7]"), std::string::npos) << lines[0];
    EXPECT_NE(lines[1].find("\"score\":1"), std::string::npos) << lines[1];
    EXPECT_NE(lines[1].find("\"backend\":\"cpu\""), std::string::npos) << lines[1];
    for (const auto& l : lines) EXPECT_TRUE(l.front() == '{' && l.back() == '}') << l;

    const CliResult all = run({"batch", "--algo", "edit", "--backend", "cpu", "--all-vs-all", "--seq", "KITTEN,ABC", "SITTING,ABD,X"});
    ASSERT_EQ(all.code, 0) << all.err;
    lines = lines_of(all.out);
    ASSERT_EQ(lines.size(), 7u) << all.out;
    EXPECT_EQ(fields(lines[3])[1], "query1");
    EXPECT_EQ(fields(lines[3])[2], "target3");
    EXPECT_EQ(fields(lines[4])[1], "query2");
    EXPECT_EQ(fields(lines[4])[5], "7");  // ABC -> SITTING: no letter in common
}

TEST(BatchCli, DtwEveryColumnIsASignal) {
    TempDir dir;
    const std::string q = dir.file("q.csv", "a,b\n0,1\n1,2\n2,2\n3,0\n");
    const std::string t = dir.file("t.csv", "x,y\n0,3\n1,1\n3,0\n");  // column k pairs with column k
    const CliResult r = run({"batch", "--algo", "dtw", "--backend", "cpu", q, t});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    for (int k = 1; k <= 2; ++k) {
        const auto f = fields(lines[k]);
        ASSERT_EQ(f.size(), 10u) << lines[k];
        const std::string want = align_score({"--algo", "dtw", "--column", std::to_string(k), q, t});
        EXPECT_EQ(f[5] + " " + f[6] + " " + f[7], want) << lines[k];
    }
}

TEST(BatchCli, InputErrorsNameFileAndRecord) {
    TempDir dir;
    const std::string q = dir.file("q.fa", ">q\nACDEFGHIK\n");
    const std::string t = dir.file("t.fa", ">good\nACDEF\n>bad\nAC#EF\n");
    const CliResult bad = run({"batch", "--matrix", "BLOSUM62", q, t});
    EXPECT_EQ(bad.code, 3) << bad.err;
    EXPECT_NE(bad.err.find("t.fa"), std::string::npos) << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_TRUE(bad.out.empty()) << bad.out;
    EXPECT_EQ(run({"batch", q, dir.file("missing_dir/none.fa", "")}).code, 3);
}

TEST(BatchCli, MemoryIsCheckedBeforeThePairsAreBuilt) {
    setenv("DPVIZ_MEMORY_LIMIT", "1000", 1);
    const CliResult r = run({"batch", "--all-vs-all", "--seq", "ACGT,GGA", "ACG,TTT,GA"});
    unsetenv("DPVIZ_MEMORY_LIMIT");
    EXPECT_EQ(r.code, 4) << r.err;
    EXPECT_NE(r.err.find("6 pairs need"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("split the batch"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(BatchCli, GpuBackendFallsBackWithANote) {
    const CliResult r = run({"batch", "--backend", "cuda-portable", "--algo", "lcs", "--seq", "ACGT", "AGT,CCGT"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(fields(lines[1])[5], "3");
    EXPECT_EQ(fields(lines[2])[5], "3");
    if (!gpu_usable()) {
        EXPECT_EQ(fields(lines[1])[8], "cpu");
        EXPECT_NE(r.err.find("ran on the CPU"), std::string::npos) << r.err;
    } else {
        EXPECT_EQ(fields(lines[1])[8], "cuda-portable");
    }
}

}  // namespace dpviz::app
