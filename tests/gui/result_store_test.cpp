// The GUI's store path (Computed::stored): a pair above the threshold opens with checkpoints and
// an overview instead of whole matrices, the view's pyramid starts at the overview, zoomed-in
// windows, tooltips and the inspector equal a full fill cell for cell, a GPU request says it ran
// on the CPU, the matrix PNG comes from the overview, the texture holds those pixels (with a
// display), and Cancel stops a store fill.
#include "gl_context_fixture.hpp"  // glad before any other GL header

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>

#include "gui/files.hpp"
#include "gui/gl_view.hpp"
#include "gui/measure.hpp"
#include "gui/teach_inspector.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

JobRequest pair_request(int length, uint64_t seed) { return dna_request(Algorithm::global, length, length, seed); }

// The same 600 x 600 pair through the store (threshold 0, overview side 64: B = 10) and the host
// path (whole matrices): what the store shows must be what the full fill holds.
class StoreVsWhole : public ::testing::Test {
protected:
    void SetUp() override {
        JobRequest req = pair_request(600, 11);
        req.params.gap_open = Hundredths::units(5);  // affine: E and F too
        req.params.gap_extend = Hundredths::units(1);
        std::tie(whole, store) = run_whole_and_stored(req);
        ASSERT_TRUE(whole && store);
        ASSERT_FALSE(whole->stored());
        ASSERT_TRUE(store->stored());
    }
    std::shared_ptr<const Computed> whole, store;
};

TEST_F(StoreVsWhole, HoldsNoWholeMatrixAndAgreesOnScoreAndPath) {
    const Computed& c = *store;
    EXPECT_TRUE(c.result.H.empty());
    EXPECT_TRUE(c.result.E.empty());
    EXPECT_TRUE(c.result.dirs.empty());
    EXPECT_TRUE(c.grid(Layer::H).empty());
    EXPECT_TRUE(c.stages.store);
    EXPECT_EQ(c.store_block(), 10);
    EXPECT_EQ(c.result.score, whole->result.score);
    EXPECT_EQ(c.result.path, whole->result.path);
    EXPECT_EQ(c.pair_text, whole->pair_text);
    EXPECT_FALSE(c.has_layer(Layer::E));  // E and F only in windows
}

TEST_F(StoreVsWhole, ThePyramidStartsAtTheOverviewAndItsRangeIsTheMatrixs) {
    const Computed& c = *store;
    const Overview& o = *c.result.overview;
    const Overview expect = overview_from_matrix(c.problem, whole->grid(Layer::H), o.block);
    ASSERT_FALSE(c.h.levels.empty());
    EXPECT_EQ(c.h.levels[0].data, expect.H.data);
    EXPECT_EQ(c.h.levels[0].data, o.H.data);
    ASSERT_GE(c.h.levels.size(), 1u);
    const render::ValueRange r = c.layer_range(Layer::H), w = whole->layer_range(Layer::H);
    EXPECT_EQ(r.min, w.min);
    EXPECT_EQ(r.max, w.max);
    // The path's mask at overview scale: exactly the blocks the path visits.
    const Grid<uint8_t>& m = c.mask_pyramid().levels.at(0);
    ASSERT_EQ(m.rows, o.H.rows);
    ASSERT_EQ(m.cols, o.H.cols);
    Grid<uint8_t> want;
    want.reset(o.H.rows, o.H.cols, 0);
    for (const Cell p : c.result.path) want.at(p.i / o.block, p.j / o.block) = 1;
    EXPECT_EQ(m.data, want.data);
}

TEST_F(StoreVsWhole, AZoomedOutViewReadsOverviewTexels) {
    const render::TexelRequest all{0, 0, store->rows(), store->cols(), 40, 40, true};
    const StoreDraw d = store_draw(*store, all);
    EXPECT_FALSE(d.window);
    EXPECT_EQ(d.local.rows, store->result.overview->H.rows);
    EXPECT_EQ(d.local.cols, store->result.overview->H.cols);
    EXPECT_EQ(d.local.out_w, 40);
    EXPECT_EQ(d.placed.rows, store->rows());  // the texels cover the whole matrix
    // Zoomed in a little (3 cells a texel, B = 10): the overview's blocks, never more texels
    // than blocks.
    const render::TexelRequest mid{100, 200, 300, 300, 100, 100, false};
    const StoreDraw m = store_draw(*store, mid, /*wait=*/true);
    ASSERT_TRUE(m.window);  // 90,000 cells: recomputed exactly
    const render::TexelRequest big{0, 0, store->rows(), store->cols(), 200, 200, false};
    const StoreDraw b = store_draw(*store, big, /*wait=*/true);  // 3 cells a texel, but under kExactViewCells
    EXPECT_TRUE(b.window);
}

