// Replays every file of tests/fuzz/corpus/<target>/ (seeds and saved crashes) through that
// target's harness: each parser returns a value or a one-line error, never throws, and the
// checks the fuzzers run (file = string = gzip, reference = CPU backend) hold on every file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"

namespace dpviz::fuzz {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = DPVIZ_FUZZ_CORPUS;

std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replays corpus/<target>/*, in name order; each finding names its file. (One test per target,
// not per file: value-parameterized names would carry GetParam() dumps into CTest's names.)
void replay(std::string_view target) {
    const Harness* h = find_harness(target);
    ASSERT_NE(h, nullptr);
    const fs::path dir = kCorpus / h->name;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty()) << "no seeds in " << dir;
    for (const fs::path& file : files) {
        const std::string bytes = read_bytes(file);
        Findings findings;
        EXPECT_NO_THROW(findings = run_harness(*h, bytes)) << file.string();
        for (const std::string& f : findings) ADD_FAILURE() << file.string() << ": " << f;
    }
}

TEST(Corpus, SequencesParseOrFailWithOneLineMessage) { replay("sequences"); }
TEST(Corpus, SignalsParseOrFailWithOneLineMessage) { replay("signal"); }
TEST(Corpus, MatricesParseOrFailWithOneLineMessage) { replay("matrix"); }
TEST(Corpus, CommandLinesExitWithOneLineMessage) { replay("cli"); }
TEST(Corpus, HmmModelsParseOrFailWithOneLineMessage) { replay("hmm"); }

// A command line that writes a file by a relative name (--table) writes it into the CLI
// harness's sandbox, never into the directory the fuzzer was started in (a repository checkout).
TEST(Corpus, CommandLinesWriteOnlyIntoTheSandbox) {
    std::string tmpl = (fs::temp_directory_path() / "dpviz-fuzz-started-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    const fs::path started = tmpl, before = fs::current_path();
    fs::current_path(started);
    const std::string name = "written.tsv";
    const std::string argv[] = {"align", "--seq", "ACGT", "--seq", "AGGT", "--region", "0:3,0:3", "--table", name};
    std::string bytes;
    for (const std::string& w : argv) bytes += w + '\0';
    bytes.pop_back();
    const Findings findings = run_harness(*find_harness("cli"), bytes);
    for (const std::string& f : findings) ADD_FAILURE() << f;
    EXPECT_FALSE(fs::exists(started / name)) << "the harness wrote into " << started;
    const fs::path in_sandbox = fs::path(cli_sandbox()) / name;
    EXPECT_TRUE(fs::exists(in_sandbox)) << "the table was not written at all";
    EXPECT_EQ(read_bytes(in_sandbox).rfind("i\tj\tH", 0), 0u) << read_bytes(in_sandbox);
    fs::current_path(before);
    std::error_code ec;
    fs::remove_all(started, ec);
}

// Every folder is a harness's, every harness has seeds, and the corpus stays small.
TEST(Corpus, FoldersMatchHarnessesAndStayUnderOneMegabyte) {
    uintmax_t total = 0;
    for (const auto& e : fs::recursive_directory_iterator(kCorpus))
        if (e.is_regular_file()) total += e.file_size();
    EXPECT_LT(total, uintmax_t(1) << 20) << "tests/fuzz/corpus is meant for small seeds";
    for (const auto& e : fs::directory_iterator(kCorpus)) {
        if (!e.is_directory()) continue;
        EXPECT_NE(find_harness(e.path().filename().string()), nullptr)
            << e.path() << " is not the corpus of a fuzz target";
    }
    for (const Harness& h : harnesses()) {
        const fs::path dir = kCorpus / h.name;
        EXPECT_TRUE(fs::is_directory(dir) && !fs::is_empty(dir)) << "no seeds for " << h.name;
    }
}

}  // namespace
}  // namespace dpviz::fuzz
