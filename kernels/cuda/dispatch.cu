// The GPU seam (gpu_usable, align_gpu) and the engine behind it: device checks, the memory plan,
// uploads, the band fill, the end-cell search, copy-back and the shared CPU traceback.
//
// Index of this file
//   [SECTION] Device                 is there a device we have code for, its properties
//   [SECTION] Plan                   band decomposition and device bytes of a request
//   [SECTION] Borders                row 0 / column 0 of the host grids, as the reference sets them
//   [SECTION] Run                    upload, fill, end cell, copy-back
//   [SECTION] Seam                   gpu_usable(), align_gpu()
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "band_kernel.cuh"
#include "device_lines.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_engine.hpp"
#include "pair_score_plan.hpp"
#include "view_matrices.hpp"
#include "viterbi_backend.hpp"
#include "dpviz/fault_injection.hpp"
#include "dpviz/store.hpp"

namespace dpviz {
namespace cuda {

// ---------------------------------------------------------------------------------------------
// [SECTION] Device
// ---------------------------------------------------------------------------------------------
Status device_ready() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        int driver = 0;
        if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0)
            return device_error("no NVIDIA driver or GPU found (no libcuda; " + std::string(cudaGetErrorName(e)) + ")");
        if (e == cudaErrorInsufficientDriver)
            return device_error("the NVIDIA driver is older than this CUDA runtime (" + std::string(cudaGetErrorString(e)) + ")");
        return device_error(std::string("no CUDA device (") + cudaGetErrorString(e) + ")");
    }
    if (count == 0) return device_error("no CUDA device");
    cudaFuncAttributes a{};
    const cudaError_t k = cudaFuncGetAttributes(&a, probe_kernel());
    if (k != cudaSuccess && k != cudaErrorInvalidDeviceFunction && k != cudaErrorNoKernelImageForDevice) {
        cudaGetLastError();
        return device_error(std::string("the CUDA device is unusable (") + cudaGetErrorName(k) + ": " +
                            cudaGetErrorString(k) + ")");
    }
    if (k != cudaSuccess) {
        cudaGetLastError();
        int dev = 0, major = 0, minor = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
        return device_error("this dpviz has no GPU code for compute capability " + std::to_string(major) + "." +
                            std::to_string(minor) + " (" + cudaGetErrorString(k) + "); rebuild with CMAKE_CUDA_ARCHITECTURES");
    }
    return Ok{};
}

Expected<DeviceInfo> device_info() {
    static DeviceInfo cached;
    static bool have = false;
    if (have) return cached;
    int dev = 0, sms = 0, optin = 0;
    DPVIZ_CUDA_CHECK(cudaGetDevice(&dev));
    DPVIZ_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DPVIZ_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    int coop = 0;
    DPVIZ_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop) return device_error("the CUDA device does not support cooperative launches");
    cached = {sms, size_t(optin)};
    have = true;
    return cached;
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Plan
// ---------------------------------------------------------------------------------------------
struct Plan {
    int M = 0, N = 0;
    int nbands = 0, nsteps = 0, nchunks = 0, steps_alloc = 0, nsnap = 0, words = 0, snap_fields = 0;
    int ring = 0;          // ring slots of the bottom-row buffers (gpu_band::ring_rows)
    int32_t spacing = 0;   // checkpoint lines every `spacing` rows and columns, or 0
    int32_t block = 0;     // the overview's block (Out::picture), or 0
    uint64_t texels = 0;   // and its texels
    int row_lines = 0;     // slots after the ring: the row lines (FillParams::bot_h)
    bool host_locate = false;  // local: the end cell is found on the host over the lines
    long long pitch = 0;
    bool local = false, last_row = false, affine = false;  // last_row: the end rule reads row M
    uint64_t inputs = 0, pipeline = 0, outputs = 0;
    uint64_t total() const { return inputs + pipeline + outputs; }
};

int alphabet(const Problem& p) { return std::max(1, p.matrix.size()); }

