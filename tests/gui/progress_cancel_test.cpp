// The worker's progress and cancellation with the real engine: the engine's progress reaches the
// state, a new parameter change cancels the running fill inside the engine (not only drops its
// outcome) and the newest result is shown; the background threads stop and are waited for; the
// measurement mode's pieces (seeded random pair, statistics, command line); the path choice
// without interop.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gui/cell_inspect.hpp"
#include "gui/gui.hpp"
#include "gui/measure.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

// A headless state on the CPU backend whose random DNA pair (3000 x 3000, seeded) is big enough
// that its fill is still running when the test acts on it.
AppState long_cpu_fill(uint64_t seed) {
    const auto [q, t] = random_dna_pair(3000, seed);
    AppState s;
    s.headless = true;
    s.query = pasted("q", q);
    s.target = pasted("t", t);
    s.params.backend = BackendChoice::cpu;
    return s;
}

TEST(GuiJobs, TheJobsProgressReachesTheRunnerAndResetsWithTheStage) {
    std::atomic<int> step{0};
    JobRunner<int, int> runner([&](const int& x, JobContext& ctx) {
        ctx.set_stage("filling");
        ctx.set_progress(0.25);
        step = 1;
        while (step.load() == 1) std::this_thread::yield();
        ctx.set_stage("preparing the view");
        step = 3;
        while (step.load() == 3) std::this_thread::yield();
        return x;
    });
    runner.submit(1);
    while (step.load() != 1) std::this_thread::yield();
    JobProgress p = runner.progress();
    EXPECT_EQ(p.stage, "filling");
    EXPECT_DOUBLE_EQ(p.fraction, 0.25);
    step = 2;
    while (step.load() != 3) std::this_thread::yield();
    p = runner.progress();
    EXPECT_EQ(p.stage, "preparing the view");
    EXPECT_LT(p.fraction, 0.0);  // a new stage has no engine progress yet
    step = 4;
    for (int k = 0; k < 2000 && runner.progress().busy; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_FALSE(runner.progress().busy);
    EXPECT_FALSE(runner.progress().fraction >= 0.0);
}

TEST(GuiJobs, ANewParameterChangeCancelsTheRunningFillInTheEngine) {
    // A pair big enough that the fill is still running when the change arrives (the test waits
    // for the engine's first progress report, then changes gap open).
    AppState s = long_cpu_fill(7);
    s.params.gap_open = s.params.gap_extend = Hundredths::units(4);  // linear gaps: 5 bytes a cell at level matrix
    std::mutex m;
    std::vector<std::pair<Hundredths, std::optional<ErrorKind>>> outcomes;  // gap open, engine error
    Worker w([&](const JobRequest& req, JobContext& ctx) {
        JobOutcome out = run_job(req, ctx);
        std::lock_guard l(m);
        outcomes.emplace_back(req.params.gap_open, out.error ? std::optional(out.error->kind) : std::nullopt);
        return out;
    });
    HeadlessImGui ui;
    s.requests.compute = true;
    ui.frame(s, &w);
    const uint64_t first = s.job.submitted;
    ASSERT_TRUE(wait_until_filling(w, first)) << "the engine never reported fill progress";
    s.params.gap_open = s.params.gap_extend = Hundredths::units(5);
    s.requests.compute = true;
    ui.frame(s, &w);
    EXPECT_GT(s.job.submitted, first);
    EXPECT_TRUE(w.progress().running_cancelled || w.progress().running_id != first);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy && s.result; }, 120.0)) << s.error;
    ui.frame(s, &w);
    ASSERT_TRUE(s.result);
    EXPECT_EQ(s.result->problem.gaps.open, 5);  // the newest request's result is shown
    EXPECT_EQ(s.job.shown, s.job.submitted);
    std::lock_guard l(m);
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_EQ(outcomes[0].first.text(), "4");
    ASSERT_TRUE(outcomes[0].second.has_value()) << "the superseded fill ran to the end";
    EXPECT_EQ(*outcomes[0].second, ErrorKind::cancelled);  // stopped inside the engine
    EXPECT_FALSE(outcomes[1].second.has_value());
}

