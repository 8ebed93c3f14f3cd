// One DPVIZ_CUDA_CHECK for every CUDA call (keeps the call text, file and line) and the RAII
// owners of device buffers, events and streams. Errors become dpviz::Error of kind device.
// The allocation and launch sites are also where DPVIZ_GPU_FAULT (test-only) injects failures.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/fault_injection.hpp"

namespace dpviz::cuda {

inline Error cuda_error(cudaError_t e, const char* call, const char* file, int line) {
    std::string f = file;
    if (const auto slash = f.find_last_of('/'); slash != std::string::npos) f = f.substr(slash + 1);
    return device_error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " +
                        call + " at " + f + ":" + std::to_string(line));
}

// The error the real failure `e` would give at this site, marked as injected by `item`.
inline Error injected_error(cudaError_t e, const char* call, const char* file, int line, const std::string& item) {
    Error err = cuda_error(e, call, file, line);
    err.message += gpu_fault::injected_note(item);
    return err;
}

}  // namespace dpviz::cuda

// Evaluates a CUDA call; on failure returns the device Error from the enclosing function
// (which returns Status or Expected<T>).
#define DPVIZ_CUDA_CHECK(call)                                                              \
    do {                                                                                    \
        const cudaError_t dpviz_err_ = (call);                                              \
        if (dpviz_err_ != cudaSuccess) return ::dpviz::cuda::cuda_error(dpviz_err_, #call, __FILE__, __LINE__); \
    } while (0)

// Put right before a kernel launch: under DPVIZ_GPU_FAULT=launch:N the N-th launch of an
// align_gpu call returns the launch failure instead of enqueueing the kernel.
#define DPVIZ_LAUNCH_FAULT_POINT(kernel)                                                          \
    do {                                                                                          \
        if (const auto dpviz_item_ = ::dpviz::gpu_fault::launch_fault())                          \
            return ::dpviz::cuda::injected_error(cudaErrorLaunchFailure, kernel " launch", __FILE__, __LINE__, \
                                                 *dpviz_item_);                                   \
    } while (0)

namespace dpviz::cuda {

// Block recycling (block_pool.cu): once enabled (the GUI's GPU-resident view does), freed
// blocks (up to 32 of 16 MB or more and 128 smaller ones) are kept and handed out again for the
// same size; recycled_block waits
// for the device first, so no earlier kernel still uses the block. flush_recycled_blocks frees
// them all (a request that does not fit in the free memory flushes before it gives up).
void enable_block_recycling();
void* recycled_block(size_t bytes);            // nullptr: none kept of that size
bool recycle_block(void* ptr, size_t bytes);   // false: not kept, the caller frees it
size_t flush_recycled_blocks();                // bytes given back

// The current device, read once (dispatch.cu): its SM count and the shared memory a block may
// opt in to. An error where it has no cooperative launch, which the persistent grids need.
struct DeviceInfo {
    int sms = 0;
    size_t smem_optin = 0;
};
Expected<DeviceInfo> device_info();

// Bytes for a message: "1.25 GiB".
inline std::string gib(uint64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(1ull << 30));
    return buf;
}

// The persistent fills' blocks per SM: `chosen` (at most `fits`, what the occupancy calculator
// allows), or the environment variable `knob` when it holds a number >= 1, capped at `fits` (a
// measurement knob: DPVIZ_PAIR_BLOCKS_PER_SM, DPVIZ_BAND_BLOCKS_PER_SM; docs/gpu.md).
inline int blocks_per_sm(int chosen, int fits, const char* knob) {
    const char* e = std::getenv(knob);
    const int k = e ? std::atoi(e) : 0;
    return k >= 1 ? (k < fits ? k : fits) : chosen;
}

// A device allocation owned by value. Moves, never copies; frees on destruction.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) { release(); p_ = std::exchange(o.p_, nullptr); n_ = std::exchange(o.n_, 0); }
        return *this;
    }
    ~DeviceBuffer() { release(); }

    Status allocate(size_t count) {
        release();
        if (count == 0) return Ok{};
        void* p = nullptr;
        if (const auto item = gpu_fault::allocation_fault())  // DPVIZ_GPU_FAULT=alloc:N, this is the N-th
            return injected_error(cudaErrorMemoryAllocation, "cudaMalloc(&p, count * sizeof(T))", __FILE__, __LINE__,
                                  *item);
        p = recycled_block(count * sizeof(T));
        if (!p) DPVIZ_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
        p_ = static_cast<T*>(p);
        n_ = count;
        return Ok{};
    }
    T* get() const { return p_; }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }

private:
    void release() {
        if (p_ && !recycle_block(p_, bytes())) cudaFree(p_);  // errors are sticky: the next checked call reports them
        p_ = nullptr;
        n_ = 0;
    }
    T* p_ = nullptr;
    size_t n_ = 0;
};

// `h` into a new allocation of at least `min_count` elements of `d`, on stream `s`.
template <class T>
Status upload(DeviceBuffer<T>& d, const std::vector<T>& h, cudaStream_t s, size_t min_count = 0) {
    if (auto st = d.allocate(h.size() > min_count ? h.size() : min_count); !st) return st;
    if (!h.empty()) DPVIZ_CUDA_CHECK(cudaMemcpyAsync(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
    return Ok{};
}

// `n` elements at `d` into `h`, waiting for stream `s`.
template <class T>
Status download(std::vector<T>& h, const T* d, size_t n, cudaStream_t s) {
    h.resize(n);
    if (n) DPVIZ_CUDA_CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, s));
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    return Ok{};
}

// At least `count` elements in `d`: a new allocation only when it holds fewer (the contents are
// then undefined), so a buffer refilled with ever smaller data is allocated once.
template <class T>
Status reserve(DeviceBuffer<T>& d, size_t count) {
    return count > d.size() ? d.allocate(count) : Status(Ok{});
}

// A CUDA handle (an event, a stream, a surface object) owned by value: `Destroy` runs on it when
// it is replaced or the owner goes. `created()` is where the create call writes the new handle.
template <class H, auto Destroy>
class Handle {
public:
    Handle() = default;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() { reset(); }
    void reset() {
        if (h_) Destroy(h_);
        h_ = H{};
    }
    H get() const { return h_; }

protected:
    H* created() {
        reset();
        return &h_;
    }

private:
    H h_{};
};

class Event : public Handle<cudaEvent_t, cudaEventDestroy> {
public:
    Status create() {
        DPVIZ_CUDA_CHECK(cudaEventCreate(created()));
        return Ok{};
    }
};

class Stream : public Handle<cudaStream_t, cudaStreamDestroy> {
public:
    Status create() {
        DPVIZ_CUDA_CHECK(cudaStreamCreateWithFlags(created(), cudaStreamNonBlocking));
        return Ok{};
    }
};

}  // namespace dpviz::cuda
