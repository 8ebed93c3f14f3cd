// Batch mode: many (query, target) pairs of one problem setup (same algorithm, scoring, gaps,
// DTW cost and band), scored in one call: threads over pairs on the CPU, a block per pair on the GPU.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz {

struct BatchOptions {
    // automatic: cuda when a GPU is usable, else cpu. cpu runs the fast CPU backend per pair,
    // cpu_reference the reference; cuda / cuda_portable the DPX / DPX-free batch kernels.
    Backend backend = Backend::automatic;
    unsigned threads = 0;  // CPU backends: threads over pairs (0 = all hardware threads)
    int repeats = 1;       // timed fills; fill_ms is their median (benchmarks; one warm-up run first when > 1)
};

// The score level of one pair: score and end cell with the reference's tie-breaks
// (docs/algorithms.md), as align() reports them at OutputLevel::score.
struct PairScore {
    int32_t score = 0;
    Cell end;
    double dtw_distance = 0.0;  // DTW only: score / scale (abs) or / scale^2 (squared)
};

struct BatchResult {
    std::vector<PairScore> pairs;    // in input order
    Backend backend = Backend::cpu;  // the backend that ran (never automatic)
    std::string fallback;            // empty, or why the requested backend did not run
    double fill_ms = 0.0;            // median fill time: CUDA events around the kernel (GPU), wall clock (CPU)
    std::vector<double> runs_ms;     // every timed run
    int64_t cells = 0;               // sum of M * N over the pairs
    int warps_per_pair = 0;          // GPU: warps that share one pair (0 on the CPU)
    int lanes16_pairs = 0;           // GPU: pairs scored two to a word in 16-bit lanes (docs/gpu.md)
    int lanes16_redone = 0;          // of those, pairs whose score left the lanes' range: redone in 32 bits
};

// Checks that the pairs form one batch: one algorithm, one gap model, one DTW cost and band, and
// substitution scores that agree wherever two pairs use the same two letters (pairs built with
// match/mismatch scoring over their own letters agree by construction). Usage error otherwise,
// naming the first pair that differs.
Status check_batch(std::span<const Problem> pairs);

// Scores every pair. A GPU backend that is missing or faults falls back to the CPU (fallback
// says why), as align() does. A DTW pair whose band leaves no warping path is a usage error.
Expected<BatchResult> align_batch(std::span<const Problem> pairs, const BatchOptions& opt);

}  // namespace dpviz
