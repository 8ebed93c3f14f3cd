// The dpviz process under `ulimit -v` and `ulimit -d`: a request the limit cannot hold is refused
// by the memory check, and one let past it ($DPVIZ_MEMORY_LIMIT=100G) fails its allocation;
// both are exit 4 with one line, never a signal.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <string>

#include "exit_codes.hpp"
#include "temp_dir.hpp"
#include "test_text.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define DPVIZ_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPVIZ_TEST_ASAN 1
#endif
#endif

namespace dpviz::app {
namespace {

using dpviz::test::slurp;
using dpviz::test::TempDir;

// 30,000 x 30,000 on the reference backend (whole matrices, whatever the output): about 11 GiB,
// far past the 300 MB the limits allow.
constexpr int kLength = 30000;
constexpr const char* kLimitKiB = "300000";

struct Shell {
    int code;
    std::string err;
};

// Runs `command` under /bin/sh in `dir` with stderr captured; `command` names the binary $DPVIZ.
Shell sh(const TempDir& dir, const std::string& command) {
    const std::string err = dir.path("stderr.txt");
    const std::string full = "cd '" + dir.path("") + "' && DPVIZ='" + DPVIZ_BINARY + "' /bin/sh -c '" + command +
                             "' 2>'" + err + "'";
    const int status = std::system(full.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(err)};
}

std::string fasta(const std::string& name, uint32_t seed) {
    std::mt19937 g(seed);
    std::string s = ">" + name + "\n";
    for (int k = 0; k < kLength; ++k) {
        s += "ACGT"[g() % 4];
        if (k % 60 == 59) s += '\n';
    }
    return s + "\n";
}

class ProcessMemoryLimit : public ::testing::Test {
protected:
    void SetUp() override {
#ifdef DPVIZ_TEST_ASAN
        GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no run fits a ulimit";
#endif
        dir_.file("a.fa", fasta("a", 1));
        dir_.file("b.fa", fasta("b", 2));
    }
    Shell align_under(const std::string& ulimit_flag, const std::string& env = "") const {
        return sh(dir_, "ulimit " + ulimit_flag + " " + kLimitKiB + " && " + env +
                            " exec \"$DPVIZ\" align --backend cpu-reference --png m.png a.fa b.fa");
    }

    TempDir dir_;
};

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

// The "X GiB available" of a refusal.
double available_gib(const std::string& err) {
    std::smatch m;
    return std::regex_search(err, m, std::regex("([0-9.]+) GiB available")) ? std::stod(m[1]) : -1.0;
}

TEST_F(ProcessMemoryLimit, TheCheckSeesAnAddressSpaceLimit) {
    const Shell r = align_under("-v");
    EXPECT_EQ(r.code, kExitResource) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("dpviz: 30000 x 30000 local at this output level needs ", 0), 0u) << r.err;
    const double gib = available_gib(r.err);
    EXPECT_GE(gib, 0.0) << r.err;
    EXPECT_LE(gib, 0.29) << "at most the limit (0.286 GiB), less what is mapped already: " << r.err;
}

TEST_F(ProcessMemoryLimit, TheCheckSeesADataLimit) {
    const Shell r = align_under("-d");
    EXPECT_EQ(r.code, kExitResource) << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind("dpviz: 30000 x 30000 local at this output level needs ", 0), 0u) << r.err;
    const double gib = available_gib(r.err);
    EXPECT_GE(gib, 0.0) << r.err;
    EXPECT_LE(gib, 0.29) << "at most the limit (0.286 GiB), less the data in use: " << r.err;
}

TEST_F(ProcessMemoryLimit, AnAllocationPastTheCheckIsOneLineAndExit4) {
    // DPVIZ_MEMORY_LIMIT lets the request past the check; the limit then refuses the matrices.
    for (const char* flag : {"-v", "-d"}) {
        const Shell r = align_under(flag, "DPVIZ_MEMORY_LIMIT=100G");
        EXPECT_EQ(r.code, kExitResource) << flag << ": " << r.err;
        EXPECT_TRUE(one_line(r.err)) << flag << ": " << r.err;
        EXPECT_EQ(r.err.rfind("dpviz: out of memory (", 0), 0u) << flag << ": " << r.err;
        const char* limit = std::string(flag) == "-v" ? "RLIMIT_AS" : "RLIMIT_DATA";
        EXPECT_NE(r.err.find(limit), std::string::npos) << flag << ": " << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir_.path("m.png"))) << flag;
    }
}

}  // namespace
}  // namespace dpviz::app
