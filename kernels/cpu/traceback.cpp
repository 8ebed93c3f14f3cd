// Shared by every backend: where the traceback starts, the path through the direction bits,
// and the alignment read off the path. The tie-breaks here are the documented ones
// (docs/algorithms.md); every backend reports the same path because they all end here.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "trace_path.hpp"

namespace dpviz {

Cell select_end(const Problem& p, const Grid<int32_t>& H) {
    const int M = p.rows(), N = p.cols();
    const EndRule rule = rules_of(p.algo).end;
    if (rule == EndRule::corner) return {M, N};
    // The highest H among the rule's cells; ties go to the first in row-major order. (Semi-global:
    // the corners (M, 0) and (0, N) are empty overlaps scoring 0, so its score is never below 0,
    // EMBOSS's convention.)
    Cell best{-1, -1};
    auto offer = [&](int i, int j) {
        if (best.i < 0 || H.at(i, j) > H.at(best.i, best.j)) best = {i, j};
    };
    for (int i = 0; i <= M; ++i) {
        if (end_candidate(rule, i, 0, M, N))
            for (int j = 0; j <= N; ++j) offer(i, j);
        else if (end_candidate(rule, i, N, M, N))
            offer(i, N);
    }
    return best;
}

EndCell select_end_on_edges(const Problem& p, const std::vector<int32_t>& last_column,
                            const std::vector<int32_t>& last_row) {
    const int M = p.rows(), N = p.cols();
    const EndRule rule = rules_of(p.algo).end;
    // The rule's cells in row-major order: column N above row M, then row M; ties to the first.
    EndCell best{{-1, -1}, 0};
    auto offer = [&](Cell c, int32_t v) {
        if (best.cell.i < 0 || v > best.score) best = {c, v};
    };
    for (int i = 0; i < M; ++i)
        if (end_candidate(rule, i, N, M, N)) offer({i, N}, last_column[size_t(i)]);
    for (int j = 0; j <= N; ++j) offer({M, j}, last_row[size_t(j)]);
    return best;
}

BorderCell border_cell(const Problem& p, bool column, int32_t k) {
    const AlgorithmRules rules = rules_of(p.algo);
    const Border b = column ? rules.left : rules.top;
    BorderCell c;
    c.h = border_h(b, k, p.gaps.open, p.gaps.extend);
    c.dirs = border_dirs(b, column, k, p.affine());
    // A vertical border (column 0) holds a gap in F, a horizontal one (row 0) in E.
    const int32_t gap = border_gap_layer(b) && k >= 1 ? c.h : kNegInf;
    c.e = column ? kNegInf : gap;
    c.f = column ? gap : kNegInf;
    return c;
}

void write_borders(const Problem& p, DpResult& r) {
    const int M = p.rows(), N = p.cols();
    const bool affine = p.affine();
    for (const bool column : {true, false}) {
        for (int k = 0; k <= (column ? M : N); ++k) {
            const int i = column ? k : 0, j = column ? 0 : k;
            const BorderCell c = border_cell(p, column, k);
            if (!r.dirs.empty()) r.dirs.at(i, j) = c.dirs;
            if (!r.H.empty()) r.H.at(i, j) = c.h;
            if (affine && !r.E.empty() && !r.F.empty()) {
                r.E.at(i, j) = c.e;
                r.F.at(i, j) = c.f;
            }
        }
    }
}

std::vector<Cell> traceback(const Problem& p, const Grid<uint8_t>& dirs, Cell end) {
    return trace_path(p, [&](int32_t i, int32_t j) { return dirs.at(i, j); }, end);
}

namespace {

// EMBOSS's similarity (measured with needle, docs/algorithms.md "Alphabets"): a pair is similar
// when one of its residues scores > 0 both against itself and against the other. With every
// built-in matrix that is just s(a, b) > 0; an identical pair that scores <= 0 (N/N, X/X) is
// not similar, and a letter the matrix scores 0 (J, O, U in BLOSUM62) never is.
bool similar(const Problem& p, int a, int b) {
    const SubstitutionMatrix& m = p.matrix;
    return (m.at(a, a) > 0 && m.at(a, b) > 0) || (m.at(b, b) > 0 && m.at(b, a) > 0);
}

}  // namespace

Alignment make_alignment(const Problem& p, const std::vector<Cell>& path) {
    Alignment a;
    if (path.empty()) return a;
    a.query_begin = path.front().i;
    a.target_begin = path.front().j;
    a.query_end = path.back().i;
    a.target_end = path.back().j;
    const bool has_residues = p.algo != Algorithm::dtw;
    const bool has_matrix = uses_substitution_matrix(p.algo);
    char op = 0;
    int run = 0;
    auto push = [&](char o) {
        if (o == op) { ++run; return; }
        if (run) a.cigar += std::to_string(run) + op;
        op = o;
        run = 1;
    };
    for (size_t k = 1; k < path.size(); ++k) {
        const Cell from = path[k - 1], to = path[k];
        const int di = to.i - from.i, dj = to.j - from.j;
        char q = '-', t = '-';
        if (di) q = has_residues ? p.query[to.i - 1] : 'o';
        if (dj) t = has_residues ? p.target[to.j - 1] : 'o';
        char mark = ' ';
        if (di && dj) {
            const bool same = has_residues ? p.query_codes[to.i - 1] == p.target_codes[to.j - 1] : true;
            const bool identical = same && (!has_residues || p.matrix.scores_letter(p.query_codes[to.i - 1]));
            const bool sim = has_matrix ? similar(p, p.query_codes[to.i - 1], p.target_codes[to.j - 1]) : identical;
            if (identical) ++a.identical;
            if (sim) ++a.similar;
            mark = identical ? '|' : (sim ? ':' : '.');
            push(same ? '=' : 'X');
        } else {
            ++a.gaps;
            push(di ? 'I' : 'D');
        }
        a.query_row += q;
        a.markup += mark;
        a.target_row += t;
        ++a.length;
    }
    if (run) a.cigar += std::to_string(run) + op;
    return a;
}

void finish_result(const Problem& p, DpResult& r) {
    const auto t0 = std::chrono::steady_clock::now();
    if (r.level != OutputLevel::score) {
        r.path = r.dirs.empty() && r.checkpoints ? traceback_checkpoints(p, *r.checkpoints, r.end)
                                                 : traceback(p, r.dirs, r.end);
        r.alignment = make_alignment(p, r.path);
    }
    r.traceback_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (p.algo == Algorithm::dtw) {
        r.dtw_distance = dtw_distance_from_score(p, r.score);
        r.dtw_reference = dtw_reference_distance(p);
    }
}

double dtw_distance_from_score(const Problem& p, int32_t score) {
    const double s = p.dtw_cost == DtwCost::abs ? p.dtw_scale : p.dtw_scale * p.dtw_scale;
    return double(score) / s;
}

double dtw_reference_distance(const Problem& p) {
    const int M = p.rows(), N = p.cols();
    if (int64_t(M) * int64_t(N) > kDtwReferenceCells) return std::numeric_limits<double>::quiet_NaN();
    const double inf = 1e300;
    std::vector<double> prev(N + 1, inf), cur(N + 1, inf);
    prev[0] = 0.0;
    for (int i = 1; i <= M; ++i) {
        cur.assign(N + 1, inf);
        for (int j = 1; j <= N; ++j) {
            if (!p.in_band(i, j)) continue;
            const double best = std::min({prev[j - 1], prev[j], cur[j - 1]});
            if (best >= inf) continue;
            const double d = p.query_signal[i - 1] - p.target_signal[j - 1];
            cur[j] = best + (p.dtw_cost == DtwCost::abs ? std::abs(d) : d * d);
        }
        std::swap(prev, cur);
    }
    return M == 0 && N == 0 ? 0.0 : prev[N];
}

}  // namespace dpviz
