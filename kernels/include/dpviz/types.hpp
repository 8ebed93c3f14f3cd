// The dpviz data model: what a DP problem is (Problem) and what a fill returns (DpResult).
// Shared by every backend, the renderer, the CLI and the GUI; no GL, CUDA or I/O here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpviz/algorithm.hpp"
#include "dpviz/expected.hpp"

namespace dpviz {

struct Hmm;       // dpviz/hmm.hpp
struct FixedHmm;
struct Checkpoints;  // dpviz/store.hpp
struct Overview;

// Where a fill runs: the readable CPU reference, the fast CPU backend, the DPX and the DPX-free
// GPU kernels; `automatic` (a request only, never a result's) picks the GPU when one is usable.
enum class Backend { automatic, cpu_reference, cpu, cuda, cuda_portable };
std::string_view backend_name(Backend b);  // "auto", "cpu-reference", "cpu", "cuda", "cuda-portable"

// ---------------------------------------------------------------------------------------------
// Algorithms and scoring
// ---------------------------------------------------------------------------------------------

// Fractional scores (EMBOSS's gap extend 0.5) are integers on a common scale: every score is
// kept as value x score_scale, a divisor of 100, so two decimals are exact and every backend
// stays in integers. Only what is shown to the user is divided (format_score).
inline constexpr int32_t kMaxScoreScale = 100;
// The largest magnitude of a match, mismatch or gap score that make_problem takes (in the
// user's units); matrix files are held to it too.
inline constexpr int32_t kMaxScoreMagnitude = 1'000'000;
// `value` / `scale` as the user wrote it: "12", "-3.5", "0.25" (at most two decimals).
std::string format_score(int64_t value, int32_t scale);

// A square substitution matrix over an alphabet of upper-case letters (plus '*').
struct SubstitutionMatrix {
    std::string name;              // "BLOSUM62", "match/mismatch", or a file name
    std::string alphabet;          // row and column letters, in file order
    std::vector<int32_t> scores;   // alphabet.size()^2, row-major
    // The last `unscored` letters were added by make_problem for residues the matrix lacks that
    // EMBOSS scores 0 against everything (B Z J O U X *): they are never identical or similar.
    int unscored = 0;

    int size() const { return static_cast<int>(alphabet.size()); }
    bool scores_letter(int code) const { return code < size() - unscored; }
    int32_t at(int row, int col) const { return scores[static_cast<size_t>(row) * alphabet.size() + col]; }
    int index_of(char c) const;    // case-insensitive; -1 when the letter is not in the alphabet
    int32_t min_score() const;
    int32_t max_score() const;
};

// Gap of length k costs open + (k-1) * extend; both given as positive numbers.
// open == extend is the linear model (no E/F matrices are kept).
struct GapPenalties {
    int32_t open = 10;
    int32_t extend = 1;
    bool linear() const { return open == extend; }
};

enum class DtwCost { abs, squared };
std::string_view dtw_cost_name(DtwCost c);

// ---------------------------------------------------------------------------------------------
// Problem: two encoded inputs + algorithm + scoring. Built (and validated) by make_problem.
// ---------------------------------------------------------------------------------------------

struct Problem {
    Algorithm algo = Algorithm::local;
    std::string query_name = "query";
    std::string target_name = "target";

    // Sequences (all algorithms but DTW): residues as given (upper-cased) and their codes.
    // For matrix algorithms a code is the row of `matrix`; for edit/LCS it is an index into
    // `matrix.alphabet` too, where the matrix is the identity over the letters present.
    std::string query, target;
    std::vector<uint8_t> query_codes, target_codes;
    SubstitutionMatrix matrix;     // entries x score_scale
    GapPenalties gaps;             // x score_scale
    int32_t score_scale = 1;       // every score of this problem is value x score_scale

    // DTW: raw signals, and their fixed-point images round(x * dtw_scale).
    std::vector<double> query_signal, target_signal;
    std::vector<int32_t> query_fixed, target_fixed;
    double dtw_scale = 1.0;  // a power of two, chosen by make_problem unless given
    DtwCost dtw_cost = DtwCost::abs;
    int32_t band = -1;       // Sakoe-Chiba half-width in target columns; -1 = none (DTW only)
    // The band of a reversed problem (the landscape's backward fill, dpviz/store.hpp) is the
    // original one mirrored: |j*M - i*N + band_shift| <= band*M. 0 for every problem the user
    // gives; only the CPU backends read it.
    int64_t band_shift = 0;

