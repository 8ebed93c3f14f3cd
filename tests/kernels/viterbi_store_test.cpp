// The Viterbi trellis through the result store (dpviz/store.hpp): the columns and the overview the
// fast fill keeps, exact windows recomputed from them and the path over segments, against the
// whole trellis of a level-matrix fill, on seeded random models (impossible cells and ties in).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/store.hpp"
#include "hmm_test_util.hpp"
#include "kernels/result_compare.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {
namespace {

using test::first_difference;
using hmm_test::viterbi_problem;
using hmm_test::whole_trellis;

// A random trellis of S states over T observations; zeros in the model make some cells
// impossible (the observations themselves stay possible).
Problem random_trellis(std::mt19937_64& rng, int S, size_t T) {
    const double zeros = std::uniform_real_distribution<double>(0.0, 0.5)(rng);
    const Hmm m = hmm_test::random_hmm(rng, S, 1 + int(rng() % 6), zeros);
    return viterbi_problem(m, hmm_test::random_observations(rng, m, T));
}

// The window's cells of the whole trellis (a level-matrix result).
WindowValues cut(const DpResult& whole, Window w) {
    WindowValues v;
    v.w = w;
    v.H.reset(w.rows(), w.cols(), 0);
    v.back.reset(w.rows(), w.cols(), 0);
    for (int32_t i = w.i0; i < w.i1; ++i)
        for (int32_t j = w.j0; j < w.j1; ++j) {
            v.H.at(i - w.i0, j - w.j0) = whole.H.at(i, j);
            v.back.at(i - w.i0, j - w.j0) = whole.back.at(i, j);
        }
    return v;
}

void expect_same_window(const WindowValues& got, const WindowValues& want) {
    EXPECT_EQ(got.w, want.w);
    EXPECT_EQ(first_difference(got.H, want.H), "") << "H";
    EXPECT_EQ(first_difference(got.back, want.back), "") << "back";
    EXPECT_TRUE(got.dirs.empty() && got.E.empty() && got.F.empty()) << "a trellis has no bits, E or F";
}

std::string window_name(const Window& w) {
    return "window rows [" + std::to_string(w.i0) + "," + std::to_string(w.i1) + ") columns [" +
           std::to_string(w.j0) + "," + std::to_string(w.j1) + ")";
}

// The fill keeps exactly the columns the whole trellis implies (and no row lines), pools exactly
// the overview the whole H implies, and traces the grid's path over them, for spacings and block
// sizes that divide the trellis and that do not.
TEST(ViterbiStore, ColumnsOverviewAndPathEqualTheWholeTrellis) {
    std::mt19937_64 rng(2027);
    const int32_t spacings[] = {1, 2, 5, 16, 64, 1000};
    const int32_t blocks[] = {1, 2, 3, 7, 16, 100};
    int impossible_cells = 0, checked = 0;
    for (const int S : {1, 2, 3, 8, 21}) {
        for (int round = 0; round < 6; ++round) {
            const size_t T = 1 + rng() % 260;
            const Problem p = random_trellis(rng, S, T);
            const int32_t K = spacings[rng() % std::size(spacings)], B = blocks[rng() % std::size(blocks)];
            SCOPED_TRACE("S " + std::to_string(S) + " T " + std::to_string(T) + " K " + std::to_string(K) + " B " +
                         std::to_string(B));
            const DpResult whole = whole_trellis(p);
            auto got = align_viterbi_cpu_checkpoints(p, K, RunControl{}, B);
            ASSERT_TRUE(got) << got.error().message;
            ASSERT_TRUE(got->checkpoints);
            ASSERT_TRUE(got->overview);
            EXPECT_TRUE(got->H.empty());
            EXPECT_TRUE(got->back.empty());
            const Checkpoints& c = *got->checkpoints;
            const Checkpoints want = checkpoints_from_matrix(p, whole, K);
            EXPECT_EQ(c.row_lines(), 0);
            EXPECT_TRUE(c.row_h.empty());
            EXPECT_EQ(c.col_lines(), int32_t(T) / K);
            EXPECT_TRUE(c.col_h == want.col_h) << "kept columns";
            EXPECT_EQ(checkpoint_bytes(p, K), c.col_h.size() * sizeof(int32_t));
            const Overview ref = overview_from_matrix(p, whole.H, B);
            const Overview& o = *got->overview;
            EXPECT_EQ(o.block, B);
            EXPECT_FALSE(o.lowest);
            EXPECT_EQ(first_difference(o.H, ref.H), "");
            EXPECT_EQ(o.min, ref.min);
            EXPECT_EQ(o.max, ref.max);
            EXPECT_EQ(o.any_finite, ref.any_finite);
            EXPECT_EQ(o.any_unreachable, ref.any_unreachable);
            EXPECT_EQ(got->score, whole.score);
            EXPECT_EQ(got->end, whole.end);
            EXPECT_EQ(got->path, whole.path);
            for (int32_t i = 1; i <= S; ++i)
                for (int32_t j = 1; j <= int32_t(T); ++j) impossible_cells += whole.H.at(i, j) == kNegInf;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 30);
    EXPECT_GT(impossible_cells, 100);  // the unreachable texels were exercised
}

// Any window recomputed from the kept columns equals the same cells of the whole trellis: random
// windows, windows starting on, just after and just before a kept column, at the edges, single
// cells, and values only.
TEST(ViterbiStore, WindowsEqualTheWholeTrellis) {
    std::mt19937_64 rng(77);
    int windows = 0;
    for (const int S : {1, 2, 4, 13}) {
        for (int round = 0; round < 5; ++round) {
            const size_t T = 1 + rng() % 200;
            const Problem p = random_trellis(rng, S, T);
            const int32_t K = int32_t(1 + rng() % 40);
            SCOPED_TRACE("S " + std::to_string(S) + " T " + std::to_string(T) + " K " + std::to_string(K));
            const DpResult whole = whole_trellis(p);
            auto got = align_viterbi_cpu_checkpoints(p, K, RunControl{});
            ASSERT_TRUE(got && got->checkpoints);
            const Checkpoints& c = *got->checkpoints;
            const int32_t R = S + 1, C = int32_t(T) + 1;
            std::vector<Window> ws = {{0, R, 0, C}, {0, 1, 0, 1}, {R - 1, R, C - 1, C}, {0, R, C - 1, C},
                                      {0, 1, 0, C},  {1, R, 1, 2}, {0, R, 0, 1}};
            for (int32_t line = K; line < C; line += K) {  // on, after and before a kept column
                ws.push_back({0, R, line, std::min(C, line + 1)});
                if (line + 1 < C) ws.push_back({0, R, line + 1, std::min(C, line + 3)});
                ws.push_back({1, R, line - 1, line});
            }
            for (int k = 0; k < 12; ++k) {
                std::uniform_int_distribution<int32_t> ri(0, R - 1), rj(0, C - 1);
                int32_t a = ri(rng), b = ri(rng), x = rj(rng), y = rj(rng);
                if (a > b) std::swap(a, b);
                if (x > y) std::swap(x, y);
                ws.push_back({a, b + 1, x, y + 1});
                ws.push_back({a, a + 1, x, x + 1});  // one cell
            }
            for (const Window& w : ws) {
                SCOPED_TRACE(window_name(w));
                expect_same_window(compute_window(p, c, w), cut(whole, w));
                const WindowValues values = compute_window(p, c, w, false);
                EXPECT_EQ(first_difference(values.H, cut(whole, w).H), "") << "values only";
                EXPECT_TRUE(values.back.empty());
                ++windows;
            }
            // Clipped to the trellis, as for the other algorithms.
            const WindowValues beyond = compute_window(p, c, {0, R + 5, C - 1, C + 9});
            EXPECT_EQ(beyond.w, (Window{0, R, C - 1, C}));
            expect_same_window(beyond, cut(whole, beyond.w));
        }
    }
    EXPECT_GT(windows, 500);
}

// align() sends a trellis through the store on the CPU as it does the other algorithms: at level
// matrix with an overview asked for, when the whole trellis does not fit (or from
// kCheckpointPathCells cells on), it returns the overview, the columns and the path, never H.
TEST(ViterbiStore, AlignTakesTheStoreWhenTheTrellisDoesNotFit) {
    std::mt19937_64 rng(9);
    const Hmm m = hmm_test::random_hmm(rng, 12, 4, 0.2);
    const Problem p = viterbi_problem(m, hmm_test::random_observations(rng, m, 5000));
    const DpResult whole = whole_trellis(p);
    AlignOptions opt;
    opt.backend = Backend::cpu;
    opt.level = OutputLevel::matrix;
    opt.overview_side = 64;
    // It fits: the whole trellis, as before.
    auto held = align(p, opt);
    ASSERT_TRUE(held) << held.error().message;
    EXPECT_FALSE(held->H.empty());
    EXPECT_FALSE(held->overview);
    // It does not: the store.
    opt.memory_limit = estimate_host_bytes(p, OutputLevel::matrix) - 1;
    for (const Backend b : {Backend::cpu, Backend::automatic}) {
        opt.backend = b;
        auto stored = align(p, opt);
        ASSERT_TRUE(stored) << stored.error().message;
        EXPECT_TRUE(stored->H.empty());
        EXPECT_TRUE(stored->back.empty());
        ASSERT_TRUE(stored->overview);
        ASSERT_TRUE(stored->checkpoints);
        EXPECT_EQ(stored->backend, Backend::cpu);
        const int32_t B = overview_block(p, 64);
        EXPECT_EQ(stored->overview->block, B);
        EXPECT_LE(stored->overview->H.cols, 64);
        EXPECT_EQ(first_difference(stored->overview->H, overview_from_matrix(p, whole.H, B).H), "");
        EXPECT_EQ(stored->path, whole.path);
        EXPECT_EQ(stored->score, whole.score);
        const Window w{2, 9, 2490, 2530};
        expect_same_window(compute_window(p, *stored->checkpoints, w), cut(whole, w));
    }
    // Without an overview the caller wants H: refused with what it needs, never a silent store.
    opt.overview_side = 0;
    opt.backend = Backend::cpu;
    auto refused = align(p, opt);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::resource);
}

// Beside a GPU (the simulated device, whose Viterbi has no kernels: a run that reached it would
// fall back to the CPU with a note), a trellis that takes the store goes to the CPU's store
// directly: its picture when the whole trellis does not fit, its path when the backpointers do
// not; a trellis that fits goes to the device.
TEST(ViterbiStore, BesideAGpuATrellisThatTakesTheStoreRunsOnTheCpu) {
    const gpu_fault::ScopedFault device("simulate");
    std::mt19937_64 rng(10);
    const Hmm m = hmm_test::random_hmm(rng, 7, 3, 0.2);
    const Problem p = viterbi_problem(m, hmm_test::random_observations(rng, m, 4000));
    const DpResult whole = whole_trellis(p);
    AlignOptions opt;
    opt.backend = Backend::automatic;
    opt.level = OutputLevel::matrix;
    opt.overview_side = 64;
    opt.memory_limit = estimate_host_bytes(p, OutputLevel::matrix) - 1;
    auto picture = align(p, opt);
    ASSERT_TRUE(picture) << picture.error().message;
    EXPECT_TRUE(picture->fallback.empty()) << picture->fallback;
    ASSERT_TRUE(picture->overview);
    EXPECT_EQ(first_difference(picture->overview->H, overview_from_matrix(p, whole.H, picture->overview->block).H), "");
    opt.level = OutputLevel::path;
    opt.overview_side = 0;
    opt.memory_limit = estimate_host_bytes(p, OutputLevel::path) - 1;
    auto path = align(p, opt);
    ASSERT_TRUE(path) << path.error().message;
    EXPECT_TRUE(path->fallback.empty()) << path->fallback;
    EXPECT_TRUE(path->checkpoints);
    EXPECT_EQ(path->path, whole.path);
    opt.memory_limit.reset();
    auto fits = align(p, opt);
    ASSERT_TRUE(fits) << fits.error().message;
    EXPECT_NE(fits->fallback.find("unavailable"), std::string::npos) << "it went to the device";
    EXPECT_FALSE(fits->checkpoints);
    EXPECT_EQ(fits->path, whole.path);
}

// The size rule is the other algorithms' one: from kCheckpointPathCells cells on, a picture of a
// trellis comes from the store even when the whole trellis would fit.
TEST(ViterbiStore, ABigTrellisPictureComesFromTheStore) {
    // 17 states: S^2 T is past kViterbiReferenceCandidates, so no double-precision run beside it.
    std::mt19937_64 rng(1);
    const Hmm m = hmm_test::random_hmm(rng, 17, 4, 0.0);  // no zeros: any observations are possible
    const size_t T = size_t(kCheckpointPathCells / 18);    // 18 x (T + 1) cells: just past the rule
    std::vector<uint8_t> obs(T);
    for (uint8_t& o : obs) o = uint8_t(rng() % 4);
    const Problem p = viterbi_problem(m, obs);
    ASSERT_GE(int64_t(p.rows() + 1) * (p.cols() + 1), kCheckpointPathCells);
    AlignOptions opt;
    opt.backend = Backend::automatic;
    opt.level = OutputLevel::matrix;
    opt.overview_side = 512;
    opt.memory_limit = uint64_t(64) << 30;  // plenty: the size alone decides
    auto r = align(p, opt);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->H.empty());
    ASSERT_TRUE(r->overview);
    ASSERT_TRUE(r->checkpoints);
    EXPECT_EQ(r->path.size(), T + 1);
    EXPECT_EQ(r->overview->H.cols, int32_t((T + r->overview->block) / r->overview->block));
    const std::vector<Cell> texels = overview_path(*r->overview, r->path);
    EXPECT_EQ(texels.back(), (Cell{r->end.i / r->overview->block, r->end.j / r->overview->block}));
}

}  // namespace
}  // namespace dpviz
