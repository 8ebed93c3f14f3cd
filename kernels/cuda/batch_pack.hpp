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
    std::vector<int> work;         // caller's pair indices, largest first (with 16x2 lanes, each word's first pair)
    std::vector<PairDesc> desc;    // in `work` order
    std::vector<int32_t> rows;     // query codes (batch code space) or DTW values
    std::vector<int32_t> cols;     // per pair: kColLead zeros, N profile offsets or DTW values, zeros
    int max_bands = 0, max_chunks = 0;
};

// What a fill takes: one pair (b < 0), or two pairs of one shape in the 16-bit lanes of a word.
struct Unit {
    int a = 0, b = -1;
};

// The units' inputs in the kernels' layout, in the order given. A 16x2 unit's column input holds
// both pairs' profile offsets (low and high 16 bits).
inline PackedBatch pack_units(std::span<const Problem> pairs, const BatchCodes& codes, std::span<const Unit> units) {
    PackedBatch b;
    for (const Unit& u : units) {
        const Problem& p = pairs[u.a];
        const bool dtw = p.algo == Algorithm::dtw;
        const int M = p.rows(), N = p.cols(), C = chunks_of(N);
        PairDesc d;
        d.M = M;
        d.N = N;
        d.index = u.a;
        d.index_b = u.b < 0 ? u.a : u.b;
        b.work.push_back(u.a);
        b.max_bands = std::max(b.max_bands, bands_of(M));
        b.max_chunks = std::max(b.max_chunks, C);
        auto row_inputs = [&](int k) {
            const long long at = (long long)b.rows.size();
            for (int i = 0; i < M; ++i) b.rows.push_back(dtw ? pairs[k].query_fixed[i] : codes.remap[k][pairs[k].query_codes[i]]);
            return at;
        };
        d.rows = row_inputs(u.a);
        d.rows_b = u.b < 0 ? d.rows : row_inputs(u.b);
        d.cols = (long long)b.cols.size();
        b.desc.push_back(d);
        // The column chunk of a step reaches one chunk past the last one: kChunkCols * (C + 1) in all.
        const size_t at = b.cols.size() + kColLead;
        b.cols.resize(b.cols.size() + size_t(kChunkCols) * (C + 1), 0);
        auto offset = [&](int k, int j) { return int32_t(codes.remap[k][pairs[k].target_codes[j]]) * 32 * int32_t(sizeof(int4)); };
        for (int j = 0; j < N; ++j)
            b.cols[at + j] = dtw ? p.target_fixed[j] : u.b < 0 ? offset(u.a, j) : offset(u.a, j) | (offset(u.b, j) << 16);
    }
    return b;
}

inline int64_t cells_of(const Problem& p) { return int64_t(p.rows()) * p.cols(); }

// Pairs with an interior cell, largest first (blocks take them in this order).
inline std::vector<int> interior_pairs(std::span<const Problem> pairs) {
    std::vector<int> work;
    for (size_t k = 0; k < pairs.size(); ++k)
        if (pairs[k].rows() > 0 && pairs[k].cols() > 0) work.push_back(int(k));
    std::stable_sort(work.begin(), work.end(), [&](int x, int y) { return cells_of(pairs[x]) > cells_of(pairs[y]); });
    return work;
}

// Single units, largest first.
inline void sort_singles(std::span<const Problem> pairs, std::vector<Unit>& singles) {
    std::stable_sort(singles.begin(), singles.end(),
                     [&](const Unit& x, const Unit& y) { return cells_of(pairs[x.a]) > cells_of(pairs[y.a]); });
}

inline PackedBatch pack_batch(std::span<const Problem> pairs, const BatchCodes& codes) {
    std::vector<Unit> units;
    for (const int k : interior_pairs(pairs)) units.push_back({k, -1});
    return pack_units(pairs, codes, units);
}

// ---------------------------------------------------------------------------------------------
// 16x2 lanes (cell_ops.hpp, "16x2 policies"): two pairs of one shape share every word when every
// lane of a real cell provably stays in [kLow16, kHigh16]. Local alignment: substitution scores
// in [-1024, 1024], open + extend <= 1024; H >= 0, E and F >= -open, so only the top can leave,
// and a score above lanes16_local_limit is redone in 32 bits (the first cell past kHigh16 has a
// diagonal neighbour above the limit, which the row maxima see). Edit distance: a cell is at
// most max(M, N) + 1.
inline bool lanes16_fit(const Problem& p, const BatchCodes& codes) {
    if (codes.letters > 128) return false;  // a column's profile offset (letter x 512) fits 16 bits
    if (p.algo == Algorithm::edit) return std::max(p.rows(), p.cols()) + 1 <= cell::kHigh16;
    if (p.algo != Algorithm::local) return false;
    for (const int32_t s : codes.table)
        if (s < -1024 || s > 1024) return false;
    const int64_t open = p.gaps.open, ext = p.gaps.extend;
    return open >= 0 && ext >= 0 && open + ext <= 1024;
}
// The highest local score a 16x2 fill reports exactly.
inline int32_t lanes16_local_limit(const BatchCodes& codes) {
    int32_t top = 0;
    for (const int32_t s : codes.table) top = std::max(top, s);
    return cell::kHigh16 - top;
}

// The units of a batch: pairs that fit 16x2 lanes go two to a word when they share a shape (the
// largest first); every other pair is a unit of its own, with `singles` saying which.
struct Units {
    std::vector<Unit> lanes16;
    std::vector<Unit> singles;
};
inline Units split_units(std::span<const Problem> pairs, const BatchCodes& codes, bool lanes16) {
    Units u;
    const std::vector<int> work = interior_pairs(pairs);
    std::vector<int> fit;
    for (const int k : work) {
        if (lanes16 && lanes16_fit(pairs[k], codes)) fit.push_back(k);
        else u.singles.push_back({k, -1});
    }
    // One shape after another (the largest first, as `work`), two by two; an odd one out is single.
    std::stable_sort(fit.begin(), fit.end(), [&](int x, int y) {
        const int64_t cx = cells_of(pairs[x]), cy = cells_of(pairs[y]);
        return cx != cy ? cx > cy : pairs[x].rows() > pairs[y].rows();
    });
    for (size_t k = 0; k < fit.size();) {
        const Problem& a = pairs[fit[k]];
        if (k + 1 < fit.size() && pairs[fit[k + 1]].rows() == a.rows() && pairs[fit[k + 1]].cols() == a.cols()) {
            u.lanes16.push_back({fit[k], fit[k + 1]});
            k += 2;
        } else {
            u.singles.push_back({fit[k], -1});
            k += 1;
        }
    }
    sort_singles(pairs, u.singles);
    return u;
}

// Warps per pair: enough warps on every SM (kWarpsPerSm), at most kMaxWarps and the most bands
// of a pair; the caller lowers it further to what shared memory allows.
inline constexpr int kWarpsPerSm = 16;
// 16x2 words only when the batch in words still has this many warps per SM (cuda/batch.cu).
inline constexpr int kLanes16WarpsPerSm = 12;
// Parts of a chunk (batch_kernel.cuh, Shape and parameters).
inline constexpr int kParts = 1;
inline int warps_per_pair(int sms, int npairs, int max_bands, int warps_per_sm = kWarpsPerSm) {
    const int w = (sms * warps_per_sm + npairs - 1) / std::max(npairs, 1);
    return std::clamp(w, 1, std::max(1, std::min(kMaxWarps, max_bands)));
}

}  // namespace dpviz::cuda::batch
