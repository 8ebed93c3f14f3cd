// One libFuzzer target per harness: built once per harness, as fuzz_<name>, with DPVIZ_FUZZ_TARGET
// naming the harness (see CMakeLists.txt). A finding is printed and aborts, so libFuzzer saves it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const dpviz::fuzz::Harness* const harness = dpviz::fuzz::find_harness(DPVIZ_FUZZ_TARGET);
    if (!harness) {
        std::fprintf(stderr, "dpviz fuzz: no harness named %s\n", DPVIZ_FUZZ_TARGET);
        std::abort();
    }
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const dpviz::fuzz::Findings findings = dpviz::fuzz::run_harness(*harness, bytes);
    for (const auto& f : findings) std::fprintf(stderr, "dpviz fuzz finding (%s): %s\n", DPVIZ_FUZZ_TARGET, f.c_str());
    if (!findings.empty()) std::abort();
    return 0;
}
