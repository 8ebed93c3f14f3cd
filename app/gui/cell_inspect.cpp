// Cell explanations, the optimal-path mask and table arrows (see cell_inspect.hpp). The
// candidates are recomputed from the neighbouring cells; which won is read from the bits (Viterbi:
// from the backpointers).
#include "gui/cell_inspect.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz::gui {
namespace {

// Sums that keep unreachable operands unreachable (no wrap, no fake finite value).
int32_t plus(int32_t a, int32_t b) {
    if (a <= kNegInf) return kNegInf;
    if (a >= kPosInf) return kPosInf;
    return a + b;
}

// "a + b" / "a - b" with live numbers in the user's units (a negative b in parentheses).
std::string sum_text(const Problem& p, int32_t a, int32_t b, bool minus) {
    const std::string rhs = term_text(p, b);
    return term_text(p, a) + (minus ? " - " : " + ") + (b < 0 && !minus ? "(" + rhs + ")" : rhs);
}

// Viterbi's sums of log terms: impossible (kNegInf) when either term is.
int32_t log_sum(int32_t a, int32_t b) { return a <= kNegInf || b <= kNegInf ? kNegInf : a + b; }

// "a + (b)" in ln units.
std::string ln_sum_text(const Problem& p, int32_t a, int32_t b) {
    const std::string rhs = viterbi_ln_text(p, b);
    return viterbi_ln_text(p, a) + " + " + (b < 0 && b > kNegInf ? "(" + rhs + ")" : rhs);
}

// The delta(s, t) candidates: one per predecessor row (t = 1: the begin state only), in row order.
void viterbi_candidates(const Problem& p, const MatrixRefs& m, CellExplain& x) {
    const FixedHmm& f = *p.hmm_fixed;
    const int s = x.cell.i - 1, t = x.cell.j;
    const auto won = [&](int row, int32_t value) { return x.back && *x.back == row && value > kNegInf; };
    if (t == 1) {
        const int32_t start = f.start[size_t(s)];
        const int32_t v = log_sum(m.value(m.H, 0, 0), start);
        x.h_candidates.push_back({"begin  delta(begin, 0) + ln start(" + x.state + ")", v, won(0, v), "begin",
                                  ln_sum_text(p, m.value(m.H, 0, 0), start), 0});
        return;
    }
    for (int k = 0; k < f.states; ++k) {
        const std::string& from = p.hmm->states[size_t(k)];
        const int32_t prev = m.value(m.H, k + 1, t - 1), trans = f.transition[size_t(k) * size_t(f.states) + size_t(s)];
        const int32_t v = log_sum(prev, trans);
        x.h_candidates.push_back({from + "  delta(" + from + ", t-1) + ln a(" + from + ", " + x.state + ")", v,
                                  won(k + 1, v), from, ln_sum_text(p, prev, trans), k + 1});
    }
}

}  // namespace

double viterbi_ln(const Problem& p, int32_t q) {
    if (q <= kNegInf) return -std::numeric_limits<double>::infinity();
    const int32_t scale_log2 = p.hmm_fixed ? p.hmm_fixed->scale_log2 : 0;
    return std::ldexp(double(q), -scale_log2);
}

std::string viterbi_ln_text(const Problem& p, int32_t q, int decimals) {
    if (q <= kNegInf) return "-inf";
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", std::clamp(decimals, 0, 9), viterbi_ln(p, q));
    // A value that rounds to zero reads "0.0", not "-0.0".
    std::string t = b;
    if (t[0] == '-' && t.find_first_not_of("-0.") == std::string::npos) t.erase(0, 1);
    return t;
}

std::string state_name(const Problem& p, int row) {
    if (row == 0) return "begin";
    if (!p.hmm || row < 0 || row > p.hmm->num_states()) return "?";
    return p.hmm->states[size_t(row - 1)];
}

std::string term_text(int32_t v) {
    if (v <= kNegInf) return "-inf";
    if (v >= kPosInf) return "+inf";
    return std::to_string(v);
}

std::string term_text(const Problem& p, int32_t v) {
    if (v <= kNegInf || v >= kPosInf) return term_text(v);
    return value_text(p, v);
}

