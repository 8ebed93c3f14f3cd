// What every Viterbi backend shares (docs/algorithms.md, "Viterbi"): each computes the trellis
// as a ViterbiFixedResult (time-major: T rows of S states), and one function lays it into the
// DP grid that the views, exports and the CLI read.
#pragma once

#include <span>
#include <vector>
#include <string>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/store.hpp"

namespace dpviz {

// The fast CPU trellis fill: the recurrence of cell_ops.hpp over HostOps, bit-identical to
// viterbi_fixed (the reference); backpointers at levels path and matrix, delta at matrix.
// `control` is checked, and told the fraction done, every few columns: a cancelled fill returns
// a cancelled error.
// `kept`, when given (make_checkpoints of the problem: column lines only), gets delta of every
// kept column (matrix column c = t + 1, rows 1..S): what viterbi_traceback_checkpoints and
// viterbi_window restart from. `overview`, when given (make_overview of the problem), gets every
// trellis cell pooled into it: with both, a picture and any window of a trellis of any size.
Expected<ViterbiFixedResult> viterbi_fill_fast(const FixedHmm& model, std::span<const uint8_t> observations,
                                               OutputLevel level, const RunControl& control = {},
                                               Checkpoints* kept = nullptr, Overview* overview = nullptr);
// The state path of a fill that kept only those columns, ending in `last_state` (a possible
// final state): each segment of K columns recomputed from the kept column before it, its
// backpointers walked back. The path of a fill at level path; memory: one segment's backpointers.
std::vector<int32_t> viterbi_traceback_checkpoints(const FixedHmm& model, std::span<const uint8_t> observations,
                                                   const Checkpoints& kept, int32_t last_state);
// compute_window for a trellis: the window's H and (with `with_back`) back, as the grids of a
// level-matrix result hold them (viterbi_dp_result), recomputed from the kept column before the
// window's first interior column.
WindowValues viterbi_window(const Problem& p, const Checkpoints& kept, Window w, bool with_back);

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
// The fast CPU fill at level path through the result store: delta of every `every`-th column kept
// (DpResult::checkpoints), the path by viterbi_traceback_checkpoints (no backpointer grid in the
// result); overview_block > 0: the trellis pooled into blocks of that many cells a side too
// (DpResult::overview), as align_cpu_checkpoints does for the other algorithms.
Expected<DpResult> align_viterbi_cpu_checkpoints(const Problem& p, int32_t every, const RunControl& control,
                                                 int32_t overview_block = 0);
// kernels/cuda/viterbi.cu; without CUDA a device error (cpu/no_gpu.cpp).
Expected<DpResult> align_viterbi_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control);

}  // namespace dpviz
