// Fractional scores in the GUI (EMBOSS's gap extend 0.5): the parameters in hundredths with the
// command line's defaults and scale rule, a job against the engine at that scale, and what the
// panels show in the user's units (10.5), never the engine's scaled integers (21).
#include <algorithm>
#include <cfloat>

#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "gui/gui.hpp"
#include "gui/teach_inspector.hpp"
#include "gui_test_util.hpp"
#include "matrix_file.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Hundredths h(const char* text) {
    auto v = parse_hundredths("test", text);
    EXPECT_TRUE(v) << text;
    return v ? *v : Hundredths{};
}

TEST(GuiScores, ParametersTakeTwoDecimalsExactly) {
    EXPECT_EQ(h("10.5").value, 1050);
    EXPECT_EQ(h("0.25").value, 25);
    EXPECT_EQ(h("-3").value, -300);
    EXPECT_EQ(h("0.1").value, 10);  // one decimal: tenths, not hundredths
    EXPECT_EQ(Hundredths{1050}.text(), "10.5");
    EXPECT_EQ(Hundredths{-75}.text(), "-0.75");
    EXPECT_EQ(Hundredths::units(7).text(), "7");
    for (const char* bad : {"0.125", "ten", "", "1e3", "10,5", " 1"}) {
        const auto v = parse_hundredths("--gap-open", bad);
        ASSERT_FALSE(v) << bad;
        EXPECT_EQ(v.error().kind, ErrorKind::usage);
        EXPECT_TRUE(contains(v.error().message, "--gap-open")) << v.error().message;
    }
}

TEST(GuiScores, TheDefaultGapsAreTheCommandLines) {
    const Parameters p;
    EXPECT_EQ(p.gap_open.text(), "10");
    EXPECT_EQ(p.gap_extend.text(), "0.5");
    auto args = app::parse_args({}, 0, {}, {});
    ASSERT_TRUE(args);
    auto cli = app::algo_scoring_from_args(*args);
    ASSERT_TRUE(cli) << cli.error().message;
    auto gui = scoring_options(p);
    ASSERT_TRUE(gui) << gui.error().message;
    EXPECT_EQ(gui->score_scale, 2);
    EXPECT_EQ(gui->gaps.open, 20);
    EXPECT_EQ(gui->gaps.extend, 1);
    EXPECT_EQ(gui->score_scale, cli->scoring.score_scale);
    EXPECT_EQ(gui->gaps.open, cli->scoring.gaps.open);
    EXPECT_EQ(gui->gaps.extend, cli->scoring.gaps.extend);
}

// The GUI's parameters and `dpviz align`'s options, given the same numbers, make the same
// ScoringOptions: one scale rule (cli_common.cpp) on both sides, or both refuse.
TEST(GuiScores, TheScaleRuleIsTheCommandLines) {
    struct Case {
        const char* algo;
        bool mm;  // match/mismatch (else a matrix: they do not count)
        const char *match, *mismatch, *open, *extend;
        int32_t scale;  // 0: both refuse
    };
    const Case cases[] = {
        {"global", false, "2", "-1", "10", "0.5", 2},       {"local", true, "2", "-1", "10.5", "0.25", 4},
        {"local", true, "1.5", "-0.75", "3", "3", 4},       {"semiglobal", true, "0.2", "-0.1", "1", "1", 10},
        {"global", true, "2", "-1", "0.07", "0.01", 100},   {"glocal", false, "0.33", "-1", "11", "1", 1},
        {"global", true, "2", "-1", "12", "2", 1},          {"local", true, "2", "0.5", "10", "1", 0},
        {"local", true, "0", "-1", "10", "1", 0},           {"local", true, "1000000.01", "-1", "10", "1", 0},
        {"global", false, "2", "-1", "10", "10.5", 0},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.algo) + (c.mm ? " match/mismatch " : " matrix ") + c.match + " " + c.mismatch +
                     " gaps " + c.open + " " + c.extend);
        std::vector<std::string> words = {"--algo", c.algo, "--gap-open", c.open, "--gap-extend", c.extend};
        if (c.mm) words.insert(words.end(), {"--match", c.match, "--mismatch", c.mismatch});
        auto args = app::parse_args(words, 0, {"--algo", "--gap-open", "--gap-extend", "--match", "--mismatch"}, {});
        ASSERT_TRUE(args);
        const auto cli = app::algo_scoring_from_args(*args);
        Parameters p;
        p.algo = *parse_algorithm(c.algo);
        p.scoring = c.mm ? ScoringMode::match_mismatch : ScoringMode::matrix;
        p.match = h(c.match);
        p.mismatch = h(c.mismatch);
        p.gap_open = h(c.open);
        p.gap_extend = h(c.extend);
        auto gui = scoring_options(p);
        if (gui) {  // make_problem checks the gaps' order: the job says what the CLI says
            auto job = make_problem(p.algo, {"q", "ACGT"}, {"t", "AGT"}, *gui);
            if (!job) gui = job.error();
        }
        if (c.scale == 0) {
            EXPECT_FALSE(cli);
            EXPECT_FALSE(gui);
            continue;
        }
        ASSERT_TRUE(cli) << cli.error().message;
        ASSERT_TRUE(gui) << gui.error().message;
        EXPECT_EQ(gui->score_scale, c.scale);
        EXPECT_EQ(cli->scoring.score_scale, c.scale);
        EXPECT_EQ(gui->gaps.open, cli->scoring.gaps.open);
        EXPECT_EQ(gui->gaps.extend, cli->scoring.gaps.extend);
        if (c.mm) {
            EXPECT_EQ(gui->match, cli->scoring.match);
            EXPECT_EQ(gui->mismatch, cli->scoring.mismatch);
        }
    }
    // Without gaps (edit distance, LCS, DTW) there is nothing to scale.
    Parameters edit;
    edit.algo = Algorithm::edit;
    ASSERT_TRUE(scoring_options(edit));
    EXPECT_EQ(scoring_options(edit)->score_scale, 1);
}

