// The command line: argument parsing, `dpviz align` (text, JSON, PNG) and the dispatch to
// `dpviz bench`. Every failure becomes one line on stderr and a documented exit code.
#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "batch_cmd.hpp"
#include "formats.hpp"
#include "cli_common.hpp"
#include "two_inputs.hpp"
#include "bench.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/render/heatmap.hpp"
#include "dpviz/render/output_file.hpp"
#include "dpviz/render/png.hpp"
#include "hmm_file.hpp"
#include "input.hpp"
#include "matrix_file.hpp"
#include "progress_line.hpp"
#include "window_table.hpp"

namespace dpviz::app {
namespace {

constexpr const char* kTopHelp = R"(dpviz - dynamic-programming matrices, computed on the GPU or the CPU, shown and exported

Usage:
  dpviz                                the GUI (when a display is available)
  dpviz gui [QUERY TARGET] [options]   the GUI on two inputs (see dpviz gui --help)
  dpviz align [options] QUERY TARGET   align two sequences (or two signals with --algo dtw)
  dpviz batch [options] QUERIES TARGETS  score many pairs in one call (see dpviz batch --help)
  dpviz bench [options]                throughput of every backend (see dpviz bench --help)
  dpviz --help | --version

Exit codes:
  0  success
  1  dpviz bench --scan only: a measured row failed or disagrees with its pair's first row
  2  usage error (unknown option, bad parameter value or combination)
  3  input error (unreadable, malformed or empty input; unknown record or column; a line
     too long; residue not in the matrix)
  4  resource error (not enough memory; an input beyond dpviz's size limits; scores beyond
     int32; output not written: full disk, closed output, a destination that is not a
     regular file)
  5  device error (no display or a blank frame for the GUI; a GPU fault with no CPU fallback)
)";

constexpr const char* kAlignHelp = R"(Usage: dpviz align [options] QUERY TARGET
       dpviz align --algo viterbi --hmm MODEL [options] OBSERVATIONS

QUERY and TARGET are files (FASTA, FASTQ or plain sequence, gzip allowed; for --algo dtw,
CSV/TSV/whitespace numeric columns), or literal sequences with --seq.
The query runs down the rows of the matrix, the target along the columns.
For --algo viterbi, MODEL is an HMM file (docs/algorithms.md, "Viterbi") and OBSERVATIONS a
file (plain symbols or FASTA, gzip allowed) or, with --seq, the symbols themselves; the rows
are the model's states, the columns the observations.

Algorithm and scoring:
  --algo A             local (default), global, semiglobal, glocal, edit, lcs, dtw, viterbi
                       (glocal: the whole query inside the target, the target's ends free;
                       viterbi: the most likely state path of a hidden Markov model)
  --hmm MODEL          the HMM file of --algo viterbi
  --matrix NAME|FILE   BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80, PAM250, NUC.4.4 (aliases
                       EBLOSUM62, EDNAFULL, ...) or an NCBI-format matrix file.
                       Default: BLOSUM62 for protein, NUC.4.4 for DNA/RNA.
  --alphabet A         dna, rna or protein: the default matrix follows it and every residue
                       is checked against it (exit 3 naming file, record, position, letter).
                       Default: decided from both inputs together, nucleotide when every
                       letter is ACGTU, an IUPAC code (BDHKMNRSVWY) or X; U scores as T.
                       B Z J O U X * missing from a matrix score 0, as in EMBOSS.
  --match N            match score (uses match/mismatch instead of a matrix)
  --mismatch N         mismatch score, <= 0 (default -1 with --match)
  --gap-open N         cost of a gap's first residue (default 10, as EMBOSS needle/water)
  --gap-extend N       cost of each further residue (default 0.5, as EMBOSS needle/water);
                       a gap of length k costs open + (k-1)*extend; open == extend gives
                       linear gaps. Scores and penalties take up to two decimals (10.5, 0.25);
                       scores are reported in these units.
  --dtw-cost C         abs (default) or squared local cost
  --band N             DTW Sakoe-Chiba band half-width (target columns around the diagonal)
  --dtw-scale S        DTW fixed-point scale, a power of two (default: the largest safe one)
  --column C           signal column by header name or 1-based index (DTW)

Inputs:
  --seq                QUERY and TARGET are literal sequences
  --query-record R     record of a multi-record QUERY file: 1-based index or name (default 1)
  --target-record R    likewise for TARGET (and for OBSERVATIONS with --algo viterbi)

Computation and output:
  --backend B          auto (default: GPU when usable, else CPU), cpu, cpu-reference,
                       cuda (DPX kernels), cuda-portable (DPX-free kernels)
  --threads N          CPU threads (default: all)
  --score-only         score and end cell only, in linear memory (no path)
  --format F           text (default): the EMBOSS-style alignment with a header (parameters,
                       score, CIGAR); json: one JSON object (--json is the same); sam: a SAM
                       file, the query as the read, the target as the reference (=/X CIGAR,
                       soft clips, AS:i, NM:i); paf: one PAF line as minimap2 writes it (tp,
                       cg, AS tags); blast6: one BLAST -outfmt 6 line, E-value and bit score
                       from BLAST's Karlin-Altschul tables for local alignments with BLOSUM45/
                       50/62/80, PAM250 or nucleotide +r/-q at gap costs BLAST tabulates, NA
                       otherwise; cigar: the CIGAR line alone. sam, paf and blast6 take
                       sequences (not --algo dtw); none but text and json take --score-only.
                       Columns and coordinates: docs/formats.md
  --json               the same as --format json
  --png FILE           write the score matrix as a heatmap with the path, a colorbar and a
                       caption; - is standard output (the PNG is then the only output).
                       Written atomically: an existing FILE is replaced only once the new one
                       is complete; a link is followed; a FIFO, device, socket or folder is
                       refused (exit 4)
  --png-size N         longer side of the matrix area in pixels (default 2048)
  --region I0:I1,J0:J1 a window of the matrix: rows I0..I1-1 and columns J0..J1-1, 0-based
                       (row 0 and column 0 are the borders). With --png the PNG shows that
                       window at full resolution. The window is recomputed exactly from the
                       checkpoints of the fill, on the GPU when it ran there (docs/algorithms.md,
                       "Matrices of any size")
  --layer L            H (default): the matrix H; landscape: the best score of an alignment
                       through each cell (a forward and a backward fill; docs/algorithms.md),
                       for --png and --table; not for --algo viterbi
  --table FILE         the exact values of the window (the whole matrix without --region):
                       one line per cell, "i j H [E F] bits" tab-separated under a header
                       line (Viterbi: "i j H back"); - is standard output (the table is then
                       the only output)
  --colormap M         viridis, magma, grayscale, diverging (default: diverging when scores go
                       negative, viridis otherwise)
  --quiet              no progress line (otherwise a fill past one second shows one on
                       standard error when that is a terminal: percent done and cells/s)

Exit codes: 0 success, 2 usage, 3 input, 4 resource, 5 device (see dpviz --help).
)";

