// Viterbi in the GUI: the casino example opens as a trellis through the Inputs panel, the
// inspector's text for a cell holds the live values and the winning predecessor of a fixed-point
// Viterbi computed here from the model's probabilities, clicks on a path that jumps rows find
// their cell, the path CSV is one row per observation (state name and symbol, CSV-quoted), the
// command line takes --hmm, and the teaching views say what they cannot show.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/files.hpp"
#include "gui/gui.hpp"
#include "gui/teach_inspector.hpp"
#include "gui_test_util.hpp"
#include "hmm_file.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

std::string casino_model() { return assets() + "/examples/casino.hmm"; }
std::string casino_rolls() { return assets() + "/examples/casino_rolls.txt"; }

// Viterbi written out in the test: every log is quantized at 2^scale_log2 (lround, half away from
// zero, as docs/algorithms.md specifies), sums in int64, ties to the lowest state. delta[t][s]
// for t = 0..T-1, back[t][s] the predecessor state of t >= 1.
struct Trellis {
    static constexpr int64_t kImpossible = std::numeric_limits<int64_t>::min() / 4;
    int scale_log2 = 0;
    std::vector<std::vector<int64_t>> delta;
    std::vector<std::vector<int>> back;
    std::vector<int> path;  // the state of each observation
    int64_t q(double p) const { return p == 0.0 ? kImpossible : std::lround(std::log(p) * std::ldexp(1.0, scale_log2)); }
    static int64_t sum(int64_t a, int64_t b) { return a == kImpossible || b == kImpossible ? kImpossible : a + b; }
};

Trellis decode(const Hmm& m, const std::vector<uint8_t>& obs, int scale_log2) {
    Trellis tr;
    tr.scale_log2 = scale_log2;
    const int S = m.num_states();
    const size_t T = obs.size();
    tr.delta.assign(T, std::vector<int64_t>(size_t(S), Trellis::kImpossible));
    tr.back.assign(T, std::vector<int>(size_t(S), 0));
    for (int s = 0; s < S; ++s) tr.delta[0][size_t(s)] = Trellis::sum(tr.q(m.start[size_t(s)]), tr.q(m.emit(s, obs[0])));
    for (size_t t = 1; t < T; ++t)
        for (int s = 0; s < S; ++s) {
            int64_t best = Trellis::kImpossible;
            for (int k = 0; k < S; ++k) {
                const int64_t v = Trellis::sum(tr.delta[t - 1][size_t(k)], tr.q(m.trans(k, s)));
                if (v > best) {
                    best = v;
                    tr.back[t][size_t(s)] = k;
                }
            }
            tr.delta[t][size_t(s)] = Trellis::sum(best, tr.q(m.emit(s, obs[t])));
        }
    int last = 0;
    for (int s = 1; s < S; ++s)
        if (tr.delta[T - 1][size_t(s)] > tr.delta[T - 1][size_t(last)]) last = s;
    tr.path.assign(T, 0);
    tr.path[T - 1] = last;
    for (size_t t = T - 1; t > 0; --t) tr.path[t - 1] = tr.back[t][size_t(tr.path[t])];
    return tr;
}

// ln p as the GUI prints it: four decimals of q / 2^scale.
std::string ln4(int64_t q, int scale_log2) {
    char b[48];
    std::snprintf(b, sizeof b, "%.4f", std::ldexp(double(q), -scale_log2));
    return b;
}

struct Casino {
    Hmm model;
    std::string symbols;
    std::vector<uint8_t> codes;
};
Casino load_casino() {
    Casino c;
    auto m = app::load_hmm(casino_model());
    EXPECT_TRUE(m) << m.error().message;
    c.model = *m;
    auto obs = app::read_observations(casino_rolls());
    EXPECT_TRUE(obs) << obs.error().message;
    c.symbols = obs->symbols;
    auto codes = app::encode_observations(c.model, c.symbols, "rolls");
    EXPECT_TRUE(codes);
    c.codes = *codes;
    return c;
}

// Opens the casino through the Inputs panel's button and waits for its result.
void open_casino(HeadlessImGui& ui, AppState& s, Worker& w) {
    ui.frame(s, &w);
    activate(widget_id("Inputs", {"Casino (HMM)"}));
    ui.frame(s, &w);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy && !s.requests.compute; })) << s.error;
    ui.frame(s, &w);
}

class GuiViterbi : public FramesTest {};

