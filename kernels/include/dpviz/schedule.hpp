// Which worker of a backend computes each cell of a fill, and when: the mapping behind the
// teaching views (wavefront playback, ownership overlays) and their tests. No GL, no CUDA.
//
// Exact (what the kernels do, from the shared shape in band_shape.hpp and the launch shape the
// run reports in DpResult::shape): the band, block, warp, lane or thread that computes a cell,
// and the step of its band's sweep at which it does (owner()). A GPU-labelled test compares
// owner() with what the CUDA fill writes per cell.
//
// A model (the kernels keep no clock): the global order across bands (step()). Every step of
// every band takes one unit of time, and a band starts each part of its sweep at the earliest
// moment the hand-over of the row above allows (GPU: kHandSteps steps of columns from band b-1,
// warps reused round-robin; CPU: chunks of cpu_band::kChunkSteps steps, threads as recorded).
// Within that model every cell comes after its up, left and diagonal neighbours.
#pragma once

#include <cstdint>
#include <vector>

#include "dpviz/types.hpp"

namespace dpviz {

enum class ScheduleKind {
    reference,  // cpu-reference: row by row, one cell per step
    cpu,        // the fast CPU backend: bands of SIMD lanes, threads
    gpu,        // cuda / cuda-portable: bands of 32 lanes x 4 rows, warps of a persistent grid
};

struct CellOwner {
    int32_t band = 0;       // band of rows (reference: the row's index - 1)
    int32_t block = 0;      // GPU: block of the grid; CPU: thread; reference: 0
    int32_t warp = 0;       // GPU: warp in its block; else 0
    int32_t lane = 0;       // GPU: lane of the warp; CPU: SIMD lane; reference: 0
    int32_t band_step = 0;  // step of the band's sweep that computes the cell (reference: column - 1)
    friend bool operator==(const CellOwner&, const CellOwner&) = default;
};

class Schedule {
public:
    Schedule() = default;  // an empty matrix
    static Schedule reference(int32_t M, int32_t N);
    // `band_thread` empty: bands are assumed to go to threads round-robin.
    static Schedule cpu(int32_t M, int32_t N, int lanes, int threads, std::vector<int32_t> band_thread = {});
    static Schedule gpu(int32_t M, int32_t N, int blocks, int warps_per_block);
    // The schedule of the backend that produced `r` (r.backend, r.shape) for an M x N problem.
    // A GPU result without a launch shape is a usage error (nothing to map it to).
    static Expected<Schedule> of_result(const DpResult& r, int32_t M, int32_t N);

    ScheduleKind kind() const { return kind_; }
    int32_t rows() const { return M_; }  // M: interior rows 1..M
    int32_t cols() const { return N_; }  // N: interior columns 1..N
    int blocks() const { return blocks_; }           // GPU
    int warps_per_block() const { return wpb_; }     // GPU
    int lanes() const { return lanes_; }             // rows per band (GPU: 32 lanes x 4 rows = 128)
    int threads() const { return threads_; }         // CPU
    int32_t bands() const { return bands_; }
    int32_t band_rows() const { return band_rows_; }

    // Interior cells only: 1 <= i <= M, 1 <= j <= N.
    CellOwner owner(int32_t i, int32_t j) const;
    int64_t step(int32_t i, int32_t j) const;   // in the model above; 0 .. steps() - 1
    int64_t steps() const { return steps_; }
    // Cells computed per step (the ramp-up and ramp-down that limit parallelism), averaged over
    // buckets of `bucket` steps: element k covers steps k * bucket .. (k + 1) * bucket - 1.
    std::vector<double> cells_per_step(int64_t bucket = 1) const;

    // Row groups: rows that advance together (a GPU lane's 4 rows, a CPU lane's row, a reference
    // row). By step k, columns 1 .. columns_done(g, k) of the group's rows are computed.
    int32_t groups() const;
    int32_t group_of_row(int32_t i) const;
    int32_t group_first_row(int32_t g) const;
    int32_t group_last_row(int32_t g) const;
    int32_t columns_done(int32_t g, int64_t k) const;

    // Tiles: a band of rows x tile_cols() columns (GPU: a chunk of 64 columns; CPU: 256; the
    // reference: a whole row). tile_rank orders tiles by the step of their first cell (ties: the
    // upper band first).
    int32_t tile_cols() const { return tile_cols_; }
    int32_t tile_columns() const { return N_ == 0 ? 0 : (N_ + tile_cols_ - 1) / tile_cols_; }
    int64_t tile_first_step(int32_t band, int32_t tc) const;
    int64_t tile_last_step(int32_t band, int32_t tc) const;
    int64_t tile_rank(int32_t band, int32_t tc) const;
    int64_t tile_count() const { return int64_t(bands_) * tile_columns(); }

private:
    int32_t band_first_row(int32_t b) const { return 1 + b * band_rows_; }
    int32_t band_last_row(int32_t b) const { return b + 1 == bands_ ? M_ : (b + 1) * band_rows_; }
    int64_t cpu_time(int32_t b, int32_t t) const;  // CPU: when band b runs its step t (1-based)
    void finish();

    ScheduleKind kind_ = ScheduleKind::reference;
    int32_t M_ = 0, N_ = 0;
    int blocks_ = 0, wpb_ = 0, lanes_ = 0, threads_ = 0;
    int32_t bands_ = 0, band_rows_ = 1, tile_cols_ = 1;
    int32_t chunks_ = 0;                // CPU: chunks per band
    std::vector<int32_t> band_thread_;  // CPU
    std::vector<int64_t> band_start_;   // GPU: when band b runs its step 0
    std::vector<int64_t> chunk_start_;  // CPU: [band * chunks_ + c] when band b runs the chunk's first step
    int64_t steps_ = 0;
};

}  // namespace dpviz
