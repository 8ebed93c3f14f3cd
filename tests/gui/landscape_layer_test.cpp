// The landscape layer (docs/algorithms.md, "The landscape") in the GUI: a whole result's layer
// and a store result's overview and zoomed-in windows equal the engine's landscape_window and
// landscape_overview computed here from checkpoints of their own; a store result's co-optimal
// mask (landscape = optimum) equals the whole result's mask from the direction bits; the radio
// button builds it in frames and Ctrl+Shift+C copies its value in the user's units; the matrix
// PNG says the layer and draws its values; the matrix texture holds its pixels (with a display);
// the session and --layer keep it; Viterbi has none.
#include "gl_context_fixture.hpp"  // glad before any other GL header

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <tuple>

#include "cli_common.hpp"
#include "dpviz/render/png.hpp"
#include "gui/files.hpp"
#include "gui/gl_view.hpp"
#include "gui/gui.hpp"
#include "gui/keys.hpp"
#include "gui/session.hpp"
#include "gui/view_math.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

// Not square: the target 7 residues shorter than the query.
JobRequest oblong_request(Algorithm algo, int length, uint64_t seed) {
    return dna_request(algo, length, length - 7, seed);
}

InputSide pasted_signal(int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    InputSide in;
    in.source = InputSource::paste;
    double x = 0;
    for (int k = 0; k < n; ++k) {
        x += double(int(rng() % 9) - 4) * 0.25;
        in.pasted += std::to_string(x) + "\n";
    }
    return in;
}

// The engine's landscape of `p` on its own: checkpoints at spacing K (not the GUI's), both fills.
struct Reference {
    Checkpoints forward;
    LandscapeSource source;
};
std::unique_ptr<Reference> reference(const Problem& p, int32_t K) {
    auto r = std::make_unique<Reference>();
    auto f = fill_checkpoints(p, K, 1, RunControl{});
    EXPECT_TRUE(f) << f.error().message;
    if (!f) return nullptr;
    r->forward = std::move(*f);
    auto s = landscape_source(p, K, 1, RunControl{}, &r->forward);
    EXPECT_TRUE(s) << s.error().message;
    if (!s) return nullptr;
    r->source = std::move(*s);
    return r;
}

Window whole_matrix(const Computed& c) { return {0, c.rows(), 0, c.cols()}; }

TEST(GuiLandscape, AWholeResultHoldsTheEnginesLandscapeOfEveryCell) {
    struct Case {
        const char* name;
        JobRequest req;
    };
    std::vector<Case> cases;
    cases.push_back({"local affine (10 / 0.5)", oblong_request(Algorithm::local, 130, 1)});
    JobRequest global = oblong_request(Algorithm::global, 120, 2);
    global.params.gap_open = global.params.gap_extend = Hundredths::units(3);  // linear gaps
    cases.push_back({"global linear", global});
    cases.push_back({"semiglobal affine", oblong_request(Algorithm::semiglobal, 110, 3)});
    cases.push_back({"edit distance", oblong_request(Algorithm::edit, 100, 4)});
    cases.push_back({"LCS", oblong_request(Algorithm::lcs, 90, 5)});
    JobRequest dtw;
    dtw.query = pasted_signal(80, 6);
    dtw.target = pasted_signal(95, 7);
    dtw.params.algo = Algorithm::dtw;
    dtw.params.backend = BackendChoice::cpu;
    cases.push_back({"DTW", dtw});
    JobRequest banded = dtw;
    banded.params.band_on = true;
    banded.params.band = 20;
    cases.push_back({"DTW in a band", banded});
    for (const Case& k : cases) {
        SCOPED_TRACE(k.name);
        const auto c = run_to_result(k.req);
        ASSERT_TRUE(c);
        ASSERT_FALSE(c->stored());
        EXPECT_TRUE(c->has_layer(Layer::landscape));
        EXPECT_FALSE(c->landscape());  // built on first showing, not by the job
        EXPECT_EQ(c->shown_layer(Layer::landscape), Layer::H);
        c->request_landscape(2, /*wait=*/true);
        const auto land = c->landscape();
        ASSERT_TRUE(land) << c->landscape_progress().error;
        EXPECT_EQ(c->shown_layer(Layer::landscape), Layer::landscape);
        const auto ref = reference(c->problem, 32);
        ASSERT_TRUE(ref);
        const WindowValues want = landscape_window(ref->source, whole_matrix(*c));
        const Grid<int32_t>& got = c->grid(Layer::landscape);
        ASSERT_EQ(got.rows, c->rows());
        ASSERT_EQ(got.cols, c->cols());
        EXPECT_EQ(got.data, want.H.data);
        // What tables and tooltips read, cell by cell.
        for (const Cell cell : {Cell{0, 0}, Cell{1, 1}, Cell{c->rows() - 1, c->cols() - 1}, Cell{40, 17}, Cell{3, 60}}) {
            const MatrixRefs m = c->landscape_cells(cell.i, cell.i + 1, cell.j, cell.j + 1);
            EXPECT_EQ(m.value(m.H, cell.i, cell.j), want.H.at(cell.i, cell.j)) << cell.i << "," << cell.j;
        }
        const render::ValueRange r = c->layer_range(Layer::landscape), v = render::value_range(want.H);
        EXPECT_EQ(r.min, v.min);
        EXPECT_EQ(r.max, v.max);
        EXPECT_EQ(r.any_unreachable, v.any_unreachable);
        EXPECT_EQ(land->optimum, c->result.score);  // its optimum is the alignment's score
        // Every cell of the reported path lies on an optimal alignment.
        for (const Cell p : c->result.path)
            if (!(c->problem.algo == Algorithm::dtw && (p.i == 0 || p.j == 0)))
                EXPECT_TRUE(land->at_optimum(got.at(p.i, p.j))) << p.i << "," << p.j;
    }
}

