// CUDA-GL interop writer for the matrix view (cuda-samples simpleGL pattern): the texture is
// registered once; each draw maps it, writes every texel through a surface object with the
// same texel_color as the host path, and unmaps. Device copies of the pyramid and color table
// are uploaded only when their versions change.
#include <glad/gl.h>  // before <cuda_gl_interop.h>, which includes <GL/gl.h>

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

#include "interop.hpp"
#include "texel_math.hpp"

namespace dpviz::render {
namespace {

Error cuda_error(cudaError_t e, const char* call, const char* file, int line) {
    return device_error(std::string(call) + " failed: " + cudaGetErrorString(e) + " (" + file + ":" +
                        std::to_string(line) + ")");
}

// Keeps the call text, file and line; returns the error from the enclosing Status function.
#define DPVIZ_INTEROP_CHECK(call)                                                 \
    do {                                                                          \
        const cudaError_t dpviz_e_ = (call);                                      \
        if (dpviz_e_ != cudaSuccess) return cuda_error(dpviz_e_, #call, __FILE__, __LINE__); \
    } while (0)

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { release(); }

    Status assign(const T* host, size_t n) {
        if (n > capacity_) {
            release();
            DPVIZ_INTEROP_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), n * sizeof(T)));
            capacity_ = n;
        }
        if (n) DPVIZ_INTEROP_CHECK(cudaMemcpy(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice));
        return Ok{};
    }
    const T* get() const { return ptr_; }

private:
    void release() {
        if (ptr_) cudaFree(ptr_);
        ptr_ = nullptr;
        capacity_ = 0;
    }
    T* ptr_ = nullptr;
    size_t capacity_ = 0;
};

// Unmaps on scope exit, so an error between map and unmap never leaves GL locked out.
class MappedResource {
public:
    explicit MappedResource(cudaGraphicsResource_t r) : r_(r) {}
    MappedResource(const MappedResource&) = delete;
    MappedResource& operator=(const MappedResource&) = delete;
    ~MappedResource() {
        if (mapped_) cudaGraphicsUnmapResources(1, &r_, 0);
    }
    Status map() {
        DPVIZ_INTEROP_CHECK(cudaGraphicsMapResources(1, &r_, 0));
        mapped_ = true;
        return Ok{};
    }

private:
    cudaGraphicsResource_t r_;
    bool mapped_ = false;
};

class SurfaceObject {
public:
    SurfaceObject() = default;
    SurfaceObject(const SurfaceObject&) = delete;
    SurfaceObject& operator=(const SurfaceObject&) = delete;
    ~SurfaceObject() {
        if (s_) cudaDestroySurfaceObject(s_);
    }
    Status create(cudaArray_t array) {
        cudaResourceDesc desc{};
        desc.resType = cudaResourceTypeArray;
        desc.res.array.array = array;
        DPVIZ_INTEROP_CHECK(cudaCreateSurfaceObject(&s_, &desc));
        return Ok{};
    }
    cudaSurfaceObject_t get() const { return s_; }

private:
    cudaSurfaceObject_t s_ = 0;
};

__global__ void view_texels(texel::LevelView lv, texel::LutView lut, texel::Request rq, cudaSurfaceObject_t out) {
    const int32_t x = int32_t(blockIdx.x * blockDim.x + threadIdx.x);
    const int32_t y = int32_t(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= rq.out_w || y >= rq.out_h) return;
    surf2Dwrite(texel::texel_color(lv, lut, rq, x, y), out, x * int(sizeof(uint32_t)), y);
}

class CudaInteropWriter final : public InteropWriter {
public:
    CudaInteropWriter(cudaGraphicsResource_t r, std::string name) : resource_(r), name_(std::move(name)) {}
    ~CudaInteropWriter() override { cudaGraphicsUnregisterResource(resource_); }

    const std::string& device_name() const override { return name_; }

