// Teaching views, part 1, in headless frames: playback driven to step k shows exactly the cells
// whose schedule step is <= k as computed (and step k as the front), for the GPU mapping with a
// given launch shape and for the CPU backend's recorded mapping; ownership colours of sampled
// cells are the legend's colours of their block, warp and lane; the buttons, the scrubber and
// the clock move the playback state.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "dpviz/schedule.hpp"
#include "gui/teach_overlay.hpp"
#include "gui/teach_playback.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

std::string sequence(int n, int seed) {
    std::string s(size_t(n), 'A');
    for (int k = 0; k < n; ++k) s[size_t(k)] = "ACGT"[(k * 7 + seed * 3 + k / 3) % 4];
    return s;
}

// A global DNA alignment of pasted sequences (300 x 150: three GPU bands, many CPU bands),
// computed on the CPU backend, with the Wavefront panel open.
void load_pair(HeadlessImGui& ui, AppState& s, Worker& w) {
    s.query.source = s.target.source = InputSource::paste;
    s.query.pasted = sequence(300, 1);
    s.target.pasted = sequence(150, 2);
    s.params.algo = Algorithm::global;
    s.params.backend = BackendChoice::cpu;
    s.panels.wavefront = true;
    s.requests.compute = true;
    ui.frame(s, &w);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    ui.frame(s, &w);
}

// Shows the cells around (i, j) at `px` pixels per cell.
void center_on(HeadlessImGui& ui, AppState& s, Worker& w, double i, double j, double px) {
    s.view.center_pending = MatrixView::CenterOn{i, j, px};
    ui.frame(s, &w);
    ui.frame(s, &w);
}

// The colours of the one-colour filled triangles of a window's draw list that cover point p.
std::vector<ImU32> fills_at(const char* window, ImVec2 p) {
    std::vector<ImU32> out;
    const ImGuiWindow* win = ImGui::FindWindowByName(window);
    if (!win) return out;
    const ImDrawList* dl = win->DrawList;
    auto side = [](ImVec2 a, ImVec2 b, ImVec2 q) { return (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x); };
    for (const ImDrawCmd& cmd : dl->CmdBuffer) {
        for (unsigned k = 0; k + 2 < cmd.ElemCount; k += 3) {
            const ImDrawVert& a = dl->VtxBuffer[int(cmd.VtxOffset + dl->IdxBuffer[int(cmd.IdxOffset + k)])];
            const ImDrawVert& b = dl->VtxBuffer[int(cmd.VtxOffset + dl->IdxBuffer[int(cmd.IdxOffset + k + 1)])];
            const ImDrawVert& c = dl->VtxBuffer[int(cmd.VtxOffset + dl->IdxBuffer[int(cmd.IdxOffset + k + 2)])];
            if (a.col != b.col || b.col != c.col) continue;
            const float s1 = side(a.pos, b.pos, p), s2 = side(b.pos, c.pos, p), s3 = side(c.pos, a.pos, p);
            const bool neg = s1 < 0 || s2 < 0 || s3 < 0, pos = s1 > 0 || s2 > 0 || s3 > 0;
            if (!(neg && pos)) out.push_back(a.col);
        }
    }
    return out;
}
bool has(const std::vector<ImU32>& v, ImU32 c) { return std::find(v.begin(), v.end(), c) != v.end(); }

ImVec2 cell_center(const AppState& s, int i, int j) {
    const Vec2d p = to_screen(s.view.xf, s.view.canvas, {j + 0.5, i + 0.5});
    return ImVec2(float(p.x), float(p.y));
}

// Visible interior cells well inside the canvas (clear of its edges and the residue axes).
template <class F>
int for_visible_cells(const AppState& s, F&& f) {
    const Canvas& cv = s.view.canvas;
    int n = 0;
    for (int i = 1; i <= s.result->problem.rows(); ++i)
        for (int j = 1; j <= s.result->problem.cols(); ++j) {
            const ImVec2 p = cell_center(s, i, j);
            if (p.x < cv.x + 24 || p.y < cv.y + 24 || p.x > cv.x + cv.w - 4 || p.y > cv.y + cv.h - 4) continue;
            f(i, j, p);
            ++n;
        }
    return n;
}