// `level` is the fill's; `spacing` asks for checkpoint lines (the store's path), `block` for an
// overview too.
Plan make_plan(const Problem& p, OutputLevel level, int32_t spacing, int32_t block = 0) {
    Plan pl;
    pl.M = p.rows();
    pl.N = p.cols();
    pl.local = p.algo == Algorithm::local;
    pl.last_row = reads_last_row(rules_of(p.algo).end);
    pl.affine = p.affine();
    pl.nbands = gpu_band::band_count(pl.M);
    pl.nsteps = gpu_band::band_steps(pl.N);
    pl.nchunks = gpu_band::band_chunks(pl.N);
    pl.steps_alloc = pl.nchunks * kSteps;
    pl.nsnap = (pl.nchunks + kSnapEvery - 1) / kSnapEvery;
    pl.words = kRows * kCols * (pl.affine ? 8 : 4) / 32;
    pl.snap_fields = kRows + (pl.affine ? kRows : 0) + 1 + kCols + (pl.affine ? kCols : 0);
    pl.pitch = ((long long)pl.N + 2 * kColPad + 3) / 4 * 4;
    pl.ring = gpu_band::ring_rows(pl.nbands, level == OutputLevel::score, pl.local && spacing == 0,
                                  8ll * pl.pitch * (pl.affine ? 2 : 1));
    if (const char* r = std::getenv("DPVIZ_GPU_RING")) {  // tests and measurements: a smaller ring (2^k rows)
        int want = 1;
        while (want * 2 <= std::atoi(r)) want *= 2;
        if (want < pl.ring) pl.ring = want;
    }
    const bool wrapped = pl.ring < pl.nbands - 1;
    pl.spacing = spacing ? spacing : pl.local && wrapped ? gpu_band::kLocateSpacing : 0;
    pl.host_locate = pl.local && level == OutputLevel::score && pl.spacing > 0;
    pl.row_lines = pl.spacing ? pl.M / pl.spacing : 0;
    const uint64_t M1 = uint64_t(pl.M) + 1, N1 = uint64_t(pl.N) + 1;
    const int A = alphabet(p);
    pl.inputs = 4ull * (pl.M + kBandRows + 1) + 4ull * (pl.N + 2 * kColPad) + 4ull * A * A;
    pl.pipeline = 8ull * uint64_t(pl.ring + pl.row_lines) * pl.pitch * (pl.affine ? 2 : 1);
    if (pl.spacing) pl.pipeline += 4ull * uint64_t(pl.N / pl.spacing) * M1 * (pl.affine ? 2 : 1);  // column lines
    pl.outputs = 4ull * M1 + 16;
    if (pl.spacing && block > 0) {
        pl.block = block;
        pl.texels = overview_texels(pl.M, pl.N, block);
        pl.outputs += 4ull * pl.texels + 4;
    }
    if (pl.local) {
        pl.outputs += 8ull * M1;
        if (level != OutputLevel::matrix && !pl.host_locate)
            pl.pipeline += 4ull * pl.nbands * pl.nsnap * pl.snap_fields * 32;
    }
    if (pl.last_row) pl.outputs += 4ull * N1;
    if (level == OutputLevel::path)
        pl.outputs += 4ull * pl.nbands * pl.steps_alloc * 32 * pl.words + M1 * N1;
    if (level == OutputLevel::matrix) {
        // Row-major H (E, F) and bits, and what the kernel writes first: band-order values and packed bits.
        const uint64_t band_cells = uint64_t(pl.nbands) * pl.steps_alloc * 32 * kRows * kCols;
        pl.outputs += M1 * N1 * (4ull * (pl.affine ? 3 : 1) + 1);
        pl.outputs += band_cells * 4ull * (pl.affine ? 3 : 1) + 4ull * pl.nbands * pl.steps_alloc * 32 * pl.words;
    }
    return pl;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Borders
// ---------------------------------------------------------------------------------------------
// A border cell's H by the algorithm's rules (the corners of row M and column N, for the end cell).
int32_t border_value(const Problem& p, Border b, int k) { return border_h(b, k, p.gaps.open, p.gaps.extend); }

// ---------------------------------------------------------------------------------------------
// [SECTION] Run
// ---------------------------------------------------------------------------------------------
__global__ void unpack_dirs(const uint32_t* __restrict__ packed, uint8_t* __restrict__ out, int M, int N,
                            int steps_alloc, int affine) {
    const long long cells = (long long)M * N;
    for (long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x; x < cells; x += (long long)gridDim.x * blockDim.x) {
        const int i = int(x / N) + 1, j = int(x % N) + 1;
        const int b = gpu_band::band_of_row(i), l = gpu_band::lane_of_row(i), r = gpu_band::row_in_lane(i);
        const int s = gpu_band::step_of(j, l), k = gpu_band::col_in_step(j);
        const size_t slot = ((size_t)b * steps_alloc + s) * 32 + l;
        uint32_t v;
        if (affine) v = (packed[slot * 2 + k] >> (8 * r)) & 0xffu;
        else v = (packed[slot] >> (4 * (k * kRows + r))) & 0xfu;
        out[(size_t)i * (N + 1) + j] = uint8_t(v);
    }
}

// Matrix level: H (E, F), the direction bits and (tests) the owners, from the kernel's band order
// to row-major. A block takes one band (128 rows) and 64 columns: the 63 steps those columns
// span are read whole (coalesced) into shared memory, then written out row by row (coalesced).
inline constexpr int kTileCols = 64;
inline constexpr int kTileSteps = kTileCols / kCols + 31;  // lane 31 runs 31 steps behind lane 0
inline constexpr size_t kTileSmem = size_t(kTileSteps) * kCols * 32 * sizeof(int4);

struct UnpackArgs {
    const int4* band[3];     // H, E, F in band order (E, F null without affine gaps)
    int32_t* out[3];
    const uint32_t* dirs;    // packed bits, words per lane and step
    uint8_t* D;
    int words;
    const uint32_t* ownb;    // optional
    uint32_t* owner;
    int M, N, steps_alloc;
};

__global__ void unpack_tiles(UnpackArgs a) {
    extern __shared__ int4 tile[];  // [kTileSteps][kCols][32]
    const int b = blockIdx.y, t = blockIdx.x;
    const int s0 = t * (kTileCols / kCols);
    const size_t base = (size_t)b * a.steps_alloc + s0;  // first step slot of the tile
    const int nsteps = min(kTileSteps, a.steps_alloc - s0);
    constexpr int kCells = kBandRows * kTileCols;
    // Where cell k of the tile (row-major, kTileCols wide) comes from.
    auto source = [&](int k, int& i, int& j, int& sr, int& kc, int& l, int& r) {
        const int rl = k / kTileCols, cl = k % kTileCols;
        i = b * kBandRows + 1 + rl;
        j = t * kTileCols + 1 + cl;
        l = gpu_band::lane_of_row(i);
        r = gpu_band::row_in_lane(i);
        sr = gpu_band::step_of(j, l) - s0;
        kc = gpu_band::col_in_step(j);
    };
    for (int arr = 0; arr < 3; ++arr) {
        if (!a.band[arr]) continue;
        const int4* src = a.band[arr] + base * kCols * 32;
        for (int x = threadIdx.x; x < nsteps * kCols * 32; x += blockDim.x) tile[x] = src[x];
        __syncthreads();
        const int* flat = reinterpret_cast<const int*>(tile);
        for (int k = threadIdx.x; k < kCells; k += blockDim.x) {
            int i, j, sr, kc, l, r;
            source(k, i, j, sr, kc, l, r);
            if (i <= a.M && j <= a.N) a.out[arr][(size_t)i * (a.N + 1) + j] = flat[((sr * kCols + kc) * 32 + l) * 4 + r];
        }
        __syncthreads();
    }
    // The direction bits (and owners): one or two words per lane and step.
    uint32_t* w = reinterpret_cast<uint32_t*>(tile);
    const uint32_t* dsrc = a.dirs + base * 32 * a.words;
    for (int x = threadIdx.x; x < nsteps * 32 * a.words; x += blockDim.x) w[x] = dsrc[x];
    uint32_t* o = w + kTileSteps * 32 * 2;
    if (a.ownb)
        for (int x = threadIdx.x; x < nsteps * 32; x += blockDim.x) o[x] = a.ownb[base * 32 + x];
    __syncthreads();
    for (int k = threadIdx.x; k < kCells; k += blockDim.x) {
        int i, j, sr, kc, l, r;
        source(k, i, j, sr, kc, l, r);
        if (i > a.M || j > a.N) continue;
        const size_t at = (size_t)i * (a.N + 1) + j;
        uint32_t v;
        if (a.words == 2) v = (w[(sr * 32 + l) * 2 + kc] >> (8 * r)) & 0xffu;
        else v = (w[sr * 32 + l] >> (4 * (kc * kRows + r))) & 0xfu;
        a.D[at] = uint8_t(v);
        if (a.ownb) a.owner[at] = o[sr * 32 + l];
    }
}

Status launch_fill(const Problem& p, const FillParams& fp, bool dpx, Out out, cudaStream_t s) {
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            // Row 0 is the same border as column 0 but in glocal, whose row 0 is free.
            return launch_alignment(fp, {p.algo == Algorithm::local, p.affine(), false,
                                         rules_of(p.algo).top != rules_of(p.algo).left}, dpx, out, s);
        case Algorithm::edit: return launch_edit(fp, dpx, out, s);
        case Algorithm::lcs: return launch_lcs(fp, dpx, out, s);
        case Algorithm::dtw: return launch_dtw(fp, {false, false, p.dtw_cost == DtwCost::squared}, dpx, out, s);
    }
    return device_error("internal: unknown algorithm");
}

