// The recurrence inspector against the engine: for sampled cells of seeded random problems of
// every algorithm, its recurrence values and kernel lines equal the engine's H/E/F/D, the cell
// operation of kernels/common/cell_ops.hpp (HostOps) gives the same value and direction bits,
// and the winners it names are exactly the stored bits; for Viterbi, on random models, the same
// with the backpointers. Plus the panel in headless frames.
#include <algorithm>
#include <cfloat>
#include <random>

#include "../../kernels/common/cell_ops.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "gui/teach_inspector.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

struct Case {
    Algorithm algo;
    int open, extend;
    DtwCost cost = DtwCost::abs;
    int band = -1;
};

std::string random_seq(std::mt19937& rng, int n) {
    static const char kDna[] = "ACGT";
    std::string s;
    for (int k = 0; k < n; ++k) s += kDna[rng() % 4];
    return s;
}

Problem random_problem(const Case& c, std::mt19937& rng) {
    const int m = 4 + int(rng() % 28), n = 4 + int(rng() % 28);
    ScoringOptions s;
    s.match = 1 + int(rng() % 4);
    s.mismatch = -1 - int(rng() % 4);
    s.gaps = {c.open, c.extend};
    s.dtw_cost = c.cost;
    s.band = c.band;
    if (c.algo == Algorithm::dtw) {
        SignalInput q{"q", {}}, t{"t", {}};
        for (int k = 0; k < m; ++k) q.values.push_back(double(rng() % 2000) / 100.0 - 10.0);
        for (int k = 0; k < n; ++k) t.values.push_back(double(rng() % 2000) / 100.0 - 10.0);
        auto p = make_dtw_problem(q, t, s);
        EXPECT_TRUE(p) << p.error().message;
        return *p;
    }
    auto p = make_problem(c.algo, {"q", random_seq(rng, m)}, {"t", random_seq(rng, n)}, s);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

// What cell_ops.hpp computes for the cell (the kernels' recurrence, host policy): value and bits.
struct OpsCell {
    int32_t h = 0, e = 0, f = 0;
    uint32_t bits = 0;
};

OpsCell cell_ops_value(const Problem& p, const DpResult& r, Cell c) {
    using cell::HostOps;
    const int i = c.i, j = c.j;
    const int32_t diag = r.H.at(i - 1, j - 1), up = r.H.at(i - 1, j), left = r.H.at(i, j - 1);
    OpsCell o;
    const bool local = p.algo == Algorithm::local;
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            if (p.affine()) {
                o.h = local ? cell::align_affine<HostOps, true, true>(diag, up, r.F.at(i - 1, j), left, r.E.at(i, j - 1),
                                                                      p.sub(i, j), p.gaps.open, p.gaps.extend, 0, o.e, o.f, o.bits)
                            : cell::align_affine<HostOps, false, true>(diag, up, r.F.at(i - 1, j), left, r.E.at(i, j - 1),
                                                                       p.sub(i, j), p.gaps.open, p.gaps.extend, 0, o.e, o.f, o.bits);
            } else {
                o.h = local ? cell::align_linear<HostOps, true, true>(diag, up, left, p.sub(i, j), p.gaps.open, 0, o.bits)
                            : cell::align_linear<HostOps, false, true>(diag, up, left, p.sub(i, j), p.gaps.open, 0, o.bits);
            }
            break;
        case Algorithm::edit:
            o.h = cell::edit<HostOps, true>(diag, up, left, p.query_codes[size_t(i - 1)] != p.target_codes[size_t(j - 1)], o.bits);
            break;
        case Algorithm::lcs: {
            const bool match = p.query_codes[size_t(i - 1)] == p.target_codes[size_t(j - 1)];
            o.h = cell::lcs<HostOps, true>(diag, up, left, match ? 1 : kNegInf, o.bits);
            break;
        }
        case Algorithm::dtw: {
            const bool in = p.in_band(i, j);
            o.h = cell::dtw<HostOps, true>(diag, up, left, in ? p.dtw_local_cost(i, j) : 0, in, kPosInf, o.bits);
            break;
        }
        case Algorithm::viterbi: break;  // check_viterbi_cell
    }
    return o;
}

const KernelLine& line(const std::vector<KernelLine>& v, const std::string& lhs) {
    for (const KernelLine& k : v)
        if (k.lhs == lhs) return k;
    ADD_FAILURE() << "no kernel line " << lhs;
    return v.back();
}