// At step k: a cell is dark iff its step is after k, and orange iff its step is k.
void expect_playback_at(HeadlessImGui& ui, AppState& s, Worker& w, const Schedule& sch, int64_t k) {
    SCOPED_TRACE("step " + std::to_string(k));
    s.wavefront.playback.step = k;
    ui.frame(s, &w);
    ASSERT_EQ(s.wavefront.playback.step, k);
    int computed = 0, front = 0;
    const int n = for_visible_cells(s, [&](int i, int j, ImVec2 p) {
        const std::vector<ImU32> c = fills_at("Matrix", p);
        const int64_t t = sch.step(i, j);
        ASSERT_EQ(has(c, kPendingColor), t > k) << "cell (" << i << ", " << j << ") step " << t << " at " << k;
        ASSERT_EQ(has(c, kFrontColor), t == k) << "cell (" << i << ", " << j << ") step " << t << " at " << k;
        computed += t <= k;
        front += t == k;
    });
    EXPECT_GT(n, 500);
    if (k > 0 && k < sch.steps() - 1) {
        EXPECT_GT(front, 0);  // the probes sit where the front is in view
    }
    if (k > sch.step(1 + 128 * (sch.bands() > 1), 1)) {
        EXPECT_GT(computed, 0);
    }
}

// A copy of the shown result as if the GPU had computed it with this launch shape.
void pretend_gpu(AppState& s, int blocks, int warps_per_block) {
    const Computed& old = *s.result;
    auto c = std::make_shared<Computed>();
    c->id = old.id + 1000;
    c->problem = old.problem;
    c->result = old.result;
    c->h = old.h;
    c->e = old.e;
    c->f = old.f;
    c->mask = old.mask;
    for (int k = 0; k < 3; ++k) c->range[k] = old.range[k];
    c->result.backend = Backend::cuda;
    c->result.shape = FillShape{};
    c->result.shape.blocks = blocks;
    c->result.shape.warps_per_block = warps_per_block;
    s.result = c;
}

// Every test starts from the pair of load_pair, computed.
class TeachPlayback : public FramesTest {
protected:
    void SetUp() override { load_pair(ui, s, w); }
};

TEST_F(TeachPlayback, GpuMappingShowsComputedCellsAtStepK) {
    ASSERT_TRUE(s.result);
    pretend_gpu(s, 1, 2);  // two warps for three bands: band 2 waits for warp 0
    s.wavefront.view = TeachView::playback;
    center_on(ui, s, w, 128, 40, 7.0);  // the boundary between bands 0 and 1
    ASSERT_TRUE(s.wavefront.cache.schedule) << s.wavefront.cache.error;
    const Schedule& sch = *s.wavefront.cache.schedule;
    ASSERT_EQ(sch.kind(), ScheduleKind::gpu);
    EXPECT_EQ(sch.blocks(), 1);
    EXPECT_EQ(sch.warps_per_block(), 2);
    ASSERT_GE(s.view.xf.cell_px, kCellScalePx);
    // Steps where the front crosses the view: inside band 0, at the hand-over to band 1, later.
    for (const int64_t k : {int64_t(0), sch.step(110, 20), sch.step(129, 1), sch.step(140, 60), sch.steps() - 1})
        expect_playback_at(ui, s, w, sch, k);
    // The panel says which launch shape it maps.
    EXPECT_NE(s.wavefront.cache.label.find("1 blocks x 2 warps"), std::string::npos) << s.wavefront.cache.label;
}