// Elapsed milliseconds between two recorded events (after they completed).
Expected<float> elapsed(const Event& a, const Event& b) {
    DPVIZ_CUDA_CHECK(cudaEventSynchronize(b.get()));
    float ms = 0;
    DPVIZ_CUDA_CHECK(cudaEventElapsedTime(&ms, a.get(), b.get()));
    return ms;
}


// The end cell of a local fill whose lines were kept: the first cell of row bi with H == best,
// in the columns chunk `chunk` of its lane covers, recomputed on the host from the checkpoint
// corner above-left of them (one tile, at most (K + kBandRows) x (K + kChunkCols) cells).
Expected<Cell> locate_on_host(const Problem& p, const Checkpoints& c, int bi, int chunk, int32_t best) {
    const int lane = gpu_band::lane_of_row(bi);
    const int jlo = std::max(1, kChunkCols * chunk - kCols * lane + 1);
    const int jhi = std::min(c.N, kChunkCols * (chunk + 1) - kCols * lane);
    const WindowValues v = compute_window(p, c, Window{bi, bi + 1, jlo, jhi + 1}, false);
    if (const std::string e = c.source ? c.source->failed() : ""; !e.empty()) return device_error(e);
    for (int j = jlo; j <= jhi; ++j)
        if (v.H.at(0, j - jlo) == best) return Cell{bi, j};
    return device_error("internal: end-cell search found no cell with the best score");
}

}  // namespace

uint64_t estimate_device_bytes(const Problem& p, OutputLevel level) { return make_plan(p, level, 0).total(); }

