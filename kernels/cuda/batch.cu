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

std::string gib(uint64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(1ull << 30));
    return buf;
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

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace
}  // namespace cuda::batch

Expected<BatchResult> align_batch_gpu(std::span<const Problem> pairs, const BatchCodes& codes, bool dpx, int repeats) {
    using namespace cuda;
    using namespace cuda::batch;
    DPVIZ_TRY(device_ready());
    BatchResult r;
    r.backend = dpx ? Backend::cuda : Backend::cuda_portable;
    r.pairs.resize(pairs.size());

    // Pairs with an interior cell, largest first (blocks take pairs in this order), packed.
    PackedBatch pk = pack_batch(pairs, codes);
    if (pk.work.empty()) return r;
    const Problem& p0 = pairs[pk.work[0]];
    const bool is_dtw = p0.algo == Algorithm::dtw;
    const int letters = is_dtw ? 0 : codes.letters;

    // Launch shape.
    const auto info = device_info();
    if (!info) return info.error();
    const int sms = info->sms;
    const size_t optin = info->smem_optin;
    const void* kernel = kernel_for(p0, dpx);
    if (!kernel) return device_error("internal: no batch kernel for this algorithm");
    cudaFuncAttributes attr{};
    DPVIZ_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    const size_t smem_room = optin > attr.sharedSizeBytes ? optin - attr.sharedSizeBytes : 0;
    const int npairs = int(pk.work.size());
    int warps = warps_per_pair(sms, npairs, pk.max_bands, batch_warps_per_sm());
    while (warps > 1 && smem_per_block(letters, !is_dtw, warps) > smem_room) --warps;
    if (smem_per_block(letters, !is_dtw, warps) > smem_room)
        return device_error(std::to_string(letters) + " letters need " +
                            std::to_string(smem_per_block(letters, !is_dtw, 1)) +
                            " bytes of shared memory per block; the device has " + std::to_string(smem_room));
    const size_t smem = smem_per_block(letters, !is_dtw, warps);
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
    for (int k = repeats > 1 ? -1 : 0; k < repeats; ++k) {  // one untimed warm-up when repeating
        DPVIZ_CUDA_CHECK(cudaEventRecord(e0.get(), s));
        DPVIZ_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(blocks), dim3(warps * 32), args, smem, s));
        DPVIZ_CUDA_CHECK(cudaGetLastError());
        DPVIZ_CUDA_CHECK(cudaEventRecord(e1.get(), s));
        DPVIZ_CUDA_CHECK(cudaEventSynchronize(e1.get()));
        float ms = 0;
        DPVIZ_CUDA_CHECK(cudaEventElapsedTime(&ms, e0.get(), e1.get()));
        if (k >= 0) r.runs_ms.push_back(ms);
    }
    std::vector<int4> out(pairs.size());
    DPVIZ_CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out.get(), out.size() * sizeof(int4), cudaMemcpyDeviceToHost, s));
    DPVIZ_CUDA_CHECK(cudaStreamSynchronize(s));
    for (const int k : pk.work) {
        r.pairs[k].score = out[k].x;
        r.pairs[k].end = {out[k].y, out[k].z};
    }
    r.fill_ms = median(r.runs_ms);
    r.warps_per_pair = warps;
    return r;
}

}  // namespace dpviz
