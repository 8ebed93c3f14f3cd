// Sequence and signal readers: plain or gzip files read in bounded chunks through zlib, parsed
// by streaming state machines, so memory is the data kept plus one chunk and one short line.
//
// Index of this file
// [SECTION] Messages
// [SECTION] Reading bytes (plain or gzip, bounded)
// [SECTION] Sequence parser (FASTA, FASTQ, plain text)
// [SECTION] Record sinks and picking
// [SECTION] Signal parser
// [SECTION] Public entry points

#include "input.hpp"
#include "text_util.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// [SECTION] Messages
// ---------------------------------------------------------------------------------------------

// A byte as a message shows it: 'X' when printable ASCII, else "byte N".
std::string show_char(unsigned char c) {
    if (c >= 0x20 && c < 0x7f) return std::string("'") + char(c) + "'";
    return "byte " + std::to_string(c);
}


// "character '-'" or "byte 0", for "invalid ..." messages.
std::string describe_char(unsigned char c) {
    return (c >= 0x20 && c < 0x7f) ? "character " + show_char(c) : show_char(c);
}

// "1 field", "3 fields".
std::string count_of(uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string show_bytes(uint64_t n) {
    if (n >= (uint64_t(1) << 30) && n % (uint64_t(1) << 30) == 0) return std::to_string(n >> 30) + " GiB";
    if (n >= (uint64_t(1) << 20) && n % (uint64_t(1) << 20) == 0) return std::to_string(n >> 20) + " MiB";
    if (n >= (uint64_t(1) << 10) && n % (uint64_t(1) << 10) == 0) return std::to_string(n >> 10) + " KiB";
    return std::to_string(n) + " bytes";
}

// "ecoli" for "/data/ecoli.fa.gz": the name given to a plain-text record and to a signal.
std::string origin_stem(const std::string& origin) {
    std::string base = fs::path(origin).filename().string();
    if (base.empty()) base = origin;
    if (base.size() > 3 && base.ends_with(".gz")) base.resize(base.size() - 3);
    const auto dot = base.rfind('.');
    if (dot != std::string::npos && dot > 0) base.resize(dot);
    return base;
}

// A positive decimal integer that fits, or nothing.
std::optional<uint64_t> parse_index(std::string_view s) {
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading bytes (plain or gzip, bounded)
// ---------------------------------------------------------------------------------------------

constexpr size_t kChunkBytes = size_t(256) << 10;

using ChunkFn = std::function<Status(std::string_view)>;

struct GzCloser {
    void operator()(gzFile_s* g) const { gzclose(g); }
};

Error too_large(const std::string& path, uint64_t limit, bool gz) {
    return resource_error(path + (gz ? ": decompresses to more than " : ": larger than ") + show_bytes(limit) +
                          ", the input size limit");
}

// Hands the file's bytes to `fn` in chunks of kChunkBytes, decompressed when the file starts
// with the gzip magic bytes 1f 8b. zlib does both the detection and the decompression (a file
// without the magic is passed through as is), on a descriptor, so pipes such as <(zcat x.gz)
// work too. A truncated or corrupt stream is an input error, more than max_bytes a resource error.
Status read_chunks(const std::string& path, uint64_t max_bytes, const ChunkFn& fn) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return input_error(path + ": no such file");
    if (fs::is_directory(st)) return input_error(path + ": is a directory, not a file");

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return input_error(path + ": cannot open: " + std::strerror(errno));
    if (fs::is_regular_file(st)) {
        // A plain regular file's size is known up front: reject it before reading a byte of it.
        unsigned char magic[2] = {0, 0};
        const bool gzip = ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        const uintmax_t size = fs::file_size(path, ec);
        if (!gzip && !ec && size > max_bytes) {
            ::close(fd);
            return too_large(path, max_bytes, false);
        }
    }
    std::unique_ptr<gzFile_s, GzCloser> gz(gzdopen(fd, "rb"));
    if (!gz) {
        ::close(fd);
        return input_error(path + ": cannot open: out of memory");
    }
    gzbuffer(gz.get(), static_cast<unsigned>(kChunkBytes));
    std::unique_ptr<char[]> buf(new char[kChunkBytes]);
    uint64_t total = 0;
    for (;;) {
        const int n = gzread(gz.get(), buf.get(), static_cast<unsigned>(kChunkBytes));
        if (n > 0) {
            total += static_cast<uint64_t>(n);
            if (total > max_bytes) return too_large(path, max_bytes, gzdirect(gz.get()) == 0);
            if (Status s = fn(std::string_view(buf.get(), static_cast<size_t>(n))); !s) return s;
        }
        int err = Z_OK;
        const char* msg = gzerror(gz.get(), &err);
        if (err == Z_BUF_ERROR)  // zlib's "unexpected end of file": the stream stops mid-member
            return input_error(path + ": truncated gzip file (the compressed data ends early)");
        if (err == Z_ERRNO) return input_error(path + ": read error: " + std::strerror(errno));
        if (err != Z_OK) {
            std::string_view what = msg ? msg : "unknown zlib error";
            // zlib prefixes its name for the stream, "<fd:N>: "; the message names the path instead.
            if (const size_t end = what.find(">: "); what.starts_with("<fd:") && end != std::string_view::npos)
                what.remove_prefix(end + 3);
            return input_error(path + ": corrupt gzip data: " + std::string(what));
        }
        if (n < 0) return input_error(path + ": read error");
        if (n == 0) return Ok{};
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Sequence parser (FASTA, FASTQ, plain text)
// ---------------------------------------------------------------------------------------------

// Where parsed records go. begin() decides whether a record's residues are kept at all, so a
// caller that wants one record of a million stores one.
class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual Expected<bool> begin(uint64_t index, const std::string& name) = 0;  // index is 1-based
    virtual void end(SequenceRecord&& record) = 0;                               // kept records only
};

// What each byte means inside a sequence: the residue it stores (letters upper-cased, '*'),
// kSkip for digits and blanks, kStop for '\n' and for anything that is an error.
constexpr unsigned char kStop = 0;
constexpr unsigned char kSkip = 1;
struct ResidueTable {
    unsigned char code[256] = {};
    bool verbatim[256] = {};  // stored as is: upper-case letters and '*'
    constexpr ResidueTable() {
        for (int c = 'A'; c <= 'Z'; ++c) code[c] = static_cast<unsigned char>(c), verbatim[c] = true;
        verbatim[static_cast<unsigned char>('*')] = true;
        for (int c = 'a'; c <= 'z'; ++c) code[c] = static_cast<unsigned char>(c - 'a' + 'A');
        code[static_cast<unsigned char>('*')] = '*';
        for (int c = '0'; c <= '9'; ++c) code[c] = kSkip;
        for (const char c : {' ', '\t', '\r', '\v', '\f'}) code[static_cast<unsigned char>(c)] = kSkip;
    }
};
constexpr ResidueTable kResidues;

// One byte at a time, carrying its state across chunks: no line is buffered except header and
// FASTQ '+' lines (bounded by max_line). Format from the first non-blank byte. Internal steps
// return false after storing the error, which keeps the per-byte path free of Expected.
class SequenceParser {
public:
    SequenceParser(std::string origin, const ReadLimits& limits, RecordSink& sink)
        : origin_(std::move(origin)), limits_(limits), sink_(sink) {}

    Status feed(std::string_view chunk) {
        const auto* p = reinterpret_cast<const unsigned char*>(chunk.data());
        const size_t n = chunk.size();
        const uint64_t base = offset_;
        size_t i = 0;
        while (i < n) {
            if (state_ == State::residues) {  // the bulk of any file: a tight loop over one line
                while (i < n) {
                    size_t run = i;  // most bytes are upper-case residues: append them in runs
                    while (run < n && kResidues.verbatim[p[run]]) ++run;
                    if (run > i) {
                        if (keep_) current_.residues.append(chunk.data() + i, run - i);
                        residue_count_ += run - i;
                        i = run;
                        continue;
                    }
                    const unsigned char r = kResidues.code[p[i]];
                    if (r == kStop) break;
                    if (r != kSkip) {
                        if (keep_) current_.residues.push_back(static_cast<char>(r));
                        ++residue_count_;
                    }
                    ++i;
                }
                if (i == n) break;
            }
            offset_ = base + i;
            if (!step(p[i])) return std::move(*error_);
            ++i;
        }
        offset_ = base + n;
        return Ok{};
    }

    Status finish() {
        if (!finish_state()) return std::move(*error_);
        return Ok{};
    }

private:
    enum class Format { unknown, fasta, fastq, plain };
    enum class State {
        start,          // before the first non-blank byte
        fasta_line,     // at the start of a line inside a FASTA file
        comment,        // a FASTA ';' line
        header,         // after '>' or '@', up to the end of the line
        residues,       // sequence bytes (FASTA lines, the whole plain text, the FASTQ line)
        fq_plus_start,  // FASTQ: the line after the sequence must start with '+'
        fq_plus,        // FASTQ: the rest of the '+' line
        fq_quality,     // FASTQ: the quality line
        fq_start,       // FASTQ: between records
    };

    bool finish_state() {
        if (offset_ == 0) return fail(input_error(origin_ + ": empty input (no sequence)"));
        switch (state_) {
        case State::start:
            return fail(input_error(origin_ + ": no sequence (only blank lines)"));
        case State::header:
            if (!finish_header()) return false;
            if (format_ == Format::fastq) return truncated_fastq("its sequence, '+' and quality lines");
            return end_record();
        case State::fasta_line:
        case State::comment:
            return end_record();
        case State::residues:
            if (format_ == Format::fastq) return truncated_fastq("its '+' and quality lines");
            if (format_ == Format::plain && residue_count_ == 0)
                return fail(input_error(origin_ + ": no residues (only digits and whitespace)"));
            return end_record();
        case State::fq_plus_start:
        case State::fq_plus:
            return truncated_fastq("its quality line");
        case State::fq_quality:
            return end_fastq_record();
        case State::fq_start:
            return true;
        }
        return true;
    }

    bool step(unsigned char c) {
        switch (state_) {
        case State::start:
            if (c == '\n') return newline();
            if (is_blank(char(c))) return true;
            if (c == '>' || c == '@') {
                format_ = c == '>' ? Format::fasta : Format::fastq;
                return start_header();
            }
            format_ = Format::plain;
            if (!begin_record(origin_stem(origin_), "")) return false;
            state_ = State::residues;
            return residue(c);
        case State::fasta_line:
            if (c == '>') return end_record() && start_header();
            if (c == ';') {
                state_ = State::comment;
                return true;
            }
            if (c == '\n') return newline();
            state_ = State::residues;
            return residue(c);
        case State::comment:
            if (c == '\n') {
                state_ = State::fasta_line;
                return newline();
            }
            return true;
        case State::header:
            if (c == '\n') return finish_header() && newline();
            if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
                return fail(input_error(at_column() + ": invalid " + describe_char(c) + " in the header of record " +
                                        std::to_string(record_index_ + 1)));
            return buffer(c, "header");
        case State::residues:
            if (c == '\n') {
                if (format_ == Format::fasta) state_ = State::fasta_line;
                if (format_ == Format::fastq) state_ = State::fq_plus_start;
                return newline();
            }
            return residue(c);
        case State::fq_plus_start:
            if (c != '+')
                return fail(input_error(at_line() + ": expected the '+' line of " + record_label() + ", found " +
                                        (c == '\n' ? std::string("an empty line") : show_char(c)) +
                                        " (FASTQ records are 4 lines; multi-line sequences are not supported)"));
            line_buf_.clear();
            state_ = State::fq_plus;
            return true;
        case State::fq_plus:
            if (c == '\n') {
                const std::string_view repeated = trim(line_buf_);
                if (!repeated.empty() && repeated != header_text_)
                    return fail(input_error(at_line() + ": the '+' line of " + record_label() +
                                            " names a different record: " + show_token(repeated)));
                quality_count_ = 0;
                state_ = State::fq_quality;
                return newline();
            }
            return buffer(c, "'+'");
        case State::fq_quality:
            if (c == '\n') {
                state_ = State::fq_start;
                return end_fastq_record() && newline();
            }
            if (c == '\r') return true;
            if (c < 33 || c > 126)
                return fail(input_error(at_column() + ": invalid quality " + describe_char(c) + " in " +
                                        record_label()));
            ++quality_count_;
            return true;
        case State::fq_start:
            if (c == '\n') return newline();
            if (is_blank(char(c))) return true;
            if (c == '@') return start_header();
            return fail(input_error(at_column() + ": expected '@' to start FASTQ record " +
                                    std::to_string(record_index_ + 1) + ", found " + show_char(c)));
        }
        return true;
    }

    // Only the bytes the fast loop in feed() stops at arrive here (and a plain file's first byte).
    bool residue(unsigned char c) {
        const unsigned char r = kResidues.code[c];
        if (r == kSkip) return true;
        if (r != kStop) {
            if (keep_) current_.residues.push_back(static_cast<char>(r));
            ++residue_count_;
            return true;
        }
        const char* hint = (c == '-' || c == '.')
                               ? "; gaps are not allowed in input sequences"
                               : "; a sequence holds letters and '*' (digits and whitespace are skipped)";
        return fail(input_error(at_column() + ": invalid " + describe_char(c) + " in the sequence of " +
                                record_label() + hint));
    }

    bool buffer(unsigned char c, const char* what) {
        if (line_buf_.size() >= limits_.max_line)
            return fail(input_error(at_line() + ": " + what + " line longer than " + show_bytes(limits_.max_line) +
                                       ", the line length limit"));
        line_buf_.push_back(static_cast<char>(c));
        return true;
    }

    bool newline() {
        ++line_;
        line_start_ = offset_ + 1;
        return true;
    }

    bool start_header() {
        line_buf_.clear();
        state_ = State::header;
        return true;
    }

    // Name = first word, description = the rest (both without surrounding blanks).
    bool finish_header() {
        const std::string_view text = trim(line_buf_);
        size_t end = 0;
        while (end < text.size() && !is_blank(text[end])) ++end;
        if (format_ == Format::fastq) header_text_.assign(text);
        if (!begin_record(std::string(text.substr(0, end)), std::string(trim(text.substr(end))))) return false;
        state_ = format_ == Format::fastq ? State::residues : State::fasta_line;
        return true;
    }

    bool begin_record(std::string name, std::string description) {
        ++record_index_;
        current_ = SequenceRecord{std::move(name), std::move(description), {}};
        residue_count_ = 0;
        Expected<bool> keep = sink_.begin(record_index_, current_.name);
        if (!keep) return fail(keep.error());
        keep_ = *keep;
        return true;
    }

    bool end_record() {
        if (keep_) sink_.end(std::move(current_));
        keep_ = false;
        return true;
    }

    bool end_fastq_record() {
        if (quality_count_ != residue_count_)
            return fail(input_error(at_line() + ": the quality line of " + record_label() + " has " +
                                    count_of(quality_count_, "character", "characters") + ", its sequence " +
                                    std::to_string(residue_count_)));
        return end_record();
    }

    bool truncated_fastq(const char* missing) {
        return fail(input_error(at_line() + ": " + record_label() + " is truncated: the input ends before " + missing));
    }

    bool fail(Error e) {
        error_ = std::move(e);
        return false;
    }

    std::string record_label() const {
        std::string s = "record " + std::to_string(record_index_);
        if (!current_.name.empty()) s += " " + show_token(current_.name);
        return s;
    }
    std::string at_line() const { return origin_ + ":" + std::to_string(line_); }
    std::string at_column() const { return at_line() + ":" + std::to_string(offset_ - line_start_ + 1); }

    const std::string origin_;
    const ReadLimits limits_;
    RecordSink& sink_;
    Format format_ = Format::unknown;
    State state_ = State::start;
    uint64_t offset_ = 0;      // offset of the byte being looked at (after feed: bytes consumed)
    uint64_t line_ = 1;        // 1-based line of that byte
    uint64_t line_start_ = 0;  // offset of that line's first byte
    uint64_t record_index_ = 0;
    SequenceRecord current_;   // name and description always; residues only when kept
    bool keep_ = false;
    uint64_t residue_count_ = 0;
    uint64_t quality_count_ = 0;
    std::string line_buf_;     // the header or '+' line being read
    std::string header_text_;  // FASTQ: what a non-empty '+' line must repeat
    std::optional<Error> error_;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Record sinks and picking
// ---------------------------------------------------------------------------------------------

class CollectSink final : public RecordSink {
public:
    CollectSink(std::string origin, uint64_t max_records) : origin_(std::move(origin)), max_records_(max_records) {}
    Expected<bool> begin(uint64_t index, const std::string&) override {
        if (index > max_records_)
            return resource_error(origin_ + ": more than " + std::to_string(max_records_) +
                                  " records, the limit for listing a file; pick one record by name or index");
        return true;
    }
    void end(SequenceRecord&& r) override { records.push_back(std::move(r)); }
    std::vector<SequenceRecord> records;

private:
    std::string origin_;
    uint64_t max_records_;
};

// How records are chosen, shared by pick_record and the one-pass read_record.
struct Choice {
    std::string name;                // "" = none
    std::optional<uint64_t> index;   // 1-based
    static Choice from(const std::string& which) {
        if (which.empty()) return {"", 1};
        return {which, parse_index(which)};
    }
};

Error no_record(const std::string& origin, const std::string& which, const Choice& choice, uint64_t count,
                const std::vector<std::string>& first_names) {
    const std::string records = std::to_string(count) + (count == 1 ? " record" : " records");
    if (choice.index && *choice.index == 0) return usage_error(origin + ": record indices start at 1 (" + records + ")");
    if (choice.index)
        return input_error(origin + ": record " + std::to_string(*choice.index) + " requested, but there " +
                           (count == 1 ? "is " : "are ") + records);
    std::string names;
    for (const auto& n : first_names) names += (names.empty() ? "" : ", ") + show_token(n);
    if (count > first_names.size()) names += ", ...";
    return input_error(origin + ": no record named " + show_token(which) + " (" + records +
                       (names.empty() ? "" : ": " + names) + ")");
}

Expected<SequenceRecord> checked_pick(SequenceRecord record, uint64_t index, const std::string& origin) {
    if (record.residues.empty())
        return input_error(origin + ": record " + std::to_string(index) +
                           (record.name.empty() ? "" : " " + show_token(record.name)) + " has no residues");
    return record;
}

constexpr size_t kNamesShown = 5;

// Keeps the first record with the wanted name and the record at the wanted index, nothing else.
class PickSink final : public RecordSink {
public:
    explicit PickSink(const Choice& choice) : choice_(choice) {}
    Expected<bool> begin(uint64_t index, const std::string& name) override {
        count = index;
        if (names.size() < kNamesShown) names.push_back(name);
        pending_index_ = index;
        pending_is_name_ = !by_name && !choice_.name.empty() && name == choice_.name;
        pending_is_index_ = choice_.index && *choice_.index == index;
        return pending_is_name_ || pending_is_index_;
    }
    void end(SequenceRecord&& r) override {
        // A record that is both the name match and the index match is needed only as the
        // name match: a name wins over an index.
        if (pending_is_name_) by_name = {std::move(r), pending_index_};
        else by_index = {std::move(r), pending_index_};
    }
    std::optional<std::pair<SequenceRecord, uint64_t>> by_name, by_index;
    uint64_t count = 0;
    std::vector<std::string> names;

private:
    Choice choice_;
    uint64_t pending_index_ = 0;
    bool pending_is_name_ = false, pending_is_index_ = false;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Signal parser
// ---------------------------------------------------------------------------------------------

// Splits a chunked byte stream into lines (without the '\n'); only a line that straddles two
// chunks is copied, and never beyond max_line.
class LineSplitter {
public:
    using LineFn = std::function<Status(uint64_t line_no, std::string_view line)>;
    LineSplitter(std::string origin, uint64_t max_line, LineFn fn)
        : origin_(std::move(origin)), max_line_(max_line), fn_(std::move(fn)) {}

    Status feed(std::string_view chunk) {
        while (!chunk.empty()) {
            const size_t nl = chunk.find('\n');
            const std::string_view piece = chunk.substr(0, nl);
            if (partial_.size() + piece.size() > max_line_)
                return input_error(origin_ + ":" + std::to_string(line_) + ": line longer than " +
                                      show_bytes(max_line_) + ", the line length limit");
            if (nl == std::string_view::npos) {
                partial_.append(piece);
                return Ok{};
            }
            Status s = Ok{};
            if (partial_.empty()) {
                s = fn_(line_, piece);
            } else {
                partial_.append(piece);
                s = fn_(line_, partial_);
                partial_.clear();
            }
            if (!s) return s;
            ++line_;
            chunk.remove_prefix(nl + 1);
        }
        return Ok{};
    }
    Status finish() { return partial_.empty() ? Status(Ok{}) : fn_(line_, partial_); }

private:
    std::string origin_;
    uint64_t max_line_;
    LineFn fn_;
    std::string partial_;
    uint64_t line_ = 1;
};

enum class Separator { comma, tab, blanks };

// Calls fn(field) for each field of a line; comma and tab fields are trimmed, blank-separated
// fields are the runs of non-blank bytes. Returns the number of fields.
template <class Fn>
size_t for_each_field(std::string_view line, Separator sep, Fn&& fn) {
    size_t count = 0;
    if (sep == Separator::blanks) {
        Tokens tokens(line);
        for (std::string_view tok; tokens.next(tok);) fn(count++, tok);
        return count;
    }
    const char delim = sep == Separator::comma ? ',' : '\t';
    for (;;) {
        const size_t d = line.find(delim);
        fn(count++, trim(line.substr(0, d)));
        if (d == std::string_view::npos) return count;
        line.remove_prefix(d + 1);
    }
}

enum class NumberStatus { ok, empty, not_a_number, not_finite, out_of_range };

// Strict: the whole field must be the number (an optional leading '+' is allowed).
NumberStatus parse_number(std::string_view s, double& out) {
    if (s.empty()) return NumberStatus::empty;
    if (s.front() == '+' && s.size() > 1 && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::general);
    if (ec == std::errc::result_out_of_range) return NumberStatus::out_of_range;
    if (ec != std::errc() || ptr != s.data() + s.size()) return NumberStatus::not_a_number;
    if (!std::isfinite(out)) return NumberStatus::not_finite;
    return NumberStatus::ok;
}

class SignalParser {
public:
    SignalParser(std::string origin, std::string column, uint64_t max_values)
        : origin_(std::move(origin)), column_(std::move(column)), max_values_(max_values) {}

    Status line(uint64_t line_no, std::string_view text) {
        if (const size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
        if (trim(text).empty()) return Ok{};
        if (fields_ == 0) {
            if (Status s = first_line(line_no, text); !s) return s;
            if (header_line_ == line_no) return Ok{};
        }
        return data_line(line_no, text);
    }

    Expected<SignalInput> finish() {
        if (fields_ == 0) return input_error(origin_ + ": no values (the input is empty or only comments)");
        if (values_.empty()) return input_error(origin_ + ": no values in " + column_label() + " (header only)");
        std::string name = origin_stem(origin_);
        if (fields_ > 1) name += ":" + (header_.empty() ? std::to_string(chosen_ + 1) : header_[chosen_]);
        return SignalInput{std::move(name), std::move(values_)};
    }

private:
    // Decides the separator, whether this is a header, and the column.
    Status first_line(uint64_t line_no, std::string_view text) {
        sep_ = text.find(',') != std::string_view::npos    ? Separator::comma
               : text.find('\t') != std::string_view::npos ? Separator::tab
                                                           : Separator::blanks;
        std::vector<std::string> fields;
        bool any_number = false, any_text = false;
        fields_ = for_each_field(text, sep_, [&](size_t, std::string_view f) {
            double v = 0;
            const NumberStatus st = parse_number(f, v);
            any_number = any_number || st == NumberStatus::ok || st == NumberStatus::not_finite ||
                         st == NumberStatus::out_of_range;
            any_text = any_text || st == NumberStatus::not_a_number;
            fields.emplace_back(f);
        });
        first_data_line_ = line_no;
        if (any_text && !any_number) {
            header_ = std::move(fields);
            header_line_ = line_no;
        }
        return choose_column();
    }

    Status choose_column() {
        const std::string count = std::to_string(fields_) + " columns";
        if (column_.empty()) {
            if (fields_ == 1) return Ok{};
            std::string names;
            if (!header_.empty())
                for (const auto& h : header_) names += (names.empty() ? " (" : ", ") + show_token(h);
            return usage_error(origin_ + ": " + count + (names.empty() ? "" : names + ")") +
                               "; choose one with --column NAME or --column INDEX (1-based)");
        }
        for (size_t k = 0; k < header_.size(); ++k) {
            if (header_[k] == column_) {
                chosen_ = k;
                return Ok{};
            }
        }
        if (const auto idx = parse_index(column_)) {
            if (*idx >= 1 && *idx <= fields_) {
                chosen_ = static_cast<size_t>(*idx - 1);
                return Ok{};
            }
            return input_error(origin_ + ": column " + column_ + " requested, but there " +
                               (fields_ == 1 ? "is 1 column" : "are " + count));
        }
        if (header_.empty())
            return usage_error(origin_ + ": no header line, so column " + show_token(column_) +
                               " can only be chosen by its 1-based index (" + count + ")");
        return input_error(origin_ + ": no column named " + show_token(column_) + " in the header on line " +
                           std::to_string(header_line_));
    }

    Status data_line(uint64_t line_no, std::string_view text) {
        std::string_view picked;
        const size_t n = for_each_field(text, sep_, [&](size_t k, std::string_view f) {
            if (k == chosen_) picked = f;
        });
        const std::string where = origin_ + ":" + std::to_string(line_no) + ": ";
        if (n != fields_)
            return input_error(where + count_of(n, "field", "fields") + ", expected " + std::to_string(fields_) +
                               " as on line " + std::to_string(first_data_line_));
        double v = 0;
        switch (parse_number(picked, v)) {
        case NumberStatus::ok:
            if (values_.size() >= max_values_)
                return resource_error(where + "more than " + std::to_string(max_values_) +
                                      " values, the limit for one signal");
            values_.push_back(v);
            return Ok{};
        case NumberStatus::empty:
            return input_error(where + column_label() + ": empty value");
        case NumberStatus::not_a_number:
            return input_error(where + column_label() + ": " + show_token(picked) + " is not a number");
        case NumberStatus::not_finite:
            return input_error(where + column_label() + ": " + show_token(picked) +
                               " is not a finite number (NaN and infinity are not allowed)");
        case NumberStatus::out_of_range:
            return input_error(where + column_label() + ": " + show_token(picked) + " is out of the range of a double");
        }
        return Ok{};
    }

    std::string column_label() const {
        std::string s = "column " + std::to_string(chosen_ + 1);
        if (!header_.empty()) s += " " + show_token(header_[chosen_]);
        return s;
    }

    std::string origin_;
    std::string column_;
    Separator sep_ = Separator::blanks;
    size_t fields_ = 0;  // fields per line, from the first line; 0 until it is read
    size_t chosen_ = 0;
    std::vector<std::string> header_;
    uint64_t header_line_ = 0;
    uint64_t first_data_line_ = 0;
    uint64_t max_values_;
    std::vector<double> values_;
};

// A UTF-8 byte-order mark (EF BB BF; Excel's "CSV UTF-8", Notepad) at the start of the input is
// not part of the data: the first chunk drops it. (Chunks are kChunkBytes, so a mark is never
// split between two unless the whole input is shorter than the mark.)
std::string_view skip_bom(std::string_view first) {
    return first.starts_with("\xEF\xBB\xBF") ? first.substr(3) : first;
}

// Runs `parser` over a file or a string: the two differ only in where the chunks come from.
template <class Parser>
Status run_over_file(const std::string& path, const ReadLimits& limits, Parser& parser) {
    bool first = true;
    return read_chunks(path, limits.max_bytes, [&](std::string_view chunk) {
        if (std::exchange(first, false)) chunk = skip_bom(chunk);
        return parser.feed(chunk);
    });
}

Status check_text_size(const std::string& text, const std::string& origin, const ReadLimits& limits) {
    if (text.size() > limits.max_bytes) return too_large(origin, limits.max_bytes, false);
    return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Public entry points
// ---------------------------------------------------------------------------------------------

Expected<std::vector<SequenceRecord>> read_sequences(const std::string& path, const ReadLimits& limits) {
    CollectSink sink(path, limits.max_records);
    SequenceParser parser(path, limits, sink);
    if (Status s = run_over_file(path, limits, parser); !s) return s.error();
    if (Status s = parser.finish(); !s) return s.error();
    return std::move(sink.records);
}

Expected<std::vector<SequenceRecord>> parse_sequences(const std::string& text, const std::string& origin,
                                                      const ReadLimits& limits) {
    if (Status s = check_text_size(text, origin, limits); !s) return s.error();
    CollectSink sink(origin, limits.max_records);
    SequenceParser parser(origin, limits, sink);
    if (Status s = parser.feed(skip_bom(text)); !s) return s.error();
    if (Status s = parser.finish(); !s) return s.error();
    return std::move(sink.records);
}

Expected<SequenceRecord> pick_record(const std::vector<SequenceRecord>& records, const std::string& which,
                                     const std::string& origin) {
    if (records.empty()) return input_error(origin + ": no records");
    const Choice choice = Choice::from(which);
    if (!choice.name.empty()) {
        for (size_t k = 0; k < records.size(); ++k)
            if (records[k].name == choice.name) return checked_pick(records[k], k + 1, origin);
    }
    if (choice.index && *choice.index >= 1 && *choice.index <= records.size())
        return checked_pick(records[*choice.index - 1], *choice.index, origin);
    std::vector<std::string> names;
    for (size_t k = 0; k < records.size() && k < kNamesShown; ++k) names.push_back(records[k].name);
    return no_record(origin, which, choice, records.size(), names);
}

Expected<SequenceRecord> read_record(const std::string& path, const std::string& which, const ReadLimits& limits) {
    const Choice choice = Choice::from(which);
    PickSink sink(choice);
    SequenceParser parser(path, limits, sink);
    if (Status s = run_over_file(path, limits, parser); !s) return s.error();
    if (Status s = parser.finish(); !s) return s.error();
    if (sink.by_name) return checked_pick(std::move(sink.by_name->first), sink.by_name->second, path);
    if (sink.by_index) return checked_pick(std::move(sink.by_index->first), sink.by_index->second, path);
    return no_record(path, which, choice, sink.count, sink.names);
}

Expected<SignalInput> read_signal(const std::string& path, const std::string& column, const ReadLimits& limits) {
    SignalParser parser(path, column, limits.max_values);
    LineSplitter lines(path, limits.max_line,
                       [&](uint64_t n, std::string_view line) { return parser.line(n, line); });
    if (Status s = run_over_file(path, limits, lines); !s) return s.error();
    if (Status s = lines.finish(); !s) return s.error();
    return parser.finish();
}

Expected<SignalInput> parse_signal(const std::string& text, const std::string& origin, const std::string& column,
                                   const ReadLimits& limits) {
    if (Status s = check_text_size(text, origin, limits); !s) return s.error();
    SignalParser parser(origin, column, limits.max_values);
    LineSplitter lines(origin, limits.max_line,
                       [&](uint64_t n, std::string_view line) { return parser.line(n, line); });
    if (Status s = lines.feed(skip_bom(text)); !s) return s.error();
    if (Status s = lines.finish(); !s) return s.error();
    return parser.finish();
}

}  // namespace dpviz::app
