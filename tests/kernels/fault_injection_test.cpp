// GPU fault injection on the simulated device (every build, CI included): the DPVIZ_GPU_FAULT
// switch's syntax, and for no-device, alloc:N and launch:N the CPU's answer with a fallback line
// that says which backend failed how. Leaks on these error paths are the ASan pass's to catch.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dpviz/store.hpp"
#include "kernels/fault_cases.hpp"
#include "kernels/result_compare.hpp"

namespace dpviz::fault_test {
namespace {

TEST(GpuFaultSwitch, ParsesEveryFaultAndCombinations) {
    auto s = gpu_fault::parse("");
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->no_device || s->simulate || s->interop || s->alloc_at || s->launch_at);
    s = gpu_fault::parse(" simulate , alloc:3,launch:12 ,interop,no-device ");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_TRUE(s->simulate);
    EXPECT_TRUE(s->interop);
    EXPECT_TRUE(s->no_device);
    EXPECT_EQ(s->alloc_at, 3);
    EXPECT_EQ(s->launch_at, 12);
    EXPECT_EQ(s->text, "simulate , alloc:3,launch:12 ,interop,no-device");
    s = gpu_fault::parse("alloc:1000000000");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->alloc_at, 1000000000);
}

TEST(GpuFaultSwitch, AnythingElseIsAOneLineUsageError) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"bogus", "unknown fault 'bogus'"},
        {"alloc", "needs a count N"},
        {"alloc:", "needs a count N"},
        {"alloc:0", "needs a count N"},
        {"alloc:-1", "needs a count N"},
        {"alloc:3x", "needs a count N"},
        {"launch:1000000001", "needs a count N"},
        {"launch:99999999999999999999999", "needs a count N"},
        {"interop:2", "'interop' takes no number"},
        {"simulate,simulate", "'simulate' given twice"},
        {"alloc:1,alloc:2", "'alloc' given twice"},
        {"simulate,", "empty item"},
        {",", "empty item"},
        {"no_device", "unknown fault 'no_device'"},
        {"simulate\n,alloc:1", "unknown fault 'simulate?'"},
    };
    for (const auto& [text, why] : bad) {
        auto s = gpu_fault::parse(text);
        ASSERT_FALSE(s) << text;
        EXPECT_EQ(s.error().kind, ErrorKind::usage) << text;
        EXPECT_TRUE(contains(s.error().message, why)) << s.error().message;
        EXPECT_TRUE(contains(s.error().message, "DPVIZ_GPU_FAULT=")) << s.error().message;
        EXPECT_TRUE(contains(s.error().message, "no-device, alloc:N, launch:N, interop, simulate")) << s.error().message;
        EXPECT_EQ(s.error().message.find('\n'), std::string::npos) << s.error().message;
    }
}

TEST(GpuFaultSwitch, AlignRefusesAnInvalidSwitchOnEveryBackend) {
    // A mistyped switch would otherwise test nothing and pass.
    const Problem p = cases().front().problem;
    const ScopedFault env("simulate,alloc:two");
    for (const Backend b : {Backend::automatic, Backend::cpu, Backend::cpu_reference, Backend::cuda,
                            Backend::cuda_portable}) {
        AlignOptions opt;
        opt.backend = b;
        auto r = align(p, opt);
        ASSERT_FALSE(r) << backend_name(b);
        EXPECT_EQ(r.error().kind, ErrorKind::usage);
        EXPECT_TRUE(contains(r.error().message, "'alloc:two' needs a count N")) << r.error().message;
    }
    auto g = align_gpu(p, OutputLevel::path, true);
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().kind, ErrorKind::usage);
    EXPECT_EQ(gpu_fault::usable_override(), std::nullopt) << "an invalid switch forces nothing";
}

TEST(GpuFault, AllocAndLaunchFaultsGiveTheCpuAnswerOnTheSimulatedDevice) {
    check_alloc_and_launch_faults(Device::simulated);
}

TEST(GpuFault, NoDeviceOnTheSimulatedDevice) { check_no_device(Device::simulated); }

