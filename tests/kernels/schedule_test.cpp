// The teaching views' schedule (dpviz/schedule.hpp): every cell owned exactly once by the work
// item the kernel's own loops give it, steps after the neighbours a cell reads (within the
// model), the per-step counts, row groups and tile order consistent with step(), and the shape
// the fast CPU backend reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/schedule.hpp"

using namespace dpviz;

namespace {

struct Shape {
    int32_t M, N;
};
const std::vector<Shape> kShapes = {{1, 1}, {3, 70}, {17, 5}, {130, 9}, {300, 77}, {520, 300}, {129, 1}};

// The unit of work a kernel does at once: one band step of one lane (GPU: 4 rows x 2 columns).
std::tuple<int, int, int> unit(const CellOwner& o) { return {o.band, o.lane, o.band_step}; }

// Cells marked by an enumeration of the kernel's work, each checked against owner().
class Coverage {
public:
    Coverage(int32_t M, int32_t N) : M_(M), N_(N), seen_(size_t(M + 1) * (N + 1), 0) {}
    void mark(int32_t i, int32_t j) {
        if (i < 1 || i > M_ || j < 1 || j > N_) return;
        ++seen_[size_t(i) * (N_ + 1) + j];
    }
    void expect_each_once() const {
        for (int32_t i = 1; i <= M_; ++i)
            for (int32_t j = 1; j <= N_; ++j)
                ASSERT_EQ(seen_[size_t(i) * (N_ + 1) + j], 1) << "cell (" << i << ", " << j << ")";
    }

private:
    int32_t M_, N_;
    std::vector<int> seen_;
};

// The CUDA fill's loops (band_kernel.cuh): block k, warp w runs bands first_band, + stride, ...;
// at step s lane l computes rows first_row(b, l) .. + kRows - 1, columns first_col(s, l) .. + kCols - 1.
void check_gpu_cover(const Schedule& s, int blocks, int wpb) {
    using namespace gpu_band;
    Coverage cov(s.rows(), s.cols());
    const int nbands = band_count(s.rows()), steps_alloc = band_chunks(s.cols()) * kSteps;
    for (int block = 0; block < blocks; ++block)
        for (int warp = 0; warp < wpb; ++warp)
            for (int b = first_band(block, warp, wpb); b < nbands; b += band_stride(blocks, wpb))
                for (int step = 0; step < steps_alloc; ++step)
                    for (int lane = 0; lane < kLanes; ++lane)
                        for (int r = 0; r < kRows; ++r)
                            for (int k = 0; k < kCols; ++k) {
                                const int i = first_row(b, lane) + r, j = first_col(step, lane) + k;
                                if (i < 1 || i > s.rows() || j < 1 || j > s.cols()) continue;
                                cov.mark(i, j);
                                const CellOwner o = s.owner(i, j);
                                ASSERT_EQ(o, (CellOwner{b, block, warp, lane, step})) << "cell (" << i << ", " << j << ")";
                            }
    cov.expect_each_once();
}

// parallel.cpp: band b (lanes rows from 1 + b * lanes) runs steps 1 .. N + lanes - 1; lane k
// computes column t - k at step t.
void check_cpu_cover(const Schedule& s, const std::vector<int32_t>& band_thread) {
    Coverage cov(s.rows(), s.cols());
    const int W = s.lanes();
    for (int b = 0; b < s.bands(); ++b)
        for (int t = 1; t <= s.cols() + W - 1; ++t)
            for (int k = 0; k < W; ++k) {
                const int i = 1 + b * W + k, j = t - k;
                if (i > s.rows() || j < 1 || j > s.cols()) continue;
                cov.mark(i, j);
                const int thread = band_thread.empty() ? b % s.threads() : band_thread[size_t(b)];
                ASSERT_EQ(s.owner(i, j), (CellOwner{b, thread, 0, k, t})) << "cell (" << i << ", " << j << ")";
            }
    cov.expect_each_once();
}

// A cell comes after the cells it reads, unless the same work item computes both (in order).
void check_dependencies(const Schedule& s) {
    for (int32_t i = 1; i <= s.rows(); ++i)
        for (int32_t j = 1; j <= s.cols(); ++j) {
            const int64_t t = s.step(i, j);
            ASSERT_GE(t, 0);
            ASSERT_LT(t, s.steps());
            const CellOwner me = s.owner(i, j);
            for (const auto& [di, dj] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}}) {
                const int32_t pi = i - di, pj = j - dj;
                if (pi < 1 || pj < 1) continue;
                if (unit(s.owner(pi, pj)) == unit(me)) {
                    ASSERT_EQ(s.step(pi, pj), t);
                } else {
                    ASSERT_LT(s.step(pi, pj), t) << "(" << pi << ", " << pj << ") before (" << i << ", " << j << ")";
                }
            }
        }
}

