// CUDA-GL interop writer for the matrix view (cuda-samples simpleGL pattern): the texture is
// registered once; each draw maps it, writes every texel through a surface object with the
// same texel_color as the host path, and unmaps. Device copies of the pyramid and color table
// are uploaded only when their versions change.
#include <glad/gl.h>  // before <cuda_gl_interop.h>, which includes <GL/gl.h>

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "dpviz/fault_injection.hpp"
#include "interop.hpp"
#include "texel_math.hpp"

namespace dpviz::render {
namespace {

using cuda::DeviceBuffer;

// `n` elements of `host` into `d` (allocated again only when it holds fewer).
template <class T>
Status assign(DeviceBuffer<T>& d, const T* host, size_t n) {
    if (Status s = cuda::reserve(d, n); !s) return s;
    if (n) DPVIZ_CUDA_CHECK(cudaMemcpy(d.get(), host, n * sizeof(T), cudaMemcpyHostToDevice));
    return Ok{};
}

// Unmaps on scope exit, so an error between map and unmap never leaves GL locked out.
class MappedResource {
public:
    MappedResource(cudaGraphicsResource_t r, cudaStream_t s) : r_(r), s_(s) {}
    MappedResource(const MappedResource&) = delete;
    MappedResource& operator=(const MappedResource&) = delete;
    ~MappedResource() {
        if (mapped_) cudaGraphicsUnmapResources(1, &r_, s_);
    }
    Status map() {
        DPVIZ_CUDA_CHECK(cudaGraphicsMapResources(1, &r_, s_));
        mapped_ = true;
        return Ok{};
    }

private:
    cudaGraphicsResource_t r_;
    cudaStream_t s_;
    bool mapped_ = false;
};

class SurfaceObject : public cuda::Handle<cudaSurfaceObject_t, cudaDestroySurfaceObject> {
public:
    Status create(cudaArray_t array) {
        cudaResourceDesc desc{};
        desc.resType = cudaResourceTypeArray;
        desc.res.array.array = array;
        DPVIZ_CUDA_CHECK(cudaCreateSurfaceObject(created(), &desc));
        return Ok{};
    }
};

// A block writes 128 x 64 texels (32 x 8 threads; a thread 4 adjacent texels in each of 8
// adjacent rows): the cell spans of its 128 columns and 64 rows are computed once, in shared
// memory (texel_color's spans, so the same pixels), instead of four divisions per texel, and a
// thread stores its 4 texels of a row with one 16-byte unformatted surface store (sust.b.v4: the
// x coordinate is a byte offset, the size is the operand's) where they lie inside the surface.
constexpr int kTexW = 128, kTexH = 64, kTexThreadsX = 32, kTexThreadsY = 8, kTexRows = kTexH / kTexThreadsY;

struct RowMax {
    int32_t v[4];   // per texel column: the largest key of the row's 1-2 cells under it
    bool on[4];     // and whether any of them is on a path (with the mask)
};

// What the 2 x 2 kernel reads per cell: a key whose maximum over a texel's cells gives its colour.
// The level's values (pool_key, then lut_color), or their 16-bit colour-table slots (lut_slot,
// then slot_color: half the bytes, the same colours).
struct ValueCells {
    const int32_t* v;
    static constexpr int32_t kNone = kNegInf;
    __device__ int32_t key(int64_t at) const { return texel::pool_key(v[at]); }
    __device__ uint32_t color(const texel::LutView& lut, int32_t k) const { return texel::lut_color(lut, k); }
};
struct SlotCells {
    const uint16_t* s;
    static constexpr int32_t kNone = 0;
    __device__ int32_t key(int64_t at) const { return s[at]; }
    __device__ uint32_t color(const texel::LutView& lut, int32_t k) const { return texel::slot_color(lut, uint32_t(k)); }
};

// The 2 x 2 case (every texel covers at most 2 x 2 cells of its level: spans_at_most_two, decided
// on the host): a thread walks its 8 texel rows top-down and reads each level row once for its 4
// columns (adjacent texel rows share a level row at most zoom levels), so a texel costs ~2.5
// loads instead of 4. The maximum and OR are those of pooled_color_small.
template <class Cells>
__device__ RowMax row_max(const Cells& cells, const texel::LevelView& lv, bool with_mask, int32_t r,
                          const int2 (&cs)[4]) {
    RowMax m;
    const int64_t row = int64_t(r) * lv.cols;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const bool two = cs[q].y - cs[q].x == 2;
        const int64_t at = row + cs[q].x;
        const int32_t a = cells.key(at), b = two ? cells.key(at + 1) : Cells::kNone;
        m.v[q] = a > b ? a : b;
        m.on[q] = with_mask && (lv.mask[at] || (two && lv.mask[at + 1]));
    }
    return m;
}

template <class Cells>
__global__ void __launch_bounds__(kTexThreadsX * kTexThreadsY)
    view_texels_small(Cells cells, texel::LevelView lv, texel::LutView lut, texel::Request rq, cudaSurfaceObject_t out,
                      int32_t surface_w) {
    __shared__ int2 col_span[kTexW], row_span[kTexH];
    const int32_t x0 = int32_t(blockIdx.x) * kTexW, y0 = int32_t(blockIdx.y) * kTexH;
    const int t = int(threadIdx.y) * kTexThreadsX + int(threadIdx.x);
    int32_t b = 0, e = 0;
    if (t < kTexW) {
        texel::level_span(rq.j0, rq.cols, rq.out_w, min(x0 + t, rq.out_w - 1), rq.level, lv.cols, b, e);
        col_span[t] = make_int2(b, e);
    } else if (t < kTexW + kTexH) {
        texel::level_span(rq.i0, rq.rows, rq.out_h, min(y0 + t - kTexW, rq.out_h - 1), rq.level, lv.rows, b, e);
        row_span[t - kTexW] = make_int2(b, e);
    }
    __syncthreads();
    const int c0 = int(threadIdx.x) * 4;
    const int32_t x = x0 + c0;
    if (x >= rq.out_w) return;
    const int2 cs[4] = {col_span[c0], col_span[c0 + 1], col_span[c0 + 2], col_span[c0 + 3]};
    const bool vector = x + 4 <= surface_w;
    const bool with_mask = rq.mask && lv.mask;
    RowMax last;
    int32_t last_r = -1;
    const int k0 = int(threadIdx.y) * kTexRows;
    for (int k = k0; k < k0 + kTexRows && y0 + k < rq.out_h; ++k) {
        const int2 rs = row_span[k];
        const RowMax first = rs.x == last_r ? last : row_max(cells, lv, with_mask, rs.x, cs);
        RowMax m = first;
        last = first;
        last_r = rs.x;
        if (rs.y - rs.x == 2) {
            last = row_max(cells, lv, with_mask, rs.x + 1, cs);
            last_r = rs.x + 1;
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                m.v[q] = m.v[q] > last.v[q] ? m.v[q] : last.v[q];
                m.on[q] = m.on[q] || last.on[q];
            }
        }
        uint32_t c[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const uint32_t col = cells.color(lut, m.v[q]);
            c[q] = m.on[q] ? texel::blend_half(col, lut.mask_tint) : col;
        }
        if (vector) {
            surf2Dwrite(make_uint4(c[0], c[1], c[2], c[3]), out, x * int(sizeof(uint32_t)), y0 + k);
        } else {
#pragma unroll
            for (int q = 0; q < 4; ++q)
                if (x + q < rq.out_w) surf2Dwrite(c[q], out, (x + q) * int(sizeof(uint32_t)), y0 + k);
        }
    }
}