TEST_F(GuiViterbi, CasinoExampleOpensAsATrellis) {
    open_casino(ui, s, w);
    ASSERT_TRUE(s.result);
    EXPECT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.params.algo, Algorithm::viterbi);
    EXPECT_EQ(std::filesystem::path(s.query.path).filename(), "casino.hmm");
    EXPECT_EQ(std::filesystem::path(s.target.path).filename(), "casino_rolls.txt");
    const Computed& c = *s.result;
    EXPECT_EQ(c.problem.algo, Algorithm::viterbi);
    EXPECT_EQ(c.rows(), 3);    // the begin state, F, L
    EXPECT_EQ(c.cols(), 301);  // the time before the first roll, 300 rolls
    EXPECT_TRUE(c.result.dirs.empty());
    EXPECT_EQ(c.result.alignment.length, 0);
    EXPECT_TRUE(c.has_layer(Layer::E));   // delta behind its column's best
    EXPECT_FALSE(c.has_layer(Layer::F));
    EXPECT_EQ(c.caption.rfind("viterbi", 0), 0u) << c.caption;
    // The path of a Viterbi written here, state by state.
    const Casino casino = load_casino();
    const Trellis tr = decode(casino.model, casino.codes, c.problem.hmm_fixed->scale_log2);
    ASSERT_EQ(c.result.path.size(), tr.path.size() + 1);
    EXPECT_EQ(c.result.path[0], (Cell{0, 0}));
    for (size_t t = 0; t < tr.path.size(); ++t) EXPECT_EQ(c.result.path[t + 1], (Cell{tr.path[t] + 1, int32_t(t + 1)})) << t;
    EXPECT_EQ(int64_t(c.result.score), tr.delta.back()[size_t(tr.path.back())]);
    // "behind best" is 0 on the best state of each column and negative on the others.
    const Grid<int32_t>& behind = c.grid(Layer::E);
    for (int t = 1; t < c.cols(); ++t) {
        const int64_t f = tr.delta[size_t(t - 1)][0], l = tr.delta[size_t(t - 1)][1];
        EXPECT_EQ(int64_t(behind.at(1, t)), f - std::max(f, l)) << t;
        EXPECT_EQ(int64_t(behind.at(2, t)), l - std::max(f, l)) << t;
    }
}