    Status draw(const ViewSource& src, const TexelRequest& req) override {
        if (src.values_version != values_version_ || levels_.empty()) {
            if (Status s = upload_values(src); !s) return s;
            values_version_ = src.values_version;
        }
        if (src.lut_version != lut_version_ || lut_entries_ == 0) {
            if (Status s = lut_.assign(src.lut->rgba.data(), src.lut->rgba.size()); !s) return s;
            lut_version_ = src.lut_version;
            lut_entries_ = int64_t(src.lut->rgba.size());
        }
        const int level = pick_level(req, int(levels_.size()));
        const LevelCopy& lc = levels_[size_t(level)];
        const bool with_mask = req.mask && lc.has_mask;
        const texel::LevelView lv{lc.values.get(), with_mask ? lc.mask.get() : nullptr, lc.rows, lc.cols};
        const ColorLut& hl = *src.lut;
        const texel::LutView lt{lut_.get(), lut_entries_, hl.lo, hl.span, hl.unreachable, hl.mask_tint};
        const texel::Request rq{req.i0, req.j0, req.rows, req.cols, req.out_w, req.out_h, level, with_mask};

        MappedResource mapped(resource_);
        if (Status s = mapped.map(); !s) return s;
        cudaArray_t array = nullptr;
        DPVIZ_INTEROP_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0));
        SurfaceObject surface;
        if (Status s = surface.create(array); !s) return s;
        const dim3 block(16, 16);
        const dim3 grid((unsigned(req.out_w) + 15) / 16, (unsigned(req.out_h) + 15) / 16);
        view_texels<<<grid, block>>>(lv, lt, rq, surface.get());
        DPVIZ_INTEROP_CHECK(cudaGetLastError());
        DPVIZ_INTEROP_CHECK(cudaStreamSynchronize(0));  // surface and mapping go away next
        return Ok{};
    }

private:
    struct LevelCopy {
        DeviceBuffer<int32_t> values;
        DeviceBuffer<uint8_t> mask;
        int32_t rows = 0, cols = 0;
        bool has_mask = false;
    };

    Status upload_values(const ViewSource& src) {
        const auto& v = src.values->levels;
        std::vector<LevelCopy> fresh(v.size());
        for (size_t k = 0; k < v.size(); ++k) {
            fresh[k].rows = v[k].rows;
            fresh[k].cols = v[k].cols;
            if (Status s = fresh[k].values.assign(v[k].data.data(), v[k].data.size()); !s) return s;
            if (src.mask && k < src.mask->levels.size()) {
                const auto& m = src.mask->levels[k];
                if (Status s = fresh[k].mask.assign(m.data.data(), m.data.size()); !s) return s;
                fresh[k].has_mask = true;
            }
        }
        levels_ = std::move(fresh);
        return Ok{};
    }

    cudaGraphicsResource_t resource_;
    std::string name_;
    std::vector<LevelCopy> levels_;
    DeviceBuffer<uint32_t> lut_;
    int64_t lut_entries_ = 0;
    uint64_t values_version_ = ~uint64_t(0);
    uint64_t lut_version_ = ~uint64_t(0);
};

}  // namespace

bool interop_compiled() { return true; }

Expected<std::unique_ptr<InteropWriter>> make_interop_writer(uint32_t texture) {
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
        cudaGetLastError();  // clear the sticky "no device" error for later callers
        return device_error(std::string("no CUDA device (") + (e == cudaSuccess ? "none found" : cudaGetErrorString(e)) +
                            "): host upload path");
    }
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, dev);
    cudaGraphicsResource_t res = nullptr;
    const cudaError_t e = cudaGraphicsGLRegisterImage(&res, texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore);
    if (e != cudaSuccess) {
        cudaGetLastError();
        // Mesa (llvmpipe, Xvfb) answers cudaErrorUnknown here: the GL context is not NVIDIA's.
        return device_error(std::string("CUDA cannot register the GL texture (") + cudaGetErrorString(e) +
                            "; is the GL renderer NVIDIA's?): host upload path");
    }
    return std::unique_ptr<InteropWriter>(std::make_unique<CudaInteropWriter>(res, std::string(prop.name)));
}

}  // namespace dpviz::render
