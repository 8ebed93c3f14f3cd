// `dpviz bench`: fill and fill+traceback throughput of every backend on generated pairs, and
// (built with parasail, --peer) parasail's traceback functions on the same pairs, side by side.
#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_literature.hpp"
#include "bench_scan.hpp"
#include "cli.hpp"
#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "matrix_file.hpp"

#ifdef DPVIZ_HAVE_PARASAIL
#include <parasail.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace dpviz::app {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string cpu_model() {
    std::FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (!f) return "unknown";
    char line[512];
    std::string model = "unknown";
    while (std::fgets(line, sizeof line, f)) {
        std::string s(line);
        if (s.rfind("model name", 0) == 0) {
            model = s.substr(s.find(':') + 2);
            if (!model.empty() && model.back() == '\n') model.pop_back();
            break;
        }
    }
    std::fclose(f);
    return model;
}

BenchPair make_bench_pair(int length, bool protein, uint32_t seed) {
    const std::string alphabet = protein ? "ARNDCQEGHILKMFPSTWYV" : "ACGT";
    std::mt19937 rng(seed * 7919u + uint32_t(length));
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    BenchPair p;
    p.name = std::string(protein ? "protein-" : "dna-") +
             (length % 1000 == 0 ? std::to_string(length / 1000) + "k" : std::to_string(length));
    for (int k = 0; k < length; ++k) p.target += alphabet[pick(rng)];
    for (const char c : p.target) {
        const double x = u(rng);
        if (x < 0.03) continue;
        if (x < 0.06) p.query += alphabet[pick(rng)];
        p.query += x < 0.16 ? alphabet[pick(rng)] : c;
    }
    std::normal_distribution<double> step(0.0, 1.0);
    double a = 0.0, b = 0.0;
    for (int k = 0; k < length; ++k) {
        a += step(rng);
        b = 0.8 * b + 0.2 * a + 0.1 * step(rng);
        p.query_signal.push_back(a);
        p.target_signal.push_back(b);
    }
    return p;
}

namespace {

constexpr const char* kBenchHelp = R"(Usage: dpviz bench [options]

Times fill and fill + traceback on generated pairs: seeded random sequences and a mutated copy
(~80% identity, so the optimal path is long), warm-up + median of --repeat runs.

  --backend B        cpu (default), cpu-reference, cuda, cuda-portable, or all
  --algo A[,A...]    local (default), global, semiglobal, glocal, edit, lcs, dtw, or all
  --alphabet X       dna (default: NUC.4.4, gaps 10/1) or protein (BLOSUM62, gaps 11/1)
  --pairs S[,S...]   lengths, e.g. 1k,10k,12k (default 1k,10k,12k; 65536 needs --large)
  --length N         one pair of length N instead
  --large            add a 65,536 pair (4.3e9 cells: ~4 GiB of direction bits)
  --level L          score, path (default) or matrix
  --repeat N         timed runs per measurement (default 10; 3 above 5e7 cells, 1 above 1e9)
  --threads N        CPU backend threads (default 0: all hardware threads)
  --peer             also time parasail's *_trace_* functions on the same pairs; variants
                     whose score differs from dpviz's, or that crash (each runs in a child
                     process), are reported and not counted
  --seed N           generator seed (default 1)
  --json             one JSON object instead of the table
  --workloads W      pairs (default: the generated pairs above) or literature: the batch
                     workloads local 2048^2 x100 (<= 0.40 ms), edit 512 x 1024^2 (<= 0.20 ms) and
                     DTW 256 x 800^2 (<= 0.13 ms) on cuda and cuda-portable (median of --repeat,
                     default 10, after a warm-up; CUDA events), each checked against the CPU
  --copies K         literature workloads: each batch holds its pairs K times over (default 1;
                     the targets apply at 1): a GPU full of pairs, where the kernels are bound
                     by instruction issue rather than by a pair's wavefront

  --scan             one pair per workload at growing sizes, as a big pair runs: local linear
                     (match 2, mismatch -1, gap 2), local affine (NUC.4.4, gaps 10/1), edit
                     distance and DTW; each at score level, as the picture's fill (the result
                     store's checkpoint lines and overview) and with a path; TCUPS and the
                     epilogues' cost over the score fill. --pairs N or MxN sets the sizes
                     (default 16384 to 1048576 by doubling, and 185000x2200000); --backend
                     defaults to cuda,cuda-portable (cpu is scanned up to 65,536^2). Rows of
                     one pair must agree on the score. Exit 1 when a row fails or disagrees,
                     5 when the GPU asked for does not run (the CPU never stands in for it).
                     Timed runs: 3 below 131,072^2, else 1 (--repeat); a warm-up below 262,144^2.