TEST(GpuFault, NoDeviceOnThisBuildsOwnSeam) {
    // Without simulate: the CUDA seam (or the no-CUDA one) answers no-device by itself.
    check_no_device(Device::real);
}

TEST(GpuFault, SimulatedDeviceWithoutAFaultNeverPretendsToCompute) {
    const ScopedFault env("simulate");
    EXPECT_TRUE(gpu_usable());
    for (const Case& c : cases())
        for (const Backend b : kGpuBackends) {
            SCOPED_TRACE(c.name);
            expect_cpu_answer(c.problem, OutputLevel::path, b, "simulate",
                              {"simulated device (DPVIZ_GPU_FAULT=simulate): no kernels to compute with"});
            EXPECT_FALSE(gpu_fault::last_run().fired);
        }
    // No interior cell: the real device needs no kernel; the simulated one still does not compute.
    auto empty = make_problem(Algorithm::global, {"q", ""}, {"t", "ACGT"}, {});
    ASSERT_TRUE(empty) << empty.error().message;
    expect_cpu_answer(*empty, OutputLevel::path, Backend::cuda, "simulate,alloc:1", {"no kernels to compute with"});
    EXPECT_EQ(gpu_fault::last_run().allocations, 0);
}

TEST(GpuFault, NoDeviceWinsOverSimulate) {
    const ScopedFault env("simulate,no-device,alloc:1");
    EXPECT_FALSE(gpu_usable());
    auto r = align_gpu(cases().front().problem, OutputLevel::path, true);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::device);
    EXPECT_TRUE(contains(r.error().message, "no CUDA device")) << r.error().message;
    EXPECT_EQ(gpu_fault::last_run().allocations, 0);
}

TEST(GpuFault, CountersStartAgainForEveryCall) {
    const Problem p = cases().front().problem;
    const ScopedFault env("simulate,alloc:4");
    for (int call = 0; call < 3; ++call) {
        auto r = align_gpu(p, OutputLevel::path, call % 2 == 0);
        ASSERT_FALSE(r);
        EXPECT_TRUE(contains(r.error().message, gpu_fault::injected_note("alloc:4"))) << r.error().message;
        EXPECT_EQ(gpu_fault::last_run().allocations, 4) << "call " << call;
        EXPECT_TRUE(gpu_fault::last_run().fired);
    }
}

TEST(GpuFault, EachThreadCountsItsOwnCalls) {
    // The GUI aligns on a worker thread while the main thread may run another call: counts
    // must not mix. Eight threads, each failing at its own allocation 3.
    const Problem p = cases().front().problem;
    const ScopedFault env("simulate,alloc:3");
    std::vector<std::string> messages(8);
    std::vector<gpu_fault::Counts> counts(8);
    std::vector<std::thread> threads;
    for (size_t k = 0; k < messages.size(); ++k)
        threads.emplace_back([&, k] {
            for (int rep = 0; rep < 20; ++rep) {
                auto r = align_gpu(p, OutputLevel::score, true);
                messages[k] = r ? "succeeded" : r.error().message;
                counts[k] = gpu_fault::last_run();
            }
        });
    for (auto& t : threads) t.join();
    for (size_t k = 0; k < messages.size(); ++k) {
        EXPECT_TRUE(contains(messages[k], gpu_fault::injected_note("alloc:3"))) << messages[k];
        EXPECT_EQ(counts[k].allocations, 3);
    }
}