void check_cell(const Problem& p, const DpResult& r, Cell c, const std::string& where) {
    const MatrixRefs refs{&r.H, &r.E, &r.F, &r.dirs};
    const Inspection in = inspect_cell(p, refs, c);
    const uint8_t stored = r.dirs.at(c.i, c.j);
    const int32_t H = r.H.at(c.i, c.j);
    ASSERT_EQ(in.x.h, H) << where;
    ASSERT_EQ(in.x.bits, stored) << where;
    for (const BitFlag& b : in.bits) EXPECT_EQ(b.set, (stored & b.mask) != 0) << where << " bit " << b.name;
    if (c.i == 0 || c.j == 0) {
        EXPECT_TRUE(in.border) << where;
        EXPECT_FALSE(in.border_rule.empty()) << where;
        return;
    }
    // The recurrence lines evaluate to the engine's values (H last; E and F before it).
    ASSERT_FALSE(in.recurrences.empty()) << where;
    EXPECT_EQ(in.recurrences.back().value, H) << where;
    const std::string hname = in.recurrences.back().lhs;
    EXPECT_EQ(line(in.with_dirs, hname).value, H) << where << " kernel line (bits kept)";
    EXPECT_EQ(line(in.score_only, hname).value, H) << where << " kernel line (score only)";
    if (p.affine()) {
        ASSERT_EQ(in.recurrences.size(), 3u);
        EXPECT_EQ(in.recurrences[0].value, r.E.at(c.i, c.j)) << where;
        EXPECT_EQ(in.recurrences[1].value, r.F.at(c.i, c.j)) << where;
        EXPECT_EQ(line(in.with_dirs, "E").value, r.E.at(c.i, c.j)) << where;
        EXPECT_EQ(line(in.with_dirs, "F").value, r.F.at(c.i, c.j)) << where;
        EXPECT_EQ(line(in.score_only, "E").value, r.E.at(c.i, c.j)) << where;
        EXPECT_EQ(line(in.score_only, "F").value, r.F.at(c.i, c.j)) << where;
    }
    // cell_ops.hpp (what the kernels call) agrees on value and on every direction bit.
    const OpsCell o = cell_ops_value(p, r, c);
    EXPECT_EQ(o.h, H) << where << " cell_ops";
    EXPECT_EQ(o.bits, stored) << where << " cell_ops bits";
    // The winners named are the candidates at the optimum, and they are the stored bits.
    const bool dtw = p.algo == Algorithm::dtw;
    const auto& cs = in.x.h_candidates;
    int32_t best = minimizes(p.algo) ? kPosInf : kNegInf;
    for (const Candidate& k : cs) best = minimizes(p.algo) ? std::min(best, k.value) : std::max(best, k.value);
    const bool reachable = !dtw || (p.in_band(c.i, c.j) && best < kPosInf);
    for (const Candidate& k : cs) {
        EXPECT_EQ(k.won, reachable && k.value == best) << where << " " << k.label;
        if (k.won) {
            EXPECT_NE(in.recurrences.back().winner.find(k.name), std::string::npos) << where << " " << k.name;
        }
    }
    if (!dtw) {
        EXPECT_EQ(best, H) << where;
    }
}

TEST(TeachInspector, NumbersMatchTheEngineForEveryAlgorithm) {
    const std::vector<Case> cases = {
        {Algorithm::local, 3, 3},  {Algorithm::local, 5, 1},      {Algorithm::global, 2, 2},
        {Algorithm::global, 6, 2}, {Algorithm::semiglobal, 3, 3}, {Algorithm::semiglobal, 4, 1},
        {Algorithm::edit, 1, 1},   {Algorithm::lcs, 1, 1},        {Algorithm::dtw, 1, 1},
        {Algorithm::dtw, 1, 1, DtwCost::squared},                 {Algorithm::dtw, 1, 1, DtwCost::abs, 3},
        {Algorithm::glocal, 3, 3}, {Algorithm::glocal, 5, 1},
    };
    std::mt19937 rng(20261130);
    for (const Case& c : cases) {
        for (int rep = 0; rep < 4; ++rep) {
            const Problem p = random_problem(c, rng);
            AlignOptions opt;
            opt.level = OutputLevel::matrix;
            auto r = align(p, opt);  // as the GUI's job: the automatic backend at level matrix
            ASSERT_TRUE(r) << r.error().message;
            const int rows = r->H.rows, cols = r->H.cols;
            for (int k = 0; k < 40; ++k) {
                const Cell cell{int32_t(rng() % rows), int32_t(rng() % cols)};
                check_cell(p, *r, cell,
                           std::string(algorithm_name(p.algo)) + (p.affine() ? " affine" : "") + " (" +
                               std::to_string(cell.i) + "," + std::to_string(cell.j) + ")");
            }
            check_cell(p, *r, {rows - 1, cols - 1}, "last cell");
        }
    }
}

