// `dpviz bench --scan`: fills of one growing pair per workload, score level, the picture's store
// fill and a path, on each backend; TCUPS, the epilogues' cost and, for a GPU row, the fill
// against the issue bound of its kernel's instructions per cell, in one table.
#include "bench_scan.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include "bench.hpp"
#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "assets_dir.hpp"
#include "exit_codes.hpp"
#include "gpu_model.hpp"
#include "matrix_file.hpp"
#include "sass_report.hpp"
#include "text_util.hpp"

namespace dpviz::app {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxScanSide = 1 << 22;
// The CPU is not scanned past this many cells: a 65,536^2 fill takes seconds on 16 cores,
// 1,048,576^2 would take minutes per row.
constexpr int64_t kCpuScanCells = int64_t(1) << 32;
// The picture's fill pools an overview for a PNG of this side (dpviz align --png's default).
constexpr int32_t kScanOverviewSide = 2048;

struct Workload {
    const char* name;
    Algorithm algo;
    bool matrix;  // NUC.4.4 10/1 (affine); else match 2, mismatch -1, gap 2 (linear)
};
constexpr Workload kWorkloads[] = {
    {"local linear", Algorithm::local, false},
    {"local affine", Algorithm::local, true},
    {"edit", Algorithm::edit, false},
    {"dtw", Algorithm::dtw, false},
};

enum class Level { score, picture, path };
const char* level_name(Level l) { return l == Level::score ? "score" : l == Level::picture ? "picture" : "path"; }

struct ScanRow {
    std::string workload, backend;
    Level level = Level::score;
    int m = 0, n = 0;
    int runs = 0;
    double ms = 0;        // median: fill (score, picture) or fill + traceback (path)
    double fill_ms = 0;   // median fill (the path's too): what the issue bound is compared with
    double score_ms = 0;  // the same shape and backend at score level (for the epilogue's share)
    int64_t score = 0;
    KernelBound bound;    // GPU rows: the kernel that ran and its issue bound (kernel "" on the CPU)
    std::string note;
    int64_t cells() const { return int64_t(m) * n; }
    double tcups() const { return ms > 0 ? double(cells()) / ms / 1e9 : 0; }
};

// Timed runs: 3 below 2^34 cells (131,072^2), else 1; a warm-up run first below 2^36.
int repeats_for(const ScanOptions& o, int64_t cells) { return o.repeat ? *o.repeat : cells < (int64_t(1) << 34) ? 3 : 1; }

Expected<Problem> scan_problem(const Workload& w, int m, int n, uint32_t seed) {
    // The target is the first n of the pair's random sequence (or signal), the query the first m
    // of its mutated copy: made an eighth longer, so that the copy (shortened by its deletions)
    // has m letters.
    const int64_t made = std::max<int64_t>(m, n) + std::max<int64_t>(m, n) / 8 + 64;
    BenchPair pair = make_bench_pair(int(std::min<int64_t>(made, INT32_MAX)), false, seed);
    pair.target.resize(size_t(n));
    pair.target_signal.resize(size_t(n));
    pair.query.resize(size_t(m));
    pair.query_signal.resize(size_t(m));
    ScoringOptions s;
    if (w.algo == Algorithm::dtw) return make_dtw_problem({"query", pair.query_signal}, {"target", pair.target_signal}, s);
    if (w.matrix) {
        auto matrix = load_matrix("NUC.4.4");
        if (!matrix) return matrix.error();
        s.matrix = *matrix;
        s.gaps = GapPenalties{10, 1};
    } else {
        s.match = 2;
        s.mismatch = -1;
        s.gaps = GapPenalties{2, 2};
    }
    return make_problem(w.algo, {"query", pair.query}, {"target", pair.target}, s);
}

ScanRow run_level(const ScanOptions& o, const Problem& p, const Workload& w, Backend b, Level level) {
    ScanRow row;
    row.workload = w.name;
    row.backend = backend_name(b);
    row.level = level;
    row.m = p.rows();
    row.n = p.cols();
    AlignOptions opt;
    opt.backend = b;
    opt.threads = o.threads;
    opt.cpu_fallback = false;
    opt.level = level == Level::score ? OutputLevel::score : level == Level::path ? OutputLevel::path : OutputLevel::matrix;
    if (level == Level::picture) opt.overview_side = kScanOverviewSide;
    const int runs = repeats_for(o, row.cells());
    std::vector<double> ms, fill;
    for (int k = row.cells() < (int64_t(1) << 36) ? -1 : 0; k < runs; ++k) {  // k < 0: the warm-up
        Expected<DpResult> r = align(p, opt);
        if (!r) {
            row.note = (r.error().kind == ErrorKind::device ? "not run: " : "failed: ") + r.error().message;
            return row;
        }
        if (!r->fallback.empty()) {  // never the CPU's time in a GPU's row
            row.note = "not run: " + r->fallback;
            return row;
        }
        if (level == Level::picture && !r->overview) {  // below kCheckpointPathCells
            row.note = "skipped: a picture this small keeps the whole matrix";
            return row;
        }
        row.score = r->score;
        row.bound.kernel = ran_kernel_name(p, *r);
        if (k < 0) continue;
        ms.push_back(level == Level::path ? r->fill_ms + r->traceback_ms : r->fill_ms);
        fill.push_back(r->fill_ms);
    }
    row.runs = int(ms.size());
    row.ms = median(ms);
    row.fill_ms = median(fill);
    return row;
}

std::string shape_text(int m, int n) {
    return m == n ? std::to_string(n) + "^2" : std::to_string(m) + " x " + std::to_string(n);
}

// The width of a column of the table (kScanColumnWidths).
auto col(ScanColumn c) { return std::setw(scan_width(c)); }

void print_header(std::ostream& out) {
    using C = ScanColumn;
    out << std::left << col(C::workload) << "workload" << col(C::shape) << "M x N" << col(C::backend) << "backend"
        << col(C::level) << "level" << std::right << col(C::runs) << "runs" << col(C::ms) << "ms" << col(C::tcups)
        << "TCUPS" << col(C::over_score) << "vs score" << col(C::per_cell) << "instr/cell" << col(C::bound_tcups)
        << "bound TCUPS" << col(C::of_bound) << "of bound" << "  kernel; note\n";
}

void print_row(std::ostream& out, const ScanRow& r) {
    using C = ScanColumn;
    out << std::left << col(C::workload) << r.workload << col(C::shape) << shape_text(r.m, r.n) << col(C::backend)
        << r.backend << col(C::level) << level_name(r.level) << std::right << col(C::runs) << r.runs;
    if (r.runs > 0) {
        out << std::fixed << std::setprecision(2) << col(C::ms) << r.ms << std::setprecision(3) << col(C::tcups)
            << r.tcups();
        if (r.level != Level::score && r.score_ms > 0) {
            std::ostringstream pct;
            pct << std::showpos << std::fixed << std::setprecision(1) << (r.ms / r.score_ms - 1) * 100 << " %";
            out << col(C::over_score) << pct.str();
        } else {
            out << col(C::over_score) << "";
        }
    } else {
        out << col(C::ms) << "-" << col(C::tcups) << "-" << col(C::over_score) << "";
    }
    const ScanBoundText b = scan_bound_text(r.bound);
    // A row at a time (endl): a long scan shows its progress.
    out << col(C::per_cell) << b.per_cell << col(C::bound_tcups) << b.bound_tcups << col(C::of_bound) << b.fraction
        << "  " << r.bound.kernel << (r.bound.kernel.empty() || r.note.empty() ? "" : "; ") << r.note << std::endl;
}

void print_json(std::ostream& out, const std::string& gpu, const std::vector<ScanRow>& rows) {
    out << "{\n  \"cpu\":\"" << json_escape(cpu_model()) << "\",\n  \"gpu\":\"" << json_escape(gpu)
        << "\",\n  \"rows\":[\n";
    for (size_t k = 0; k < rows.size(); ++k) {
        const ScanRow& r = rows[k];
        out << "    {\"workload\":\"" << r.workload << "\", \"m\":" << r.m << ", \"n\":" << r.n << ", \"backend\":\""
            << r.backend << "\", \"level\":\"" << level_name(r.level) << "\", \"runs\":" << r.runs
            << ", \"ms\":" << r.ms << ", \"tcups\":" << r.tcups() << ", \"score\":" << r.score;
        if (r.level != Level::score && r.score_ms > 0) out << ", \"over_score\":" << (r.ms / r.score_ms - 1);
        if (!r.bound.kernel.empty()) out << ", \"kernel\":\"" << r.bound.kernel << "\"";
        if (r.bound.per_cell > 0) out << ", \"instr_per_cell\":" << r.bound.per_cell;
        if (r.bound.bound_cells_per_s > 0) out << ", \"bound_tcups\":" << r.bound.bound_cells_per_s / 1e12;
        if (r.bound.fraction > 0) out << ", \"of_bound\":" << r.bound.fraction;
        if (!r.note.empty()) out << ", \"note\":\"" << json_escape(r.note) << "\"";
        out << "}" << (k + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

}  // namespace

ScanBoundText scan_bound_text(const KernelBound& b) {
    ScanBoundText t;
    char text[32];
    if (b.per_cell > 0) {
        std::snprintf(text, sizeof text, "%.2f", b.per_cell);
        t.per_cell = text;
    }
    if (b.bound_cells_per_s > 0) {
        std::snprintf(text, sizeof text, "%.3f", b.bound_cells_per_s / 1e12);
        t.bound_tcups = text;
    }
    if (b.fraction > 0) {
        std::snprintf(text, sizeof text, "%.1f %%", b.fraction * 100);
        t.fraction = text;
    }
    return t;
}

std::vector<ScanTableRow> parse_scan_rows(std::string_view text) {
    std::vector<ScanTableRow> out;
    bool in_table = false;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (!in_table) {
            in_table = line.rfind("workload", 0) == 0;
            continue;
        }
        if (trim(line).empty()) break;
        std::string f[std::size(kScanColumnWidths)];
        size_t pos = 0;
        for (size_t c = 0; c < std::size(kScanColumnWidths); ++c) {
            f[c] = pos < line.size() ? std::string(trim(line.substr(pos, size_t(kScanColumnWidths[c])))) : "";
            pos += size_t(kScanColumnWidths[c]);
        }
        using C = ScanColumn;
        ScanTableRow r;
        r.workload = f[int(C::workload)];
        r.shape = f[int(C::shape)];
        r.backend = f[int(C::backend)];
        r.level = f[int(C::level)];
        const bool known_level = r.level == level_name(Level::score) || r.level == level_name(Level::picture) ||
                                 r.level == level_name(Level::path);
        const std::string& runs = f[int(C::runs)];
        const auto backend = parse_backend(r.backend);
        if (r.workload.empty() || r.shape.empty() || !backend || !known_level || runs.empty() ||
            !std::all_of(runs.begin(), runs.end(), [](unsigned char c) { return std::isdigit(c); }))
            continue;
        r.runs = std::stoi(runs);
        if (r.runs > 0) {
            char* stop = nullptr;
            r.ms = std::strtod(f[int(C::ms)].c_str(), &stop);
            if (*stop != '\0' || !(r.ms > 0)) continue;
            r.tcups = std::strtod(f[int(C::tcups)].c_str(), &stop);
            if (*stop != '\0') continue;
        }
        // "  kernel; note", "  kernel" or "  note": a GPU row that ran names its kernel first.
        if (r.runs > 0 && (*backend == Backend::cuda || *backend == Backend::cuda_portable) && pos + 2 < line.size()) {
            const std::string_view rest = line.substr(pos + 2);
            r.kernel = trim(rest.substr(0, rest.find("; ")));
        }
        out.push_back(std::move(r));
    }
    return out;
}

ScanTable read_scan_table(const std::string& path) {
    ScanTable t;
    std::ifstream in(path);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    t.rows = parse_scan_rows(text);
    if (t.rows.empty()) {
        t.source = "no scan table (" + path + (in ? " holds no rows)" : " cannot be read)");
        return t;
    }
    t.source = path;
    if (text.rfind("# ", 0) != 0) return t;
    t.about = text.substr(2, text.find('\n') - 2);
    t.device = t.about.substr(0, std::min(t.about.find(" ("), t.about.find(',')));
    for (size_t k = 0; k + 10 <= t.about.size(); ++k) {
        const std::string_view d = std::string_view(t.about).substr(k, 10);
        auto digits = [&](size_t from, size_t n) {
            return std::all_of(d.begin() + from, d.begin() + from + n, [](char c) { return c >= '0' && c <= '9'; });
        };
        if (digits(0, 4) && d[4] == '-' && digits(5, 2) && d[7] == '-' && digits(8, 2)) {
            t.date = d;
            break;
        }
    }
    return t;
}

std::vector<ScanTable> load_scan_tables(const std::string& scan_dir) {
    if (scan_dir.empty()) return {ScanTable{"", "no scan table (dpviz found no folder of shipped reports)", "", "", {}}};
    std::vector<ScanTable> out;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(scan_dir, ec)) {
        const std::string name = e.path().filename().string();
        std::error_code regular;  // a FIFO or a folder of that name is no table (and a FIFO would block)
        if (name.rfind("bench_scan_", 0) != 0 || e.path().extension() != ".txt" || !e.is_regular_file(regular)) continue;
        ScanTable t = read_scan_table(e.path().string());
        if (!t.rows.empty()) out.push_back(std::move(t));
    }
    if (out.empty())
        return {ScanTable{"", "no scan table (" + scan_dir + (ec ? " cannot be read)" : " holds no bench_scan_*.txt with rows)"), "", "", {}}};
    std::sort(out.begin(), out.end(), [](const ScanTable& a, const ScanTable& b) {
        return a.date != b.date ? a.date > b.date : a.source < b.source;
    });
    return out;
}

std::string scan_workload(const Problem& p) {
    for (const Workload& w : kWorkloads)
        if (w.algo == p.algo && (p.algo != Algorithm::local || w.matrix == p.affine())) return w.name;
    return "";
}

std::vector<std::pair<int, int>> default_scan_shapes() {
    std::vector<std::pair<int, int>> s;
    for (int n = 16384; n <= 1048576; n *= 2) s.push_back({n, n});
    s.push_back({185000, 2200000});
    return s;
}

std::optional<std::pair<int, int>> parse_scan_shape(const std::string& text) {
    auto side = [](std::string s) -> std::optional<int> {
        int64_t scale = 1;
        if (!s.empty() && (s.back() == 'k' || s.back() == 'K')) scale = 1000;
        if (!s.empty() && s.back() == 'M') scale = 1 << 20;
        if (scale > 1) s.pop_back();
        if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
            return std::nullopt;
        const int64_t v = std::stoll(s) * scale;
        if (v < 1 || v > kMaxScanSide) return std::nullopt;
        return int(v);
    };
    const size_t x = text.find('x');
    const auto m = side(text.substr(0, x));
    const auto n = x == std::string::npos ? m : side(text.substr(x + 1));
    if (!m || !n) return std::nullopt;
    return std::pair{*m, *n};
}

int run_scan_bench(const ScanOptions& o, std::ostream& out, std::ostream& err) {
    const std::string gpu = gpu_description();
    for (const Backend b : o.backends)
        if ((b == Backend::cuda || b == Backend::cuda_portable) && gpu.rfind("not available", 0) == 0) {
            err << "dpviz: bench --scan: no GPU for --backend " << backend_name(b) << " (" << gpu
                << "); --backend cpu scans the CPU\n";
            return kExitDevice;
        }
    // The issue bound of a GPU row: its kernel's instructions per cell (the SASS report's
    // steady-state loop) on this GPU's SMs and clock.
    const SassReport sass = load_default_sass_report(find_assets_dir());
    const GpuFigures figures = parse_gpu_figures(gpu).value_or(GpuFigures{});
    std::vector<ScanRow> rows;
    bool device_lost = false, wrong = false;
    if (!o.json) {
        out << "dpviz bench --scan: " << cpu_model() << ", " << std::thread::hardware_concurrency()
            << " hardware threads; GPU: " << gpu << "\n"
            << "local linear: match 2, mismatch -1, gap 2; local affine: NUC.4.4, gaps 10/1; ms: median fill (score, "
               "picture) or fill + traceback (path); TCUPS = M*N / ms; vs score: over the score-level fill\n"
            << "instr/cell: the GPU kernel's steady-state loop (SASS report: " << sass.loops_source
            << "; n/a: no line for the kernel, or a CPU row); bound TCUPS = SMs x 4 schedulers x SM clock x 32 lanes "
               "/ instr/cell";
        if (figures.sms > 0)
            out << " (" << figures.sms << " SMs; clock: " << figures.clock_source << ")";
        out << "; of bound: the fill's TCUPS over it\n";
        print_header(out);
    }
    for (const auto& [m, n] : o.shapes) {
        for (const Workload& w : kWorkloads) {
            Expected<Problem> p = scan_problem(w, m, n, o.seed);
            if (!p) {
                err << "dpviz: bench --scan " << w.name << " " << shape_text(m, n) << ": " << p.error().message << "\n";
                return p.error().kind == ErrorKind::usage ? kExitUsage : kExitInput;
            }
            std::optional<int64_t> first_score;
            for (const Backend b : o.backends) {
                const bool cpu = b == Backend::cpu || b == Backend::cpu_reference;
                double score_ms = 0;
                for (const Level level : {Level::score, Level::picture, Level::path}) {
                    ScanRow row;
                    if (cpu && int64_t(p->rows()) * p->cols() > kCpuScanCells) {
                        row.workload = w.name;
                        row.backend = backend_name(b);
                        row.level = level;
                        row.m = p->rows();
                        row.n = p->cols();
                        row.note = "skipped: the CPU is scanned up to 65,536^2";
                    } else {
                        row = run_level(o, *p, w, b, level);
                        if (row.runs > 0 && !row.bound.kernel.empty())
                            row.bound = kernel_bound(sass, row.bound.kernel, figures, row.cells(), row.fill_ms);
                    }
                    device_lost = device_lost || row.note.rfind("not run", 0) == 0;
                    if (level == Level::score) score_ms = row.ms;
                    row.score_ms = score_ms;
                    if (row.runs > 0) {
                        if (first_score && row.score != *first_score) {
                            row.note = "MISMATCH: the score differs from the first row's of this pair";
                            wrong = true;
                        }
                        if (!first_score) first_score = row.score;
                    }
                    wrong = wrong || row.note.rfind("failed", 0) == 0;
                    if (!o.json) print_row(out, row);
                    rows.push_back(row);
                    if (device_lost) break;
                }
                if (device_lost) break;
            }
            if (device_lost) break;
        }
        if (device_lost) break;
    }
    if (o.json) print_json(out, gpu, rows);
    if (device_lost) {
        err << "dpviz: bench --scan: the GPU stopped answering (see the last row); the scan ends there\n";
        return kExitDevice;
    }
    if (wrong) {
        err << "dpviz: bench --scan: a row failed or its score differs from the pair's first row (see the notes)\n";
        return kExitScanWrong;
    }
    return kExitOk;
}

}  // namespace dpviz::app
