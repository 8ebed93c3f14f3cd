// The --format writers shared by `dpviz align` and `dpviz batch`: each format written in one
// place, from a Problem and its DpResult. Columns and conventions: docs/formats.md.
#include "formats.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "blast_statistics.hpp"
#include "dpviz/hmm.hpp"
#include "cli_common.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"

#ifndef DPVIZ_VERSION
#define DPVIZ_VERSION "unknown"
#endif

namespace dpviz::app {
namespace {

// Every format under its --format name (parsed without regard to case).
constexpr std::pair<OutputFormat, std::string_view> kFormatNames[] = {
    {OutputFormat::text, "text"}, {OutputFormat::json, "json"},     {OutputFormat::sam, "sam"},
    {OutputFormat::paf, "paf"},   {OutputFormat::blast6, "blast6"}, {OutputFormat::cigar, "cigar"},
    {OutputFormat::tsv, "tsv"},
};

std::string json_number(double v, int digits = 6) {
    if (!std::isfinite(v)) return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

// A CIGAR string as (length, op) runs.
std::vector<std::pair<int64_t, char>> cigar_runs(const std::string& cigar) {
    std::vector<std::pair<int64_t, char>> out;
    int64_t n = 0;
    for (const char c : cigar) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            n = n * 10 + (c - '0');
        } else {
            out.emplace_back(n, c);
            n = 0;
        }
    }
    return out;
}

// What SAM, PAF and BLAST count over the aligned part, from the same runs as the CIGAR each
// prints, so that a format's counts and its CIGAR agree.
struct Counts {
    int64_t matches = 0;     // '=' columns: the same letter on both sides
    int64_t mismatches = 0;  // 'X' columns
    int64_t gap_columns = 0; // 'I' and 'D' columns
    int64_t gap_opens = 0;   // runs of 'I' or 'D'
};

// SAM's and PAF's view of the aligned part, column by column. SAM 1.6 counts "only A, C, G and
// T bases in sequence and reference as potential matches" for NM, so in a nucleotide alignment
// an ambiguity code against itself (N against N) is a mismatch there, and written X, where
// dpviz's CIGAR says '=' (the same letter); U counts as T. Proteins: the same letter is '='.
std::vector<std::pair<int64_t, char>> sam_ops(const Problem& p, const Alignment& a) {
    const bool nucleotide = nucleotide_residues(p);
    auto base = [](char c) { return c == 'U' ? 'T' : c; };
    std::vector<std::pair<int64_t, char>> out;
    for (size_t k = 0; k < a.query_row.size(); ++k) {
        const char q = a.query_row[k], t = a.target_row[k];
        char op = 'X';
        if (q == '-') {
            op = 'D';
        } else if (t == '-') {
            op = 'I';
        } else if (nucleotide ? base(q) == base(t) && std::string_view("ACGT").find(base(q)) != std::string_view::npos
                              : q == t) {
            op = '=';
        }
        if (!out.empty() && out.back().second == op) {
            ++out.back().first;
        } else {
            out.emplace_back(1, op);
        }
    }
    return out;
}

Counts count_runs(const std::vector<std::pair<int64_t, char>>& runs) {
    Counts c;
    for (const auto& [n, op] : runs) {
        if (op == '=') c.matches += n;
        if (op == 'X') c.mismatches += n;
        if (op == 'I' || op == 'D') {
            c.gap_columns += n;
            ++c.gap_opens;
        }
    }
    return c;
}

// TSV fields and SAM header values keep their bytes except tabs and line breaks.
std::string tsv_field(const std::string& s) {
    std::string o = s;
    for (char& c : o)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return o;
}

// The score tag of SAM and PAF: AS:i for a whole score, AS:f for a fractional one (gap extend 0.5).
std::string score_tag(const Problem& p, int64_t score) {
    return std::string(score % p.score_scale == 0 ? "AS:i:" : "AS:f:") + p.score_text(score);
}

// PAF and BLAST names are single tokens: blanks and control bytes become '_'.
std::string token(const std::string& s) {
    std::string o = s.empty() ? "_" : s;
    for (char& c : o) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f) c = '_';
    }
    return o;
}

