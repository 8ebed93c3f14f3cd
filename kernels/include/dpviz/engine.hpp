// Engine entry points: configure a Problem, call align(), get a DpResult.
// Backends: the readable CPU reference (the specification), the fast CPU backend, and (when
// built with CUDA) the DPX and DPX-free GPU kernels; all give bit-identical results.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz {

std::optional<Backend> parse_backend(std::string_view s);  // a backend_name, or dpx / dpx-free / portable

// Cancel and progress for long runs (the GUI's worker). Both optional. The CPU backends check
// between bands (fast) or rows (reference), the GPU dispatch between its stages.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;  // set from any thread: the run stops at its next check
                                                // and returns ErrorKind::cancelled (no CPU fallback)
    std::function<void(double)> progress;       // fraction of the run done, monotone in [0, 1], 1 last;
                                                // called on the thread that called align()
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(double fraction) const {
        if (progress) progress(fraction);
    }
};

// How a path is traced on the CPU backends: over a whole grid of direction bits, or over tiles
// recomputed from the result store's checkpoints (dpviz/store.hpp), in the memory of the
// checkpoints. `automatic` takes the checkpoints from kCheckpointPathCells cells on, and
// whenever the bits would not fit.
enum class PathMemory { automatic, direction_bits, checkpoints };
inline constexpr int64_t kCheckpointPathCells = int64_t(1) << 26;

// How a refusal says what would fit: with the command line's flags, or in the GUI's words.
enum class HintStyle { command_line, gui };

struct AlignOptions {
    Backend backend = Backend::automatic;
    OutputLevel level = OutputLevel::path;
    unsigned threads = 0;                  // fast CPU backend: 0 = all hardware threads
    std::optional<uint64_t> memory_limit;  // bytes; unset = host_memory_limit()
    PathMemory path_memory = PathMemory::automatic;
    int32_t checkpoint_spacing = 0;        // K of the checkpoints; 0 = the smallest that fits
    // Level matrix of a matrix too big to hold (as for path_memory): the checkpoints and, instead
    // of H, an overview of at most this many texels a side (DpResult::overview). 0 = hold H.
    int32_t overview_side = 0;
    HintStyle hints = HintStyle::command_line;
    RunControl control;
    // A GPU backend that is missing or faults: false returns its device error instead of the
    // CPU's answer (benchmarks, which must not time the CPU in the GPU's place).
    bool cpu_fallback = true;
};

// Bytes a request needs on the host for the given output level (matrices, bits and path).
uint64_t estimate_host_bytes(const Problem& p, OutputLevel level);
// The same for a path traced over checkpoints at spacing K (the fill at level score, the
// checkpoints, the traceback's tile).
uint64_t estimate_checkpoint_path_bytes(const Problem& p, int32_t spacing);
// The limit that bounds what this process can still allocate, and the headroom under it.
struct HostMemoryLimit {
    std::string source;  // "DPVIZ_MEMORY_LIMIT", "cgroup memory.max", "RLIMIT_AS", "RLIMIT_DATA",
                         // "MemAvailable", or "assumed" (8 GiB, /proc/meminfo has no MemAvailable)
    uint64_t bytes = 0;
};
// The smallest headroom of: the cgroup v2 memory.max of this process's cgroup and its parents
// (minus memory.current), RLIMIT_AS minus VmSize, RLIMIT_DATA minus VmData, and MemAvailable
// (docs/robustness.md, "Memory limits"). $DPVIZ_MEMORY_LIMIT is not looked at.
HostMemoryLimit measured_host_memory_limit();
// $DPVIZ_MEMORY_LIMIT if set (it overrides the rest), else measured_host_memory_limit(). A
// DPVIZ_MEMORY_LIMIT that is not a size is a usage error naming the variable.
Expected<HostMemoryLimit> host_memory_limit();
// host_memory_limit()'s bytes.
Expected<uint64_t> available_host_bytes();
// A size as people write it: bytes ("1500000"), or a number (decimals allowed) with K, M, G or
// T, powers of two, optionally followed by "iB" or "B", any case ("100MB", "1.5GiB", "512k").
// nullopt for anything else.
std::optional<uint64_t> parse_byte_size(std::string_view text);

// Fill + traceback on the chosen backend. Checks memory before allocating; a request that
// does not fit returns a resource error saying how much it needs and what to do instead.
Expected<DpResult> align(const Problem& p, const AlignOptions& opt);

// The individual CPU backends (used by align and by tests). The RunControl forms return
// ErrorKind::cancelled when cancelled.
DpResult align_reference(const Problem& p);                       // always level matrix
DpResult align_cpu(const Problem& p, OutputLevel level, unsigned threads);
Expected<DpResult> align_reference(const Problem& p, const RunControl& control);
Expected<DpResult> align_cpu(const Problem& p, OutputLevel level, unsigned threads, const RunControl& control);
// The fast CPU backend at level path in the memory of the result store: a score-level fill that
// keeps checkpoints every `spacing` rows and columns (DpResult::checkpoints, no direction bits),
// and the traceback over tiles recomputed from them. The same score, end, path and alignment.
// overview_block > 0: the fill also pools H into blocks of that many cells a side
// (DpResult::overview).
Expected<DpResult> align_cpu_checkpoints(const Problem& p, int32_t spacing, unsigned threads,
                                         const RunControl& control, int32_t overview_block = 0);

