// The dpviz process as a shell runs it: standard output on a full disk or past a file-size limit
// is exit 4 with one line naming what was not written; --png never writes through or replaces
// a non-regular file; "-" is standard output; DPVIZ_MEMORY_LIMIT takes sizes as people write
// them; and one case per documented exit code, with the README and --help listing the same codes.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "app/cli_run.hpp"
#include "cli.hpp"
#include "dpviz/engine.hpp"

namespace fs = std::filesystem;

namespace dpviz::app {
namespace {

using test::slurp;
using test::TempDir;

const std::string kBin = DPVIZ_BINARY;

struct Shell {
    int code;
    std::string err;
};

// Runs `command` under /bin/sh in `dir` with stderr captured; `command` names the binary $DPVIZ.
Shell sh(const TempDir& dir, const std::string& command) {
    const std::string err = dir.path("stderr.txt");
    const std::string full = "cd '" + dir.path("") + "' && DPVIZ='" + kBin + "' /bin/sh -c '" + command + "' 2>'" + err + "'";
    const int status = std::system(full.c_str());
    Shell r{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(err)};
    fs::remove(err);
    return r;
}

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

// Commands whose output is standard output, each a success when it can write.
const char* const kPrintingCommands[] = {
    "\"$DPVIZ\" align --seq GATTACAGATTACA GATTTACAGATACA",
    "\"$DPVIZ\" align --json --algo global --seq GATTACA GATTTACA",
    "\"$DPVIZ\" align --score-only --seq GATTACA GATTTACA",
    "\"$DPVIZ\" batch --seq --algo edit ACGT,GATTACA,TTTT ACGA,GATACA,TTAT",
    "\"$DPVIZ\" batch --seq --json ACGT,GATTACA,TTTT ACGA,GATACA,TTAT",
    "\"$DPVIZ\" align --help",
    "\"$DPVIZ\" --version",
};

TEST(ProcessOutput, AFullDiskIsExit4WithOneLine) {
    TempDir dir;
    for (const char* cmd : kPrintingCommands) {
        const Shell ok = sh(dir, std::string(cmd) + " > out.txt");
        EXPECT_EQ(ok.code, 0) << cmd << ": " << ok.err;
        EXPECT_FALSE(slurp(dir.path("out.txt")).empty()) << cmd;
        const Shell full = sh(dir, std::string(cmd) + " > /dev/full");
        EXPECT_EQ(full.code, kExitResource) << cmd;
        EXPECT_EQ(full.err, "dpviz: writing standard output: No space left on device\n") << cmd;
    }
}

TEST(ProcessOutput, AClosedStandardOutputIsExit4) {
    TempDir dir;
    const Shell r = sh(dir, "\"$DPVIZ\" align --seq ACGT ACGT >&-");
    EXPECT_EQ(r.code, kExitResource);
    EXPECT_EQ(r.err, "dpviz: writing standard output: Bad file descriptor\n");
}

TEST(ProcessOutput, AFileSizeLimitStopsAResultMidWayAndSaysSo) {
    // ulimit -f counts 1 KiB blocks: a batch of 400 pairs prints far more than 2 KiB.
    TempDir dir;
    std::string queries, targets;
    for (int k = 0; k < 400; ++k) {
        queries += std::string(k ? "," : "") + "ACGTACGTTG";
        targets += std::string(k ? "," : "") + "ACGTTCGTTA";
    }
    const std::string cmd = "\"$DPVIZ\" batch --seq " + queries + " " + targets;
    ASSERT_EQ(sh(dir, cmd + " > all.tsv").code, 0);
    ASSERT_GT(fs::file_size(dir.path("all.tsv")), 8192u);
    const Shell r = sh(dir, "ulimit -f 2; " + cmd + " > cut.tsv");
    EXPECT_EQ(r.code, kExitResource);
    EXPECT_EQ(r.err, "dpviz: writing standard output: File too large\n");
}

const char* const kPair = "--algo global --seq GATTACAGATTACA GATTTACAGATACA";

TEST(ProcessOutput, PngToANonRegularFileIsRefusedAndTheFileKept) {
    TempDir dir;
    ASSERT_EQ(::mkfifo(dir.path("fifo").c_str(), 0600), 0);
    fs::create_directory(dir.path("folder"));
    fs::create_symlink("fifo", dir.path("to_fifo"));
    for (const std::string name : {"fifo", "to_fifo", "folder"}) {
        const Shell r = sh(dir, "\"$DPVIZ\" align --png " + name + " " + kPair + " > out.txt");
        EXPECT_EQ(r.code, kExitResource) << name;
        EXPECT_TRUE(one_line(r.err)) << r.err;
        EXPECT_EQ(r.err.rfind("dpviz: writing " + name + ": it is a", 0), 0u) << r.err;
        EXPECT_TRUE(slurp(dir.path("out.txt")).empty()) << name;  // refused before any output
    }
    struct stat sb {};
    ASSERT_EQ(::lstat(dir.path("fifo").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISFIFO(sb.st_mode));
    EXPECT_TRUE(fs::is_symlink(dir.path("to_fifo")));
    EXPECT_TRUE(fs::is_empty(dir.path("folder")));
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path(""))) names.insert(e.path().filename().string());
    EXPECT_EQ(names, (std::set<std::string>{"fifo", "folder", "out.txt", "to_fifo"}));  // no temporaries
}

TEST(ProcessOutput, PngThroughALinkReplacesItsTarget) {
    TempDir dir;
    fs::create_directory(dir.path("pictures"));
    dir.file("pictures/matrix.png", "old");
    fs::create_symlink("pictures/matrix.png", dir.path("latest.png"));
    const Shell r = sh(dir, std::string("\"$DPVIZ\" align --png latest.png ") + kPair + " > /dev/null");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dir.path("latest.png")));
    EXPECT_EQ(slurp(dir.path("pictures/matrix.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(ProcessOutput, PngPastAFileSizeLimitKeepsTheOldFile) {
    TempDir dir;
    dir.file("m.png", "old picture");
    const Shell r = sh(dir, std::string("ulimit -f 4; \"$DPVIZ\" align --png m.png --png-size 2048 ") + kPair + " > out.txt");
    EXPECT_EQ(r.code, kExitResource);
    EXPECT_EQ(r.err, "dpviz: writing m.png: File too large\n");
    EXPECT_EQ(slurp(dir.path("m.png")), "old picture");
    EXPECT_TRUE(slurp(dir.path("out.txt")).empty());
}

TEST(ProcessOutput, DashIsStandardOutputForPng) {
    TempDir dir;
    const Shell r = sh(dir, std::string("\"$DPVIZ\" align --png - ") + kPair + " > m.png");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string png = slurp(dir.path("m.png"));
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(png.find("# PNG"), std::string::npos);  // the PNG is the only output
    EXPECT_EQ(sh(dir, std::string("\"$DPVIZ\" align --png - > /dev/full ") + kPair).code, kExitResource);
    const Shell both = sh(dir, std::string("\"$DPVIZ\" align --png - --json ") + kPair + " > m2.png");
    EXPECT_EQ(both.code, kExitUsage);
    EXPECT_TRUE(one_line(both.err)) << both.err;
}

// DPVIZ_MEMORY_LIMIT in the process's environment.
class MemoryLimit {
public:
    explicit MemoryLimit(const char* v) { setenv("DPVIZ_MEMORY_LIMIT", v, 1); }
    ~MemoryLimit() { unsetenv("DPVIZ_MEMORY_LIMIT"); }
};

TEST(MemoryLimitVariable, SizesAreReadAsPeopleWriteThem) {
    EXPECT_EQ(parse_byte_size("1500000"), 1500000u);
    EXPECT_EQ(parse_byte_size("100MB"), 100u << 20);
    EXPECT_EQ(parse_byte_size("100M"), 100u << 20);
    EXPECT_EQ(parse_byte_size("100 MiB"), 100u << 20);
    EXPECT_EQ(parse_byte_size("512k"), 512u << 10);
    EXPECT_EQ(parse_byte_size("1.5GiB"), uint64_t(3) << 29);
    EXPECT_EQ(parse_byte_size("2t"), uint64_t(2) << 40);
    EXPECT_EQ(parse_byte_size(" 64B "), 64u);
    EXPECT_EQ(parse_byte_size("0"), 0u);
    for (const char* bad : {"", " ", "MB", "100XB", "1e9", "-5", "100 MBs", "1..5G", "16E", "0x100", "5 5",
                            "18446744073709551616", "17179869184G", "100MiBB"})
        EXPECT_FALSE(parse_byte_size(bad)) << "'" << bad << "'";
}

TEST(MemoryLimitVariable, MegabytesAreNotBytes) {
    // A 2000 x 2000 path needs ~4 MiB: 100MB lets it run, 100 bytes do not.
    const std::string q(2000, 'A'), t(2000, 'C');
    {
        const MemoryLimit lim("100MB");
        const test::CliResult r = test::run({"align", "--seq", "--score-only", q, t});
        EXPECT_EQ(r.code, kExitOk) << r.err;
        EXPECT_EQ(test::run({"align", "--seq", q, t}).code, kExitOk);
    }
    {
        const MemoryLimit lim("100");
        const test::CliResult r = test::run({"align", "--seq", q, t});
        EXPECT_EQ(r.code, kExitResource);
        EXPECT_NE(r.err.find("0.00 GiB available"), std::string::npos) << r.err;
    }
}

TEST(MemoryLimitVariable, AnythingElseIsAUsageErrorNamingTheVariable) {
    for (const char* bad : {"lots", "100XB", "1e9", "-1"}) {
        const MemoryLimit lim(bad);
        for (const auto& args : std::vector<std::vector<std::string>>{{"align", "--seq", "ACGT", "ACGT"},
                                                                       {"batch", "--seq", "ACGT", "ACGA"}}) {
            const test::CliResult r = test::run(args);
            EXPECT_EQ(r.code, kExitUsage) << bad << " " << args[0];
            EXPECT_EQ(r.err.rfind(std::string("dpviz: DPVIZ_MEMORY_LIMIT='") + bad + "' is not a size", 0), 0u) << r.err;
            EXPECT_TRUE(one_line(r.err)) << r.err;
        }
    }
}

TEST(ExitCodes, EachDocumentedCodeHasACase) {
    TempDir dir;
    const std::string fa = dir.file("two.fa", ">first\nACGTACGT\n>second\nACGTTT\n");
    const std::string long_header = dir.file("long.fa", ">" + std::string(size_t(2) << 20, 'h') + "\nACGT\n");
    dir.file("sig.csv", "time,value\n0,1.5\n1,2.5\n2,0.5\n");
    fs::create_directory(dir.path("a_folder"));
    struct Case {
        std::string command;
        int code;
        std::string says;
    };
    const std::vector<Case> cases = {
        {"\"$DPVIZ\" align --seq ACGT ACGT > /dev/null", kExitOk, ""},
        {"\"$DPVIZ\" align --frobnicate --seq ACGT ACGT", kExitUsage, "--frobnicate"},
        {"\"$DPVIZ\" align --query-record 0 two.fa two.fa", kExitUsage, "start at 1"},
        {"\"$DPVIZ\" align --query-record third two.fa two.fa", kExitInput, "no record named 'third'"},
        {"\"$DPVIZ\" align --target-record 3 two.fa two.fa", kExitInput, "record 3 requested"},
        {"\"$DPVIZ\" align --algo dtw --column volts sig.csv sig.csv", kExitInput, "no column named 'volts'"},
        {"\"$DPVIZ\" align --algo dtw --column 3 sig.csv sig.csv", kExitInput, "column 3 requested"},
        {"\"$DPVIZ\" align long.fa two.fa", kExitInput, "line longer than"},
        {"\"$DPVIZ\" align missing.fa two.fa", kExitInput, "missing.fa"},
        {"\"$DPVIZ\" align a_folder two.fa", kExitInput, "a_folder"},
        {"\"$DPVIZ\" align --seq ACGT AC-GT", kExitInput, "target"},
        {"DPVIZ_MEMORY_LIMIT=1K \"$DPVIZ\" align two.fa two.fa", kExitResource, "available"},
        {"\"$DPVIZ\" align --png a_folder two.fa two.fa", kExitResource, "a folder"},
        {"\"$DPVIZ\" align two.fa two.fa > /dev/full", kExitResource, "writing standard output"},
    };
    for (const Case& c : cases) {
        const Shell r = sh(dir, c.command);
        EXPECT_EQ(r.code, c.code) << c.command << ": " << r.err;
        if (c.code == kExitOk) {
            EXPECT_TRUE(r.err.empty()) << r.err;
            continue;
        }
        EXPECT_TRUE(one_line(r.err)) << c.command << ": " << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << c.command << ": " << r.err;
    }
    // Device: the GUI without a display (where dpviz was built with one).
    const Shell gui = sh(dir, "env -u DISPLAY -u WAYLAND_DISPLAY \"$DPVIZ\" gui --screenshot s.png");
    if (gui.err.find("built without the GUI") == std::string::npos) {
        EXPECT_EQ(gui.code, kExitDevice) << gui.err;
        EXPECT_TRUE(one_line(gui.err)) << gui.err;
    }
}

// The codes that `dpviz --help` lists, as "N  text" lines after "Exit codes:".
std::set<int> help_codes(const std::string& help) {
    std::set<int> codes;
    const std::regex line("\n  ([0-9])  [a-z]");
    for (auto it = std::sregex_iterator(help.begin(), help.end(), line); it != std::sregex_iterator(); ++it)
        codes.insert(std::stoi((*it)[1].str()));
    return codes;
}

TEST(ExitCodes, HelpAndReadmeListTheSameCodes) {
    const test::CliResult help = test::run({"--help"});
    ASSERT_EQ(help.code, kExitOk);
    const std::set<int> expected = {kExitOk, kExitScanWrong, kExitUsage, kExitInput, kExitResource, kExitDevice};
    EXPECT_EQ(help_codes(help.out), expected);
    const std::string readme = slurp(std::string(DPVIZ_ASSETS) + "/../README.md");
    std::set<int> in_readme;
    const std::regex row("\n\\| ([0-9]) \\| [a-z]");
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), row); it != std::sregex_iterator(); ++it)
        in_readme.insert(std::stoi((*it)[1].str()));
    EXPECT_EQ(in_readme, expected);
    // The words of each row agree on the cases this file tests.
    for (const char* phrase : {"unknown record", "line too long", "full disk", "FIFO"})
        EXPECT_NE(readme.find(phrase), std::string::npos) << phrase;
    for (const char* phrase : {"unknown record", "line\n     too long", "full disk"})
        EXPECT_NE(help.out.find(phrase), std::string::npos) << phrase;
}

}  // namespace
}  // namespace dpviz::app
