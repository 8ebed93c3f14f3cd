// HMM files and observation sequences for Viterbi decoding: a line-by-line parser whose every
// error is "ORIGIN:LINE: problem", the writer that reads back exactly, and the observation reader.
//
// Index of this file
// [SECTION] Lines, tokens and messages
// [SECTION] Probabilities
// [SECTION] The HMM parser
// [SECTION] Writing
// [SECTION] Observations
// [SECTION] Public entry points

#include "hmm_file.hpp"
#include "text_util.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// [SECTION] Lines, tokens and messages
// ---------------------------------------------------------------------------------------------

// A byte that has no place in a text file: control characters other than blanks, and DEL.
bool is_binary(unsigned char c) { return (c < 0x20 && !is_blank(static_cast<char>(c)) && c != '\n') || c == 0x7f; }

// The first binary byte of a line, if any.
std::optional<unsigned char> binary_byte(std::string_view line) {
    for (const char c : line)
        if (is_binary(static_cast<unsigned char>(c))) return static_cast<unsigned char>(c);
    return std::nullopt;
}

std::string_view skip_bom(std::string_view text) { return text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text; }

// Splits text into lines (without the '\n'), counting from 1.
class Lines {
public:
    explicit Lines(std::string_view text) : rest_(text) {}
    bool next(std::string_view& line) {
        if (rest_.empty()) return false;
        const size_t nl = rest_.find('\n');
        line = rest_.substr(0, nl);
        rest_.remove_prefix(nl == std::string_view::npos ? rest_.size() : nl + 1);
        ++number_;
        return true;
    }
    size_t number() const { return number_; }

private:
    std::string_view rest_;
    size_t number_ = 0;
};