TEST(GuiLandscape, ViterbiHasNone) {
    JobRequest req;
    req.query.path = assets() + "/examples/casino.hmm";
    req.target.path = assets() + "/examples/casino_rolls.txt";
    req.params.algo = Algorithm::viterbi;
    const auto c = run_to_result(req);
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->has_layer(Layer::landscape));
    c->request_landscape(1, /*wait=*/true);
    EXPECT_FALSE(c->landscape());
    EXPECT_EQ(c->shown_layer(Layer::landscape), Layer::H);
}

// A 600 x 593 affine pair through the store (threshold 0, overview side 64: B = 10) and through
// whole matrices.
class GuiLandscapeStore : public ::testing::Test {
protected:
    void SetUp() override {
        JobRequest req = oblong_request(Algorithm::global, 600, 11);
        req.params.gap_open = Hundredths::units(5);
        req.params.gap_extend = Hundredths::units(1);
        std::tie(whole, store) = run_whole_and_stored(req);
        ASSERT_TRUE(whole && store);
        ASSERT_TRUE(store->stored());
        ASSERT_EQ(store->store_block(), 10);
        whole->request_landscape(2, /*wait=*/true);
        store->request_landscape(2, /*wait=*/true);
        ASSERT_TRUE(whole->landscape() && store->landscape()) << store->landscape_progress().error;
        ref = reference(store->problem, 64);
        ASSERT_TRUE(ref);
    }
    std::shared_ptr<const Computed> whole, store;
    std::unique_ptr<Reference> ref;
};

TEST_F(GuiLandscapeStore, TheOverviewTexelsAreTheEnginesLandscapeOverview) {
    const Overview o = landscape_overview(ref->source, store->store_block(), 1);
    const LandscapeLayer& land = *store->landscape();
    ASSERT_FALSE(land.values.levels.empty());
    EXPECT_EQ(store->pyramid(Layer::landscape).levels.front().data, o.H.data);
    const render::ValueRange r = store->layer_range(Layer::landscape);
    EXPECT_EQ(r.min, o.min);
    EXPECT_EQ(r.max, o.max);
    // The exact range is the whole landscape's.
    const render::ValueRange w = whole->layer_range(Layer::landscape);
    EXPECT_EQ(r.min, w.min);
    EXPECT_EQ(r.max, w.max);
    EXPECT_EQ(land.optimum, store->result.score);
    EXPECT_TRUE(store->grid(Layer::landscape).empty());  // no whole matrix of it either
}

