// Cell explanations (candidates and winners from the bits), the mask of cells on any optimal
// path, table arrows, and path lookup, on small literal cases.
#include <gtest/gtest.h>

#include <algorithm>

#include "dpviz/engine.hpp"
#include "gui/cell_inspect.hpp"

namespace dpviz::gui {
namespace {

Problem problem(Algorithm a, const std::string& q, const std::string& t, int open, int extend, int match = 1,
                int mismatch = -1) {
    ScoringOptions s;
    s.match = match;
    s.mismatch = mismatch;
    s.gaps = {open, extend};
    auto p = make_problem(a, {"q", q}, {"t", t}, s);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

MatrixRefs refs(const DpResult& r) { return {&r.H, &r.E, &r.F, &r.dirs}; }

TEST(CellInspect, LinearCandidatesAndWinner) {
    const Problem p = problem(Algorithm::global, "AC", "AC", 2, 2);
    const DpResult r = align_reference(p);
    const CellExplain x = explain_cell(p, refs(r), {2, 2});
    EXPECT_EQ(x.query_residue, 'C');
    EXPECT_EQ(x.target_residue, 'C');
    EXPECT_EQ(x.h, 2);
    ASSERT_EQ(x.h_candidates.size(), 3u);
    EXPECT_EQ(x.h_candidates[0].value, 2);   // H[1][1] + s = 1 + 1
    EXPECT_TRUE(x.h_candidates[0].won);
    EXPECT_EQ(x.h_candidates[1].value, -3);  // H[1][2] - 2 = -1 - 2
    EXPECT_FALSE(x.h_candidates[1].won);
    EXPECT_EQ(x.h_candidates[2].value, -3);
    // Every winner equals H; no loser does.
    for (const auto& c : x.h_candidates) EXPECT_EQ(c.won, c.value == x.h);
}

TEST(CellInspect, AffineCandidatesMatchTheMatricesEverywhere) {
    const Problem p = problem(Algorithm::local, "HEAGAWGHEE", "PAWHEAE", 5, 1, 3, -2);
    const DpResult r = align_reference(p);
    for (int i = 1; i < r.H.rows; ++i)
        for (int j = 1; j < r.H.cols; ++j) {
            const CellExplain x = explain_cell(p, refs(r), {i, j});
            ASSERT_TRUE(x.e && x.f);
            int32_t best = kNegInf;
            for (const auto& c : x.h_candidates) best = std::max(best, c.value);
            EXPECT_EQ(best, x.h) << i << "," << j;
            for (const auto& c : x.h_candidates) EXPECT_EQ(c.won, c.value == x.h)
                << i << "," << j << " " << c.label;
            int32_t e = kNegInf, f = kNegInf;
            for (const auto& c : x.e_candidates) e = std::max(e, c.value);
            for (const auto& c : x.f_candidates) f = std::max(f, c.value);
            EXPECT_EQ(e, *x.e);
            EXPECT_EQ(f, *x.f);
        }
}

TEST(CellInspect, OptimalMaskHoldsEveryCoOptimalPath) {
    // "AA" vs "A": two equally good global alignments (A- and -A); both paths are optimal.
    const Problem p = problem(Algorithm::global, "AA", "A", 1, 1);
    const DpResult r = align_reference(p);
    const Grid<uint8_t> m = optimal_mask(p, refs(r), r.score);
    for (const Cell c : r.path) EXPECT_EQ(m.at(c.i, c.j), 1) << c.i << "," << c.j;
    EXPECT_EQ(m.at(1, 1), 1);  // A aligned to the first A
    EXPECT_EQ(m.at(2, 1), 1);
    EXPECT_EQ(m.at(1, 0), 1);  // leading gap, then A to the second A
    EXPECT_EQ(m.at(0, 1), 0);  // would cost two gaps
}

TEST(CellInspect, OptimalMaskCoversThePathForEveryAlgorithm) {
    for (const Algorithm a : {Algorithm::local, Algorithm::global, Algorithm::semiglobal, Algorithm::edit, Algorithm::lcs,
                              Algorithm::glocal}) {
        for (const int open : {2, 5}) {
            const Problem p = problem(a, "GATTACAGATTACA", "GCATGCTACA", open, 1, 2, -1);
            const DpResult r = align_reference(p);
            const Grid<uint8_t> m = optimal_mask(p, refs(r), r.score);
            for (const Cell c : r.path) EXPECT_EQ(m.at(c.i, c.j), 1) << algorithm_name(a) << " " << c.i << "," << c.j;
            const auto on = std::count(m.data.begin(), m.data.end(), uint8_t(1));
            EXPECT_LT(on, int64_t(m.data.size()));  // not everything
        }
    }
    SignalInput q{"a", {0, 1, 2, 3, 2, 1}}, t{"b", {0, 2, 3, 1}};
    auto p = make_dtw_problem(q, t, {});
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    const Grid<uint8_t> m = optimal_mask(*p, refs(r), r.score);
    for (const Cell c : r.path) EXPECT_EQ(m.at(c.i, c.j), 1);
}

TEST(CellInspect, ArrowsFollowTheBits) {
    const Problem p = problem(Algorithm::local, "A", "A", 1, 1);
    const CellArrows a = arrows_of(p, dir::kDiag | dir::kLeft | dir::kZero, LayerKind::H);
    EXPECT_TRUE(a.diag);
    EXPECT_FALSE(a.up);
    EXPECT_TRUE(a.left);
    EXPECT_TRUE(a.stop);
    EXPECT_TRUE(arrows_of(p, dir::kEExtend, LayerKind::E).left);
    EXPECT_FALSE(arrows_of(p, dir::kEExtend, LayerKind::F).up);
}

TEST(CellInspect, PathIndex) {
    const std::vector<Cell> path = {{0, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 3}};
    EXPECT_EQ(path_index(path, {1, 2}), 2);
    EXPECT_EQ(path_index(path, {3, 3}), 4);
    EXPECT_FALSE(path_index(path, {2, 2}));
}

}  // namespace
}  // namespace dpviz::gui