// cells_per_step, columns_done and the tile order, each against step() cell by cell.
void check_views(const Schedule& s) {
    const int64_t T = s.steps();
    std::vector<int64_t> count(size_t(T), 0);
    for (int32_t i = 1; i <= s.rows(); ++i)
        for (int32_t j = 1; j <= s.cols(); ++j) ++count[size_t(s.step(i, j))];
    const std::vector<double> per = s.cells_per_step();
    ASSERT_EQ(per.size(), size_t(T));
    for (int64_t t = 0; t < T; ++t) ASSERT_EQ(per[size_t(t)], double(count[size_t(t)])) << "step " << t;
    if (T > 0) {
        EXPECT_GT(count.front(), 0);  // no idle step at either end
        EXPECT_GT(count.back(), 0);
    }
    const int64_t bucket = 7;
    const std::vector<double> coarse = s.cells_per_step(bucket);
    ASSERT_EQ(coarse.size(), size_t((T + bucket - 1) / bucket));
    for (size_t k = 0; k < coarse.size(); ++k) {
        const int64_t a = int64_t(k) * bucket, z = std::min(T, a + bucket);
        const double mean = double(std::accumulate(count.begin() + a, count.begin() + z, int64_t(0))) / double(z - a);
        ASSERT_NEAR(coarse[k], mean, 1e-9);
    }

    const std::vector<int64_t> probes = {0, 1, T / 3, T / 2, T - 2, T - 1};
    for (int32_t g = 0; g < s.groups(); ++g)
        for (const int64_t k : probes)
            for (int32_t i = s.group_first_row(g); i <= s.group_last_row(g); ++i) {
                ASSERT_EQ(s.group_of_row(i), g);
                const int32_t done = s.columns_done(g, k);
                for (int32_t j = 1; j <= s.cols(); ++j)
                    ASSERT_EQ(s.step(i, j) <= k, j <= done) << "row " << i << " column " << j << " step " << k;
            }

    // Tile ranks: a permutation, in the order of the tiles' first steps.
    std::vector<std::pair<int64_t, int64_t>> by_rank;  // rank -> first step
    for (int32_t b = 0; b < s.bands(); ++b)
        for (int32_t c = 0; c < s.tile_columns(); ++c) {
            EXPECT_LE(s.tile_first_step(b, c), s.tile_last_step(b, c));
            by_rank.push_back({s.tile_rank(b, c), s.tile_first_step(b, c)});
        }
    std::sort(by_rank.begin(), by_rank.end());
    for (size_t k = 0; k < by_rank.size(); ++k) {
        ASSERT_EQ(by_rank[k].first, int64_t(k));
        if (k) {
            ASSERT_LE(by_rank[k - 1].second, by_rank[k].second);
        }
    }
}

