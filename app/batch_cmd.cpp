// `dpviz batch`: many pairs of one problem setup scored in one call (align_batch), or aligned one
// by one (--path), written in any --format. Every failure is one line on stderr and an exit code.
#include "batch_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli.hpp"
#include "cli_common.hpp"
#include "dpviz/batch.hpp"
#include "dpviz/engine.hpp"
#include "formats.hpp"
#include "input.hpp"
#include "matrix_file.hpp"
#include "progress_line.hpp"
#include "two_inputs.hpp"

namespace dpviz::app {
namespace {

constexpr const char* kBatchHelp = R"(Usage: dpviz batch [options] QUERIES TARGETS

Scores many pairs of one setup in one call: the score and the end cell of every pair (as
`dpviz align --score-only` reports them), computed on the GPU (one block of warps per pair) or on
the CPU (threads over pairs). With --path every pair is aligned instead (score, path, CIGAR:
the engine's align() one pair at a time, on the backend --backend names, as dpviz align does).

QUERIES and TARGETS are multi-record files (FASTA, FASTQ or plain sequence, gzip allowed), or
with --seq comma-separated literal sequences ("ACGT,GATTACA"). For --algo dtw they are numeric
files (CSV/TSV/whitespace) whose every column is one signal. The pairs are:
  one query             the query against every target
  one target            every query against the target
  equal counts          query k against target k
  --all-vs-all          every query against every target (query-major order)

Algorithm and scoring (as in dpviz align):
  --algo A             local (default), global, semiglobal, glocal, edit, lcs, dtw
  --matrix NAME|FILE   substitution matrix (default: BLOSUM62 for protein, NUC.4.4 for DNA/RNA,
                       decided over all records of both sides together)
  --alphabet A         dna, rna or protein: sets the default matrix; every residue of every
                       record is checked against it (exit 3 naming file, record, position)
  --match N, --mismatch N, --gap-open N (10), --gap-extend N (0.5): EMBOSS needle's and
                       water's gaps; up to two decimals, scores reported in these units
  --dtw-cost C         abs (default) or squared; --band N; --dtw-scale S (default: per pair)

Computation and output:
  --backend B          auto (default: cuda when a GPU is usable, else cpu), cpu, cpu-reference,
                       cuda (DPX kernels), cuda-portable (DPX-free kernels); a GPU that is
                       missing or faults falls back to the CPU with a note on stderr
  --threads N          CPU threads over pairs (default: all); with --path, the threads of
                       each pair's fill
  --all-vs-all         every query against every target
  --path               align every pair (as above); needed by every format but tsv and json
  --format F           tsv (default), json (--json is the same): one JSON object per line and
                       pair, the fields of dpviz align --format json that were computed, and
                       "pair"; with --path also text, sam (one header: an @SQ per target),
                       paf, blast6 and cigar, one record per pair (see dpviz align --help,
                       docs/formats.md). blast6's E-value and bit score are NA where BLAST
                       publishes no Karlin-Altschul parameters (global, edit, other scoring)
  --json               the same as --format json
  --quiet              no progress line (otherwise a batch past one second shows one on
                       standard error when that is a terminal: percent of all cells, cells/s)

TSV columns (after a '#' header line): pair, query, target, query_length, target_length, score,
end_i, end_j (the end cell: matrix row and column, 0 being the border), backend; DTW adds
dtw_distance; --path adds query_begin, query_end, target_begin, target_end (0-based, end
exclusive) and cigar.

Exit codes: 0 success, 2 usage, 3 input, 4 resource, 5 device (see dpviz --help).
)";

// Every record of one side: a file, or comma-separated literals with --seq.
Expected<std::vector<SequenceInput>> load_side(const std::string& arg, bool literal, const std::string& role) {
    std::vector<SequenceInput> out;
    if (literal) {
        std::stringstream in(arg);
        int k = 0;
        for (std::string part; std::getline(in, part, ',');) {
            ++k;
            if (part.empty()) return usage_error(role + " " + std::to_string(k) + " of --seq is empty");
            auto recs = parse_sequences(part, role + std::to_string(k));
            if (!recs) return recs.error();
            auto rec = pick_record(*recs, "", role + std::to_string(k));
            if (!rec) return rec.error();
            out.push_back({role + std::to_string(k), rec->residues});
        }
        if (out.empty()) return usage_error("no " + role + " sequences given");
        return out;
    }
    auto recs = read_sequences(arg);
    if (!recs) return recs.error();
    for (size_t k = 0; k < recs->size(); ++k) {
        const SequenceRecord& r = (*recs)[k];
        if (r.residues.empty())
            return input_error(arg + ": record " + std::to_string(k + 1) + " ('" + r.name + "') has no residues");
        out.push_back({r.name.empty() ? role + std::to_string(k + 1) : r.name, r.residues});
    }
    return out;
}

// Every column of a numeric file, one signal each (the file is read once per column, so the
// columns are capped).
constexpr int kMaxSignalColumns = 1024;

Expected<std::vector<SignalInput>> load_signals(const std::string& path) {
    std::vector<SignalInput> out;
    for (int col = 1;; ++col) {
        if (col > kMaxSignalColumns)
            return resource_error(path + ": more than " + std::to_string(kMaxSignalColumns) +
                                  " signal columns; split the file");
        auto s = read_signal(path, std::to_string(col));
        if (!s) {
            if (col > 1 && s.error().kind == ErrorKind::input && s.error().message.find("requested") != std::string::npos)
                break;  // past the last column
            return s.error();
        }
        s->name = (s->name.empty() ? path : s->name) + ":" + std::to_string(col);
        out.push_back(std::move(*s));
    }
    return out;
}

// Which (query, target) index pairs the two sides make. Each pair becomes a Problem holding its
// own copy of both inputs (`bytes_per_residue` each) and ~2 KiB besides: checked against the
// memory there is before anything is built.
Expected<std::vector<std::pair<size_t, size_t>>> pairing(const std::vector<size_t>& qlen, const std::vector<size_t>& tlen,
                                                         bool all, uint64_t bytes_per_residue) {
    const size_t nq = qlen.size(), nt = tlen.size();
    const bool cross = all || nq == 1 || nt == 1;
    if (!cross && nq != nt)
        return usage_error(std::to_string(nq) + " queries and " + std::to_string(nt) +
                           " targets do not pair up: give one query, one target, equal counts, or --all-vs-all");
    uint64_t qsum = 0, tsum = 0;
    for (const size_t n : qlen) qsum += n;
    for (const size_t n : tlen) tsum += n;
    const uint64_t npairs = cross ? uint64_t(nq) * nt : nq;
    const uint64_t residues = cross ? qsum * nt + tsum * nq : qsum + tsum;
    const Expected<uint64_t> available = available_host_bytes();
    if (!available) return available.error();
    const uint64_t need = residues * bytes_per_residue + npairs * 2048, have = *available;
    if (need > have)
        return resource_error(std::to_string(npairs) + " pairs need " + std::to_string(need) + " bytes of memory, " +
                              std::to_string(have) + " available: split the batch");
    std::vector<std::pair<size_t, size_t>> out;
    if (cross) {
        for (size_t q = 0; q < nq; ++q)
            for (size_t t = 0; t < nt; ++t) out.emplace_back(q, t);
    } else {
        for (size_t k = 0; k < nq; ++k) out.emplace_back(k, k);
    }
    return out;
}

}  // namespace

int run_batch_cmd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    static const std::vector<std::string> kValues = {"--format", "--algo",    "--matrix",   "--match",     "--mismatch",
                                                     "--gap-open", "--gap-extend", "--dtw-cost", "--band",
                                                     "--dtw-scale", "--backend", "--threads", "--alphabet"};
    static const std::vector<std::string> kFlags = {"--seq", "--json", "--all-vs-all", "--path", "--quiet", "--help"};
    auto parsed = parse_args(args, 0, kValues, kFlags, "dpviz batch --help");
    if (const auto code = ends_before_inputs(parsed, kBatchHelp, "batch", "QUERIES and TARGETS", out, err)) return *code;
    const Args& a = *parsed;
    auto parsed_scoring = algo_scoring_from_args(a);
    if (!parsed_scoring) return fail(err, parsed_scoring.error());
    const std::optional<Algorithm> algo = parsed_scoring->algo;  // dereferenced as *algo below
    ScoringOptions& s = parsed_scoring->scoring;
    const auto backend = parse_backend(a.get("--backend", "auto"));
    if (!backend)
        return fail(err, usage_error("unknown --backend '" + a.get("--backend") +
                                     "' (auto, cpu, cpu-reference, cuda, cuda-portable)"));
    const bool literal = a.flags.count("--seq") > 0;
    auto threads = int_option(a, "--threads", 0);
    if (!threads) return fail(err, threads.error());
    if (*threads < 0 || *threads > 1024) return fail(err, usage_error("--threads must be between 0 and 1024"));
    static constexpr OutputFormat kFormats[] = {OutputFormat::tsv, OutputFormat::json,   OutputFormat::text,
                                                OutputFormat::sam, OutputFormat::paf,    OutputFormat::blast6,
                                                OutputFormat::cigar};
    const auto format = output_format_from_args(a, OutputFormat::tsv, kFormats);
    if (!format) return fail(err, format.error());
    const std::string format_name(output_format_name(*format));
    const bool with_path = a.flags.count("--path") > 0;
    if (!with_path && (format_needs_path(*format) || *format == OutputFormat::text))
        return fail(err, usage_error("--format " + format_name + " shows alignments: add --path"));
    if (std::string why; !format_takes(*format, *algo, &why))
        return fail(err, usage_error("--format " + format_name + " does not apply to --algo " +
                                     std::string(algorithm_name(*algo)) + " (" + why + ")"));