TEST(GuiScores, TheCommandLineTakesTwoDecimals) {
    auto o = parse_gui_args({"--gap-open", "10.5", "--gap-extend=0.25", "--match", "1.5", "--mismatch", "-0.75"}, {});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->initial.params.gap_open.value, 1050);
    EXPECT_EQ(o->initial.params.gap_extend.value, 25);
    EXPECT_EQ(o->initial.params.match.value, 150);
    EXPECT_EQ(o->initial.params.mismatch.value, -75);
    EXPECT_EQ(o->initial.params.scoring, ScoringMode::match_mismatch);
    const auto bad = parse_gui_args({"--gap-extend", "0.125"}, {});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::usage);
    EXPECT_TRUE(contains(bad.error().message, "--gap-extend takes at most two decimals")) << bad.error().message;
}

class GuiScoresFrames : public FramesTest {};

// The globins, global, BLOSUM62, at the default gaps 10 / 0.5: the GUI's job scores what the
// engine scores at score_scale 2 with gaps {20, 1}, and every panel says it in the user's units.
TEST_F(GuiScoresFrames, EmbossGapsScoreAsTheEngineAtScaleTwo) {
    load_globins(ui, s, w);
    s.params.algo = Algorithm::global;
    s.params.matrix = "BLOSUM62";
    ASSERT_EQ(s.params.gap_extend.text(), "0.5");
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && !s.requests.compute; })) << s.error;
    ASSERT_TRUE(s.result);
    const Computed& c = *s.result;
    ASSERT_EQ(c.problem.algo, Algorithm::global);
    EXPECT_EQ(c.problem.score_scale, 2);
    EXPECT_EQ(c.problem.gaps.open, 20);
    EXPECT_EQ(c.problem.gaps.extend, 1);

    ScoringOptions so;
    so.matrix = *app::load_matrix("BLOSUM62");
    so.score_scale = 2;
    so.gaps = {20, 1};
    auto engine = make_problem(Algorithm::global, {"HBA_HUMAN", c.problem.query}, {"HBB_HUMAN", c.problem.target}, so);
    ASSERT_TRUE(engine) << engine.error().message;
    const DpResult ref = align_reference(*engine);
    EXPECT_EQ(c.result.score, ref.score);
    EXPECT_EQ(c.result.path, ref.path);
    EXPECT_EQ(format_score(ref.score, 2), "292.5");  // an odd number of half units: the .5 shows
    EXPECT_TRUE(contains(c.caption, "gap open 10 extend 0.5")) << c.caption;
    EXPECT_TRUE(contains(c.caption, "score 292.5")) << c.caption;

    const std::string summary = panel_text(draw_alignment, s);
    EXPECT_TRUE(contains(summary, "score 292.5")) << summary;
    EXPECT_FALSE(contains(summary, "score " + std::to_string(ref.score))) << summary;  // never the engine's 585
    const std::string params = panel_text(draw_parameters, s);
    EXPECT_TRUE(contains(params, "0.50")) << params;  // the sliders, two decimals
    EXPECT_TRUE(contains(params, "10.00")) << params;
}