GCUPS = M*N cells / time. "ratio" = the dpviz CPU backend's fill+traceback GCUPS over the
fastest correct parasail variant's.
)";

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

struct Options {
    std::vector<Backend> backends{Backend::cpu};
    std::vector<Algorithm> algos{Algorithm::local};
    bool protein = false;
    std::vector<int> lengths{1000, 10000, 12000};
    OutputLevel level = OutputLevel::path;
    std::optional<int> repeat;
    unsigned threads = 0;
    bool peer = false;
    uint32_t seed = 1;
    bool json = false;
    bool literature = false;  // --workloads literature
    int copies = 1;           // --copies K (literature only)
    bool scan = false;        // --scan
    std::vector<std::pair<int, int>> shapes = default_scan_shapes();  // --scan's --pairs
};

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, ',');)
        if (!part.empty()) out.push_back(part);
    return out;
}

std::optional<long> parse_count(std::string s) {
    long scale = 1;
    if (!s.empty() && (s.back() == 'k' || s.back() == 'K')) {
        scale = 1000;
        s.pop_back();
    }
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < 0 || v > (1L << 20)) return std::nullopt;
    return v * scale;
}

Expected<Options> parse_options(const std::vector<std::string>& args, bool& help) {
    Options o;
    if (std::find(args.begin(), args.end(), "-h") != args.end()) {
        help = true;
        return o;
    }
    auto parsed = parse_args(args, 0,
                             {"--workloads", "--backend", "--algo", "--alphabet", "--pairs", "--length", "--level",
                              "--copies", "--repeat", "--threads", "--seed"},
                             {"--help", "--json", "--peer", "--large", "--scan"}, "dpviz bench --help");
    if (!parsed) return parsed.error();
    const Args& a = *parsed;
    if (a.flags.count("--help")) {
        help = true;
        return o;
    }
    if (!a.positional.empty()) return usage_error("dpviz bench takes no inputs, got '" + a.positional[0] + "'");
    const auto flag = [&](const char* name) { return a.flags.count(name) > 0; };
    o.json = flag("--json");
    o.peer = flag("--peer");
    const bool large = flag("--large");
    o.scan = flag("--scan");
    if (o.scan) {
        for (const char* name : {"--workloads", "--algo", "--alphabet", "--length", "--level", "--copies", "--peer", "--large"})
            if (a.has(name) || a.flags.count(name))
                return usage_error(std::string(name) + " does not apply to --scan (its workloads, levels and sizes are fixed; --pairs sets sizes)");
        o.backends = {Backend::cuda, Backend::cuda_portable};
        if (a.has("--pairs")) {
            o.shapes.clear();
            for (const std::string& v : split(a.get("--pairs"))) {
                const auto shape = parse_scan_shape(v);
                if (!shape) return usage_error("--pairs with --scan expects N or MxN (each 1 to 4,194,304, k and M allowed), got '" + v + "'");
                o.shapes.push_back(*shape);
            }
        }
    }
    if (a.has("--workloads")) {
        const std::string v = a.get("--workloads");
        if (v != "pairs" && v != "literature") return usage_error("--workloads is pairs or literature, got '" + v + "'");
        o.literature = v == "literature";
    }
    if (a.has("--backend")) {
        const std::string v = a.get("--backend");
        if (v == "all") {
            o.backends = {Backend::cpu, Backend::cpu_reference, Backend::cuda, Backend::cuda_portable};
        } else {
            o.backends.clear();
            for (const std::string& name : split(v)) {
                const auto b = parse_backend(name);
                if (!b || *b == Backend::automatic)
                    return usage_error("unknown --backend '" + name + "' (cpu, cpu-reference, cuda, cuda-portable, all)");
                o.backends.push_back(*b);
            }
        }
    }
    if (o.scan && std::find(o.backends.begin(), o.backends.end(), Backend::cpu_reference) != o.backends.end())
        return usage_error("--scan does not time cpu-reference (it keeps whole matrices); --backend cpu, cuda, cuda-portable");
    if (a.has("--algo")) {
        // The workloads are pairs of sequences or signals: an HMM decoding has none.
        const std::string v = a.get("--algo");
        o.algos.clear();
        if (v == "all") {
            for (const AlgorithmInfo& row : kAlgorithms)
                if (row.inputs != Inputs::hmm) o.algos.push_back(row.id);
        } else {
            for (const std::string& name : split(v)) {
                const auto algo = parse_algorithm(name);
                if (!algo) return usage_error("unknown --algo '" + name + "' (" + algorithm_choices() + ", all)");
                if (inputs_of(*algo) == Inputs::hmm)
                    return usage_error("dpviz bench has no workload for --algo " + name + " (its input is an HMM)");
                o.algos.push_back(*algo);
            }
        }
    }
    if (a.has("--alphabet")) {
        const std::string v = a.get("--alphabet");
        if (v != "dna" && v != "protein") return usage_error("--alphabet is dna or protein, got '" + v + "'");
        o.protein = v == "protein";
    }
    const bool pairs_given = a.has("--pairs") || a.has("--length");
    for (const char* name : {"--pairs", "--length"}) {
        if (!a.has(name) || o.scan) continue;
        o.lengths.clear();
        const std::string v = a.get(name);
        for (const std::string& s : std::string(name) == "--length" ? std::vector<std::string>{v} : split(v)) {
            const auto n = parse_count(s);
            if (!n || *n < 1) return usage_error(std::string(name) + " expects lengths like 1000 or 10k, got '" + s + "'");
            o.lengths.push_back(int(*n));
        }
    }
    if (a.has("--level")) {
        const std::string v = a.get("--level");
        if (v == "score") o.level = OutputLevel::score;
        else if (v == "path") o.level = OutputLevel::path;
        else if (v == "matrix") o.level = OutputLevel::matrix;
        else return usage_error("--level is score, path or matrix, got '" + v + "'");
    }
    if (a.has("--copies")) {
        const std::string v = a.get("--copies");
        const auto n = parse_count(v);
        if (!n || *n < 1 || *n > 1000) return usage_error("--copies expects a number from 1 to 1000, got '" + v + "'");
        o.copies = int(*n);
    }
    for (const char* name : {"--repeat", "--threads", "--seed"}) {
        if (!a.has(name)) continue;
        const std::string v = a.get(name);
        const auto n = parse_count(v);
        if (!n || (std::string(name) == "--repeat" && *n < 1))
            return usage_error(std::string(name) + " expects a number, got '" + v + "'");
        if (std::string(name) == "--repeat") o.repeat = int(*n);
        else if (std::string(name) == "--threads") o.threads = unsigned(*n);
        else o.seed = uint32_t(*n);
    }
    if (o.copies != 1 && !o.literature) return usage_error("--copies applies to --workloads literature only");
    for (const int n : o.lengths)
        if (n > 20000 && !large && !o.scan) return usage_error("lengths above 20k need --large (" + std::to_string(n) + ")");
    if (large && !pairs_given) o.lengths.push_back(65536);
    return o;
}