TEST(Schedule, GpuOwnersStepsAndViews) {
    for (const Shape& sh : kShapes)
        for (const auto& [blocks, wpb] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{132, 4}, std::pair{3, 1}}) {
            SCOPED_TRACE(std::to_string(sh.M) + "x" + std::to_string(sh.N) + " grid " + std::to_string(blocks) + "x" +
                         std::to_string(wpb));
            const Schedule s = Schedule::gpu(sh.M, sh.N, blocks, wpb);
            EXPECT_EQ(s.kind(), ScheduleKind::gpu);
            EXPECT_EQ(s.bands(), gpu_band::band_count(sh.M));
            check_gpu_cover(s, blocks, wpb);
            check_dependencies(s);
            check_views(s);
        }
}

TEST(Schedule, GpuPipelineModel) {
    using namespace gpu_band;
    // Wide enough for every hand-over part to bind: band b+1 trails band b by the lane skew
    // (kLanes - 1 steps) plus one part of kHandSteps steps.
    const Schedule wide = Schedule::gpu(4 * kBandRows, 1000, 4, 1);
    for (int b = 1; b < 4; ++b)
        EXPECT_EQ(wide.step(first_row(b, 0), 1) - wide.step(first_row(b - 1, 0), 1), kLanes - 1 + kHandSteps);
    // Two warps for five bands: band 2 waits for its warp to finish band 0's whole sweep.
    const Schedule reused = Schedule::gpu(5 * kBandRows, 1000, 1, 2);
    EXPECT_EQ(reused.owner(first_row(2, 0), 1).warp, 0);
    EXPECT_EQ(reused.owner(first_row(3, 0), 1).warp, 1);
    EXPECT_EQ(reused.step(first_row(2, 0), 1), band_chunks(1000) * kSteps);
    EXPECT_GE(reused.step(first_row(4, 0), 1), reused.step(first_row(2, 0), 1) + band_chunks(1000) * kSteps);
    // A single warp runs the bands one after the other.
    const Schedule one = Schedule::gpu(3 * kBandRows, 64, 1, 1);
    EXPECT_EQ(one.step(first_row(1, 0), 1), band_chunks(64) * kSteps);
}

TEST(Schedule, CpuOwnersStepsAndViews) {
    for (const Shape& sh : kShapes)
        for (const int lanes : {4, 8, 16})
            for (const int threads : {1, 3}) {
                SCOPED_TRACE(std::to_string(sh.M) + "x" + std::to_string(sh.N) + " lanes " + std::to_string(lanes) +
                             " threads " + std::to_string(threads));
                const Schedule s = Schedule::cpu(sh.M, sh.N, lanes, threads);
                EXPECT_EQ(s.kind(), ScheduleKind::cpu);
                check_cpu_cover(s, {});
                check_dependencies(s);
                check_views(s);
            }
    // An uneven hand-out (as recorded by a run): thread 1 took bands 0, 1 and 4.
    const std::vector<int32_t> taken = {1, 1, 0, 0, 1};
    const Schedule s = Schedule::cpu(5 * 8, 600, 8, 2, taken);
    check_cpu_cover(s, taken);
    check_dependencies(s);
    check_views(s);
    // Band 1 starts when its thread has finished band 0 (the hand-over alone would allow earlier).
    EXPECT_EQ(s.step(1 + 8, 1), s.step(8, 600) + 1);
    EXPECT_EQ(Schedule::cpu(5 * 8, 600, 8, 2).step(1 + 8, 1), 2 * cpu_band::kChunkSteps);
}

TEST(Schedule, CpuChunksHandOverTheBottomRow) {
    // Bands of 4 lanes, 1000 columns: band 1's first chunk needs band 0's first 256 columns,
    // which band 0 publishes after its second chunk (the first ends at column 256 - 3).
    const Schedule s = Schedule::cpu(8, 1000, 4, 2);
    EXPECT_EQ(s.step(5, 1), 2 * cpu_band::kChunkSteps);
    check_dependencies(s);
}

