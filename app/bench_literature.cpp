// The literature workloads of `dpviz bench`: batches timed on the DPX and the DPX-free kernels
// (CUDA events around the kernel, one warm-up, median of the runs), checked pair by pair against
// the CPU batch backend, with the target time of each workload.
#include "bench_literature.hpp"

#include <iomanip>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_common.hpp"
#include "dpviz/batch.hpp"
#include "matrix_file.hpp"

namespace dpviz::app {
namespace {

struct Workload {
    std::string name;
    Algorithm algo;
    int pairs;
    int length;        // M = N
    bool same_pair;    // one pair repeated (the local workload)
    double target_ms;  // the time to meet on an H200
};

const std::vector<Workload> kWorkloads = {
    {"local 2048^2 x100", Algorithm::local, 100, 2048, true, 0.40},
    {"edit 512 x 1024^2", Algorithm::edit, 512, 1024, false, 0.20},
    {"dtw 256 x 800^2", Algorithm::dtw, 256, 800, false, 0.13},
};

// A random sequence of `length` and a copy with ~10% substitutions and ~3% insertions and
// deletions, cut or filled to the same length (the workloads are square).
std::pair<std::string, std::string> sequence_pair(std::mt19937& rng, int length, bool protein) {
    const std::string alphabet = protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::string t, q;
    for (int k = 0; k < length; ++k) t += alphabet[pick(rng)];
    for (const char c : t) {
        const double x = u(rng);
        if (x < 0.03) continue;
        if (x < 0.06) q += alphabet[pick(rng)];
        q += x < 0.16 ? alphabet[pick(rng)] : c;
    }
    while (int(q.size()) < length) q += alphabet[pick(rng)];
    q.resize(size_t(length));
    return {q, t};
}

std::pair<std::vector<double>, std::vector<double>> signal_pair(std::mt19937& rng, int length) {
    std::normal_distribution<double> step(0.0, 1.0);
    std::vector<double> a, b;
    double x = 0.0, y = 0.0;
    for (int k = 0; k < length; ++k) {
        x += step(rng);
        y = 0.8 * y + 0.2 * x + 0.1 * step(rng);
        a.push_back(x);
        b.push_back(y);
    }
    return {a, b};
}

Expected<std::vector<Problem>> make_workload(const Workload& w, const LiteratureOptions& o) {
    ScoringOptions s;
    if (w.algo == Algorithm::local) {
        auto m = load_matrix(o.protein ? "BLOSUM62" : "NUC.4.4");
        if (!m) return m.error();
        s.matrix = *m;
        s.gaps = o.protein ? GapPenalties{11, 1} : GapPenalties{10, 1};
    }
    std::mt19937 rng(o.seed * 7919u + uint32_t(w.pairs) * 31u + uint32_t(w.length));
    std::vector<Problem> out;
    for (int k = 0; k < w.pairs; ++k) {
        if (w.same_pair && k > 0) {
            out.push_back(out.front());
            continue;
        }
        Expected<Problem> p = usage_error("unreachable");
        const std::string id = std::to_string(k + 1);
        const std::string qn = std::string("q").append(id), tn = std::string("t").append(id);
        if (w.algo == Algorithm::dtw) {
            auto [a, b] = signal_pair(rng, w.length);
            p = make_dtw_problem({qn, a}, {tn, b}, s);
        } else {
            auto [q, t] = sequence_pair(rng, w.length, o.protein && w.algo == Algorithm::local);
            p = make_problem(w.algo, {qn, q}, {tn, t}, s);
        }
        if (!p) return p.error();
        out.push_back(std::move(*p));
    }
    return out;
}

struct Row {
    std::string workload, backend, note;
    int pairs = 0, runs = 0, warps = 0;
    int64_t cells = 0;
    double ms = 0, target_ms = 0, ratio = 0;  // ratio: DPX-free ms / DPX ms (on the cuda row)
    int lanes16 = 0, redone = 0;  // pairs run two to a word in 16-bit lanes; of those, redone in 32 bits
    bool timed() const { return runs > 0; }
    double gcups() const { return ms > 0 ? double(cells) / ms / 1e6 : 0.0; }
};

// Whether a GPU backend runs here: one tiny pair, so a machine without a GPU skips the workloads
// instead of timing the CPU fallback.
std::string gpu_unavailable(Backend b) {
    ScoringOptions s;
    auto p = make_problem(Algorithm::edit, {"q", "ACGT"}, {"t", "AGT"}, s);
    if (!p) return p.error().message;
    BatchOptions opt;
    opt.backend = b;
    auto r = align_batch(std::vector<Problem>{*p}, opt);
    if (!r) return r.error().message;
    return r->fallback;
}

}  // namespace

int run_literature_bench(const LiteratureOptions& o, std::ostream& out, std::ostream& err) {
    const std::string no_dpx = gpu_unavailable(Backend::cuda), no_portable = gpu_unavailable(Backend::cuda_portable);
    std::vector<Row> rows;
    for (const Workload& w : kWorkloads) {
        auto pairs = make_workload(w, o);
        if (!pairs) {
            err << "dpviz: " << w.name << ": " << pairs.error().message << "\n";
            return kExitInput;
        }
        // The CPU batch backend is the check (one run, also reported).
        BatchOptions cpu_opt;
        cpu_opt.backend = Backend::cpu;
        cpu_opt.threads = o.threads;
        auto want = align_batch(*pairs, cpu_opt);
        if (!want) {
            err << "dpviz: " << w.name << ": " << want.error().message << "\n";
            return kExitInput;
        }
        Row cpu{w.name, "cpu", "the check (one run)", w.pairs, int(want->runs_ms.size()), 0, want->cells, want->fill_ms, 0, 0};
        rows.push_back(cpu);
        // --copies K: the GPUs get the pairs K times over (each copy checked against its pair's
        // CPU result); the targets are for the workloads as published (K = 1).
        const size_t n = pairs->size();
        pairs->reserve(n * size_t(o.copies));
        for (int c = 1; c < o.copies; ++c)
            for (size_t k = 0; k < n; ++k) pairs->push_back((*pairs)[k]);
        const std::string gpu_name = o.copies == 1 ? w.name : w.name + " (x" + std::to_string(o.copies) + ")";
        const double target_ms = o.copies == 1 ? w.target_ms : 0.0;
        size_t dpx_row = 0;
        for (const Backend b : {Backend::cuda, Backend::cuda_portable}) {
            Row row{gpu_name, std::string(backend_name(b)), "", int(pairs->size()), 0, 0, want->cells * o.copies, 0, target_ms, 0};
            BatchOptions opt;
            opt.backend = b;
            opt.repeats = o.repeats;
            const std::string& unavailable = b == Backend::cuda ? no_dpx : no_portable;
            auto got = unavailable.empty() ? align_batch(*pairs, opt) : Expected<BatchResult>(device_error(unavailable));
            if (!got && !unavailable.empty()) {
                row.note = "not available: " + unavailable;
            } else if (!got) {
                row.note = "failed: " + got.error().message;
            } else if (!got->fallback.empty()) {
                row.note = "not available: " + got->fallback;
            } else {
                row.runs = int(got->runs_ms.size());
                row.ms = got->fill_ms;
                row.warps = got->warps_per_pair;
                row.lanes16 = got->lanes16_pairs;
                row.redone = got->lanes16_redone;
                size_t wrong = 0;
                for (size_t k = 0; k < pairs->size(); ++k) {
                    const auto& ref = want->pairs[k % n];
                    if (got->pairs[k].score != ref.score || !(got->pairs[k].end == ref.end)) ++wrong;
                }
                if (wrong) row.note = "MISMATCH: " + std::to_string(wrong) + " pairs differ from cpu";
                else if (target_ms <= 0) row.note = "no target (copies)";
                else row.note = row.ms <= target_ms ? "meets the target" : "misses the target";
                if (row.lanes16)
                    row.note += "; " + std::to_string(row.lanes16) + " pairs in 16x2 lanes (" + std::to_string(row.redone) +
                                " redone in 32 bits)";
            }
            if (b == Backend::cuda) {
                dpx_row = rows.size();
            } else if (row.timed() && rows[dpx_row].timed()) {
                rows[dpx_row].ratio = row.ms / rows[dpx_row].ms;
            }
            rows.push_back(row);
            if (!o.json) err << "  " << row.workload << " " << row.backend << " done\n";
        }
    }

    if (o.json) {
        out << "{\n  \"workloads\": [\n";
        for (size_t k = 0; k < rows.size(); ++k) {
            const Row& r = rows[k];
            out << "    {\"workload\": \"" << r.workload << "\", \"backend\": \"" << r.backend << "\", \"pairs\": " << r.pairs
                << ", \"cells\": " << r.cells << ", \"runs\": " << r.runs;
            if (r.timed() || r.backend == "cpu")
                out << ", \"ms\": " << r.ms << ", \"gcups\": " << r.gcups();
            if (r.warps) out << ", \"warps_per_pair\": " << r.warps;
            if (r.timed()) out << ", \"lanes16_pairs\": " << r.lanes16 << ", \"lanes16_redone\": " << r.redone;
            if (r.ratio > 0) out << ", \"dpx_ratio\": " << r.ratio;
            if (r.target_ms > 0) out << ", \"target_ms\": " << r.target_ms;
            out << ", \"note\": \"" << json_escape(r.note) << "\"}"
                << (k + 1 < rows.size() ? "," : "") << "\n";
        }
        out << "  ]\n}\n";
        return kExitOk;
    }
    out << "dpviz bench --workloads literature: median of " << o.repeats
        << " runs after a warm-up (GPU: CUDA events around the kernel; cpu: one run, wall clock); local on "
        << (o.protein ? "protein, BLOSUM62 11/1" : "DNA, NUC.4.4 10/1")
        << (o.copies == 1 ? std::string() : "; GPU batches hold the pairs " + std::to_string(o.copies) + " times over")
        << "\n";
    const int name_w = o.copies == 1 ? 20 : 27;
    out << std::left << std::setw(name_w) << "workload" << std::setw(15) << "backend" << std::right << std::setw(12) << "cells"
        << std::setw(6) << "runs" << std::setw(11) << "ms" << std::setw(10) << "GCUPS" << std::setw(11) << "target ms"
        << std::setw(11) << "DPX ratio" << std::setw(7) << "warps" << "  note\n";
    for (const Row& r : rows) {
        out << std::left << std::setw(name_w) << r.workload << std::setw(15) << r.backend << std::right << std::setw(12)
            << r.cells << std::setw(6) << r.runs << std::fixed;
        if (r.timed())
            out << std::setprecision(3) << std::setw(11) << r.ms << std::setprecision(1) << std::setw(10) << r.gcups();
        else
            out << std::setw(11) << "-" << std::setw(10) << "-";
        out << std::setprecision(2) << std::setw(11);
        if (r.target_ms > 0) out << r.target_ms;
        else out << "-";
        out << std::setw(11);
        if (r.ratio > 0) out << r.ratio;
        else out << "-";
        out << std::setw(7) << (r.warps ? std::to_string(r.warps) : std::string("-")) << "  " << r.note << "\n";
        out.unsetf(std::ios::fixed);
    }
    return kExitOk;
}

}  // namespace dpviz::app
