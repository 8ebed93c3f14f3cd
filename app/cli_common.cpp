// The command-line helpers shared by the entry points (see cli_common.hpp).
#include "cli_common.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "cli.hpp"
#include "input.hpp"
#include "matrix_file.hpp"

namespace dpviz::app {

int exit_code(ErrorKind k) {
    switch (k) {
        case ErrorKind::usage: return kExitUsage;
        case ErrorKind::input: return kExitInput;
        case ErrorKind::resource: return kExitResource;
        case ErrorKind::device: return kExitDevice;
        case ErrorKind::cancelled: return kExitResource;  // the CLI never cancels a run
    }
    return kExitInput;
}

namespace {

// Byte `u` as `prefix` followed by `digits` lowercase hex digits (ESC: "\\x" 1b, "\\u" 001b).
std::string hex_escape(const char* prefix, int digits, unsigned char u) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, unsigned(u));
    return buf;
}

}  // namespace

std::string one_line(const std::string& s) {
    std::string o;
    for (const char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        o += u < 0x20 || u == 0x7f ? hex_escape("\\x", 2, u) : std::string(1, c);
    }
    return o;
}

int fail(std::ostream& err, const Error& e) {
    err << "dpviz: " << one_line(e.message) << "\n";
    return exit_code(e.kind);
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (const char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) o += hex_escape("\\u", 4, static_cast<unsigned char>(c));
                else o += c;
        }
    }
    return o;
}

std::string Args::get(const std::string& k, const std::string& fallback) const {
    const auto it = values.find(k);
    return it == values.end() ? fallback : it->second;
}

