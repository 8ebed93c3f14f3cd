// The GPU tests' skip: they build everywhere and skip cleanly where no CUDA device can run them.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

#include "dpviz/device_view.hpp"
#include "gpu_dispatch.hpp"

#define DPVIZ_REQUIRE_GPU()                                                         \
    do {                                                                            \
        if (!::dpviz::gpu_usable()) GTEST_SKIP() << "no usable CUDA device";        \
    } while (0)

#define DPVIZ_REQUIRE_DEVICE_VIEW()                                                 \
    do {                                                                            \
        if (!::dpviz::device_view_available()) GTEST_SKIP() << "no usable CUDA device"; \
    } while (0)

namespace dpviz::test {
// DPVIZ_GPU_TEST_QUICK set (the sanitizer runs): the long cases skip or shrink.
inline bool quick() { return std::getenv("DPVIZ_GPU_TEST_QUICK") != nullptr; }
}  // namespace dpviz::test