TEST_F(TeachPlayback, CpuMappingShowsComputedCellsAtStepK) {
    ASSERT_TRUE(s.result);
    ASSERT_EQ(s.result->result.backend, Backend::cpu);
    s.wavefront.view = TeachView::playback;
    center_on(ui, s, w, 34, 40, 7.0);  // rows 10-60 clear of the canvas edges: the probes below in view
    ASSERT_TRUE(s.wavefront.cache.schedule) << s.wavefront.cache.error;
    const Schedule& sch = *s.wavefront.cache.schedule;
    ASSERT_EQ(sch.kind(), ScheduleKind::cpu);
    // The schedule is the one the run recorded (lanes, threads, which thread took each band).
    const FillShape& shape = s.result->result.shape;
    EXPECT_EQ(sch.lanes(), shape.lanes);
    EXPECT_EQ(sch.threads(), shape.threads);
    for (int b = 0; b < sch.bands(); ++b) EXPECT_EQ(sch.owner(1 + b * sch.lanes(), 1).block, shape.band_thread[size_t(b)]);
    for (const int64_t k : {sch.step(10, 10), sch.step(40, 40), sch.step(60, 75)}) expect_playback_at(ui, s, w, sch, k);
}

TEST_F(TeachPlayback, TileScaleForTheWholeMatrix) {
    pretend_gpu(s, 2, 1);
    s.wavefront.view = TeachView::playback;
    center_on(ui, s, w, 150, 75, 1.2);
    ASSERT_LT(s.view.xf.cell_px, kCellScalePx);
    const Schedule& sch = *s.wavefront.cache.schedule;
    const int64_t k = sch.step(200, 70);
    s.wavefront.playback.step = k;
    ui.frame(s, &w);
    // A tile not yet started is dark, a finished one clear, the one the front crosses orange.
    auto tile_center = [&](int band, int tc) {
        const int i = std::min(sch.rows(), 1 + band * 128 + 64), j = std::min(sch.cols(), 1 + tc * 64 + 32);
        return cell_center(s, i, j);
    };
    for (int b = 0; b < sch.bands(); ++b)
        for (int tc = 0; tc < sch.tile_columns(); ++tc) {
            const std::vector<ImU32> c = fills_at("Matrix", tile_center(b, tc));
            EXPECT_EQ(has(c, kPendingColor), sch.tile_first_step(b, tc) > k) << "tile " << b << "," << tc;
            EXPECT_EQ(has(c, kFrontColor), sch.tile_first_step(b, tc) <= k && sch.tile_last_step(b, tc) > k)
                << "tile " << b << "," << tc;
        }
    // Closing the panel takes its layer off the matrix.
    s.panels.wavefront = false;
    ui.frame(s, &w);
    EXPECT_FALSE(has(fills_at("Matrix", tile_center(sch.bands() - 1, sch.tile_columns() - 1)), kPendingColor));
}

TEST_F(TeachPlayback, OwnershipColoursAreTheLegendsColours) {
    pretend_gpu(s, 2, 2);  // three bands: block 0 warps 0 and 1, block 1 warp 0
    s.wavefront.view = TeachView::ownership;
    center_on(ui, s, w, 255, 40, 4.0);  // bands 1 and 2
    const Schedule& sch = *s.wavefront.cache.schedule;
    for (const OwnerField f : {OwnerField::block, OwnerField::warp, OwnerField::lane}) {
        s.wavefront.color_by = f;
        ui.frame(s, &w);
        int sampled = 0;
        for_visible_cells(s, [&](int i, int j, ImVec2 p) {
            if ((i * 7 + j * 3) % 11) return;  // a sample
            const CellOwner o = sch.owner(i, j);
            const int value = f == OwnerField::block ? o.block : f == OwnerField::warp ? o.warp : o.lane;
            const ImU32 want = owner_color(f, value);
            ASSERT_TRUE(has(fills_at("Matrix", p), want)) << owner_field_name(f, false) << " " << value << " at (" << i
                                                          << ", " << j << ")";
            ++sampled;
        });
        EXPECT_GT(sampled, 50);
    }
    // Different owners, different colours: lanes 0..31 and both warps are told apart.
    for (int a = 0; a < 32; ++a)
        for (int b = a + 1; b < 32; ++b) EXPECT_NE(owner_color(OwnerField::lane, a), owner_color(OwnerField::lane, b));
    EXPECT_NE(owner_color(OwnerField::warp, 0), owner_color(OwnerField::warp, 1));
}

