// align(): memory check, backend choice and dispatch. The one place that decides which
// backend runs and what a request costs in memory.
#include <sstream>
#include <string>
#include <thread>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "dpviz/store.hpp"
#include "gpu_dispatch.hpp"
#include "pair_score_plan.hpp"

namespace dpviz {
namespace {

std::string gib(uint64_t bytes) {
    std::ostringstream o;
    o.precision(bytes >= (uint64_t(1) << 30) * 10 ? 0 : 2);
    o << std::fixed << double(bytes) / double(uint64_t(1) << 30) << " GiB";
    return o.str();
}

}  // namespace

std::string_view backend_name(Backend b) {
    switch (b) {
        case Backend::automatic: return "auto";
        case Backend::cpu_reference: return "cpu-reference";
        case Backend::cpu: return "cpu";
        case Backend::cuda: return "cuda";
        case Backend::cuda_portable: return "cuda-portable";
    }
    return "?";
}

std::optional<Backend> parse_backend(std::string_view s) {
    for (Backend b : {Backend::automatic, Backend::cpu_reference, Backend::cpu, Backend::cuda, Backend::cuda_portable})
        if (s == backend_name(b)) return b;
    if (s == "dpx") return Backend::cuda;
    if (s == "portable" || s == "dpx-free") return Backend::cuda_portable;
    return std::nullopt;
}

uint64_t estimate_host_bytes(const Problem& p, OutputLevel level) {
    if (p.algo == Algorithm::viterbi) {
        // The model twice (transitions by destination too), the trellis as the backend keeps it
        // (T x S backpointers, and delta at level matrix) and as the grid holds it ((S+1) x (T+1)).
        const uint64_t S = uint64_t(p.rows()), T = uint64_t(p.cols());
        uint64_t per_cell = 0;
        if (level != OutputLevel::score) per_cell += 2 * 2;
        if (level == OutputLevel::matrix) per_cell += 2 * 4;
        return (S + 1) * (T + 1) * per_cell + S * S * 8 + T * (sizeof(Cell) + 2) + (1u << 20);
    }
    const uint64_t cells = uint64_t(p.rows() + 1) * uint64_t(p.cols() + 1);
    const uint64_t inputs = uint64_t(p.rows() + p.cols()) * (p.algo == Algorithm::dtw ? 12 : 2);
    const uint64_t path = uint64_t(p.rows() + p.cols() + 1) * (sizeof(Cell) + 4);  // path + alignment rows
    uint64_t per_cell = 0;
    if (level != OutputLevel::score) per_cell += 1;  // direction bits
    if (level == OutputLevel::matrix) per_cell += p.affine() ? 12 : 4;
    const uint64_t rows = uint64_t(p.cols() + 1) * 4 * 6;  // rolling rows of the score-only pass
    return cells * per_cell + inputs + path + rows + (1u << 20);
}

uint64_t estimate_checkpoint_path_bytes(const Problem& p, int32_t spacing) {
    return estimate_host_bytes(p, OutputLevel::score) + checkpoint_bytes(p, spacing) + traceback_tile_bytes(p, spacing);
}

std::optional<uint64_t> parse_byte_size(std::string_view text) {
    // digits[.digits] [K|M|G|T][i][B], case-insensitive, blanks around: 100MB, 1.5GiB, 512 k.
    size_t k = 0;
    auto blank = [&] { while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k; };
    blank();
    long double value = 0;
    size_t digits = 0;
    for (; k < text.size() && text[k] >= '0' && text[k] <= '9'; ++k, ++digits) value = value * 10 + (text[k] - '0');
    if (k < text.size() && text[k] == '.') {
        long double place = 0.1L;
        for (++k; k < text.size() && text[k] >= '0' && text[k] <= '9'; ++k, ++digits, place /= 10)
            value += place * (text[k] - '0');
    }
    if (digits == 0) return std::nullopt;
    blank();
    int power = 0;
    if (k < text.size()) {
        const char* units = "KMGT";
        for (int u = 0; u < 4; ++u)
            if ((text[k] | 0x20) == (units[u] | 0x20)) power = u + 1;
        if (power > 0) {
            ++k;
            if (k < text.size() && (text[k] | 0x20) == 'i') ++k;
        }
        if (k < text.size() && (text[k] | 0x20) == 'b') ++k;
    }
    blank();
    if (k != text.size()) return std::nullopt;
    for (int u = 0; u < power; ++u) value *= 1024;
    if (value >= 18446744073709551616.0L) return std::nullopt;  // 2^64
    return uint64_t(value);
}

namespace {

// The checkpoint spacing for a path traced over the result store, or 0 for direction bits.
// The checkpoints may take half of what is free, at most 2 GiB: beyond that a coarser K costs
// less than the memory.
// Level matrix takes the store too when the caller takes an overview in place of H.
int32_t checkpoint_spacing_for(const Problem& p, const AlignOptions& opt, OutputLevel level, uint64_t have, bool cpu) {
    const bool store_level = level == OutputLevel::path || (level == OutputLevel::matrix && opt.overview_side > 0);
    if (!store_level || !cpu) return 0;
    if (opt.path_memory == PathMemory::direction_bits) return 0;
    const bool big = int64_t(p.rows() + 1) * int64_t(p.cols() + 1) >= kCheckpointPathCells;
    if (opt.path_memory == PathMemory::automatic && !big && estimate_host_bytes(p, level) <= have) return 0;
    if (opt.checkpoint_spacing > 0) return opt.checkpoint_spacing;
    const uint64_t base = estimate_host_bytes(p, OutputLevel::score);
    const uint64_t free = have - std::min(have, base);
    if (const int32_t k = choose_checkpoint_spacing(p, std::min<uint64_t>(free / 2, uint64_t(2) << 30))) return k;
    if (const int32_t k = choose_checkpoint_spacing(p, free)) return k;  // all that is left
    return kMaxCheckpointSpacing;  // does not fit either: the message says what it needs
}

}  // namespace

Expected<DpResult> align(const Problem& p, const AlignOptions& opt) {
    // A mistyped test switch must not silently test nothing (docs/robustness.md).
    if (auto fault = gpu_fault::current(); !fault) return fault.error();
    const OutputLevel level = opt.backend == Backend::cpu_reference ? OutputLevel::matrix : opt.level;
    const Expected<HostMemoryLimit> limit =
        opt.memory_limit ? Expected<HostMemoryLimit>(HostMemoryLimit{"the memory limit", *opt.memory_limit})
                         : host_memory_limit();
    if (!limit) return limit.error();
    const uint64_t have = limit->bytes;
    // A big path or picture goes through the result store on every backend: a GPU fill keeps the
    // checkpoint lines (and pools the overview) in place of direction bits and matrices (moving
    // those costs more than the fill: 131,072^2 on an H200, docs/performance.md).
    const bool big_picture = level == OutputLevel::matrix && opt.overview_side > 0 &&
                             int64_t(p.rows() + 1) * int64_t(p.cols() + 1) >= kCheckpointPathCells;
    const bool viterbi = p.algo == Algorithm::viterbi;
    // The trellis's store is the CPU's: its picture goes there whenever it takes the store, its
    // path only when the backpointers do not fit (the GPU fills a trellis faster when they do).
    const bool trellis_store = viterbi && (big_picture || estimate_host_bytes(p, level) > have) &&
                               checkpoint_spacing_for(p, opt, level, have, true) > 0;
    const bool on_cpu = opt.backend == Backend::cpu ||
                        (opt.backend == Backend::automatic && (trellis_store || !gpu_usable()));
    const bool on_gpu = opt.backend == Backend::cuda || opt.backend == Backend::cuda_portable ||
                        (opt.backend == Backend::automatic && !on_cpu);
    const bool gpu_store = on_gpu && !viterbi &&
                           (level == OutputLevel::path || (level == OutputLevel::matrix && opt.overview_side > 0));
    const int32_t spacing = checkpoint_spacing_for(p, opt, level, have, on_cpu || gpu_store);
    // The GPU's lines are band bottoms: K a power of two, a multiple of a band's rows.
    if (gpu_store && spacing && ((spacing & (spacing - 1)) != 0 || spacing % gpu_band::kBandRows != 0))
        return usage_error("checkpoints every " + std::to_string(spacing) + " rows: a GPU keeps them every 2^k >= " +
                           std::to_string(gpu_band::kBandRows) + " rows");
    // The overview: one texel grid per thread and the merged one.
    const int32_t block = spacing && level == OutputLevel::matrix ? overview_block(p, opt.overview_side) : 0;
    const uint64_t texels = block ? overview_texels(p.rows(), p.cols(), block) : 0;
    const unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
    // A GPU's lines stay in device memory: the host holds one traceback tile (and the overview,
    // as the device pooled it and with the borders).
    const uint64_t need = !spacing ? estimate_host_bytes(p, level)
                          : gpu_store ? estimate_host_bytes(p, OutputLevel::score) +
                                            traceback_tile_bytes(p, kMaxCheckpointSpacing) + texels * 4 * 2
                                      : estimate_checkpoint_path_bytes(p, spacing) + texels * 4 * (threads + 1);
    const int32_t gpu_spacing = !gpu_store || !spacing ? 0 : opt.checkpoint_spacing > 0 ? spacing : kGpuChoosesSpacing;
    // The store's fill answers at level path (with the overview when it pools one).
    const OutputLevel gpu_level = gpu_spacing ? OutputLevel::path : level;
    if (need > have) {
        // What would fit, in the words of the interface the message appears in.
        const bool cli = opt.hints == HintStyle::command_line;
        std::string hint;
        if (level == OutputLevel::score) hint = "align shorter inputs";
        else if (cli) hint = std::string(level == OutputLevel::matrix ? "drop the matrix output (no --png), or " : "") +
                             "use --score-only (linear memory)";
        else hint = "align shorter inputs, or compute the score only";
        const std::string how = spacing ? " (checkpoints every " + std::to_string(spacing) + " rows and columns)" : "";
        return resource_error(std::to_string(p.rows()) + " x " + std::to_string(p.cols()) + " " +
                              std::string(algorithm_name(p.algo)) + " at this output level needs " + gib(need) + how +
                              " of memory, " + gib(have) + " available (" + limit->source + "): " + hint);
    }

    const RunControl& ctl = opt.control;
    auto run_cpu = [&](int32_t k) -> Expected<DpResult> {
        const int32_t b = level == OutputLevel::matrix ? overview_block(p, opt.overview_side) : 0;
        if (k) return align_cpu_checkpoints(p, k, opt.threads, ctl, b);
        return align_cpu(p, level, opt.threads, ctl);
    };
    Expected<DpResult> r = DpResult{};
    switch (opt.backend) {
        case Backend::cpu_reference: r = align_reference(p, ctl); break;
        case Backend::cpu: r = run_cpu(spacing); break;
        case Backend::cuda:
        case Backend::cuda_portable:
            r = align_gpu(p, gpu_level, opt.backend == Backend::cuda, ctl, gpu_spacing, block);
            break;
        case Backend::automatic:
            r = on_cpu ? run_cpu(spacing) : align_gpu(p, gpu_level, true, ctl, gpu_spacing, block);
            break;
    }
    if (!r && r.error().kind == ErrorKind::device && opt.cpu_fallback) {
        // A GPU that is missing or faulted never costs the user the answer: the CPU computes it.
        // (A cancelled run is not a device error: it ends here with ErrorKind::cancelled.)
        const std::string why = r.error().message;
        const int32_t cpu_spacing = checkpoint_spacing_for(p, opt, level, have, true);
        // The GPU's store held its lines in device memory; the CPU's holds them on the host.
        if (gpu_store && cpu_spacing) {
            const uint64_t cpu_need = estimate_checkpoint_path_bytes(p, cpu_spacing);
            if (cpu_need > have)
                return resource_error(std::string(backend_name(opt.backend)) + " unavailable (" + why +
                                      "), and on the CPU " + std::to_string(p.rows()) + " x " +
                                      std::to_string(p.cols()) + " " + std::string(algorithm_name(p.algo)) +
                                      " needs " + gib(cpu_need) + " (checkpoints every " +
                                      std::to_string(cpu_spacing) + " rows and columns) of memory, " + gib(have) +
                                      " available (" + limit->source + ")");
        }
        r = run_cpu(cpu_spacing);
        if (r) r->fallback = std::string(backend_name(opt.backend)) + " unavailable (" + why + "); ran on the CPU";
    }
    if (!r) return r;
    ctl.report(1.0);
    if (p.algo == Algorithm::viterbi && r->score == kNegInf)
        return input_error(p.target_name + ": the observations are impossible under " + p.query_name +
                           " (every state path has probability 0)");
    if (p.algo == Algorithm::dtw && r->score >= kPosInf)
        return usage_error("a band of " + std::to_string(p.band) + " leaves no warping path from (1,1) to (" +
                           std::to_string(p.rows()) + "," + std::to_string(p.cols()) + "); widen the band");
    return r;
}

std::string pair_score_kernel(const Problem& p, OutputLevel level, bool dpx, bool lanes16) {
    if (!pair_score::takes(p, OutputLevel::score)) return {};
    const pair_score::Compact c = pair_score::compact_codes(p);
    const pair_score::Scoring sc = *pair_score::scoring_of(p, c);
    const pair_score::Form form = pair_score::form_of(sc);
    if (lanes16 && pair_score::takes16(sc, c, level, p.rows(), dpx)) return pair_score::name16(pair_score::lanes16_rows(), form == pair_score::Form::affine);
    if (pair_score::takes_serial(form, level, p.rows(), dpx)) return pair_score::serial_name(form, p.rows());
    return pair_score::form_name(form);
}

int pair_score_group_rows(const std::string& kernel) {
    if (kernel.rfind("pair-serial", 0) == 0) {  // R rows a lane, 32 lanes a band (the 16x2 fill: 64)
        const size_t r = kernel.find("-r");
        const int lanes = kernel.rfind("pair-serial-16x2", 0) == 0 ? 64 : 32;
        if (r != std::string::npos) return pair_score::kSerialWarps * lanes * std::atoi(kernel.c_str() + r + 2);
    }
    return pair_score::kGroupRows;
}

std::string pair_score_form_name(int form) {
    using pair_score::Form;
    if (form < int(Form::linear) || form > int(Form::corner_affine)) return {};
    return pair_score::form_name(Form(form));
}

}  // namespace dpviz