    // Viterbi: the model and its fixed-point image (shared: a 1024-state model is 16 MiB). The
    // observations are `target` (as read) and `target_codes` (indices into hmm->alphabet); the
    // rows are the states (row 0 the silent begin state, row k state k-1), the columns the
    // observations (column 0 the time before the first): docs/algorithms.md, "Viterbi".
    std::shared_ptr<const Hmm> hmm;
    std::shared_ptr<const FixedHmm> hmm_fixed;

    int rows() const;        // query length M (the matrix has M+1 rows)
    int cols() const;        // target length N (the matrix has N+1 columns)
    bool affine() const { return uses_gap_penalties(algo) && !gaps.linear(); }
    std::string score_text(int64_t v) const { return format_score(v, score_scale); }  // user units
    // Substitution score of query position i and target position j (1-based matrix indices).
    int32_t sub(int i, int j) const {
        return matrix.scores[static_cast<size_t>(query_codes[i - 1]) * matrix.alphabet.size() + target_codes[j - 1]];
    }
    int32_t dtw_local_cost(int i, int j) const {
        const int32_t d = query_fixed[i - 1] - target_fixed[j - 1];
        return dtw_cost == DtwCost::abs ? (d < 0 ? -d : d) : d * d;
    }
    // DTW: is cell (i, j), 1-based, inside the band? |j*M - i*N + band_shift| <= band*M (a
    // diagonal band for unequal lengths; band 0 on a square keeps only the main diagonal).
    bool in_band(int i, int j) const;
};

struct SequenceInput {
    std::string name;
    std::string residues;
};

struct SignalInput {
    std::string name;
    std::vector<double> values;
};

struct ScoringOptions {
    std::optional<SubstitutionMatrix> matrix;  // unset: match/mismatch over the letters present
    int32_t score_scale = 1;                   // match, mismatch and gaps are in 1/score_scale;
                                               // matrix entries in whole units (scaled here)
    int32_t match = 1;
    int32_t mismatch = -1;                     // a score: usually negative
    GapPenalties gaps;
    DtwCost dtw_cost = DtwCost::abs;
    int32_t band = -1;
    std::optional<double> dtw_scale;           // unset: the largest safe power of two up to 2^16
};

// Encodes and validates. Errors: a residue the matrix lacks (input), penalties out of range
// (usage), a worst-case score outside +-2^29 (resource).
Expected<Problem> make_problem(Algorithm algo, const SequenceInput& query, const SequenceInput& target,
                               const ScoringOptions& scoring);
Expected<Problem> make_dtw_problem(const SignalInput& query, const SignalInput& target,
                                   const ScoringOptions& scoring);
// Viterbi decoding of `observations` (symbol indices into model.alphabet, at least one; the
// record's residues are the symbols as read) under `model`, quantized at the largest scale at
// which no path over them can leave int32 (quantize_hmm_for). Errors: an index outside the
// alphabet (input), too many observations for int32 (resource).
Expected<Problem> make_viterbi_problem(std::shared_ptr<const Hmm> model, const SequenceInput& observations,
                                       std::vector<uint8_t> codes);

// ---------------------------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------------------------

// Per-cell direction bits: every optimal predecessor is kept, so co-optimal paths can be shown.
namespace dir {
inline constexpr uint8_t kDiag = 1;      // H from H[i-1][j-1]
inline constexpr uint8_t kUp = 2;        // H from the vertical move (linear: H[i-1][j]; affine: F[i][j])
inline constexpr uint8_t kLeft = 4;      // H from the horizontal move (linear: H[i][j-1]; affine: E[i][j])
inline constexpr uint8_t kZero = 8;      // local: H == 0, an alignment may start here
inline constexpr uint8_t kEOpen = 16;    // E[i][j] = H[i][j-1] - open
inline constexpr uint8_t kEExtend = 32;  // E[i][j] = E[i][j-1] - extend
inline constexpr uint8_t kFOpen = 64;    // F[i][j] = H[i-1][j] - open
inline constexpr uint8_t kFExtend = 128; // F[i][j] = F[i-1][j] - extend
}  // namespace dir

// What the caller needs decides the memory: score (linear memory), path (direction bits),
// or matrix (H, and E/F for affine gaps, plus direction bits).
enum class OutputLevel { score, path, matrix };

struct Cell {
    int32_t i = 0;
    int32_t j = 0;
    friend bool operator==(const Cell&, const Cell&) = default;
};

template <class T>
struct Grid {
    int32_t rows = 0;  // M + 1
    int32_t cols = 0;  // N + 1
    std::vector<T> data;

