// One DPVIZ_CUDA_CHECK for every CUDA call (keeps the call text, file and line) and the RAII
// owners of device buffers, events and streams. Errors become dpviz::Error of kind device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "dpviz/expected.hpp"

namespace dpviz::cuda {

inline Error cuda_error(cudaError_t e, const char* call, const char* file, int line) {
    std::string f = file;
    if (const auto slash = f.find_last_of('/'); slash != std::string::npos) f = f.substr(slash + 1);
    return device_error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " +
                        call + " at " + f + ":" + std::to_string(line));
}

}  // namespace dpviz::cuda

// Evaluates a CUDA call; on failure returns the device Error from the enclosing function
// (which returns Status or Expected<T>).
#define DPVIZ_CUDA_CHECK(call)                                                              \
    do {                                                                                    \
        const cudaError_t dpviz_err_ = (call);                                              \
        if (dpviz_err_ != cudaSuccess) return ::dpviz::cuda::cuda_error(dpviz_err_, #call, __FILE__, __LINE__); \
    } while (0)

namespace dpviz::cuda {

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
        DPVIZ_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
        p_ = static_cast<T*>(p);
        n_ = count;
        return Ok{};
    }
    T* get() const { return p_; }
    size_t size() const { return n_; }
    size_t bytes() const { return n_ * sizeof(T); }

private:
    void release() {
        if (p_) cudaFree(p_);  // errors here are sticky and reported by the next checked call
        p_ = nullptr;
        n_ = 0;
    }
    T* p_ = nullptr;
    size_t n_ = 0;
};

class Event {
public:
    Event() = default;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { if (e_) cudaEventDestroy(e_); }
    Status create() {
        DPVIZ_CUDA_CHECK(cudaEventCreate(&e_));
        return Ok{};
    }
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

class Stream {
public:
    Stream() = default;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() { if (s_) cudaStreamDestroy(s_); }
    Status create() {
        DPVIZ_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
        return Ok{};
    }
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

}  // namespace dpviz::cuda