// Loads one side: a literal (--seq) or a file, then the chosen record.
Expected<SequenceInput> load_sequence(const std::string& arg, bool literal, const std::string& record,
                                      const std::string& role) {
    Expected<SequenceRecord> rec = usage_error("unreachable");
    if (literal) {
        auto records = parse_sequences(arg, role);
        if (!records) return records.error();
        rec = pick_record(*records, record, role);
    } else {
        rec = read_record(arg, record);  // one pass, keeps only the wanted record
    }
    if (!rec) return rec.error();
    SequenceInput s;
    s.name = rec->name.empty() ? role : rec->name;
    s.residues = rec->residues;
    return s;
}

int cmd_align(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const auto started = std::chrono::steady_clock::now();  // JSON `job_ms`: the whole job, not only the fill
    auto parsed = parse_args(args, 1,
                             {"--algo", "--matrix", "--alphabet", "--match", "--mismatch", "--gap-open", "--gap-extend",
                              "--dtw-cost", "--band", "--dtw-scale", "--column", "--query-record",
                              "--target-record", "--backend", "--threads", "--png", "--png-size", "--colormap",
                              "--format", "--hmm", "--region", "--table", "--layer"},
                             {"--seq", "--json", "--score-only", "--quiet", "--help"});
    // Viterbi decodes one observation sequence under the model of --hmm.
    const bool viterbi = parsed && parse_algorithm(parsed->get("--algo", "local")) == Algorithm::viterbi;
    if (const auto code = ends_before_inputs(parsed, kAlignHelp, "align",
                                             viterbi ? "OBSERVATIONS (with --hmm MODEL)" : "QUERY and TARGET", out,
                                             err, viterbi ? 1 : 2))
        return *code;
    const Args& a = *parsed;
    auto get = [&](const std::string& k, const std::string& d = "") { return a.get(k, d); };

    auto parsed_scoring = algo_scoring_from_args(a);
    if (!parsed_scoring) return fail(err, parsed_scoring.error());
    const std::optional<Algorithm> algo = parsed_scoring->algo;  // dereferenced as *algo below
    ScoringOptions& s = parsed_scoring->scoring;
    const auto backend = parse_backend(get("--backend", "auto"));
    if (!backend)
        return fail(err, usage_error("unknown --backend '" + get("--backend") + "' (auto, cpu, cpu-reference, cuda, cuda-portable)"));
    // The GPU's setup while the inputs are read (joined when the command returns, or before the fill).
    std::jthread gpu_setup;
    if (*backend != Backend::cpu && *backend != Backend::cpu_reference) {
        try {
            gpu_setup = std::jthread(prepare_gpu);
        } catch (const std::system_error&) {  // no thread: the fill sets the GPU up itself
        }
    }
    const bool literal = a.flags.count("--seq") > 0;
    const bool score_only = a.flags.count("--score-only") > 0;
    const std::string png = get("--png");
    if (score_only && !png.empty()) return fail(err, usage_error("--png needs the matrix; drop --score-only"));
    const bool png_to_stdout = png == "-";
    static constexpr OutputFormat kFormats[] = {OutputFormat::text, OutputFormat::json,   OutputFormat::sam,
                                                OutputFormat::paf,  OutputFormat::blast6, OutputFormat::cigar};
    const auto format = output_format_from_args(a, OutputFormat::text, kFormats);
    if (!format) return fail(err, format.error());
    const std::string format_name(output_format_name(*format));
    if (std::string why; !format_takes(*format, *algo, &why))
        return fail(err, usage_error("--format " + format_name + " does not apply to --algo " +
                                     std::string(algorithm_name(*algo)) + " (" + why + ")"));
    if (score_only && format_needs_path(*format))
        return fail(err, usage_error("--format " + format_name + " needs the alignment; drop --score-only"));
    if (png_to_stdout && *format != OutputFormat::text)
        return fail(err, usage_error("--png - and --format " + format_name +
                                     " would both go to standard output; give --png a file"));
    if (!png.empty())  // refuse a destination that cannot be written before the fill, not after it
        if (auto dest = render::resolve_destination(png); !dest) return fail(err, dest.error());
    // A window (--region, --table) is recomputed from the checkpoints of the fill (a GPU's on that
    // GPU); the landscape (--layer landscape) comes from those of a CPU fill and of the reversed
    // problem's, and a trellis's store is the CPU's.
    const std::string table = get("--table");
    const bool windowed = a.has("--region") || a.has("--table");
    const std::string layer = get("--layer", "H");
    if (layer != "H" && layer != "h" && layer != "landscape")
        return fail(err, usage_error("unknown --layer '" + layer + "' (H, landscape)"));
    const bool landscape = layer == "landscape";
    if (landscape && png.empty() && table.empty())
        return fail(err, usage_error("--layer landscape needs an image or a table: --png FILE or --table FILE"));
    if (windowed || landscape) {
        const std::string what = landscape ? "--layer landscape" : "--region and --table";
        // docs/algorithms.md, "The landscape": its backward fill is the reversed problem, and a
        // reversed HMM is no HMM of the same kind (no start distribution at the end).
        if (viterbi && landscape)
            return fail(err, usage_error("--layer landscape is not computed for --algo viterbi (its backward fill "
                                         "is the problem reversed, and a hidden Markov model reversed is no model "
                                         "of the same kind); --png and --table show the trellis (--layer H)"));
        if ((landscape || viterbi) && (*backend == Backend::cuda || *backend == Backend::cuda_portable))
            return fail(err, usage_error(what + (viterbi ? " of a trellis recompute it" : " recomputes the matrix") +
                                         " from the checkpoints of a CPU fill: use --backend cpu, cpu-reference or auto"));
        if (table == "-" && (png_to_stdout || *format != OutputFormat::text))
            return fail(err, usage_error("--table - is the only output: give --png and --format a file or drop them"));
        if (table.empty() && png.empty())
            return fail(err, usage_error("--region needs an output for the window: --png FILE or --table FILE"));
        if (!table.empty())
            if (auto dest = render::resolve_destination(table); !dest) return fail(err, dest.error());
    }

    Expected<Problem> problem = usage_error("unreachable");
    if (viterbi != a.has("--hmm"))
        return fail(err, usage_error(viterbi ? "--algo viterbi needs the model: --hmm MODEL"
                                             : "--hmm applies to --algo viterbi only"));
    if (viterbi) {
        if (a.has("--query-record")) return fail(err, usage_error("--query-record does not apply to --algo viterbi (the model is the query); use --target-record for the observations"));
        problem = load_viterbi_problem(get("--hmm"), a.positional[0], literal, get("--target-record"));
    } else if (*algo == Algorithm::dtw) {
        if (literal) return fail(err, usage_error("--seq does not apply to --algo dtw (signals come from files)"));
        auto q = read_signal(a.positional[0], get("--column"));
        if (!q) return fail(err, q.error());
        auto t = read_signal(a.positional[1], get("--column"));
        if (!t) return fail(err, t.error());
        problem = make_dtw_problem(*q, *t, s);
    } else {
        const std::string query_origin = literal ? "query" : a.positional[0];
        const std::string target_origin = literal ? "target" : a.positional[1];
        auto q = load_sequence(a.positional[0], literal, get("--query-record"), "query");
        if (!q) return fail(err, q.error());
        auto t = load_sequence(a.positional[1], literal, get("--target-record"), "target");
        if (!t) return fail(err, t.error());
        const NamedSequence sides[] = {{query_origin, &*q}, {target_origin, &*t}};
        if (Status st = sequence_scoring_from_args(a, *algo, sides, s); !st) return fail(err, st.error());
        problem = sequence_problem(*algo, sides[0], sides[1], s);
    }
    if (!problem) return fail(err, problem.error());

    Window window = whole_matrix(*problem);
    if (a.has("--region")) {
        auto w = parse_region(get("--region"), *problem);
        if (!w) return fail(err, w.error());
        window = *w;
    }

    AlignOptions opt;
    opt.backend = *backend;
    opt.level = score_only ? OutputLevel::score : (png.empty() ? OutputLevel::path : OutputLevel::matrix);
    if ((windowed || landscape) && *backend != Backend::cpu_reference) {
        if (landscape || viterbi) opt.backend = Backend::cpu;
        opt.level = OutputLevel::path;
        opt.path_memory = PathMemory::checkpoints;
    }
    auto threads = int_option(a, "--threads", 0);
    if (!threads) return fail(err, threads.error());
    if (*threads < 0 || *threads > 1024) return fail(err, usage_error("--threads must be between 0 and 1024"));
    opt.threads = static_cast<unsigned>(*threads);
    render::HeatmapOptions hopt;
    auto png_size = int_option(a, "--png-size", hopt.max_side);
    if (!png_size) return fail(err, png_size.error());
    if (*png_size < 16 || *png_size > 16384) return fail(err, usage_error("--png-size must be between 16 and 16384"));
    hopt.max_side = *png_size;
    // A matrix too big to hold is drawn from the overview the fill pools (dpviz/store.hpp).
    if (!windowed && !landscape) opt.overview_side = hopt.max_side;
    hopt.pool_lowest = minimizes(problem->algo);  // a pixel over many cells shows the best of them
    if (a.values.count("--colormap")) {
        const auto cm = render::parse_colormap(get("--colormap"));
        if (!cm) return fail(err, usage_error("unknown --colormap '" + get("--colormap") + "' (viridis, magma, grayscale, diverging)"));
        hopt.colormap = *cm;
        hopt.auto_colormap = false;
    }

    if (gpu_setup.joinable()) gpu_setup.join();
    auto result = align_with_progress(*problem, opt, err, a.flags.count("--quiet") > 0);
    if (!result) return fail(err, result.error());
    if (!result->fallback.empty()) err << "dpviz: note: " << one_line(result->fallback) << "\n";
    if (result->refilled32)
        err << "dpviz: note: the 16x2 fill's cells spread past 16 bits; the score is a 32-bit fill's (fill_ms: both)\n";

    std::optional<WindowValues> values;
    std::optional<Overview> landscape_picture;
    if (landscape) {
        // The forward checkpoints from the fill (the reference keeps whole matrices instead).
        const int32_t spacing = result->checkpoints ? result->checkpoints->spacing : kMinCheckpointSpacing;
        Checkpoints own;
        if (!result->checkpoints) {
            auto c = fill_checkpoints(*problem, spacing, opt.threads, RunControl{});
            if (!c) return fail(err, c.error());
            own = std::move(*c);
        }
        auto src = landscape_source(*problem, spacing, opt.threads, RunControl{},
                                    result->checkpoints ? result->checkpoints.get() : &own);
        if (!src) return fail(err, src.error());
        if (windowed) values = landscape_window(*src, window);
        else landscape_picture = landscape_overview(*src, overview_block(*problem, hopt.max_side),
                                                    opt.threads ? opt.threads : std::thread::hardware_concurrency());
    } else if (windowed) {
        values = result->checkpoints ? compute_window(*problem, *result->checkpoints, window)
                                     : cut_window(*problem, *result, window);
    }
    if (!table.empty()) {
        const std::string text = format_window_table(*problem, *values);
        if (table == "-") {
            out << text;
            return kExitOk;  // the table is the output
        }
        if (auto st = render::write_file_atomic(table, text); !st) return fail(err, st.error());
    }
    if (!png.empty()) {
        hopt.caption = format_caption(*problem, *result);
        if (landscape) hopt.caption += kLandscapeCaption;
        hopt.value_text = [&p = *problem](int64_t v) { return value_text(p, v); };
        Expected<render::Image> img = usage_error("unreachable");
        if (values) {
            hopt.caption += "  rows " + std::to_string(window.i0) + ":" + std::to_string(window.i1) + " columns " +
                            std::to_string(window.j0) + ":" + std::to_string(window.j1);
            hopt.rows_shown = {window.i0, window.i1 - 1};
            hopt.cols_shown = {window.j0, window.j1 - 1};
            img = render::compose_heatmap(values->H, path_in_window(result->path, window), hopt);
        } else if (landscape_picture || result->overview) {
            const Overview& o = landscape_picture ? *landscape_picture : *result->overview;
            hopt.range = render::ValueRange{o.min, o.max, o.any_finite, o.any_unreachable};
            hopt.rows_shown = {0, problem->rows()};
            hopt.cols_shown = {0, problem->cols()};
            img = render::compose_heatmap(o.H, overview_path(o, result->path), hopt);
        } else {
            img = render::compose_heatmap(result->H, result->path, hopt);
        }
        if (!img) return fail(err, img.error());
        if (auto st = render::write_png_atomic(*img, png); !st) return fail(err, st.error());
    }
    if (png_to_stdout) return kExitOk;  // the PNG is the output
    HeaderInfo info;
    info.command_line = command_line("dpviz", args);
    auto header = format_header(*format, std::span(&*problem, 1), info);
    if (!header) return fail(err, header.error());
    PairOutput record;
    record.problem = &*problem;
    record.result = &*result;
    record.path = !score_only;  // the reference backend traces back anyway: show what was asked for
    record.job_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    out << *header << format_pair(*format, record, info);
    // A note for the reader of the text view; the other formats are read by programs.
    if (!png.empty() && *format == OutputFormat::text) out << "# PNG: " << png << "\n";
    if (!table.empty() && *format == OutputFormat::text) out << "# table: " << table << "\n";
    return kExitOk;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, Command gui) {
    if (args.empty()) {
        // Only with a display: headless callers (scripts, tests) get the usage text, never a window.
        if (gui && (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY"))) return gui({}, out, err);
        err << kTopHelp;
        return kExitUsage;
    }
    const std::string& cmd = args[0];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        out << kTopHelp;
        return kExitOk;
    }
    if (cmd == "--version") {
        out << "dpviz " << DPVIZ_VERSION << "\n";
        return kExitOk;
    }
    if (cmd == "align") return cmd_align(args, out, err);
    if (cmd == "gui") {
        if (gui) return gui(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
        err << "dpviz: this dpviz was built without the GUI (needs libimgui-dev, libglfw3-dev, python3-glad)\n";
        return kExitUsage;
    }
    if (cmd == "batch") return run_batch_cmd(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
    if (cmd == "bench") return run_bench(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
    err << "dpviz: unknown command '" << one_line(cmd) << "' (see dpviz --help)\n";
    return kExitUsage;
}

}  // namespace dpviz::app