Expected<Args> parse_args(const std::vector<std::string>& args, size_t first, const std::vector<std::string>& value_opts,
                          const std::vector<std::string>& flag_opts, const std::string& help, bool keep_order) {
    Args a;
    auto is = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (size_t k = first; k < args.size(); ++k) {
        std::string s = args[k];
        if (s == "--") {
            for (++k; k < args.size(); ++k) a.positional.push_back(args[k]);
            break;
        }
        if (s.size() > 2 && s.rfind("--", 0) == 0) {
            std::string value;
            bool has_inline = false;
            if (const auto eq = s.find('='); eq != std::string::npos) {
                value = s.substr(eq + 1);
                s = s.substr(0, eq);
                has_inline = true;
            }
            if (is(flag_opts, s)) {
                if (has_inline) return usage_error("option " + s + " takes no value");
                if (keep_order && !a.flags.count(s)) a.in_order.emplace_back(s, "");
                a.flags[s] = true;
            } else if (is(value_opts, s)) {
                if (!has_inline) {
                    if (k + 1 >= args.size()) return usage_error("option " + s + " needs a value");
                    value = args[++k];
                }
                if (keep_order) a.in_order.emplace_back(s, value);
                a.values[s] = std::move(value);
            } else {
                return usage_error("unknown option " + s + " (see " + help + ")");
            }
        } else if (s.size() > 1 && s[0] == '-' && !std::isdigit(static_cast<unsigned char>(s[1]))) {
            return usage_error("unknown option " + s + " (see " + help + ")");
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

Expected<int32_t> int_option(const Args& a, const std::string& name, int32_t fallback) {
    const auto it = a.values.find(name);
    if (it == a.values.end()) return fallback;
    int32_t v = 0;
    const std::string& s = it->second;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return usage_error(name + " expects an integer, got '" + s + "'");
    return v;
}

Expected<int64_t> hundredths_option(const Args& a, const std::string& name, int64_t fallback) {
    const auto it = a.values.find(name);
    if (it == a.values.end()) return fallback;
    return parse_hundredths(name, it->second);
}

Expected<int64_t> parse_hundredths(const std::string& name, const std::string& v) {
    const auto bad = [&](const std::string& why) { return usage_error(name + " " + why + ", got '" + v + "'"); };
    size_t k = v.size() > 0 && (v[0] == '-' || v[0] == '+') ? 1 : 0;
    int64_t whole = 0, frac = 0;
    int digits = 0, decimals = 0;
    for (; k < v.size() && std::isdigit(static_cast<unsigned char>(v[k])); ++k, ++digits)
        if ((whole = whole * 10 + (v[k] - '0')) > 10'000'000) return bad("is out of range (|value| <= 10000000)");
    if (k < v.size() && v[k] == '.')
        for (++k; k < v.size() && std::isdigit(static_cast<unsigned char>(v[k])); ++k, ++decimals) {
            if (decimals == 2) return bad("takes at most two decimals");
            frac = frac * 10 + (v[k] - '0');
        }
    if (k != v.size() || digits + decimals == 0) return bad("expects a number");
    if (decimals == 1) frac *= 10;
    const int64_t h = whole * 100 + frac;
    return v[0] == '-' ? -h : h;
}

int32_t common_score_scale(std::initializer_list<int64_t> hundredths) {
    for (const int32_t scale : {1, 2, 4, 5, 10, 20, 25, 50})
        if (std::all_of(hundredths.begin(), hundredths.end(), [&](int64_t h) { return h * scale % 100 == 0; }))
            return scale;
    return kMaxScoreScale;
}

Status scale_scores(const UserScores& v, const std::string& prefix, ScoringOptions& s) {
    const std::string open = prefix + (prefix.empty() ? "gap open" : "gap-open");
    const std::string extend = prefix + (prefix.empty() ? "gap extend" : "gap-extend");
    const auto text = [](int64_t h) { return format_score(h, 100); };
    if (v.match_mismatch) {
        if (v.match <= 0) return usage_error(prefix + "match must be > 0; got " + text(v.match));
        if (v.mismatch > 0)
            return usage_error(prefix + "mismatch is a score and must be <= 0 (e.g. -3); got " + text(v.mismatch));
        constexpr int64_t kMax = int64_t(kMaxScoreMagnitude) * 100;
        if (std::abs(v.match) > kMax || std::abs(v.mismatch) > kMax)
            return usage_error(prefix + "match/" + prefix + "mismatch beyond +-" + text(kMax) + " are not supported");
    }
    if (v.gap_open < 0 || v.gap_extend < 0)  // the engine's rules, in the user's names
        return usage_error(open + " and " + extend + " are positive numbers (a gap of length k costs open + " +
                           "(k-1)*extend); got " + text(v.gap_open) + " and " + text(v.gap_extend));
    if (v.gap_extend > v.gap_open)
        return usage_error(extend + " (" + text(v.gap_extend) + ") must not exceed " + open + " (" + text(v.gap_open) + ")");
    s.score_scale = v.match_mismatch ? common_score_scale({v.gap_open, v.gap_extend, v.match, v.mismatch})
                                     : common_score_scale({v.gap_open, v.gap_extend});
    const auto scaled = [&](int64_t h) { return static_cast<int32_t>(h * s.score_scale / 100); };
    s.gaps = {scaled(v.gap_open), scaled(v.gap_extend)};
    s.match = scaled(v.match);  // read only when they score (no substitution matrix)
    s.mismatch = scaled(v.mismatch);
    return Ok{};
}

Expected<AlgoScoring> algo_scoring_from_args(const Args& a) {
    AlgoScoring out;
    const auto algo = parse_algorithm(a.get("--algo", "local"));
    if (!algo) return usage_error("unknown --algo '" + a.get("--algo") + "' (" + algorithm_choices() + ")");
    out.algo = *algo;
    ScoringOptions& s = out.scoring;
    // Scores and penalties with up to two decimals, on one integer scale (types.hpp). The gap
    // defaults are EMBOSS needle's and water's: open 10, extend 0.5.
    auto gap_open = hundredths_option(a, "--gap-open", kDefaultGapOpen);
    if (!gap_open) return gap_open.error();
    auto gap_extend = hundredths_option(a, "--gap-extend", kDefaultGapExtend);
    if (!gap_extend) return gap_extend.error();
    auto match = hundredths_option(a, "--match", 100);
    if (!match) return match.error();
    auto mismatch = hundredths_option(a, "--mismatch", -100);
    if (!mismatch) return mismatch.error();
    const bool mm = a.has("--match") || a.has("--mismatch");
    if (uses_gap_penalties(*algo)) {
        if (Status st = scale_scores({*gap_open, *gap_extend, *match, *mismatch, mm}, "--", s); !st) return st.error();
    } else {
        s.gaps = {int32_t(*gap_open / 100), int32_t(*gap_extend / 100)};  // unused: no gaps to score
    }
    auto band = int_option(a, "--band", -1);
    if (!band) return band.error();
    if (a.has("--band") && *band < 0) return usage_error("--band must be 0 or more");
    s.band = *band;
    const std::string cost = a.get("--dtw-cost", "abs");
    if (cost != "abs" && cost != "squared") return usage_error("--dtw-cost is abs or squared, got '" + cost + "'");
    s.dtw_cost = cost == "abs" ? DtwCost::abs : DtwCost::squared;
    if (a.has("--dtw-scale")) {
        const std::string v = a.get("--dtw-scale");
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0') return usage_error("--dtw-scale expects a number, got '" + v + "'");
        const double e = std::log2(d);
        if (!(d > 0) || e != std::floor(e) || e < -60 || e > 30)
            return usage_error("--dtw-scale must be a power of two between 2^-60 and 2^30, got '" + v + "'");
        s.dtw_scale = d;
    }
    if (*algo != Algorithm::dtw)
        for (const char* o : {"--dtw-cost", "--dtw-scale", "--column", "--band"})
            if (a.has(o)) return usage_error(std::string(o) + " applies to --algo dtw only");
    if (*algo == Algorithm::dtw && a.has("--alphabet"))
        return usage_error("--alphabet does not apply to --algo dtw (signals have no residues)");
    if (*algo == Algorithm::viterbi && a.has("--alphabet"))
        return usage_error("--alphabet does not apply to --algo viterbi (the model gives the alphabet)");
    if (a.has("--alphabet") && !parse_alphabet(a.get("--alphabet")))  // before any input is read
        return usage_error("unknown --alphabet '" + a.get("--alphabet") + "' (dna, rna, protein)");
    if (!uses_gap_penalties(*algo))
        for (const char* o : {"--matrix", "--match", "--mismatch", "--gap-open", "--gap-extend"})
            if (a.has(o))
                return usage_error(std::string(o) + " does not apply to --algo " + std::string(algorithm_name(*algo)));
    return out;
}

Expected<Alphabet> alphabet_from_args(const Args& a, std::span<const NamedSequence> inputs) {
    if (!a.has("--alphabet")) {
        std::vector<std::string_view> all;
        for (const NamedSequence& in : inputs) all.push_back(in.sequence->residues);
        return detect_alphabet(all);
    }
    const std::string given = a.get("--alphabet");
    const auto forced = parse_alphabet(given);
    if (!forced) return usage_error("unknown --alphabet '" + given + "' (dna, rna, protein)");
    for (const NamedSequence& in : inputs) {
        const std::string& r = in.sequence->residues;
        const auto k = first_rejected(r, *forced);
        if (!k) continue;
        const unsigned char c = static_cast<unsigned char>(r[*k]);
        const std::string shown = std::isprint(c) ? std::string("'") + char(c) + "'" : "byte " + std::to_string(c);
        const std::string why = *forced == Alphabet::protein
                                    ? "is not a protein residue (--alphabet protein takes the letters A-Z and '*')"
                                    : "is not a nucleotide code (--alphabet " + given +
                                          " takes A C G T U, the IUPAC codes B D H K M N R S V W Y, and X)";
        return input_error(in.origin + ": record '" + in.sequence->name + "': position " + std::to_string(*k + 1) +
                           ": residue " + shown + " " + why);
    }
    return *forced;
}

namespace {

// The substitution scores into `s`: --match/--mismatch, or --matrix (default: the alphabet's).
Status substitution_from_args(const Args& a, Alphabet alphabet, ScoringOptions& s) {
    const bool mm = a.has("--match") || a.has("--mismatch");
    if (mm && a.has("--matrix")) return usage_error("give --matrix or --match/--mismatch, not both");
    if (mm) return Ok{};  // s.match and s.mismatch: algo_scoring_from_args
    std::string name = a.get("--matrix");
    if (name.empty()) name = alphabet == Alphabet::protein ? "BLOSUM62" : "NUC.4.4";
    auto m = load_matrix(name);
    if (!m) return m.error();
    s.matrix = *m;
    return Ok{};
}

}  // namespace

Status sequence_scoring_from_args(const Args& a, Algorithm algo, std::span<const NamedSequence> inputs,
                                  ScoringOptions& s) {
    auto alphabet = alphabet_from_args(a, inputs);
    if (!alphabet) return alphabet.error();
    if (!uses_substitution_matrix(algo)) return Ok{};
    return substitution_from_args(a, *alphabet, s);
}

Expected<Problem> sequence_problem(Algorithm algo, const NamedSequence& query, const NamedSequence& target,
                                   const ScoringOptions& s) {
    auto p = make_problem(algo, *query.sequence, *target.sequence, s);
    if (p || p.error().kind != ErrorKind::input) return p;
    // make_problem says "query: position K: ..." or "target: ...": the side, then the place.
    const std::string& msg = p.error().message;
    const NamedSequence& side = msg.rfind("query:", 0) == 0 ? query : target;
    return input_error(side.origin + ": record '" + side.sequence->name + "': " + msg.substr(msg.find(':') + 2));
}

}  // namespace dpviz::app
