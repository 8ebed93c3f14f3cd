// The result store (dpviz/store.hpp) against the reference's whole matrices: the checkpoints
// the fast CPU fill keeps, exact windows recomputed from them, and the tile-by-tile traceback,
// for every algorithm and gap model, on seeded random pairs, spacings and windows.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "kernels/result_compare.hpp"

namespace dpviz {
namespace {

using test::first_difference;
using test::kDna;
using test::kProtein;
using test::mutate;
using test::random_sequence;

struct Kind {
    Algorithm algo;
    bool affine;
    const char* name;
};

const Kind kKinds[] = {
    {Algorithm::local, false, "local linear"},      {Algorithm::local, true, "local affine"},
    {Algorithm::global, false, "global linear"},    {Algorithm::global, true, "global affine"},
    {Algorithm::semiglobal, false, "semi linear"},  {Algorithm::semiglobal, true, "semi affine"},
    {Algorithm::glocal, false, "glocal linear"},    {Algorithm::glocal, true, "glocal affine"},
    {Algorithm::edit, false, "edit"},               {Algorithm::lcs, false, "lcs"},
    {Algorithm::dtw, false, "dtw"},                 {Algorithm::dtw, true, "dtw banded"},
};

// A problem of the kind: related DNA or protein sequences, or signals (DTW; `affine` there means
// a Sakoe-Chiba band, squared cost).
Problem random_problem(std::mt19937& rng, const Kind& kind, int m, int n) {
    if (kind.algo == Algorithm::dtw) {
        std::normal_distribution<double> g(0.0, 1.0);
        std::vector<double> q(static_cast<size_t>(m)), t(static_cast<size_t>(n));
        for (double& x : q) x = g(rng);
        for (double& x : t) x = g(rng);
        ScoringOptions s;
        s.dtw_cost = kind.affine ? DtwCost::squared : DtwCost::abs;
        s.band = kind.affine ? std::max(1, n / 8) : -1;
        auto p = make_dtw_problem({"q", q}, {"t", t}, s);
        EXPECT_TRUE(p) << (p ? "" : p.error().message);
        return *p;
    }
    const bool protein = rng() % 3 == 0;
    const std::string& letters = protein ? kProtein : kDna;
    std::string q = random_sequence(rng, letters, m);
    std::string t = mutate(rng, q, letters, 0.08);
    t.resize(size_t(n), 'A');
    while (int(t.size()) < n) t += letters[rng() % letters.size()];
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -3;
    s.gaps = kind.affine ? GapPenalties{5, 2} : GapPenalties{3, 3};
    auto p = make_problem(kind.algo, {"q", q}, {"t", t}, s);
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return *p;
}

void expect_same_checkpoints(const Checkpoints& got, const Checkpoints& want) {
    EXPECT_EQ(got.spacing, want.spacing);
    EXPECT_TRUE(got.row_h == want.row_h) << "row H";
    EXPECT_TRUE(got.row_f == want.row_f) << "row F";
    EXPECT_TRUE(got.col_h == want.col_h) << "column H";
    EXPECT_TRUE(got.col_e == want.col_e) << "column E";
}

// The window's cells of the whole matrices.
WindowValues cut(const DpResult& m, Window w, bool affine) {
    WindowValues v;
    v.w = w;
    auto take = [&](const auto& g, auto& out) {
        out.reset(w.rows(), w.cols(), {});
        for (int32_t i = w.i0; i < w.i1; ++i)
            for (int32_t j = w.j0; j < w.j1; ++j) out.at(i - w.i0, j - w.j0) = g.at(i, j);
    };
    take(m.H, v.H);
    take(m.dirs, v.dirs);
    if (affine) {
        take(m.E, v.E);
        take(m.F, v.F);
    }
    return v;
}

void expect_same_window(const WindowValues& got, const WindowValues& want) {
    EXPECT_EQ(got.w, want.w);
    EXPECT_EQ(first_difference(got.H, want.H), "") << "H";
    EXPECT_EQ(first_difference(got.E, want.E), "") << "E";
    EXPECT_EQ(first_difference(got.F, want.F), "") << "F";
    EXPECT_EQ(first_difference(got.dirs, want.dirs), "") << "direction bits";
}

Window random_window(std::mt19937& rng, int32_t M, int32_t N) {
    std::uniform_int_distribution<int32_t> ri(0, M), rj(0, N);
    int32_t a = ri(rng), b = ri(rng), c = rj(rng), d = rj(rng);
    if (a > b) std::swap(a, b);
    if (c > d) std::swap(c, d);
    return {a, b + 1, c, d + 1};
}

// The fast CPU fill keeps exactly the checkpoints the reference's matrices imply; windows
// recomputed from them equal the reference's cells; the checkpointed path equals the reference's.
TEST(ResultStore, CheckpointsWindowsAndPathMatchTheReference) {
    std::mt19937 rng(20261201);
    const int32_t spacings[] = {1, 3, 16, 37, 64};
    for (const Kind& kind : kKinds) {
        for (int round = 0; round < 6; ++round) {
            const int m = 1 + int(rng() % 150), n = 1 + int(rng() % 170);
            const Problem p = random_problem(rng, kind, m, n);
            const int32_t K = spacings[rng() % std::size(spacings)];
            const std::string where = std::string(kind.name) + " " + std::to_string(m) + "x" + std::to_string(n) +
                                      " K=" + std::to_string(K) + " round " + std::to_string(round);
            SCOPED_TRACE(where);
            const DpResult ref = align_reference(p);
            const unsigned threads = 1 + rng() % 3;
            Expected<DpResult> got = align_cpu_checkpoints(p, K, threads, RunControl{});
            ASSERT_TRUE(got) << got.error().message;
            ASSERT_TRUE(got->checkpoints);
            expect_same_checkpoints(*got->checkpoints, checkpoints_from_matrix(p, ref, K));
            EXPECT_EQ(got->score, ref.score);
            EXPECT_EQ(got->end, ref.end);
            EXPECT_TRUE(got->dirs.empty());
            EXPECT_TRUE(got->path == ref.path) << "path of " << got->path.size() << " cells, want " << ref.path.size();
            EXPECT_EQ(got->alignment.cigar, ref.alignment.cigar);
            EXPECT_EQ(got->alignment.query_row, ref.alignment.query_row);
            EXPECT_EQ(got->alignment.target_row, ref.alignment.target_row);
            for (int k = 0; k < 8; ++k) {
                const Window w = random_window(rng, p.rows(), p.cols());
                SCOPED_TRACE("window rows [" + std::to_string(w.i0) + "," + std::to_string(w.i1) + ") columns [" +
                             std::to_string(w.j0) + "," + std::to_string(w.j1) + ")");
                expect_same_window(compute_window(p, *got->checkpoints, w), cut(ref, w, p.affine()));
            }
        }
    }
}

// The overview the fill pools equals the one the reference's whole H implies, for every
// algorithm, block size (narrower and wider than a band of lanes), thread count and instruction
// set's pool (it runs on the kernel's chunks of steps: the longer rows cross several).
TEST(ResultStore, OverviewPooledByTheFillMatchesTheReference) {
    std::mt19937 rng(42);
    const int32_t blocks[] = {1, 3, 7, 16, 50};
    for (const char* isa : {"sse2", "avx2", "avx512"}) {
        setenv("DPVIZ_CPU_ISA", isa, 1);
        for (const Kind& kind : kKinds) {
            for (int round = 0; round < 4; ++round) {
                const int m = 1 + int(rng() % 200), n = 1 + int(rng() % (round % 2 ? 900 : 210));
                const Problem p = random_problem(rng, kind, m, n);
                const int32_t B = blocks[rng() % std::size(blocks)];
                SCOPED_TRACE(std::string(isa) + " " + kind.name + " " + std::to_string(m) + "x" + std::to_string(n) +
                             " B=" + std::to_string(B));
                const DpResult ref = align_reference(p);
                Expected<DpResult> got = align_cpu_checkpoints(p, 64, 1 + rng() % 3, RunControl{}, B);
                ASSERT_TRUE(got) << got.error().message;
                ASSERT_TRUE(got->overview);
                const Overview want = overview_from_matrix(p, ref.H, B);
                const Overview& o = *got->overview;
                EXPECT_EQ(o.block, B);
                EXPECT_EQ(first_difference(o.H, want.H), "");
                EXPECT_EQ(o.min, want.min);
                EXPECT_EQ(o.max, want.max);
                EXPECT_EQ(o.any_finite, want.any_finite);
                EXPECT_EQ(o.any_unreachable, want.any_unreachable);
                // The path in texels: one move (or none) between neighbours, inside the grid.
                const std::vector<Cell> path = overview_path(o, got->path);
                ASSERT_FALSE(path.empty());
                EXPECT_EQ(path.back(), (Cell{ref.end.i / B, ref.end.j / B}));
                for (size_t k = 1; k < path.size(); ++k) {
                    EXPECT_LE(path[k].i - path[k - 1].i, 1);
                    EXPECT_LE(path[k].j - path[k - 1].j, 1);
                    EXPECT_FALSE(path[k] == path[k - 1]);
                }
            }
        }
    }
    unsetenv("DPVIZ_CPU_ISA");
    EXPECT_EQ(overview_block(random_problem(rng, kKinds[0], 4095, 20), 2048), 2);
    EXPECT_EQ(overview_block(random_problem(rng, kKinds[0], 4096, 20), 2048), 3);
    // Past 120 cells, multiples of 8 (the one-pair GPU kernel's texel columns): 120 stays, 121 and
    // 151 round up, and the overview still fits the side.
    EXPECT_EQ(overview_block(random_problem(rng, kKinds[0], 23999, 20), 200), 120);
    EXPECT_EQ(overview_block(random_problem(rng, kKinds[0], 24000, 20), 200), 128);
    const Problem big = random_problem(rng, kKinds[0], 30000, 20);
    const int32_t b = overview_block(big, 200);
    EXPECT_EQ(b, 152);
    EXPECT_LE(std::max(big.rows(), big.cols()) / b + 1, 200);
}

// Lines shifted by a phase (the landscape's backward fill): the fill keeps the lines the
// reference implies, and windows and the path from them are exact.
TEST(ResultStore, PhasedLinesAreExactToo) {
    std::mt19937 rng(5);
    for (const Kind& kind : kKinds) {
        const int m = 20 + int(rng() % 120), n = 20 + int(rng() % 120);
        const Problem p = random_problem(rng, kind, m, n);
        const int32_t K = 4 + int32_t(rng() % 29), rp = int32_t(rng() % K), cp = int32_t(rng() % K);
        SCOPED_TRACE(std::string(kind.name) + " K=" + std::to_string(K) + " phases " + std::to_string(rp) + "," +
                     std::to_string(cp));
        const DpResult ref = align_reference(p);
        Expected<Checkpoints> got = fill_checkpoints(p, K, 2, RunControl{}, rp, cp);
        ASSERT_TRUE(got) << got.error().message;
        expect_same_checkpoints(*got, checkpoints_from_matrix(p, ref, K, rp, cp));
        EXPECT_TRUE(traceback_checkpoints(p, *got, ref.end) == ref.path);
        for (int k = 0; k < 6; ++k) {
            const Window w = random_window(rng, p.rows(), p.cols());
            expect_same_window(compute_window(p, *got, w), cut(ref, w, p.affine()));
        }
    }
}

// Windows at the matrix's edges and corners, on checkpoint lines, one cell wide, whole, and
// clipped when they reach past the matrix.
TEST(ResultStore, WindowsAtEdgesAndOnCheckpointLines) {
    std::mt19937 rng(7);
    for (const Kind& kind : kKinds) {
        SCOPED_TRACE(kind.name);
        const Problem p = random_problem(rng, kind, 97, 83);
        const DpResult ref = align_reference(p);
        const int32_t K = 16, M = p.rows(), N = p.cols();
        const Checkpoints c = checkpoints_from_matrix(p, ref, K);
        const Window windows[] = {
            {0, M + 1, 0, N + 1}, {0, 1, 0, N + 1}, {0, M + 1, 0, 1},  {M, M + 1, N, N + 1}, {16, 17, 16, 17},
            {15, 18, 31, 34},     {32, 48, 0, 16},  {0, 16, 64, N + 1}, {M - 5, M + 1, 3, 9},  {1, 2, 1, 2},
        };
        for (const Window& w : windows) {
            SCOPED_TRACE("rows [" + std::to_string(w.i0) + "," + std::to_string(w.i1) + ") columns [" +
                         std::to_string(w.j0) + "," + std::to_string(w.j1) + ")");
            expect_same_window(compute_window(p, c, w), cut(ref, w, p.affine()));
        }
        const WindowValues clipped = compute_window(p, c, {M - 2, M + 40, N - 3, N + 9});
        EXPECT_EQ(clipped.w, (Window{M - 2, M + 1, N - 3, N + 1}));
        expect_same_window(clipped, cut(ref, clipped.w, p.affine()));
        EXPECT_TRUE(compute_window(p, c, {5, 5, 0, 9}).H.empty());
    }
}

// Long paths across many tiles and bands, every instruction set's kernel.
TEST(ResultStore, LongPathsAcrossManyTilesEveryKernel) {
    std::mt19937 rng(99);
    for (const char* isa : {"sse2", "avx2", "avx512"}) {
        setenv("DPVIZ_CPU_ISA", isa, 1);
        for (const Kind& kind : kKinds) {
            SCOPED_TRACE(std::string(isa) + " " + kind.name);
            const Problem p = random_problem(rng, kind, 600, 577);
            const DpResult ref = align_cpu(p, OutputLevel::path, 2);
            Expected<DpResult> got = align_cpu_checkpoints(p, 32, 2, RunControl{});
            ASSERT_TRUE(got) << got.error().message;
            EXPECT_EQ(got->score, ref.score);
            EXPECT_TRUE(got->path == ref.path) << "path of " << got->path.size() << " cells, want " << ref.path.size();
            EXPECT_EQ(got->alignment.cigar, ref.alignment.cigar);
        }
    }
    unsetenv("DPVIZ_CPU_ISA");
}

// The spacing is the smallest power of two from kMinCheckpointSpacing whose checkpoints fit.
TEST(ResultStore, SpacingIsTheSmallestThatFits) {
    std::mt19937 rng(3);
    const Problem p = random_problem(rng, kKinds[1], 20000, 20000);
    const uint64_t at256 = checkpoint_bytes(p, 256);
    EXPECT_EQ(at256, uint64_t(2) * 4 * (78 * 20001 * 2));  // 78 lines each way, H and F/E
    EXPECT_EQ(choose_checkpoint_spacing(p, at256 + traceback_tile_bytes(p, 256)), 256);
    EXPECT_EQ(choose_checkpoint_spacing(p, at256), 512);
    EXPECT_EQ(choose_checkpoint_spacing(p, 1000), 0);
    EXPECT_LT(checkpoint_bytes(p, 512), at256 / 2 + 1);
    // A device's own choice: the finest that fits its memory, the coarsest when none does.
    const auto fits = [&](uint64_t budget) { return [&, budget](int32_t k) { return checkpoint_bytes(p, k) <= budget; }; };
    EXPECT_EQ(finest_device_spacing(fits(at256)), 256);
    EXPECT_EQ(finest_device_spacing(fits(at256 - 1)), 512);
    EXPECT_EQ(finest_device_spacing(fits(0)), kMaxCheckpointSpacing);
}

// align() traces over checkpoints from kCheckpointPathCells on and when the bits do not fit the
// memory; the result is the one the direction bits give.
TEST(ResultStore, AlignTracesOverCheckpointsWhenBigOrShortOfMemory) {
    std::mt19937 rng(11);
    const Problem big = random_problem(rng, kKinds[1], 8300, 8200);
    ASSERT_GE(int64_t(big.rows() + 1) * (big.cols() + 1), kCheckpointPathCells);
    AlignOptions opt;
    opt.backend = Backend::cpu;
    Expected<DpResult> store = align(big, opt);
    opt.path_memory = PathMemory::direction_bits;
    Expected<DpResult> bits = align(big, opt);
    ASSERT_TRUE(store && bits);
    ASSERT_TRUE(store->checkpoints);
    EXPECT_EQ(store->checkpoints->spacing, kMinCheckpointSpacing);
    EXPECT_TRUE(store->dirs.empty());
    EXPECT_FALSE(bits->checkpoints);
    EXPECT_EQ(store->score, bits->score);
    EXPECT_TRUE(store->path == bits->path) << "path of " << store->path.size() << " cells, want " << bits->path.size();
    EXPECT_EQ(store->alignment.cigar, bits->alignment.cigar);

    // Level matrix with an overview: the store and the pooled H in place of the matrices.
    AlignOptions pic;
    pic.backend = Backend::cpu;
    pic.level = OutputLevel::matrix;
    pic.overview_side = 1024;
    Expected<DpResult> overview = align(big, pic);
    ASSERT_TRUE(overview) << overview.error().message;
    EXPECT_TRUE(overview->H.empty());
    ASSERT_TRUE(overview->overview);
    EXPECT_EQ(overview->overview->block, overview_block(big, 1024));
    EXPECT_LE(overview->overview->H.rows, 1024);
    EXPECT_TRUE(overview->path == bits->path);

    // Small, but the bits do not fit: the checkpoints do.
    const Problem small = random_problem(rng, kKinds[0], 3000, 2900);
    AlignOptions tight;
    tight.backend = Backend::cpu;
    tight.memory_limit = estimate_host_bytes(small, OutputLevel::path) - 1;
    ASSERT_LT(estimate_checkpoint_path_bytes(small, kMinCheckpointSpacing), *tight.memory_limit);
    Expected<DpResult> fits = align(small, tight);
    ASSERT_TRUE(fits) << fits.error().message;
    ASSERT_TRUE(fits->checkpoints);
    EXPECT_EQ(fits->path, align_cpu(small, OutputLevel::path, 1).path);

    // Nothing fits: a resource error that says what the checkpoints would need.
    tight.memory_limit = estimate_host_bytes(small, OutputLevel::score);
    Expected<DpResult> none = align(small, tight);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().kind, ErrorKind::resource);
    EXPECT_NE(none.error().message.find("checkpoints every"), std::string::npos) << none.error().message;
    EXPECT_NE(none.error().message.find("--score-only"), std::string::npos) << none.error().message;
    // The GUI's refusal names no command-line flag.
    tight.hints = HintStyle::gui;
    Expected<DpResult> gui = align(small, tight);
    ASSERT_FALSE(gui);
    EXPECT_EQ(gui.error().message.find("--"), std::string::npos) << gui.error().message;
    EXPECT_NE(gui.error().message.find("score only"), std::string::npos) << gui.error().message;
}

}  // namespace
}  // namespace dpviz