TEST(GuiJobs, CancelButtonStopsTheEngineAndSaysCancelled) {
    AppState s = long_cpu_fill(8);
    Worker w(run_job);
    HeadlessImGui ui;
    s.requests.compute = true;
    ui.frame(s, &w);
    s.requests.cancel = true;
    ui.frame(s, &w);
    EXPECT_EQ(s.error, "cancelled");
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return !s.job.busy; }, 60.0));
    ui.frame(s, &w);
    EXPECT_FALSE(s.result);  // nothing from the cancelled job is shown
}

// The background threads: a thread that ends stops counting as running; join_all sets the cancel
// flag of a thread that would otherwise run forever and waits for every thread; a thread starts
// while another runs (ended ones are joined then, running ones never).
TEST(GuiJobs, BackgroundThreadsAreCancelledAndJoined) {
    BackgroundThreads threads;
    auto forever = std::make_shared<std::atomic<bool>>(false);
    std::atomic<int> finished{0};
    std::atomic<bool> started{false};
    threads.run(
        [&, forever] {
            started = true;
            while (!forever->load()) std::this_thread::yield();
            ++finished;
        },
        forever);
    while (!started) std::this_thread::yield();
    threads.run([&] { ++finished; });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (threads.running() > 1 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    EXPECT_EQ(threads.running(), 1);
    EXPECT_EQ(finished.load(), 1);
    threads.run([&] { ++finished; });  // joins the ended one, not the one still running
    threads.join_all();
    EXPECT_TRUE(forever->load());
    EXPECT_EQ(finished.load(), 3);
    EXPECT_EQ(threads.running(), 0);
}

TEST(GuiCompute, ThreadsFromTheCommandLineReachTheCpuBackend) {
    std::string q, t;
    for (int i = 0; i < 400; ++i) {
        q += "ACGT"[(i * 7 + i / 3) % 4];
        t += "ACGT"[(i * 5 + i / 7) % 4];
    }
    JobRequest req;
    req.query = pasted("q", q);
    req.target = pasted("t", t);
    req.params.algo = Algorithm::global;
    req.params.backend = BackendChoice::cpu;
    req.device_view = false;
    for (const unsigned n : {1u, 2u}) {
        req.engine.threads = n;
        JobContext ctx;
        const JobOutcome out = run_job(req, ctx);
        ASSERT_TRUE(out.computed) << (out.error ? out.error->message : "");
        EXPECT_EQ(out.computed->result.shape.threads, int32_t(n)) << n;
    }
}

TEST(GuiCompute, WithoutInteropTheHostPathRunsAndWindowsAreTheWholeMatrices) {
    JobRequest req;
    req.query = pasted("q", "ACGTTGCAAGGCTTAC");
    req.target = pasted("t", "ACGTAGCAAGCTTAAC");
    req.params.algo = Algorithm::global;
    req.device_view = false;
    JobContext ctx;
    const JobOutcome out = run_job(req, ctx);
    ASSERT_TRUE(out.computed) << (out.error ? out.error->message : "");
    const Computed& c = *out.computed;
    EXPECT_FALSE(c.resident());
    EXPECT_FALSE(c.stages.on_device);
    EXPECT_GT(c.stages.total, 0.0);
    const MatrixRefs w = c.window(3, 6, 4, 9);
    EXPECT_EQ(w.H, c.refs().H);
    EXPECT_EQ(w.value(w.H, 4, 5), c.grid(Layer::H).at(4, 5));
    EXPECT_EQ(w.bits(4, 5), c.result.dirs.at(4, 5));
    EXPECT_EQ(w.value(w.H, 99, 5), kNegInf);  // outside: unreachable, never out of bounds
    EXPECT_TRUE(c.mask_ready());
}

// DeviceMatrices over host grids: Computed's windows, whole copies and lazy mask, without a GPU.
class HostMatrices final : public DeviceMatrices {
public:
    explicit HostMatrices(const DpResult& r) : r_(r) {}
    int32_t rows() const override { return r_.H.rows; }
    int32_t cols() const override { return r_.H.cols; }
    bool has_layer(int k) const override { return !grid(k).empty(); }
    const std::vector<DeviceLevel>& levels(int) const override { return none_; }
    DeviceRange range(int) const override { return {}; }
    Status fetch(int k, int32_t i0, int32_t j0, int32_t r, int32_t c, int32_t* out) const override {
        ++fetches;
        if (i0 < 0 || j0 < 0 || i0 + r > rows() || j0 + c > cols()) return usage_error("window outside the matrix");
        for (int a = 0; a < r; ++a)
            for (int b = 0; b < c; ++b) out[size_t(a) * c + b] = grid(k).at(i0 + a, j0 + b);
        return Ok{};
    }
    Status fetch_bits(int32_t i0, int32_t j0, int32_t r, int32_t c, uint8_t* out) const override {
        if (i0 < 0 || j0 < 0 || i0 + r > rows() || j0 + c > cols()) return usage_error("window outside the matrix");
        for (int a = 0; a < r; ++a)
            for (int b = 0; b < c; ++b) out[size_t(a) * c + b] = r_.dirs.at(i0 + a, j0 + b);
        return Ok{};
    }
    Status fetch_level(int, int, int32_t*) const override { return usage_error("no levels"); }
    mutable int fetches = 0;

private:
    const Grid<int32_t>& grid(int k) const { return k == 1 ? r_.E : k == 2 ? r_.F : r_.H; }
    const DpResult& r_;
    std::vector<DeviceLevel> none_;
};

TEST(GuiCompute, WindowsOfResidentMatricesReadTheRightCells) {
    const auto [q, t] = random_dna_pair(300, 5);
    ScoringOptions so;
    so.gaps = {6, 2};
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, so);
    ASSERT_TRUE(p);
    const DpResult ref = align_reference(*p);
    auto fake = std::make_shared<HostMatrices>(ref);
    Computed c;
    c.problem = *p;
    c.result.score = ref.score;
    c.result.path = ref.path;
    c.device = fake;
    ASSERT_TRUE(c.resident());
    EXPECT_TRUE(c.has_layer(Layer::E));
    EXPECT_FALSE(c.mask_ready());
    const MatrixRefs whole{&ref.H, &ref.E, &ref.F, &ref.dirs};
    // Tooltips anywhere (corners included) and a table region: every cell the recurrence reads.
    const Cell cells[] = {{0, 0}, {1, 1}, {p->rows(), p->cols()}, {150, 20}, {151, 21}, {0, p->cols()}, {p->rows(), 0}};
    for (const Cell cell : cells) {
        const MatrixRefs w = c.window(cell.i, cell.i + 1, cell.j, cell.j + 1);
        for (int i = cell.i - 1; i <= cell.i; ++i)
            for (int j = cell.j - 1; j <= cell.j; ++j) {
                if (i < 0 || j < 0) continue;
                EXPECT_EQ(w.value(w.H, i, j), ref.H.at(i, j)) << i << "," << j;
                EXPECT_EQ(w.value(w.E, i, j), ref.E.at(i, j)) << i << "," << j;
                EXPECT_EQ(w.value(w.F, i, j), ref.F.at(i, j)) << i << "," << j;
                EXPECT_EQ(w.bits(i, j), ref.dirs.at(i, j)) << i << "," << j;
            }
        const CellExplain a = explain_cell(c.problem, w, cell), b = explain_cell(c.problem, whole, cell);
        EXPECT_EQ(a.h, b.h);
        EXPECT_EQ(a.e, b.e);
        EXPECT_EQ(a.bits, b.bits);
        ASSERT_EQ(a.h_candidates.size(), b.h_candidates.size());
        for (size_t k = 0; k < a.h_candidates.size(); ++k) EXPECT_EQ(a.h_candidates[k].value, b.h_candidates[k].value);
    }
    // A neighbouring request inside the kept window (margin) copies nothing new.
    c.window(150, 151, 20, 21);
    const int before = fake->fetches;
    c.window(160, 161, 30, 31);
    EXPECT_EQ(fake->fetches, before);
    c.window(10, 40, 200, 260);  // a table region elsewhere
    EXPECT_GT(fake->fetches, before);
    const MatrixRefs w = c.window(10, 40, 200, 260);
    for (int i = 9; i < 40; ++i)
        for (int j = 199; j < 260; ++j) ASSERT_EQ(w.value(w.H, i, j), ref.H.at(i, j));
    // Whole copies and the mask, on first use.
    EXPECT_EQ(c.grid(Layer::F).data, ref.F.data);
    EXPECT_EQ(c.refs().dirs->data, ref.dirs.data);
    const render::MaskPyramid& m = c.mask_pyramid();
    EXPECT_TRUE(c.mask_ready());
    ASSERT_FALSE(m.levels.empty());
    EXPECT_EQ(m.levels[0].data, optimal_mask(*p, whole, ref.score).data);
}

