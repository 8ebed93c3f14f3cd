// Every algorithm of dpviz in one place: its registry row (name, aliases, objective, which
// options apply) and its rules (how the first row and column begin, which cell ends it, where
// its traceback stops). Every backend, CPU and GPU, and every view reads these; only the
// readable reference (cpu/reference.cpp) and the fixture generator (tests/fixtures/tables)
// spell the rules out again, as the specification the shared code is tested against.
// Adding an algorithm of an existing dependency shape: an enum value, a registry row, its rules,
// a reference fill and fixture rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#if defined(__CUDACC__)
#define DPVIZ_RULE __host__ __device__ __forceinline__ constexpr
#else
#define DPVIZ_RULE inline constexpr
#endif

namespace dpviz {

enum class Algorithm { local, global, semiglobal, glocal, edit, lcs, dtw, viterbi };

// Sentinels for "unreachable". Real scores stay strictly inside (kNegInf/2, kPosInf/2); make_problem
// rejects any problem whose worst-case score could leave that range, so adding a penalty to a
// sentinel never wraps.
inline constexpr int32_t kNegInf = -(1 << 30);
inline constexpr int32_t kPosInf = (1 << 30);
inline constexpr int64_t kScoreBound = (1 << 29);

// ---------------------------------------------------------------------------------------------
// [SECTION] Rules
// ---------------------------------------------------------------------------------------------

// How a border (row 0, indexed by the column j; or column 0, indexed by the row i) begins.
// The corner (0, 0) is 0 with no predecessor in every rule.
enum class Border : uint8_t {
    free,         // H = 0 with no predecessor: an alignment may begin anywhere along it
    gap,          // H = -(open + (k-1) extend): a leading gap from the corner (kUp / kLeft;
                  //   affine: F(i, 0) or E(0, j) = H, opened at k = 1 and extended after)
    count,        // H = k: one edit per residue from the corner (kUp / kLeft)
    path,         // H = 0, reached from the corner along the border (kUp / kLeft): LCS
    unreachable,  // H = +inf, no predecessor: DTW
    impossible,   // H = -inf, no predecessor: Viterbi (row 0 is the silent begin state, column 0
                  //   the time before the first observation: only the corner is reachable)
};

// Which cell the score is read from (and the traceback starts at). Ties: the first cell in
// row-major order (smallest i, then smallest j).
enum class EndRule : uint8_t {
    corner,              // (M, N)
    best_cell,           // the largest H anywhere (local)
    last_row_or_column,  // the largest H of row M and column N (semi-global)
    last_row,            // the largest H of row M (glocal: the query end to end)
    last_column,         // the largest H of column N below row 0 (Viterbi: the most likely
                         //   final state; ties to the lowest state)
};

// Where the traceback, in state H, stops.
enum class StopRule : uint8_t {
    corner,          // at (0, 0)
    zero_or_border,  // on a cell with the zero bit, or on row 0 or column 0 (local)
    border,          // on row 0 or column 0 (semi-global)
    top_row,         // on row 0 (glocal: leading target residues are free, query ones are not)
};

struct AlgorithmRules {
    Border top;    // row 0: H(0, j)
    Border left;   // column 0: H(i, 0)
    EndRule end;
    StopRule stop;
};

DPVIZ_RULE AlgorithmRules rules_of(Algorithm a) {
    switch (a) {
        case Algorithm::local: return {Border::free, Border::free, EndRule::best_cell, StopRule::zero_or_border};
        case Algorithm::global: return {Border::gap, Border::gap, EndRule::corner, StopRule::corner};
        case Algorithm::semiglobal: return {Border::free, Border::free, EndRule::last_row_or_column, StopRule::border};
        case Algorithm::glocal: return {Border::free, Border::gap, EndRule::last_row, StopRule::top_row};
        case Algorithm::edit: return {Border::count, Border::count, EndRule::corner, StopRule::corner};
        case Algorithm::lcs: return {Border::path, Border::path, EndRule::corner, StopRule::corner};
        case Algorithm::dtw: return {Border::unreachable, Border::unreachable, EndRule::corner, StopRule::corner};
        case Algorithm::viterbi: return {Border::impossible, Border::impossible, EndRule::last_column, StopRule::corner};
    }
    return {Border::free, Border::free, EndRule::corner, StopRule::corner};
}

// H on a border at index k (k = 0: the corner). open/extend: the gap costs (Border::gap only).
DPVIZ_RULE int32_t border_h(Border b, int32_t k, int32_t open, int32_t extend) {
    if (k == 0) return 0;
    switch (b) {
        case Border::gap: return -(open + (k - 1) * extend);
        case Border::count: return k;
        case Border::unreachable: return kPosInf;
        case Border::impossible: return kNegInf;
        default: return 0;
    }
}

// Direction bits (dpviz::dir values, spelled as numbers so this header stands alone) of a border
// cell at index k >= 1: `column` for H(k, 0) (a vertical move: kUp, kFOpen/kFExtend), else H(0, k).
DPVIZ_RULE uint8_t border_dirs(Border b, bool column, int32_t k, bool affine) {
    if (k == 0 || b == Border::free || b == Border::unreachable || b == Border::impossible) return 0;
    const uint8_t move = column ? 2 : 4;  // kUp : kLeft
    if (b != Border::gap || !affine) return move;
    const uint8_t open = column ? 64 : 16, extend = column ? 128 : 32;  // kFOpen/kFExtend : kEOpen/kEExtend
    return uint8_t(move | (k == 1 ? open : extend));
}

// Affine gaps: does the gap layer along this border hold H (F(i, 0) on the column, E(0, j) on the
// row)? Otherwise it is -inf there.
DPVIZ_RULE bool border_gap_layer(Border b) { return b == Border::gap; }

// Does the traceback, in state H at (i, j) with direction bits `bits`, stop here?
DPVIZ_RULE bool traceback_stops(StopRule s, int32_t i, int32_t j, uint8_t bits) {
    switch (s) {
        case StopRule::zero_or_border: return (bits & 8) != 0 || i == 0 || j == 0;  // kZero
        case StopRule::border: return i == 0 || j == 0;
        case StopRule::top_row: return i == 0;
        default: return i == 0 && j == 0;
    }
}

// Is (i, j) a cell the end rule may pick in a matrix of M x N interior cells?
DPVIZ_RULE bool end_candidate(EndRule e, int32_t i, int32_t j, int32_t M, int32_t N) {
    switch (e) {
        case EndRule::best_cell: return true;
        case EndRule::last_row_or_column: return i == M || j == N;
        case EndRule::last_row: return i == M;
        case EndRule::last_column: return j == N && i > 0;
        default: return i == M && j == N;
    }
}

// Does the end rule read row M whole (semi-global, glocal)? A backend that keeps no matrix keeps
// that row (and, for semi-global, column N) for it.
DPVIZ_RULE bool reads_last_row(EndRule e) { return e == EndRule::last_row_or_column || e == EndRule::last_row; }

// ---------------------------------------------------------------------------------------------
// [SECTION] Registry
// ---------------------------------------------------------------------------------------------

// What an algorithm reads: two sequences, two numeric signals, or a hidden Markov model and one
// observation sequence.
enum class Inputs : uint8_t { sequences, signals, hmm };

struct AlgorithmInfo {
    Algorithm id;
    std::string_view name;     // the canonical name: --algo NAME, JSON "algorithm"
    std::string_view aliases;  // other accepted names, space-separated (case-insensitive)
    std::string_view label;    // for a menu: "local (Smith-Waterman)"
    bool minimizes;            // edit distance and DTW; every other score is maximised
    bool alignment;            // scored with a substitution matrix and gap penalties
    Inputs inputs;
};

inline constexpr AlgorithmInfo kAlgorithms[] = {
    {Algorithm::local, "local", "sw smith-waterman", "local (Smith-Waterman)", false, true, Inputs::sequences},
    {Algorithm::global, "global", "nw needleman-wunsch", "global (Needleman-Wunsch)", false, true, Inputs::sequences},
    {Algorithm::semiglobal, "semiglobal", "semi-global sg", "semiglobal (free end gaps)", false, true, Inputs::sequences},
    {Algorithm::glocal, "glocal", "infix", "glocal (query end to end)", false, true, Inputs::sequences},
    {Algorithm::edit, "edit", "levenshtein", "edit distance (Levenshtein)", true, false, Inputs::sequences},
    {Algorithm::lcs, "lcs", "", "LCS", false, false, Inputs::sequences},
    {Algorithm::dtw, "dtw", "", "DTW", true, false, Inputs::signals},
    {Algorithm::viterbi, "viterbi", "hmm", "Viterbi (HMM decoding)", false, false, Inputs::hmm},
};

inline constexpr const AlgorithmInfo& info_of(Algorithm a) {
    for (const AlgorithmInfo& row : kAlgorithms)
        if (row.id == a) return row;
    return kAlgorithms[0];
}

std::string_view algorithm_name(Algorithm a);                 // "local", "global", ...
std::string algorithm_choices();                              // "local, global, ..., dtw": for messages
std::optional<Algorithm> parse_algorithm(std::string_view s);  // a name or an alias, case-insensitive
inline bool minimizes(Algorithm a) { return info_of(a).minimizes; }
inline bool uses_substitution_matrix(Algorithm a) { return info_of(a).alignment; }
inline bool uses_gap_penalties(Algorithm a) { return info_of(a).alignment; }
inline Inputs inputs_of(Algorithm a) { return info_of(a).inputs; }

}  // namespace dpviz
