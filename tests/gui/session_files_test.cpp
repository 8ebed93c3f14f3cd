// Persistence (session.ini round trip, config folder from the environment), export names that
// never overwrite silently, atomic text writes, the path CSV, and the gui command line.
#include <fstream>
#include <sstream>

#include "dpviz/engine.hpp"
#include "dpviz/render/output_file.hpp"
#include "gui_test_util.hpp"
#include "scoped_env.hpp"
#include "gui/compute.hpp"
#include "gui/files.hpp"
#include "gui/frame.hpp"
#include "gui/gui.hpp"
#include "gui/session.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

using test::ScopedEnv;

TEST(GuiSession, ConfigDirFollowsXdgThenHome) {
    {
        ScopedEnv x("XDG_CONFIG_HOME", "/tmp/xdg");
        EXPECT_EQ(config_dir(), "/tmp/xdg/dpviz");
    }
    ScopedEnv x("XDG_CONFIG_HOME", nullptr);
    ScopedEnv h("HOME", "/home/someone");
    EXPECT_EQ(config_dir(), "/home/someone/.config/dpviz");
}

TEST(GuiSession, RoundTripKeepsInputsParametersAndRecents) {
    AppState a;
    a.query.source = InputSource::paste;
    a.query.pasted = ">q one\nACGT\nAC=GT\\n";  // newlines, '=' and a backslash survive
    a.target.path = "/data/t.fa";
    a.target.record = "rec 2";
    a.params.algo = Algorithm::semiglobal;
    a.params.scoring = ScoringMode::match_mismatch;
    a.params.match = Hundredths::units(3);
    a.params.mismatch = Hundredths{-250};
    a.params.gap_open = Hundredths{1050};
    a.params.gap_extend = Hundredths{25};
    a.params.backend = BackendChoice::cpu;
    a.params.dtw_cost = DtwCost::squared;
    a.view.auto_colormap = false;
    a.view.colormap = render::Colormap::magma;
    a.view.show_mask = true;
    a.recent_files = {"/x.fa", "/y.fa"};
    TempDir dir;
    ASSERT_TRUE(save_session(a, dir.path()));
    AppState b;
    load_session(b, dir.path());
    EXPECT_EQ(b.query, a.query);
    EXPECT_EQ(b.target, a.target);
    EXPECT_EQ(b.params, a.params);
    EXPECT_FALSE(b.view.auto_colormap);
    EXPECT_EQ(b.view.colormap, render::Colormap::magma);
    EXPECT_TRUE(b.view.show_mask);
    EXPECT_EQ(b.recent_files, a.recent_files);
}

// Two decimals exactly, in the user's units in the file (10.5, not a float's 10.4999...).
TEST(GuiSession, FractionalScoresRoundTripInTheUsersUnits) {
    AppState a;
    a.params.scoring = ScoringMode::match_mismatch;
    a.params.match = Hundredths{125};
    a.params.mismatch = Hundredths{-75};
    a.params.gap_open = Hundredths{1050};
    a.params.gap_extend = Hundredths{25};
    const std::string text = session_text(a);
    for (const char* line : {"match=1.25\n", "mismatch=-0.75\n", "gap_open=10.5\n", "gap_extend=0.25\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << " in\n" << text;
    TempDir dir;
    ASSERT_TRUE(save_session(a, dir.path()));
    AppState b;
    EXPECT_EQ(load_session(b, dir.path()), "");
    EXPECT_EQ(b.params.gap_open.value, 1050);
    EXPECT_EQ(b.params.gap_extend.value, 25);
    EXPECT_EQ(b.params.match.value, 125);
    EXPECT_EQ(b.params.mismatch.value, -75);
    EXPECT_EQ(b.params, a.params);
}

// A session an older dpviz wrote holds whole numbers: they read as those numbers, not hundredths.
TEST(GuiSession, OldSessionsWithWholeNumbersStillLoad) {
    AppState s;
    EXPECT_EQ(apply_session_file_text(s, "match=3\nmismatch=-2\ngap_open=12\ngap_extend=1\n"), "");
    EXPECT_EQ(s.params.match.value, 300);
    EXPECT_EQ(s.params.mismatch.value, -200);
    EXPECT_EQ(s.params.gap_open.value, 1200);
    EXPECT_EQ(s.params.gap_extend.value, 100);
}

TEST(GuiSession, BadAndUnknownLinesAreIgnored) {
    AppState s;
    const int n = apply_session_text(s, "algo=blast\ngap_open=ten\nfuture_key=1\nno equals sign\n# comment\nband=12\n");
    EXPECT_EQ(n, 1);
    EXPECT_EQ(s.params.band, 12);
    EXPECT_EQ(s.params.algo, Algorithm::local);
    load_session(s, "/nonexistent/dir");  // no file: nothing happens
}

TEST(GuiFiles, UniquePathNeverOverwrites) {
    TempDir dir;
    const std::string p = dir.file("out.png");
    EXPECT_EQ(unique_path(p), p);
    std::ofstream(p) << "x";
    EXPECT_EQ(unique_path(p), dir.file("out-1.png"));
    std::ofstream(dir.file("out-1.png")) << "x";
    EXPECT_EQ(unique_path(p), dir.file("out-2.png"));
    ExportSettings e;
    e.folder = dir.path();
    e.stem = "out";
    std::ofstream(dir.file("out-path.csv")) << "x";
    EXPECT_EQ(export_target(e, ExportKind::path_csv), dir.file("out-path-1.csv"));
    e.overwrite = true;
    EXPECT_EQ(export_target(e, ExportKind::path_csv), dir.file("out-path.csv"));
}

TEST(GuiFiles, AtomicTextWriteReplacesWholeOrNothing) {
    TempDir dir;
    const std::string p = dir.file("a.txt");
    ASSERT_TRUE(render::write_file_atomic(p, "first"));
    ASSERT_TRUE(render::write_file_atomic(p, "second"));
    EXPECT_EQ(slurp(p), "second");
    const auto bad = render::write_file_atomic(dir.file("missing/sub/a.txt"), "x");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("writing " + dir.file("missing/sub/a.txt")), std::string::npos);
    size_t files = 0;  // no temporaries left behind
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) files += e.is_regular_file();
    EXPECT_EQ(files, 1u);
}