TEST(GuiMeasure, RandomPairIsSeededAndAboutEightyPercentIdentical) {
    const auto a = random_dna_pair(3000, 42), b = random_dna_pair(3000, 42), c = random_dna_pair(3000, 43);
    EXPECT_EQ(a, b);
    EXPECT_NE(a.first, c.first);
    EXPECT_EQ(a.first.size(), 3000u);
    EXPECT_NEAR(double(a.second.size()), 3000.0, 150.0);
    EXPECT_EQ(a.first.find_first_not_of("ACGT"), std::string::npos);
    ScoringOptions so;
    so.match = 1;
    so.mismatch = -1;
    so.gaps = {2, 1};
    auto p = make_problem(Algorithm::global, {"q", a.first}, {"t", a.second}, so);
    ASSERT_TRUE(p);
    AlignOptions opt;
    opt.backend = Backend::cpu;
    auto r = align(*p, opt);
    ASSERT_TRUE(r);
    EXPECT_GT(r->alignment.identity(), 0.72);
    EXPECT_LT(r->alignment.identity(), 0.88);
}

TEST(GuiMeasure, SummaryStatistics) {
    const Summary s = summarize({5, 1, 4, 2, 3, 10, 6, 7, 8, 9});
    EXPECT_EQ(s.n, 10);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 10);
    EXPECT_DOUBLE_EQ(s.median, 5.5);
    EXPECT_DOUBLE_EQ(s.p90, 9);
    EXPECT_DOUBLE_EQ(summarize({3, 1, 2}).median, 2);
    EXPECT_EQ(summarize({}).n, 0);
}

