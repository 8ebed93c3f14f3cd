// The recurrence inspector (see teach_inspector.hpp). The kernel lines mirror the recurrences of
// kernels/common/cell_ops.hpp term by term (DpxOps for the DPX column, PortableOps for the
// DPX-free one); the tests check their values against the engine's matrices and cell_ops itself.
// Viterbi has its own recurrence lines (ln p and fixed point), kernel lines and panel section.
//
// Index of this file
// [SECTION] Text and arithmetic helpers
// [SECTION] Inspection
// [SECTION] Panel
#include "gui/teach_inspector.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "dpviz/hmm.hpp"
#include "gui/compute.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

// ---------------------------------------------------------------------------------------------
// [SECTION] Text and arithmetic helpers
// ---------------------------------------------------------------------------------------------
namespace {

using T = std::string;

// A kernel operand: the engine's integer (x score_scale), as the kernels add it.
T num(int32_t v) { return term_text(v); }
// An operand that is added: negative numbers in parentheses.
T addend(int32_t v) {
    if (v >= 0 || v <= kNegInf) return num(v);
    T s = "(";  // built in steps: GCC 12 warns (-Wrestrict, a false positive) on "(" + str + ")"
    s += num(v);
    s += ')';
    return s;
}
T call(const T& f, std::initializer_list<T> args) {
    T s = f + "(";
    bool first = true;
    for (const T& a : args) {
        s += (first ? "" : ", ") + a;
        first = false;
    }
    return s + ")";
}
T join(const std::vector<T>& v, const char* sep) {
    T s;
    for (size_t k = 0; k < v.size(); ++k) s += (k ? sep : "") + v[k];
    return s;
}

// The policy primitives of cell_ops.hpp, evaluated on the host (HostOps semantics).
int32_t max2(int32_t a, int32_t b) { return std::max(a, b); }
int32_t min2(int32_t a, int32_t b) { return std::min(a, b); }
int32_t max3(int32_t a, int32_t b, int32_t c) { return max2(max2(a, b), c); }
int32_t min3(int32_t a, int32_t b, int32_t c) { return min2(min2(a, b), c); }
int32_t addmax(int32_t a, int32_t b, int32_t c) { return max2(a + b, c); }
int32_t addmin(int32_t a, int32_t b, int32_t c) { return min2(a + b, c); }


// The winners of a candidate list: the names whose bit is set ("diag", "up = left (tie)").
T winners(const std::vector<Candidate>& cs) {
    std::vector<T> w;
    for (const Candidate& c : cs)
        if (c.won) w.push_back(c.name);
    if (w.size() > 1) return join(w, " = ") + " (tie: each bit is set)";
    return w.empty() ? T() : w.front();
}

// The recurrence in the user's units (the candidates' expressions are): 10.5 at score_scale 2, not 21.
RecurrenceLine reduce(const Problem& p, T lhs, T symbolic, const char* op, const std::vector<Candidate>& cs,
                      int32_t value) {
    RecurrenceLine r;
    r.lhs = std::move(lhs);
    r.symbolic = std::move(symbolic);
    std::vector<T> live, vals;
    for (const Candidate& c : cs) {
        live.push_back(c.expr);
        vals.push_back(term_text(p, c.value));
    }
    r.live = std::string(op) + "(" + join(live, ", ") + ")";
    r.reduced = std::string(op) + "(" + join(vals, ", ") + ")";
    r.value = value;
    r.winner = winners(cs);
    return r;
}

// The rule of the border the cell is on (dpviz/algorithm.hpp), in words.
std::string border_rule(const Problem& p, Cell c) {
    const std::string name(algorithm_name(p.algo));
    if (p.algo == Algorithm::viterbi) {
        if (c.i == 0 && c.j == 0)
            return name + ": the corner (0, 0) is 0 = ln 1: the silent begin state before the first observation, "
                          "where every state path begins";
        if (c.i == 0)
            return name + ": row 0 is the silent begin state; it emits nothing, so at time " + std::to_string(c.j) +
                   " (after an observation) it is impossible (-inf). Its one move is into column 1, through ln start(s)";
        return name + ": column 0 is the time before the first observation, when only the begin state is possible: "
                      "state " + state_name(p, c.i) + " is impossible there (-inf)";
    }
    if (c.i == 0 && c.j == 0) return name + ": the corner (0, 0) is 0, where every path begins";
    const bool column = c.j == 0;
    const AlgorithmRules rules = rules_of(p.algo);
    const std::string where = column ? "column 0 (query residues against nothing)" : "row 0 (target residues against nothing)";
    switch (column ? rules.left : rules.top) {
        case Border::free: return name + ": " + where + " is 0, no predecessor: an alignment may begin here (a free leading gap)";
        case Border::gap: return name + ": " + where + ": a leading gap of k residues, H = -(open + (k-1) * extend)";
        case Border::count: return name + ": " + where + " is k: delete or insert everything so far";
        case Border::path: return name + ": " + where + " is 0: nothing in common with an empty prefix";
        case Border::unreachable: return name + ": " + where + " is unreachable (+inf)";
        case Border::impossible: return name + ": " + where + " is impossible (-inf)";
    }
    return name;
}

std::vector<BitFlag> decode_bits(const Problem& p, uint8_t b) {
    const bool affine = p.affine();
    std::vector<BitFlag> v;
    if (p.algo == Algorithm::viterbi) return v;  // backpointers, no direction bits
    auto add = [&](const char* name, uint8_t mask, const char* meaning) { v.push_back({name, mask, (b & mask) != 0, meaning}); };
    const bool dtw = p.algo == Algorithm::dtw;
    add("diag", dir::kDiag, dtw ? "D[i-1][j-1] is the minimum" : "from the diagonal: (i-1, j-1)");
    add("up", dir::kUp, affine ? "H from F[i][j] (a gap in the target)" : dtw ? "D[i-1][j] is the minimum" : "from above: (i-1, j)");
    add("left", dir::kLeft, affine ? "H from E[i][j] (a gap in the query)" : dtw ? "D[i][j-1] is the minimum" : "from the left: (i, j-1)");
    if (p.algo == Algorithm::local) add("zero", dir::kZero, "H = 0: an alignment may start here");
    if (affine) {
        add("E open", dir::kEOpen, "E from H[i][j-1] - open");
        add("E extend", dir::kEExtend, "E from E[i][j-1] - extend");
        add("F open", dir::kFOpen, "F from H[i-1][j] - open");
        add("F extend", dir::kFExtend, "F from F[i-1][j] - extend");
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Inspection
// ---------------------------------------------------------------------------------------------

// Alignment (local, global, semi-global), as cell::align_linear / align_affine.
void alignment_kernel(const Problem& p, const MatrixRefs& m, Cell c, Inspection& out) {
    const int i = c.i, j = c.j;
    const bool local = p.algo == Algorithm::local;
    const int32_t diag = m.value(m.H, i - 1, j - 1), up = m.value(m.H, i - 1, j), left = m.value(m.H, i, j - 1);
    const int32_t s = p.sub(i, j), open = p.gaps.open, ext = p.gaps.extend;
    const int32_t d = diag + s;
    const T relu = local ? "_relu" : "";
    const T dterm = "d = diag + s = " + num(diag) + " + " + addend(s) + " = " + num(d);
    auto hline = [&](int32_t a, int32_t b2, int32_t c2, const T& names) {
        const int32_t h = local ? max2(max3(a, b2, c2), 0) : max3(a, b2, c2);
        T free = call("max2", {call("max2", {num(a), num(b2)}), num(c2)});
        if (local) free = call("max2", {free, "0"});
        return KernelLine{"H", call("__vimax3_s32" + relu, {num(a), num(b2), num(c2)}) + "   [" + names + "]", free,
                          local ? "VIMNMX3.RELU" : "VIMNMX3", local ? "3 x FMNMX" : "2 x FMNMX", h};
    };
    if (!p.affine()) {
        const int32_t u = up - open, l = left - open;
        const T terms = dterm + ";  u = up - g = " + num(up) + " - " + num(open) + " = " + num(u) + ";  l = left - g = " +
                        num(left) + " - " + num(open) + " = " + num(l);
        out.with_dirs.push_back({"d, u, l", terms, terms, "IADD3", "IADD3", d});
        out.with_dirs.push_back(hline(d, u, l, "d, u, l"));
        // Score level: t = addmax(left, -g, diag + s); H = addmax(up, -g, t) (the floor fused with .RELU).
        const int32_t t = addmax(left, -open, d);
        const int32_t h = local ? max2(addmax(up, -open, t), 0) : addmax(up, -open, t);
        out.score_only.push_back({"t", call("__viaddmax_s32", {num(left), num(-open), num(diag) + " + " + addend(s)}),
                                  call("max2", {num(left) + " + " + addend(-open), num(d)}), "VIADDMNMX", "IADD3 + FMNMX", t});
        T free = call("max2", {num(up) + " + " + addend(-open), num(t)});
        if (local) free = call("max2", {free, "0"});
        out.score_only.push_back({"H", call("__viaddmax_s32" + relu, {num(up), num(-open), num(t)}), free,
                                  local ? "VIADDMNMX.RELU" : "VIADDMNMX", local ? "IADD3 + 2 x FMNMX" : "IADD3 + FMNMX", h});
        return;
    }
    const int32_t eleft = m.value(m.E, i, j - 1), fup = m.value(m.F, i - 1, j);
    const int32_t eo = left - open, ee = eleft - ext, fo = up - open, fe = fup - ext;
    const int32_t e = max2(eo, ee), f = max2(fo, fe);
    out.with_dirs.push_back({"d", dterm, dterm, "IADD3", "IADD3", d});
    out.with_dirs.push_back({"E", call("max", {num(left) + " - " + num(open), num(eleft) + " - " + num(ext)}),
                             call("max2", {num(eo), num(ee)}), "VIMNMX (two inputs: no DPX form)", "FMNMX", e});
    out.with_dirs.push_back({"F", call("max", {num(up) + " - " + num(open), num(fup) + " - " + num(ext)}),
                             call("max2", {num(fo), num(fe)}), "VIMNMX (two inputs: no DPX form)", "FMNMX", f});
    out.with_dirs.push_back(hline(d, e, f, "d, E, F"));
    // Score level: E and F each one fused add-max.
    const int32_t e2 = addmax(eleft, -ext, eo), f2 = addmax(fup, -ext, fo);
    out.score_only.push_back({"E", call("__viaddmax_s32", {num(eleft), num(-ext), num(left) + " - " + num(open)}),
                              call("max2", {num(eleft) + " + " + addend(-ext), num(eo)}), "VIADDMNMX", "IADD3 + FMNMX", e2});
    out.score_only.push_back({"F", call("__viaddmax_s32", {num(fup), num(-ext), num(up) + " - " + num(open)}),
                              call("max2", {num(fup) + " + " + addend(-ext), num(fo)}), "VIADDMNMX", "IADD3 + FMNMX", f2});
    KernelLine h = hline(d, e2, f2, "d, E, F");
    out.score_only.push_back(h);
}

// ln p as the Viterbi lines show it, and an added one in parentheses when negative.
T ln(const Problem& p, int32_t q) { return viterbi_ln_text(p, q); }
T ln_addend(const Problem& p, int32_t q) {
    if (q >= 0 || q <= kNegInf) return ln(p, q);
    T s = "(";  // built in steps, as addend()
    s += ln(p, q);
    s += ')';
    return s;
}

// The predecessors the lines list: all of them, or the best kViterbiShownTerms (in row order).
std::vector<const Candidate*> shown_terms(const std::vector<Candidate>& cs, size_t& hidden) {
    std::vector<const Candidate*> v;
    for (const Candidate& c : cs) v.push_back(&c);
    if (v.size() > kViterbiShownTerms) {
        std::stable_sort(v.begin(), v.end(), [](const Candidate* a, const Candidate* b) { return a->value > b->value; });
        v.resize(kViterbiShownTerms);
        std::sort(v.begin(), v.end(), [](const Candidate* a, const Candidate* b) { return a->row < b->row; });
    }
    hidden = cs.size() - v.size();
    return v;
}

// One predecessor term of delta(s, t): delta(k, t-1) and ln a(k, s) (t = 1: delta(begin, 0) = 0
// and ln start(s)), fixed point.
struct ViterbiTerm {
    int32_t prev = kNegInf, trans = kNegInf;
};
ViterbiTerm viterbi_term(const Problem& p, const MatrixRefs& m, Cell c, int row) {
    const FixedHmm& f = *p.hmm_fixed;
    const size_t s = size_t(c.i - 1);
    if (c.j == 1) return {m.value(m.H, 0, 0), f.start[s]};
    return {m.value(m.H, row, c.j - 1), f.transition[size_t(row - 1) * size_t(f.states) + s]};
}

// delta(s, t) twice, in ln p and in fixed point, with the winner and any tie named.
void viterbi_recurrences(const Problem& p, const MatrixRefs& m, Cell c, Inspection& out) {
    const CellExplain& x = out.x;
    const int32_t emit = *x.substitution;
    const T who = x.state, sym(1, x.target_residue);
    const bool first = c.j == 1;
    size_t hidden = 0;
    const std::vector<const Candidate*> terms = shown_terms(x.h_candidates, hidden);
    std::vector<T> live_ln, vals_ln, live_q, vals_q;
    int32_t best = kNegInf;
    for (const Candidate& k : x.h_candidates) best = std::max(best, k.value);
    for (const Candidate* k : terms) {
        const ViterbiTerm v = viterbi_term(p, m, c, k->row);
        live_ln.push_back(k->expr);
        vals_ln.push_back(ln(p, k->value));
        live_q.push_back(num(v.prev) + " + " + addend(v.trans));
        vals_q.push_back(num(k->value));
    }
    if (hidden) {
        const T more = "... " + std::to_string(hidden) + " more, none larger";
        for (auto* v : {&live_ln, &vals_ln, &live_q, &vals_q}) v->push_back(more);
    }
    const auto wrap = [&](const std::vector<T>& v) { return first ? v.front() : "max(" + join(v, ", ") + ")"; };
    RecurrenceLine l;
    l.lhs = "delta(" + who + ", " + std::to_string(c.j) + ")";
    l.symbolic = first ? "ln start(" + who + ") + ln e(" + who + ", " + sym + ")"
                       : "max_k(delta(k, " + std::to_string(c.j - 1) + ") + ln a(k, " + who + ")) + ln e(" + who + ", " +
                             sym + ")";
    l.live = wrap(live_ln) + " + " + ln_addend(p, emit);
    l.reduced = wrap(vals_ln) + " + " + ln_addend(p, emit);
    l.value = x.h;
    // The winner: the stored backpointer; ties go to the lowest state (the kernels visit
    // predecessors so that they do).
    std::vector<T> tied;
    for (const Candidate& k : x.h_candidates)
        if (best > kNegInf && k.value == best && !k.won) tied.push_back(k.name);
    for (const Candidate& k : x.h_candidates)
        if (k.won) l.winner = k.name + " (row " + std::to_string(k.row) + ")";
    if (l.winner.empty()) l.winner = x.h <= kNegInf ? "none: no predecessor can reach the cell" : "";
    else if (!tied.empty()) l.winner += ", tied with " + join(tied, ", ") + ": the lowest state wins";
    if (!l.winner.empty() && best > kNegInf && emit <= kNegInf) l.winner += "; but ln e = -inf: the cell is impossible";
    RecurrenceLine q = l;
    q.lhs = "q";
    q.symbolic = "the same in fixed point, q = round(ln p x 2^" + std::to_string(p.hmm_fixed->scale_log2) + ")";
    q.live = wrap(live_q) + " + " + addend(emit);
    q.reduced = wrap(vals_q) + " + " + addend(emit);
    out.recurrences.push_back(std::move(l));
    out.recurrences.push_back(std::move(q));
}

// The cell operations of cell_ops.hpp for delta(s, t), their operands filled in. score_only:
// viterbi_candidate, the running max (one fused add-max per predecessor, k = 0 .. S-1), then
// viterbi_cell; with_dirs: viterbi_candidate_arg (an add, then a max that says whether the new
// candidate won, k = S-1 .. 0 so that a tie goes to the lowest state), then viterbi_cell.
// Steps past kViterbiShownTerms are folded into one line before the last.
void viterbi_kernel(const Problem& p, const MatrixRefs& m, Cell c, Inspection& out) {
    const int32_t emit = *out.x.substitution;
    const auto cell_line = [&](int32_t best) {
        return KernelLine{"delta", call("__viaddmax_s32", {num(best), num(emit), "-inf"}) + "   [viterbi_cell: + ln e]",
                          call("max2", {num(best) + " + " + addend(emit), "-inf"}), "VIADDMNMX", "IADD3 + FMNMX",
                          addmax(best, emit, kNegInf)};
    };
    if (c.j == 1) {  // no predecessors to scan: the start term is the best
        const int32_t start = viterbi_term(p, m, c, 0).trans;
        for (auto* v : {&out.score_only, &out.with_dirs}) {
            KernelLine k = cell_line(start);
            k.dpx = call("__viaddmax_s32", {num(start), num(emit), "-inf"}) + "   [viterbi_cell: ln start + ln e]";
            k.dpx_free = call("max2", {num(start) + " + " + addend(emit), "-inf"});
            v->push_back(std::move(k));
        }
        return;
    }
    const int S = p.rows();
    const auto folded = [&](int from, int to, int32_t value) {
        const T what = "... predecessors " + state_name(p, from + 1) + " .. " + state_name(p, to + 1) + " (" +
                       std::to_string(std::abs(to - from) + 1) + " more steps)";
        return KernelLine{"best", what, what, "", "", value};
    };
    const int n = int(kViterbiShownTerms);
    const auto shown = [&](int step) { return S <= n || step < n - 1 || step == S - 1; };
    int32_t best = kNegInf;
    for (int step = 0; step < S; ++step) {
        const int k = step;
        const ViterbiTerm v = viterbi_term(p, m, c, k + 1);
        const int32_t before = best;
        best = addmax(v.prev, v.trans, best);
        if (!shown(step)) {
            if (step == n - 1) out.score_only.push_back(folded(step, S - 2, kNegInf));
            if (step == S - 2) out.score_only.back().value = best;
            continue;
        }
        const T which = "   [k = " + state_name(p, k + 1) + "]";
        out.score_only.push_back({"best", call("__viaddmax_s32", {num(v.prev), num(v.trans), num(before)}) + which,
                                  call("max2", {num(v.prev) + " + " + addend(v.trans), num(before)}), "VIADDMNMX",
                                  "IADD3 + FMNMX", best});
    }
    out.score_only.push_back(cell_line(best));
    best = kNegInf;
    int arg = 0;
    for (int step = 0; step < S; ++step) {
        const int k = S - 1 - step;
        const ViterbiTerm v = viterbi_term(p, m, c, k + 1);
        const int32_t cand = v.prev + v.trans, before = best;
        const bool take = cand >= best;
        best = take ? cand : best;
        arg = take ? k : arg;
        if (!shown(step)) {
            if (step == n - 1) out.with_dirs.push_back(folded(k, 1, kNegInf));
            if (step == S - 2) out.with_dirs.back().value = best;
            continue;
        }
        const T then = T(take ? " -> take, arg = " : " -> keep, arg = ") + state_name(p, arg + 1);
        const T sum = num(v.prev) + " + " + addend(v.trans);
        out.with_dirs.push_back({"best", "__vibmax_s32(" + sum + ", " + num(before) + ", &take)" + then,
                                 "take = (" + sum + " >= " + num(before) + ")" + then, "IADD3 + VIBMNMX + SEL",
                                 "IADD3 + FSETP + 2 x SEL", best});
    }
    if (best <= kNegInf) arg = 0;  // nothing reaches the cell: the callers reset the backpointer
    KernelLine back{"arg", "backpointer = " + state_name(p, arg + 1) + " (row " + std::to_string(arg + 1) + ")",
                    "backpointer = " + state_name(p, arg + 1) + " (row " + std::to_string(arg + 1) + ")", "", "", arg + 1};
    out.with_dirs.push_back(std::move(back));
    out.with_dirs.push_back(cell_line(best));
}

void kernel_lines(const Problem& p, const MatrixRefs& m, Cell c, Inspection& out) {
    const int i = c.i, j = c.j;
    const int32_t diag = m.value(m.H, i - 1, j - 1), up = m.value(m.H, i - 1, j), left = m.value(m.H, i, j - 1);
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal: alignment_kernel(p, m, c, out); return;
        case Algorithm::edit: {
            const int32_t mm = *out.x.substitution;
            const int32_t d = diag + mm, u = up + 1, l = left + 1;
            out.with_dirs.push_back({"D", call("__vimin3_s32", {num(diag) + " + " + num(mm), num(up) + " + 1", num(left) + " + 1"}),
                                     call("min2", {call("min2", {num(d), num(u)}), num(l)}), "VIMNMX3", "2 x FMNMX",
                                     min3(d, u, l)});
            const int32_t t = addmin(up, 1, l);
            out.score_only.push_back({"t", call("__viaddmin_s32", {num(up), "1", num(left) + " + 1"}),
                                      call("min2", {num(up) + " + 1", num(l)}), "VIADDMNMX", "IADD3 + FMNMX", t});
            out.score_only.push_back({"D", call("__viaddmin_s32", {num(diag), num(mm), num(t)}),
                                      call("min2", {num(diag) + " + " + num(mm), num(t)}), "VIADDMNMX", "IADD3 + FMNMX",
                                      addmin(diag, mm, t)});
            return;
        }
        case Algorithm::lcs: {
            // The kernels add a large negative "gain" on a mismatch: the diagonal always loses.
            const bool match = p.query_codes[size_t(i - 1)] == p.target_codes[size_t(j - 1)];
            const int32_t dval = match ? diag + 1 : kNegInf;
            const T dtext = match ? num(diag) + " + 1" : num(diag) + " + -inf";
            out.with_dirs.push_back({"L", call("__vimax3_s32", {dtext, num(up), num(left)}),
                                     call("max2", {call("max2", {num(dval), num(up)}), num(left)}), "VIMNMX3", "2 x FMNMX",
                                     max3(dval, up, left)});
            const int32_t ul = max2(up, left);
            out.score_only.push_back({"L", call("__viaddmax_s32", {num(diag), match ? "1" : "-inf", call("max", {num(up), num(left)})}),
                                      call("max2", {dtext, call("max2", {num(up), num(left)})}), "VIADDMNMX + VIMNMX",
                                      "IADD3 + 2 x FMNMX", max2(dval, ul)});
            return;
        }
        case Algorithm::dtw: {
            const bool in_band = p.in_band(i, j);
            const int32_t cost = in_band ? *out.x.substitution : 0;
            const int32_t mn = min3(diag, up, left);
            const int32_t h = in_band ? addmin(mn, cost, kPosInf) : kPosInf;
            for (auto* v : {&out.with_dirs, &out.score_only}) {
                v->push_back({"m", call("__vimin3_s32", {num(diag), num(up), num(left)}),
                              call("min2", {call("min2", {num(diag), num(up)}), num(left)}), "VIMNMX3", "2 x FMNMX", mn});
                v->push_back({"D", in_band ? call("__viaddmin_s32", {num(mn), num(cost), "+inf"}) : "+inf (outside the band)",
                              in_band ? call("min2", {num(mn) + " + " + num(cost), "+inf"}) : "+inf (outside the band)",
                              "VIADDMNMX", "IADD3 + FMNMX", h});
            }
            return;
        }
        case Algorithm::viterbi: viterbi_kernel(p, m, c, out); return;
    }
}

}  // namespace

Inspection inspect_cell(const Problem& p, const MatrixRefs& m, Cell c) {
    Inspection out;
    out.x = explain_cell(p, m, c);
    out.bits = decode_bits(p, out.x.bits);
    if (c.i == 0 || c.j == 0) {
        out.border = true;
        out.border_rule = border_rule(p, c);
        return out;
    }
    const CellExplain& x = out.x;
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal: {
            const T zero = p.algo == Algorithm::local ? ", 0" : "";
            if (p.affine()) {
                out.recurrences.push_back(reduce(p, "E", "max(H[i][j-1] - open, E[i][j-1] - extend)", "max", x.e_candidates, *x.e));
                out.recurrences.push_back(reduce(p, "F", "max(H[i-1][j] - open, F[i-1][j] - extend)", "max", x.f_candidates, *x.f));
                out.recurrences.push_back(reduce(p, "H", "max(H[i-1][j-1] + s, F[i][j], E[i][j]" + zero + ")", "max", x.h_candidates, x.h));
            } else {
                out.recurrences.push_back(
                    reduce(p, "H", "max(H[i-1][j-1] + s, H[i-1][j] - g, H[i][j-1] - g" + zero + ")", "max", x.h_candidates, x.h));
            }
            break;
        }
        case Algorithm::edit:
            out.recurrences.push_back(reduce(p, "D", "min(D[i-1][j-1] + (q != t), D[i-1][j] + 1, D[i][j-1] + 1)", "min", x.h_candidates, x.h));
            break;
        case Algorithm::lcs:
            out.recurrences.push_back(reduce(p, "L", "max(L[i-1][j-1] + 1 if q == t, L[i-1][j], L[i][j-1])", "max", x.h_candidates, x.h));
            break;
        case Algorithm::dtw: {
            RecurrenceLine r = reduce(p, "D", "c(i, j) + min(D[i-1][j-1], D[i-1][j], D[i][j-1])", "min", x.h_candidates, x.h);
            const T cost = num(x.substitution.value_or(kPosInf));
            r.live = cost + " + " + r.live;
            r.reduced = cost + " + " + r.reduced;
            if (!p.in_band(c.i, c.j)) r.winner = "none: outside the band";
            out.recurrences.push_back(std::move(r));
            break;
        }
        case Algorithm::viterbi: viterbi_recurrences(p, m, c, out); break;
    }
    kernel_lines(p, m, c, out);
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------------------------
namespace {

const ImVec4 kWon(0.45f, 0.95f, 0.45f, 1.0f);
const ImVec4 kLost(0.70f, 0.70f, 0.70f, 1.0f);
const ImVec4 kDpx(1.0f, 0.72f, 0.25f, 1.0f);
const ImVec4 kFree(0.55f, 0.75f, 1.0f, 1.0f);

// Text in the monospaced font, wrapped at the panel's edge (recurrences, padded columns).
void mono_wrapped(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);
void mono_wrapped(const ImVec4& color, const char* fmt, ...) {
    char text[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    ImGui::PushFont(mono_font());
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void candidates(const Problem& p, const char* title, const std::vector<Candidate>& cs) {
    if (cs.empty()) return;
    ImGui::TextDisabled("%s", title);
    for (const Candidate& k : cs)
        mono_wrapped(k.won ? kWon : kLost, "%s %-30s %s = %s", k.won ? "*" : " ", k.label.c_str(), k.expr.c_str(),
                     term_text(p, k.value).c_str());
}

void kernel_table(const char* id, const std::vector<KernelLine>& lines) {
    if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
        return;
    // A line of several results ("d, u, l") shows the first value alone, unnamed.
    const auto head = [](const KernelLine& k) {
        return (k.lhs.find(',') != std::string::npos ? std::string() : k.lhs) + " = " + term_text(k.value);
    };
    float first = ImGui::CalcTextSize("H = -99999").x;
    for (const KernelLine& k : lines) first = std::max(first, ImGui::CalcTextSize(head(k).c_str()).x);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, first);
    ImGui::TableSetupColumn("DPX (sm_90)");
    ImGui::TableSetupColumn("DPX-free");
    ImGui::TableHeadersRow();
    for (const KernelLine& k : lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(head(k).c_str());
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kDpx, "%s", k.dpx.c_str());
        if (!k.dpx_sass.empty()) ImGui::TextDisabled("SASS %s", k.dpx_sass.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kFree, "%s", k.dpx_free.c_str());
        if (!k.free_sass.empty()) ImGui::TextDisabled("SASS %s", k.free_sass.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
}

// Viterbi's section: the state and observation, the recurrence in ln p and fixed point, every
// predecessor (the best few when there are many), the backpointer, and the cell operations.
void draw_viterbi(const Computed& c, Cell cell, bool hovered, const Inspection& in) {
    const Problem& p = c.problem;
    const CellExplain& x = in.x;
    const int scale = p.hmm_fixed->scale_log2;
    ImGui::Text("cell (i, j) = (%d, %d)%s", cell.i, cell.j, hovered ? "  (hovered)" : "  (clicked)");
    text_wrapped("row %d = state %s, column %d = time t = %d", cell.i, x.state.c_str(), cell.j, cell.j);
    if (!in.border)
        text_wrapped("observed x_%d = '%c'   ln e(%s, %c) = %s (fixed point %s)", cell.j, x.target_residue, x.state.c_str(),
                     x.target_residue, viterbi_ln_text(p, *x.substitution).c_str(), num(*x.substitution).c_str());
    ImGui::Separator();
    if (in.border) {
        text_wrapped("Border cell: %s.", in.border_rule.c_str());
        ImGui::Text("delta = %s (fixed point %s)", viterbi_ln_text(p, x.h).c_str(), num(x.h).c_str());
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("recurrence (ln p; the engine adds and maxes the fixed-point q = ln p x 2^%d)", scale);
    ImGui::PopStyleColor();
    const ImVec4 ink = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    for (size_t k = 0; k < in.recurrences.size(); ++k) {
        const RecurrenceLine& r = in.recurrences[k];
        const T value = k == 0 ? viterbi_ln_text(p, r.value) : num(r.value);
        mono_wrapped(ink, "%s = %s", r.lhs.c_str(), r.symbolic.c_str());
        mono_wrapped(ink, "  = %s", r.live.c_str());
        mono_wrapped(ink, "  = %s = %s", r.reduced.c_str(), value.c_str());
    }
    if (!in.recurrences.empty() && !in.recurrences.front().winner.empty())
        mono_wrapped(kWon, "  won: %s", in.recurrences.front().winner.c_str());
    size_t hidden = 0;
    const std::vector<const Candidate*> terms = shown_terms(x.h_candidates, hidden);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", cell.j == 1 ? "the one predecessor (the begin state)"
                                   : "predecessors k: delta(k, t-1) + ln a(k, s)  (* = the stored backpointer)");
    ImGui::PopStyleColor();
    for (const Candidate* k : terms)
        mono_wrapped(k->won ? kWon : kLost, "%s %-12s %s = %s   (q %s)", k->won ? "*" : " ", k->name.c_str(), k->expr.c_str(),
                     viterbi_ln_text(p, k->value).c_str(), num(k->value).c_str());
    if (hidden) ImGui::TextDisabled("... and %zu more predecessors, none larger", hidden);
    ImGui::Separator();
    if (x.back)
        text_wrapped("backpointer stored: row %d = %s (the traceback goes from here to (%d, %d))", *x.back,
                     state_name(p, *x.back).c_str(), *x.back, cell.j - 1);
    if (const auto k = path_index(c.result.path, cell)) text_wrapped("on the most likely state path (observation %d)", *k);
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("the kernels' running max over the predecessors (cell_ops.hpp viterbi_candidate, k = 0 .. S-1), "
                 "then the emission (viterbi_cell); DPX fuses each add and max into one instruction");
    ImGui::PopStyleColor();
    kernel_table("viterbi_running_max", in.score_only);
    if (ImGui::TreeNode("keeping the backpointer (viterbi_candidate_arg, k = S-1 .. 0: a tie goes to the lowest state)")) {
        kernel_table("viterbi_backpointer", in.with_dirs);
        ImGui::TreePop();
    }
    text_wrapped("The DPX-free kernel carries every value + 2^30 (impossible becomes 0, every finite value stays "
                 "non-negative) and takes each max2 as one FMNMX on the bit patterns, where float order is integer "
                 "order; the numbers shown are unbiased.");
    ImGui::TextDisabled("ran on: %s", std::string(backend_name(c.result.backend)).c_str());
}

// The panel's contents, logged to the clipboard by "Copy as text".
void draw_inspection(AppState& s) {
    if (!s.result) {
        text_wrapped("No matrix yet.");
        return;
    }
    const Computed& c = *s.result;
    std::optional<Cell> cell = s.view.hover ? s.view.hover : s.view.inspected;
    if (cell && (cell->i < 0 || cell->j < 0 || cell->i >= c.rows() || cell->j >= c.cols())) cell.reset();
    if (!cell) {
        text_wrapped("Click a cell of the matrix (or hover one) to see its recurrence, the term that won, "
                     "its direction bits and the instruction the GPU kernel runs for it.");
        return;
    }
    const Problem& p = c.problem;
    const Inspection in = inspect_cell(p, c.stored() ? c.window(cell->i, cell->i + 1, cell->j, cell->j + 1) : c.refs(), *cell);
    if (p.algo == Algorithm::viterbi) {
        draw_viterbi(c, *cell, s.view.hover.has_value(), in);
        return;
    }
    const CellExplain& x = in.x;
    ImGui::Text("cell (i, j) = (%d, %d)%s", cell->i, cell->j, s.view.hover ? "  (hovered)" : "  (clicked)");
    if (p.algo == Algorithm::dtw) {
        if (!in.border)
            text_wrapped("query %.5g   target %.5g   c(i, j) = %s (fixed point, scale %g)", x.query_value, x.target_value,
                         term_text(x.substitution.value_or(kPosInf)).c_str(), p.dtw_scale);
    } else if (!in.border) {
        ImGui::Text("query %c   target %c", x.query_residue, x.target_residue);
        if (x.substitution) {
            ImGui::SameLine();
            ImGui::Text(p.algo == Algorithm::edit ? "   q != t: %s" : "   s(q, t) = %s", term_text(p, *x.substitution).c_str());
        }
        if (uses_gap_penalties(p.algo))
            text_wrapped("gaps: %s", p.affine() ? ("open " + p.score_text(p.gaps.open) + ", extend " + p.score_text(p.gaps.extend) + " (affine: H, E, F)").c_str()
                                               : ("g = " + p.score_text(p.gaps.open) + " (linear)").c_str());
    }
    ImGui::Separator();
    if (in.border) {
        text_wrapped("Border cell: %s.", in.border_rule.c_str());
        ImGui::Text("value %s", term_text(p, x.h).c_str());
        return;
    }
    ImGui::TextDisabled("recurrence");
    const ImVec4 ink = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    for (const RecurrenceLine& r : in.recurrences) {
        mono_wrapped(ink, "%s = %s", r.lhs.c_str(), r.symbolic.c_str());
        mono_wrapped(ink, "  = %s", r.live.c_str());
        mono_wrapped(ink, "  = %s = %s", r.reduced.c_str(), term_text(p, r.value).c_str());
        if (!r.winner.empty()) mono_wrapped(kWon, "  won: %s", r.winner.c_str());
    }
    candidates(p, "H candidates (* = its direction bit is set)", x.h_candidates);
    candidates(p, "E (gap in the query, from the left)", x.e_candidates);
    candidates(p, "F (gap in the target, from above)", x.f_candidates);
    ImGui::Separator();
    char bits[16];
    for (int k = 0; k < 8; ++k) bits[k] = (x.bits >> (7 - k)) & 1 ? '1' : '0';
    bits[8] = 0;
    ImGui::TextDisabled("direction bits stored: 0x%02x = %s", x.bits, bits);
    for (const BitFlag& b : in.bits)
        mono_wrapped(b.set ? kWon : kLost, "  [%c] %-9s %s", b.set ? 'x' : ' ', b.name, b.meaning);
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("what the GPU kernel executes for this cell (levels path and matrix: bits kept)");
    // Fractional scores are integers there (types.hpp): say so, or the numbers would not match.
    if (p.score_scale != 1)
        text_wrapped("in the engine's integers: every score x %d (gap open %s is %d, extend %s is %d)", p.score_scale,
                     p.score_text(p.gaps.open).c_str(), p.gaps.open, p.score_text(p.gaps.extend).c_str(), p.gaps.extend);
    ImGui::PopStyleColor();
    kernel_table("with_dirs", in.with_dirs);
    if (ImGui::TreeNode("score only (no direction bits: the fused add-max form)")) {
        kernel_table("score_only", in.score_only);
        ImGui::TreePop();
    }
    if (uses_gap_penalties(p.algo))
        text_wrapped("The DPX-free kernel carries alignment scores + 2^30 and takes each max2 as one FMNMX on "
                     "the bit patterns (ptxas would fuse integer add+max into VIADDMNMX by itself); the numbers "
                     "shown are unbiased.");
    else
        text_wrapped("The DPX-free kernel takes each max2/min2 as one FMNMX on the bit patterns (every value "
                     "here is >= 0, where float order is integer order).");
    ImGui::TextDisabled("ran on: %s", std::string(backend_name(c.result.backend)).c_str());
}

}  // namespace

void draw_teach_inspector(AppState& s) {
    const bool copy = ImGui::SmallButton("Copy as text");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("what this panel shows, as text, to the clipboard");
    if (copy) ImGui::LogToClipboard();
    draw_inspection(s);
    if (copy) ImGui::LogFinish();
}

}  // namespace dpviz::gui