// SAM 1.6 section 1.4: QNAME is [!-?A-~]{1,254}; RNAME (and @SQ SN) is
// [0-9A-Za-z!#$%&+./:;?@^_|~-][0-9A-Za-z!#$%&*+./:;=?@^_|~-]*. Other bytes become '_'.
std::string sam_qname(const std::string& s) {
    std::string o = s.substr(0, 254);
    if (o.empty()) o = "*";
    for (char& c : o)
        if (c < '!' || c > '~' || c == '@') c = '_';
    return o;
}
std::string sam_rname(const std::string& s) {
    std::string o = s.empty() ? "_" : s;
    constexpr std::string_view kExtra = "!#$%&*+./:;=?@^_|~-";
    for (size_t k = 0; k < o.size(); ++k) {
        char& c = o[k];
        const bool ok = std::isalnum(static_cast<unsigned char>(c)) ||
                        (kExtra.find(c) != std::string_view::npos && !(k == 0 && (c == '*' || c == '=')));
        if (!ok) c = '_';
    }
    return o;
}

std::string format_text(const PairOutput& o) {
    const DpResult& r = *o.result;
    if (!o.path && o.problem->algo != Algorithm::viterbi) {
        std::ostringstream s;
        s << "score " << o.problem->score_text(r.score) << " end " << r.end.i << " " << r.end.j << " backend " << backend_name(r.backend) << "\n";
        return s.str();
    }
    return format_pair_text(*o.problem, r);
}

// The timing fields every JSON record ends with.
void json_timing(std::ostringstream& o, const PairOutput& out) {
    const DpResult& r = *out.result;
    o << ",\"cells\":" << r.cells << ",\"backend\":\"" << backend_name(r.backend) << "\"";
    if (!r.fallback.empty()) o << ",\"fallback\":\"" << json_escape(r.fallback) << "\"";
    if (r.refilled32) o << ",\"refilled32\":true";  // the 16x2 fill flagged its range (docs/gpu.md)
    // The path was traced over the result store's checkpoints (docs/algorithms.md).
    if (out.path && r.checkpoints) o << ",\"checkpoint_spacing\":" << r.checkpoints->spacing;
    if (out.timed) {
        o << ",\"fill_ms\":" << json_number(r.fill_ms);
        if (out.path) o << ",\"traceback_ms\":" << json_number(r.traceback_ms);
        const double seconds = (r.fill_ms + (out.path ? r.traceback_ms : 0.0)) / 1000.0;
        o << ",\"gcups\":" << json_number(seconds > 0 ? double(r.cells) / seconds / 1e9 : 0.0);
        if (out.job_ms >= 0) o << ",\"job_ms\":" << json_number(out.job_ms);
    }
}

// Viterbi: the model, the observations, the fixed-point score with its scale, the natural-log
// probability beside the double-precision one, and the decoded states by name (docs/formats.md).
std::string format_viterbi_json(const PairOutput& out) {
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    std::ostringstream o;
    o << "{\"algo\":\"viterbi\",\"model\":\"" << json_escape(p.query_name) << "\",\"observations\":\""
      << json_escape(p.target_name) << "\",\"states\":" << p.rows() << ",\"observations_length\":" << p.cols()
      << ",\"score\":" << r.score << ",\"scale_log2\":" << p.hmm_fixed->scale_log2
      << ",\"log_probability\":" << json_number(r.log_probability, 12)
      << ",\"viterbi_quantization_bound\":" << json_number(viterbi_quantization_bound(*p.hmm_fixed, size_t(p.cols())));
    if (!std::isnan(r.log_probability_reference))  // not computed for the largest trellises
        o << ",\"viterbi_reference\":" << json_number(r.log_probability_reference, 12)
          << ",\"viterbi_quantization_error\":" << json_number(r.log_probability - r.log_probability_reference);
    o << ",\"final_state\":\"" << json_escape(p.hmm->states[size_t(r.end.i - 1)]) << "\""
      << ",\"end_cell\":[" << r.end.i << "," << r.end.j << "]";
    if (out.path && r.path.size() > 1) {
        o << ",\"state_path\":[";
        for (size_t k = 1; k < r.path.size(); ++k)
            o << (k > 1 ? "," : "") << "\"" << json_escape(p.hmm->states[size_t(r.path[k].i - 1)]) << "\"";
        o << "]";
    }
    json_timing(o, out);
    o << "}\n";
    return o.str();
}