// The 16-bit colour-table slots of n values (lut_slot).
__global__ void slot_cells(const int32_t* __restrict__ v, int64_t n, texel::LutView lut, uint16_t* __restrict__ out) {
    for (int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += int64_t(gridDim.x) * blockDim.x)
        out[k] = uint16_t(texel::lut_slot(lut, v[k]));
}

// Any request (views coarser than the top level included): texel_color's pooling loop per texel.
__global__ void __launch_bounds__(kTexThreadsX * kTexThreadsY)
    view_texels(texel::LevelView lv, texel::LutView lut, texel::Request rq, cudaSurfaceObject_t out) {
    const int32_t x = int32_t(blockIdx.x) * kTexThreadsX + int32_t(threadIdx.x);
    const int32_t y = int32_t(blockIdx.y) * kTexThreadsY + int32_t(threadIdx.y);
    if (x >= rq.out_w || y >= rq.out_h) return;
    surf2Dwrite(texel::texel_color(lv, lut, rq, x, y), out, x * int(sizeof(uint32_t)), y);
}

class CudaInteropWriter final : public InteropWriter {
public:
    CudaInteropWriter(cudaGraphicsResource_t r, std::string name) : resource_(r), name_(std::move(name)) {}
    ~CudaInteropWriter() override {
        cudaStreamSynchronize(stream_);  // the last view kernel may still write through the surface
        if (stream_) cudaStreamDestroy(stream_);
        surface_.reset();
        cudaGraphicsUnregisterResource(resource_);
    }

    const std::string& device_name() const override { return name_; }