// One row per step of the path, for the cell the step enters: (0, 0), where the traceback stops,
// is not a row, and a gap step shows '-' on the gapped side.
TEST(GuiFiles, PathCsvListsTheCellsAndResidues) {
    ScoringOptions so;
    auto p = make_problem(Algorithm::global, {"q", "ACG"}, {"t", "AG"}, so);
    ASSERT_TRUE(p);
    const std::vector<Cell> path = {{0, 0}, {1, 1}, {2, 1}, {3, 2}};
    EXPECT_EQ(path_csv(*p, path),
              "step,i,j,move,query_residue,target_residue\n1,1,1,M,A,A\n2,2,1,I,C,-\n3,3,2,M,G,G\n");
}

// A gap in the target (I, a step down) and one in the query (D, a step right) in one path, as
// the engine traces it: G A - over - A T is the only alignment scoring -1.
TEST(GuiFiles, PathCsvShowsGapsOnBothSides) {
    ScoringOptions so;
    so.gaps = {1, 1};
    auto p = make_problem(Algorithm::global, {"q", "GA"}, {"t", "AT"}, so);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    ASSERT_EQ(r.score, -1);
    ASSERT_EQ(r.path, (std::vector<Cell>{{0, 0}, {1, 0}, {2, 1}, {2, 2}}));
    EXPECT_EQ(path_csv(*p, r.path),
              "step,i,j,move,query_residue,target_residue\n1,1,0,I,G,-\n2,2,1,M,A,A\n3,2,2,D,-,T\n");
}

// A local alignment's traceback stops on the cell whose H is 0, before the first aligned pair:
// the CSV starts with that pair, not with the start cell.
TEST(GuiFiles, PathCsvOfALocalAlignmentHoldsOnlyTheAlignedCells) {
    ScoringOptions so;
    so.match = 2;
    so.gaps = {2, 2};
    auto p = make_problem(Algorithm::local, {"q", "TTACGTT"}, {"t", "GGACGGG"}, so);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    ASSERT_EQ(r.score, 6);
    ASSERT_EQ(r.path.front(), (Cell{2, 2}));  // H = 0: where the alignment may start
    EXPECT_EQ(path_csv(*p, r.path),
              "step,i,j,move,query_residue,target_residue\n1,3,3,M,A,A\n2,4,4,M,C,C\n3,5,5,M,G,G\n");
}

// DTW: every cell pairs a query sample with a target sample; I repeats the target's sample,
// D the query's.
TEST(GuiFiles, PathCsvOfAWarpingPathNamesTheThreeMoves) {
    ScoringOptions so;
    auto p = make_dtw_problem({"q", {0, 1, 1, 2}}, {"t", {0, 0, 1, 2}}, so);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    ASSERT_EQ(r.score, 0);
    ASSERT_EQ(r.path, (std::vector<Cell>{{0, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 3}, {4, 4}}));
    EXPECT_EQ(path_csv(*p, r.path),
              "step,i,j,move,query_value,target_value\n1,1,1,M,0,0\n2,1,2,D,0,0\n3,2,3,M,1,1\n4,3,3,I,1,1\n"
              "5,4,4,M,2,2\n");
    EXPECT_EQ(path_csv(*p, {{0, 0}}), "step,i,j,move,query_value,target_value\n");  // no steps, no rows
}

TEST(GuiFiles, AssetsAreFoundFromTheEnvironment) {
    ScopedEnv a("DPVIZ_ASSETS", DPVIZ_ASSETS);
    EXPECT_TRUE(std::filesystem::exists(find_assets_dir("") + "/examples/globins.fa"));
    ScopedEnv b("DPVIZ_ASSETS", "/nonexistent");
    EXPECT_FALSE(find_assets_dir("").empty());  // the compiled-in source path still works
}

