// The batch seam on the GPU (align_batch_gpu): inputs of every pair packed into three arrays,
// the launch shape (warps per pair, blocks), the device-memory check, timed launches, copy-back.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "batch_gpu.hpp"
#include "batch_kernel.cuh"
#include "batch_pack.hpp"
#include "cuda_check.hpp"
#include "gpu_engine.hpp"

namespace dpviz {
namespace cuda::batch {
namespace {


const void* kernel_for(const Problem& p, bool dpx) {
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            return align_kernel(rules_of(p.algo).end, p.affine(), dpx);
        case Algorithm::edit: return edit_kernel(dpx);
        case Algorithm::lcs: return lcs_kernel(dpx);
        case Algorithm::dtw: return dtw_kernel(p.dtw_cost == DtwCost::squared, dpx);
    }
    return nullptr;
}

// Measurement knobs (docs/gpu.md, "The schedule"): parts of a chunk (1, 2 or 4) and the warps
// per SM the launch aims at.
int batch_parts() {
    const char* e = std::getenv("DPVIZ_BATCH_PARTS");
    const int k = e ? std::atoi(e) : 0;
    return k == 1 || k == 2 || k == 4 ? k : kParts;
}
int batch_warps_per_sm() {
    const char* e = std::getenv("DPVIZ_BATCH_WARPS_PER_SM");
    const int k = e ? std::atoi(e) : 0;
    return k >= 1 && k <= 64 ? k : kWarpsPerSm;
}

// One launch over `units` (all single pairs, or all 16x2 words): scores and end cells into
// `r.pairs`, each timed run's time added to r.runs_ms's (align_batch reports their median).
Status run_units(std::span<const Problem> pairs, const BatchCodes& codes, std::span<const Unit> units, bool lanes16,
                 bool dpx, int repeats, BatchResult& r) {
    if (units.empty()) return Ok{};
    const PackedBatch pk = pack_units(pairs, codes, units);
    const Problem& p0 = pairs[pk.work[0]];
    const bool is_dtw = p0.algo == Algorithm::dtw;
    const int letters = is_dtw ? 0 : codes.letters;
    const int lanes = lanes16 ? 2 : 1;

    // Launch shape.
    const auto info = device_info();
    if (!info) return info.error();
    const int sms = info->sms;
    const size_t optin = info->smem_optin;
    const void* kernel = lanes16 ? (p0.algo == Algorithm::edit ? edit16_kernel(dpx) : local16_kernel(p0.affine(), dpx))
                                 : kernel_for(p0, dpx);
    if (!kernel) return device_error("internal: no batch kernel for this algorithm");
    cudaFuncAttributes attr{};
    DPVIZ_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    const size_t smem_room = optin > attr.sharedSizeBytes ? optin - attr.sharedSizeBytes : 0;
    const int npairs = int(pk.work.size());
    int warps = warps_per_pair(sms, npairs, pk.max_bands, batch_warps_per_sm());
    while (warps > 1 && smem_per_block(letters, !is_dtw, warps, lanes) > smem_room) --warps;
    if (smem_per_block(letters, !is_dtw, warps, lanes) > smem_room)
        return device_error(std::to_string(letters) + " letters need " +
                            std::to_string(smem_per_block(letters, !is_dtw, 1, lanes)) +
                            " bytes of shared memory per block; the device has " + std::to_string(smem_room));
    const size_t smem = smem_per_block(letters, !is_dtw, warps, lanes);
    DPVIZ_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    int per_sm = 0;
    DPVIZ_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, warps * 32, smem));
    if (per_sm < 1) return device_error("the batch kernel does not fit on one multiprocessor");
    int blocks = std::min(npairs, per_sm * sms);

    // Device memory: inputs, outputs, and per block warps + 1 hand-over rows of the widest pair.
    const long long pitch = (long long)kSteps * pk.max_chunks;
    const uint64_t fixed = 4ull * (pk.rows.size() + pk.cols.size() + codes.table.size() + 3) +
                           sizeof(PairDesc) * pk.desc.size() + 16ull * pairs.size();
    const uint64_t per_block = 16ull * uint64_t(warps + 1) * uint64_t(pitch) + 4ull * (kMaxWarps + 1);
    size_t free_b = 0, total_b = 0;
    DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t reserve = 256ull << 20;
    const uint64_t room = free_b > reserve + fixed ? free_b - reserve - fixed : 0;
    blocks = int(std::min<uint64_t>(uint64_t(blocks), room / per_block));
    if (blocks < 1)
        return device_error("the batch needs " + gib(fixed + per_block) + " of GPU memory, " + gib(free_b) + " free");

    Stream stream;
    DPVIZ_TRY(stream.create());
    const cudaStream_t s = stream.get();
    DeviceBuffer<PairDesc> d_desc;
    DeviceBuffer<int32_t> d_rows, d_cols, d_table;
    DeviceBuffer<int4> d_hand, d_out;
    DeviceBuffer<int> d_done;
    DPVIZ_TRY(upload(d_desc, pk.desc, s, 1));
    DPVIZ_TRY(upload(d_rows, pk.rows, s, 1));
    DPVIZ_TRY(upload(d_cols, pk.cols, s, 1));
    DPVIZ_TRY(upload(d_table, codes.table, s, 1));
    DPVIZ_TRY(d_hand.allocate(size_t(blocks) * (warps + 1) * size_t(pitch)));
    DPVIZ_TRY(d_out.allocate(pairs.size()));
    DPVIZ_TRY(d_done.allocate(size_t(blocks) * (kMaxWarps + 1)));  // set by the kernel

