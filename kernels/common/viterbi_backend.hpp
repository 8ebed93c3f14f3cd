// What every Viterbi backend shares (docs/algorithms.md, "Viterbi"): each computes the trellis
// as a ViterbiFixedResult (time-major: T rows of S states), and one function lays it into the
// DP grid that the views, exports and the CLI read.
#pragma once

#include <span>
#include <vector>
#include <string>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz {

// The fast CPU trellis fill: the recurrence of cell_ops.hpp over HostOps, bit-identical to
// viterbi_fixed (the reference); backpointers at levels path and matrix, delta at matrix.
// `control` is checked, and told the fraction done, every few columns: a cancelled fill returns
// a cancelled error.
// `checkpoints`, when given, gets delta of every column t with (t + 1) a multiple of
// `checkpoint_every` (S values each, in order): what viterbi_traceback_checkpoints restarts from.
Expected<ViterbiFixedResult> viterbi_fill_fast(const FixedHmm& model, std::span<const uint8_t> observations,
                                               OutputLevel level, const RunControl& control = {},
                                               int32_t checkpoint_every = 0, std::vector<int32_t>* checkpoints = nullptr);
// The state path of a fill that kept only those columns, ending in `last_state` (a possible
// final state): each segment of `every` columns recomputed from the column before it, its
// backpointers walked back. The path of a fill at level path; memory: one segment's backpointers.
std::vector<int32_t> viterbi_traceback_checkpoints(const FixedHmm& model, std::span<const uint8_t> observations,
                                                   const std::vector<int32_t>& checkpoints, int32_t every,
                                                   int32_t last_state);

// The end and the traceback of a fast fill (CPU or GPU), once: the best state of the last
// column, the lowest on ties (EndRule::last_column; score kNegInf and state 0 when every state is
// impossible), then, where v.back holds the backpointers, the path back from it. Sets v.score,
// v.last_state and v.path.
void finish_trellis(ViterbiFixedResult& v, std::span<const int32_t> last_column);

// The double-precision reference (viterbi_reference) beside a result costs as much as a scalar
// CPU fill: it runs when S^2 * T is at most this many candidates (about a second on one core),
// and log_probability_reference is NaN above it.
inline constexpr double kViterbiReferenceCandidates = double(uint64_t(1) << 30);

// The DpResult of a trellis: H and back as (S+1) x (T+1) grids (row 0 the silent begin state,
// column 0 the time before the first observation; H at level matrix, back at path and matrix),
// the path from (0, 0) through one state per observation, the end cell, the score, the log
// probability and the double-precision reference.
DpResult viterbi_dp_result(const Problem& p, ViterbiFixedResult v, OutputLevel level, Backend backend,
                           double fill_ms);

// align_reference, align_cpu and align_gpu for p.algo == Algorithm::viterbi.
Expected<DpResult> align_viterbi_cpu(const Problem& p, OutputLevel level, bool reference, const RunControl& control);
// The fast CPU fill at level path in linear memory: delta of every `every`-th column kept, the
// path by viterbi_traceback_checkpoints (no backpointer grid in the result).
Expected<DpResult> align_viterbi_cpu_checkpoints(const Problem& p, int32_t every, const RunControl& control);
// kernels/cuda/viterbi.cu; without CUDA a device error (cpu/no_gpu.cpp).
Expected<DpResult> align_viterbi_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control);

}  // namespace dpviz