Expected<DpResult> run_gpu(const Problem& p, OutputLevel level, bool dpx, const GpuRunOptions& opt) {
    // The store's path: a score-level fill that keeps checkpoint lines, traced over them.
    const bool store = level == OutputLevel::path && opt.checkpoint_spacing != 0;
    const bool picture = store && opt.overview_block > 0;  // the store's fill pools the overview too
    const int32_t block = picture ? opt.overview_block : 0;
    const OutputLevel fill_level = store ? OutputLevel::score : level;
    // Score-only pairs of at most 4 residue codes (local, global, edit, LCS) and DTW without a
    // band and the store's fills of them (pair_score::fills; the local ones' pictures too, unless
    // DPVIZ_PAIR_PICTURE=0): the one-pair kernel, faster on long pairs (docs/performance.md);
    // everything else, and a local
    // fill whose best does not prove the kernel's range (pair_score::proves_range): the band
    // kernels below, their fill time counting the one-pair kernel's too.
    double spent_ms = 0.0;
    if (pair_score::fills(p, fill_level, block) && !opt.keep && !opt.owner && !opt.rect) {
        GpuRunOptions one = opt;
        one.checkpoint_spacing = store ? opt.checkpoint_spacing : 0;
        one.overview_block = block;
        auto run = run_pair_score(p, dpx, one);
        if (!run) return run.error();
        if (run->result && !store) return std::move(*run->result);
        if (run->result) {  // the store's: traced over the lines it kept
            DpResult r = std::move(*run->result);
            r.level = level;
            if (!opt.copy_back) {  // benchmark: the fill alone, its lines given back as the band kernels' are
                r.checkpoints.reset();
                r.overview.reset();
                return r;
            }
            if (opt.control && opt.control->cancelled()) return cancelled_error();
            if (opt.control) opt.control->report(0.8);
            finish_result(p, r);
            if (const std::string e = r.checkpoints->source->failed(); !e.empty()) return device_error(e);
            return r;
        }
        spent_ms = run->spent_ms;
    }
    int32_t spacing = store ? opt.checkpoint_spacing : 0;
    if (spacing == kGpuChoosesSpacing) {
        size_t free_now = 0, total_now = 0;
        DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_now, &total_now));
        spacing = finest_device_spacing(
            [&](int32_t k) { return make_plan(p, fill_level, k, block).total() <= free_now / 2; });
    }
    const Plan pl = make_plan(p, fill_level, spacing, block);
    const int M = pl.M, N = pl.N, A = alphabet(p);
    const bool is_dtw = p.algo == Algorithm::dtw;

    // Memory first: a request that cannot fit is an error the caller can act on, not a fault.
    size_t free_b = 0, total_b = 0;
    DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t reserve = 256ull << 20;
    if (pl.total() + reserve > free_b && flush_recycled_blocks() > 0)  // kept blocks count as used
        DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (pl.total() + reserve > free_b)
        return device_error(std::to_string(M) + " x " + std::to_string(N) + " " + std::string(algorithm_name(p.algo)) +
                            " at this output level needs " + gib(pl.total()) + " of GPU memory, " + gib(free_b) +
                            " free");

    // Host-side inputs: per-row codes (or DTW values), per-column profile offsets (or values).
    std::vector<int32_t> rows(size_t(M) + kBandRows + 1, 0), cols(size_t(N) + 2 * kColPad, 0), table(size_t(A) * A, 0);
    for (int i = 1; i <= M; ++i) rows[i] = is_dtw ? p.query_fixed[i - 1] : p.query_codes[i - 1];
    for (int j = 1; j <= N; ++j)
        cols[kColPad + j - 1] = is_dtw ? p.target_fixed[j - 1] : int32_t(p.target_codes[j - 1]) * 32 * int32_t(sizeof(int4));
    if (!is_dtw) {
        for (int a = 0; a < A; ++a)
            for (int c = 0; c < A; ++c) {
                int32_t v = 0;
                if (uses_substitution_matrix(p.algo)) v = p.matrix.at(a, c);
                else if (p.algo == Algorithm::edit) v = a != c;
                else v = a == c ? 1 : -(1 << 29);
                table[size_t(a) * A + c] = v;
            }
    }

    Stream stream;
    DPVIZ_TRY(stream.create());
    const cudaStream_t s = stream.get();
    DeviceBuffer<int32_t> d_rows, d_cols, d_table, d_lastcol, d_rowbest, d_rowchunk, d_rowM, d_snap;
    DeviceBuffer<int32_t> d_H, d_E, d_F;
    DeviceBuffer<int2> d_bot_h, d_bot_f;
    DeviceBuffer<int> d_loc;
    DeviceBuffer<uint32_t> d_dirs;
    DeviceBuffer<uint8_t> d_D;
    DPVIZ_TRY(upload(d_rows, rows, s));
    DPVIZ_TRY(upload(d_cols, cols, s));
    DPVIZ_TRY(upload(d_table, table, s));
    const size_t bot = size_t(pl.ring + pl.row_lines) * size_t(pl.pitch);
    DPVIZ_TRY(d_bot_h.allocate(bot));
    if (pl.affine) DPVIZ_TRY(d_bot_f.allocate(bot));
    // Epoch 0 never publishes: zeroed pairs read as "not yet written" by every launch below.
    if (bot) DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_bot_h.get(), 0, d_bot_h.bytes(), s));
    if (bot && pl.affine) DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_bot_f.get(), 0, d_bot_f.bytes(), s));
    DPVIZ_TRY(d_lastcol.allocate(size_t(M) + 1));
    DPVIZ_TRY(d_loc.allocate(1));
    if (pl.local) {
        DPVIZ_TRY(d_rowbest.allocate(size_t(M) + 1));
        DPVIZ_TRY(d_rowchunk.allocate(size_t(M) + 1));
        if (level != OutputLevel::matrix && !pl.host_locate)
            DPVIZ_TRY(d_snap.allocate(size_t(pl.nbands) * pl.nsnap * pl.snap_fields * 32));
    }
    if (pl.last_row) DPVIZ_TRY(d_rowM.allocate(size_t(N) + 1));
    DeviceBuffer<int32_t> d_ck_col_h, d_ck_col_e;
    if (pl.spacing) {
        const size_t col_entries = size_t(N / pl.spacing) * (size_t(M) + 1);
        DPVIZ_TRY(d_ck_col_h.allocate(col_entries));
        if (pl.affine) DPVIZ_TRY(d_ck_col_e.allocate(col_entries));
    }
    // The overview: texels and the worst value start at values that are not finite (bytes 0xc0:
    // below every finite value; 0x40: above), so whatever a cell writes wins.
    DeviceBuffer<int32_t> d_ov, d_ov_worst;
    const bool lowest = minimizes(p.algo);
    if (pl.texels) {
        DPVIZ_TRY(d_ov.allocate(pl.texels));
        DPVIZ_TRY(d_ov_worst.allocate(1));
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ov.get(), lowest ? 0x40 : 0xc0, d_ov.bytes(), s));
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ov_worst.get(), lowest ? 0xc0 : 0x40, d_ov_worst.bytes(), s));
    }
    // A rectangle's given borders (row 0 one entry longer: a step reads column N + 1).
    DeviceBuffer<int32_t> d_top_h, d_top_f, d_left_h, d_left_e;
    if (opt.rect) {
        const RectBorders& g = opt.rect->borders;
        auto given = [&](DeviceBuffer<int32_t>& d, const int32_t* h, int n) -> Status {
            if (!h) return Ok{};
            std::vector<int32_t> v(h, h + n);
            v.push_back(v.back());
            return upload(d, v, s);
        };
        DPVIZ_TRY(given(d_top_h, g.top_h, N + 1));
        DPVIZ_TRY(given(d_top_f, g.top_f, N + 1));
        DPVIZ_TRY(given(d_left_h, g.left_h, M + 1));
        DPVIZ_TRY(given(d_left_e, g.left_e, M + 1));
    }
    const size_t cells1 = (size_t(M) + 1) * (size_t(N) + 1);
    if (fill_level == OutputLevel::path) {
        DPVIZ_TRY(d_dirs.allocate(size_t(pl.nbands) * pl.steps_alloc * 32 * pl.words));
        if (opt.copy_back) DPVIZ_TRY(d_D.allocate(cells1));
    }
    DeviceBuffer<int4> d_Hb, d_Eb, d_Fb;
    const size_t band_slots = size_t(pl.nbands) * pl.steps_alloc * 32 * kCols;  // int4s per array
    if (level == OutputLevel::matrix) {
        DPVIZ_TRY(d_H.allocate(cells1));
        DPVIZ_TRY(d_D.allocate(cells1));
        if (pl.affine) {
            DPVIZ_TRY(d_E.allocate(cells1));
            DPVIZ_TRY(d_F.allocate(cells1));
        }
        DPVIZ_TRY(d_dirs.allocate(size_t(pl.nbands) * pl.steps_alloc * 32 * pl.words));
        DPVIZ_TRY(d_Hb.allocate(band_slots));
        if (pl.affine) {
            DPVIZ_TRY(d_Eb.allocate(band_slots));
            DPVIZ_TRY(d_Fb.allocate(band_slots));
        }
    }

    FillParams fp;
    fp.M = M;
    fp.N = N;
    fp.nbands = pl.nbands;
    fp.nchunks = pl.nchunks;
    fp.steps_alloc = pl.steps_alloc;
    fp.A = is_dtw ? 0 : A;
    fp.open = p.gaps.open;
    fp.ext = p.gaps.extend;
    const AlgorithmRules rules = rules_of(p.algo);
    fp.gap_border = rules.left == Border::gap;
    fp.last_row = pl.last_row;
    fp.band = p.band;
    fp.snap_bias = (dpx ? cell::DpxOps::kAlignBias : cell::PortableOps::kAlignBias);
    const int32_t bias = info_of(p.algo).alignment ? fp.snap_bias : 0;  // of the values the kernels hold (kBias)
    if (const char* ns = std::getenv("DPVIZ_GPU_SPIN_NS")) fp.spin_ns = std::max(0, std::atoi(ns));  // measurements
    fp.rows = d_rows.get();
    fp.cols = d_cols.get();
    fp.table = d_table.get();
    fp.bot_h = d_bot_h.get();
    fp.bot_f = d_bot_f.get();
    fp.bot_pitch = pl.pitch;
    fp.ring_mask = pl.ring < pl.nbands - 1 ? pl.ring - 1 : -1;
    fp.ring = pl.ring;
    fp.ck_spacing = pl.spacing;
    while (fp.ck_spacing && (1 << fp.ck_shift) < fp.ck_spacing) ++fp.ck_shift;
    fp.ck_col_h = d_ck_col_h.get();
    fp.ck_col_e = d_ck_col_e.get();
    fp.ov_block = pl.block;
    fp.ov_cols = pl.block ? N / pl.block + 1 : 0;
    fp.ov = d_ov.get();
    fp.ov_worst = d_ov_worst.get();
    fp.top_h = d_top_h.get();
    fp.top_f = d_top_f.get();
    fp.left_h = d_left_h.get();
    fp.left_e = d_left_e.get();
    fp.off_i = opt.rect ? opt.rect->off_i : 0;
    fp.off_j = opt.rect ? opt.rect->off_j : 0;
    fp.full_M = opt.rect ? opt.rect->full_M : M;
    fp.full_N = opt.rect ? opt.rect->full_N : N;
    fp.lastcol = d_lastcol.get();
    fp.rowbest = d_rowbest.get();
    fp.rowchunk = d_rowchunk.get();
    fp.rowM = d_rowM.get();
    fp.snap = d_snap.get();
    fp.nsnap = pl.nsnap;
    fp.dirs = d_dirs.get();
    fp.Hm = d_H.get();
    fp.Em = d_E.get();
    fp.Fm = d_F.get();
    fp.Dm = d_D.get();
    fp.Hb = d_Hb.get();
    fp.Eb = d_Eb.get();
    fp.Fb = d_Fb.get();
    fp.loc_out = d_loc.get();
    LaunchShape launched;
    fp.launched = &launched;
    DeviceBuffer<uint32_t> d_owner, d_ownb;  // tests of the teaching views' schedule: who computed each cell
    if (opt.owner && level == OutputLevel::matrix) {
        DPVIZ_TRY(d_owner.allocate(cells1));
        DPVIZ_TRY(d_ownb.allocate(size_t(pl.nbands) * pl.steps_alloc * 32));
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_owner.get(), 0xff, d_owner.bytes(), s));
        DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_ownb.get(), 0xff, d_ownb.bytes(), s));
        fp.owner = d_ownb.get();
    }

    // RunControl between stages: inputs are up, the fill is next.
    const auto cancelled = [&] { return opt.control && opt.control->cancelled(); };
    const auto report = [&](double f) { if (opt.control) opt.control->report(f); };
    if (cancelled()) return cancelled_error();
    report(0.1);
    const Out out = fill_level == OutputLevel::score ? (pl.block ? Out::picture : pl.spacing ? Out::store : Out::score)
                    : level == OutputLevel::path ? Out::path : Out::matrix;
    Event e0, e1, e2, e3;
    DPVIZ_TRY(e0.create());
    DPVIZ_TRY(e1.create());
    DPVIZ_TRY(e2.create());
    DPVIZ_TRY(e3.create());
    std::vector<float> fills;
    for (int rep = 0; rep < std::max(1, opt.repeats); ++rep) {
        fp.epoch = 1 + rep * (pl.nbands + 1);  // tags epoch .. epoch + nbands - 1: none of another launch's
        DPVIZ_CUDA_CHECK(cudaEventRecord(e0.get(), s));
        DPVIZ_LAUNCH_FAULT_POINT("band_fill");
        DPVIZ_TRY(launch_fill(p, fp, dpx, out, s));
        DPVIZ_CUDA_CHECK(cudaEventRecord(e1.get(), s));
        auto ms = elapsed(e0, e1);
        if (!ms) return ms.error();
        fills.push_back(*ms);
    }
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    std::sort(fills.begin(), fills.end());
    double fill_ms = spent_ms + fills[fills.size() / 2];
    if (level == OutputLevel::matrix) {
        // Part of the fill at this level: its time counts in fill_ms.
        Event u0, u1;
        DPVIZ_TRY(u0.create());
        DPVIZ_TRY(u1.create());
        DPVIZ_CUDA_CHECK(cudaEventRecord(u0.get(), s));
        DPVIZ_LAUNCH_FAULT_POINT("unpack_matrix");
        static const cudaError_t smem_ok =
            cudaFuncSetAttribute(unpack_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kTileSmem));
        DPVIZ_CUDA_CHECK(smem_ok);
        UnpackArgs ua{{d_Hb.get(), d_Eb.get(), d_Fb.get()}, {d_H.get(), d_E.get(), d_F.get()}, d_dirs.get(), d_D.get(),
                      pl.words, d_ownb.get(), d_owner.get(), M, N, pl.steps_alloc};
        const dim3 tiles(unsigned((N + kTileCols - 1) / kTileCols), unsigned(pl.nbands));
        unpack_tiles<<<tiles, 256, kTileSmem, s>>>(ua);
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        DPVIZ_CUDA_CHECK(cudaEventRecord(u1.get(), s));
        auto ums = elapsed(u0, u1);
        if (!ums) return ums.error();
        fill_ms += *ums;
        // The band-order copies are not needed any more: give their memory back before the
        // caller (the GUI's GPU-resident view) builds its pyramid.
        d_Hb = {};
        d_Eb = {};
        d_Fb = {};
        d_dirs = {};
    }
    if (opt.rect) {
        // A rectangle's window: its crop of the interior, straight into the caller's grids.
        const GpuRect& g = *opt.rect;
        const size_t w = size_t(g.j1 - g.j0), h = size_t(g.i1 - g.i0);
        const size_t from = (size_t(g.i0) + 1) * (size_t(N) + 1) + size_t(g.j0) + 1;
        auto crop = [&](auto* to, const auto* src) -> Status {
            using T = std::remove_pointer_t<decltype(to)>;
            if (!to || !src || !w || !h) return Ok{};
            DPVIZ_CUDA_CHECK(cudaMemcpy2DAsync(to, g.pitch * sizeof(T), src + from, (size_t(N) + 1) * sizeof(T),
                                               w * sizeof(T), h, cudaMemcpyDeviceToHost, s));
            return Ok{};
        };
        DPVIZ_TRY(crop(g.H, d_H.get()));
        if (pl.affine) {
            DPVIZ_TRY(crop(g.E, d_E.get()));
            DPVIZ_TRY(crop(g.F, d_F.get()));
        }
        DPVIZ_TRY(crop(g.dirs, d_D.get()));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
        DpResult crop_only;
        crop_only.fill_ms = fill_ms;
        return crop_only;
    }
    if (cancelled()) return cancelled_error();
    report(0.5);
    if (opt.keep && level == OutputLevel::matrix) {
        // The GUI's GPU-resident view (view_matrices.cu) takes the matrices as they are.
        opt.keep->H = std::move(d_H);
        opt.keep->E = std::move(d_E);
        opt.keep->F = std::move(d_F);
        opt.keep->D = std::move(d_D);
        DpResult kept;
        kept.fill_ms = fill_ms;
        kept.shape.blocks = launched.blocks;  // the teaching views' ownership and playback need it
        kept.shape.warps_per_block = launched.warps_per_block;
        return kept;
    }

    DpResult r;
    r.algo = p.algo;
    r.level = level;
    r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
    r.cells = int64_t(M) * N;
    r.shape.blocks = launched.blocks;
    r.shape.warps_per_block = launched.warps_per_block;
    if (fp.owner) {
        opt.owner->reset(M + 1, N + 1, 0);
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(opt.owner->data.data(), d_owner.get(), cells1 * 4, cudaMemcpyDeviceToHost, s));
        DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    }

    // The lines stay where the fill wrote them: the checkpoints' source (DeviceLines).
    std::shared_ptr<Checkpoints> kept;
    if (pl.spacing) {
        auto lines = std::make_shared<DeviceLines>();
        lines->bot_h = std::move(d_bot_h);
        lines->bot_f = std::move(d_bot_f);
        lines->col_h = std::move(d_ck_col_h);
        lines->col_e = std::move(d_ck_col_e);
        lines->M = M;
        lines->N = N;
        lines->K = pl.spacing;
        lines->ring = pl.ring;
        lines->pitch = pl.pitch;
        lines->bias = bias;
        kept = device_checkpoints(std::move(lines), pl.affine);
    }

    // The end cell, with the reference's tie-breaks (select_end in cpu/traceback.cpp).
    std::vector<int32_t> lastcol;
    DPVIZ_TRY(download(lastcol, d_lastcol.get(), size_t(M) + 1, s));
    if (level == OutputLevel::matrix) {
        // The whole H comes back: the host's select_end decides (below).
    } else if (pl.local) {
        std::vector<int32_t> rowbest, rowchunk;
        DPVIZ_TRY(download(rowbest, d_rowbest.get(), size_t(M) + 1, s));
        DPVIZ_TRY(download(rowchunk, d_rowchunk.get(), size_t(M) + 1, s));
        int32_t best = 0;
        int bi = 0;
        for (int i = 1; i <= M; ++i)
            if (rowbest[i] > best) { best = rowbest[i]; bi = i; }
        if (bi == 0) {
            r.end = {0, 0};
            r.score = 0;
        } else if (pl.host_locate) {
            auto end = locate_on_host(p, *kept, bi, rowchunk[bi], best);
            if (!end) return end.error();
            r.end = *end;
            r.score = best;
        } else {
            fp.loc_band = gpu_band::band_of_row(bi);
            fp.loc_lane = gpu_band::lane_of_row(bi);
            fp.loc_r = gpu_band::row_in_lane(bi);
            fp.loc_chunk = rowchunk[bi];
            fp.loc_target = best;
            DPVIZ_CUDA_CHECK(cudaMemsetAsync(d_loc.get(), 0xff, sizeof(int), s));
            DPVIZ_CUDA_CHECK(cudaEventRecord(e2.get(), s));
            DPVIZ_LAUNCH_FAULT_POINT("band_locate");
            DPVIZ_TRY(launch_alignment(fp, {true, pl.affine, false}, false, Out::locate, s));
            DPVIZ_CUDA_CHECK(cudaEventRecord(e3.get(), s));
            auto ms = elapsed(e2, e3);
            if (!ms) return ms.error();
            fill_ms += *ms;
            std::vector<int> loc;
            DPVIZ_TRY(download(loc, d_loc.get(), 1, s));
            if (loc[0] < 1) return device_error("internal: end-cell search found no cell with the best score");
            r.end = {bi, loc[0]};
            r.score = best;
        }
    } else if (pl.last_row) {
        // select_end over column N (semi-global) and row M, their border cells by the rules.
        std::vector<int32_t> rowM;
        DPVIZ_TRY(download(rowM, d_rowM.get(), size_t(N) + 1, s));
        lastcol[0] = border_value(p, rules.top, N);
        rowM[0] = border_value(p, rules.left, M);
        const EndCell e = select_end_on_edges(p, lastcol, rowM);
        r.end = e.cell;
        r.score = e.score;
    } else {
        r.end = {M, N};
        r.score = lastcol[M];
    }
    r.fill_ms = fill_ms;

    if (!opt.copy_back) return r;  // benchmark: the fill alone
    if (cancelled()) return cancelled_error();
    report(0.6);
    if (level == OutputLevel::score) {
        finish_result(p, r);
        return r;
    }
    if (pl.texels) {
        std::vector<int32_t> texels, worst;
        DPVIZ_TRY(download(texels, d_ov.get(), pl.texels, s));
        DPVIZ_TRY(download(worst, d_ov_worst.get(), 1, s));
        r.overview = std::make_shared<Overview>(overview_from_interior(p, pl.block, texels, worst[0]));
    }
    if (store) {
        // The traceback recomputes its tiles from edges it fetches from the device's lines.
        if (cancelled()) return cancelled_error();
        report(0.8);
        r.checkpoints = kept;
        finish_result(p, r);
        if (const std::string e = kept->source->failed(); !e.empty()) return device_error(e);
        return r;
    }

    if (level == OutputLevel::path) {
        DPVIZ_LAUNCH_FAULT_POINT("unpack_dirs");
        unpack_dirs<<<1024, 256, 0, s>>>(d_dirs.get(), d_D.get(), M, N, pl.steps_alloc, pl.affine ? 1 : 0);
        DPVIZ_CUDA_CHECK(cudaGetLastError());
    }
    r.dirs.reset(M + 1, N + 1, 0);
    DPVIZ_CUDA_CHECK(cudaMemcpyAsync(r.dirs.data.data(), d_D.get(), cells1, cudaMemcpyDeviceToHost, s));
    if (level == OutputLevel::matrix) {
        r.H.reset(M + 1, N + 1, 0);
        DPVIZ_CUDA_CHECK(cudaMemcpyAsync(r.H.data.data(), d_H.get(), cells1 * 4, cudaMemcpyDeviceToHost, s));
        if (pl.affine) {
            r.E.reset(M + 1, N + 1, kNegInf);
            r.F.reset(M + 1, N + 1, kNegInf);
            DPVIZ_CUDA_CHECK(cudaMemcpyAsync(r.E.data.data(), d_E.get(), cells1 * 4, cudaMemcpyDeviceToHost, s));
            DPVIZ_CUDA_CHECK(cudaMemcpyAsync(r.F.data.data(), d_F.get(), cells1 * 4, cudaMemcpyDeviceToHost, s));
        }
    }
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    if (level == OutputLevel::matrix) {
        write_borders(p, r);
        r.end = select_end(p, r.H);
        r.score = r.H.at(r.end.i, r.end.j);
    } else {
        write_borders(p, r);
    }
    if (cancelled()) return cancelled_error();
    report(0.8);
    finish_result(p, r);
    return r;
}

}  // namespace cuda

