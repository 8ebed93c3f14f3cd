// Cell explanations (candidates and winners from the bits), the mask of cells on any optimal
// path, table arrows, and path lookup, on small literal cases.
#include <gtest/gtest.h>

#include <algorithm>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
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

// Viterbi with two states that are the same: every path through them is most likely, so the
// mask holds both rows of every column; the reported path takes the lowest state (row 1).
TEST(CellInspect, ViterbiMaskHoldsEveryTiedStatePath) {
    auto m = make_hmm("twins", {"A", "B"}, "xy", {0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0.9, 0.1, 0.9, 0.1});
    ASSERT_TRUE(m) << m.error().message;
    auto p = make_viterbi_problem(std::make_shared<const Hmm>(*m), {"obs", "xyxx"}, {0, 1, 0, 0});
    ASSERT_TRUE(p) << p.error().message;
    const DpResult r = align_reference(*p);
    const MatrixRefs refs{&r.H, &r.E, &r.F, &r.dirs, {}, &r.back};
    const Grid<uint8_t> mask = optimal_mask(*p, refs, r.score);
    ASSERT_EQ(mask.rows, 3);
    ASSERT_EQ(mask.cols, 5);
    EXPECT_EQ(mask.at(0, 0), 1);
    for (int t = 1; t <= 4; ++t) {
        EXPECT_EQ(mask.at(0, t), 0) << t;  // the begin state only before the first observation
        EXPECT_EQ(mask.at(1, t), 1) << t;
        EXPECT_EQ(mask.at(2, t), 1) << t;
        EXPECT_EQ(r.path[size_t(t)], (Cell{1, t}));
    }
    // One candidate per predecessor, the winner the backpointer (row 1: ties go to the lowest).
    const CellExplain x = explain_cell(*p, refs, {2, 3});
    EXPECT_EQ(x.state, "B");
    EXPECT_EQ(x.target_residue, 'x');
    ASSERT_EQ(x.h_candidates.size(), 2u);
    EXPECT_EQ(x.h_candidates[0].value, x.h_candidates[1].value);
    EXPECT_TRUE(x.h_candidates[0].won);
    EXPECT_FALSE(x.h_candidates[1].won);
    ASSERT_TRUE(x.back);
    EXPECT_EQ(*x.back, 1);
    // A model where B cannot emit y: the mask leaves it out of that column.
    auto strict = make_hmm("strict", {"A", "B"}, "xy", {0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}, {0.9, 0.1, 1.0, 0.0});
    ASSERT_TRUE(strict);
    auto q = make_viterbi_problem(std::make_shared<const Hmm>(*strict), {"obs", "xyx"}, {0, 1, 0});
    ASSERT_TRUE(q);
    const DpResult rq = align_reference(*q);
    const Grid<uint8_t> mq = optimal_mask(*q, {&rq.H, &rq.E, &rq.F, &rq.dirs, {}, &rq.back}, rq.score);
    EXPECT_EQ(mq.at(2, 2), 0);
    EXPECT_EQ(mq.at(1, 2), 1);
    EXPECT_EQ(term_text(rq.H.at(2, 2)), "-inf");
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
    // A Viterbi path: one cell per column, jumping rows both ways.
    const std::vector<Cell> states = {{0, 0}, {2, 1}, {1, 2}, {3, 3}, {1, 4}};
    for (size_t k = 0; k < states.size(); ++k) EXPECT_EQ(path_index(states, states[k]), int(k));
    EXPECT_FALSE(path_index(states, {1, 1}));
    EXPECT_FALSE(path_index(states, {2, 3}));
}

}  // namespace
}  // namespace dpviz::gui