CellExplain explain_cell(const Problem& p, const MatrixRefs& m, Cell c) {
    const auto at = [&m](const Grid<int32_t>* g, int i, int j) { return m.value(g, i, j); };  // windows too
    CellExplain x;
    x.cell = c;
    const int i = c.i, j = c.j;
    x.h = at(m.H, i, j);
    x.bits = m.bits(i, j);
    const bool dtw = p.algo == Algorithm::dtw;
    if (p.algo == Algorithm::viterbi) {
        x.state = state_name(p, i);
        if (i >= 1) x.query_residue = p.query[size_t(i - 1)];
        if (j >= 1) x.target_residue = p.target[size_t(j - 1)];
        if (i == 0 || j == 0) {
            x.formula = "border cell (the begin state, or the time before the first observation)";
            return x;
        }
        const FixedHmm& f = *p.hmm_fixed;
        x.substitution = f.emission[size_t(i - 1) * size_t(f.symbols) + p.target_codes[size_t(j - 1)]];
        x.back = m.back_row(i, j);
        x.formula = j == 1 ? "delta(s, 1) = ln start(s) + ln e(s, x_1)"
                           : "delta(s, t) = max_k(delta(k, t-1) + ln a(k, s)) + ln e(s, x_t)";
        viterbi_candidates(p, m, x);
        return x;
    }
    if (dtw) {
        if (i >= 1) x.query_value = p.query_signal[size_t(i - 1)];
        if (j >= 1) x.target_value = p.target_signal[size_t(j - 1)];
    } else {
        if (i >= 1) x.query_residue = p.query[size_t(i - 1)];
        if (j >= 1) x.target_residue = p.target[size_t(j - 1)];
    }
    const bool affine = p.affine();
    if (affine) {
        x.e = at(m.E, i, j);
        x.f = at(m.F, i, j);
    }
    if (i == 0 || j == 0) {
        x.formula = "border cell (initialization)";
        return x;
    }
    const uint8_t b = x.bits;
    auto cand = [&](std::vector<Candidate>& v, std::string label, int32_t value, uint8_t bit, std::string expr) {
        std::string name = label.substr(0, label.find(' '));
        v.push_back({std::move(label), value, (b & bit) != 0, std::move(name), std::move(expr)});
    };
    const auto H = [&](int di, int dj) { return at(m.H, i - di, j - dj); };
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal: {
            const int32_t s = p.sub(i, j);
            x.substitution = s;
            const int32_t open = p.gaps.open, ext = p.gaps.extend;
            cand(x.h_candidates, "diag  H[i-1][j-1] + s", plus(H(1, 1), s), dir::kDiag, sum_text(p, H(1, 1), s, false));
            if (affine) {
                x.formula = "H = max(H[i-1][j-1] + s, F, E" + std::string(p.algo == Algorithm::local ? ", 0)" : ")");
                cand(x.h_candidates, "up    F[i][j]", *x.f, dir::kUp, term_text(p, *x.f));
                cand(x.h_candidates, "left  E[i][j]", *x.e, dir::kLeft, term_text(p, *x.e));
                cand(x.e_candidates, "open    H[i][j-1] - open", plus(H(0, 1), -open), dir::kEOpen, sum_text(p, H(0, 1), open, true));
                cand(x.e_candidates, "extend  E[i][j-1] - extend", plus(at(m.E, i, j - 1), -ext), dir::kEExtend,
                     sum_text(p, at(m.E, i, j - 1), ext, true));
                cand(x.f_candidates, "open    H[i-1][j] - open", plus(H(1, 0), -open), dir::kFOpen, sum_text(p, H(1, 0), open, true));
                cand(x.f_candidates, "extend  F[i-1][j] - extend", plus(at(m.F, i - 1, j), -ext), dir::kFExtend,
                     sum_text(p, at(m.F, i - 1, j), ext, true));
            } else {
                x.formula = "H = max(H[i-1][j-1] + s, H[i-1][j] - g, H[i][j-1] - g" +
                            std::string(p.algo == Algorithm::local ? ", 0)" : ")");
                cand(x.h_candidates, "up    H[i-1][j] - g", plus(H(1, 0), -open), dir::kUp, sum_text(p, H(1, 0), open, true));
                cand(x.h_candidates, "left  H[i][j-1] - g", plus(H(0, 1), -open), dir::kLeft, sum_text(p, H(0, 1), open, true));
            }
            if (p.algo == Algorithm::local) cand(x.h_candidates, "start 0", 0, dir::kZero, "0");
            break;
        }
        case Algorithm::edit: {
            const int32_t s = p.query_codes[size_t(i - 1)] != p.target_codes[size_t(j - 1)];
            x.substitution = s;
            x.formula = "D = min(D[i-1][j-1] + (q != t), D[i-1][j] + 1, D[i][j-1] + 1)";
            cand(x.h_candidates, "diag  D[i-1][j-1] + (q != t)", plus(H(1, 1), s), dir::kDiag, sum_text(p, H(1, 1), s, false));
            cand(x.h_candidates, "up    D[i-1][j] + 1", plus(H(1, 0), 1), dir::kUp, sum_text(p, H(1, 0), 1, false));
            cand(x.h_candidates, "left  D[i][j-1] + 1", plus(H(0, 1), 1), dir::kLeft, sum_text(p, H(0, 1), 1, false));
            break;
        }
        case Algorithm::lcs: {
            const bool match = p.query_codes[size_t(i - 1)] == p.target_codes[size_t(j - 1)];
            x.formula = "L = max(L[i-1][j-1] + 1 if q == t, L[i-1][j], L[i][j-1])";
            cand(x.h_candidates, match ? "diag  L[i-1][j-1] + 1" : "diag  (q != t: no candidate)",
                 match ? plus(H(1, 1), 1) : kNegInf, dir::kDiag, match ? sum_text(p, H(1, 1), 1, false) : "-inf");
            cand(x.h_candidates, "up    L[i-1][j]", H(1, 0), dir::kUp, term_text(p, H(1, 0)));
            cand(x.h_candidates, "left  L[i][j-1]", H(0, 1), dir::kLeft, term_text(p, H(0, 1)));
            break;
        }
        case Algorithm::dtw: {
            x.substitution = p.in_band(i, j) ? p.dtw_local_cost(i, j) : kPosInf;
            x.formula = "D = c(i, j) + min(D[i-1][j-1], D[i-1][j], D[i][j-1])";
            cand(x.h_candidates, "diag  D[i-1][j-1]", H(1, 1), dir::kDiag, term_text(p, H(1, 1)));
            cand(x.h_candidates, "up    D[i-1][j]", H(1, 0), dir::kUp, term_text(p, H(1, 0)));
            cand(x.h_candidates, "left  D[i][j-1]", H(0, 1), dir::kLeft, term_text(p, H(0, 1)));
            break;
        }
        case Algorithm::viterbi: break;  // above: no direction bits
    }
    return x;
}

