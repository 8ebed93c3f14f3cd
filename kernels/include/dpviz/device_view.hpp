// A fill whose matrices stay in GPU memory: the GUI's GPU-resident view path. H (E, F) and the
// direction bytes stay on the device; the max-pooled levels, the value range, the end cell and
// the path are computed there; small windows of cells come back on demand. No CUDA types here:
// device memory is named by plain pointers that only device code (render/gl's interop writer)
// dereferences. Builds without CUDA answer "not available" (cpu/no_device_view.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "dpviz/engine.hpp"

namespace dpviz {

// One max-pooled level of a layer, in device memory, row-major.
struct DeviceLevel {
    const int32_t* values = nullptr;
    int32_t rows = 0, cols = 0;
};

// render::ValueRange of a layer (finite min/max, whether any cell is unreachable).
struct DeviceRange {
    int32_t min = 0, max = 0;
    bool any_finite = false, any_unreachable = false;
};

// Milliseconds of each stage of a GPU-resident run (host wall clock around each stage).
struct DeviceStageTimes {
    double fill = 0.0;       // uploads, the band fill at level matrix (GPU events: DpResult::fill_ms)
    double borders = 0.0;    // row 0 / column 0 of H, E, F and the direction bytes
    double end_cell = 0.0;   // where the traceback starts (row maxima or last row/column)
    double traceback = 0.0;  // the path, traced on the GPU, and its copy to the host
    double pyramid = 0.0;    // H's max-pooled levels and value range (E's and F's: on first use)
    double alignment = 0.0;  // the alignment read off the path (host)
    double total = 0.0;
};

class DeviceMatrices {
public:
    virtual ~DeviceMatrices() = default;
    virtual int32_t rows() const = 0;  // M + 1
    virtual int32_t cols() const = 0;  // N + 1
    // Layer 0 is H (D, L: the score matrix), 1 is E, 2 is F (E and F with affine gaps only).
    virtual bool has_layer(int layer) const = 0;
    // levels[0] is the matrix; levels[k] max-pools 2x2 blocks of levels[k-1] exactly as
    // render::build_value_pyramid does (unreachable loses to every reachable value).
    virtual const std::vector<DeviceLevel>& levels(int layer) const = 0;
    virtual DeviceRange range(int layer) const = 0;
    // Copies cells [i0, i0 + rows) x [j0, j0 + cols) of a layer (or of the direction bytes) to
    // `out`, row-major. The window must lie inside the matrix.
    virtual Status fetch(int layer, int32_t i0, int32_t j0, int32_t rows, int32_t cols, int32_t* out) const = 0;
    virtual Status fetch_bits(int32_t i0, int32_t j0, int32_t rows, int32_t cols, uint8_t* out) const = 0;
    // The whole pyramid level `level` of a layer (levels(layer)[level].rows x .cols), for tests.
    virtual Status fetch_level(int layer, int level, int32_t* out) const = 0;
};

struct DeviceAlignment {
    DpResult result;  // level matrix: score, end, path, alignment, DTW distances, timings; H, E, F
                      // and dirs are left empty (they are in `matrices`)
    std::shared_ptr<const DeviceMatrices> matrices;
    DeviceStageTimes stages;
};

// Whether this build has CUDA and a usable device (cached after the first call).
bool device_view_available();

// Free and total memory of the device (cudaMemGetInfo), for checks that a long run gives back
// what it took; nullopt without CUDA or a usable device.
struct DeviceMemory {
    uint64_t free_bytes = 0, total_bytes = 0;
};
std::optional<DeviceMemory> device_memory();
// The fill on the GPU (DPX kernels when `dpx`) with everything kept there: pyramid levels until
// the longer side is at most `pyramid_min_side` (render::build_value_pyramid's min_side), the
// path traced from the device's direction bytes. Same score, end cell, path and alignment as
// align(). Device errors (no GPU, not enough GPU memory, an empty matrix) come back as
// ErrorKind::device: the caller then takes the host path. `control` is checked between stages.
// `on_score_range`, when given, is called on the calling thread with H's value range as soon as
// it is known, before the end cell and the path: the caller can prepare its view meanwhile.
Expected<DeviceAlignment> align_on_device(const Problem& p, bool dpx, int pyramid_min_side, const RunControl& control,
                                          const std::function<void(const DeviceRange&)>& on_score_range = {});

}  // namespace dpviz
