// GPU fault injection on the real device (`gpu` label; skips without one): the same checks as
// the simulated device's in fault_injection_test.cpp, through the real allocation and launch
// sites, and the simulated device's allocation/launch sequence against the device's own.
#include <gtest/gtest.h>

#include <sstream>
#include <utility>
#include <vector>

#include "kernels/fault_cases.hpp"
#include "scoped_env.hpp"

namespace dpviz::fault_test {
namespace {

#define DPVIZ_REQUIRE_REAL_GPU()                                                    \
    do {                                                                            \
        const ScopedFault no_switch("");                                            \
        if (!gpu_usable()) GTEST_SKIP() << "no usable CUDA device";                 \
    } while (0)

TEST(GpuFaultReal, AllocAndLaunchFaultsGiveTheCpuAnswer) {
    DPVIZ_REQUIRE_REAL_GPU();
    check_alloc_and_launch_faults(Device::real);
}

TEST(GpuFaultReal, NoDevice) {
    DPVIZ_REQUIRE_REAL_GPU();
    check_no_device(Device::real);
}

TEST(GpuFaultReal, TheDeviceStillWorksAfterInjectedFaults) {
    // An injected fault must leave no sticky CUDA error and no buffer behind.
    DPVIZ_REQUIRE_REAL_GPU();
    const Problem p = cases().front().problem;
    for (int k = 1; k <= 8; ++k) {
        const ScopedFault env("alloc:" + std::to_string(k) + ",launch:1");
        (void)align_gpu(p, OutputLevel::path, true);
    }
    auto r = align_gpu(p, OutputLevel::path, true);
    ASSERT_TRUE(r) << r.error().message;
    DpResult want = align_cpu(p, OutputLevel::path, 0);
    want.backend = Backend::cuda;
    expect_identical(*r, want);
}

TEST(GpuFaultReal, SimulatedDeviceMakesTheDevicesSequence) {
    // The simulated device (CI's stand-in) must allocate and launch as often as the device, for
    // every algorithm family, level and band count, or alloc:N would test different things.
    DPVIZ_REQUIRE_REAL_GPU();
    std::vector<Case> all = cases();
    for (const int m : {1, 127, 128, 129, 300}) {
        const std::string q(size_t(m), 'A');
        auto p = make_problem(Algorithm::local, {"q", q}, {"t", "ACGTACGTAAAA"}, {});
        ASSERT_TRUE(p);
        all.push_back({"local-" + std::to_string(m) + "-rows", *p});
    }
    for (const Case& c : all)
        for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix})
            for (const bool dpx : {true, false}) {
                std::ostringstream what;
                what << c.name << " level " << level_name(level) << (dpx ? " dpx" : " dpx-free");
                const gpu_fault::Counts real = counts_without_fault(Device::real, c.problem, level, dpx);
                const gpu_fault::Counts sim = counts_without_fault(Device::simulated, c.problem, level, dpx);
                EXPECT_EQ(sim.allocations, real.allocations) << what.str();
                EXPECT_EQ(sim.launches, real.launches) << what.str();
            }
    // The result store's path: a score-level fill that keeps checkpoint lines, and pools the
    // overview too (blocks of 128: the one-pair kernel's picture where the pair is local and of at
    // most 4 codes, and with DPVIZ_PAIR_PICTURE=0 the band kernels'; blocks of 3: the band kernels').
    for (const Case& c : all)
        for (const bool dpx : {true, false})
            for (const auto& [block, pair_picture] : std::vector<std::pair<int32_t, const char*>>{
                     {0, nullptr}, {3, nullptr}, {128, nullptr}, {128, "0"}}) {
                const test::ScopedEnv knob("DPVIZ_PAIR_PICTURE", pair_picture);
                const std::string what = c.name + (block ? " store with overview" : " store") +
                                         (pair_picture ? " DPVIZ_PAIR_PICTURE=0" : "");
                const gpu_fault::Counts real =
                    counts_without_fault(Device::real, c.problem, OutputLevel::path, dpx, 256, block);
                const gpu_fault::Counts sim =
                    counts_without_fault(Device::simulated, c.problem, OutputLevel::path, dpx, 256, block);
                EXPECT_EQ(sim.allocations, real.allocations) << what;
                EXPECT_EQ(sim.launches, real.launches) << what;
            }
}

}  // namespace
}  // namespace dpviz::fault_test
