// The batch kernels' inputs packed on the host: which pairs go to the GPU (an interior cell,
// largest first), their descriptors, query rows and target columns in the kernels' layout.
// Plain C++ (no device code), so tests can build the same inputs.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "batch_gpu.hpp"
#include "batch_kernel.cuh"

namespace dpviz::cuda::batch {

struct PackedBatch {
    std::vector<int> work;         // caller's pair indices, largest first
    std::vector<PairDesc> desc;    // in `work` order
    std::vector<int32_t> rows;     // query codes (batch code space) or DTW values
    std::vector<int32_t> cols;     // per pair: kColLead zeros, N profile offsets or DTW values, zeros
    int max_bands = 0, max_chunks = 0;
};

inline PackedBatch pack_batch(std::span<const Problem> pairs, const BatchCodes& codes) {
    PackedBatch b;
    for (size_t k = 0; k < pairs.size(); ++k)
        if (pairs[k].rows() > 0 && pairs[k].cols() > 0) b.work.push_back(int(k));
    std::stable_sort(b.work.begin(), b.work.end(), [&](int x, int y) {
        return int64_t(pairs[x].rows()) * pairs[x].cols() > int64_t(pairs[y].rows()) * pairs[y].cols();
    });
    for (const int k : b.work) {
        const Problem& p = pairs[k];
        const bool dtw = p.algo == Algorithm::dtw;
        const int M = p.rows(), N = p.cols(), C = chunks_of(N);
        PairDesc d;
        d.M = M;
        d.N = N;
        d.index = k;
        d.rows = (long long)b.rows.size();
        d.cols = (long long)b.cols.size();
        b.desc.push_back(d);
        b.max_bands = std::max(b.max_bands, bands_of(M));
        b.max_chunks = std::max(b.max_chunks, C);
        for (int i = 0; i < M; ++i) b.rows.push_back(dtw ? p.query_fixed[i] : codes.remap[k][p.query_codes[i]]);
        // The column chunk of a step reaches one chunk past the last one: kChunkCols * (C + 1) in all.
        const size_t at = b.cols.size() + kColLead;
        b.cols.resize(b.cols.size() + size_t(kChunkCols) * (C + 1), 0);
        for (int j = 0; j < N; ++j)
            b.cols[at + j] = dtw ? p.target_fixed[j] : int32_t(codes.remap[k][p.target_codes[j]]) * 32 * int32_t(sizeof(int4));
    }
    return b;
}

// Warps per pair: enough warps on every SM (kWarpsPerSm), at most kMaxWarps and the most bands
// of a pair; the caller lowers it further to what shared memory allows.
inline constexpr int kWarpsPerSm = 16;
// Parts of a chunk (batch_kernel.cuh, Shape and parameters).
inline constexpr int kParts = 1;
inline int warps_per_pair(int sms, int npairs, int max_bands, int warps_per_sm = kWarpsPerSm) {
    const int w = (sms * warps_per_sm + npairs - 1) / std::max(npairs, 1);
    return std::clamp(w, 1, std::max(1, std::min(kMaxWarps, max_bands)));
}

}  // namespace dpviz::cuda::batch