TEST(GuiArgs, MeasurementOptions) {
    auto o = parse_gui_args({"gui", "--random-pair", "500", "--seed", "9", "--measure-interactive", "7",
                             "--measure-upload", "10", "--json"},
                            AppState{});
    ASSERT_TRUE(o) << o.error().message;
    EXPECT_EQ(o->measure.interactive, 7);
    EXPECT_EQ(o->measure.upload, 50);  // at least 50
    EXPECT_TRUE(o->measure.json);
    EXPECT_FALSE(o->use_session);
    EXPECT_TRUE(o->have_inputs);
    EXPECT_EQ(o->initial.query.source, InputSource::paste);
    EXPECT_NE(o->initial.query.pasted.find(random_dna_pair(500, 9).first), std::string::npos);
    EXPECT_NE(o->initial.target.pasted.find(random_dna_pair(500, 9).second), std::string::npos);
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--measure-interactive", "0"},
                                               {"--random-pair", "100", "a.fa", "b.fa"},
                                               {"--random-pair", "100", "--algo", "dtw"},
                                               {"--seed", "x"},
                                               {"--random-pair", "many"}}) {
        auto e = parse_gui_args(bad, AppState{});
        ASSERT_FALSE(e) << bad[0];
        EXPECT_EQ(e.error().kind, ErrorKind::usage);
    }
}

}  // namespace
}  // namespace dpviz::gui