TEST(Schedule, ReferenceRowByRow) {
    const Schedule s = Schedule::reference(6, 11);
    EXPECT_EQ(s.steps(), 66);
    EXPECT_EQ(s.step(1, 1), 0);
    EXPECT_EQ(s.step(2, 1), 11);
    EXPECT_EQ(s.step(6, 11), 65);
    EXPECT_EQ(s.tile_count(), 6);
    check_dependencies(s);
    check_views(s);
}

TEST(Schedule, EmptyMatrices) {
    for (const Schedule& s : {Schedule::gpu(0, 10, 1, 1), Schedule::gpu(10, 0, 1, 1), Schedule::cpu(0, 5, 16, 2),
                              Schedule::cpu(5, 0, 16, 2), Schedule::reference(0, 3), Schedule()}) {
        EXPECT_EQ(s.steps(), 0);
        EXPECT_EQ(s.groups(), 0);
        EXPECT_EQ(s.tile_count(), 0);
        EXPECT_TRUE(s.cells_per_step().empty());
    }
}

Problem dna(int m, int n) {
    std::string a(size_t(m), 'A'), b(size_t(n), 'C');
    for (int k = 0; k < m; ++k) a[size_t(k)] = "ACGT"[(k * 7 + 3) % 4];
    for (int k = 0; k < n; ++k) b[size_t(k)] = "ACGT"[(k * 5 + 1) % 4];
    return make_problem(Algorithm::global, {"q", a}, {"t", b}, {}).value();
}

TEST(Schedule, OfResultFollowsTheBackendThatRan) {
    const Problem p = dna(333, 280);
    const DpResult cpu = align_cpu(p, OutputLevel::matrix, 3);
    EXPECT_TRUE(cpu.shape.lanes == 4 || cpu.shape.lanes == 8 || cpu.shape.lanes == 16) << cpu.shape.lanes;
    EXPECT_EQ(cpu.shape.threads, 3);
    ASSERT_EQ(cpu.shape.band_thread.size(), size_t((333 + cpu.shape.lanes - 1) / cpu.shape.lanes));
    for (const int32_t t : cpu.shape.band_thread) EXPECT_TRUE(t >= 0 && t < 3);
    auto s = Schedule::of_result(cpu, p.rows(), p.cols());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->kind(), ScheduleKind::cpu);
    EXPECT_EQ(s->lanes(), cpu.shape.lanes);
    check_cpu_cover(*s, cpu.shape.band_thread);
    check_dependencies(*s);

    // DPVIZ_CPU_ISA caps the kernel: SSE2 runs 4 lanes, and the result says so.
    const char* old = std::getenv("DPVIZ_CPU_ISA");
    const std::string saved = old ? old : "";
    setenv("DPVIZ_CPU_ISA", "sse2", 1);
    const DpResult narrow = align_cpu(p, OutputLevel::matrix, 1);
    if (old) setenv("DPVIZ_CPU_ISA", saved.c_str(), 1);
    else unsetenv("DPVIZ_CPU_ISA");
    EXPECT_EQ(narrow.shape.lanes, 4);
    EXPECT_EQ(narrow.shape.threads, 1);

    const DpResult ref = align_reference(p);
    auto r = Schedule::of_result(ref, p.rows(), p.cols());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind(), ScheduleKind::reference);

    DpResult gpu = cpu;
    gpu.backend = Backend::cuda;
    EXPECT_FALSE(Schedule::of_result(gpu, p.rows(), p.cols()));  // no launch shape: no mapping
    gpu.shape.blocks = 2;
    gpu.shape.warps_per_block = 4;
    auto g = Schedule::of_result(gpu, p.rows(), p.cols());
    ASSERT_TRUE(g);
    EXPECT_EQ(g->kind(), ScheduleKind::gpu);
    EXPECT_EQ(g->owner(1 + 5 * 128, 1).block, 1);
    EXPECT_EQ(g->owner(1 + 5 * 128, 1).warp, 1);
}

}  // namespace
