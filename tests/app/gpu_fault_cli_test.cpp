// `dpviz align` under GPU fault injection (DPVIZ_GPU_FAULT): exit code 0, the CPU's output, and
// one note line on stderr naming the backend and the fault; an invalid switch is a usage error.
// Runs on the simulated device everywhere, and on the real one too where a GPU is usable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "gpu_dispatch.hpp"

namespace dpviz::app {
namespace {

using gpu_fault::ScopedFault;

struct CliResult {
    int code;
    std::string out, err;
};

CliResult run(const std::vector<std::string>& args, const std::string& fault) {
    const ScopedFault env(fault);
    std::ostringstream out, err;
    const int code = run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

bool real_gpu() {
    const ScopedFault none("");
    return gpu_usable();
}

// The faults to try: on the simulated device always, on the real one where there is one. The
// score-only run is the one-pair kernel's: 4 buffers and one launch, so alloc:4 is its last
// allocation and launch:1 its launch.
std::vector<std::string> faults() {
    std::vector<std::string> f = {"no-device", "simulate,alloc:1", "simulate,alloc:4", "simulate,launch:1", "simulate"};
    if (real_gpu())
        for (const char* real : {"alloc:1", "alloc:4", "launch:1"}) f.push_back(real);
    return f;
}

// What the note must say: the item that fired (or the simulated device's "no kernels").
std::string expected_part(const std::string& fault) {
    if (fault == "simulate") return "no kernels to compute with";
    const std::string item = fault.substr(fault.rfind(',') + 1);
    return gpu_fault::injected_note(item);
}

std::vector<std::string> drop_backend_line(const std::string& text, std::string* backend_line) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("# Backend:", 0) == 0) *backend_line = l;
        else lines.push_back(l);
    }
    return lines;
}

const std::vector<std::string> kQuery = {"--seq", "--algo", "local", "--gap-open", "5", "--gap-extend", "1",
                                         "--match", "2", "--mismatch", "-3"};
const std::string kA = "ACGTTGCATGCATGCAAGTCCGATGCTAGCTAGGCTAGCATCGATCGACTAGCTACGAT";
const std::string kB = "TTACGTGCATGCATCCAAGTCGATGCTAGCTTAGGCTAGATCGATCGACTAGCAACGATAA";

std::vector<std::string> args(const std::string& backend, std::vector<std::string> extra) {
    std::vector<std::string> a = {"align"};
    a.insert(a.end(), kQuery.begin(), kQuery.end());
    a.insert(a.end(), extra.begin(), extra.end());
    a.insert(a.end(), {"--backend", backend, kA, kB});
    return a;
}

TEST(CliGpuFault, ScoreOnlyOutputIsTheCpusAndStderrSaysWhy) {
    const CliResult cpu = run(args("cpu", {"--score-only"}), "");
    ASSERT_EQ(cpu.code, 0) << cpu.err;
    ASSERT_EQ(cpu.err, "");
    for (const std::string& fault : faults())
        for (const std::string backend : {"cuda", "cuda-portable", "auto"}) {
            SCOPED_TRACE("DPVIZ_GPU_FAULT=" + fault + " --backend " + backend);
            const CliResult r = run(args(backend, {"--score-only"}), fault);
            EXPECT_EQ(r.code, 0) << r.err;
            EXPECT_EQ(r.out, cpu.out);
            if (backend == "auto" && fault == "no-device") {
                EXPECT_EQ(r.err, "") << "auto on a machine without a GPU runs the CPU quietly";
                continue;
            }
            const std::string note = "dpviz: note: " + backend + " unavailable (";
            EXPECT_EQ(r.err.rfind(note, 0), 0u) << r.err;
            EXPECT_NE(r.err.find(expected_part(fault)), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("); ran on the CPU\n"), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        }
}

TEST(CliGpuFault, TextAndJsonOutputAreTheCpusWithTheFallbackNamed) {
    const CliResult cpu_text = run(args("cpu", {}), "");
    const CliResult cpu_json = run(args("cpu", {"--json"}), "");
    ASSERT_EQ(cpu_text.code, 0) << cpu_text.err;
    ASSERT_EQ(cpu_json.code, 0) << cpu_json.err;
    std::string cpu_backend;
    const auto cpu_lines = drop_backend_line(cpu_text.out, &cpu_backend);
    EXPECT_EQ(cpu_backend, "# Backend: cpu");
    for (const std::string& fault : {std::string("simulate,alloc:2"), std::string("simulate,launch:1")}) {
        SCOPED_TRACE(fault);
        const CliResult text = run(args("cuda", {}), fault);
        ASSERT_EQ(text.code, 0) << text.err;
        std::string backend;
        EXPECT_EQ(drop_backend_line(text.out, &backend), cpu_lines);
        EXPECT_EQ(backend.rfind("# Backend: cpu (cuda unavailable (", 0), 0u) << backend;
        EXPECT_NE(backend.find(expected_part(fault)), std::string::npos) << backend;

        const CliResult json = run(args("cuda", {"--json"}), fault);
        ASSERT_EQ(json.code, 0) << json.err;
        // Equal to the CPU's object but for the timings and the added fallback field.
        for (const char* key : {"\"score\":", "\"cigar\":", "\"query_begin\":", "\"target_end\":", "\"identity\":",
                                "\"backend\":\"cpu\""}) {
            const size_t a = cpu_json.out.find(key), b = json.out.find(key);
            ASSERT_NE(a, std::string::npos) << key;
            ASSERT_NE(b, std::string::npos) << key;
            EXPECT_EQ(cpu_json.out.substr(a, cpu_json.out.find_first_of(",}", a) - a),
                      json.out.substr(b, json.out.find_first_of(",}", b) - b));
        }
        EXPECT_NE(json.out.find("\"fallback\":\"cuda unavailable ("), std::string::npos) << json.out;
    }
}

TEST(CliGpuFault, AnInvalidSwitchIsAUsageError) {
    for (const std::string bad : {"bogus", "alloc:0", "simulate,,launch:1", "interop:1"})
        for (const std::string backend : {"cpu", "cuda", "auto"}) {
            SCOPED_TRACE(bad + " " + backend);
            const CliResult r = run(args(backend, {"--score-only"}), bad);
            EXPECT_EQ(r.code, kExitUsage);
            EXPECT_EQ(r.out, "");
            EXPECT_EQ(r.err.rfind("dpviz: DPVIZ_GPU_FAULT='", 0), 0u) << r.err;
            EXPECT_NE(r.err.find("test-only switch"), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        }
}

}  // namespace
}  // namespace dpviz::app
