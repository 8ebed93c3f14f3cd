// The GPU engine behind align_gpu(), with the knobs the benchmark needs (time the fill only,
// repeat it). Internal to kernels/: no CUDA types here, so plain C++ can call it.
#pragma once

#include <cstdint>
#include <optional>

#include "dpviz/engine.hpp"
#include "gpu_dispatch.hpp"

namespace dpviz::cuda {

struct KeptMatrices;  // view_matrices.hpp

struct GpuRunOptions {
    bool copy_back = true;  // false: fill (and end-cell search) only; matrices and bits stay on the device
    int repeats = 1;        // fill this many times; fill_ms is the median
    KeptMatrices* keep = nullptr;         // level matrix: the filled H, E, F and direction bytes move here
                                          // (interior only; the caller owns them, nothing is copied back)
    const RunControl* control = nullptr;  // checked between stages
    Grid<uint32_t>* owner = nullptr;  // level matrix: gpu_band::pack_owner of the warp lane that computed each cell
    int32_t checkpoint_spacing = 0;  // level path: a score-level fill that keeps checkpoint lines every K rows and
                                     // columns (a power of two >= 2 gpu_band::kBandRows, or kGpuChoosesSpacing),
                                     // traced over them (store.hpp)
    int32_t overview_block = 0;      // with checkpoint_spacing: the fill also pools H into DpResult::overview
    const GpuRect* rect = nullptr;   // level matrix: a rectangle from given borders; only its crop comes back
};

// Bytes of device memory a request needs (inputs, pipeline buffers, outputs of the level).
uint64_t estimate_device_bytes(const Problem& p, OutputLevel level);

// Whether a usable CUDA device is there; the error says why not.
Status device_ready();

// The fill on the GPU, the end cell, and (when copied back) matrices, bits, path and alignment.
Expected<DpResult> run_gpu(const Problem& p, OutputLevel level, bool dpx, const GpuRunOptions& opt);
// The one-pair score kernel (pair_score.cu) for the problems pair_score::applies() takes; run_gpu
// hands them over itself. No result when a local fill's worst case passes the kernel's range and
// its best does not prove that no cell did (pair_score::proves_range): the band kernels fill it
// then, after `spent_ms` of this kernel's fill.
struct PairScoreRun {
    std::optional<DpResult> result;
    double spent_ms = 0.0;
};
Expected<PairScoreRun> run_pair_score(const Problem& p, bool dpx, const GpuRunOptions& opt);

}  // namespace dpviz::cuda