TEST_F(GuiLandscapeStore, AZoomedInWindowHoldsTheLandscapeOfItsCells) {
    const render::TexelRequest want{123, 257, 60, 90, 90, 60, false};  // one cell a texel
    // The H view's window carries no landscape; asking for it computes one that does.
    ASSERT_FALSE(store_draw(*store, want, /*wait=*/true).window->has_landscape());
    const StoreDraw d = store_draw(*store, want, /*wait=*/true, /*landscape=*/true);
    ASSERT_TRUE(d.window);
    ASSERT_TRUE(d.window->has_landscape());
    EXPECT_EQ(d.placed, want);
    const StoreWindow& w = *d.window;
    const WindowValues expect = landscape_window(ref->source, w.w);
    EXPECT_EQ(w.pyramid(Layer::landscape).levels.front().data, expect.H.data);
    const Grid<int32_t>& full = whole->grid(Layer::landscape);
    for (int i = want.i0; i < want.i0 + want.rows; ++i)
        for (int j = want.j0; j < want.j0 + want.cols; ++j)
            ASSERT_EQ(w.landscape.levels[0].at(i - w.w.i0, j - w.w.j0), full.at(i, j)) << i << "," << j;
    // Tooltips: inside the view's window and far from it.
    for (const Cell cell : {Cell{130, 300}, Cell{0, 0}, Cell{store->rows() - 1, store->cols() - 1}, Cell{555, 3}}) {
        const MatrixRefs m = store->landscape_cells(cell.i, cell.i + 1, cell.j, cell.j + 1);
        EXPECT_EQ(m.value(m.H, cell.i, cell.j), full.at(cell.i, cell.j)) << cell.i << "," << cell.j;
    }
}

// The co-optimal cells at any size: where the landscape reaches the score, the same cells the
// whole result's mask finds by following every direction bit back.
TEST_F(GuiLandscapeStore, TheCoOptimalMaskIsTheWholeResultsOptimalMask) {
    const Grid<uint8_t>& all = whole->mask_pyramid().levels.at(0);
    int64_t optimal = 0;
    for (const uint8_t m : all.data) optimal += m;
    ASSERT_GT(optimal, int64_t(whole->result.path.size()));  // more than the path: ties to find
    // Overview: the blocks holding such a cell.
    const int32_t B = store->store_block();
    const Grid<uint8_t>& blocks = store->mask_pyramid().levels.at(0);
    Grid<uint8_t> want;
    want.reset(blocks.rows, blocks.cols, 0);
    for (int i = 0; i < all.rows; ++i)
        for (int j = 0; j < all.cols; ++j)
            if (all.at(i, j)) want.at(i / B, j / B) = 1;
    EXPECT_EQ(blocks.data, want.data);
    // A zoomed-in window: the cells themselves.
    const render::TexelRequest view{200, 180, 120, 150, 150, 120, true};
    const StoreDraw d = store_draw(*store, view, /*wait=*/true, /*landscape=*/true);
    ASSERT_TRUE(d.window && d.window->has_landscape());
    const Grid<uint8_t>& cells = d.window->mask.levels.at(0);
    int on = 0;
    for (int i = 0; i < cells.rows; ++i)
        for (int j = 0; j < cells.cols; ++j) {
            ASSERT_EQ(cells.at(i, j), all.at(d.window->w.i0 + i, d.window->w.j0 + j)) << i << "," << j;
            on += cells.at(i, j);
        }
    EXPECT_GT(on, 0);
}

TEST_F(GuiLandscapeStore, TheMatrixPngSaysTheLayerAndDrawsTheLandscapesOverview) {
    TempDir dir;
    AppState s = fresh_state();
    s.result = store;
    s.view.layer = Layer::landscape;
    const render::HeatmapOptions opt = matrix_png_options(s);
    EXPECT_EQ(opt.caption, store->caption + "  layer: landscape (the best alignment through each cell)");
    ASSERT_TRUE(opt.range);
    EXPECT_EQ(opt.range->max, store->landscape()->optimum);
    const std::string path = (std::filesystem::path(dir.path()) / "land.png").string();
    auto written = export_result(s, {ExportKind::matrix_png, path});
    ASSERT_TRUE(written) << written.error().message;
    // The same picture drawn here from the engine's own landscape overview.
    const Overview o = landscape_overview(ref->source, store->store_block(), 1);
    auto img = render::compose_heatmap(o.H, overview_path(*store->result.overview, store->result.path), opt);
    ASSERT_TRUE(img);
    const std::string expect_path = (std::filesystem::path(dir.path()) / "expect.png").string();
    ASSERT_TRUE(render::write_png_atomic(*img, expect_path));
    EXPECT_EQ(slurp(path), slurp(expect_path));
    // The H layer's export is another picture with the plain caption.
    s.view.layer = Layer::H;
    EXPECT_EQ(matrix_png_options(s).caption, store->caption);
    const std::string h_path = (std::filesystem::path(dir.path()) / "h.png").string();
    ASSERT_TRUE(export_result(s, {ExportKind::matrix_png, h_path}));
    EXPECT_NE(slurp(h_path), slurp(path));
}