    // The pairs, each one Problem of the same setup.
    std::vector<Problem> problems;
    if (*algo == Algorithm::dtw) {
        if (literal) return fail(err, usage_error("--seq does not apply to --algo dtw (signals come from files)"));
        auto qs = load_signals(a.positional[0]);
        if (!qs) return fail(err, qs.error());
        auto ts = load_signals(a.positional[1]);
        if (!ts) return fail(err, ts.error());
        std::vector<size_t> ql, tl;
        for (const auto& x : *qs) ql.push_back(x.values.size());
        for (const auto& x : *ts) tl.push_back(x.values.size());
        auto pairs = pairing(ql, tl, a.flags.count("--all-vs-all") > 0, 12);  // raw double + fixed int32
        if (!pairs) return fail(err, pairs.error());
        for (const auto& [q, t] : *pairs) {
            auto p = make_dtw_problem((*qs)[q], (*ts)[t], s);
            if (!p) return fail(err, p.error());
            problems.push_back(std::move(*p));
        }
    } else {
        auto qs = load_side(a.positional[0], literal, "query");
        if (!qs) return fail(err, qs.error());
        auto ts = load_side(a.positional[1], literal, "target");
        if (!ts) return fail(err, ts.error());
        std::vector<size_t> ql, tl;
        for (const auto& x : *qs) ql.push_back(x.residues.size());
        for (const auto& x : *ts) tl.push_back(x.residues.size());
        auto pairs = pairing(ql, tl, a.flags.count("--all-vs-all") > 0, 2);  // letter + code
        if (!pairs) return fail(err, pairs.error());
        // One alphabet for the whole batch, from (or checked over) every record of both sides.
        std::vector<NamedSequence> inputs;
        for (const SequenceInput& x : *qs) inputs.push_back({literal ? "query" : a.positional[0], &x});
        for (const SequenceInput& x : *ts) inputs.push_back({literal ? "target" : a.positional[1], &x});
        if (Status st = sequence_scoring_from_args(a, *algo, inputs, s); !st) return fail(err, st.error());
        for (const auto& [q, t] : *pairs) {
            auto p = sequence_problem(*algo, inputs[q], inputs[qs->size() + t], s);
            if (!p) return fail(err, p.error());
            problems.push_back(std::move(*p));
        }
    }