// Sets the GPU up (its context: about 0.3 s on an H200) and returns when it is ready or known to
// be missing; a no-op without CUDA. Called on a thread of its own, it overlaps reading the inputs.
void prepare_gpu();

// The GPU in one line for the timing panel: "NVIDIA H200 (132 SMs, 140.4 GiB, driver 13.0,
// compute capability 9.0)", or "not available: WHY" (no device, built without CUDA, ...).
std::string gpu_description();

// The one-pair score kernel (docs/single_pair_kernel.md) that a GPU score fill of p runs, by
// form: "pair-score" (local, linear gap), "pair-score-affine" (local, affine gaps),
// "pair-score-corner" (global with a linear gap, edit, LCS), "pair-score-corner-affine" (global
// with affine gaps), "pair-score-dtw[-squared]" (DTW
// without a band); "" where the band kernels fill it (DPVIZ_PAIR_KERNEL=0 too: docs/gpu.md).
// The corner form at score level from 16,384 rows runs the row-serial fill,
// "pair-serial-corner-r<R>" (R its rows a lane); local alignment with DPX (`dpx`: the cuda
// backend) its 16x2 form where the scores fit (pair_score::takes16): with a linear gap from
// 131,072 rows, "pair-serial-16x2-r<R>" (DPVIZ_PAIR_16X2=0: the 32-bit "pair-serial-r<R>" from
// 262,144 rows), with affine gaps from 262,144 rows, "pair-serial-16x2-affine-r<R>";
// DPVIZ_PAIR_SERIAL=1: the 32-bit row-serial fill for both at any size,
// DPVIZ_PAIR_SERIAL=0: neither (pair_score::takes_serial). `level`: score, or any other for the
// store's and the picture's fills.
// A result filled by the one-pair kernel reports no band launch shape.
// lanes16 = false: the kernel a 16x2 fill's 32-bit refill runs (DpResult::refilled32).
std::string pair_score_kernel(const Problem& p, OutputLevel level = OutputLevel::score, bool dpx = true, bool lanes16 = true);
// The name of the one-pair kernel's form k, the k of its instantiation pair_score_fill<Ops, k>
// (as pair_score_kernel names it); "" for a k it does not have.
std::string pair_score_form_name(int form);
// The rows of one group of the one-pair kernel: a block's bands, each following the band above,
// the first following the group above; of its row-serial fill for a "pair-serial...-r<R>" kernel
// name (pair_score_kernel).
int pair_score_group_rows(const std::string& kernel = {});

// Shared by every backend: where the traceback starts, the path through the direction bits,
// and the alignment read off the path. Tie-breaks are documented in docs/algorithms.md.
Cell select_end(const Problem& p, const Grid<int32_t>& H);
// select_end for the end rules that read row M (and column N) only, semi-global and glocal, from
// those lines alone: last_column[i] = H(i, N) for i = 0..M, last_row[j] = H(M, j) for j = 0..N.
// The backends that keep no matrix keep these.
struct EndCell {
    Cell cell;
    int32_t score = 0;
};
EndCell select_end_on_edges(const Problem& p, const std::vector<int32_t>& last_column,
                            const std::vector<int32_t>& last_row);
// Row 0 and column 0 of the grids r holds (dirs; H, and E/F for affine gaps), by the algorithm's
// border rules: the backends that fill only interiors call this for the borders.
void write_borders(const Problem& p, DpResult& r);
// One border cell by those rules: H(k, 0) (`column`) or H(0, k), its E, F and direction bits.
struct BorderCell {
    int32_t h = 0, e = kNegInf, f = kNegInf;
    uint8_t dirs = 0;
};
BorderCell border_cell(const Problem& p, bool column, int32_t k);
std::vector<Cell> traceback(const Problem& p, const Grid<uint8_t>& dirs, Cell end);
Alignment make_alignment(const Problem& p, const std::vector<Cell>& path);
// The tail every backend shares once r.end, r.score, r.level (and r.dirs) are set: the
// traceback and alignment (skipped at level score), timed into r.traceback_ms, and the DTW
// distances.
void finish_result(const Problem& p, DpResult& r);

// DTW in double precision over the raw signals (same band), for the quantization report; NaN
// above kDtwReferenceCells cells (one thread, about 1.5 s at the limit on an H200's host: past
// it the report would take minutes after a GPU's fill of a second).
inline constexpr int64_t kDtwReferenceCells = int64_t(1) << 30;
double dtw_reference_distance(const Problem& p);
// DTW integer score -> distance in signal units.
double dtw_distance_from_score(const Problem& p, int32_t score);

// EMBOSS-style pairwise text: a header of parameters and score, then blocks of 50 columns.
std::string format_pair_text(const Problem& p, const DpResult& r);
// One line for captions and titles: algorithm, inputs, scoring, score and backend.
std::string format_caption(const Problem& p, const DpResult& r);
// A matrix value in the user's units: a score / score_scale ("12.5"), Viterbi's ln p ("-7.25"),
// "-inf" for Viterbi's impossible.
std::string value_text(const Problem& p, int64_t v);

}  // namespace dpviz