TEST_F(StoreVsWhole, AZoomedInWindowsPixelsEqualTheFullFills) {
    const render::TexelRequest want{123, 257, 60, 90, 90, 60, false};  // one cell a texel
    const StoreDraw d = store_draw(*store, want, /*wait=*/true);
    ASSERT_TRUE(d.window);
    EXPECT_EQ(d.placed, want);
    const StoreWindow& w = *d.window;
    for (int i = want.i0; i < want.i0 + want.rows; ++i)
        for (int j = want.j0; j < want.j0 + want.cols; ++j) {
            ASSERT_EQ(w.h.levels[0].at(i - w.w.i0, j - w.w.j0), whole->grid(Layer::H).at(i, j)) << i << "," << j;
            ASSERT_EQ(w.e.levels[0].at(i - w.w.i0, j - w.w.j0), whole->grid(Layer::E).at(i, j)) << i << "," << j;
            ASSERT_EQ(w.f.levels[0].at(i - w.w.i0, j - w.w.j0), whole->grid(Layer::F).at(i, j)) << i << "," << j;
        }
    const auto lut = render::ColorLut::build(render::make_color_scale(whole->layer_range(Layer::H), {}));
    std::vector<uint32_t> a(size_t(want.out_w) * want.out_h), b(a.size());
    render::draw_view_pixels(whole->pyramid(Layer::H), nullptr, lut, want, a.data(), want.out_w);
    render::draw_view_pixels(w.h, nullptr, lut, d.local, b.data(), want.out_w);
    EXPECT_EQ(a, b);
    // The window's mask: the traced path's cells in it (the store has no co-optimal cells).
    const Grid<uint8_t>& m = w.mask.levels.at(0);
    int on = 0;
    for (int i = 0; i < m.rows; ++i)
        for (int j = 0; j < m.cols; ++j) on += m.at(i, j);
    int in_window = 0;
    for (const Cell p : store->result.path) {
        if (p.i < w.w.i0 || p.i >= w.w.i1 || p.j < w.w.j0 || p.j >= w.w.j1) continue;
        ++in_window;
        EXPECT_EQ(m.at(p.i - w.w.i0, p.j - w.w.j0), 1);
    }
    EXPECT_EQ(on, in_window);
    // The same view again: the cached window, no new computation.
    EXPECT_EQ(store_draw(*store, want).window.get(), d.window.get());
    // Another place: computed on its own thread, the overview until then.
    const render::TexelRequest other{400, 30, 60, 90, 90, 60, false};
    const StoreDraw later = store_draw(*store, other);
    EXPECT_FALSE(later.window);
    EXPECT_TRUE(later.window_pending);
    EXPECT_TRUE(store->view_window_pending());
    StoreDraw ready;
    for (int k = 0; k < 5000 && !ready.window; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ready = store_draw(*store, other);
    }
    ASSERT_TRUE(ready.window);
    EXPECT_FALSE(store->view_window_pending());
    EXPECT_EQ(ready.window->h.levels[0].at(other.i0 - ready.window->w.i0, other.j0 - ready.window->w.j0),
              whole->grid(Layer::H).at(other.i0, other.j0));
}