// ---------------------------------------------------------------------------------------------
// Pairs
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

struct Row {
    std::string pair, algo, backend;
    int64_t cells = 0;
    int runs = 0;
    double fill_ms = 0, total_ms = 0;  // medians: fill, fill + traceback
    int64_t score = 0;
    std::string note;   // "not available: ...", "incorrect: ...", "MISMATCH ..."
    bool timed() const { return runs > 0; }
    double fill_gcups() const { return fill_ms > 0 ? double(cells) / fill_ms / 1e6 : 0; }
    double total_gcups() const { return total_ms > 0 ? double(cells) / total_ms / 1e6 : 0; }
};

int repeats_for(const Options& o, int64_t cells) {
    if (o.repeat) return *o.repeat;
    return cells > 1'000'000'000 ? 1 : cells > 50'000'000 ? 3 : 10;
}

Row run_backend(const Options& o, const BenchPair& pair, const Problem& p, Backend b) {
    Row row;
    row.pair = pair.name;
    row.algo = algorithm_name(p.algo);
    row.backend = backend_name(b);
    row.cells = int64_t(p.rows()) * p.cols();
    AlignOptions opt;
    opt.backend = b;
    opt.level = o.level;
    opt.threads = o.threads;
    auto warm = align(p, opt);  // warm-up, and the check that the backend runs at all
    if (!warm) {
        row.note = "not available: " + warm.error().message;
        return row;
    }
    if (!warm->fallback.empty()) {
        row.note = "not available: " + warm->fallback;
        return row;
    }
    row.score = warm->score;
    std::vector<double> fill, total;
    for (int k = repeats_for(o, row.cells); k > 0; --k) {
        auto r = align(p, opt);
        if (!r) {
            row.note = "failed: " + r.error().message;
            return row;
        }
        fill.push_back(r->fill_ms);
        total.push_back(r->fill_ms + r->traceback_ms);
    }
    row.runs = int(fill.size());
    row.fill_ms = median(fill);
    row.total_ms = median(total);
    return row;
}