    Status draw(const ViewSource& src, const TexelRequest& req) override {
        if (src.device_values && src.device_values->empty()) return Ok{};
        const bool new_values = src.values_version != values_version_ || levels_.empty();
        const bool new_lut = src.lut_version != lut_version_ || lut_entries_ == 0;
        // The copies below (cudaMemcpy, legacy stream) must not overwrite what the last view
        // kernel, on this writer's own stream, may still read.
        if ((new_values || new_lut) && stream_) DPVIZ_CUDA_CHECK(cudaStreamSynchronize(stream_));
        if (new_values) {
            if (Status s = upload_values(src); !s) return s;
            values_version_ = src.values_version;
        }
        if (new_lut) {
            if (Status s = assign(lut_, src.lut->rgba.data(), src.lut->rgba.size()); !s) return s;
            lut_version_ = src.lut_version;
            lut_entries_ = int64_t(src.lut->rgba.size());
        }
        if (new_values || new_lut)
            for (auto& sl : slots_) sl->state = SlotLevel::stale;
        // GPU-resident values are read where they are; host pyramids from their device copies.
        const std::vector<DeviceLevel>* dv = src.device_values;
        const int level = pick_level(req, int(dv ? dv->size() : levels_.size()));
        const LevelCopy& lc = levels_[size_t(level)];
        const bool with_mask = req.mask && lc.has_mask;
        const int32_t* values = dv ? (*dv)[size_t(level)].values : lc.values.get();
        const int32_t rows = dv ? (*dv)[size_t(level)].rows : lc.rows, cols = dv ? (*dv)[size_t(level)].cols : lc.cols;
        const texel::LevelView lv{values, with_mask ? lc.mask.get() : nullptr, rows, cols};
        const ColorLut& hl = *src.lut;
        const texel::LutView lt{lut_.get(), lut_entries_, hl.lo, hl.span, hl.unreachable, hl.mask_tint};
        const texel::Request rq{req.i0, req.j0, req.rows, req.cols, req.out_w, req.out_h, level, with_mask};

        if (!stream_made_) {
            // Its own stream, not the legacy default one (which waits for every blocking stream):
            // the view is written while the worker's fill runs on its own streams. An A/B switch
            // for measurements: DPVIZ_INTEROP_DEFAULT_STREAM=1 maps on stream 0 as before.
            stream_made_ = true;
            if (!std::getenv("DPVIZ_INTEROP_DEFAULT_STREAM"))
                DPVIZ_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        }
        const bool small = texel::spans_at_most_two(rq);
        const uint16_t* slots = small ? slot_level(level, lv, lt) : nullptr;
        MappedResource mapped(resource_, stream_);
        if (Status s = mapped.map(); !s) return s;
        cudaArray_t array = nullptr;
        DPVIZ_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0));
        // The texture's array stays the same from one map to the next: its surface object is made
        // once (again, after the last kernel that used it, when GL gave the texture a new array).
        if (array != surface_array_ || !surface_.get()) {
            DPVIZ_CUDA_CHECK(cudaStreamSynchronize(stream_));
            if (Status s = surface_.create(array); !s) return s;
            surface_array_ = array;
            cudaChannelFormatDesc fmt{};
            cudaExtent extent{};
            unsigned flags = 0;
            DPVIZ_CUDA_CHECK(cudaArrayGetInfo(&fmt, &extent, &flags, array));
            surface_w_ = int32_t(extent.width);
        }
        const dim3 block(kTexThreadsX, kTexThreadsY);
        if (small) {
            const dim3 grid((unsigned(req.out_w) + kTexW - 1) / kTexW, (unsigned(req.out_h) + kTexH - 1) / kTexH);
            if (slots)
                view_texels_small<<<grid, block, 0, stream_>>>(SlotCells{slots}, lv, lt, rq, surface_.get(), surface_w_);
            else
                view_texels_small<<<grid, block, 0, stream_>>>(ValueCells{lv.values}, lv, lt, rq, surface_.get(),
                                                               surface_w_);
        } else {
            const dim3 grid((unsigned(req.out_w) + kTexThreadsX - 1) / kTexThreadsX,
                            (unsigned(req.out_h) + kTexThreadsY - 1) / kTexThreadsY);
            view_texels<<<grid, block, 0, stream_>>>(lv, lt, rq, surface_.get());
        }
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        // No host wait: unmapping (scope exit) orders every later GL command after the kernel.
        return Ok{};
    }