TEST_F(StoreVsWhole, TooltipAndInspectorValuesEqualTheFullFills) {
    const MatrixRefs h = whole->refs();
    const Cell last{store->problem.rows(), store->problem.cols()};  // the target is mutated: not 600 long
    for (const Cell cell : {Cell{0, 0}, Cell{1, 1}, Cell{0, 37}, Cell{299, 411}, last, Cell{555, 3}}) {
        const MatrixRefs w = store->window(cell.i, cell.i + 1, cell.j, cell.j + 1);
        for (const Cell n : {cell, Cell{cell.i - 1, cell.j}, Cell{cell.i, cell.j - 1}, Cell{cell.i - 1, cell.j - 1}}) {
            if (n.i < 0 || n.j < 0) continue;
            EXPECT_EQ(w.value(w.H, n.i, n.j), h.value(h.H, n.i, n.j)) << n.i << "," << n.j;
            EXPECT_EQ(w.value(w.E, n.i, n.j), h.value(h.E, n.i, n.j)) << n.i << "," << n.j;
            EXPECT_EQ(w.value(w.F, n.i, n.j), h.value(h.F, n.i, n.j)) << n.i << "," << n.j;
            EXPECT_EQ(w.bits(n.i, n.j), h.bits(n.i, n.j)) << n.i << "," << n.j;
        }
        const CellExplain a = explain_cell(store->problem, w, cell), b = explain_cell(whole->problem, h, cell);
        EXPECT_EQ(a.h, b.h) << cell.i << "," << cell.j;
        EXPECT_EQ(a.e, b.e) << cell.i << "," << cell.j;
        EXPECT_EQ(a.f, b.f) << cell.i << "," << cell.j;
        EXPECT_EQ(a.bits, b.bits) << cell.i << "," << cell.j;
        EXPECT_EQ(a.formula, b.formula) << cell.i << "," << cell.j;
        const Inspection ia = inspect_cell(store->problem, w, cell), ib = inspect_cell(whole->problem, h, cell);
        ASSERT_EQ(ia.recurrences.size(), ib.recurrences.size());
        for (size_t k = 0; k < ia.recurrences.size(); ++k) {
            EXPECT_EQ(ia.recurrences[k].live, ib.recurrences[k].live) << cell.i << "," << cell.j;
            EXPECT_EQ(ia.recurrences[k].value, ib.recurrences[k].value) << cell.i << "," << cell.j;
        }
    }
}

TEST_F(StoreVsWhole, TheMatrixPngComesFromTheOverview) {
    TempDir dir;
    AppState s = fresh_state();
    s.result = store;
    const std::string path = (std::filesystem::path(dir.path()) / "store.png").string();
    auto written = export_result(s, {ExportKind::matrix_png, path});
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_GT(std::filesystem::file_size(path), 1000u);
}

// The frame loop's texture for a store result (a real GL context; CTest runs this under Xvfb).
class GlTextureStore : public dpviz::testing::GlContextTest {};
using dpviz::testing::texture_texels;

TEST_F(GlTextureStore, ZoomedOutTheTextureHoldsOverviewBlocksZoomedInTheFullFillsCells) {
    const auto [whole, store] = run_whole_and_stored(pair_request(600, 11));
    ASSERT_TRUE(whole && store && store->stored());
    AppState s = fresh_state();
    s.result = store;
    GlView view;
    ASSERT_TRUE(view.init(s, /*prefer_interop=*/false));
    const auto lut = render::ColorLut::build(view_color_scale(s));
    // Zoomed out: overview texels, placed over the blocks they stand for.
    s.view.wanted = {0, 0, store->rows(), store->cols(), 40, 40, false};
    view.update(s);
    const StoreDraw out = store_draw(*store, s.view.wanted);
    ASSERT_FALSE(out.window);
    EXPECT_EQ(s.view.texture.placed, out.placed);
    EXPECT_EQ(s.view.texture.drawn, s.view.wanted);
    EXPECT_FALSE(s.view.texture.window_pending);
    std::vector<uint32_t> want(size_t(out.local.out_w) * out.local.out_h);
    render::draw_view_pixels(store->h, nullptr, lut, out.local, want.data(), out.local.out_w);
    EXPECT_EQ(texture_texels(s.view.texture), want);
    // Zoomed in, one texel a cell: the full fill's pixels.
    s.view.wanted = {300, 100, 70, 50, 50, 70, false};
    view.update(s);
    EXPECT_TRUE(s.view.texture.window_pending);  // the overview until the window's thread is done
    EXPECT_EQ(s.view.texture.placed.out_w, 5);  // 50 columns: 5 blocks of 10
    for (int k = 0; k < 5000 && s.view.texture.window_pending; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        view.update(s);
    }
    ASSERT_FALSE(s.view.texture.window_pending);
    EXPECT_EQ(s.view.texture.placed, s.view.wanted);
    want.assign(size_t(50) * 70, 0);
    render::draw_view_pixels(whole->h, nullptr, lut, s.view.wanted, want.data(), 50);
    EXPECT_EQ(texture_texels(s.view.texture), want);
}

