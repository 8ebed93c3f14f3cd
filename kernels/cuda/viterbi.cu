// Viterbi decoding of a hidden Markov model on the GPU (align_viterbi_gpu): the trellis fill
// over the shared recurrence of cell_ops.hpp, DPX and DPX-free, bit-identical to viterbi_fill_fast.
//
// Index of this file
//   [SECTION] Fill kernel            one block per decoding, one thread per state, a column a step
//   [SECTION] Host                   memory check, upload, launch, copy-back, traceback
//
// In short: thread s owns state s. Column t - 1 is in shared memory (two buffers, one barrier a
// column); thread s runs over the predecessors k = S-1 .. 0, reading transition[k][s] (a row of
// the table: coalesced across the warp) and delta(t-1, k) (a broadcast), and keeps the running
// maximum, with its winner from level path on. Backpointers and delta go out row by row (T x S,
// coalesced); the host picks the final state and follows the backpointers, as the CPU does.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cell_ops.hpp"
#include "cuda_check.hpp"
#include "viterbi_backend.hpp"

namespace dpviz {
namespace cuda {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Fill kernel
// ---------------------------------------------------------------------------------------------
struct ViterbiArgs {
    const int32_t* start = nullptr;       // S
    const int32_t* transition = nullptr;  // S x S, from-major
    const int32_t* emission = nullptr;    // S x K
    const uint8_t* obs = nullptr;         // T symbol indices
    int S = 0, K = 0, T = 0;
    int32_t* last = nullptr;              // S: delta(T-1, s)
    uint16_t* back = nullptr;             // levels path and matrix: T x S backpointers, row 0 all 0
    int32_t* delta = nullptr;             // level matrix: T x S
};

// Values are carried as delta + Ops::kAlignBias (DpxOps: 0; PortableOps: 2^30, so every value
// its float maxima compare is non-negative, "impossible" is 0) and written out unbiased. Only
// the delta values carry it: transitions, emissions and the start stay as quantized.
template <class Ops, OutputLevel kLevel>
__global__ void __launch_bounds__(kMaxHmmStates, 1) viterbi_fill(ViterbiArgs a) {
    constexpr bool kBack = kLevel != OutputLevel::score;
    constexpr bool kDelta = kLevel == OutputLevel::matrix;
    constexpr int32_t kBias = Ops::kAlignBias;
    constexpr int32_t kImpossible = kNegInf + kBias;
    extern __shared__ int32_t columns[];  // two columns of S values
    const int S = a.S, s = int(threadIdx.x);
    const bool mine = s < S;  // the threads past S only keep the barriers
    const int32_t* emit = a.emission + size_t(mine ? s : 0) * size_t(a.K);
    int32_t* cur = columns;
    int32_t* prev = columns + S;

    int32_t v = kImpossible;
    if (mine) {
        v = cell::viterbi_cell<Ops>(__ldg(a.start + s) + kBias, __ldg(emit + a.obs[0]), kImpossible);
        cur[s] = v;
        if constexpr (kBack) a.back[s] = 0;
        if constexpr (kDelta) a.delta[s] = v - kBias;
    }
    for (int t = 1; t < a.T; ++t) {
        int32_t* const done = cur;
        cur = prev;
        prev = done;
        // Column t - 1 is complete, and every read of the buffer written next (column t - 2) is over.
        __syncthreads();
        if (!mine) continue;
        const int32_t e = __ldg(emit + __ldg(a.obs + t));
        const int32_t* into = a.transition + s;  // transition[k][s] at into[k * S]
        int32_t best = kImpossible, arg = 0;
        // From the highest predecessor down: with viterbi_candidate_arg's >= a tie goes to the lowest.
#pragma unroll 4
        for (int k = S - 1; k >= 0; --k) {
            const int32_t trans = __ldg(into + size_t(k) * size_t(S));
            if constexpr (kBack) best = cell::viterbi_candidate_arg<Ops>(prev[k], trans, best, k, arg);
            else best = cell::viterbi_candidate<Ops>(prev[k], trans, best);
        }
        v = cell::viterbi_cell<Ops>(best, e, kImpossible);
        cur[s] = v;
        const size_t at = size_t(t) * size_t(S) + size_t(s);
        if constexpr (kBack) a.back[at] = uint16_t(best == kImpossible ? 0 : arg);  // no predecessor: 0, as the CPU
        if constexpr (kDelta) a.delta[at] = v - kBias;
    }
    if (mine) a.last[s] = v - kBias;
}

using Kernel = void (*)(ViterbiArgs);

template <class Ops>
Kernel kernel_for(OutputLevel level) {
    switch (level) {
        case OutputLevel::score: return viterbi_fill<Ops, OutputLevel::score>;
        case OutputLevel::path: return viterbi_fill<Ops, OutputLevel::path>;
        case OutputLevel::matrix: return viterbi_fill<Ops, OutputLevel::matrix>;
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Host
// ---------------------------------------------------------------------------------------------
}  // namespace
}  // namespace cuda

Expected<DpResult> align_viterbi_gpu(const Problem& p, OutputLevel level, bool dpx, const RunControl& control) {
    using namespace cuda;
    if (control.cancelled()) return cancelled_error();
    if (!p.hmm || !p.hmm_fixed) return device_error("internal: a Viterbi problem without its model");
    const FixedHmm& m = *p.hmm_fixed;
    const int S = m.states, K = m.symbols, T = int(p.target_codes.size());
    if (S < 1 || S > kMaxHmmStates || K < 1 || T < 1 || S != p.rows() || T != p.cols())
        return device_error("internal: a Viterbi problem of " + std::to_string(S) + " states and " +
                            std::to_string(T) + " observations that the GPU kernel does not take");
    const size_t cells = size_t(T) * size_t(S);
    const bool keep_back = level != OutputLevel::score, keep_delta = level == OutputLevel::matrix;

    // Memory first: a trellis that cannot fit is an error the caller can act on, not a fault.
    const uint64_t need = 4ull * (uint64_t(S) * S + uint64_t(S) * K + 2ull * S) + uint64_t(T) +
                          (keep_back ? 2ull * cells : 0) + (keep_delta ? 4ull * cells : 0);
    size_t free_b = 0, total_b = 0;
    DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const uint64_t reserve = 256ull << 20;
    if (need + reserve > free_b && flush_recycled_blocks() > 0)  // kept blocks count as used
        DPVIZ_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need + reserve > free_b)
        return device_error(std::to_string(S) + " x " + std::to_string(T) +
                            " viterbi at this output level needs " + gib(need) + " of GPU memory, " + gib(free_b) +
                            " free");

