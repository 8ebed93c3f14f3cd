// The CPU reference: one plain loop nest per algorithm, written to be read. It is the
// specification every other backend is tested against, cell by cell and bit by bit.
#include <algorithm>
#include <chrono>

#include "dpviz/engine.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {
namespace {

// Between rows: progress (about every 1% of the rows, as a fraction of the fill scaled to 0.9)
// and cancellation. False when the run was cancelled.
class RowCheck {
public:
    RowCheck(const RunControl& c, int rows) : c_(c), rows_(std::max(rows, 1)), step_(std::max(1, rows / 100)) {}
    bool operator()(int i) const {
        if (i % step_ != 0) return true;
        if (c_.cancelled()) return false;
        c_.report(0.9 * double(i) / rows_);
        return true;
    }

private:
    const RunControl& c_;
    int rows_, step_;
};

// Every interior cell, row by row, with the check between rows. False when cancelled.
template <class CellFn>
bool fill_rows(const Problem& p, const RowCheck& row_done, CellFn cell) {
    for (int i = 1; i <= p.rows(); ++i) {
        for (int j = 1; j <= p.cols(); ++j) cell(i, j);
        if (!row_done(i)) return false;
    }
    return true;
}

// Direction bits for a maximum: every candidate equal to the winner sets its bit.
uint8_t bits_of_max(int32_t best, int32_t diag, int32_t up, int32_t left) {
    uint8_t b = 0;
    if (diag == best) b |= dir::kDiag;
    if (up == best) b |= dir::kUp;
    if (left == best) b |= dir::kLeft;
    return b;
}

// Global / semi-global / glocal / local alignment, linear or affine gaps (Gotoh).
//   E[i][j] = max(H[i][j-1] - open, E[i][j-1] - extend)      horizontal gap (target residue vs '-')
//   F[i][j] = max(H[i-1][j] - open, F[i-1][j] - extend)      vertical gap (query residue vs '-')
//   H[i][j] = max(H[i-1][j-1] + s(a_i, b_j), E[i][j], F[i][j] [, 0 for local])
// With open == extend this is the linear model, H[i][j] = max(diag + s, up - g, left - g).
bool fill_alignment(const Problem& p, DpResult& r, const RowCheck& row_done) {
    const int M = p.rows(), N = p.cols();
    const int32_t open = p.gaps.open, ext = p.gaps.extend;
    const bool affine = p.affine();
    // Leading gaps cost along column 0 (query residues against nothing) in global and glocal
    // alignment, along row 0 (target residues) in global alignment only.
    const bool gap_column = p.algo == Algorithm::global || p.algo == Algorithm::glocal;
    const bool gap_row = p.algo == Algorithm::global;
    const bool local = p.algo == Algorithm::local;

    r.H.reset(M + 1, N + 1, 0);
    r.dirs.reset(M + 1, N + 1, 0);
    if (affine) {
        r.E.reset(M + 1, N + 1, kNegInf);
        r.F.reset(M + 1, N + 1, kNegInf);
    }

    // First column and row. A leading gap of k residues costs open + (k-1)*extend, reached from
    // the corner by vertical (column 0) or horizontal (row 0) moves; with affine gaps F (column)
    // or E (row) holds it too. Where leading gaps are free (local, semi-global; glocal's row 0),
    // H = 0 with no predecessor.
    auto gap_border = [&](int k, bool column) {
        const int i = column ? k : 0, j = column ? 0 : k;
        r.H.at(i, j) = -(open + (k - 1) * ext);
        r.dirs.at(i, j) = column ? dir::kUp : dir::kLeft;
        if (affine) {
            (column ? r.F : r.E).at(i, j) = r.H.at(i, j);
            r.dirs.at(i, j) |= column ? (k == 1 ? dir::kFOpen : dir::kFExtend) : (k == 1 ? dir::kEOpen : dir::kEExtend);
        }
    };
    if (gap_column)
        for (int i = 1; i <= M; ++i) gap_border(i, true);
    if (gap_row)
        for (int j = 1; j <= N; ++j) gap_border(j, false);

    return fill_rows(p, row_done, [&](int i, int j) {
        const int32_t diag = r.H.at(i - 1, j - 1) + p.sub(i, j);
        int32_t up, left;
        uint8_t gap_bits = 0;
        if (affine) {
            const int32_t e_open = r.H.at(i, j - 1) - open, e_ext = r.E.at(i, j - 1) - ext;
            const int32_t f_open = r.H.at(i - 1, j) - open, f_ext = r.F.at(i - 1, j) - ext;
            left = std::max(e_open, e_ext);
            up = std::max(f_open, f_ext);
            r.E.at(i, j) = left;
            r.F.at(i, j) = up;
            if (e_open == left) gap_bits |= dir::kEOpen;
            if (e_ext == left) gap_bits |= dir::kEExtend;
            if (f_open == up) gap_bits |= dir::kFOpen;
            if (f_ext == up) gap_bits |= dir::kFExtend;
        } else {
            up = r.H.at(i - 1, j) - open;
            left = r.H.at(i, j - 1) - open;
        }
        int32_t h = std::max({diag, up, left});
        uint8_t bits = bits_of_max(h, diag, up, left);
        if (local && h <= 0) {
            if (h < 0) bits = 0;  // the empty alignment beats every predecessor
            h = 0;
            bits |= dir::kZero;
        }
        r.H.at(i, j) = h;
        r.dirs.at(i, j) = bits | gap_bits;
    });
}

// Levenshtein distance: D[i][j] = min(D[i-1][j-1] + (a != b), D[i-1][j] + 1, D[i][j-1] + 1).
bool fill_edit(const Problem& p, DpResult& r, const RowCheck& row_done) {
    const int M = p.rows(), N = p.cols();
    r.H.reset(M + 1, N + 1, 0);
    r.dirs.reset(M + 1, N + 1, 0);
    for (int i = 1; i <= M; ++i) { r.H.at(i, 0) = i; r.dirs.at(i, 0) = dir::kUp; }
    for (int j = 1; j <= N; ++j) { r.H.at(0, j) = j; r.dirs.at(0, j) = dir::kLeft; }
    return fill_rows(p, row_done, [&](int i, int j) {
        const int32_t diag = r.H.at(i - 1, j - 1) + (p.query_codes[i - 1] != p.target_codes[j - 1]);
        const int32_t up = r.H.at(i - 1, j) + 1;
        const int32_t left = r.H.at(i, j - 1) + 1;
        const int32_t d = std::min({diag, up, left});
        r.H.at(i, j) = d;
        r.dirs.at(i, j) = bits_of_max(d, diag, up, left);
    });
}

// Longest common subsequence: L[i][j] = max(L[i-1][j-1] + 1 if a == b, L[i-1][j], L[i][j-1]).
// The diagonal is a candidate only on a match, so arrows are the textbook ones.
bool fill_lcs(const Problem& p, DpResult& r, const RowCheck& row_done) {
    const int M = p.rows(), N = p.cols();
    r.H.reset(M + 1, N + 1, 0);
    r.dirs.reset(M + 1, N + 1, 0);
    for (int i = 1; i <= M; ++i) r.dirs.at(i, 0) = dir::kUp;
    for (int j = 1; j <= N; ++j) r.dirs.at(0, j) = dir::kLeft;
    return fill_rows(p, row_done, [&](int i, int j) {
        const bool match = p.query_codes[i - 1] == p.target_codes[j - 1];
        const int32_t diag = match ? r.H.at(i - 1, j - 1) + 1 : kNegInf;
        const int32_t up = r.H.at(i - 1, j);
        const int32_t left = r.H.at(i, j - 1);
        const int32_t l = std::max({diag, up, left});
        r.H.at(i, j) = l;
        r.dirs.at(i, j) = bits_of_max(l, diag, up, left);
    });
}

// Dynamic time warping: D[i][j] = c(i, j) + min(D[i-1][j-1], D[i-1][j], D[i][j-1]),
// D[0][0] = 0, every other border cell and every cell outside the band unreachable.
bool fill_dtw(const Problem& p, DpResult& r, const RowCheck& row_done) {
    const int M = p.rows(), N = p.cols();
    r.H.reset(M + 1, N + 1, kPosInf);
    r.dirs.reset(M + 1, N + 1, 0);
    r.H.at(0, 0) = 0;
    return fill_rows(p, row_done, [&](int i, int j) {
        if (!p.in_band(i, j)) return;
        const int32_t diag = r.H.at(i - 1, j - 1), up = r.H.at(i - 1, j), left = r.H.at(i, j - 1);
        const int32_t best = std::min({diag, up, left});
        if (best >= kPosInf) return;  // no reachable predecessor
        r.H.at(i, j) = best + p.dtw_local_cost(i, j);
        r.dirs.at(i, j) = bits_of_max(best, diag, up, left);
    });
}

}  // namespace

DpResult align_reference(const Problem& p) { return std::move(align_reference(p, RunControl{}).value()); }

Expected<DpResult> align_reference(const Problem& p, const RunControl& control) {
    if (p.algo == Algorithm::viterbi) return align_viterbi_cpu(p, OutputLevel::matrix, true, control);
    DpResult r;
    r.algo = p.algo;
    r.level = OutputLevel::matrix;
    r.backend = Backend::cpu_reference;
    r.cells = int64_t(p.rows()) * p.cols();

    const auto t0 = std::chrono::steady_clock::now();
    const RowCheck row_done(control, p.rows());
    bool filled = false;
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal: filled = fill_alignment(p, r, row_done); break;
        case Algorithm::edit: filled = fill_edit(p, r, row_done); break;
        case Algorithm::lcs: filled = fill_lcs(p, r, row_done); break;
        case Algorithm::dtw: filled = fill_dtw(p, r, row_done); break;
        case Algorithm::viterbi: break;  // above: its own dependency shape
    }
    if (!filled) return cancelled_error();
    r.end = select_end(p, r.H);
    r.score = r.H.at(r.end.i, r.end.j);
    r.fill_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    finish_result(p, r);
    control.report(1.0);
    return r;
}

}  // namespace dpviz