// ---------------------------------------------------------------------------------------------
// [SECTION] Seam
// ---------------------------------------------------------------------------------------------
bool gpu_usable() {
    if (const auto forced = gpu_fault::usable_override()) return *forced;  // DPVIZ_GPU_FAULT (test-only)
    static const bool usable = bool(cuda::device_ready());
    return usable;
}

void prepare_gpu() { (void)gpu_usable(); }

Expected<DpResult> align_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control,
                             int32_t checkpoint_spacing, int32_t overview_block) {
    gpu_fault::Run run;  // this call's allocation and launch numbers (DPVIZ_GPU_FAULT, test-only)
    // No-device, simulate, or a bad switch:
    if (auto r = run.instead(p, level, checkpoint_spacing, overview_block)) return std::move(*r);
    if (auto st = cuda::device_ready(); !st) return st.error();
    if (p.algo == Algorithm::viterbi) return align_viterbi_gpu(p, level, dpx, control);
    if (p.rows() == 0 || p.cols() == 0) {
        // No interior cell: nothing for a kernel to do; the borders are the whole answer.
        DpResult r = align_reference(p);
        r.level = level;
        if (level != OutputLevel::matrix) { r.H = {}; r.E = {}; r.F = {}; }
        if (level == OutputLevel::score) { r.dirs = {}; r.path.clear(); r.alignment = {}; }
        r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
        r.fill_ms = 0;
        return r;
    }
    cuda::GpuRunOptions opt;
    opt.control = &control;
    if (level == OutputLevel::path) {
        opt.checkpoint_spacing = checkpoint_spacing;
        opt.overview_block = overview_block;
    }
    return cuda::run_gpu(p, level, dpx, opt);
}

Status fill_rect_gpu(const Problem& p, const GpuRect& rect) {
    if (auto st = cuda::device_ready(); !st) return st.error();
    if (p.algo == Algorithm::viterbi || p.rows() == 0 || p.cols() == 0)
        return usage_error("internal: fill_rect_gpu takes a rectangle of an alignment, edit distance, LCS or DTW");
    cuda::GpuRunOptions opt;
    opt.rect = &rect;
    auto r = cuda::run_gpu(p, OutputLevel::matrix, true, opt);
    if (!r) return r.error();
    return Ok{};
}

Expected<DpResult> align_gpu_owners(const Problem& p, bool dpx, Grid<uint32_t>& owner) {
    if (auto st = cuda::device_ready(); !st) return st.error();
    if (p.rows() == 0 || p.cols() == 0) return usage_error("no interior cell: no kernel runs");
    cuda::GpuRunOptions opt;
    opt.owner = &owner;
    return cuda::run_gpu(p, OutputLevel::matrix, dpx, opt);
}

}  // namespace dpviz