    bool empty() const { return data.empty(); }
    T& at(int32_t i, int32_t j) { return data[static_cast<size_t>(i) * cols + j]; }
    const T& at(int32_t i, int32_t j) const { return data[static_cast<size_t>(i) * cols + j]; }
    void reset(int32_t r, int32_t c, T fill) {
        rows = r;
        cols = c;
        data.assign(static_cast<size_t>(r) * c, fill);
    }
};

struct Alignment {
    int32_t query_begin = 0, query_end = 0;    // 0-based residues, end exclusive
    int32_t target_begin = 0, target_end = 0;
    std::string cigar;         // '=' same letter, 'X' different letters, 'I' query residue vs gap, 'D' target residue vs gap
    std::string query_row;     // aligned query with '-' for gaps
    std::string markup;        // '|' identical, ':' similar but not identical, '.' other pair, ' ' gap
    std::string target_row;
    int32_t length = 0;        // alignment columns
    // EMBOSS's counts (docs/algorithms.md, "Alphabets"): identical = the same letter, one the
    // matrix scores; similar = a positive score (so N/N in NUC.4.4 is identical, not similar).
    int32_t identical = 0;
    int32_t similar = 0;
    int32_t gaps = 0;          // gap columns
    double identity() const { return length ? double(identical) / length : 0.0; }
    double similarity() const { return length ? double(similar) / length : 0.0; }
};

// How the backend that ran split the fill among its workers (the teaching views map every cell
// to them: dpviz/schedule.hpp). Zero where the backend does not apply.
struct FillShape {
    int32_t blocks = 0;            // GPU: blocks of the persistent grid launched
    int32_t warps_per_block = 0;   // GPU: warps per block (one band of rows per warp at a time)
    int32_t lanes = 0;             // fast CPU backend: rows per band (SIMD lanes of the kernel)
    int32_t threads = 0;           // fast CPU backend: threads that swept bands
    std::vector<int32_t> band_thread;  // fast CPU backend: the thread that swept band b
};

struct DpResult {
    Algorithm algo = Algorithm::local;
    int32_t score = 0;
    Cell end;                  // where the traceback starts
    OutputLevel level = OutputLevel::matrix;
    Grid<int32_t> H, E, F;     // H at level matrix; E, F also for affine gaps
    Grid<uint8_t> dirs;        // at levels path and matrix, unless checkpoints hold the path
    // The result store's restart values (dpviz/store.hpp), when the fill kept them instead of
    // direction bits: the path was traced over tiles recomputed from them, and any window of the
    // matrix can be recomputed exactly (compute_window).
    std::shared_ptr<const Checkpoints> checkpoints;
    // H pooled by the fill into blocks (dpviz/store.hpp), kept in place of a matrix too big to
    // hold, for the pictures of the whole matrix.
    std::shared_ptr<const Overview> overview;
    std::vector<Cell> path;    // from the begin cell to `end`, each step one move
    Alignment alignment;
    // DTW only: distance = score / scale (abs) or / scale^2 (squared), and the same distance
    // computed in double precision, so the quantization error is visible.
    double dtw_distance = 0.0;
    double dtw_reference = 0.0;
    // Viterbi only: the predecessor row of each trellis cell (levels path and matrix; 0 on the
    // borders and in column 1, whose predecessor is the begin state); ln P(best path,
    // observations) = score / 2^scale_log2 (-infinity when the observations are impossible), and
    // the same optimum in double precision (viterbi_reference; NaN where S^2 T is too large for
    // it to be worth its time, kernels/common/viterbi_backend.hpp).
    Grid<uint16_t> back;
    double log_probability = 0.0;
    double log_probability_reference = 0.0;
    Backend backend = Backend::cpu_reference;  // the backend that ran (never automatic)
    std::string fallback;      // empty, or why the requested backend did not run
    bool refilled32 = false;   // GPU: the 16x2 fill's range check fired and the 32-bit fill gave
                               // the result; fill_ms is both fills'
    double fill_ms = 0.0;
    double traceback_ms = 0.0;
    FillShape shape;           // the split of the fill that ran (GPU launch shape, CPU bands)

    int64_t cells = 0;         // M * N interior cells filled (the unit of GCUPS)
};

}  // namespace dpviz