#ifdef DPVIZ_HAVE_PARASAIL
// parasail's traceback functions for an algorithm, fastest first as far as we know; every one is
// checked against dpviz's score before it is timed.
std::vector<std::string> parasail_variants(Algorithm a) {
    // glocal is parasail's sg_dx: free leading and trailing gaps in the target (its s2) only.
    const char* family = a == Algorithm::local ? "sw" : a == Algorithm::global ? "nw" : a == Algorithm::glocal ? "sg_dx" : "sg";
    std::vector<std::string> out;
    for (const char* method : {"striped", "scan", "diag"})
        for (const char* width : {"sat", "64", "32", "16", "8"})
            out.push_back(std::string(family) + "_trace_" + method + "_" + width);
    return out;
}

Row run_parasail(const Options& o, const BenchPair& pair, const Problem& p, const std::string& variant, int64_t want) {
    Row row;
    row.pair = pair.name;
    row.algo = algorithm_name(p.algo);
    row.backend = "parasail " + variant;
    row.cells = int64_t(p.rows()) * p.cols();
    parasail_function_t* fn = parasail_lookup_function(variant.c_str());
    const parasail_matrix_t* matrix = parasail_matrix_lookup(o.protein ? "blosum62" : "nuc44");
    if (!fn || !matrix) {
        row.note = "not available: parasail has no " + variant;
        return row;
    }
    if (row.cells > 1'000'000'000) {
        row.note = "skipped: parasail keeps a full trace table (minutes per run at this size)";
        return row;
    }
    const std::string& q = p.query;
    const std::string& t = p.target;
    const int M = int(q.size()), N = int(t.size());
    const int repeats = repeats_for(o, row.cells);
    // Measured in a child process, so that a peer that crashes cannot take the bench down
    // (parasail 2.6 returns no cigar when an 8-bit run overflows; freeing that NULL segfaults,
    // hence the check below). The child reports "score runs fill_ms total_ms" on a pipe.
    int fds[2];
    if (pipe(fds) != 0) {
        row.note = "not run: pipe() failed";
        return row;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        row.note = "not run: fork() failed";
        return row;
    }
    if (pid == 0) {
        close(fds[0]);
        auto once = [&](double& fill_ms, double& tb_ms) -> int64_t {
            const auto t0 = std::chrono::steady_clock::now();
            parasail_result_t* r = fn(q.c_str(), M, t.c_str(), N, p.gaps.open, p.gaps.extend, matrix);
            const auto t1 = std::chrono::steady_clock::now();
            parasail_cigar_t* cigar = parasail_result_get_cigar(r, q.c_str(), M, t.c_str(), N, matrix);
            const auto t2 = std::chrono::steady_clock::now();
            const int64_t score = parasail_result_get_score(r);
            if (cigar) parasail_cigar_free(cigar);
            parasail_result_free(r);
            fill_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
            tb_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
            return score;
        };
        double f = 0, tb = 0;
        const int64_t score = once(f, tb);  // warm-up and correctness check
        std::vector<double> fill, total;
        for (int k = score == want ? repeats : 0; k > 0; --k) {
            once(f, tb);
            fill.push_back(f);
            total.push_back(f + tb);
        }
        char line[128];
        const int n = std::snprintf(line, sizeof line, "%lld %zu %.6f %.6f\n", static_cast<long long>(score),
                                    fill.size(), median(fill), median(total));
        if (n > 0 && write(fds[1], line, size_t(n)) != n) _exit(1);
        _exit(0);
    }
    close(fds[1]);
    std::string reply;
    char buf[128];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) reply.append(buf, size_t(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        row.note = "crashed (signal " + std::to_string(WTERMSIG(status)) + "); not counted";
        return row;
    }
    long long score = 0;
    size_t runs = 0;
    double fill = 0, total = 0;
    if (std::sscanf(reply.c_str(), "%lld %zu %lf %lf", &score, &runs, &fill, &total) != 4) {
        row.note = "failed: no result from the measuring process";
        return row;
    }
    row.score = score;
    if (score != want) {
        row.note = "incorrect: score " + std::to_string(score) + ", want " + std::to_string(want) + "; not counted";
        return row;
    }
    row.runs = int(runs);
    row.fill_ms = fill;
    row.total_ms = total;
    return row;
}
#endif

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