namespace {

Grid<uint8_t> viterbi_optimal_mask(const Problem& p, const MatrixRefs& m, int32_t score) {
    Grid<uint8_t> mask;
    if (!m.H || m.H->empty() || !p.hmm_fixed || score <= kNegInf) return mask;
    const FixedHmm& f = *p.hmm_fixed;
    const int S = p.rows(), T = p.cols();
    mask.reset(S + 1, T + 1, 0);
    std::vector<Cell> stack;
    auto push = [&](int i, int j) {
        uint8_t& seen = mask.at(i, j);
        if (seen) return;
        seen = 1;
        stack.push_back({i, j});
    };
    for (int s = 1; s <= S; ++s)
        if (m.value(m.H, s, T) == score) push(s, T);
    while (!stack.empty()) {
        const Cell c = stack.back();
        stack.pop_back();
        if (c.j == 0) continue;
        if (c.j == 1) {
            push(0, 0);
            continue;
        }
        // delta(s, t) - ln e(s, x_t): what the best predecessor term reached.
        const int32_t emit = f.emission[size_t(c.i - 1) * size_t(f.symbols) + p.target_codes[size_t(c.j - 1)]];
        const int32_t best = m.value(m.H, c.i, c.j) - emit;
        for (int k = 1; k <= S; ++k)
            if (log_sum(m.value(m.H, k, c.j - 1), f.transition[size_t(k - 1) * size_t(S) + size_t(c.i - 1)]) == best)
                push(k, c.j - 1);
    }
    return mask;
}

}  // namespace