TEST(GuiLandscape, AWholeResultsMatrixPngDrawsEveryCellsLandscape) {
    TempDir dir;
    AppState s = fresh_state();
    s.result = run_to_result(oblong_request(Algorithm::local, 140, 21));
    ASSERT_TRUE(s.result);
    s.view.layer = Layer::landscape;
    // Not built yet: the export shows (and says) H, as the view does.
    EXPECT_EQ(matrix_png_options(s).caption, s.result->caption);
    s.result->request_landscape(1, /*wait=*/true);
    const render::HeatmapOptions opt = matrix_png_options(s);
    EXPECT_EQ(opt.caption, s.result->caption + "  layer: landscape (the best alignment through each cell)");
    const std::string path = (std::filesystem::path(dir.path()) / "land.png").string();
    ASSERT_TRUE(export_result(s, {ExportKind::matrix_png, path}));
    const auto ref = reference(s.result->problem, 32);
    ASSERT_TRUE(ref);
    auto img = render::compose_heatmap(landscape_window(ref->source, whole_matrix(*s.result)).H, s.result->result.path, opt);
    ASSERT_TRUE(img);
    const std::string expect_path = (std::filesystem::path(dir.path()) / "expect.png").string();
    ASSERT_TRUE(render::write_png_atomic(*img, expect_path));
    EXPECT_EQ(slurp(path), slurp(expect_path));
}

// The frame loop's texture for the landscape of a store result (a real GL context; CTest runs
// this under Xvfb): the landscape's overview zoomed out, the whole result's landscape cells once
// the window's thread is done.
class GlTextureLandscape : public dpviz::testing::GlContextTest {};

TEST_F(GlTextureLandscape, TheTextureHoldsTheLandscapesOverviewThenItsCells) {
    const auto [whole, store] = run_whole_and_stored(oblong_request(Algorithm::global, 600, 11));
    ASSERT_TRUE(whole && store && store->stored());
    whole->request_landscape(2, /*wait=*/true);
    store->request_landscape(2, /*wait=*/true);
    ASSERT_TRUE(whole->landscape() && store->landscape());
    AppState s = fresh_state();
    s.result = store;
    s.view.layer = Layer::landscape;
    GlView view;
    ASSERT_TRUE(view.init(s, /*prefer_interop=*/false));
    const render::ColorScale scale = view_color_scale(s);
    EXPECT_EQ(scale.max, store->landscape()->optimum);
    const auto lut = render::ColorLut::build(scale);
    // Zoomed out: the landscape overview's texels.
    s.view.wanted = {0, 0, store->rows(), store->cols(), 40, 40, false};
    view.update(s);
    const StoreDraw out = store_draw(*store, s.view.wanted, false, true);
    ASSERT_FALSE(out.window);
    EXPECT_EQ(s.view.texture.placed, out.placed);
    std::vector<uint32_t> want(size_t(out.local.out_w) * out.local.out_h);
    render::draw_view_pixels(store->pyramid(Layer::landscape), nullptr, lut, out.local, want.data(), out.local.out_w);
    EXPECT_EQ(dpviz::testing::texture_texels(s.view.texture), want);
    // Zoomed in, one texel a cell: the whole result's landscape, drawn on the same scale.
    s.view.wanted = {300, 100, 70, 50, 50, 70, false};
    view.update(s);
    for (int k = 0; k < 5000 && s.view.texture.window_pending; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        view.update(s);
    }
    ASSERT_FALSE(s.view.texture.window_pending);
    EXPECT_EQ(s.view.texture.placed, s.view.wanted);
    want.assign(size_t(50) * 70, 0);
    render::draw_view_pixels(whole->pyramid(Layer::landscape), nullptr, lut, s.view.wanted, want.data(), 50);
    EXPECT_EQ(dpviz::testing::texture_texels(s.view.texture), want);
    // Back to H: H's overview, the texture redrawn.
    s.view.layer = Layer::H;
    s.view.wanted = {0, 0, store->rows(), store->cols(), 40, 40, false};
    view.update(s);
    const auto h_lut = render::ColorLut::build(view_color_scale(s));
    std::vector<uint32_t> h(size_t(out.local.out_w) * out.local.out_h);
    render::draw_view_pixels(store->h, nullptr, h_lut, out.local, h.data(), out.local.out_w);
    EXPECT_EQ(dpviz::testing::texture_texels(s.view.texture), h);
}

class GuiLandscapeFrames : public FramesTest {};