TEST(StoreResult, APairAboveTheThresholdOpensThroughTheStore) {
    // 8,301 x 8,201 cells >= kCheckpointPathCells: the default threshold, linear gaps.
    const auto c = run_to_result(dna_request(Algorithm::global, 8300, 8200, 5));
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->stored());
    EXPECT_TRUE(c->result.H.empty());
    EXPECT_TRUE(c->grid(Layer::H).empty());
    const Overview& o = *c->result.overview;
    EXPECT_EQ(o.block, overview_block(c->problem, 4096));
    EXPECT_EQ(o.H.rows, (8301 + o.block - 1) / o.block);
    EXPECT_EQ(c->h.levels.at(0).data, o.H.data);
    // The coarsest levels pool the overview 2 x 2 at a time (the largest finite value).
    ASSERT_GE(c->h.levels.size(), 2u);
    const Grid<int32_t>& l1 = c->h.levels[1];
    for (const Cell b : {Cell{0, 0}, Cell{7, 3}, Cell{l1.rows - 1, l1.cols - 1}}) {
        int32_t best = kNegInf;
        for (int di = 0; di < 2; ++di)
            for (int dj = 0; dj < 2; ++dj)
                if (2 * b.i + di < o.H.rows && 2 * b.j + dj < o.H.cols)
                    best = std::max(best, o.H.at(2 * b.i + di, 2 * b.j + dj));
        EXPECT_EQ(l1.at(b.i, b.j), best);
    }
    EXPECT_EQ(c->result.path.back(), (Cell{8300, 8200}));
    // A tooltip's value at the end cell is the score.
    const MatrixRefs w = c->window(8300, 8301, 8200, 8201);
    EXPECT_EQ(w.value(w.H, 8300, 8200), c->result.score);
}

// A path of 17,000+ cells zoomed in to 3 pixels a cell: the matrix panel draws only the runs near
// the canvas (one polyline of every point overflowed ImGui's 16-bit indices and garbled the
// rulers and the colorbar drawn after it).
TEST(StoreResult, ALongPathZoomedInStaysWithinOneDrawListsIndices) {
    const auto c = run_to_result(pair_request(17000, 4));
    ASSERT_TRUE(c && c->stored());
    ASSERT_GT(c->result.path.size(), 17000u);
    HeadlessImGui ui;
    AppState s = fresh_state();
    s.result = c;
    s.view.show_path = true;
    ui.frame(s);
    s.view.center_pending = MatrixView::CenterOn{8500.0, 8500.0, 3.0};
    ui.frame(s);
    ui.frame(s);
    const ImDrawData* d = ImGui::GetDrawData();
    ASSERT_TRUE(d && d->Valid);
    int most = 0;
    for (int k = 0; k < d->CmdListsCount; ++k) most = std::max(most, d->CmdLists[k]->VtxBuffer.Size);
    EXPECT_LT(most, 1 << 16);
    EXPECT_GT(most, 0);
}

TEST(StoreResult, AGpuRequestForAStoreRunsOnTheGpuOrSaysWhyNot) {
    JobRequest req = pair_request(300, 3);
    req.params.backend = BackendChoice::dpx;
    req.engine.store_from_cells = 0;
    const auto c = run_to_result(req);
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->stored());
    SystemInfo info;
    probe_backends(info);
    if (info.dpx_available) {  // the GPU's store: its lines stay there, and so do its windows
        EXPECT_EQ(c->result.backend, Backend::cuda);
        EXPECT_EQ(c->result.fallback, "");
        ASSERT_TRUE(c->result.checkpoints && c->result.checkpoints->source);
        EXPECT_TRUE(c->result.checkpoints->source->on_gpu());
    } else {  // never silently on the CPU
        EXPECT_EQ(c->result.backend, Backend::cpu);
        EXPECT_NE(c->result.fallback.find("cuda unavailable ("), std::string::npos) << c->result.fallback;
        EXPECT_NE(c->result.fallback.find("ran on the CPU"), std::string::npos) << c->result.fallback;
    }
}

TEST(StoreResult, CancelStopsAStoreFill) {
    const auto [q, t] = random_dna_pair(6000, 9);
    AppState s;
    s.headless = true;
    s.query = pasted("q", q);
    s.target = pasted("t", t);
    s.params.backend = BackendChoice::cpu;
    s.engine.store_from_cells = 0;
    Worker w(run_job);
    HeadlessImGui ui;
    s.requests.compute = true;
    ui.frame(s, &w);
    ASSERT_TRUE(wait_until_filling(w, s.job.submitted)) << "the store fill never reported progress";
    s.requests.cancel = true;
    ui.frame(s, &w);
    EXPECT_EQ(s.error, "cancelled");
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy; }, 60.0));
    ui.frame(s, &w);
    EXPECT_FALSE(s.result);
}

}  // namespace
}  // namespace dpviz::gui