// A random model: S states, K symbols, about one probability in seven 0 (impossible cells).
Expected<Hmm> random_hmm(std::mt19937& rng, int S, int K) {
    const auto row = [&](int n) {
        std::vector<double> v(static_cast<size_t>(n), 0.0);
        double sum = 0;
        for (double& x : v) sum += x = rng() % 7 == 0 ? 0.0 : 0.05 + double(rng() % 1000) / 1000.0;
        if (sum == 0) sum = v[0] = 1.0;
        for (double& x : v) x /= sum;
        return v;
    };
    std::vector<std::string> states;
    for (int k = 0; k < S; ++k) states.push_back("s" + std::to_string(k));
    std::vector<double> start = row(S), trans, emit;
    for (int k = 0; k < S; ++k) {
        for (double x : row(S)) trans.push_back(x);
        for (double x : row(K)) emit.push_back(x);
    }
    return make_hmm("random", states, std::string("abcd").substr(0, size_t(K)), start, trans, emit);
}

void check_viterbi_cell(const Problem& p, const DpResult& r, Cell c, const std::string& where) {
    using cell::HostOps;
    const MatrixRefs refs{&r.H, &r.E, &r.F, &r.dirs, {}, &r.back};
    const Inspection in = inspect_cell(p, refs, c);
    const int32_t H = r.H.at(c.i, c.j);
    ASSERT_EQ(in.x.h, H) << where;
    EXPECT_TRUE(in.bits.empty()) << where;
    if (c.i == 0 || c.j == 0) {
        EXPECT_TRUE(in.border) << where;
        EXPECT_NE(in.border_rule.find("begin state"), std::string::npos) << where << ": " << in.border_rule;
        return;
    }
    // Both recurrence lines (ln p, fixed point) and both kernel forms give the engine's delta.
    ASSERT_EQ(in.recurrences.size(), 2u) << where;
    EXPECT_EQ(in.recurrences[0].value, H) << where;
    EXPECT_EQ(in.recurrences[1].value, H) << where;
    EXPECT_EQ(line(in.score_only, "delta").value, H) << where << " running max";
    EXPECT_EQ(line(in.with_dirs, "delta").value, H) << where << " with the backpointer";
    // cell_ops.hpp, as the kernels call it, agrees: the running max, and the arg form's winner.
    const FixedHmm& f = *p.hmm_fixed;
    const int s = c.i - 1, S = f.states;
    const int32_t emit = f.emission[size_t(s) * size_t(f.symbols) + p.target_codes[size_t(c.j - 1)]];
    const auto trans = [&](int k) { return f.transition[size_t(k) * size_t(S) + size_t(s)]; };
    int32_t best = kNegInf, arg_best = kNegInf, arg = 0;
    if (c.j == 1) {
        best = arg_best = f.start[size_t(s)];
    } else {
        for (int k = 0; k < S; ++k) best = cell::viterbi_candidate<HostOps>(r.H.at(k + 1, c.j - 1), trans(k), best);
        for (int k = S - 1; k >= 0; --k)
            arg_best = cell::viterbi_candidate_arg<HostOps>(r.H.at(k + 1, c.j - 1), trans(k), arg_best, k, arg);
    }
    EXPECT_EQ(cell::viterbi_cell<HostOps>(best, emit, kNegInf), H) << where << " cell_ops";
    EXPECT_EQ(arg_best, best) << where;
    // The winner named is the stored backpointer, the lowest state among the best candidates.
    const int back = r.back.at(c.i, c.j);
    int won = 0, lowest_best = -1;
    int32_t top = kNegInf;
    for (const Candidate& k : in.x.h_candidates) top = std::max(top, k.value);
    for (const Candidate& k : in.x.h_candidates) {
        won += k.won;
        if (k.won) {
            EXPECT_EQ(k.row, back) << where;
            EXPECT_NE(in.recurrences[0].winner.find(k.name), std::string::npos) << where << " " << in.recurrences[0].winner;
        }
        if (lowest_best < 0 && k.value == top && top > kNegInf) lowest_best = k.row;
    }
    // No finite predecessor term: nothing won (an impossible emission alone leaves the winner).
    if (top <= kNegInf) {
        EXPECT_EQ(won, 0) << where;
        EXPECT_EQ(H, kNegInf) << where;
        return;
    }
    EXPECT_EQ(won, 1) << where;
    EXPECT_EQ(lowest_best, back) << where;
    if (c.j > 1) {
        EXPECT_EQ(arg + 1, back) << where << " cell_ops arg";
        EXPECT_EQ(line(in.with_dirs, "arg").value, back) << where;
    }
}