TEST_F(GuiLandscapeFrames, TheRadioButtonBuildsTheLayerAndTheViewShowsItsValues) {
    load_globins(ui, s, w);
    // Global: H's range (the borders' long gaps) is not the landscape's.
    s.params.algo = Algorithm::global;
    s.requests.compute = true;
    const Computed* local = s.result.get();
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result.get() != local && !s.job.busy; })) << s.error;
    ASSERT_FALSE(s.result->landscape());
    activate(widget_id("Matrix", {"landscape"}));
    ui.frame(s, &w);
    EXPECT_EQ(s.view.layer, Layer::landscape);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result->landscape() != nullptr; }));
    const Computed& c = *s.result;
    EXPECT_EQ(c.shown_layer(s.view.layer), Layer::landscape);
    // The colour scale spans the landscape's own range.
    const render::ColorScale scale = view_color_scale(s);
    EXPECT_EQ(scale.min, c.layer_range(Layer::landscape).min);
    EXPECT_EQ(scale.max, c.layer_range(Layer::landscape).max);
    EXPECT_NE(scale.min, c.layer_range(Layer::H).min);
    // Hovered, Ctrl+Shift+C copies the cell's landscape in the user's units (the globins' gaps
    // 10 / 0.5 put the scores at scale 2).
    mouse_on_cell(ui, s, w, 55, 52);
    ASSERT_TRUE(s.view.hover);
    ASSERT_EQ(c.problem.score_scale, 2);
    press_key(ui, s, kKeyC, /*ctrl=*/true, /*shift=*/true);
    const auto ref = reference(c.problem, 32);
    ASSERT_TRUE(ref);
    const int32_t L = landscape_window(ref->source, {55, 56, 52, 53}).H.at(0, 0);
    EXPECT_EQ(ui.clipboard(), "55,52," + value_text(c.problem, L));
    EXPECT_EQ(value_text(c.problem, L), format_score(L, 2));
    // A parameter change keeps the layer; the new result builds its own.
    s.params.gap_open = Hundredths::units(12);
    s.requests.compute = true;
    const Computed* before = &c;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result.get() != before && !s.job.busy; }));
    EXPECT_EQ(s.view.layer, Layer::landscape);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result->landscape() != nullptr; }));
}

// What --screenshot waits for: the landscape's build, named, before the view can show it.
TEST(GuiLandscape, PendingWorkWaitsForTheLandscape) {
    AppState s = fresh_state();
    s.result = run_to_result(oblong_request(Algorithm::global, 60, 31));
    ASSERT_TRUE(s.result);
    s.view.layer = Layer::landscape;
    EXPECT_TRUE(wants_landscape(s));
    EXPECT_EQ(pending_work(s, false), "the landscape layer: its build to start");
    s.view.layer = Layer::H;
    EXPECT_FALSE(wants_landscape(s));
    EXPECT_EQ(pending_work(s, false).find("landscape"), std::string::npos);
    // A store result's optimal mask is read from the landscape; a whole result's is not.
    s.view.show_mask = true;
    EXPECT_FALSE(wants_landscape(s));
}

TEST(GuiLandscape, TheSessionAndTheCommandLineKeepTheLayer) {
    AppState a;
    a.view.layer = Layer::landscape;
    const std::string text = session_text(a);
    EXPECT_NE(text.find("layer=landscape\n"), std::string::npos) << text;
    AppState b;
    EXPECT_EQ(apply_session_file_text(b, text), "");
    EXPECT_EQ(b.view.layer, Layer::landscape);
    EXPECT_NE(apply_session_file_text(b, "layer=L\n"), "");  // not a layer: the file is not a session
    for (const Layer l : {Layer::H, Layer::E, Layer::F, Layer::landscape}) EXPECT_EQ(parse_layer(layer_key(l)), l);

    auto o = parse_gui_args({"gui", "q.fa", "t.fa", "--layer", "landscape"}, {});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->initial.view.layer, Layer::landscape);
    const auto bad = parse_gui_args({"gui", "q.fa", "t.fa", "--layer", "L"}, {});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "--layer is H, E, F or landscape, got 'L'");
    const auto viterbi = parse_gui_args({"gui", "--algo", "viterbi", "--hmm", "m.hmm", "obs.txt", "--layer", "landscape"}, {});
    ASSERT_FALSE(viterbi);
    EXPECT_NE(viterbi.error().message.find("--layer landscape does not apply to --algo viterbi"), std::string::npos)
        << viterbi.error().message;
}

}  // namespace
}  // namespace dpviz::gui
