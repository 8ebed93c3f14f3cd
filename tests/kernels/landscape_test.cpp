// The alignment landscape (dpviz/store.hpp) against its definition: on small pairs, every path of
// the DP graph enumerated and scored on its own, the best through each node (each cell for DTW);
// on larger pairs, windows and the overview against the landscape of whole matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "kernels/result_compare.hpp"

namespace dpviz {
namespace {

using test::first_difference;

// The best score of every path (by the algorithm's start and end rules) through each node,
// by enumeration: no recurrence involved.
Grid<int32_t> brute_landscape(const Problem& p) {
    const int M = p.rows(), N = p.cols();
    const bool low = minimizes(p.algo);
    Grid<int32_t> best;
    best.reset(M + 1, N + 1, low ? kPosInf : kNegInf);
    auto offer = [&](const std::vector<Cell>& nodes, int64_t score) {
        for (const Cell c : nodes) {
            int32_t& b = best.at(c.i, c.j);
            b = low ? std::min<int64_t>(b, score) : std::max<int64_t>(b, score);
        }
    };
    if (p.algo == Algorithm::dtw) {
        std::vector<Cell> cells;
        std::function<void(int, int, int64_t)> walk = [&](int i, int j, int64_t cost) {
            if (!p.in_band(i, j)) return;
            cells.push_back({i, j});
            cost += p.dtw_local_cost(i, j);
            if (i == M && j == N) offer(cells, cost);
            if (i < M && j < N) walk(i + 1, j + 1, cost);
            if (i < M) walk(i + 1, j, cost);
            if (j < N) walk(i, j + 1, cost);
            cells.pop_back();
        };
        walk(1, 1, 0);
        return best;
    }
    const AlgorithmRules rules = rules_of(p.algo);
    auto may_start = [&](int i, int j) {
        switch (p.algo) {
            case Algorithm::local: return true;
            case Algorithm::semiglobal: return i == 0 || j == 0;
            case Algorithm::glocal: return i == 0;
            default: return i == 0 && j == 0;
        }
    };
    auto may_end = [&](int i, int j) { return end_candidate(rules.end, i, j, M, N) || (p.algo == Algorithm::local); };
    // Move scores: diagonal by the algorithm, gaps by runs (open, then extend).
    const bool edit = p.algo == Algorithm::edit, lcs = p.algo == Algorithm::lcs;
    std::vector<Cell> nodes;
    std::function<void(int, int, int, int64_t)> walk = [&](int i, int j, int last, int64_t score) {
        nodes.push_back({i, j});
        if (may_end(i, j)) offer(nodes, score);
        if (i < M && j < N) {
            const bool same = p.query_codes[i] == p.target_codes[j];
            if (edit) walk(i + 1, j + 1, 0, score + (same ? 0 : 1));
            else if (lcs) { if (same) walk(i + 1, j + 1, 0, score + 1); }
            else walk(i + 1, j + 1, 0, score + p.sub(i + 1, j + 1));
        }
        for (const int dir : {1, 2}) {  // 1: down (a query residue against a gap), 2: right
            const int ni = i + (dir == 1), nj = j + (dir == 2);
            if (ni > M || nj > N) continue;
            int64_t step = edit ? 1 : lcs ? 0 : -(last == dir ? p.gaps.extend : p.gaps.open);
            walk(ni, nj, dir, score + step);
        }
        nodes.pop_back();
    };
    for (int i = 0; i <= M; ++i)
        for (int j = 0; j <= N; ++j)
            if (may_start(i, j)) walk(i, j, 0, 0);
    return best;
}

Problem small_problem(std::mt19937& rng, Algorithm algo, bool affine, int m, int n) {
    if (algo == Algorithm::dtw) {
        std::uniform_real_distribution<double> u(-2.0, 2.0);
        std::vector<double> q(static_cast<size_t>(m)), t(static_cast<size_t>(n));
        for (double& x : q) x = u(rng);
        for (double& x : t) x = u(rng);
        ScoringOptions s;
        s.band = affine ? 1 : -1;  // `affine` stands for a band here
        s.dtw_scale = 16;
        auto p = make_dtw_problem({"q", q}, {"t", t}, s);
        EXPECT_TRUE(p) << (p ? "" : p.error().message);
        return *p;
    }
    std::string q, t;
    for (int k = 0; k < m; ++k) q += "ACG"[rng() % 3];
    for (int k = 0; k < n; ++k) t += "ACG"[rng() % 3];
    ScoringOptions s;
    s.match = 3;
    s.mismatch = -2;
    s.gaps = affine ? GapPenalties{4, 1} : GapPenalties{2, 2};
    auto p = make_problem(algo, {"q", q}, {"t", t}, s);
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return *p;
}

struct Kind {
    Algorithm algo;
    bool affine;
};
const Kind kKinds[] = {{Algorithm::local, false},  {Algorithm::local, true},      {Algorithm::global, false},
                       {Algorithm::global, true},  {Algorithm::semiglobal, false}, {Algorithm::semiglobal, true},
                       {Algorithm::glocal, false}, {Algorithm::glocal, true},     {Algorithm::edit, false},
                       {Algorithm::lcs, false},    {Algorithm::dtw, false},       {Algorithm::dtw, true}};

std::string name_of(const Kind& k) {
    return std::string(algorithm_name(k.algo)) + (k.affine ? (k.algo == Algorithm::dtw ? " banded" : " affine") : "");
}

TEST(Landscape, EqualsTheBestPathThroughEachNodeByEnumeration) {
    std::mt19937 rng(2026);
    for (const Kind& kind : kKinds) {
        for (int round = 0; round < 5; ++round) {
            const int m = 1 + int(rng() % 4), n = 1 + int(rng() % 4);
            const Problem p = small_problem(rng, kind.algo, kind.affine, m, n);
            SCOPED_TRACE(name_of(kind) + " " + std::to_string(m) + "x" + std::to_string(n) + " round " +
                         std::to_string(round));
            const int32_t K = 1 + int32_t(rng() % 3);
            Expected<Checkpoints> fwd = fill_checkpoints(p, K, 1, RunControl{});
            ASSERT_TRUE(fwd) << fwd.error().message;
            Expected<LandscapeSource> src = landscape_source(p, K, 1, RunControl{}, &*fwd);
            ASSERT_TRUE(src) << src.error().message;
            const WindowValues got = landscape_window(*src, {0, m + 1, 0, n + 1});
            const Grid<int32_t> want = brute_landscape(p);
            EXPECT_EQ(first_difference(got.H, want), "");
            // Its optimum is the alignment's score.
            const DpResult ref = align_reference(p);
            int32_t opt = minimizes(p.algo) ? kPosInf : kNegInf;
            for (const int32_t v : got.H.data) opt = minimizes(p.algo) ? std::min(opt, v) : std::max(opt, v);
            if (!(p.algo == Algorithm::dtw && ref.score >= kPosInf)) EXPECT_EQ(opt, ref.score);
        }
    }
}

// Larger pairs: any window, and the pooled overview, against the landscape of the whole matrix.
TEST(Landscape, WindowsAndOverviewAgreeWithTheWholeLandscape) {
    std::mt19937 rng(77);
    for (const Kind& kind : kKinds) {
        const int m = 40 + int(rng() % 60), n = 40 + int(rng() % 60);
        const Problem p = small_problem(rng, kind.algo, kind.affine, m, n);
        SCOPED_TRACE(name_of(kind));
        Expected<Checkpoints> fwd = fill_checkpoints(p, 16, 2, RunControl{});
        ASSERT_TRUE(fwd);
        Expected<LandscapeSource> src = landscape_source(p, 16, 2, RunControl{}, &*fwd);
        ASSERT_TRUE(src);
        const WindowValues whole = landscape_window(*src, {0, m + 1, 0, n + 1});
        for (int k = 0; k < 6; ++k) {
            int32_t a = int32_t(rng() % (m + 1)), b = int32_t(rng() % (m + 1)), c = int32_t(rng() % (n + 1)),
                    d = int32_t(rng() % (n + 1));
            if (a > b) std::swap(a, b);
            if (c > d) std::swap(c, d);
            const WindowValues w = landscape_window(*src, {a, b + 1, c, d + 1});
            for (int32_t i = a; i <= b; ++i)
                for (int32_t j = c; j <= d; ++j) ASSERT_EQ(w.H.at(i - a, j - c), whole.H.at(i, j)) << i << "," << j;
        }
        for (const int32_t B : {1, 7, 32}) {
            const Overview o = landscape_overview(*src, B, 3);
            Overview want = empty_overview(p, B);
            for (int32_t i = 0; i <= m; ++i)
                for (int32_t j = 0; j <= n; ++j) pool_into(want, i, j, whole.H.at(i, j));
            EXPECT_EQ(first_difference(o.H, want.H), "") << "B=" << B;
            EXPECT_EQ(o.min, want.min);
            EXPECT_EQ(o.max, want.max);
        }
    }
}

// The GUI builds a big overview on a thread it may abandon: progress on the calling thread,
// rising to 1, and a cancel that stops the tiles.
TEST(Landscape, OverviewReportsProgressAndStopsWhenCancelled) {
    std::mt19937 rng(5);
    const Problem p = small_problem(rng, Algorithm::global, true, 150, 130);
    Expected<Checkpoints> fwd = fill_checkpoints(p, 16, 2, RunControl{});
    ASSERT_TRUE(fwd);
    Expected<LandscapeSource> src = landscape_source(p, 16, 2, RunControl{}, &*fwd);
    ASSERT_TRUE(src);
    std::vector<double> seen;
    std::atomic<bool> cancel{false};
    RunControl control{&cancel, [&](double f) { seen.push_back(f); }};
    const Overview all = landscape_overview(*src, 7, 3, control);
    ASSERT_GE(seen.size(), 2u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_GE(seen.front(), 0.0);
    EXPECT_LT(seen.front(), 1.0);
    EXPECT_EQ(seen.back(), 1.0);
    EXPECT_EQ(first_difference(all.H, landscape_overview(*src, 7, 1).H), "");
    seen.clear();
    cancel = true;
    const Overview none = landscape_overview(*src, 7, 3, control);
    EXPECT_FALSE(none.any_finite);  // no tile was pooled
    EXPECT_TRUE(seen.empty());
}

}  // namespace
}  // namespace dpviz