// The legend's swatches are drawn in the Wavefront window with the overlay's colours.
TEST_F(TeachPlayback, LegendSwatchesCarryTheOwnerColours) {
    pretend_gpu(s, 2, 2);
    s.wavefront.view = TeachView::ownership;
    s.wavefront.color_by = OwnerField::lane;
    ui.frame(s, &w);
    ui.frame(s, &w);
    const ImGuiWindow* win = ImGui::FindWindowByName("Wavefront");
    ASSERT_NE(win, nullptr);
    std::vector<ImU32> colours;
    for (const ImDrawVert& v : win->DrawList->VtxBuffer) colours.push_back(v.col);
    for (int lane = 0; lane < 32; ++lane) EXPECT_TRUE(has(colours, owner_color(OwnerField::lane, lane))) << "lane " << lane;
    s.wavefront.color_by = OwnerField::block;
    ui.frame(s, &w);
    colours.clear();
    for (const ImDrawVert& v : win->DrawList->VtxBuffer) colours.push_back(v.col);
    EXPECT_TRUE(has(colours, owner_color(OwnerField::block, 0)));
    EXPECT_TRUE(has(colours, owner_color(OwnerField::block, 1)));
    EXPECT_FALSE(has(colours, owner_color(OwnerField::block, 2)));  // the grid has two blocks
}

TEST_F(TeachPlayback, ButtonsScrubberAndClockMoveTheStep) {
    s.wavefront.view = TeachView::playback;
    ui.frame(s, &w);
    ui.frame(s, &w);
    const int64_t last = s.wavefront.cache.schedule->steps() - 1;
    PlaybackState& p = s.wavefront.playback;
    EXPECT_EQ(p.step, 0);
    activate(widget_id("Wavefront", {"###step"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_EQ(p.step, 1);
    activate(widget_id("Wavefront", {"###end"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_EQ(p.step, last);
    activate(widget_id("Wavefront", {"###back"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_EQ(p.step, last - 1);
    activate(widget_id("Wavefront", {"###start"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_EQ(p.step, 0);

    // Play: 60 steps per second at 60 frames per second is one step a frame; Pause stops it.
    p.speed = 60.0;
    p.auto_speed = false;
    activate(widget_id("Wavefront", {"###play"}));
    ui.frame(s, &w);
    EXPECT_TRUE(p.playing);
    const int64_t before = p.step;
    for (int k = 0; k < 30; ++k) ui.frame(s, &w);
    EXPECT_NEAR(double(p.step - before), 30.0, 2.0);
    activate(widget_id("Wavefront", {"###play"}));
    ui.frame(s, &w);
    EXPECT_FALSE(p.playing);
    const int64_t paused = p.step;
    for (int k = 0; k < 10; ++k) ui.frame(s, &w);
    EXPECT_EQ(p.step, paused);
    // Playing runs out at the last step and stops there.
    p.speed = 1e6;
    p.playing = true;
    ui.frame(s, &w);
    EXPECT_EQ(p.step, last);
    EXPECT_FALSE(p.playing);

    // The scrubber: a click three quarters along it jumps there.
    const float* r = s.wavefront.cache.scrub;
    ASSERT_GT(r[2], r[0]);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(r[0] + 0.75f * (r[2] - r[0]), 0.5f * (r[1] + r[3]));
    io.MouseDown[0] = true;
    ui.frame(s, &w);
    ui.frame(s, &w);
    io.MouseDown[0] = false;
    ui.frame(s, &w);
    EXPECT_NEAR(double(p.step) / double(last), 0.75, 0.05) << p.step << " of " << last;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);

    // A new result keeps the step inside its schedule.
    p.step = last;
    s.query.pasted = sequence(20, 3);
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && s.result->problem.rows() == 20 && !s.job.busy; }));
    ui.frame(s, &w);
    EXPECT_LE(p.step, s.wavefront.cache.schedule->steps() - 1);
}

TEST_F(TeachPlayback, ResultWithoutAShapeSaysSo) {
    pretend_gpu(s, 0, 0);
    s.wavefront.view = TeachView::playback;
    ui.frame(s, &w);
    EXPECT_FALSE(s.wavefront.cache.schedule);
    EXPECT_NE(s.wavefront.cache.error.find("launch shape"), std::string::npos) << s.wavefront.cache.error;
}

}  // namespace
}  // namespace dpviz::gui
