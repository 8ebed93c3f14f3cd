// Literal-matrix fixtures: whole H (E, F) and direction tables for small cases of every
// algorithm, written out in fixture_tables.inc, checked against the reference and the fast CPU backend.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"

namespace dpviz {
namespace {

using Table = std::vector<std::vector<int64_t>>;
using Signal = std::vector<double>;

struct Fixture {
    const char* name;
    Algorithm algo;
    std::string query, target;
    std::vector<double> query_signal, target_signal;
    int32_t match, mismatch, gap_open, gap_extend, band;
    Table H, E, F, dirs;
};

Fixture make(const char* name, Algorithm algo, std::string q, std::string t, int32_t match, int32_t mismatch,
             int32_t go, int32_t ge, int32_t band, Table H, Table E, Table F, Table D) {
    return {name, algo, std::move(q), std::move(t), {}, {}, match, mismatch, go, ge, band, H, E, F, D};
}
Fixture make(const char* name, Algorithm algo, std::vector<double> q, std::vector<double> t, int32_t match,
             int32_t mismatch, int32_t go, int32_t ge, int32_t band, Table H, Table E, Table F, Table D) {
    return {name, algo, "", "", std::move(q), std::move(t), match, mismatch, go, ge, band, H, E, F, D};
}

const std::vector<Fixture>& fixtures() {
    static const std::vector<Fixture> all = {
#include "fixture_tables.inc"
    };
    return all;
}

Problem problem_of(const Fixture& f) {
    ScoringOptions s;
    s.match = f.match;
    s.mismatch = f.mismatch;
    s.gaps = {f.gap_open, f.gap_extend};
    s.band = f.band;
    if (f.algo == Algorithm::dtw) {
        s.dtw_scale = 1.0;  // integer signals: the fixed point is exact
        auto p = make_dtw_problem({"q", f.query_signal}, {"t", f.target_signal}, s);
        EXPECT_TRUE(p) << p.error().message;
        return *p;
    }
    auto p = make_problem(f.algo, {"q", f.query}, {"t", f.target}, s);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

template <class T>
void expect_table(const Grid<T>& g, const Table& want, const std::string& what) {
    if (want.empty()) {
        EXPECT_TRUE(g.empty()) << what << " should not be stored";
        return;
    }
    ASSERT_EQ(g.rows, static_cast<int32_t>(want.size())) << what;
    for (int32_t i = 0; i < g.rows; ++i) {
        ASSERT_EQ(g.cols, static_cast<int32_t>(want[i].size())) << what;
        for (int32_t j = 0; j < g.cols; ++j) EXPECT_EQ(int64_t(g.at(i, j)), want[i][j]) << what << " at (" << i << "," << j << ")";
    }
}

class FixtureTest : public ::testing::TestWithParam<size_t> {};

TEST_P(FixtureTest, ReferenceMatchesLiteralTables) {
    const Fixture& f = fixtures()[GetParam()];
    SCOPED_TRACE(f.name);
    const DpResult r = align_reference(problem_of(f));
    expect_table(r.H, f.H, "H");
    expect_table(r.E, f.E, "E");
    expect_table(r.F, f.F, "F");
    expect_table(r.dirs, f.dirs, "dirs");
}

TEST_P(FixtureTest, CpuBackendMatchesLiteralTables) {
    const Fixture& f = fixtures()[GetParam()];
    SCOPED_TRACE(f.name);
    const DpResult r = align_cpu(problem_of(f), OutputLevel::matrix, 2);
    expect_table(r.H, f.H, "H");
    expect_table(r.E, f.E, "E");
    expect_table(r.F, f.F, "F");
    expect_table(r.dirs, f.dirs, "dirs");
}

INSTANTIATE_TEST_SUITE_P(Tables, FixtureTest, ::testing::Range<size_t>(0, fixtures().size()),
                         [](const auto& info) { return std::string(fixtures()[info.param].name); });

const Fixture& named(const std::string& n) {
    for (const auto& f : fixtures())
        if (n == f.name) return f;
    throw std::runtime_error("no fixture " + n);
}

// The alignment's residue spans: 0-based, ends exclusive.
void expect_spans(const DpResult& r, int32_t query_begin, int32_t query_end, int32_t target_begin, int32_t target_end) {
    EXPECT_EQ(r.alignment.query_begin, query_begin);
    EXPECT_EQ(r.alignment.query_end, query_end);
    EXPECT_EQ(r.alignment.target_begin, target_begin);
    EXPECT_EQ(r.alignment.target_end, target_end);
}

// Scores and alignments known from the literature, checked by hand.
TEST(Literature, SmithWatermanWikipedia) {
    const Problem p = problem_of(named("wikipedia_sw"));
    const DpResult r = align_reference(p);
    EXPECT_EQ(r.score, 13);
    EXPECT_EQ(r.alignment.query_row, "GTT-AC");
    EXPECT_EQ(r.alignment.target_row, "GTTGAC");
    EXPECT_EQ(r.alignment.cigar, "3=1D2=");
    expect_spans(r, 1, 6, 1, 7);
}

TEST(Literature, NeedlemanWunschWikipedia) {
    const DpResult r = align_reference(problem_of(named("wikipedia_nw")));
    EXPECT_EQ(r.score, 0);
    EXPECT_EQ(r.end, (Cell{7, 7}));
    EXPECT_EQ(r.path.front(), (Cell{0, 0}));
}

// Glocal: the query end to end, placed inside the target for free.
TEST(Literature, GlocalFitsTheQueryInsideTheTarget) {
    const DpResult r = align_reference(problem_of(named("glocal_linear")));  // CAGT in ACAGTTA
    EXPECT_EQ(r.score, 8);                                                   // 4 matches x 2
    EXPECT_EQ(r.end, (Cell{4, 5}));
    EXPECT_EQ(r.path.front(), (Cell{0, 1}));
    EXPECT_EQ(r.alignment.cigar, "4=");
    expect_spans(r, 0, 4, 1, 5);
}

TEST(Literature, GlocalAffineGapsInTheQuery) {
    // GATTCA in TTGATCAGG: GAT, one query T against nothing (open 3), CA: 5 x 2 - 3 = 7. Of the two
    // T's, the traceback (diagonal first from the end) pairs the second and gaps the first.
    const DpResult r = align_reference(problem_of(named("glocal_affine")));
    EXPECT_EQ(r.score, 7);
    EXPECT_EQ(r.alignment.cigar, "2=1I3=");
    expect_spans(r, 0, 6, 2, 7);
}

TEST(Literature, GlocalPaysForQueryResiduesOutsideTheTarget) {
    // A query longer than the target: every query residue is aligned, the surplus against gaps.
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    const auto p = make_problem(Algorithm::glocal, {"q", "AACGT"}, {"t", "CGT"}, s);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    EXPECT_EQ(r.score, 6 - 4);  // CGT matched, AA against nothing
    EXPECT_EQ(r.alignment.cigar, "2I3=");
    EXPECT_EQ(r.path.front(), (Cell{0, 0}));
}

TEST(Literature, KittenSittingEditDistanceIsThree) {
    const DpResult r = align_reference(problem_of(named("edit_kitten")));
    EXPECT_EQ(r.score, 3);
    EXPECT_EQ(r.alignment.cigar, "1X3=1X1=1D");  // k/s, itt, e/i, n, -/g
}

TEST(Literature, ClrsLcsIsFour) {
    const DpResult r = align_reference(problem_of(named("lcs_clrs")));
    EXPECT_EQ(r.score, 4);
    EXPECT_EQ(r.alignment.identical, 4);
}

TEST(Literature, DtwWarpsRepeatedSamplesForFree) {
    // 0 1 2 3 and 0 0 1 1 2 2 3 3 warp onto each other exactly: distance 0.
    ScoringOptions s;
    auto p = make_dtw_problem({"q", {0, 1, 2, 3}}, {"t", {0, 0, 1, 1, 2, 2, 3, 3}}, s);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    EXPECT_EQ(r.score, 0);
    EXPECT_DOUBLE_EQ(r.dtw_reference, 0.0);
    EXPECT_EQ(r.path.size(), 9u);  // (0,0) and eight matched pairs
}

// The double-precision reference stops at kDtwReferenceCells: past it, NaN (not computed) at
// once, where one thread would take minutes after the fill.
TEST(Literature, DtwReferenceIsNotComputedPastItsLimit) {
    ScoringOptions s;
    const std::vector<double> q(32769, 1.0), t(32768, 0.5);
    auto p = make_dtw_problem({"q", q}, {"t", t}, s);
    ASSERT_TRUE(p);
    ASSERT_GT(int64_t(p->rows()) * p->cols(), kDtwReferenceCells);
    EXPECT_TRUE(std::isnan(dtw_reference_distance(*p)));
    auto small = make_dtw_problem({"q", {q.begin(), q.begin() + 100}}, {"t", {t.begin(), t.begin() + 50}}, s);
    ASSERT_TRUE(small);
    EXPECT_DOUBLE_EQ(dtw_reference_distance(*small), 50.0);  // a warping path of 100 cells, each |1 - 0.5|
}

}  // namespace
}  // namespace dpviz