TEST(GuiArgs, CommandLineSetsInputsParametersAndMode) {
    AppState session;
    session.params.gap_open = Hundredths::units(99);  // from a saved session: overridden below
    auto o = parse_gui_args({"gui", "q.fa", "t.fa", "--algo", "global", "--gap-open=5", "--match", "3",
                             "--query-record", "2", "--colormap", "magma", "--screenshot", "/tmp/x.png",
                             "--frames", "4", "--size", "800x600", "--view", "10,20,30", "--hover", "3,4"},
                            session);
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_TRUE(o->have_inputs);
    EXPECT_EQ(o->initial.query.path, "q.fa");
    EXPECT_EQ(o->initial.query.record, "2");
    EXPECT_EQ(o->initial.target.path, "t.fa");
    EXPECT_EQ(o->initial.params.algo, Algorithm::global);
    EXPECT_EQ(o->initial.params.gap_open.text(), "5");
    EXPECT_EQ(o->initial.params.scoring, ScoringMode::match_mismatch);
    EXPECT_EQ(o->initial.view.colormap, render::Colormap::magma);
    EXPECT_EQ(o->screenshot, "/tmp/x.png");
    EXPECT_FALSE(o->use_session);  // --screenshot never reads or writes the session
    EXPECT_EQ(o->frames, 4);
    EXPECT_EQ(o->width, 800);
    ASSERT_TRUE(o->initial.view.center_pending);
    EXPECT_EQ(o->initial.view.center_pending->cell_px, 30.0);
    EXPECT_EQ(o->hover, (Cell{3, 4}));

    auto seq = parse_gui_args({"--seq", "ACGT", "AGT"}, {});
    ASSERT_TRUE(seq);
    EXPECT_EQ(seq->initial.query.source, InputSource::paste);
    EXPECT_EQ(seq->initial.target.pasted, "AGT");
    auto ex = parse_gui_args({"--example", "dtw"}, {});
    ASSERT_TRUE(ex);
    EXPECT_EQ(ex->example, Example::dtw_signals);
}

TEST(GuiArgs, ThreadsAndDtwScaleReachTheJob) {
    auto o = parse_gui_args({"--threads", "1", "--dtw-scale=64", "--algo", "dtw", "--example", "dtw"}, {});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->initial.engine.threads, 1u);
    ASSERT_TRUE(o->initial.engine.dtw_scale);
    EXPECT_EQ(*o->initial.engine.dtw_scale, 64.0);
    const JobRequest r = make_job_request(o->initial, JobRequest::Kind::align);
    EXPECT_EQ(r.engine, o->initial.engine);
    EXPECT_EQ(parse_gui_args({}, {})->initial.engine, EngineSettings{});  // defaults: all threads, safe scale

    // The scale reaches the problem, and a scale the engine refuses fails the job.
    JobRequest dtw;
    dtw.params.algo = Algorithm::dtw;
    dtw.query.source = dtw.target.source = InputSource::paste;
    dtw.query.pasted = "0.5\n1.25\n2\n";
    dtw.target.pasted = "0.75\n1\n2.5\n3\n";
    dtw.engine.dtw_scale = 4.0;
    auto coarse = build_problem(dtw);
    dtw.engine.dtw_scale = 1024.0;
    auto fine = build_problem(dtw);
    ASSERT_TRUE(coarse) << coarse.error().message;
    ASSERT_TRUE(fine) << fine.error().message;
    EXPECT_EQ(coarse->dtw_scale, 4.0);
    EXPECT_EQ(fine->dtw_scale, 1024.0);
    EXPECT_EQ(coarse->query_fixed[1], 5);  // 1.25 x 4
    EXPECT_EQ(fine->query_fixed[1], 1280);
    dtw.engine.dtw_scale = 3.0;  // not a power of two: the engine says so, the job reports it
    EXPECT_FALSE(build_problem(dtw));
}

TEST(GuiArgs, UsageErrorsNameTheProblem) {
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"only_one.fa"}, {"--algo", "blast"}, {"--frames", "0"}, {"--bogus"},
          {"--size", "10x10"}, {"--view", "1,2"}, {"--example", "globins", "a.fa", "b.fa"}, {"--frames"},
          {"--threads", "-1"}, {"--threads", "2000"}, {"--threads", "x"}, {"--dtw-scale", "big"}}) {
        auto o = parse_gui_args(bad, {});
        ASSERT_FALSE(o) << bad.front();
        EXPECT_EQ(o.error().kind, ErrorKind::usage);
        EXPECT_FALSE(o.error().message.empty());
    }
    std::ostringstream out, err;
    EXPECT_EQ(app::run_gui({"--help"}, out, err), 0);
    EXPECT_NE(out.str().find("--screenshot"), std::string::npos);
    EXPECT_EQ(app::run_gui({"--algo", "blast"}, out, err), 2);
}

}  // namespace
}  // namespace dpviz::gui
