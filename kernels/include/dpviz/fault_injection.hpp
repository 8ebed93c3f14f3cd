// GPU fault injection, a test-only switch: DPVIZ_GPU_FAULT makes the CUDA backend see no device,
// an allocation or launch failure, or a failed interop registration (docs/robustness.md).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "dpviz/engine.hpp"

namespace dpviz::gpu_fault {

inline constexpr const char* kEnvVar = "DPVIZ_GPU_FAULT";

// A parsed switch: a comma-separated list of
//   no-device   no CUDA device answers (gpu_usable() is false, align_gpu fails)
//   alloc:N     the N-th device allocation of an align_gpu call fails (out of memory)
//   launch:N    the N-th kernel launch of an align_gpu call fails (launch failure)
//   interop     CUDA-GL texture registration fails (the GL view takes the host path)
//   simulate    a plain-C++ stand-in replaces the device, so the faults fire without a GPU
struct Spec {
    bool no_device = false;
    bool simulate = false;
    bool interop = false;
    int64_t alloc_at = 0;   // 1-based; 0: no allocation fails
    int64_t launch_at = 0;  // 1-based; 0: no launch fails
    std::string text;       // as given (trimmed), for messages
};

// Sets the switch for a scope and puts back what was there ("" unsets it): how tests turn it on.
class ScopedFault {
public:
    explicit ScopedFault(const std::string& value) {
        if (const char* old = std::getenv(kEnvVar)) old_ = old;
        if (value.empty()) unsetenv(kEnvVar);
        else setenv(kEnvVar, value.c_str(), 1);
    }
    ~ScopedFault() {
        if (old_) setenv(kEnvVar, old_->c_str(), 1);
        else unsetenv(kEnvVar);
    }
    ScopedFault(const ScopedFault&) = delete;
    ScopedFault& operator=(const ScopedFault&) = delete;

private:
    std::optional<std::string> old_;
};

// A usage error (one line naming the item and the accepted syntax) for anything else.
Expected<Spec> parse(std::string_view text);
// The switch as the environment holds it now; unset or empty: no fault. Read on every call,
// so a test may change it between runs.
Expected<Spec> current();

// What gpu_usable() must answer instead of asking the device: false under no-device, true
// under simulate; nullopt when the switch is off (or invalid: align() reports that).
std::optional<bool> usable_override();

// The counters of one align_gpu call on this thread. Constructed first thing in align_gpu, it
// reads the switch; allocation and launch numbers start at 1 for every call. Injection points
// outside a Run (the benchmark, the GL view) never fire, and each thread has its own Run, so the
// GUI's worker thread and the main thread never share counts.
class Run {
public:
    Run();
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    // The run align_gpu returns instead of the device's: a usage error for a bad switch, the
    // injected no-device error, or the simulated device's run. nullopt: run the real device.
    std::optional<Expected<DpResult>> instead(const Problem& p, OutputLevel level, int32_t checkpoint_spacing = 0,
                                              int32_t overview_block = 0);

    // Injection points (reached through the free functions below).
    std::optional<std::string> allocation_fault();
    std::optional<std::string> launch_fault();

    int64_t allocations() const { return allocs_; }
    int64_t launches() const { return launches_; }

private:
    std::optional<Spec> spec_;  // empty when the switch is off or invalid
    std::optional<Error> invalid_;
    int64_t allocs_ = 0, launches_ = 0;
    bool fired_ = false;
    Run* outer_ = nullptr;
};

// Count one device allocation / kernel launch of the current Run of this thread. When the switch
// says this one fails: the switch's item ("alloc:3"), for injected_note(). Without a Run:
// nullopt and nothing counted.
std::optional<std::string> allocation_fault();
std::optional<std::string> launch_fault();

// What the latest finished Run of this thread counted (tests compare the simulated device's
// sequence with the real one, and check that a fault fired where asked).
struct Counts {
    int64_t allocations = 0;
    int64_t launches = 0;
    bool fired = false;  // an alloc:N or launch:N fault fired
};
Counts last_run();

// " [injected by DPVIZ_GPU_FAULT=<item>]": appended to every injected error so a log says so.
std::string injected_note(std::string_view item);

// The real CUDA-GL registration site: true when `interop` is set (the caller turns it into the
// error a failed registration gives). simulated_interop_refusal(): under simulate, the whole
// message make_interop_writer returns (the stand-in has no GL interop), else nullopt.
bool interop_registration_fails();
std::optional<std::string> simulated_interop_refusal();

}  // namespace dpviz::gpu_fault
