// The cell -> (band, block/thread, warp, lane, step) mapping of every backend and the model of
// the order across bands (see schedule.hpp for what is exact and what is modelled).
#include "dpviz/schedule.hpp"

#include <algorithm>

#include "dpviz/band_shape.hpp"

namespace dpviz {
namespace {

int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); }

// Cells per step averaged over buckets of `bucket` steps, from intervals of steps with a weight.
class BucketSum {
public:
    BucketSum(int64_t steps, int64_t bucket)
        : bucket_(std::max<int64_t>(1, bucket)), n_((steps + bucket_ - 1) / bucket_), steps_(steps),
          edge_(size_t(n_), 0), full_(size_t(n_) + 1, 0) {}
    // Steps t0 .. t1 (inclusive) each compute `w` cells.
    void add(int64_t t0, int64_t t1, int64_t w) {
        if (t1 < t0 || w == 0) return;
        const int64_t b0 = t0 / bucket_, b1 = t1 / bucket_;
        if (b0 == b1) {
            edge_[size_t(b0)] += w * (t1 - t0 + 1);
            return;
        }
        edge_[size_t(b0)] += w * ((b0 + 1) * bucket_ - t0);
        edge_[size_t(b1)] += w * (t1 - b1 * bucket_ + 1);
        full_[size_t(b0 + 1)] += w;  // buckets b0+1 .. b1-1 are covered whole
        full_[size_t(b1)] -= w;
    }
    std::vector<double> mean() const {
        std::vector<double> out(size_t(n_), 0.0);
        int64_t run = 0;
        for (int64_t b = 0; b < n_; ++b) {
            run += full_[size_t(b)];
            const int64_t width = std::min(bucket_, steps_ - b * bucket_);
            out[size_t(b)] = double(edge_[size_t(b)] + run * bucket_) / double(width);
        }
        return out;
    }

private:
    int64_t bucket_, n_, steps_;
    std::vector<int64_t> edge_, full_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------

Schedule Schedule::reference(int32_t M, int32_t N) {
    Schedule s;
    s.kind_ = ScheduleKind::reference;
    s.M_ = std::max(0, M);
    s.N_ = std::max(0, N);
    s.lanes_ = 1;
    s.bands_ = s.N_ > 0 ? s.M_ : 0;
    s.band_rows_ = 1;
    s.tile_cols_ = std::max(1, s.N_);
    s.finish();
    return s;
}

Schedule Schedule::gpu(int32_t M, int32_t N, int blocks, int warps_per_block) {
    using namespace gpu_band;
    Schedule s;
    s.kind_ = ScheduleKind::gpu;
    s.M_ = std::max(0, M);
    s.N_ = std::max(0, N);
    s.blocks_ = std::max(1, blocks);
    s.wpb_ = std::clamp(warps_per_block, 1, kMaxWarpsPerBlock);
    s.lanes_ = kLanes;
    s.band_rows_ = kBandRows;
    s.tile_cols_ = kChunkCols;
    s.bands_ = s.N_ > 0 ? band_count(s.M_) : 0;
    if (s.bands_ == 0) {
        s.finish();
        return s;
    }
    // Band b may start hand-over part q (steps kHandSteps q ..) once band b-1 has computed the
    // last column of the row above that part needs; the first part binds, the lag is the same
    // for every band. Warps take bands round-robin: band b also waits for band b - stride, which
    // its warp sweeps to the end of its last chunk first.
    const int steps_alloc = band_chunks(s.N_) * kSteps;
    int64_t lag = 1;
    for (int q = 0; q * kHandSteps < steps_alloc; ++q) {
        const int j_first = first_col(q * kHandSteps, 0);
        if (j_first > s.N_) break;
        const int j_last = std::min(first_col(q * kHandSteps + kHandSteps - 1, 0) + kCols - 1, s.N_);
        lag = std::max<int64_t>(lag, int64_t(step_of(j_last, kLanes - 1)) + 1 - q * kHandSteps);
    }
    const int stride = band_stride(s.blocks_, s.wpb_);
    s.band_start_.assign(size_t(s.bands_), 0);
    for (int32_t b = 1; b < s.bands_; ++b) {
        int64_t t = s.band_start_[size_t(b - 1)] + lag;
        if (b >= stride) t = std::max(t, s.band_start_[size_t(b - stride)] + steps_alloc);
        s.band_start_[size_t(b)] = t;
    }
    s.finish();
    return s;
}

Schedule Schedule::cpu(int32_t M, int32_t N, int lanes, int threads, std::vector<int32_t> band_thread) {
    using cpu_band::kChunkSteps;
    Schedule s;
    s.kind_ = ScheduleKind::cpu;
    s.M_ = std::max(0, M);
    s.N_ = std::max(0, N);
    s.lanes_ = std::max(1, lanes);
    s.threads_ = std::max(1, threads);
    s.band_rows_ = s.lanes_;
    s.tile_cols_ = kChunkSteps;
    s.bands_ = s.N_ > 0 ? (s.M_ + s.lanes_ - 1) / s.lanes_ : 0;
    if (s.bands_ == 0) {
        s.finish();
        return s;
    }
    if (band_thread.size() != size_t(s.bands_)) {
        band_thread.assign(size_t(s.bands_), 0);
        for (int32_t b = 0; b < s.bands_; ++b) band_thread[size_t(b)] = b % s.threads_;
    }
    s.band_thread_ = std::move(band_thread);
    const int32_t W = s.lanes_, last_step = s.N_ + W - 1;
    s.chunks_ = s.bands_ ? (last_step + kChunkSteps - 1) / kChunkSteps : 0;
    s.chunk_start_.assign(size_t(s.bands_) * size_t(s.chunks_), 0);
    auto first = [&](int32_t c) { return 1 + c * kChunkSteps; };
    auto last = [&](int32_t c) { return std::min(first(c) + kChunkSteps - 1, last_step); };
    auto length = [&](int32_t c) { return int64_t(last(c) - first(c) + 1); };
    auto end = [&](int32_t b, int32_t c) { return s.chunk_start_[size_t(b) * s.chunks_ + c] + length(c); };
    // Bottom-row columns band b has published after its chunk c (parallel.cpp, run_band).
    auto published = [&](int32_t b, int32_t c) {
        const int32_t bottom = s.band_last_row(b) - s.band_first_row(b);
        return last(c) == last_step ? s.N_ : std::clamp(last(c) - bottom, 0, s.N_);
    };
    std::vector<int64_t> thread_free(size_t(*std::max_element(s.band_thread_.begin(), s.band_thread_.end()) + 1), 0);
    for (int32_t b = 0; b < s.bands_; ++b) {
        int32_t above = 0;  // band b-1's first chunk that publishes what chunk c needs
        for (int32_t c = 0; c < s.chunks_; ++c) {
            int64_t t = c == 0 ? thread_free[size_t(s.band_thread_[size_t(b)])] : end(b, c - 1);
            if (b > 0) {
                const int32_t need = std::min(last(c), s.N_);
                while (published(b - 1, above) < need) ++above;
                t = std::max(t, end(b - 1, above));
            }
            s.chunk_start_[size_t(b) * s.chunks_ + c] = t;
        }
        thread_free[size_t(s.band_thread_[size_t(b)])] = end(b, s.chunks_ - 1);
    }
    s.finish();
    return s;
}

Expected<Schedule> Schedule::of_result(const DpResult& r, int32_t M, int32_t N) {
    if (r.backend == Backend::cpu_reference) return reference(M, N);
    if (r.backend == Backend::cpu) {
        if (r.shape.lanes <= 0 && M > 0 && N > 0)
            return usage_error("the CPU result carries no band shape (lanes): nothing to map its cells to");
        return cpu(M, N, r.shape.lanes, r.shape.threads, r.shape.band_thread);
    }
    if (r.backend == Backend::cuda || r.backend == Backend::cuda_portable) {
        if ((r.shape.blocks <= 0 || r.shape.warps_per_block <= 0) && M > 0 && N > 0)
            return usage_error("the GPU result carries no launch shape: nothing to map its cells to");
        return gpu(M, N, r.shape.blocks, r.shape.warps_per_block);
    }
    return usage_error("no schedule for backend '" + std::string(backend_name(r.backend)) + "'");
}

void Schedule::finish() {
    steps_ = 0;
    for (int32_t b = 0; b < bands_; ++b) steps_ = std::max(steps_, step(band_last_row(b), N_) + 1);
}

// ---------------------------------------------------------------------------------------------
// Cells
// ---------------------------------------------------------------------------------------------

int64_t Schedule::cpu_time(int32_t b, int32_t t) const {
    const int32_t c = (t - 1) / cpu_band::kChunkSteps;
    return chunk_start_[size_t(b) * chunks_ + c] + (t - 1 - c * cpu_band::kChunkSteps);
}

CellOwner Schedule::owner(int32_t i, int32_t j) const {
    CellOwner o;
    switch (kind_) {
        case ScheduleKind::reference:
            o.band = i - 1;
            o.band_step = j - 1;
            break;
        case ScheduleKind::cpu:
            o.band = (i - 1) / lanes_;
            o.lane = (i - 1) % lanes_;
            o.block = band_thread_[size_t(o.band)];
            o.band_step = j + o.lane;  // the kernel's steps count from 1
            break;
        case ScheduleKind::gpu:
            o.band = gpu_band::band_of_row(i);
            o.lane = gpu_band::lane_of_row(i);
            o.block = gpu_band::block_of_band(o.band, blocks_, wpb_);
            o.warp = gpu_band::warp_of_band(o.band, blocks_, wpb_);
            o.band_step = gpu_band::step_of(j, o.lane);
            break;
    }
    return o;
}

int64_t Schedule::step(int32_t i, int32_t j) const {
    switch (kind_) {
        case ScheduleKind::reference: return int64_t(i - 1) * N_ + (j - 1);
        case ScheduleKind::cpu: {
            const int32_t b = (i - 1) / lanes_;
            return cpu_time(b, j + (i - 1) % lanes_);
        }
        case ScheduleKind::gpu: {
            const int32_t b = gpu_band::band_of_row(i);
            return band_start_[size_t(b)] + gpu_band::step_of(j, gpu_band::lane_of_row(i));
        }
    }
    return 0;
}

std::vector<double> Schedule::cells_per_step(int64_t bucket) const {
    BucketSum sum(steps_, bucket);
    for (int32_t g = 0; g < groups(); ++g) {
        const int64_t rows = group_last_row(g) - group_first_row(g) + 1;
        const int32_t i = group_first_row(g);
        switch (kind_) {
            case ScheduleKind::reference: sum.add(step(i, 1), step(i, N_), 1); break;
            case ScheduleKind::gpu: {
                // kCols columns per step; an odd N leaves one column for the last step.
                const int64_t t0 = step(i, 1), full = N_ / gpu_band::kCols;
                sum.add(t0, t0 + full - 1, rows * gpu_band::kCols);
                if (N_ % gpu_band::kCols) sum.add(t0 + full, t0 + full, rows * (N_ % gpu_band::kCols));
                break;
            }
            case ScheduleKind::cpu: {
                // One row per group; the band's chunks may be apart in time.
                const int32_t b = (i - 1) / lanes_, lane = (i - 1) % lanes_;
                for (int32_t c = 0; c < chunks_; ++c) {
                    const int32_t a = 1 + c * cpu_band::kChunkSteps;
                    const int32_t z = a + cpu_band::kChunkSteps - 1;
                    const int32_t t0 = std::max(a, lane + 1), t1 = std::min(z, lane + N_);
                    if (t0 <= t1) sum.add(cpu_time(b, t0), cpu_time(b, t1), 1);
                }
                break;
            }
        }
    }
    return sum.mean();
}

// ---------------------------------------------------------------------------------------------
// Row groups
// ---------------------------------------------------------------------------------------------

int32_t Schedule::groups() const {
    if (bands_ == 0) return 0;
    return kind_ == ScheduleKind::gpu ? (M_ + gpu_band::kRows - 1) / gpu_band::kRows : M_;
}
int32_t Schedule::group_of_row(int32_t i) const { return kind_ == ScheduleKind::gpu ? (i - 1) / gpu_band::kRows : i - 1; }
int32_t Schedule::group_first_row(int32_t g) const { return kind_ == ScheduleKind::gpu ? 1 + g * gpu_band::kRows : g + 1; }
int32_t Schedule::group_last_row(int32_t g) const {
    return kind_ == ScheduleKind::gpu ? std::min(M_, (g + 1) * gpu_band::kRows) : g + 1;
}

int32_t Schedule::columns_done(int32_t g, int64_t k) const {
    switch (kind_) {
        case ScheduleKind::reference: return int32_t(clamp64(k - int64_t(g) * N_ + 1, 0, N_));
        case ScheduleKind::gpu: {
            const int32_t b = g / gpu_band::kLanes, lane = g % gpu_band::kLanes;
            return int32_t(clamp64(gpu_band::kCols * (k - band_start_[size_t(b)] - lane + 1), 0, N_));
        }
        case ScheduleKind::cpu: {
            const int32_t b = g / lanes_, lane = g % lanes_;
            const int64_t* starts = chunk_start_.data() + size_t(b) * chunks_;
            const int64_t c = std::upper_bound(starts, starts + chunks_, k) - starts - 1;  // last chunk begun by k
            if (c < 0) return 0;
            const int64_t a = 1 + c * cpu_band::kChunkSteps;
            const int64_t z = std::min<int64_t>(a + cpu_band::kChunkSteps - 1, N_ + lanes_ - 1);
            const int64_t t = std::min(a + (k - starts[c]), z);  // the band's last step done by k
            return int32_t(clamp64(t - lane, 0, N_));
        }
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Tiles
// ---------------------------------------------------------------------------------------------

int64_t Schedule::tile_first_step(int32_t band, int32_t tc) const {
    return step(band_first_row(band), tc * tile_cols_ + 1);
}

int64_t Schedule::tile_last_step(int32_t band, int32_t tc) const {
    return step(band_last_row(band), std::min(N_, (tc + 1) * tile_cols_));
}

int64_t Schedule::tile_rank(int32_t band, int32_t tc) const {
    const int64_t at = tile_first_step(band, tc);
    const int32_t n = tile_columns();
    int64_t rank = 0;
    for (int32_t b = 0; b < bands_; ++b) {
        if (b == band) {
            rank += tc;
            continue;
        }
        // Tiles of band b that start before `at` (or with it, when b is the upper band).
        int32_t lo = 0, hi = n;
        while (lo < hi) {
            const int32_t mid = (lo + hi) / 2;
            const int64_t t = tile_first_step(b, mid);
            if (t < at || (t == at && b < band)) lo = mid + 1;
            else hi = mid;
        }
        rank += lo;
    }
    return rank;
}

}  // namespace dpviz
