// The GPU-resident view path (dpviz/device_view.hpp): a level-matrix fill kept in device memory,
// its borders, value ranges, end cell, max-pooled levels and path computed there, and windows
// copied back on demand. Also gpu_description() for the timing panel.
//
// Index of this file
//   [SECTION] Kernels            borders, ranges, row maxima, pooling, the tiled traceback
//   [SECTION] Resident matrices  DeviceMatrices over the kept buffers
//   [SECTION] align_on_device    the stages, timed
//   [SECTION] Description        gpu_description()
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "dpviz/device_view.hpp"
#include "gpu_engine.hpp"
#include "view_matrices.hpp"

namespace dpviz {
namespace cuda {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernels
// ---------------------------------------------------------------------------------------------

// render's texel::reachable / pool_key (render/gl/texel_math.hpp), the same rule.
__device__ __forceinline__ bool reachable(int32_t v) { return v > kNegInf && v < kPosInf; }
__device__ __forceinline__ int32_t pool_key(int32_t v) { return reachable(v) ? v : kNegInf; }

struct BorderArgs {
    int M, N;
    Border top, left;  // the algorithm's border rules (dpviz/algorithm.hpp)
    bool affine;
    int32_t open, ext;
};

// Row 0 and column 0 by the algorithm's border rules (as dispatch.cu's fill_matrix_borders):
// thread k sets cell k of column 0 (a vertical border: F holds a gap) and of row 0 (E does).
__global__ void set_borders(BorderArgs a, int32_t* H, int32_t* E, int32_t* F, uint8_t* D) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    for (int column = 0; column < 2; ++column) {
        if (k > (column ? a.M : a.N)) continue;
        const Border b = column ? a.left : a.top;
        const size_t at = column ? size_t(k) * (size_t(a.N) + 1) : size_t(k);
        const int32_t h = border_h(b, k, a.open, a.ext);
        H[at] = h;
        D[at] = border_dirs(b, column, k, a.affine);
        if (a.affine) {
            (column ? E : F)[at] = kNegInf;
            (column ? F : E)[at] = border_gap_layer(b) && k >= 1 ? h : kNegInf;
        }
    }
}

struct RangeOut {
    int32_t min, max;
    int finite, unreachable;
};

__device__ __forceinline__ int32_t warp_min(int32_t v) {
    for (int o = 16; o; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ int32_t warp_max(int32_t v) {
    for (int o = 16; o; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// One thread's finite min/max and unreachable flag into the launch's range (every thread of the
// warp calls it).
__device__ void add_to_range(int32_t lo, int32_t hi, int unreach, RangeOut* out) {
    lo = warp_min(lo);
    hi = warp_max(hi);
    unreach = __any_sync(0xffffffffu, unreach);
    if ((threadIdx.x & 31) == 0) {
        if (lo <= hi) {
            atomicMin(&out->min, lo);
            atomicMax(&out->max, hi);
            atomicOr(&out->finite, 1);
        }
        if (unreach) atomicOr(&out->unreachable, 1);
    }
}

// render::value_range on the device: finite min/max, whether any cell is unreachable.
__global__ void value_range(const int32_t* v, size_t n, RangeOut* out) {
    int32_t lo = INT_MAX, hi = INT_MIN;
    int unreach = 0;
    for (size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x; x < n; x += size_t(gridDim.x) * blockDim.x) {
        const int32_t a = v[x];
        if (reachable(a)) {
            lo = min(lo, a);
            hi = max(hi, a);
        } else {
            unreach = 1;
        }
    }
    add_to_range(lo, hi, unreach, out);
}

// Per row: the largest H and its first column (select_end's row-major tie-break within a row).
__global__ void row_maxima(const int32_t* H, int rows, int cols, int32_t* best, int32_t* col) {
    __shared__ int32_t sv[32], sj[32];
    for (int i = blockIdx.x; i < rows; i += gridDim.x) {
        const int32_t* row = H + size_t(i) * cols;
        int32_t bv = INT_MIN, bj = INT_MAX;
        for (int j = threadIdx.x; j < cols; j += blockDim.x)
            if (row[j] > bv) { bv = row[j]; bj = j; }  // j grows: the first of equal values stays
        for (int o = 16; o; o >>= 1) {
            const int32_t ov = __shfl_xor_sync(0xffffffffu, bv, o), oj = __shfl_xor_sync(0xffffffffu, bj, o);
            if (ov > bv || (ov == bv && oj < bj)) { bv = ov; bj = oj; }
        }
        const int w = threadIdx.x >> 5, nw = blockDim.x >> 5;
        if ((threadIdx.x & 31) == 0) { sv[w] = bv; sj[w] = bj; }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int k = 1; k < nw; ++k)
                if (sv[k] > bv || (sv[k] == bv && sj[k] < bj)) { bv = sv[k]; bj = sj[k]; }
            best[i] = bv;
            col[i] = bj;
        }
        __syncthreads();
    }
}

// One pyramid level: each cell the largest pool_key of the 2x2 block under it. With `range`, also
// value_range of the source (every source cell lies under exactly one destination cell): the first
// level and the range share one read of the layer.
__global__ void pool_level(const int32_t* src, int sr, int sc, int32_t* dst, int dr, int dc, RangeOut* range) {
    const size_t n = size_t(dr) * dc;
    int32_t lo = INT_MAX, hi = INT_MIN;
    int unreach = 0;
    for (size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x; x < n; x += size_t(gridDim.x) * blockDim.x) {
        const int i = int(x / dc), j = int(x % dc);
        int32_t b = kNegInf;
        for (int di = 0; di < 2; ++di)
            for (int dj = 0; dj < 2; ++dj) {
                const int si = 2 * i + di, sj = 2 * j + dj;
                if (si < sr && sj < sc) {
                    const int32_t v = src[size_t(si) * sc + sj];
                    b = max(b, pool_key(v));
                    if (reachable(v)) {
                        lo = min(lo, v);
                        hi = max(hi, v);
                    } else {
                        unreach = 1;
                    }
                }
            }
        dst[x] = b;
    }
    if (range) add_to_range(lo, hi, unreach, range);
}

// The traceback of cpu/traceback.cpp (same states, priorities and stop rules) over the device's
// direction bytes. The block loads the kTile x kTile bytes above-left of the current cell into
// shared memory (16-byte loads: each row from the 16-byte boundary at or before its first byte,
// so row r's bytes start at `lead(r)` in its shared row); one thread walks them until the path
// leaves the tile. The walk is the latency chain: one shared read of the cell's bits, one of a
// table that says what the reference does in this state with these bits, a few adds; no
// branches but the loop's. The path comes out end first; kStop is the algorithm's stop rule
// (dpviz/algorithm.hpp), fixed per instantiation so the walk tests no more than it needs.
constexpr int kTile = 256;
constexpr int kTileStride = kTile + 16;  // bytes per shared row: the lead (0-15) + kTile
constexpr int kTraceThreads = 1024;
constexpr size_t kTraceShared = size_t(kTile) * kTileStride;

// A step's table entry, per state (0 H, 1 E, 2 F) and direction byte.
constexpr uint8_t kStepUp = 1, kStepLeft = 2, kStepEnd = 16;  // bits 2-3: the next state

__device__ uint8_t trace_step(int st, uint8_t b, StopRule stop, int affine) {
    if (st == 0) {
        if (stop == StopRule::zero_or_border && (b & dir::kZero)) return kStepEnd;
        if (b & dir::kDiag) return kStepUp | kStepLeft;
        if (b & dir::kUp) return affine ? uint8_t(2 << 2) : kStepUp;
        if (b & dir::kLeft) return affine ? uint8_t(1 << 2) : kStepLeft;
        return kStepEnd;  // no predecessor: a border or unreachable cell
    }
    if (st == 2) return uint8_t(kStepUp | ((b & dir::kFOpen) ? 0 : 2 << 2));
    return uint8_t(kStepLeft | ((b & dir::kEOpen) ? 0 : 1 << 2));
}

template <StopRule kStop>
__global__ void __launch_bounds__(kTraceThreads) trace_path(const uint8_t* D, size_t bytes, int cols, int affine, int ei, int ej, int2* path, int* count,
                                                            int max_len) {
    extern __shared__ uint4 tile_words[];
    const uint8_t* tile = reinterpret_cast<const uint8_t*>(tile_words);
    __shared__ uint8_t table[3 * 256];
    __shared__ int ci, cj, state, n, finished;
    for (int k = threadIdx.x; k < 3 * 256; k += blockDim.x) table[k] = trace_step(k >> 8, uint8_t(k & 255), kStop, affine);
    if (threadIdx.x == 0) {
        ci = ei;
        cj = ej;
        state = 0;
        path[0] = make_int2(ei, ej);
        n = 1;
        finished = 0;
    }
    __syncthreads();
    constexpr int kWords = kTileStride / 16;  // 16-byte words per shared row
    const int cols15 = int(size_t(cols) & 15);
    for (;;) {
        const int i1 = ci, j1 = cj;
        const int ti0 = max(0, i1 - kTile + 1), tj0 = max(0, j1 - kTile + 1);
        const int th = i1 - ti0 + 1, tw = j1 - tj0 + 1;
        for (int k = threadIdx.x; k < th * kWords; k += blockDim.x) {
            const int r = k / kWords, w = k % kWords;
            const size_t first = size_t(ti0 + r) * cols + tj0;      // the row's first byte
            const size_t word = (first & ~size_t(15)) + size_t(w) * 16;
            if (word >= first + tw) continue;                     // past the row's last byte
            uint4 v;
            if (word + 16 <= bytes) {
                v = *reinterpret_cast<const uint4*>(D + word);    // cudaMalloc: 256-byte aligned base
            } else {                                              // the matrix's last bytes
                uint8_t b[16];
                for (int x = 0; x < 16; ++x) b[x] = word + x < bytes ? D[word + x] : 0;
                memcpy(&v, b, 16);
            }
            tile_words[r * kWords + w] = v;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            int i = i1, j = j1, st = state, len = n;
            bool done = false;
            int lead = int((size_t(i) * cols + tj0) & 15);
            int p = (i - ti0) * kTileStride + lead + (j - tj0);  // (i, j) in the tile
            for (;;) {
                const uint8_t e = table[(st << 8) | tile[p]];
                // State H ends where the stop rule says (the zero bit is the table's).
                const bool border = st == 0 && traceback_stops(kStop, i, j, 0);
                if (border || (e & kStepEnd)) {
                    done = true;
                    break;
                }
                const int di = e & kStepUp, dj = (e & kStepLeft) >> 1;
                st = (e >> 2) & 3;
                i -= di;
                j -= dj;
                const int nl = (lead - di * cols15) & 15;  // row i - 1 starts cols bytes earlier
                p += nl - lead - di * kTileStride - dj;
                lead = nl;
                if (di | dj) {
                    if (len >= max_len || i < 0 || j < 0) {  // corrupt bits: never loop
                        done = true;
                        break;
                    }
                    path[len++] = make_int2(i, j);
                }
                if (i < ti0 || j < tj0) break;  // the path left the tile
            }
            ci = i;
            cj = j;
            state = st;
            n = len;
            finished = done;
        }
        __syncthreads();
        if (finished) break;
    }
    if (threadIdx.x == 0) *count = n;
}

// A grid-stride launch over n items: at most 16 blocks per SM of the device (the fill that
// came before read its DeviceInfo, so this one is cached).
int blocks_for(size_t n, int threads = 256) {
    const auto info = device_info();
    const size_t cap = size_t(info ? info->sms : 1) * 16;
    return int(std::max<size_t>(1, std::min<size_t>((n + threads - 1) / threads, cap)));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Resident matrices
// ---------------------------------------------------------------------------------------------

class Resident final : public DeviceMatrices {
public:
    KeptMatrices kept;
    int32_t M1 = 0, N1 = 0;
    bool affine = false;
    int min_side = 128;
    Stream stream;
    mutable std::mutex mutex;  // fetches and layer builds share the stream

    int32_t rows() const override { return M1; }
    int32_t cols() const override { return N1; }
    bool has_layer(int layer) const override { return layer == 0 || (affine && (layer == 1 || layer == 2)); }
    // H's levels and range are built by align_on_device; E's and F's when first asked for (most
    // views never show them, and building them costs the job ~1 ms at 10k x 10k).
    const std::vector<DeviceLevel>& levels(int layer) const override {
        static const std::vector<DeviceLevel> none;
        if (!has_layer(layer)) return none;
        std::lock_guard lock(mutex);
        if (!built[layer]) (void)build_layer(layer);
        return lv[layer];
    }
    DeviceRange range(int layer) const override {
        if (!has_layer(layer)) return {};
        std::lock_guard lock(mutex);
        if (!built[layer]) (void)build_layer(layer);
        return ranges[layer];
    }

    // The value range and pooled levels of one layer; the caller holds `mutex`. A failure leaves
    // the layer without levels (the view then cannot draw it and says so) and is not retried.
    Status build_layer(int layer) const {
        built[layer] = true;
        const cudaStream_t s = stream.get();
        const int32_t* base = layer_ptr(layer);
        DeviceBuffer<RangeOut> d_range;
        if (auto st = d_range.allocate(1); !st) return st;
        const RangeOut init{INT_MAX, INT_MIN, 0, 0};
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(d_range.get(), &init, sizeof init, cudaMemcpyHostToDevice, s));
        std::vector<DeviceLevel> got{{base, M1, N1}};
        std::vector<DeviceBuffer<int32_t>> bufs;
        if (std::max(M1, N1) <= min_side) {
            const size_t cells = size_t(M1) * size_t(N1);
            value_range<<<blocks_for(cells), 256, 0, s>>>(base, cells, d_range.get());
            DPVIZ_CUDA_CHECK(cudaGetLastError());
        }
        while (std::max(got.back().rows, got.back().cols) > min_side) {
            const DeviceLevel src = got.back();
            const int dr = (src.rows + 1) / 2, dc = (src.cols + 1) / 2;
            DeviceBuffer<int32_t> dst;
            if (auto st = dst.allocate(size_t(dr) * dc); !st) return st;
            pool_level<<<blocks_for(size_t(dr) * dc), 256, 0, s>>>(src.values, src.rows, src.cols, dst.get(), dr, dc,
                                                                   got.size() == 1 ? d_range.get() : nullptr);
            DPVIZ_CUDA_CHECK(cudaGetLastError());
            got.push_back({dst.get(), dr, dc});
            bufs.push_back(std::move(dst));
        }
        RangeOut r;
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(&r, d_range.get(), sizeof r, cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        DeviceRange& dr = ranges[layer];
        dr.any_finite = r.finite != 0;
        dr.any_unreachable = r.unreachable != 0;
        if (dr.any_finite) {
            dr.min = r.min;
            dr.max = r.max;
        }
        lv[layer] = std::move(got);
        pooled[layer] = std::move(bufs);
        return Ok{};
    }

    mutable bool built[3] = {false, false, false};
    mutable std::vector<DeviceBuffer<int32_t>> pooled[3];  // levels 1.. of each layer
    mutable std::vector<DeviceLevel> lv[3];
    mutable DeviceRange ranges[3];

    const int32_t* layer_ptr(int layer) const {
        return layer == 0 ? kept.H.get() : layer == 1 ? kept.E.get() : kept.F.get();
    }

    template <class T>
    Status copy_window(const T* base, int32_t i0, int32_t j0, int32_t r, int32_t c, T* out) const {
        if (i0 < 0 || j0 < 0 || r < 0 || c < 0 || i0 + r > M1 || j0 + c > N1)
            return usage_error("window outside the matrix");
        if (r == 0 || c == 0) return Ok{};
        std::lock_guard lock(mutex);
        DPVIZ_CUDA_CHECK(cudaMemcpy2DAsync(out, size_t(c) * sizeof(T), base + size_t(i0) * N1 + j0, size_t(N1) * sizeof(T),
                                           size_t(c) * sizeof(T), size_t(r), cudaMemcpyDeviceToHost, stream.get()));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        return Ok{};
    }

    Status fetch(int layer, int32_t i0, int32_t j0, int32_t r, int32_t c, int32_t* out) const override {
        if (!has_layer(layer)) return usage_error("no such layer");
        return copy_window(layer_ptr(layer), i0, j0, r, c, out);
    }
    Status fetch_bits(int32_t i0, int32_t j0, int32_t r, int32_t c, uint8_t* out) const override {
        return copy_window(kept.D.get(), i0, j0, r, c, out);
    }
    Status fetch_level(int layer, int level, int32_t* out) const override {
        if (!has_layer(layer) || level < 0 || size_t(level) >= lv[layer].size()) return usage_error("no such level");
        const DeviceLevel& l = lv[layer][size_t(level)];
        std::lock_guard lock(mutex);
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(out, l.values, size_t(l.rows) * l.cols * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                         stream.get()));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        return Ok{};
    }
};

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace
}  // namespace cuda

// ---------------------------------------------------------------------------------------------
// [SECTION] align_on_device
// ---------------------------------------------------------------------------------------------

bool device_view_available() {
    static const bool ok = bool(cuda::device_ready());
    return ok;
}

std::optional<DeviceMemory> device_memory() {
    if (!device_view_available()) return std::nullopt;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return std::nullopt;
    return DeviceMemory{free_b, total_b};
}

Expected<DeviceAlignment> align_on_device(const Problem& p, bool dpx, int min_side, const RunControl& control,
                                          const std::function<void(const DeviceRange&)>& on_score_range) {
    using namespace cuda;
    using clock = std::chrono::steady_clock;
    const auto t_all = clock::now();
    if (auto st = device_ready(); !st) return st.error();
    const int M = p.rows(), N = p.cols();
    if (M == 0 || N == 0) return device_error("no interior cell: nothing to keep on the GPU");
    if (control.cancelled()) return cancelled_error();
    // The next job asks for the same buffers: keep them instead of cudaFree + cudaMalloc.
    enable_block_recycling();

    DeviceAlignment out;
    DeviceStageTimes& t = out.stages;
    auto res = std::make_shared<Resident>();
    res->M1 = M + 1;
    res->N1 = N + 1;
    res->affine = p.affine();
    res->min_side = min_side;
    GpuRunOptions opt;
    opt.keep = &res->kept;
    opt.control = &control;
    auto t0 = clock::now();
    auto filled = run_gpu(p, OutputLevel::matrix, dpx, opt);
    if (!filled) return filled.error();
    if (!res->kept.H.get() || !res->kept.D.get()) return device_error("internal: the fill kept no matrices");
    t.fill = ms_since(t0);
    if (control.cancelled()) return cancelled_error();

    DPVIZ_TRY(res->stream.create());
    const cudaStream_t s = res->stream.get();
    const size_t cells = size_t(M + 1) * size_t(N + 1);
    int32_t* H = res->kept.H.get();

    // Borders.
    t0 = clock::now();
    const AlgorithmRules rules = rules_of(p.algo);
    const BorderArgs ba{M, N, rules.top, rules.left, res->affine, p.gaps.open, p.gaps.extend};
    set_borders<<<(std::max(M, N) + 1 + 255) / 256, 256, 0, s>>>(ba, H, res->kept.E.get(), res->kept.F.get(),
                                                                   res->kept.D.get());
    DPVIZ_CUDA_CHECK(cudaGetLastError());
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    t.borders = ms_since(t0);

    // H's value range and max-pooled levels (E's and F's are built when first asked for). The
    // range goes to the caller at once: it prepares the view's colour table while the path is
    // traced.
    t0 = clock::now();
    {
        std::lock_guard lock(res->mutex);
        DPVIZ_TRY(res->build_layer(0));
    }
    t.pyramid = ms_since(t0);
    if (on_score_range) on_score_range(res->ranges[0]);
    if (control.cancelled()) return cancelled_error();

    // The end cell, with select_end's tie-breaks (cpu/traceback.cpp).
    t0 = clock::now();
    DpResult& r = out.result;
    r.algo = p.algo;
    r.level = OutputLevel::matrix;
    r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
    r.cells = int64_t(M) * N;
    r.fill_ms = filled->fill_ms;
    r.shape = filled->shape;
    if (rules.end == EndRule::best_cell) {
        DeviceBuffer<int32_t> best, col;
        DPVIZ_TRY(best.allocate(size_t(M) + 1));
        DPVIZ_TRY(col.allocate(size_t(M) + 1));
        row_maxima<<<blocks_for(size_t(M) + 1, 1), 256, 0, s>>>(H, M + 1, N + 1, best.get(), col.get());
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        std::vector<int32_t> hb(size_t(M) + 1), hc(size_t(M) + 1);
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(hb.data(), best.get(), hb.size() * 4, cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(hc.data(), col.get(), hc.size() * 4, cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        Cell e{0, 0};
        int32_t bs = 0;  // H[0][0]
        for (int i = 0; i <= M; ++i)
            if (hb[size_t(i)] > bs) { bs = hb[size_t(i)]; e = {i, hc[size_t(i)]}; }
        r.end = e;
        r.score = bs;
    } else if (reads_last_row(rules.end)) {
        std::vector<int32_t> last_col(size_t(M) + 1), last_row(size_t(N) + 1);
        DPVIZ_TRY(res->fetch(0, 0, N, M + 1, 1, last_col.data()));
        DPVIZ_TRY(res->fetch(0, M, 0, 1, N + 1, last_row.data()));
        const EndCell e = select_end_on_edges(p, last_col, last_row);
        r.end = e.cell;
        r.score = e.score;
    } else {
        r.end = {M, N};
        DPVIZ_TRY(res->fetch(0, M, N, 1, 1, &r.score));
    }
    t.end_cell = ms_since(t0);
    if (control.cancelled()) return cancelled_error();
    control.report(0.6);

    // The path, traced on the device; only the cells come back.
    t0 = clock::now();
    {
        const int max_len = M + N + 2;
        DeviceBuffer<int2> d_path;
        DeviceBuffer<int> d_count;
        DPVIZ_TRY(d_path.allocate(size_t(max_len)));
        DPVIZ_TRY(d_count.allocate(1));
        auto kernel = trace_path<StopRule::corner>;
        switch (rules.stop) {
            case StopRule::zero_or_border: kernel = trace_path<StopRule::zero_or_border>; break;
            case StopRule::border: kernel = trace_path<StopRule::border>; break;
            case StopRule::top_row: kernel = trace_path<StopRule::top_row>; break;
            case StopRule::corner: break;
        }
        DPVIZ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kTraceShared)));
        kernel<<<1, kTraceThreads, kTraceShared, s>>>(res->kept.D.get(), cells, N + 1, res->affine ? 1 : 0, r.end.i,
                                                      r.end.j, d_path.get(), d_count.get(), max_len);
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        int count = 0;
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(&count, d_count.get(), sizeof(int), cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<int2> cells_back(size_t(std::clamp(count, 0, max_len)));
        if (!cells_back.empty())
            DPVIZ_CUDA_CHECK(cudaMemcpyAsync(cells_back.data(), d_path.get(), cells_back.size() * sizeof(int2),
                                             cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        r.path.resize(cells_back.size());
        for (size_t k = 0; k < cells_back.size(); ++k) r.path[cells_back.size() - 1 - k] = {cells_back[k].x, cells_back[k].y};
    }
    t.traceback = ms_since(t0);
    r.traceback_ms = t.traceback;
    if (control.cancelled()) return cancelled_error();
    control.report(0.7);

    // The alignment off the path, and DTW's distances (finish_result's tail).
    t0 = clock::now();
    r.alignment = make_alignment(p, r.path);
    if (p.algo == Algorithm::dtw) {
        r.dtw_distance = dtw_distance_from_score(p, r.score);
        r.dtw_reference = dtw_reference_distance(p);
    }
    t.alignment = ms_since(t0);
    out.matrices = std::move(res);
    t.total = ms_since(t_all);
    control.report(1.0);
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Description
// ---------------------------------------------------------------------------------------------

std::string gpu_description() {
    if (auto st = cuda::device_ready(); !st) return "not available: " + st.error().message;
    int dev = 0, driver = 0, runtime = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        cudaGetLastError();
        return "not available: the CUDA device does not answer";
    }
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    int khz = 0;  // the SM clock the device reports (its boost clock), kHz
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) != cudaSuccess) {
        cudaGetLastError();
        khz = 0;
    }
    char buf[352];
    std::snprintf(buf, sizeof buf,
                  "%s (%d SMs, %.1f GiB, compute capability %d.%d, SM clock %d MHz, driver CUDA %d.%d, runtime %d.%d)",
                  prop.name, prop.multiProcessorCount, double(prop.totalGlobalMem) / double(1ull << 30), prop.major,
                  prop.minor, khz / 1000, driver / 1000, (driver % 1000) / 10, runtime / 1000, (runtime % 1000) / 10);
    return buf;
}

}  // namespace dpviz