std::string format_json(const PairOutput& out) {
    if (out.problem->algo == Algorithm::viterbi) return format_viterbi_json(out);
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    const Alignment& a = r.alignment;
    const bool path = out.path;
    std::ostringstream o;
    o << "{";
    if (out.pair > 0) o << "\"pair\":" << out.pair << ",";
    o << "\"algo\":\"" << algorithm_name(p.algo) << "\""
      << ",\"query\":\"" << json_escape(p.query_name) << "\",\"target\":\"" << json_escape(p.target_name) << "\""
      << ",\"query_length\":" << p.rows() << ",\"target_length\":" << p.cols()
      << ",\"score\":" << p.score_text(r.score);
    if (path)
        o << ",\"query_begin\":" << a.query_begin << ",\"query_end\":" << a.query_end
          << ",\"target_begin\":" << a.target_begin << ",\"target_end\":" << a.target_end;
    o << ",\"end_cell\":[" << r.end.i << "," << r.end.j << "]";
    if (path) {
        o << ",\"cigar\":\"" << a.cigar << "\""
          << ",\"length\":" << a.length
          << ",\"identity\":" << json_number(a.identity())
          << ",\"similarity\":" << json_number(a.similarity())
          << ",\"gaps\":" << a.gaps;
        // A warping path pairs samples, not residues: there are no gapped strings to show.
        if (p.algo != Algorithm::dtw)
            o << ",\"query_aligned\":\"" << json_escape(a.query_row) << "\",\"target_aligned\":\""
              << json_escape(a.target_row) << "\"";
    }
    if (uses_substitution_matrix(p.algo))
        o << ",\"matrix\":\"" << json_escape(p.matrix.name) << "\",\"gap_open\":" << p.score_text(p.gaps.open)
          << ",\"gap_extend\":" << p.score_text(p.gaps.extend);
    if (p.algo == Algorithm::dtw) {
        o << ",\"dtw_cost\":\"" << dtw_cost_name(p.dtw_cost) << "\",\"band\":" << p.band
          << ",\"dtw_scale\":" << json_number(p.dtw_scale) << ",\"dtw_distance\":" << json_number(r.dtw_distance);
        if (out.dtw_reference && !std::isnan(r.dtw_reference))  // not computed for the largest pairs
            o << ",\"dtw_reference\":" << json_number(r.dtw_reference)
              << ",\"dtw_quantization_error\":" << json_number(r.dtw_distance - r.dtw_reference);
    }
    json_timing(o, out);
    o << "}\n";
    return o.str();
}

std::string format_sam(const PairOutput& out) {
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    const Alignment& a = r.alignment;
    // SAM's SEQ is [A-Za-z=.]+: a protein's stop '*' is written as X.
    std::string seq = p.query.empty() ? "*" : p.query;
    for (char& c : seq)
        if (!std::isalpha(static_cast<unsigned char>(c)) && c != '=' && c != '.') c = 'X';
    std::ostringstream o;
    o << sam_qname(p.query_name) << "\t";
    if (a.length == 0) {
        // Nothing aligned (a local alignment scoring 0): an unmapped read.
        o << "4\t*\t0\t0\t*\t*\t0\t0\t" << seq << "\t*\t" << score_tag(p, r.score) << "\n";
        return o.str();
    }
    // The query ends outside the alignment (local, semiglobal) are soft clips: SEQ stays whole.
    const auto ops = sam_ops(p, a);
    std::string cigar;
    if (a.query_begin > 0) cigar += std::to_string(a.query_begin) + "S";
    for (const auto& [n, op] : ops) cigar += std::to_string(n) + op;
    if (p.rows() > a.query_end) cigar += std::to_string(p.rows() - a.query_end) + "S";
    const Counts c = count_runs(ops);
    o << "0\t" << sam_rname(p.target_name) << "\t" << a.target_begin + 1 << "\t255\t" << cigar << "\t*\t0\t0\t" << seq
      << "\t*\t" << score_tag(p, r.score) << "\tNM:i:" << c.mismatches + c.gap_columns << "\n";
    return o.str();
}

