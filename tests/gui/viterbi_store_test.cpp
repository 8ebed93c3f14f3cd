// A Viterbi trellis through the GUI's store path: above the threshold it opens with kept columns
// and an overview instead of the whole trellis, and what the view, the tooltips and the
// inspector read of it (delta, the backpointers, every predecessor's candidate) equals the whole
// trellis cell for cell; the "behind best" layer, which needs whole columns of the whole
// trellis, is not offered at that size.
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "dpviz/store.hpp"
#include "gui/cell_inspect.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

// A model of 90 states (more than a window's margin of rows: the inspector must read rows far
// from the cell) as an HMM file of exact fractions, some transitions impossible.
std::string many_state_model(std::mt19937& rng, int S) {
    auto row = [&](int n, bool zeros) {
        std::vector<int> w(static_cast<size_t>(n));
        int total = 0;
        for (int& x : w) total += (x = zeros && rng() % 10 < 3 ? 0 : 1 + int(rng() % 9));
        if (total == 0) total = w[0] = 1;
        std::string out;
        for (const int x : w) out += " " + std::to_string(x) + "/" + std::to_string(total);
        return out;
    };
    std::string text = "states";
    for (int k = 0; k < S; ++k) text += " S" + std::to_string(k);
    text += "\nalphabet a b c d\nstart" + row(S, false) + "\ntransition\n";
    for (int k = 0; k < S; ++k) text += "S" + std::to_string(k) + row(S, true) + "\n";
    text += "emission\n";
    for (int k = 0; k < S; ++k) text += "S" + std::to_string(k) + row(4, false) + "\n";
    return text;
}

// 1,500 observations of it (K = 256 at least: windows cross kept columns) opened whole and
// through the store (threshold 0, overview side 64).
class ViterbiStoreVsWhole : public ::testing::Test {
protected:
    void SetUp() override {
        std::mt19937 rng(3);
        const std::string model = dir.file("many.hmm", many_state_model(rng, 90));
        std::string symbols;
        for (int k = 0; k < 1500; ++k) symbols += "abcd"[rng() % 4];
        JobRequest req;
        req.params.algo = Algorithm::viterbi;
        req.params.backend = BackendChoice::cpu;
        req.query.path = model;
        req.target = pasted("obs", symbols);
        req.device_view = false;
        std::tie(whole, store) = run_whole_and_stored(req);
        ASSERT_TRUE(whole && store);
        ASSERT_FALSE(whole->stored());
        ASSERT_TRUE(store->stored());
    }
    TempDir dir;
    std::shared_ptr<const Computed> whole, store;
};

TEST_F(ViterbiStoreVsWhole, HoldsNoTrellisAndAgreesOnScoreAndPath) {
    const Computed& c = *store;
    EXPECT_TRUE(c.result.H.empty());
    EXPECT_TRUE(c.result.back.empty());
    EXPECT_TRUE(c.grid(Layer::H).empty());
    EXPECT_TRUE(c.stages.store);
    EXPECT_EQ(c.result.checkpoints->row_lines(), 0);  // a trellis keeps columns only
    EXPECT_GE(c.result.checkpoints->col_lines(), 1);
    EXPECT_EQ(c.result.score, whole->result.score);
    EXPECT_EQ(c.result.path, whole->result.path);
    EXPECT_EQ(c.pair_text, whole->pair_text);
    // "behind best" needs the best of every whole column: offered whole, not from the store.
    EXPECT_TRUE(whole->has_layer(Layer::E));
    EXPECT_FALSE(c.has_layer(Layer::E));
}

TEST_F(ViterbiStoreVsWhole, ThePyramidStartsAtTheOverviewOfTheWholeTrellis) {
    const Computed& c = *store;
    const Overview& o = *c.result.overview;
    const Overview want = overview_from_matrix(c.problem, whole->grid(Layer::H), o.block);
    ASSERT_FALSE(c.h.levels.empty());
    EXPECT_EQ(c.h.levels[0].data, want.H.data);
    const render::ValueRange r = c.layer_range(Layer::H), w = whole->layer_range(Layer::H);
    EXPECT_EQ(r.min, w.min);
    EXPECT_EQ(r.max, w.max);
    EXPECT_EQ(r.any_unreachable, w.any_unreachable);
}

TEST_F(ViterbiStoreVsWhole, AZoomedInWindowHoldsTheTrellisAndItsBackpointers) {
    const render::TexelRequest want{30, 250, 20, 40, 40, 20, false};  // across the kept column 256
    const StoreDraw d = store_draw(*store, want, /*wait=*/true);
    ASSERT_TRUE(d.window);
    const StoreWindow& w = *d.window;
    ASSERT_FALSE(w.back.empty());
    const MatrixRefs h = whole->refs();
    for (int i = want.i0; i < want.i0 + want.rows; ++i)
        for (int j = want.j0; j < want.j0 + want.cols; ++j) {
            ASSERT_EQ(w.h.levels[0].at(i - w.w.i0, j - w.w.j0), h.value(h.H, i, j)) << i << "," << j;
            ASSERT_EQ(int(w.back.at(i - w.w.i0, j - w.w.j0)), h.back_row(i, j).value_or(-1)) << i << "," << j;
        }
}

// The inspector reads every predecessor of the column before (not only the neighbouring rows) and
// the stored backpointer: from a store window, the same candidates as from the whole trellis.
TEST_F(ViterbiStoreVsWhole, TooltipAndInspectorEqualTheWholeTrellis) {
    const MatrixRefs h = whole->refs();
    const int T = store->problem.cols();
    for (const Cell cell : {Cell{1, 1}, Cell{2, 2}, Cell{1, 256}, Cell{45, 257}, Cell{90, 1000}, Cell{60, T}, Cell{0, 9}}) {
        SCOPED_TRACE(std::to_string(cell.i) + "," + std::to_string(cell.j));
        const MatrixRefs w = store->window(cell.i, cell.i + 1, cell.j, cell.j + 1);
        EXPECT_EQ(w.back_row(cell.i, cell.j), h.back_row(cell.i, cell.j));
        const CellExplain a = explain_cell(store->problem, w, cell), b = explain_cell(whole->problem, h, cell);
        EXPECT_EQ(a.h, b.h);
        EXPECT_EQ(a.back, b.back);
        EXPECT_EQ(a.formula, b.formula);
        ASSERT_EQ(a.h_candidates.size(), b.h_candidates.size());
        if (cell.i > 0 && cell.j > 1) EXPECT_EQ(a.h_candidates.size(), 90u);  // every state of the column before
        for (size_t k = 0; k < a.h_candidates.size(); ++k) {
            EXPECT_EQ(a.h_candidates[k].value, b.h_candidates[k].value) << k;
            EXPECT_EQ(a.h_candidates[k].won, b.h_candidates[k].won) << k;
            EXPECT_EQ(a.h_candidates[k].expr, b.h_candidates[k].expr) << k;
        }
    }
}

}  // namespace
}  // namespace dpviz::gui
