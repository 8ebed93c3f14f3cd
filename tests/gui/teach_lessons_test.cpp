// Lessons in headless frames: each lesson opens from the menu's function, every step is reached
// with the panel's Next button, sets what it says (algorithm, scores, layer, panels, inspected
// cell) once its result is in, ends at the last step, and Back returns; plus the CLI options.
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "gui/gui.hpp"
#include "gui/teach_lessons.hpp"
#include "gui/teach_playback.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

// Frames until the step's result is shown and its view applied.
void settle(HeadlessImGui& ui, AppState& s, Worker& w) {
    ASSERT_TRUE(frames_until(ui, s, w, [&] {
        return s.result && !s.job.busy && !s.requests.compute && s.job.shown == s.job.submitted && lesson_view_applied(s);
    })) << s.error;
    ui.frame(s, &w);
    EXPECT_TRUE(s.error.empty()) << s.error;
}

void press_next(HeadlessImGui& ui, AppState& s, Worker& w) {
    activate(widget_id("Lesson", {"Next"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
}

// A headless GUI with its worker, showing lessons.
struct LessonRun {
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w{run_job};
    LessonRun() { ui.frame(s, &w); }
    // Opens step `step` (0-based) of lesson `lesson` and waits for its job.
    void show(int lesson, int step) {
        open_lesson(s, lesson, step);
        settle(ui, s, w);
    }
};

// What each step must show, checked after it settles.
struct Expect {
    Algorithm algo;
    std::optional<int32_t> score;
    Layer layer = Layer::H;
    bool affine = false;
    bool mask = false;
    bool machine_code = false;
    bool wavefront = false;  // the Wavefront panel in playback, in the Inspector's place
};

void run_lesson(int index, const std::vector<Expect>& expect) {
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w(run_job);
    ui.frame(s, &w);
    open_lesson(s, index);
    ASSERT_EQ(lessons()[size_t(index)].steps.size(), expect.size());
    for (size_t k = 0; k < expect.size(); ++k) {
        settle(ui, s, w);
        SCOPED_TRACE("lesson " + std::to_string(index + 1) + " step " + std::to_string(k + 1));
        EXPECT_EQ(s.teach.lesson, index);
        EXPECT_EQ(s.teach.step, int(k));
        const Expect& e = expect[k];
        ASSERT_TRUE(s.result);
        EXPECT_EQ(s.params.algo, e.algo);
        EXPECT_EQ(s.result->problem.algo, e.algo);
        EXPECT_EQ(s.result->problem.affine(), e.affine);
        if (e.score) {
            EXPECT_EQ(s.result->result.score, *e.score);
        }
        EXPECT_EQ(s.view.layer, e.layer);
        EXPECT_EQ(s.view.show_mask, e.mask);
        EXPECT_EQ(s.panels.machine_code, e.machine_code);
        EXPECT_TRUE(s.panels.lesson && s.panels.matrix);
        EXPECT_EQ(s.panels.inspector, !e.wavefront);
        EXPECT_EQ(s.panels.wavefront, e.wavefront);
        EXPECT_EQ(s.wavefront.view, e.wavefront ? TeachView::playback : TeachView::none);
        // The inspected cell lies in the matrix the step computed.
        ASSERT_TRUE(s.view.inspected);
        EXPECT_LT(s.view.inspected->i, s.result->rows());
        EXPECT_LT(s.view.inspected->j, s.result->cols());
        EXPECT_NE(ImGui::FindWindowByName("Lesson"), nullptr);
        if (k + 1 < expect.size()) press_next(ui, s, w);
    }
    // The end: Next is disabled, the step stays; Back goes one step back.
    const int last = int(expect.size()) - 1;
    press_next(ui, s, w);
    EXPECT_EQ(s.teach.step, last);
    activate(widget_id("Lesson", {"Back"}));
    ui.frame(s, &w);
    EXPECT_EQ(s.teach.step, last - 1);
    settle(ui, s, w);
    close_lesson(s);
    EXPECT_EQ(s.teach.lesson, -1);
    EXPECT_FALSE(s.panels.lesson);
}

TEST(TeachLessons, GlobalLocalSemiglobal) {
    run_lesson(0, {
                      {Algorithm::global, std::nullopt},
                      {Algorithm::local, std::nullopt},
                      {Algorithm::semiglobal, std::nullopt},
                      {Algorithm::semiglobal, 14},  // GATTACA inside CCGATTACATT: 7 matches x 2
                      {Algorithm::global, 6},       // and 4 overhanging residues against gaps of 2
                  });
}

TEST(TeachLessons, AffineGaps) {
    run_lesson(1, {
                      {Algorithm::global, 20},                      // linear 3: two gaps of two
                      {Algorithm::global, 24, Layer::H, true},      // affine 5/1: one gap of four
                      {Algorithm::global, 24, Layer::E, true},
                      {Algorithm::global, 24, Layer::F, true},
                      {Algorithm::global, std::nullopt, Layer::H, true, true},
                  });
}

TEST(TeachLessons, WavefrontAndDpx) {
    run_lesson(2, {
                      {Algorithm::local, 14},
                      {Algorithm::local, std::nullopt, Layer::H, true, false, false, true},
                      {Algorithm::local, std::nullopt},
                      {Algorithm::local, std::nullopt, Layer::H, false, false, true},
                  });
}

TEST(TeachLessons, HmmTrellis) {
    const Lesson& l = lessons()[3];
    EXPECT_STREQ(l.title, "Lesson 4: An HMM trellis is a DP matrix too");
    run_lesson(3, {
                      {Algorithm::viterbi, std::nullopt},
                      {Algorithm::viterbi, std::nullopt, Layer::E},
                      {Algorithm::viterbi, std::nullopt},
                      {Algorithm::viterbi, std::nullopt, Layer::H, false, false, true},
                      {Algorithm::viterbi, std::nullopt, Layer::E},
                  });
}

TEST(TeachLessons, HmmTrellisStepsShowWhatTheTextSays) {
    LessonRun run;
    AppState& s = run.s;
    // Step 1: the casino's 300 rolls, two states and the begin state.
    run.show(3, 0);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(s.result->rows(), 3);
    EXPECT_EQ(s.result->cols(), 301);
    EXPECT_EQ(s.result->problem.hmm->states, (std::vector<std::string>{"F", "L"}));
    // Step 3: the inspected cell is where the path first changes state, and it is centred.
    run.show(3, 2);
    const std::vector<Cell>& path = s.result->result.path;
    ASSERT_TRUE(s.view.inspected);
    const Cell c = *s.view.inspected;
    ASSERT_GE(c.j, 2);
    EXPECT_EQ(path[size_t(c.j)], c);
    EXPECT_NE(path[size_t(c.j) - 1].i, c.i);
    for (int32_t t = 2; t < c.j; ++t) EXPECT_EQ(path[size_t(t)].i, path[1].i);
    EXPECT_NEAR(s.view.xf.x0 + s.view.canvas.w / 2 / s.view.xf.cell_px, c.j + 0.5, 1.0);
    // Step 5: the CpG-island model on M23100, where EMBOSS newcpgreport reports one island,
    // 1026-2004: the decoded island state covers most of it.
    run.show(3, 4);
    const Problem& p = s.result->problem;
    EXPECT_EQ(p.hmm->states, (std::vector<std::string>{"I", "B"}));
    EXPECT_EQ(p.target_name, "M23100");
    int island = 0;
    for (int32_t t = 1026; t <= 2004; ++t) island += s.result->result.path[size_t(t)].i == 1;
    EXPECT_GT(island, (2004 - 1026 + 1) / 2);
}

TEST(TeachLessons, AffineLessonPathsAreWhatTheTextSays) {
    LessonRun run;
    run.show(1, 0);
    EXPECT_EQ(run.s.result->result.alignment.cigar, "4=2D1=2D11=");
    run.show(1, 1);
    EXPECT_EQ(run.s.result->result.alignment.cigar, "5=4D11=");
}

TEST(TeachLessons, CommandLine) {
    AppState session;
    auto o = parse_gui_args({"--lesson", "2", "--lesson-step", "3", "--panel", "machine-code", "--inspect", "4,5"}, session);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->lesson, 2);
    EXPECT_EQ(o->lesson_step, 3);
    EXPECT_TRUE(o->initial.panels.machine_code);
    ASSERT_TRUE(o->initial.view.inspected);
    EXPECT_EQ(*o->initial.view.inspected, (Cell{4, 5}));
    EXPECT_TRUE(parse_gui_args({"--lesson", "4", "--lesson-step", "5"}, session));
    EXPECT_FALSE(parse_gui_args({"--lesson", "5"}, session));
    EXPECT_FALSE(parse_gui_args({"--lesson", "1", "--lesson-step", "9"}, session));
    EXPECT_FALSE(parse_gui_args({"--panel", "nope"}, session));
    EXPECT_FALSE(parse_gui_args({"--inspect", "-1,2"}, session));
    EXPECT_FALSE(parse_gui_args({"--lesson", "1", "--example", "dna"}, session));
}

}  // namespace
}  // namespace dpviz::gui