Grid<uint8_t> optimal_mask(const Problem& p, const MatrixRefs& m, int32_t score) {
    if (p.algo == Algorithm::viterbi) return viterbi_optimal_mask(p, m, score);
    Grid<uint8_t> mask;
    if (!m.H || m.H->empty() || !m.dirs || m.dirs->empty()) return mask;
    const Grid<int32_t>& H = *m.H;
    const Grid<uint8_t>& D = *m.dirs;
    const int M = H.rows - 1, N = H.cols - 1;
    enum : uint8_t { kH = 1, kE = 2, kF = 4 };
    Grid<uint8_t> seen;
    seen.reset(H.rows, H.cols, 0);
    struct Item {
        int32_t i, j;
        uint8_t state;
    };
    std::vector<Item> stack;
    auto push = [&](int32_t i, int32_t j, uint8_t st) {
        if (i < 0 || j < 0) return;
        uint8_t& s = seen.at(i, j);
        if (s & st) return;
        s |= st;
        stack.push_back({i, j, st});
    };
    // Every cell the end rule may pick that holds the score (local with no positive cell: the
    // empty alignment at (0, 0)).
    const AlgorithmRules rules = rules_of(p.algo);
    if (rules.end == EndRule::corner) {
        push(M, N, kH);
    } else if (rules.end == EndRule::best_cell && score <= 0) {
        push(0, 0, kH);
    } else {
        for (int i = 0; i <= M; ++i)
            for (int j = 0; j <= N; ++j)
                if (end_candidate(rules.end, i, j, M, N) && H.at(i, j) == score) push(i, j, kH);
    }
    const bool affine = p.affine();
    auto stops = [&](int32_t i, int32_t j, uint8_t bits) { return traceback_stops(rules.stop, i, j, bits); };
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        const uint8_t b = D.at(it.i, it.j);
        if (it.state == kH) {
            if (stops(it.i, it.j, b)) continue;
            if (b & dir::kDiag) push(it.i - 1, it.j - 1, kH);
            if (b & dir::kUp) affine ? push(it.i, it.j, kF) : push(it.i - 1, it.j, kH);
            if (b & dir::kLeft) affine ? push(it.i, it.j, kE) : push(it.i, it.j - 1, kH);
        } else if (it.state == kF) {
            if (b & dir::kFOpen) push(it.i - 1, it.j, kH);
            if (b & dir::kFExtend) push(it.i - 1, it.j, kF);
        } else {
            if (b & dir::kEOpen) push(it.i, it.j - 1, kH);
            if (b & dir::kEExtend) push(it.i, it.j - 1, kE);
        }
    }
    mask.reset(H.rows, H.cols, 0);
    for (size_t k = 0; k < seen.data.size(); ++k) mask.data[k] = seen.data[k] ? 1 : 0;
    return mask;
}

CellArrows arrows_of(const Problem& p, uint8_t bits, LayerKind layer) {
    CellArrows a;
    switch (layer) {
        case LayerKind::H:
            a.diag = bits & dir::kDiag;
            a.up = bits & dir::kUp;
            a.left = bits & dir::kLeft;
            a.stop = p.algo == Algorithm::local && (bits & dir::kZero);
            break;
        case LayerKind::E: a.left = bits & (dir::kEOpen | dir::kEExtend); break;
        case LayerKind::F: a.up = bits & (dir::kFOpen | dir::kFExtend); break;
    }
    return a;
}

std::optional<int> path_index(const std::vector<Cell>& path, Cell c) {
    const auto less = [](const Cell& a, const Cell& b) { return a.j != b.j ? a.j < b.j : a.i < b.i; };
    const auto it = std::lower_bound(path.begin(), path.end(), c, less);
    if (it == path.end() || !(*it == c)) return std::nullopt;
    return int(it - path.begin());
}

}  // namespace dpviz::gui