TEST(GpuFault, ABigPathTakesTheGpusStoreAndFallsBackToTheCpusStore) {
    // 8,300^2 cells >= kCheckpointPathCells: on a GPU the path is traced over the lines the GPU
    // keeps. The simulated device has no kernels, so the CPU's store answers, and says why.
    std::mt19937 g(3);
    const std::string q = test::random_text(g, 8300, test::kDna), t = test::mutate(g, q, test::kDna, 0.05);
    ScoringOptions so;
    so.gaps = {5, 1};
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, so);
    ASSERT_TRUE(p);
    for (const Backend b : kGpuBackends) {
        SCOPED_TRACE(std::string(backend_name(b)));
        const ScopedFault env("simulate");
        AlignOptions opt;
        opt.backend = b;
        auto r = align(*p, opt);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_TRUE(contains(r->fallback, "no kernels to compute with")) << r->fallback;
        ASSERT_TRUE(r->checkpoints);
        EXPECT_FALSE(r->checkpoints->source) << "the CPU's checkpoints are on the host";
        // The device's last allocation in the store's sequence is the column lines (no bits).
        const int64_t allocations = gpu_fault::last_run().allocations;
        ASSERT_GT(allocations, 0);
        {
            const ScopedFault last("simulate,alloc:" + std::to_string(allocations));
            auto f = align(*p, opt);
            ASSERT_TRUE(f) << f.error().message;
            EXPECT_TRUE(contains(f->fallback, "cudaMalloc of the checkpoint columns")) << f->fallback;
        }
        DpResult bits = align_cpu(*p, OutputLevel::path, 0);
        EXPECT_TRUE(r->path == bits.path);
        EXPECT_EQ(r->alignment.cigar, bits.alignment.cigar);
        EXPECT_EQ(r->score, bits.score);
    }
    // A spacing the GPU cannot keep (not a power of two) is refused, not silently changed.
    const ScopedFault env("simulate");
    AlignOptions odd;
    odd.backend = Backend::cuda;
    odd.checkpoint_spacing = 300;
    auto r = align(*p, odd);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::usage);
    EXPECT_TRUE(contains(r.error().message, "checkpoints every 300 rows")) << r.error().message;
}

TEST(GpuFault, AStoreThatFailsOnTheGpuIsRefusedWhenTheCpusStoreDoesNotFit) {
    // 1,048,576^2: on the GPU the host holds one tile (~0.1 GB); the CPU's checkpoints, even
    // every 8,192 rows and columns, take ~2 GB. Under a 1 GiB limit the fallback is refused, and
    // says why, before anything is filled.
    std::mt19937 g(4);
    const std::string q = test::random_text(g, 1 << 20, test::kDna);
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", q}, ScoringOptions{});
    ASSERT_TRUE(p);
    const ScopedFault env("simulate");
    AlignOptions opt;
    opt.backend = Backend::cuda;
    opt.memory_limit = uint64_t(1) << 30;
    auto r = align(*p, opt);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::resource);
    EXPECT_TRUE(contains(r.error().message, "cuda unavailable (simulated device")) << r.error().message;
    EXPECT_TRUE(contains(r.error().message, "checkpoints every 8192 rows and columns")) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(GpuFault, InjectionPointsOutsideACallNeverFire) {
    // The benchmark and the GL view allocate outside align_gpu: the switch leaves them alone.
    const ScopedFault env("simulate,alloc:1,launch:1");
    EXPECT_EQ(gpu_fault::allocation_fault(), std::nullopt);
    EXPECT_EQ(gpu_fault::launch_fault(), std::nullopt);
}

TEST(GpuFault, InteropRegistrationFaultAndTheSimulatedDevicesRefusal) {
    {
        const ScopedFault env("");
        EXPECT_FALSE(gpu_fault::interop_registration_fails());
        EXPECT_EQ(gpu_fault::simulated_interop_refusal(), std::nullopt);
    }
    {
        const ScopedFault env("interop");
        EXPECT_TRUE(gpu_fault::interop_registration_fails());
        EXPECT_EQ(gpu_fault::simulated_interop_refusal(), std::nullopt) << "the real device's registration fails";
    }
    {
        const ScopedFault env("simulate,interop");
        const auto why = gpu_fault::simulated_interop_refusal();
        ASSERT_TRUE(why);
        EXPECT_TRUE(contains(*why, "CUDA cannot register the GL texture")) << *why;
        EXPECT_TRUE(contains(*why, gpu_fault::injected_note("interop"))) << *why;
        EXPECT_TRUE(contains(*why, "host upload path")) << *why;
    }
    {
        const ScopedFault env("simulate");
        const auto why = gpu_fault::simulated_interop_refusal();
        ASSERT_TRUE(why);
        EXPECT_TRUE(contains(*why, "no CUDA-GL interop")) << *why;
    }
}

}  // namespace
}  // namespace dpviz::fault_test