    HeaderInfo info;
    info.command_line = command_line("dpviz batch", args);
    info.with_path = with_path;
    auto header = format_header(*format, problems, info);
    if (!header) return fail(err, header.error());
    // The whole output is built before any of it is written: a pair that fails leaves none.
    std::string text = *header;
    // One progress line over every cell of the batch (progress_line.hpp).
    int64_t total_cells = 0;
    for (const Problem& p : problems) total_cells += int64_t(p.rows()) * p.cols();
    const bool progress = progress_wanted(err, a.flags.count("--quiet") > 0);
    ProgressLine line(err, progress, (with_path ? "aligning " : "scoring ") + std::to_string(problems.size()) + " pairs",
                      total_cells);
    int64_t done_cells = 0;

    if (with_path) {
        AlignOptions opt;
        opt.backend = *backend;
        opt.level = OutputLevel::path;
        opt.threads = static_cast<unsigned>(*threads);
        bool noted = false;
        for (size_t k = 0; k < problems.size(); ++k) {
            const int64_t cells = int64_t(problems[k].rows()) * problems[k].cols();
            opt.control.progress = [&](double f) {
                if (total_cells > 0) line.update((double(done_cells) + f * double(cells)) / double(total_cells));
            };
            auto r = align(problems[k], opt);
            done_cells += cells;
            if (!r) {
                line.finish();
                return fail(err, r.error());
            }
            if (!r->fallback.empty() && !noted) {
                err << "dpviz: note: " << one_line(r->fallback) << "\n";
                noted = true;
            }
            r->dirs = {};  // the path and alignment are kept; the direction bits are not needed
            PairOutput record;
            record.problem = &problems[k];
            record.result = &*r;
            record.pair = int64_t(k) + 1;
            text += format_pair(*format, record, info);
        }
        line.finish();
        out << text;
        return kExitOk;
    }

