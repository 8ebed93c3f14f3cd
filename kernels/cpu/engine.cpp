// align(): memory check, backend choice and dispatch. The one place that decides which
// backend runs and what a request costs in memory.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "gpu_dispatch.hpp"

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
    const uint64_t cells = uint64_t(p.rows() + 1) * uint64_t(p.cols() + 1);
    const uint64_t inputs = uint64_t(p.rows() + p.cols()) * (p.algo == Algorithm::dtw ? 12 : 2);
    const uint64_t path = uint64_t(p.rows() + p.cols() + 1) * (sizeof(Cell) + 4);  // path + alignment rows
    uint64_t per_cell = 0;
    if (level != OutputLevel::score) per_cell += 1;  // direction bits
    if (level == OutputLevel::matrix) per_cell += p.affine() ? 12 : 4;
    const uint64_t rows = uint64_t(p.cols() + 1) * 4 * 6;  // rolling rows of the score-only pass
    return cells * per_cell + inputs + path + rows + (1u << 20);
}

uint64_t available_host_bytes() {
    if (const char* env = std::getenv("DPVIZ_MEMORY_LIMIT")) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(env, &end, 10);
        if (end != env) return v;
    }
    std::ifstream f("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    std::string unit;
    while (f >> key >> kb >> unit)
        if (key == "MemAvailable:") return kb * 1024;
    return uint64_t(8) << 30;  // unknown: assume a small machine
}

Expected<DpResult> align(const Problem& p, const AlignOptions& opt) {
    // A mistyped test switch must not silently test nothing (docs/robustness.md).
    if (auto fault = gpu_fault::current(); !fault) return fault.error();
    const OutputLevel level = opt.backend == Backend::cpu_reference ? OutputLevel::matrix : opt.level;
    const uint64_t need = estimate_host_bytes(p, level);
    const uint64_t have = opt.memory_limit ? *opt.memory_limit : available_host_bytes();
    if (need > have) {
        std::string hint = level == OutputLevel::matrix ? "drop the matrix output (no --png), or "
                                                         : "";
        hint += level == OutputLevel::score ? "align shorter inputs" : "use --score-only (linear memory) or align a region";
        return resource_error(std::to_string(p.rows()) + " x " + std::to_string(p.cols()) + " " +
                              std::string(algorithm_name(p.algo)) + " at this output level needs " + gib(need) +
                              " of memory, " + gib(have) + " available: " + hint);
    }

    const RunControl& ctl = opt.control;
    Expected<DpResult> r = DpResult{};
    switch (opt.backend) {
        case Backend::cpu_reference: r = align_reference(p, ctl); break;
        case Backend::cpu: r = align_cpu(p, level, opt.threads, ctl); break;
        case Backend::cuda:
        case Backend::cuda_portable: r = align_gpu(p, level, opt.backend == Backend::cuda, ctl); break;
        case Backend::automatic:
            r = gpu_usable() ? align_gpu(p, level, true, ctl) : align_cpu(p, level, opt.threads, ctl);
            break;
    }
    if (!r && r.error().kind == ErrorKind::device) {
        // A GPU that is missing or faulted never costs the user the answer: the CPU computes it.
        // (A cancelled run is not a device error: it ends here with ErrorKind::cancelled.)
        const std::string why = r.error().message;
        r = align_cpu(p, level, opt.threads, ctl);
        if (r) r->fallback = std::string(backend_name(opt.backend)) + " unavailable (" + why + "); ran on the CPU";
    }
    if (!r) return r;
    ctl.report(1.0);
    if (p.algo == Algorithm::dtw && r->score >= kPosInf)
        return usage_error("--band " + std::to_string(p.band) + " leaves no warping path from (1,1) to (" +
                           std::to_string(p.rows()) + "," + std::to_string(p.cols()) + "); widen the band");
    return r;
}

}  // namespace dpviz