std::string format_paf(const PairOutput& out) {
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    const Alignment& a = r.alignment;
    // minimap2's cg:Z: uses M for both matches and mismatches.
    const auto ops = sam_ops(p, a);
    std::string cg;
    int64_t run = 0;
    char op = 0;
    auto flush = [&] {
        if (run) cg += std::to_string(run) + op;
    };
    for (const auto& [n, o] : ops) {
        const char m = (o == '=' || o == 'X') ? 'M' : o;
        if (m != op) {
            flush();
            op = m;
            run = 0;
        }
        run += n;
    }
    flush();
    const Counts c = count_runs(ops);
    std::ostringstream o;
    o << token(p.query_name) << "\t" << p.rows() << "\t" << a.query_begin << "\t" << a.query_end << "\t+\t"
      << token(p.target_name) << "\t" << p.cols() << "\t" << a.target_begin << "\t" << a.target_end << "\t" << c.matches
      << "\t" << a.length << "\t255\tNM:i:" << c.mismatches + c.gap_columns << "\t" << score_tag(p, r.score)
      << "\ttp:A:P\tcg:Z:" << cg << "\n";
    return o.str();
}

std::string format_blast6(const PairOutput& out) {
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    const Alignment& a = r.alignment;
    const Counts c = count_runs(cigar_runs(a.cigar));  // identities: the same letter, as the CIGAR's '='
    char pident[32];
    std::snprintf(pident, sizeof pident, "%.3f", 100.0 * double(c.matches) / double(a.length));
    std::string evalue = "NA", bits = "NA";
    if (const auto ka = karlin_altschul(p)) {
        const BlastStatistics st = blast_statistics(*ka, r.score, p.rows(), p.cols());
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3g", st.evalue);
        evalue = buf;
        std::snprintf(buf, sizeof buf, "%.1f", st.bit_score);
        bits = buf;
    }
    std::ostringstream o;
    o << token(p.query_name) << "\t" << token(p.target_name) << "\t" << pident << "\t" << a.length << "\t"
      << c.mismatches << "\t" << c.gap_opens << "\t" << a.query_begin + 1 << "\t" << a.query_end << "\t"
      << a.target_begin + 1 << "\t" << a.target_end << "\t" << evalue << "\t" << bits << "\n";
    return o.str();
}

std::string format_tsv(const PairOutput& out, const HeaderInfo& info) {
    const Problem& p = *out.problem;
    const DpResult& r = *out.result;
    std::ostringstream o;
    o << out.pair << "\t" << tsv_field(p.query_name) << "\t" << tsv_field(p.target_name) << "\t" << p.rows() << "\t"
      << p.cols() << "\t" << p.score_text(r.score) << "\t" << r.end.i << "\t" << r.end.j << "\t" << backend_name(r.backend);
    if (p.algo == Algorithm::dtw) {
        char dist[64];
        std::snprintf(dist, sizeof dist, "%.6g", r.dtw_distance);
        o << "\t" << dist;
    }
    if (info.with_path) {
        const Alignment& a = r.alignment;
        o << "\t" << a.query_begin << "\t" << a.query_end << "\t" << a.target_begin << "\t" << a.target_end << "\t"
          << cigar_or_star(a);
    }
    o << "\n";
    return o.str();
}

}  // namespace

std::string_view output_format_name(OutputFormat f) {
    for (const auto& [format, name] : kFormatNames)
        if (format == f) return name;
    return "?";
}

std::optional<OutputFormat> parse_output_format(std::string_view s) {
    std::string l(s);
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [format, name] : kFormatNames)
        if (l == name) return format;
    return std::nullopt;
}