    Stream stream;
    DPVIZ_TRY(stream.create());
    const cudaStream_t s = stream.get();
    DeviceBuffer<int32_t> d_start, d_transition, d_emission, d_last, d_delta;
    DeviceBuffer<uint8_t> d_obs;
    DeviceBuffer<uint16_t> d_back;
    DPVIZ_TRY(upload(d_start, m.start, s));
    DPVIZ_TRY(upload(d_transition, m.transition, s));
    DPVIZ_TRY(upload(d_emission, m.emission, s));
    DPVIZ_TRY(upload(d_obs, p.target_codes, s));
    DPVIZ_TRY(d_last.allocate(size_t(S)));
    if (keep_back) DPVIZ_TRY(d_back.allocate(cells));
    if (keep_delta) DPVIZ_TRY(d_delta.allocate(cells));
    if (control.cancelled()) return cancelled_error();
    control.report(0.1);

    ViterbiArgs args;
    args.start = d_start.get();
    args.transition = d_transition.get();
    args.emission = d_emission.get();
    args.obs = d_obs.get();
    args.S = S;
    args.K = K;
    args.T = T;
    args.last = d_last.get();
    args.back = d_back.get();
    args.delta = d_delta.get();
    const Kernel kernel = dpx ? kernel_for<cell::DpxOps>(level) : kernel_for<cell::PortableOps>(level);
    if (!kernel) return device_error("internal: unknown output level");
    const unsigned threads = unsigned((S + 31) / 32 * 32);
    const size_t smem = 2 * size_t(S) * sizeof(int32_t);

    Event e0, e1;
    DPVIZ_TRY(e0.create());
    DPVIZ_TRY(e1.create());
    DPVIZ_CUDA_CHECK(cudaEventRecord(e0.get(), s));
    DPVIZ_LAUNCH_FAULT_POINT("viterbi_fill");
    kernel<<<1, threads, smem, s>>>(args);
    DPVIZ_CUDA_CHECK(cudaGetLastError());
    DPVIZ_CUDA_CHECK(cudaEventRecord(e1.get(), s));
    DPVIZ_CUDA_CHECK(cudaEventSynchronize(e1.get()));
    float fill_ms = 0;
    DPVIZ_CUDA_CHECK(cudaEventElapsedTime(&fill_ms, e0.get(), e1.get()));
    if (control.cancelled()) return cancelled_error();
    control.report(0.5);

    ViterbiFixedResult v;
    v.scale_log2 = m.scale_log2;
    std::vector<int32_t> last;
    DPVIZ_TRY(download(last, d_last.get(), size_t(S), s));
    if (keep_back) {
        std::vector<uint16_t> back;
        DPVIZ_TRY(download(back, d_back.get(), cells, s));
        v.back = Grid<uint16_t>{T, S, std::move(back)};
    }
    if (keep_delta) {
        std::vector<int32_t> delta;
        DPVIZ_TRY(download(delta, d_delta.get(), cells, s));
        v.delta = Grid<int32_t>{T, S, std::move(delta)};
    }
    if (control.cancelled()) return cancelled_error();
    control.report(0.8);

    finish_trellis(v, last);  // the end cell and the path, as the CPU's fill
    return viterbi_dp_result(p, std::move(v), level, dpx ? Backend::cuda : Backend::cuda_portable, double(fill_ms));
}

}  // namespace dpviz
