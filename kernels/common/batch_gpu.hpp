// The seam between the batch API (cpu/batch.cpp) and the batch kernels (cuda/batch.cu; without
// CUDA, cpu/batch_no_gpu.cpp), and the shared letter code space of a batch.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dpviz/batch.hpp"

namespace dpviz {

// One code space for every pair of a batch: each Problem encodes residues against its own
// matrix alphabet (for match/mismatch, edit and LCS: the letters present in that pair), so the
// GPU re-encodes every pair against the union of the letters.
struct BatchCodes {
    int letters = 0;                           // A (0 for DTW)
    std::vector<int32_t> table;                // A x A, row = query letter: the cell's input of the
                                               // recurrence (substitution score; edit: a != b; LCS:
                                               // 1 on a match, -2^29 otherwise)
    std::vector<std::vector<uint8_t>> remap;   // per pair: its code -> batch code
};

// Builds the code space; a usage error when two pairs score the same two letters differently.
Expected<BatchCodes> batch_codes(std::span<const Problem> pairs);

// Scores the pairs with an interior cell (M, N >= 1) on the GPU: DPX kernels when `dpx`, the
// DPX-free ones otherwise. Pairs with an empty side are scored by the caller; their slot in the
// result is left as is. Device problems are ErrorKind::device (the caller falls back).
Expected<BatchResult> align_batch_gpu(std::span<const Problem> pairs, const BatchCodes& codes, bool dpx, int repeats);

}  // namespace dpviz