struct Summary {  // per pair and algorithm: dpviz cpu against the fastest correct parasail variant
    std::string pair, algo, peer;
    double ours = 0, theirs = 0;
};


void print_table(std::ostream& out, const std::vector<Row>& rows, const std::vector<Summary>& summary) {
    out << std::left << std::setw(12) << "pair" << std::setw(11) << "algo" << std::setw(30) << "backend" << std::right
        << std::setw(14) << "cells" << std::setw(6) << "runs" << std::setw(11) << "fill ms" << std::setw(10) << "GCUPS"
        << std::setw(13) << "fill+tb ms" << std::setw(10) << "GCUPS" << std::setw(12) << "score" << "  note\n";
    for (const Row& r : rows) {
        out << std::left << std::setw(12) << r.pair << std::setw(11) << r.algo << std::setw(30) << r.backend
            << std::right << std::setw(14) << r.cells << std::setw(6) << r.runs << std::fixed;
        if (r.timed())
            out << std::setprecision(1) << std::setw(11) << r.fill_ms << std::setprecision(3) << std::setw(10)
                << r.fill_gcups() << std::setprecision(1) << std::setw(13) << r.total_ms << std::setprecision(3)
                << std::setw(10) << r.total_gcups();
        else
            out << std::setw(11) << "-" << std::setw(10) << "-" << std::setw(13) << "-" << std::setw(10) << "-";
        out << std::setw(12) << (r.timed() || r.note.rfind("incorrect", 0) == 0 ? std::to_string(r.score) : "-")
            << "  " << r.note << "\n";
        out.unsetf(std::ios::fixed);
    }
    for (const Summary& s : summary) {
        out << s.pair << " " << s.algo << ": cpu " << std::fixed << std::setprecision(3) << s.ours << " GCUPS, ";
        if (s.theirs > 0)
            out << "fastest correct parasail (" << s.peer << ") " << s.theirs << " GCUPS, ratio " << std::setprecision(2)
                << s.ours / s.theirs << "x\n";
        else
            out << "no correct parasail variant\n";
        out.unsetf(std::ios::fixed);
    }
}

