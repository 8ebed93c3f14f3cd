// The simulated device of DPVIZ_GPU_FAULT=simulate: the real device's allocation and launch
// sequence (cuda/dispatch.cu, run_gpu) in plain C++, with host buffers in place of device ones.
#include "simulated_gpu.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>

#include "dpviz/band_shape.hpp"
#include "dpviz/store.hpp"
#include "pair_score_plan.hpp"

namespace dpviz::gpu_fault {
namespace {

using gpu_band::kBandRows;
using gpu_band::kCols;
using gpu_band::kRows;
using gpu_band::kSteps;
// As cuda/fill_params.hpp. Sizes only: the count of allocations depends on the band count alone,
// and the gpu test GpuFaultReal.SimulatedDeviceMakesTheDevicesSequence checks it on the device.
constexpr int kSnapEvery = 16, kColPad = 128;
// Host stand-ins are capped: what is simulated is the sequence and the ownership, not the size.
constexpr uint64_t kMaxHostBytes = uint64_t(1) << 20;

// DeviceBuffer (cuda/cuda_check.hpp) with a host block: same injection point, same release.
class SimBuffer {
public:
    Status allocate(uint64_t count, size_t elem, const char* what) {
        data_.reset();
        if (count == 0) return Ok{};  // no cudaMalloc for nothing, as DeviceBuffer::allocate
        if (const auto item = allocation_fault())
            return device_error(std::string("simulated device: CUDA error cudaErrorMemoryAllocation (out of memory) in "
                                            "cudaMalloc of ") +
                                what + injected_note(*item));
        data_ = std::make_unique<std::byte[]>(std::min(count * elem, kMaxHostBytes));
        return Ok{};
    }

private:
    std::unique_ptr<std::byte[]> data_;
};

Status launch(const char* kernel) {
    if (const auto item = launch_fault())
        return device_error(std::string("simulated device: CUDA error cudaErrorLaunchFailure (unspecified launch "
                                        "failure) in ") +
                            kernel + " launch" + injected_note(*item));
    return Ok{};
}

}  // namespace

Expected<DpResult> align_simulated(const Problem& p, OutputLevel level, const Spec& spec, int32_t checkpoint_spacing,
                                   int32_t overview_block) {
    // DPX or not makes no difference to the sequence.
    std::string no_kernels = "simulated device (";
    no_kernels.append(kEnvVar).append("=").append(spec.text).append("): no kernels to compute with");
    const int64_t M = p.rows(), N = p.cols();
    if (M == 0 || N == 0) return device_error(no_kernels);  // align_gpu: no interior cell, no kernel
    if (p.algo == Algorithm::viterbi) return device_error(no_kernels);  // no band buffers to mirror

    const bool store = level == OutputLevel::path && checkpoint_spacing != 0;
    const OutputLevel fill_level = store ? OutputLevel::score : level;
    if (pair_score::fills(p, fill_level, store ? overview_block : 0)) {
        // cuda/pair_score.cu's allocations and launch, in its order (the store's lines at the
        // spacing asked for; the device's own choice depends on its free memory: the finest here;
        // the picture's overview after them).
        SimBuffer sel, tab, row_slots, ctrl, row_h, row_f, col_h, col_e, texels, worst;
        DPVIZ_TRY(sel.allocate(uint64_t(pair_score::selector_entries(int(N))), pair_score::column_entry_bytes(p),
                               "the target selectors"));
        DPVIZ_TRY(tab.allocate(uint64_t(M) + 1, 4, "the row score tables"));
        DPVIZ_TRY(row_slots.allocate(uint64_t(pair_score::row_slots(p)) * uint64_t(pair_score::row_slot_entries(int(N))), 8,
                                      "the group row slots"));
        DPVIZ_TRY(ctrl.allocate(2, 8, "the ticket and best cell"));
        if (store) {
            const int K = checkpoint_spacing > 0 ? checkpoint_spacing : kMinCheckpointSpacing;
            const uint64_t rows = uint64_t(Checkpoints::lines(K, 0, int32_t(M))) * uint64_t(N + 1);
            const uint64_t cols = uint64_t(Checkpoints::lines(K, 0, int32_t(N))) * uint64_t(M + 1);
            DPVIZ_TRY(row_h.allocate(rows, 4, "the checkpoint rows"));
            if (p.affine()) DPVIZ_TRY(row_f.allocate(rows, 4, "the checkpoint rows (F)"));
            DPVIZ_TRY(col_h.allocate(cols, 4, "the checkpoint columns"));
            if (p.affine()) DPVIZ_TRY(col_e.allocate(cols, 4, "the checkpoint columns (E)"));
            if (overview_block > 0) {
                DPVIZ_TRY(texels.allocate(overview_texels(int32_t(M), int32_t(N), overview_block), 4, "the overview"));
                if (p.algo == Algorithm::dtw) DPVIZ_TRY(worst.allocate(1, 4, "the overview's worst value"));
            }
        }
        DPVIZ_TRY(launch("pair_score"));
        return device_error(no_kernels);
    }

    const bool local = p.algo == Algorithm::local, last_row = reads_last_row(rules_of(p.algo).end);
    const bool affine = p.affine();
    const int64_t nbands = gpu_band::band_count(int(M));
    const int64_t nchunks = gpu_band::band_chunks(int(N));
    const int64_t nsnap = (nchunks + kSnapEvery - 1) / kSnapEvery;
    const int64_t words = kRows * kCols * (affine ? 8 : 4) / 32;
    const int64_t snap_fields = kRows + (affine ? kRows : 0) + 1 + kCols + (affine ? kCols : 0);
    const int64_t pitch = (N + 2 * kColPad + 3) / 4 * 4;
    const int64_t A = std::max(1, p.matrix.size());
    const uint64_t cells1 = uint64_t(M + 1) * uint64_t(N + 1);
    const int64_t ring = gpu_band::ring_rows(int(nbands), fill_level == OutputLevel::score, local && !store,
                                             8ll * pitch * (affine ? 2 : 1));
    // The device's own choice of K (kGpuChoosesSpacing) depends on its free memory: the finest here.
    const int64_t spacing = !store ? (local && ring < nbands - 1 ? gpu_band::kLocateSpacing : 0)
                            : checkpoint_spacing > 0 ? checkpoint_spacing : kMinCheckpointSpacing;
    const bool host_locate = local && fill_level == OutputLevel::score && spacing > 0;

    // The order of run_gpu's allocations.
    SimBuffer rows, cols, table, bot_h, bot_f, lastcol, loc, rowbest, rowchunk, snap, rowM, dirs, D, H, E, F, Hb, Eb, Fb;
    SimBuffer ck_col_h, ck_col_e, ov, ov_worst;
    DPVIZ_TRY(rows.allocate(M + kBandRows + 1, 4, "the query rows"));
    DPVIZ_TRY(cols.allocate(N + 2 * kColPad, 4, "the target columns"));
    DPVIZ_TRY(table.allocate(A * A, 4, "the score table"));
    const uint64_t bot = uint64_t(ring + (spacing ? M / spacing : 0)) * pitch;  // the ring, then the row lines
    DPVIZ_TRY(bot_h.allocate(bot, 8, "the band hand-over row"));
    if (affine) DPVIZ_TRY(bot_f.allocate(bot, 8, "the band hand-over row (F)"));
    DPVIZ_TRY(lastcol.allocate(M + 1, 4, "the last column"));
    DPVIZ_TRY(loc.allocate(1, 4, "the end-cell slot"));
    if (local) {
        DPVIZ_TRY(rowbest.allocate(M + 1, 4, "the row maxima"));
        DPVIZ_TRY(rowchunk.allocate(M + 1, 4, "the row-maximum chunks"));
        if (level != OutputLevel::matrix && !host_locate)
            DPVIZ_TRY(snap.allocate(nbands * nsnap * snap_fields * 32, 4, "the warp snapshots"));
    }
    if (last_row) DPVIZ_TRY(rowM.allocate(N + 1, 4, "the last row"));
    if (spacing) {
        const uint64_t col_entries = uint64_t(N / spacing) * uint64_t(M + 1);
        DPVIZ_TRY(ck_col_h.allocate(col_entries, 4, "the checkpoint columns"));
        if (affine) DPVIZ_TRY(ck_col_e.allocate(col_entries, 4, "the checkpoint columns (E)"));
    }
    if (store && overview_block > 0) {
        DPVIZ_TRY(ov.allocate(overview_texels(int32_t(M), int32_t(N), overview_block), 4, "the overview"));
        DPVIZ_TRY(ov_worst.allocate(1, 4, "the overview's worst value"));
    }
    if (fill_level == OutputLevel::path) {
        DPVIZ_TRY(dirs.allocate(nbands * nchunks * kSteps * 32 * words, 4, "the packed direction bits"));
        DPVIZ_TRY(D.allocate(cells1, 1, "the direction bits"));
    }
    if (level == OutputLevel::matrix) {
        DPVIZ_TRY(H.allocate(cells1, 4, "H"));
        DPVIZ_TRY(D.allocate(cells1, 1, "the direction bits"));
        if (affine) {
            DPVIZ_TRY(E.allocate(cells1, 4, "E"));
            DPVIZ_TRY(F.allocate(cells1, 4, "F"));
        }
        // What the kernel writes first, in its own order: packed bits, H (E, F) per band and step.
        const int64_t band_cells = nbands * nchunks * kSteps * 32 * kRows * kCols;
        DPVIZ_TRY(dirs.allocate(nbands * nchunks * kSteps * 32 * words, 4, "the packed direction bits"));
        DPVIZ_TRY(Hb.allocate(band_cells, 4, "H in band order"));
        if (affine) {
            DPVIZ_TRY(Eb.allocate(band_cells, 4, "E in band order"));
            DPVIZ_TRY(Fb.allocate(band_cells, 4, "F in band order"));
        }
    }

    // The order of run_gpu's launches: the fill; the local end-cell search when some cell
    // scores above 0 (the device learns that from the fill; here the CPU's score says it);
    // unpacking the matrices and bits at level matrix, the bits at level path.
    DPVIZ_TRY(launch("band_fill"));
    if (level == OutputLevel::matrix) DPVIZ_TRY(launch("unpack_matrix"));
    if (local && level != OutputLevel::matrix && !host_locate && align_cpu(p, OutputLevel::score, 1).score > 0)
        DPVIZ_TRY(launch("band_locate"));
    if (fill_level == OutputLevel::path) DPVIZ_TRY(launch("unpack_dirs"));
    return device_error(no_kernels);
}

}  // namespace dpviz::gpu_fault