// The short pair (GATTACA in CCGATTACATT), local, match 2, mismatch -1, linear gaps of 1.5: on
// the engine's scale 2 every number doubles; the recurrence shows the user's, the kernel lines
// the engine's.
Problem short_pair_scaled(GapPenalties gaps) {
    ScoringOptions so;
    so.score_scale = 2;
    so.match = 4;
    so.mismatch = -2;
    so.gaps = gaps;
    auto p = make_problem(Algorithm::local, {"q", "GATTACA"}, {"t", "CCGATTACATT"}, so);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

TEST(GuiScores, TheInspectorsRecurrenceIsInTheUsersUnits) {
    const Problem p = short_pair_scaled({3, 3});
    const DpResult r = align_reference(p);
    const Inspection in = inspect_cell(p, {&r.H, &r.E, &r.F, &r.dirs}, {7, 9});
    ASSERT_EQ(in.recurrences.size(), 1u);
    // H[6][8] = 12 (GATTAC), A = A: 12 + 2 wins over 10.5 - 1.5 (GATTAC- / GATTACA), twice.
    EXPECT_EQ(in.recurrences[0].live, "max(12 + 2, 10.5 - 1.5, 10.5 - 1.5, 0)");
    EXPECT_EQ(in.recurrences[0].reduced, "max(14, 9, 9, 0)");
    EXPECT_EQ(in.recurrences[0].value, 28);  // the engine's value, x 2
    EXPECT_EQ(in.recurrences[0].winner, "diag");
    EXPECT_EQ(in.x.h_candidates[1].expr, "10.5 - 1.5");
    // The kernels add the integers: their lines keep them.
    KernelLine hline;
    for (const KernelLine& k : in.with_dirs)
        if (k.lhs == "H") hline = k;
    EXPECT_EQ(hline.dpx.substr(0, 32), "__vimax3_s32_relu(28, 18, 18)   ");
    EXPECT_EQ(hline.value, 28);

    // Affine, open 2.5 and extend 0.5: E's and F's terms in the same units.
    const Problem a = short_pair_scaled({5, 1});
    const DpResult ra = align_reference(a);
    const Inspection ia = inspect_cell(a, {&ra.H, &ra.E, &ra.F, &ra.dirs}, {7, 9});
    ASSERT_EQ(ia.recurrences.size(), 3u);
    const auto u = [](int32_t v) { return v <= kNegInf ? std::string("-inf") : format_score(v, 2); };
    EXPECT_EQ(ia.recurrences[0].live, "max(" + u(ra.H.at(7, 8)) + " - 2.5, " + u(ra.E.at(7, 8)) + " - 0.5)");
    EXPECT_EQ(ia.recurrences[1].live, "max(" + u(ra.H.at(6, 9)) + " - 2.5, " + u(ra.F.at(6, 9)) + " - 0.5)");
    EXPECT_EQ(ia.recurrences[2].reduced, "max(14, " + u(ra.F.at(7, 9)) + ", " + u(ra.E.at(7, 9)) + ", 0)");
}

TEST_F(GuiScoresFrames, TheInspectorPanelShowsTheUsersUnits) {
    s.panels.inspector = true;
    s.query = pasted("q", "GATTACA");
    s.target = pasted("t", "CCGATTACATT");
    s.params.scoring = ScoringMode::match_mismatch;
    s.params.gap_open = s.params.gap_extend = Hundredths{150};
    s.requests.compute = true;
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    ASSERT_EQ(s.result->problem.score_scale, 2);
    s.view.inspected = Cell{7, 9};
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // nothing hovered: the clicked cell
    ui.frame(s, &w);
    ui.clipboard().clear();
    activate(widget_id("Inspector", {"Copy as text"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    std::string text = ui.clipboard();
    std::replace(text.begin(), text.end(), '\n', ' ');  // the panel's line wraps
    EXPECT_TRUE(contains(text, "s(q, t) = 2")) << text;
    EXPECT_TRUE(contains(text, "gaps: g = 1.5 (linear)")) << text;
    EXPECT_TRUE(contains(text, "max(12 + 2, 10.5 - 1.5, 10.5 - 1.5, 0)")) << text;
    EXPECT_TRUE(contains(text, "= max(14, 9, 9, 0) = 14")) << text;
    // The kernel table keeps the engine's integers, and says so.
    EXPECT_TRUE(contains(text, "every score x 2 (gap open 1.5 is 3, extend 1.5 is 3)")) << text;
    EXPECT_TRUE(contains(text, "__vimax3_s32_relu(28, 18, 18)")) << text;
}

}  // namespace
}  // namespace dpviz::gui