Expected<OutputFormat> output_format_from_args(const Args& a, OutputFormat fallback,
                                               std::span<const OutputFormat> allowed) {
    const bool json = a.flags.count("--json") > 0;
    if (!a.has("--format")) return json ? OutputFormat::json : fallback;
    std::string names;
    for (const OutputFormat f : allowed) names += (names.empty() ? "" : ", ") + std::string(output_format_name(f));
    const std::string given = a.get("--format");
    const auto f = parse_output_format(given);
    if (!f || std::find(allowed.begin(), allowed.end(), *f) == allowed.end())
        return usage_error("unknown --format '" + given + "' (" + names + ")");
    if (json && *f != OutputFormat::json)
        return usage_error("--json is --format json: it does not go with --format " + given);
    return *f;
}

bool format_takes(OutputFormat f, Algorithm a, std::string* why) {
    bool takes = true;
    if (a == Algorithm::dtw) {
        takes = f != OutputFormat::sam && f != OutputFormat::paf && f != OutputFormat::blast6;
        if (why) *why = "a warping path aligns no residues";
    } else if (a == Algorithm::viterbi) {
        takes = f == OutputFormat::text || f == OutputFormat::json;
        if (why) *why = "a state path aligns no residues: text or json";
    }
    return takes;
}

bool format_needs_path(OutputFormat f) {
    return f == OutputFormat::sam || f == OutputFormat::paf || f == OutputFormat::blast6 || f == OutputFormat::cigar;
}

std::string command_line(std::string_view program, std::span<const std::string> args) {
    std::string o(program);
    for (const std::string& arg : args) {
        const bool quote = arg.empty() || arg.find_first_of(" \t\n\r'\"") != std::string::npos;
        std::string shown;
        for (const char c : arg) shown += c == '\'' ? std::string("'\\''") : std::string(1, c);
        o += " " + (quote ? "'" + shown + "'" : shown);
    }
    return o;
}

std::string cigar_or_star(const Alignment& a) { return a.cigar.empty() ? "*" : a.cigar; }

Expected<std::string> format_header(OutputFormat f, std::span<const Problem> problems, const HeaderInfo& info) {
    std::ostringstream o;
    if (f == OutputFormat::tsv) {
        const bool dtw = !problems.empty() && problems.front().algo == Algorithm::dtw;
        o << "#pair\tquery\ttarget\tquery_length\ttarget_length\tscore\tend_i\tend_j\tbackend"
          << (dtw ? "\tdtw_distance" : "")
          << (info.with_path ? "\tquery_begin\tquery_end\ttarget_begin\ttarget_end\tcigar" : "") << "\n";
    } else if (f == OutputFormat::sam) {
        o << "@HD\tVN:1.6\tSO:unsorted\n";
        // One @SQ per target; a target that comes back (one query against it, --all-vs-all) is
        // listed once, and two different targets under one name would make RNAME ambiguous.
        std::map<std::string, const Problem*> seen;
        for (const Problem& p : problems) {
            const std::string name = sam_rname(p.target_name);
            const auto [at, added] = seen.emplace(name, &p);
            if (!added) {
                if (at->second->target != p.target)
                    return input_error("SAM needs one name per target: '" + name +
                                       "' names two different target sequences (rename one record)");
                continue;
            }
            o << "@SQ\tSN:" << name << "\tLN:" << p.cols() << "\n";
        }
        o << "@PG\tID:dpviz\tPN:dpviz\tVN:" << DPVIZ_VERSION << "\tCL:" << tsv_field(info.command_line) << "\n";
    }
    return o.str();
}

std::string format_pair(OutputFormat f, const PairOutput& out, const HeaderInfo& info) {
    // PAF and BLAST write no line for a pair with nothing aligned (a local alignment scoring 0).
    if ((f == OutputFormat::paf || f == OutputFormat::blast6) && out.result->alignment.length == 0) return "";
    switch (f) {
        case OutputFormat::text: return format_text(out);
        case OutputFormat::json: return format_json(out);
        case OutputFormat::sam: return format_sam(out);
        case OutputFormat::paf: return format_paf(out);
        case OutputFormat::blast6: return format_blast6(out);
        case OutputFormat::cigar: return cigar_or_star(out.result->alignment) + "\n";
        case OutputFormat::tsv: return format_tsv(out, info);
    }
    return "";
}

}  // namespace dpviz::app