TEST(TeachInspector, ViterbiNumbersMatchTheEngineAndCellOps) {
    std::mt19937 rng(1998);
    int checked = 0;
    for (int rep = 0; rep < 16; ++rep) {
        // Up to 12 states: past kViterbiShownTerms, where the lines fold the middle steps.
        const int S = 1 + int(rng() % 12), K = 2 + int(rng() % 3), T = 2 + int(rng() % 24);
        auto m = random_hmm(rng, S, K);
        ASSERT_TRUE(m) << m.error().message;
        std::vector<uint8_t> codes;
        std::string symbols;
        for (int t = 0; t < T; ++t) {
            codes.push_back(uint8_t(rng() % unsigned(K)));
            symbols += m->alphabet[codes.back()];
        }
        auto p = make_viterbi_problem(std::make_shared<const Hmm>(*m), {"obs", symbols}, codes);
        ASSERT_TRUE(p) << p.error().message;
        AlignOptions opt;
        opt.level = OutputLevel::matrix;
        auto r = align(*p, opt);  // as the GUI's job
        if (!r) {
            EXPECT_EQ(r.error().kind, ErrorKind::input) << r.error().message;  // observations impossible under it
            continue;
        }
        for (int i = 0; i < r->H.rows; ++i)
            for (int j = 0; j < r->H.cols; ++j) {
                check_viterbi_cell(*p, *r, {i, j},
                                   std::to_string(S) + " states (" + std::to_string(i) + "," + std::to_string(j) + ")");
                ++checked;
            }
    }
    EXPECT_GT(checked, 200);
}

TEST(TeachInspector, LiveFormulaOfALinearLocalCell) {
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    auto p = make_problem(Algorithm::local, {"q", "GATTACA"}, {"t", "CCGATTACATT"}, s);
    ASSERT_TRUE(p);
    const DpResult r = align_reference(*p);
    const Inspection in = inspect_cell(*p, {&r.H, &r.E, &r.F, &r.dirs}, {7, 9});
    ASSERT_EQ(in.recurrences.size(), 1u);
    // H[6][8] = 12 (GATTAC), A = A: 12 + 2 = 14 wins over 10 - 2, 10 - 2 and 0.
    EXPECT_EQ(in.recurrences[0].live, "max(12 + 2, 10 - 2, 10 - 2, 0)");
    EXPECT_EQ(in.recurrences[0].reduced, "max(14, 8, 8, 0)");
    EXPECT_EQ(in.recurrences[0].winner, "diag");
    EXPECT_EQ(line(in.with_dirs, "H").dpx.substr(0, 31), "__vimax3_s32_relu(14, 8, 8)   [");
    EXPECT_EQ(line(in.with_dirs, "H").dpx_free, "max2(max2(max2(14, 8), 8), 0)");
    EXPECT_EQ(line(in.score_only, "H").dpx, "__viaddmax_s32_relu(10, -2, 14)");
}

TEST(TeachInspector, PanelShowsTheClickedCell) {
    HeadlessImGui ui;
    AppState s = fresh_state();
    s.panels.inspector = true;
    s.query.source = s.target.source = InputSource::paste;
    s.query.pasted = "GATTACA";
    s.target.pasted = "CCGATTACATT";
    s.params.algo = Algorithm::global;
    s.params.scoring = ScoringMode::match_mismatch;
    s.params.gap_open = Hundredths::units(5);
    s.params.gap_extend = Hundredths::units(1);
    s.requests.compute = true;
    Worker w(run_job);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    ui.frame(s, &w);
    // Click a cell of the matrix (press and release without moving): the inspector takes it.
    const Cell target{3, 5};
    s.view.center_pending = MatrixView::CenterOn{double(target.i), double(target.j), 30.0};
    ui.frame(s, &w);
    ImGuiIO& io = ImGui::GetIO();
    const Vec2d at = to_screen(s.view.xf, s.view.canvas, {target.j + 0.5, target.i + 0.5});
    click_at(ui, s, w, ImVec2(float(at.x), float(at.y)));
    ASSERT_TRUE(s.view.inspected);
    EXPECT_EQ(*s.view.inspected, target);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (int k = 0; k < 3; ++k) ui.frame(s, &w);
    EXPECT_NE(ImGui::FindWindowByName("Inspector"), nullptr);
    // Out-of-range cells (a smaller matrix came in) are ignored, not read.
    s.view.inspected = Cell{500, 500};
    ui.frame(s, &w);
}

}  // namespace
}  // namespace dpviz::gui