// "byte 0", or the character itself.
std::string show_byte(unsigned char c) {
    if (c >= 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
    return "byte " + std::to_string(c);
}

std::string show_double(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// "ecoli" for "/data/ecoli.txt".
std::string file_stem(const std::string& origin) {
    std::string base = fs::path(origin).filename().string();
    if (base.empty()) return origin;
    if (base.size() > 3 && base.ends_with(".gz")) base.resize(base.size() - 3);
    const auto dot = base.rfind('.');
    if (dot != std::string::npos && dot > 0) base.resize(dot);
    return base;
}

// The names of a list, for a message: "F L", or the first few and a count.
std::string listed(const std::vector<std::string>& names) {
    constexpr size_t kShown = 8;
    std::string s;
    for (size_t k = 0; k < names.size() && k < kShown; ++k) s += (s.empty() ? "" : " ") + names[k];
    if (names.size() > kShown) s += " ... (" + std::to_string(names.size()) + " in all)";
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Probabilities
// ---------------------------------------------------------------------------------------------

// A decimal that is the whole token ("0.95", "1e-3"); nothing for anything else.
std::optional<double> decimal(std::string_view s, bool& out_of_range) {
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
    if (s.empty() || ptr != s.data() + s.size() || ec == std::errc::invalid_argument) return std::nullopt;
    out_of_range = ec == std::errc::result_out_of_range;
    return v;
}

// A probability as written, a decimal or a fraction "a/b" of two decimals: the value, or why
// not (a phrase that follows the token in a message).
std::string parse_probability(std::string_view tok, double& out) {
    const size_t slash = tok.find('/');
    bool range_a = false, range_b = false;
    const auto a = decimal(tok.substr(0, slash), range_a);
    std::optional<double> b = 1.0;
    if (slash != std::string_view::npos) b = decimal(tok.substr(slash + 1), range_b);
    if (!a || !b) return "is not a number (a decimal such as 0.25, or a fraction such as 1/6)";
    if (range_a || range_b) return "is out of the range of a double";
    if (!std::isfinite(*a) || !std::isfinite(*b)) return "is not a finite number (NaN and infinity are not allowed)";
    if (*b == 0.0) return "divides by zero";
    out = *a / *b;
    if (out < 0.0 || *b < 0.0) return "is negative (values are probabilities, 0 to 1)";
    if (out > 1.0) return "is greater than 1 (values are probabilities, 0 to 1)";
    return "";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The HMM parser
// ---------------------------------------------------------------------------------------------

constexpr std::array<std::string_view, 5> kKeywords = {"states", "alphabet", "start", "transition", "emission"};

bool is_keyword(std::string_view s) { return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end(); }

bool is_state_name(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// Symbols are printable ASCII but for '#' (comments) and '>' (FASTA headers in observation files).
bool is_symbol(char c) { return c > 0x20 && c < 0x7f && c != '#' && c != '>'; }

// A transition or emission section: one row per state, in any order.
struct Table {
    std::string_view name;
    size_t line = 0;                // where its keyword is; 0 while not seen
    std::vector<double> values;     // states x columns
    std::vector<size_t> row_lines;  // per state: the line of its row, 0 while missing
};

class HmmParser {
public:
    explicit HmmParser(std::string origin) : origin_(std::move(origin)) {
        transition_.name = "transition";
        emission_.name = "emission";
    }

    Status line(size_t line_no, std::string_view text) {
        line_ = line_no;
        if (const auto c = binary_byte(text))
            return fail("binary data (" + show_byte(*c) + "): an HMM file is text");
        const std::string_view code = text.substr(0, text.find('#'));
        Tokens tokens(code);
        std::string_view first;
        if (!tokens.next(first)) return long_line(text);
        if (is_keyword(first)) section_ = nullptr;  // a keyword ends the rows of a section
        if (first == "states") {  // "too many states" says more than "too long": names first
            if (Status s = states_line(tokens); !s) return s;
            return long_line(text);
        }
        if (Status s = long_line(text); !s) return s;
        if (first == "alphabet") return alphabet_line(tokens);
        if (first == "start") return start_line(tokens);
        if (first == "transition") return section_line(transition_, tokens);
        if (first == "emission") return section_line(emission_, tokens);
        return row_line(first, tokens);
    }

    Expected<Hmm> finish(size_t last_line) {
        line_ = std::max<size_t>(last_line, 1);
        if (!states_line_ && !alphabet_line_ && !start_line_ && !transition_.line && !emission_.line)
            return fail("no model (the text is empty or only comments)");
        for (const auto& [seen, what] : {std::pair{states_line_, "states"}, std::pair{alphabet_line_, "alphabet"},
                                         std::pair{start_line_, "start"}, std::pair{transition_.line, "transition"},
                                         std::pair{emission_.line, "emission"}})
            if (!seen) return fail(std::string("no '") + what + "' section");
        for (const Table* t : {&transition_, &emission_})
            for (size_t k = 0; k < states_.size(); ++k)
                if (!t->row_lines[k])
                    return fail_at(t->line, "the " + std::string(t->name) + " section has no row for state '" +
                                                states_[k] + "'");
        auto m = make_hmm(file_name(), std::move(states_), std::move(alphabet_), std::move(start_),
                          std::move(transition_.values), std::move(emission_.values));
        if (!m) return fail(m.error().message);  // not reached: every check above is also make_hmm's
        return m;
    }

private:
    Error fail(const std::string& problem) const { return fail_at(line_, problem); }
    Error fail_at(size_t line, const std::string& problem) const {
        return input_error(origin_ + ":" + std::to_string(line) + ": " + problem);
    }

    std::string file_name() const {
        std::string name = fs::path(origin_).filename().string();
        return name.empty() ? origin_ : name;
    }

    Status long_line(std::string_view text) const {
        if (text.size() <= kMaxHmmLine) return Ok{};
        return fail("line longer than " + std::to_string(kMaxHmmLine >> 10) + " KiB, the line length limit");
    }

    // Records that the line `what` is here, once: `seen` is where it was, 0 for not yet.
    Status once(size_t& seen, const char* what) {
        if (seen)
            return fail(std::string("a second '") + what + "' line (the first is line " + std::to_string(seen) + ")");
        seen = line_;
        return Ok{};
    }

    Status needs(size_t seen, const char* what, const char* before) const {
        if (seen) return Ok{};
        return fail(std::string("'") + what + "' before the '" + before + "' line");
    }

    Status states_line(Tokens& tokens) {
        if (Status s = once(states_line_, "states"); !s) return s;
        std::string_view tok;
        while (tokens.next(tok)) {
            if (states_.size() == size_t(kMaxHmmStates))
                return fail("more than " + std::to_string(kMaxHmmStates) + " states, the limit");
            if (!is_state_name(tok))
                return fail("state name " + show_token(tok) + " is not letters, digits and '_'");
            if (tok.size() > kMaxHmmStateName)
                return fail("state name " + show_token(tok) + " is longer than " + std::to_string(kMaxHmmStateName) +
                            " characters");
            if (is_keyword(tok)) return fail("a state cannot be named '" + std::string(tok) + "' (a section keyword)");
            if (std::find(states_.begin(), states_.end(), tok) != states_.end())
                return fail("state '" + std::string(tok) + "' named twice");
            states_.emplace_back(tok);
        }
        if (states_.empty()) return fail("'states' lists no state names");
        return Ok{};
    }

    Status alphabet_line(Tokens& tokens) {
        if (Status s = once(alphabet_line_, "alphabet"); !s) return s;
        std::string_view tok;
        while (tokens.next(tok)) {
            if (tok.size() != 1)
                return fail("symbol " + show_token(tok) +
                            " is not a single character (symbols are separated by blanks)");
            if (!is_symbol(tok[0]))
                return fail("symbol " + show_token(tok) + " is not allowed (printable ASCII but '#' and '>')");
            if (alphabet_.find(tok[0]) != std::string::npos)
                return fail("symbol '" + std::string(tok) + "' listed twice");
            alphabet_ += tok[0];
        }
        if (alphabet_.empty()) return fail("'alphabet' lists no symbols");
        return Ok{};
    }

    // `count` probabilities summing to 1, into `out`; `what` names the row in messages and
    // column(k) the k-th value's state or symbol.
    template <class ColumnName>
    Status values(Tokens& tokens, const std::string& what, size_t count, ColumnName column, double* out) {
        std::string_view tok;
        size_t k = 0;
        double sum = 0.0;
        for (; tokens.next(tok); ++k) {
            if (k == count)
                return fail(what + " has more than " + std::to_string(count) + " values (one per " + column(-1) + ")");
            const std::string why = parse_probability(tok, out[k]);
            if (!why.empty()) return fail(what + ": value " + show_token(tok) + " for " + column(int(k)) + " " + why);
            sum += out[k];
        }
        if (k < count)
            return fail(what + " has " + std::to_string(k) + (k == 1 ? " value" : " values") + ", expected " +
                        std::to_string(count) + " (one per " + column(-1) + ")");
        if (std::abs(sum - 1.0) > kHmmRowTolerance)
            return fail(what + " sums to " + show_double(sum) + ", not 1 (each row must sum to 1 within 1e-6)");
        return Ok{};
    }

    // "state 'L'" for k >= 0; "state" for k < 0.
    auto state_column() const {
        return [this](int k) { return k < 0 ? std::string("state") : "state '" + states_[size_t(k)] + "'"; };
    }
    auto symbol_column() const {
        return [this](int k) {
            return k < 0 ? std::string("symbol") : "symbol '" + alphabet_.substr(size_t(k), 1) + "'";
        };
    }

    Status start_line(Tokens& tokens) {
        if (Status s = needs(states_line_, "start", "states"); !s) return s;
        if (Status s = once(start_line_, "start"); !s) return s;
        start_.assign(states_.size(), 0.0);
        return values(tokens, "start", states_.size(), state_column(), start_.data());
    }

    Status section_line(Table& t, Tokens& tokens) {
        const char* name = t.name.data();
        if (Status s = needs(states_line_, name, "states"); !s) return s;
        if (&t == &emission_)
            if (Status s = needs(alphabet_line_, name, "alphabet"); !s) return s;
        if (t.line)
            return fail("a second '" + std::string(t.name) + "' section (the first is line " + std::to_string(t.line) +
                        ")");
        std::string_view extra;
        if (tokens.next(extra))
            return fail("'" + std::string(t.name) + "' takes no values: one row per state follows, on its own line");
        t.line = line_;
        const size_t cols = &t == &emission_ ? alphabet_.size() : states_.size();
        t.values.assign(states_.size() * cols, 0.0);
        t.row_lines.assign(states_.size(), 0);
        section_ = &t;
        return Ok{};
    }

    Status row_line(std::string_view first, Tokens& tokens) {
        if (!section_)
            return fail(show_token(first) +
                        " is not a keyword (states, alphabet, start, transition, emission), and no 'transition' "
                        "or 'emission' section is open for a row");
        Table& t = *section_;
        const auto it = std::find(states_.begin(), states_.end(), first);
        if (it == states_.end())
            return fail("the " + std::string(t.name) + " row starts with " + show_token(first) +
                        ", which is not a state (states: " + listed(states_) + ")");
        const size_t row = size_t(it - states_.begin());
        if (t.row_lines[row])
            return fail("a second " + std::string(t.name) + " row for state '" + states_[row] +
                        "' (the first is line " + std::to_string(t.row_lines[row]) + ")");
        t.row_lines[row] = line_;
        const std::string what = std::string(t.name) + " row '" + states_[row] + "'";
        const bool emission = &t == &emission_;
        const size_t cols = emission ? alphabet_.size() : states_.size();
        double* out = t.values.data() + row * cols;
        return emission ? values(tokens, what, cols, symbol_column(), out)
                        : values(tokens, what, cols, state_column(), out);
    }

    std::string origin_;
    size_t line_ = 0;
    size_t states_line_ = 0, alphabet_line_ = 0, start_line_ = 0;
    std::vector<std::string> states_;
    std::string alphabet_;
    std::vector<double> start_;
    Table transition_, emission_;
    Table* section_ = nullptr;  // the section whose rows the next lines are
};

Status check_size(uint64_t size, const std::string& origin) {
    if (size <= kMaxHmmFileBytes) return Ok{};
    return resource_error(origin + ": larger than " + std::to_string(kMaxHmmFileBytes >> 20) +
                          " MiB, the HMM file size limit");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Writing
// ---------------------------------------------------------------------------------------------

// The shortest text that reads back as the same double.
std::string exact(double v) {
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, ptr) : show_double(v);
}

void append_row(std::string& out, const double* values, size_t n) {
    for (size_t k = 0; k < n; ++k) {
        out += ' ';
        out += exact(values[k]);
    }
    out += '\n';
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Observations
// ---------------------------------------------------------------------------------------------

// Reads a whole file, plain or gzip (zlib passes plain files through), at most max_bytes.
Expected<std::string> read_text(const std::string& path, uint64_t max_bytes) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return input_error(path + ": no such file");
    if (fs::is_directory(st)) return input_error(path + ": is a directory, not a file");
    struct GzCloser {
        void operator()(gzFile_s* g) const { gzclose(g); }
    };
    std::unique_ptr<gzFile_s, GzCloser> gz(gzopen(path.c_str(), "rb"));
    if (!gz) return input_error(path + ": cannot open");
    std::string text;
    char buf[1 << 16];
    for (;;) {
        const int n = gzread(gz.get(), buf, sizeof buf);
        if (n < 0) return input_error(path + ": read error or corrupt gzip data");
        if (n == 0) break;
        if (text.size() + size_t(n) > max_bytes)
            return resource_error(path + ": more than " + std::to_string(max_bytes) + " bytes, the input size limit");
        text.append(buf, size_t(n));
    }
    int err = Z_OK;
    gzerror(gz.get(), &err);
    if (err == Z_BUF_ERROR) return input_error(path + ": truncated gzip file (the compressed data ends early)");
    if (err != Z_OK) return input_error(path + ": read error or corrupt gzip data");
    return text;
}

// Picks a record as input.cpp's pick_record does: "" the first, a name, or a 1-based index
// (a name wins over an index).
Expected<ObservationRecord> pick(std::vector<ObservationRecord>& records, const std::string& which,
                                 const std::string& origin) {
    if (which.empty()) return std::move(records.front());
    for (auto& r : records)
        if (r.name == which) return std::move(r);
    size_t index = 0;
    const auto [ptr, ec] = std::from_chars(which.data(), which.data() + which.size(), index);
    if (ec == std::errc() && ptr == which.data() + which.size() && index >= 1 && index <= records.size())
        return std::move(records[index - 1]);
    return input_error(origin + ": no record " + show_token(which) + " (" + std::to_string(records.size()) +
                       (records.size() == 1 ? " record" : " records") + ", named or numbered from 1)");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Public entry points
// ---------------------------------------------------------------------------------------------

Expected<Hmm> parse_hmm(std::string_view text, const std::string& origin) {
    if (Status s = check_size(text.size(), origin); !s) return s.error();
    HmmParser parser(origin);
    Lines lines(skip_bom(text));
    std::string_view line;
    while (lines.next(line))
        if (Status s = parser.line(lines.number(), line); !s) return s.error();
    return parser.finish(lines.number());
}

Expected<Hmm> load_hmm(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return input_error(path + ": no such file");
    if (fs::is_directory(st)) return input_error(path + ": is a directory, not an HMM file");
    const uintmax_t size = fs::is_regular_file(st) ? fs::file_size(path, ec) : 0;
    if (!ec)
        if (Status s = check_size(size, path); !s) return s.error();
    std::ifstream in(path, std::ios::binary);
    if (!in) return input_error(path + ": cannot open");
    // In chunks, checking the limit as it goes: a file that is not regular (a pipe) has no size.
    std::string text;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (Status s = check_size(text.size(), path); !s) return s.error();
    }
    if (in.bad()) return input_error(path + ": read error");
    return parse_hmm(text, path);
}

std::string format_hmm(const Hmm& m) {
    const size_t S = m.states.size(), K = m.alphabet.size();
    std::string out = "# " + m.name + "\nstates";
    for (const auto& s : m.states) out += " " + s;
    out += "\nalphabet";
    for (const char c : m.alphabet) out += std::string(" ") + c;
    out += "\nstart";
    append_row(out, m.start.data(), S);
    out += "transition\n";
    for (size_t k = 0; k < S; ++k) {
        out += m.states[k];
        append_row(out, m.transition.data() + k * S, S);
    }
    out += "emission\n";
    for (size_t k = 0; k < S; ++k) {
        out += m.states[k];
        append_row(out, m.emission.data() + k * K, K);
    }
    return out;
}

Expected<ObservationRecord> parse_observations(std::string_view text, const std::string& origin,
                                               const std::string& which) {
    std::vector<ObservationRecord> records;
    bool fasta = false;
    Lines lines(skip_bom(text));
    std::string_view line;
    while (lines.next(line)) {
        if (const auto c = binary_byte(line))
            return input_error(origin + ":" + std::to_string(lines.number()) + ": binary data (" + show_byte(*c) +
                               "): observations are text");
        Tokens tokens(line);
        std::string_view first;
        if (!tokens.next(first) || first.front() == '#') continue;
        if (records.empty()) {
            fasta = first.front() == '>';
            if (!fasta) records.push_back({file_stem(origin), ""});
        }
        if (fasta && first.front() == '>') {
            Tokens header(line.substr(line.find('>') + 1));
            std::string_view name;
            records.push_back({header.next(name) ? std::string(name) : std::string(), ""});
            continue;
        }
        std::string& symbols = records.back().symbols;
        for (const char c : line.substr(0, line.find('#')))  // '#' is never a symbol: a comment
            if (!is_blank(c)) symbols += c;
    }
    if (records.empty()) return input_error(origin + ": no observations (the input is empty or only comments)");
    auto picked = pick(records, which, origin);
    if (picked && picked->symbols.empty())
        return input_error(origin +
                           (fasta ? ": record '" + picked->name + "' has no observations" : ": no observations"));
    return picked;
}

Expected<ObservationRecord> read_observations(const std::string& path, const std::string& which, uint64_t max_bytes) {
    auto text = read_text(path, max_bytes);
    if (!text) return text.error();
    return parse_observations(*text, path, which);
}

Expected<std::vector<uint8_t>> encode_observations(const Hmm& m, std::string_view symbols, const std::string& where) {
    std::array<int, 256> code;
    code.fill(-1);
    for (size_t k = 0; k < m.alphabet.size(); ++k) code[static_cast<unsigned char>(m.alphabet[k])] = int(k);
    for (int c = 'A'; c <= 'Z'; ++c) {  // a letter not in the alphabet reads as its other case
        const int lower = c - 'A' + 'a';
        if (code[c] < 0) code[c] = code[lower];
        else if (code[lower] < 0) code[lower] = code[c];
    }
    std::vector<uint8_t> out(symbols.size());
    for (size_t t = 0; t < symbols.size(); ++t) {
        const unsigned char c = static_cast<unsigned char>(symbols[t]);
        if (code[c] < 0) {
            const std::string shown = m.alphabet.size() <= 40 ? " (" + m.alphabet + ")" : "";
            return input_error(where + ": position " + std::to_string(t + 1) + ": symbol " + show_byte(c) +
                               " is not in the alphabet of " + m.name + shown);
        }
        out[t] = static_cast<uint8_t>(code[c]);
    }
    return out;
}

Expected<Problem> load_viterbi_problem(const std::string& model_path, const std::string& observations, bool literal,
                                       const std::string& record) {
    auto model = load_hmm(model_path);
    if (!model) return model.error();
    const std::string where = literal ? "observations" : observations;
    auto obs = literal ? parse_observations(observations, where, record) : read_observations(observations, record);
    if (!obs) return obs.error();
    auto codes = encode_observations(*model, obs->symbols, where);
    if (!codes) return codes.error();
    const SequenceInput named{obs->name.empty() ? where : obs->name, obs->symbols};
    return make_viterbi_problem(std::make_shared<const Hmm>(std::move(*model)), named, std::move(*codes));
}

}  // namespace dpviz::app