private:
    struct LevelCopy {
        DeviceBuffer<int32_t> values;
        DeviceBuffer<uint8_t> mask;
        int32_t rows = 0, cols = 0;
        bool has_mask = false;
    };

    // The 16-bit colour-table slots of a level, made on this writer's stream the first time the
    // 2 x 2 kernel reads that level with the current values and table, and kept until either
    // changes: the kernel then reads half the bytes (the update waits on the level's cold read).
    // None (the values are read) when the table has 65,536 entries (slots would not fit in 16
    // bits), past kMaxSlotCells, or when the device has no memory for them.
    struct SlotLevel {
        DeviceBuffer<uint16_t> buf;
        enum { stale, ready, none } state = stale;
    };
    static constexpr int64_t kMaxSlotCells = int64_t(1) << 28;  // 512 MiB of slots

    const uint16_t* slot_level(int level, const texel::LevelView& lv, const texel::LutView& lut) {
        while (slots_.size() <= size_t(level)) slots_.push_back(std::make_unique<SlotLevel>());
        SlotLevel& sl = *slots_[size_t(level)];
        if (sl.state == SlotLevel::stale) {
            const int64_t n = int64_t(lv.rows) * lv.cols;
            sl.state = SlotLevel::none;
            if (lut.entries <= 65535 && n > 0 && n <= kMaxSlotCells && cuda::reserve(sl.buf, size_t(n))) {
                const int blocks = int(std::min<int64_t>((n + 255) / 256, 2048));  // grid-stride beyond
                slot_cells<<<blocks, 256, 0, stream_>>>(lv.values, n, lut, sl.buf.get());
                sl.state = cudaGetLastError() == cudaSuccess ? SlotLevel::ready : SlotLevel::none;
            }
            cudaGetLastError();  // an allocation that failed is not an error here: the values are read
        }
        return sl.state == SlotLevel::ready ? sl.buf.get() : nullptr;
    }

    // Device copies of the host pyramid; of the mask only when the values are on the device already.
    Status upload_values(const ViewSource& src) {
        const size_t n = src.device_values ? src.device_values->size() : src.values->levels.size();
        std::vector<LevelCopy> fresh(n);
        for (size_t k = 0; k < n; ++k) {
            if (!src.device_values) {
                const auto& v = src.values->levels[k];
                fresh[k].rows = v.rows;
                fresh[k].cols = v.cols;
                if (Status s = assign(fresh[k].values, v.data.data(), v.data.size()); !s) return s;
            }
            if (src.mask && k < src.mask->levels.size()) {
                const auto& m = src.mask->levels[k];
                if (Status s = assign(fresh[k].mask, m.data.data(), m.data.size()); !s) return s;
                fresh[k].has_mask = true;
            }
        }
        levels_ = std::move(fresh);
        return Ok{};
    }

    cudaGraphicsResource_t resource_;
    cudaArray_t surface_array_ = nullptr;
    int32_t surface_w_ = 0;  // texels per row of the mapped array
    cudaStream_t stream_ = nullptr;
    bool stream_made_ = false;
    SurfaceObject surface_;
    std::string name_;
    std::vector<LevelCopy> levels_;
    std::vector<std::unique_ptr<SlotLevel>> slots_;
    DeviceBuffer<uint32_t> lut_;
    int64_t lut_entries_ = 0;
    uint64_t values_version_ = ~uint64_t(0);
    uint64_t lut_version_ = ~uint64_t(0);
};

}  // namespace

bool interop_compiled() { return true; }

Expected<std::unique_ptr<InteropWriter>> make_interop_writer(uint32_t texture) {
    if (auto refusal = gpu_fault::simulated_interop_refusal()) return device_error(*refusal);  // test-only switch
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
        cudaGetLastError();  // clear the sticky "no device" error for later callers
        int driver = 0;
        if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0)
            return device_error("no NVIDIA driver or GPU found: host upload path");
        return device_error(std::string("no CUDA device (") + (e == cudaSuccess ? "none found" : cudaGetErrorString(e)) +
                            "): host upload path");
    }
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, dev);
    cudaGraphicsResource_t res = nullptr;
    // DPVIZ_GPU_FAULT=interop (test-only): the registration fails as it does on Mesa.
    const bool injected = gpu_fault::interop_registration_fails();
    const cudaError_t e = injected ? cudaErrorUnknown
                                   : cudaGraphicsGLRegisterImage(&res, texture, GL_TEXTURE_2D,
                                                                 cudaGraphicsRegisterFlagsSurfaceLoadStore |
                                                                     cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        cudaGetLastError();
        // Mesa (llvmpipe, Xvfb) answers cudaErrorUnknown here: the GL context is not NVIDIA's.
        return device_error(std::string("CUDA cannot register the GL texture (") + cudaGetErrorString(e) +
                            (injected ? gpu_fault::injected_note("interop") : "; is the GL renderer NVIDIA's?") +
                            "): host upload path");
    }
    return std::unique_ptr<InteropWriter>(std::make_unique<CudaInteropWriter>(res, std::string(prop.name)));
}

}  // namespace dpviz::render