    BatchParams bp;
    bp.npairs = npairs;
    bp.pairs = d_desc.get();
    bp.rows = d_rows.get();
    bp.cols = d_cols.get();
    bp.table = d_table.get();
    bp.letters = letters;
    bp.open = p0.gaps.open;
    bp.ext = p0.gaps.extend;
    bp.gap_border = rules_of(p0.algo).left == Border::gap;  // row 0: the kernel's (free in glocal's)
    bp.band = p0.band;
    bp.parts = batch_parts();
    bp.hand = d_hand.get();
    bp.hand_pitch = pitch;
    bp.done = d_done.get();
    bp.out = d_out.get();
    void* args[] = {&bp};

    Event e0, e1;
    DPVIZ_TRY(e0.create());
    DPVIZ_TRY(e1.create());
    std::vector<double> runs;
    for (int k = repeats > 1 ? -1 : 0; k < repeats; ++k) {  // one untimed warm-up when repeating
        DPVIZ_CUDA_CHECK(cudaEventRecord(e0.get(), s));
        DPVIZ_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(blocks), dim3(warps * 32), args, smem, s));
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        DPVIZ_CUDA_CHECK(cudaEventRecord(e1.get(), s));
        DPVIZ_CUDA_CHECK(cudaEventSynchronize(e1.get()));
        float ms = 0;
        DPVIZ_CUDA_CHECK(cudaEventElapsedTime(&ms, e0.get(), e1.get()));
        if (k >= 0) runs.push_back(ms);
    }
    std::vector<int4> out(pairs.size());
    DPVIZ_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out.get(), out.size() * sizeof(int4), cudaMemcpyDeviceToHost, s));
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    for (const Unit& u : units)
        for (const int k : {u.a, u.b}) {
            if (k < 0) continue;
            r.pairs[k].score = out[k].x;
            r.pairs[k].end = {out[k].y, out[k].z};
        }
    // Launches run one after the other: the batch's time is their sum, run by run.
    if (r.runs_ms.empty()) r.runs_ms.assign(runs.size(), 0.0);
    for (size_t k = 0; k < runs.size() && k < r.runs_ms.size(); ++k) r.runs_ms[k] += runs[k];
    r.warps_per_pair = std::max(r.warps_per_pair, warps);
    return Ok{};
}

// Measurement knob: DPVIZ_BATCH_LANES16=0 runs every pair in 32-bit words, =1 runs every pair
// that fits in 16x2 words, however few warps that leaves (tests; measurements).
bool batch_lanes16() {
    const char* e = std::getenv("DPVIZ_BATCH_LANES16");
    return !(e && std::string(e) == "0");
}
bool batch_lanes16_forced() {
    const char* e = std::getenv("DPVIZ_BATCH_LANES16");
    return e && std::string(e) == "1";
}

}  // namespace
}  // namespace cuda::batch

// Pairs that fit 16-bit lanes run two to a word first (docs/gpu.md, "16x2 lanes"); the rest, and
// local pairs whose score left the lanes' range, in 32-bit words.
Expected<BatchResult> align_batch_gpu(std::span<const Problem> pairs, const BatchCodes& codes, bool dpx, int repeats) {
    using namespace cuda;
    using namespace cuda::batch;
    DPVIZ_TRY(device_ready());
    BatchResult r;
    r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
    r.pairs.resize(pairs.size());
    Units units = split_units(pairs, codes, batch_lanes16());
    // A 16x2 word carries two pairs, so a batch in words has half the warps. That pays where the
    // GPU stays full; with fewer warps the fills wait on their bands' hand-over and two pairs in
    // a word take longer than two warps (the local literature workload on an H200:
    // docs/performance.md, "Batch mode").
    if (!units.lanes16.empty()) {
        const auto info = device_info();
        if (!info) return info.error();
        int max_bands = 0;
        for (const Unit& u : units.lanes16) max_bands = std::max(max_bands, bands_of(pairs[u.a].rows()));
        const int n = int(units.lanes16.size());
        const int64_t warps = int64_t(n) * warps_per_pair(info->sms, n, max_bands, batch_warps_per_sm());
        if (warps < int64_t(info->sms) * kLanes16WarpsPerSm && !batch_lanes16_forced()) {
            for (const Unit& u : units.lanes16) {
                units.singles.push_back({u.a, -1});
                units.singles.push_back({u.b, -1});
            }
            units.lanes16.clear();
            sort_singles(pairs, units.singles);
        }
    }
    DPVIZ_TRY(run_units(pairs, codes, units.lanes16, true, dpx, repeats, r));
    r.lanes16_pairs = int(2 * units.lanes16.size());
    if (!units.lanes16.empty() && pairs[units.lanes16[0].a].algo == Algorithm::local) {
        const int32_t limit = lanes16_local_limit(codes);
        std::vector<Unit> redo;
        for (const Unit& u : units.lanes16)
            for (const int k : {u.a, u.b})
                if (r.pairs[k].score > limit) redo.push_back({k, -1});
        r.lanes16_redone = int(redo.size());
        units.singles.insert(units.singles.end(), redo.begin(), redo.end());
        sort_singles(pairs, units.singles);
    }
    DPVIZ_TRY(run_units(pairs, codes, units.singles, false, dpx, repeats, r));
    return r;
}

}  // namespace dpviz