void print_json(std::ostream& out, const Options& o, const std::vector<Row>& rows, const std::vector<Summary>& summary) {
    out << "{\n  \"cpu\": \"" << json_escape(cpu_model()) << "\",\n  \"hardware_threads\": "
        << std::thread::hardware_concurrency() << ",\n  \"threads\": " << o.threads << ",\n  \"level\": \""
        << (o.level == OutputLevel::score ? "score" : o.level == OutputLevel::path ? "path" : "matrix")
        << "\",\n  \"rows\": [\n";
    for (size_t k = 0; k < rows.size(); ++k) {
        const Row& r = rows[k];
        out << "    {\"pair\": \"" << r.pair << "\", \"algo\": \"" << r.algo << "\", \"backend\": \""
            << json_escape(r.backend) << "\", \"cells\": " << r.cells << ", \"runs\": " << r.runs;
        if (r.timed())
            out << ", \"fill_ms\": " << r.fill_ms << ", \"fill_gcups\": " << r.fill_gcups()
                << ", \"fill_traceback_ms\": " << r.total_ms << ", \"fill_traceback_gcups\": " << r.total_gcups();
        out << ", \"score\": " << r.score << ", \"note\": \"" << json_escape(r.note) << "\"}"
            << (k + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ],\n  \"peer_ratios\": [\n";
    for (size_t k = 0; k < summary.size(); ++k) {
        const Summary& s = summary[k];
        out << "    {\"pair\": \"" << s.pair << "\", \"algo\": \"" << s.algo << "\", \"cpu_gcups\": " << s.ours
            << ", \"peer\": \"" << s.peer << "\", \"peer_gcups\": " << s.theirs
            << ", \"ratio\": " << (s.theirs > 0 ? s.ours / s.theirs : 0.0) << "}" << (k + 1 < summary.size() ? "," : "")
            << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace

int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    bool help = false;
    auto parsed = parse_options(args, help);
    if (!parsed) {
        err << "dpviz: " << parsed.error().message << "\n";
        return kExitUsage;
    }
    if (help) {
        out << kBenchHelp;
        return kExitOk;
    }
    const Options& o = *parsed;
    if (o.scan) {
        ScanOptions so;
        so.shapes = o.shapes;
        so.backends = o.backends;
        so.repeat = o.repeat;
        so.threads = o.threads;
        so.seed = o.seed;
        so.json = o.json;
        return run_scan_bench(so, out, err);
    }
    if (o.literature) {
        LiteratureOptions lo;
        lo.repeats = o.repeat.value_or(10);
        lo.protein = o.protein;
        lo.threads = o.threads;
        lo.seed = o.seed;
        lo.json = o.json;
        lo.copies = o.copies;
        return run_literature_bench(lo, out, err);
    }
#ifndef DPVIZ_HAVE_PARASAIL
    if (o.peer) err << "dpviz: --peer: this dpviz was built without parasail (libparasail-dev); no peer rows\n";
#endif

    ScoringOptions scoring;
    {
        auto m = load_matrix(o.protein ? "BLOSUM62" : "NUC.4.4");
        if (!m) {
            err << "dpviz: " << m.error().message << "\n";
            return kExitInput;
        }
        scoring.matrix = *m;
        scoring.gaps = o.protein ? GapPenalties{11, 1} : GapPenalties{10, 1};
    }

    std::vector<Row> rows;
    std::vector<Summary> summary;
    for (const int length : o.lengths) {
        const BenchPair pair = make_bench_pair(length, o.protein, o.seed);
        for (const Algorithm algo : o.algos) {
            Expected<Problem> p = algo == Algorithm::dtw
                                      ? make_dtw_problem({"query", pair.query_signal}, {"target", pair.target_signal}, scoring)
                                      : make_problem(algo, {"query", pair.query}, {"target", pair.target}, scoring);
            if (!p) {
                err << "dpviz: " << pair.name << " " << algorithm_name(algo) << ": " << p.error().message << "\n";
                return kExitInput;
            }
            std::optional<Row> cpu, first;  // every backend must agree with the first that ran
            for (const Backend b : o.backends) {
                Row row = run_backend(o, pair, *p, b);
                if (row.timed() && first && row.score != first->score)
                    row.note = "MISMATCH: score differs from " + first->backend;
                if (row.timed() && !first) first = row;
                if (b == Backend::cpu && row.timed()) cpu = row;
                rows.push_back(row);
                if (!o.json) err << "  " << row.pair << " " << row.algo << " " << row.backend << " done\n";
            }
#ifdef DPVIZ_HAVE_PARASAIL
            const bool peer_algo = uses_substitution_matrix(algo);
            if (o.peer && peer_algo) {
                int64_t want = cpu ? cpu->score : 0;
                if (!cpu) want = align_cpu(*p, OutputLevel::score, o.threads).score;
                Summary s{pair.name, std::string(algorithm_name(algo)), "", cpu ? cpu->total_gcups() : 0, 0};
                for (const std::string& v : parasail_variants(algo)) {
                    Row row = run_parasail(o, pair, *p, v, want);
                    if (row.timed() && row.total_gcups() > s.theirs) {
                        s.theirs = row.total_gcups();
                        s.peer = v;
                    }
                    rows.push_back(row);
                    if (!o.json) err << "  " << row.pair << " " << row.algo << " " << row.backend << " done\n";
                }
                if (cpu) summary.push_back(s);
            }
#endif
        }
    }
    if (o.json) {
        print_json(out, o, rows, summary);
    } else {
        out << "dpviz bench: " << cpu_model() << ", " << std::thread::hardware_concurrency()
            << " hardware threads; threads " << (o.threads ? std::to_string(o.threads) : std::string("all"))
            << "; level " << (o.level == OutputLevel::score ? "score" : o.level == OutputLevel::path ? "path" : "matrix")
            << "; " << (o.protein ? "BLOSUM62, gaps 11/1" : "NUC.4.4, gaps 10/1") << "\n";
        print_table(out, rows, summary);
    }
    return kExitOk;
}

}  // namespace dpviz::app