TEST_F(GuiViterbi, InspectorTextHoldsTheLiveValuesAndTheWinner) {
    open_casino(ui, s, w);
    ASSERT_TRUE(s.result);
    const Casino casino = load_casino();
    const int scale = s.result->problem.hmm_fixed->scale_log2;
    EXPECT_EQ(scale, 18);  // docs/algorithms.md: the casino's 300 rolls get k = 18
    const Trellis tr = decode(casino.model, casino.codes, scale);
    // The first roll at which the most likely path changes die: the cell it lands in, whose
    // winning predecessor is the other state.
    size_t t = 1;
    while (t < tr.path.size() && tr.path[t] == tr.path[t - 1]) ++t;
    ASSERT_LT(t, tr.path.size());
    const int state = tr.path[t], from = tr.path[t - 1];
    ASSERT_EQ(tr.back[t][size_t(state)], from);
    const Cell cell{state + 1, int32_t(t + 1)};
    s.panels.inspector = true;
    s.view.inspected = cell;
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // nothing hovered: the inspector shows the clicked cell
    ui.frame(s, &w);
    ui.frame(s, &w);
    ui.clipboard().clear();
    activate(widget_id("Inspector", {"Copy as text"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    const std::string text = ui.clipboard();
    ASSERT_FALSE(text.empty());
    const auto has = [&](const std::string& part) { return text.find(part) != std::string::npos; };
    const std::string name = casino.model.states[size_t(state)], winner = casino.model.states[size_t(from)];
    EXPECT_TRUE(has("cell (i, j) = (" + std::to_string(cell.i) + ", " + std::to_string(cell.j) + ")")) << text;
    EXPECT_TRUE(has("state " + name)) << text;
    EXPECT_TRUE(has("max_k(delta(k, " + std::to_string(t) + ") + ln a(k, " + name + "))")) << text;
    // The emission of the roll, in fixed point and as ln p.
    const int64_t emit = tr.q(casino.model.emit(state, casino.codes[t]));
    EXPECT_TRUE(has(std::to_string(emit))) << text;
    EXPECT_TRUE(has(ln4(emit, scale))) << text;
    // Every predecessor: delta(k, t-1) + ln a(k, s), its operands and its value, both ways.
    for (int k = 0; k < casino.model.num_states(); ++k) {
        const int64_t prev = tr.delta[t - 1][size_t(k)], trans = tr.q(casino.model.trans(k, state));
        SCOPED_TRACE(casino.model.states[size_t(k)]);
        EXPECT_TRUE(has(std::to_string(prev) + " + (" + std::to_string(trans) + ")")) << text;
        EXPECT_TRUE(has(std::to_string(prev + trans))) << text;
        EXPECT_TRUE(has(ln4(prev, scale) + " + (" + ln4(trans, scale) + ")")) << text;
        EXPECT_TRUE(has(ln4(prev + trans, scale))) << text;
    }
    // The cell's value, the winner (the stored backpointer) and the running max of the kernels.
    EXPECT_TRUE(has(std::to_string(tr.delta[t][size_t(state)]))) << text;
    EXPECT_TRUE(has(ln4(tr.delta[t][size_t(state)], scale))) << text;
    EXPECT_TRUE(has("won: " + winner + " (row " + std::to_string(from + 1) + ")")) << text;
    EXPECT_TRUE(has("backpointer stored: row " + std::to_string(from + 1) + " = " + winner)) << text;
    const int64_t first_prev = tr.delta[t - 1][0], first_trans = tr.q(casino.model.trans(0, state));
    EXPECT_TRUE(has("__viaddmax_s32(" + std::to_string(first_prev) + ", " + std::to_string(first_trans) + ", -inf)")) << text;
    EXPECT_TRUE(has("max2(" + std::to_string(first_prev) + " + (" + std::to_string(first_trans) + "), -inf)")) << text;

    // A border cell: the begin state's rule, not a recurrence.
    s.view.inspected = Cell{0, 5};
    ui.frame(s, &w);
    ui.clipboard().clear();
    activate(widget_id("Inspector", {"Copy as text"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_NE(ui.clipboard().find("silent begin state"), std::string::npos) << ui.clipboard();
    EXPECT_EQ(ui.clipboard().find("won:"), std::string::npos) << ui.clipboard();
}

TEST_F(GuiViterbi, ClickOnAPathCellThatJumpsRowsSelectsIt) {
    open_casino(ui, s, w);
    ASSERT_TRUE(s.result);
    const std::vector<Cell>& path = s.result->result.path;
    size_t k = 2;
    while (k < path.size() && path[k].i == path[k - 1].i) ++k;
    ASSERT_LT(k, path.size());
    const Cell target = path[k];  // the first cell after the path changes row
    // Table scale (values, backpointer arrows, state names in the row margin), then a click.
    s.view.center_pending = MatrixView::CenterOn{double(target.i), double(target.j), 40.0};
    ui.frame(s, &w);
    ui.frame(s, &w);
    const Vec2d at = to_screen(s.view.xf, s.view.canvas, {target.j + 0.5, target.i + 0.5});
    click_at(ui, s, w, ImVec2(float(at.x), float(at.y)));
    ASSERT_TRUE(s.view.inspected);
    EXPECT_EQ(*s.view.inspected, target);
    ASSERT_TRUE(s.view.selected);
    EXPECT_EQ(*s.view.selected, target);
    EXPECT_EQ(path_index(path, target), int(k));
    EXPECT_FALSE(path_index(path, Cell{3 - target.i, target.j}));  // the other state of that column
    // The mask of every most likely path holds the path; hovering keeps drawing the tooltip.
    s.view.show_mask = true;
    for (int f = 0; f < 3; ++f) ui.frame(s, &w);
    const Grid<uint8_t>& mask = s.result->mask_pyramid().levels.at(0);
    for (const Cell c : path) EXPECT_EQ(mask.at(c.i, c.j), 1) << c.i << "," << c.j;
}

TEST_F(GuiViterbi, PathCsvIsOneRowPerObservation) {
    TempDir dir;
    s.export_settings.folder = dir.path();
    open_casino(ui, s, w);
    ASSERT_TRUE(s.result);
    activate(widget_id("Export", {"Path CSV"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    const std::string csv = slurp((std::filesystem::path(dir.path()) / "dpviz-path.csv").string());
    const std::vector<std::string> lines = dpviz::test::lines_of(csv);
    ASSERT_EQ(lines.size(), 301u) << s.export_message;
    EXPECT_EQ(lines[0], "step,t,state,observation");
    const Casino casino = load_casino();
    const Trellis tr = decode(casino.model, casino.codes, s.result->problem.hmm_fixed->scale_log2);
    for (size_t t = 1; t <= 300; ++t)
        EXPECT_EQ(lines[t], std::to_string(t) + "," + std::to_string(t) + "," + casino.model.states[size_t(tr.path[t - 1])] +
                                "," + casino.symbols[t - 1]);
    // The matrix PNG and the decoding text export too.
    activate(widget_id("Export", {"Matrix PNG"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir.path()) / "dpviz-matrix.png")) << s.export_message;
    activate(widget_id("Export", {"Alignment text"}));
    ui.frame(s, &w);
    ui.frame(s, &w);
    EXPECT_NE(slurp((std::filesystem::path(dir.path()) / "dpviz-alignment.txt").string()).find("Algorithm: viterbi"),
              std::string::npos);
}

TEST(GuiViterbiFiles, PathCsvQuotesSymbolsThatNeedIt) {
    // An alphabet of a comma and a quote: both must survive a CSV reader.
    auto model = app::parse_hmm("states A\nalphabet , \"\nstart 1\ntransition\nA 1\nemission\nA 0.5 0.5\n", "q.hmm");
    ASSERT_TRUE(model) << model.error().message;
    auto codes = app::encode_observations(*model, ",\"", "obs");
    ASSERT_TRUE(codes) << codes.error().message;
    auto p = make_viterbi_problem(std::make_shared<const Hmm>(*model), {"obs", ",\""}, *codes);
    ASSERT_TRUE(p) << p.error().message;
    const DpResult r = align_reference(*p);
    EXPECT_EQ(path_csv(*p, r.path), "step,t,state,observation\n1,1,A,\",\"\n2,2,A,\"\"\"\"\n");
}

TEST(GuiViterbiArgs, HmmModelAndObservations) {
    auto o = parse_gui_args({"--algo", "viterbi", "--hmm", "m.hmm", "rolls.txt", "--target-record", "2"}, {});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_TRUE(o->have_inputs);
    EXPECT_EQ(o->initial.params.algo, Algorithm::viterbi);
    EXPECT_EQ(o->initial.query.path, "m.hmm");
    EXPECT_EQ(o->initial.target.source, InputSource::file);
    EXPECT_EQ(o->initial.target.path, "rolls.txt");
    EXPECT_EQ(o->initial.target.record, "2");
    auto lit = parse_gui_args({"--algo", "hmm", "--hmm=m.hmm", "--seq", "16661"}, {});
    ASSERT_TRUE(lit) << lit.error().message;
    EXPECT_EQ(lit->initial.target.source, InputSource::paste);
    EXPECT_EQ(lit->initial.target.pasted, "16661");
    auto ex = parse_gui_args({"--example", "casino"}, {});
    ASSERT_TRUE(ex);
    EXPECT_EQ(ex->example, Example::casino);
    EXPECT_EQ(parse_gui_args({"--example", "cpg"}, {})->example, Example::cpg_island);
    // A saved Viterbi session does not turn QUERY TARGET into a model and observations.
    AppState session;
    session.params.algo = Algorithm::viterbi;
    auto pair = parse_gui_args({"a.fa", "b.fa"}, session);
    ASSERT_TRUE(pair) << pair.error().message;
    EXPECT_EQ(pair->initial.params.algo, Algorithm::local);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--hmm", "m.hmm", "obs.txt"}, {"--algo", "viterbi", "obs.txt"},
          {"--algo", "viterbi", "--hmm", "m.hmm"}, {"--algo", "viterbi", "--hmm", "m.hmm", "a", "b"},
          {"--algo", "viterbi", "--hmm", "m.hmm", "--query-record", "1", "obs.txt"},
          {"--algo", "viterbi", "--random-pair", "100"}, {"--example", "dice"},
          {"--algo", "viterbi", "--example", "casino", "--hmm", "m.hmm"}}) {
        auto r = parse_gui_args(bad, {});
        ASSERT_FALSE(r) << bad.front() << " " << bad.back();
        EXPECT_EQ(r.error().kind, ErrorKind::usage);
    }
    // The job reads them with the CLI's loader: a missing model is a one-line error naming it.
    JobRequest req;
    req.params.algo = Algorithm::viterbi;
    req.query.path = casino_model();
    req.target.source = InputSource::paste;
    req.target.pasted = "1666";
    auto p = build_problem(req);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->rows(), 2);
    EXPECT_EQ(p->cols(), 4);
    req.query.path = "/nonexistent/m.hmm";
    auto missing = build_problem(req);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("/nonexistent/m.hmm"), std::string::npos) << missing.error().message;
    req.query.path.clear();
    EXPECT_FALSE(build_problem(req));
}

TEST_F(GuiViterbi, TeachingViewsSayWhatRunsAndWhatDoesNotApply) {
    open_casino(ui, s, w);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(app::fill_kernel_name(s.result->problem, true, OutputLevel::matrix), "viterbi dpx matrix");
    s.panels.machine_code = s.panels.wavefront = true;
    s.wavefront.view = TeachView::playback;
    for (int k = 0; k < 3; ++k) ui.frame(s, &w);
    // No band schedule to replay: the Wavefront panel says why instead of mapping the trellis.
    EXPECT_FALSE(s.wavefront.cache.schedule);
    EXPECT_NE(s.wavefront.cache.error.find("a column at a time"), std::string::npos) << s.wavefront.cache.error;
    EXPECT_NE(ImGui::FindWindowByName("Machine code"), nullptr);
}

}  // namespace
}  // namespace dpviz::gui