    BatchOptions opt;
    opt.backend = *backend;
    opt.threads = static_cast<unsigned>(*threads);
    Expected<BatchResult> r = BatchResult{};
    if (!progress) {
        r = align_batch(problems, opt);
    } else {
        // In slices of about a fiftieth of the cells, so the line moves; pairs are independent,
        // so the scores are those of one call.
        const int64_t slice = std::max<int64_t>(1, total_cells / 50);
        for (size_t k = 0; k < problems.size() && r;) {
            size_t e = k;
            int64_t cells = 0;
            for (; e < problems.size() && (e == k || cells < slice); ++e)
                cells += int64_t(problems[e].rows()) * problems[e].cols();
            auto part = align_batch(std::span(problems).subspan(k, e - k), opt);
            if (!part) {
                r = align_batch(problems, opt);  // the error again, naming the pair by its place in the whole batch
                if (r) r = part.error();
                break;
            }
            if (r->pairs.empty()) r->backend = part->backend, r->fallback = part->fallback;
            r->pairs.insert(r->pairs.end(), part->pairs.begin(), part->pairs.end());
            done_cells += cells;
            line.update(total_cells > 0 ? double(done_cells) / double(total_cells) : 1.0);
            k = e;
        }
        line.finish();
    }
    if (!r) return fail(err, r.error());
    if (!r->fallback.empty()) err << "dpviz: note: " << one_line(r->fallback) << "\n";
    for (size_t k = 0; k < problems.size(); ++k) {
        const Problem& p = problems[k];
        const PairScore& ps = r->pairs[k];
        // The score level of align(): what the writers read of a result without a path.
        DpResult score;
        score.algo = p.algo;
        score.level = OutputLevel::score;
        score.score = ps.score;
        score.end = ps.end;
        score.dtw_distance = ps.dtw_distance;
        score.backend = r->backend;
        score.fallback = r->fallback;
        score.cells = int64_t(p.rows()) * p.cols();
        PairOutput record;
        record.problem = &p;
        record.result = &score;
        record.path = false;
        record.pair = int64_t(k) + 1;
        record.timed = false;          // one fill time for the whole batch, not per pair
        record.dtw_reference = false;  // the batch computes the fixed-point distance only
        text += format_pair(*format, record, info);
    }
    out << text;
    return kExitOk;
}

}  // namespace dpviz::app
