// What the soak tests measure memory with: the resident set after freed heap goes back to the
// system, and the bytes held on the heap (under ASan, whose quarantine keeps freed memory
// resident, the sanitizer's live allocations). docs/robustness.md says how the figures are used.
#pragma once

#include <malloc.h>

#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define DPVIZ_SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPVIZ_SOAK_ASAN 1
#endif
#endif
#ifdef DPVIZ_SOAK_ASAN
// libasan's (GCC ships no header for it): bytes the program holds, quarantine not counted.
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace dpviz::test {

// kB of resident memory (VmRSS), after giving freed heap back to the system.
inline double resident_kib() {
    malloc_trim(0);
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr);
    return -1;
}

// Bytes the program holds on the heap: ASan's live allocations, else malloc's in-use bytes.
inline double heap_bytes() {
#ifdef DPVIZ_SOAK_ASAN
    return double(__sanitizer_get_current_allocated_bytes());
#else
    const struct mallinfo2 m = mallinfo2();
    return double(m.uordblks + m.hblkhd);
#endif
}

}  // namespace dpviz::test
