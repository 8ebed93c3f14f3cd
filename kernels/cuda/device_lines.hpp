// Checkpoint lines in device memory, the LineSource (dpviz/store.hpp) of a store's GPU fill:
// dispatch.cu's band kernels and pair_score.cu's one-pair kernel write them, the host's tiles
// read their edges.
#pragma once

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "cuda_check.hpp"
#include "fill_params.hpp"
#include "dpviz/store.hpp"

namespace dpviz::cuda {

// The checkpoint lines of a store's fill, left in device memory: the host's tiles fetch the edges
// they restart from (a few kB each), so no line crosses to the host unasked. A read's two copies
// (H and the gap state) go out on one of a few streams into pinned memory and are waited for
// once: tiles are filled on several threads, and copies on the default stream would queue behind
// each other.
class DeviceLines final : public LineSource {
public:
    // The row lines, in one of two layouts: the band kernels' (Out::store) after their ring of
    // bottom rows, as {value, tag} pairs (biased), row line i at slot ring + i / K - 1, column j at
    // kColPad + j - 1 of a slot of `pitch` pairs; or the one-pair kernel's (pair_score.cu), plain
    // values, row line i at (i / K - 1) (N + 1), column j at j.
    DeviceBuffer<int2> bot_h, bot_f;
    DeviceBuffer<int32_t> row_h, row_f;
    bool tagged_rows = true;                // the band kernels' layout
    DeviceBuffer<int32_t> col_h, col_e;     // the column lines, unbiased, column line j at (j / K - 1) (M + 1)
    int M = 0, N = 0, K = 0, ring = 0;
    long long pitch = 0;
    int32_t bias = 0;

    ~DeviceLines() override {
        for (Reader& r : readers_) cudaFreeHost(r.pinned);
    }

    void edge(bool column, int32_t line, int32_t from, int32_t to, int32_t* h, int32_t* gap) const override {
        const bool pairs = !column && tagged_rows;
        const size_t n = size_t(to - from) + 1, one = pairs ? n * 8 : n * 4;  // bytes of one line's read
        Reader* rd = take_reader(2 * one);
        cudaError_t e = rd ? cudaSuccess : cudaErrorMemoryAllocation;
        const void* src_h = nullptr;
        const void* src_gap = nullptr;
        if (column) {
            const size_t at = size_t(line / K - 1) * (size_t(M) + 1) + size_t(from);
            src_h = col_h.get() + at;
            src_gap = col_e.get() + at;
        } else if (pairs) {
            const size_t at = size_t(ring + line / K - 1) * size_t(pitch) + kColPad + size_t(from) - 1;
            src_h = bot_h.get() + at;
            src_gap = bot_f.get() + at;
        } else {
            const size_t at = size_t(line / K - 1) * (size_t(N) + 1) + size_t(from);
            src_h = row_h.get() + at;
            src_gap = row_f.get() + at;
        }
        char* buf = rd ? static_cast<char*>(rd->pinned) : nullptr;
        if (e == cudaSuccess) e = cudaMemcpyAsync(buf, src_h, one, cudaMemcpyDeviceToHost, rd->stream.get());
        if (e == cudaSuccess && gap) e = cudaMemcpyAsync(buf + one, src_gap, one, cudaMemcpyDeviceToHost, rd->stream.get());
        if (e == cudaSuccess) e = cudaStreamSynchronize(rd->stream.get());
        if (e == cudaSuccess) {
            if (!pairs) {
                std::copy_n(reinterpret_cast<const int32_t*>(buf), n, h);
                if (gap) std::copy_n(reinterpret_cast<const int32_t*>(buf + one), n, gap);
            } else {
                const int2* ph = reinterpret_cast<const int2*>(buf);
                for (size_t x = 0; x < n; ++x) h[x] = ph[x].x - bias;
                if (gap) {
                    const int2* pg = reinterpret_cast<const int2*>(buf + one);
                    for (size_t x = 0; x < n; ++x) gap[x] = pg[x].x - bias;
                }
            }
        }
        if (rd) give_back(rd);
        if (e == cudaSuccess) return;
        cudaGetLastError();
        {
            std::lock_guard lock(error_mutex_);  // tiles are filled on several threads
            if (error_.empty())
                error_ = std::string("reading the checkpoint lines: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
        }
        for (size_t x = 0; x < n; ++x) {  // finite values, so the walk that asked still ends
            h[x] = 0;
            if (gap) gap[x] = kNegInf;
        }
    }
    std::string failed() const override {
        std::lock_guard lock(error_mutex_);
        return error_;
    }
    bool on_gpu() const override { return true; }

private:
    // A stream and a pinned buffer for one read at a time; as many as threads read at once.
    struct Reader {
        Stream stream;
        void* pinned = nullptr;
        size_t bytes = 0;
        bool busy = false;
    };

    // A free reader with at least `bytes` of pinned memory, or nullptr when none can be made.
    Reader* take_reader(size_t bytes) const {
        std::lock_guard lock(readers_mutex_);
        Reader* r = nullptr;
        for (Reader& x : readers_)
            if (!x.busy) { r = &x; break; }
        if (!r) {
            r = &readers_.emplace_back();
            if (!r->stream.create()) {
                readers_.pop_back();
                return nullptr;
            }
        }
        if (r->bytes < bytes) {
            cudaFreeHost(r->pinned);
            r->bytes = std::max(bytes, size_t(64) << 10);
            if (cudaMallocHost(&r->pinned, r->bytes) != cudaSuccess) {
                cudaGetLastError();
                r->pinned = nullptr;
                r->bytes = 0;
                return nullptr;
            }
        }
        r->busy = true;
        return r;
    }
    void give_back(Reader* r) const {
        std::lock_guard lock(readers_mutex_);
        r->busy = false;
    }

    mutable std::mutex error_mutex_;
    mutable std::string error_;
    mutable std::mutex readers_mutex_;
    mutable std::deque<Reader> readers_;  // a deque: readers handed out keep their address
};

// The checkpoints whose lines are `lines` (the vectors empty: DpResult::checkpoints of a GPU's store).
inline std::shared_ptr<Checkpoints> device_checkpoints(std::shared_ptr<DeviceLines> lines, bool affine) {
    auto kept = std::make_shared<Checkpoints>();
    kept->spacing = lines->K;
    kept->M = lines->M;
    kept->N = lines->N;
    kept->affine = affine;
    kept->source = std::move(lines);
    return kept;
}

}  // namespace dpviz::cuda
