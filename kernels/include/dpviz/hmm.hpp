// Hidden Markov models and Viterbi decoding: the model (probabilities and their natural logs),
// the double-precision reference, and the int32 fixed-point image the backends compute with.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz {

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

// More states than this are refused by every reader and by make_hmm (a 1024 x 1024 transition
// table is 8 MiB of doubles, twice with the logs); it also lets a backpointer be a uint16_t.
inline constexpr int kMaxHmmStates = 1024;
// Every row of start, transition and emission probabilities sums to 1 within this.
inline constexpr double kHmmRowTolerance = 1e-6;

struct Hmm {
    std::string name;                 // the file name, or what the caller calls it
    std::vector<std::string> states;  // S names, in file order: state k is index k everywhere
    std::string alphabet;             // K symbols, one character each, in file order
    std::vector<double> start;        // S: P(first state = j)
    std::vector<double> transition;   // S x S, row-major: P(next = to | current = from)
    std::vector<double> emission;     // S x K, row-major: P(symbol | state)
    // Natural logs of the three tables, -infinity where the probability is 0. Filled by make_hmm.
    std::vector<double> log_start, log_transition, log_emission;

    int num_states() const { return static_cast<int>(states.size()); }
    int num_symbols() const { return static_cast<int>(alphabet.size()); }
    double trans(int from, int to) const { return transition[static_cast<size_t>(from) * states.size() + to]; }
    double emit(int state, int symbol) const { return emission[static_cast<size_t>(state) * alphabet.size() + symbol]; }
    int state_index(std::string_view name) const;  // -1 when there is no such state
    int symbol_index(char c) const;                // exact match; -1 when not in the alphabet
};

// One character per state, for a line of decoded states: the first letters of the names when
// they all differ, else 0-9 a-z A-Z by index; "" for more than 62 states with shared initials.
std::string state_letters(const Hmm& model);

// Checks shapes (1..kMaxHmmStates states, at least one symbol, no name or symbol twice, tables
// of S, S x S and S x K values), values (finite, in [0, 1]) and row sums (1 within
// kHmmRowTolerance), then fills the logs. Errors are input errors naming the table and row.
// The values are kept as given: a row that sums to 1 - 1e-7 is not renormalised.
Expected<Hmm> make_hmm(std::string name, std::vector<std::string> states, std::string alphabet,
                       std::vector<double> start, std::vector<double> transition, std::vector<double> emission);

// ---------------------------------------------------------------------------------------------
// Double-precision Viterbi (the reference)
// ---------------------------------------------------------------------------------------------

// delta[t][j] = max over i of (delta[t-1][i] + ln A[i][j]) + ln B[j][o_t], delta[0][j] =
// ln start[j] + ln B[j][o_0]; the answer is max over j of delta[T-1][j]. Ties go to the lowest
// state index, for the predecessor and for the final state alike. The output level picks the
// memory: score (two rows), path (T x S backpointers of 2 bytes, kept in `back`), matrix (also
// delta as doubles).
struct ViterbiResult {
    // ln P(best path, observations). -infinity when every path has probability 0 (the
    // observations are impossible under the model); `path` is then empty.
    double log_probability = 0.0;
    std::vector<int32_t> path;  // the state of each observation (levels path and matrix only)
    Grid<double> delta;         // level matrix: T rows x S columns; -infinity where unreachable
    Grid<uint16_t> back;        // levels path and matrix: the predecessor chosen for each cell; row 0 is 0
};

// `observations` are symbol indices into model.alphabet. No observations, or an index outside
// the alphabet, is an input error. Model tables are assumed to come from make_hmm.
Expected<ViterbiResult> viterbi_reference(const Hmm& model, std::span<const uint8_t> observations,
                                          OutputLevel level = OutputLevel::path);

// ln P(path, observations) of a given state path (one state per observation), summed in
// observation order: ln start + ln emit, then ln trans + ln emit per step. -infinity when the
// path is impossible; NaN when it is no path of these observations (wrong length, a state or
// symbol index out of range). For checking a decoder's answer.
double path_log_probability(const Hmm& model, std::span<const uint8_t> observations,
                            std::span<const int32_t> path);

// ---------------------------------------------------------------------------------------------
// Fixed-point Viterbi (what the CPU and GPU backends will compute, bit-exact)
// ---------------------------------------------------------------------------------------------

// Every log-probability is stored as q = lround(ln p * 2^scale_log2) (half away from zero), and
// kNegInf for p = 0. All q are <= 0, and a path over T observations sums 2T of them (a start,
// T emissions, T - 1 transitions), so with m = the largest |q| of the model, 2T * m < kScoreBound
// keeps every finite path score inside (-2^29, 0]: adding one more term to any finite score or
// to kNegInf (-2^30) never wraps, and kNegInf stays recognisable. Impossible stays kNegInf.
inline constexpr int32_t kMaxViterbiScaleLog2 = 20;   // 2^-21 per term: below the files' 1e-6
inline constexpr int32_t kMinViterbiScaleLog2 = -16;  // coarser is useless: refused instead

struct FixedHmm {
    int32_t scale_log2 = 0;
    int32_t states = 0, symbols = 0;
    std::vector<int32_t> start, transition, emission;  // shapes as in Hmm; kNegInf for p = 0
    double scale() const;                               // 2^scale_log2
    int32_t largest_magnitude() const;                  // m: the largest |q| of a finite entry
};

// The model quantized at 2^scale_log2 (any scale in [kMin, kMax]ViterbiScaleLog2).
FixedHmm quantize_hmm(const Hmm& model, int32_t scale_log2);
// The largest scale_log2 in [kMinViterbiScaleLog2, kMaxViterbiScaleLog2] at which every path
// over `length` observations fits (2 * length * m < kScoreBound), or a resource error saying
// the observations are too long for int32 scores.
Expected<int32_t> viterbi_scale_log2(const Hmm& model, size_t length);
// quantize_hmm at viterbi_scale_log2(model, length).
Expected<FixedHmm> quantize_hmm_for(const Hmm& model, size_t length);

// How far (in nats) a fixed-point optimum divided by the scale can be from the double optimum:
// each of the 2T terms is off by at most 0.5 / scale, so the bound is T / scale. If the double
// optimum beats every other path by more than twice this, viterbi_fixed returns the same path.
double viterbi_quantization_bound(const FixedHmm& model, size_t length);

struct ViterbiFixedResult {
    int32_t score = kNegInf;    // the best path's sum of quantized terms; kNegInf: impossible
    int32_t scale_log2 = 0;     // the model's
    int32_t last_state = 0;     // the best final state (the lowest on ties; 0 when impossible)
    std::vector<int32_t> path;  // as in ViterbiResult (empty when impossible)
    Grid<int32_t> delta;        // level matrix: T x S; kNegInf where unreachable
    Grid<uint16_t> back;        // levels path and matrix: as in ViterbiResult
    double log_probability() const;  // score / 2^scale_log2, -infinity when impossible
};

// The same recurrence and tie rule as viterbi_reference, in int32 over the quantized tables
// (from quantize_hmm). Errors: as viterbi_reference, plus a resource error when
// 2T * m >= kScoreBound.
Expected<ViterbiFixedResult> viterbi_fixed(const FixedHmm& model, std::span<const uint8_t> observations,
                                           OutputLevel level = OutputLevel::path);

}  // namespace dpviz
