// Replays every file of tests/fuzz/corpus/<target>/ (seeds and saved crashes) through that
// target's harness: each parser returns a value or a one-line error, never throws, and the
// checks the fuzzers run (file = string = gzip, reference = CPU backend) hold on every file.
#include <gtest/gtest.h>

#include <algorithm>
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
