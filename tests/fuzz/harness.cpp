// The fuzz harnesses and the checks they share: no exception, one-line error messages, the
// invariants of parsed values, string/file/gzip agreement, reference/CPU-backend agreement.
//
// Index of this file
// [SECTION] Findings and shared checks
// [SECTION] Inputs as files (memfd), gzip-compressed or padded
// [SECTION] Small alignments: the reference against the CPU backend
// [SECTION] Sequences
// [SECTION] Signals
// [SECTION] Substitution matrices
// [SECTION] HMM models and observations
// [SECTION] Command line
// [SECTION] Registry

#include "harness.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <typeinfo>

#include "cli.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "hmm_file.hpp"
#include "input.hpp"
#include "matrix_file.hpp"

namespace dpviz::fuzz {
namespace {

namespace fs = std::filesystem;
using app::ReadLimits;
using app::SequenceRecord;

// Inputs are cut to at most 64 residues or samples a side before they are aligned: a 64 x 64
// matrix costs little next to parsing, so the engine sees parsed values at fuzzing speed.
constexpr size_t kMaxSide = 64;

// The readers' chunk size (kChunkBytes in app/input.cpp). Padding an input to just below it puts
// a chunk boundary inside the fuzzed bytes; if the readers' chunk size changes, the padded runs
// still compare two readings of the same bytes, only at another boundary.
constexpr size_t kReaderChunk = size_t(256) << 10;

// ---------------------------------------------------------------------------------------------
// [SECTION] Findings and shared checks
// ---------------------------------------------------------------------------------------------

// FNV-1a. The harnesses derive their own choices (algorithm, column, band, ...) from the input,
// so a saved input replays exactly the run that found something.
uint64_t fingerprint(std::string_view s) {
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Bytes as a finding shows them: printable ASCII as is, others as \xNN, at most `limit` bytes.
std::string printable(std::string_view s, size_t limit = 160) {
    std::string out;
    for (size_t i = 0; i < s.size() && i < limit; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += char(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    if (s.size() > limit) out += "...(" + std::to_string(s.size()) + " bytes)";
    return out;
}

// Where two canonical strings first differ, with some context on both sides.
std::string first_difference(const std::string& a, const std::string& b) {
    size_t k = 0;
    while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
    const size_t from = k > 40 ? k - 40 : 0;
    return "at byte " + std::to_string(k) + ": \"" + printable(std::string_view(a).substr(from), 120) + "\" vs \"" +
           printable(std::string_view(b).substr(from), 120) + "\"";
}

std::string canonical(const Error& e) { return "error(kind " + std::to_string(int(e.kind)) + ") " + e.message; }
std::string canonical(const SequenceRecord& r) {
    return r.name + '\x1f' + r.description + '\x1f' + r.residues + '\x1e';
}
std::string canonical(const std::vector<SequenceRecord>& records) {
    std::string s = std::to_string(records.size()) + " records: ";
    for (const auto& r : records) s += canonical(r);
    return s;
}
std::string canonical(const SignalInput& sig) {
    std::string s = "signal " + sig.name + '\x1f' + std::to_string(sig.values.size()) + " values ";
    s.append(reinterpret_cast<const char*>(sig.values.data()), sig.values.size() * sizeof(double));
    return s;
}
std::string canonical(const SubstitutionMatrix& m) {
    std::string s = "matrix " + m.name + '\x1f' + m.alphabet + '\x1f';
    s.append(reinterpret_cast<const char*>(m.scores.data()), m.scores.size() * sizeof(int32_t));
    return s;
}
std::string canonical(const Hmm& m) {
    std::string s = "hmm " + m.name + '\x1f' + m.alphabet + '\x1f';
    for (const auto& n : m.states) s += n + '\x1e';
    for (const auto* v : {&m.start, &m.transition, &m.emission})
        s.append(reinterpret_cast<const char*>(v->data()), v->size() * sizeof(double));
    return s;
}

template <class T>
std::string canonical(const Expected<T>& r) {
    return r ? "value " + canonical(*r) : canonical(r.error());
}

class Checker {
public:
    Findings findings;

    void add(std::string finding) { findings.push_back(std::move(finding)); }

    // Runs `fn`; an exception is a finding (every fallible call returns an error instead).
    template <class Fn>
    auto call(const std::string& what, Fn&& fn) -> std::optional<decltype(fn())> {
        try {
            return fn();
        } catch (const std::exception& e) {
            add(what + " threw " + typeid(e).name() + ": " + printable(e.what()));
        } catch (...) {
            add(what + " threw a non-std exception");
        }
        return std::nullopt;
    }

    // An error is one non-empty line: the CLI prints it after "dpviz: ", the GUI in a status bar.
    void message(const std::string& what, const Error& e) {
        if (e.message.empty()) add(what + ": error (kind " + std::to_string(int(e.kind)) + ") with an empty message");
        if (e.message.find_first_of("\r\n") != std::string::npos)
            add(what + ": error message is not one line: \"" + printable(e.message) + "\"");
    }

    template <class T>
    void same(const std::string& what_a, const Expected<T>& a, const std::string& what_b, const Expected<T>& b) {
        const std::string ca = canonical(a), cb = canonical(b);
        if (ca != cb) add(what_a + " and " + what_b + " disagree " + first_difference(ca, cb));
    }
};

bool is_gzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Inputs as files (memfd), gzip-compressed or padded
// ---------------------------------------------------------------------------------------------

[[noreturn]] void harness_failure(const char* what) {
    std::fprintf(stderr, "dpviz fuzz harness: %s: %s\n", what, std::strerror(errno));
    std::abort();
}

// The bytes as a file that lives in memory only: the readers open it by its /proc path, so
// they run exactly as on a disk file (stat, size check, zlib on a descriptor).
class MemFile {
public:
    explicit MemFile(std::string_view bytes) {
        fd_ = ::memfd_create("dpviz-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) harness_failure("memfd_create");
        path_ = "/proc/self/fd/" + std::to_string(fd_);
        replace(bytes);
    }
    ~MemFile() { ::close(fd_); }
    MemFile(const MemFile&) = delete;
    MemFile& operator=(const MemFile&) = delete;

    // New content under the same path, so error messages (which name the path) stay comparable.
    void replace(std::string_view bytes) {
        if (::ftruncate(fd_, 0) != 0) harness_failure("ftruncate");
        size_t done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
            if (n <= 0) harness_failure("pwrite");
            done += static_cast<size_t>(n);
        }
    }
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// A gzip member (fastest level: the point is the reader's inflate path, not the ratio).
std::string gzip(std::string_view bytes) {
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) harness_failure("deflateInit2");
    std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) harness_failure("deflate");
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// `bytes` after enough blank lines that the readers' first chunk ends inside `bytes`, at an
// offset the input picks. Both readers skip leading blank lines, so this is the same input.
// The lines are 1 KiB of spaces: few lines keep the signal reader's per-line work small.
std::string padded(std::string_view bytes, uint64_t h) {
    const size_t cut = bytes.empty() ? 0 : static_cast<size_t>(h % (bytes.size() + 1));
    std::string s(kReaderChunk - cut, ' ');
    for (size_t k = s.size(); k > 0; k -= std::min<size_t>(k, 1024)) s[k - 1] = '\n';
    s.append(bytes);
    return s;
}

// Whether this input also goes through the file readers. A file read allocates buffers of the
// reader's chunk size, which ASan maps and unmaps every time (about 5 ms in a VM), while the
// string parsers take microseconds; the file path adds little that depends on the bytes (the
// parser is the same) except for gzip input. So: every gzip input, one input in 32 otherwise.
bool reads_files(std::string_view bytes, uint64_t h) { return is_gzip(bytes) || h % 32 == 0; }

// ---------------------------------------------------------------------------------------------
// [SECTION] Small alignments: the reference against the CPU backend
// ---------------------------------------------------------------------------------------------

std::string describe(const Problem& p) {
    std::ostringstream o;
    o << algorithm_name(p.algo) << " " << p.rows() << " x " << p.cols();
    if (p.algo == Algorithm::dtw) {
        o << ", cost " << dtw_cost_name(p.dtw_cost) << ", band " << p.band << ", scale " << p.dtw_scale;
    } else {
        o << ", matrix " << p.matrix.name << " over '" << printable(p.matrix.alphabet, 40) << "'";
        if (uses_gap_penalties(p.algo)) o << ", gaps " << p.gaps.open << "/" << p.gaps.extend;
        o << ", query '" << printable(p.query, 64) << "', target '" << printable(p.target, 64) << "'";
    }
    return o.str();
}

template <class T>
std::string grid_difference(const char* name, const Grid<T>& a, const Grid<T>& b) {
    if (a.rows != b.rows || a.cols != b.cols || a.data.size() != b.data.size())
        return std::string(name) + " shape " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " vs " +
               std::to_string(b.rows) + "x" + std::to_string(b.cols);
    for (size_t k = 0; k < a.data.size(); ++k)
        if (a.data[k] != b.data[k])
            return std::string(name) + "[" + std::to_string(k / size_t(a.cols)) + "][" +
                   std::to_string(k % size_t(a.cols)) + "] " + std::to_string(int64_t(a.data[k])) + " vs " +
                   std::to_string(int64_t(b.data[k]));
    return "";
}

std::string result_difference(const DpResult& ref, const DpResult& cpu) {
    if (ref.score != cpu.score) return "score " + std::to_string(ref.score) + " vs " + std::to_string(cpu.score);
    if (ref.end != cpu.end)
        return "end (" + std::to_string(ref.end.i) + "," + std::to_string(ref.end.j) + ") vs (" +
               std::to_string(cpu.end.i) + "," + std::to_string(cpu.end.j) + ")";
    for (const std::string& d : {grid_difference("H", ref.H, cpu.H), grid_difference("E", ref.E, cpu.E),
                                 grid_difference("F", ref.F, cpu.F), grid_difference("dirs", ref.dirs, cpu.dirs)})
        if (!d.empty()) return d;
    if (ref.path != cpu.path)
        return "path of " + std::to_string(ref.path.size()) + " vs " + std::to_string(cpu.path.size()) + " cells";
    if (ref.alignment.cigar != cpu.alignment.cigar)
        return "cigar " + ref.alignment.cigar + " vs " + cpu.alignment.cigar;
    return "";
}

// The path is a chain of single moves that ends at the end cell, all inside the matrix.
std::string path_problem(const Problem& p, const DpResult& r) {
    const int M = p.rows(), N = p.cols();
    if (r.end.i < 0 || r.end.i > M || r.end.j < 0 || r.end.j > N) return "end cell outside the matrix";
    if (r.path.empty()) return "";
    if (r.path.back() != r.end) return "path does not end at the end cell";
    for (size_t k = 0; k < r.path.size(); ++k) {
        const Cell c = r.path[k];
        if (c.i < 0 || c.i > M || c.j < 0 || c.j > N) return "path leaves the matrix";
        if (k == 0) continue;
        const int di = c.i - r.path[k - 1].i, dj = c.j - r.path[k - 1].j;
        if (!((di == 1 && dj == 1) || (di == 1 && dj == 0) || (di == 0 && dj == 1)))
            return "path step " + std::to_string(k) + " is not a single move";
    }
    return "";
}

// The reference on every problem; the CPU backend, whose set-up allocates buffers sized for
// large matrices (slow under ASan), on one problem in 4, chosen by `h`.
void compare_backends(Checker& c, const Problem& p, uint64_t h) {
    auto ref = c.call("align_reference", [&] { return align_reference(p); });
    if (!ref) return;
    if (const std::string d = path_problem(p, *ref); !d.empty())
        c.add("align_reference: " + d + " (" + describe(p) + ")");
    if (h % 4 != 0) return;
    auto cpu = c.call("align_cpu", [&] { return align_cpu(p, OutputLevel::matrix, 1); });
    if (!cpu) return;
    if (const std::string d = result_difference(*ref, *cpu); !d.empty())
        c.add("align_cpu disagrees with align_reference: " + d + " (" + describe(p) + ")");
}

// Built-in matrices, parsed once.
const SubstitutionMatrix& builtin(const char* name) {
    static const SubstitutionMatrix blosum = *app::load_matrix("BLOSUM62");
    static const SubstitutionMatrix nuc = *app::load_matrix("NUC.4.4");
    return std::string_view(name) == "BLOSUM62" ? blosum : nuc;
}

void align_sequences(Checker& c, const SequenceInput& q, const SequenceInput& t, uint64_t h) {
    static constexpr Algorithm kAlgos[] = {Algorithm::local, Algorithm::global, Algorithm::semiglobal,
                                           Algorithm::edit, Algorithm::lcs};
    const Algorithm algo = kAlgos[h % 5];
    ScoringOptions s;
    switch ((h >> 4) % 3) {
        case 0: s.matrix = builtin("BLOSUM62"); break;
        case 1: s.matrix = builtin("NUC.4.4"); break;
        default:
            s.match = 1 + static_cast<int32_t>((h >> 8) % 5);
            s.mismatch = -static_cast<int32_t>((h >> 12) % 5);
    }
    s.gaps = {static_cast<int32_t>((h >> 16) % 12), static_cast<int32_t>((h >> 20) % 4)};
    auto p = c.call("make_problem", [&] { return make_problem(algo, q, t, s); });
    if (!p) return;
    if (!*p) return c.message("make_problem", p->error());
    compare_backends(c, **p, h >> 24);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Sequences
// ---------------------------------------------------------------------------------------------

// Limits small enough that fuzzed inputs reach them: max_records and max_line are hit by a few
// hundred bytes, max_bytes by a gzip bomb of the input size.
ReadLimits sequence_limits() {
    ReadLimits l;
    l.max_bytes = uint64_t(8) << 20;
    l.max_records = 64;
    l.max_line = 4096;
    return l;
}

bool is_blank(unsigned char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f'; }

void check_records(Checker& c, const std::string& what, const Expected<std::vector<SequenceRecord>>& r,
                   const ReadLimits& limits) {
    if (!r) return c.message(what, r.error());
    if (r->empty()) c.add(what + ": success with no records");
    if (r->size() > limits.max_records) c.add(what + ": more records than max_records");
    for (size_t k = 0; k < r->size(); ++k) {
        const SequenceRecord& rec = (*r)[k];
        const std::string where = what + ": record " + std::to_string(k + 1) + " ";
        for (const char ch : rec.residues)
            if (!((ch >= 'A' && ch <= 'Z') || ch == '*'))
                return c.add(where + "has residue byte " + printable(std::string(1, ch)) +
                             " (only A-Z and '*' are kept)");
        for (const char ch : rec.name)
            if (is_blank(static_cast<unsigned char>(ch)) || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                return c.add(where + "name '" + printable(rec.name) + "' has a blank or control byte");
        if (rec.description.find('\n') != std::string::npos) c.add(where + "description spans lines");
        if (!rec.description.empty() && (is_blank(static_cast<unsigned char>(rec.description.front())) ||
                                         is_blank(static_cast<unsigned char>(rec.description.back()))))
            c.add(where + "description '" + printable(rec.description) + "' is not trimmed");
    }
}

// read_record (one pass, keeps one record) must pick what pick_record picks from the listing.
void check_pick(Checker& c, const std::string& path, const ReadLimits& limits,
                const Expected<std::vector<SequenceRecord>>& listing, uint64_t h) {
    if (!listing && listing.error().kind == ErrorKind::resource) return;  // max_records: read_record has none
    std::string which;  // the first record, an index, index 0, or the last record's name
    switch (h % 4) {
        case 0: break;
        case 1: which = "2"; break;
        case 2: which = "0"; break;
        default: which = listing ? listing->back().name : "a";
    }
    const std::string what = "read_record(\"" + printable(which, 40) + "\")";
    auto one = c.call(what, [&] { return app::read_record(path, which, limits); });
    if (!one) return;
    if (!*one) c.message(what, one->error());
    const Expected<SequenceRecord> expected =
        listing ? app::pick_record(*listing, which, path) : Expected<SequenceRecord>(listing.error());
    c.same("pick_record over read_sequences", expected, what, *one);
}

// The file readers on the same bytes, plain, gzip-compressed and padded past a chunk boundary.
void check_sequence_files(Checker& c, std::string_view bytes, const Expected<std::vector<SequenceRecord>>& parsed,
                          MemFile& file, const ReadLimits& limits, uint64_t h) {
    const std::string& path = file.path();
    // The same bytes as a file: the same records or the same error (a gzip input is decoded).
    auto listed = c.call("read_sequences", [&] { return app::read_sequences(path, limits); });
    if (listed) {
        check_records(c, "read_sequences", *listed, limits);
        if (!is_gzip(bytes)) c.same("parse_sequences", parsed, "read_sequences", *listed);
        check_pick(c, path, limits, *listed, h >> 8);
    }
    // Compressed: the zlib path must not change the result.
    if ((h >> 2) % 2 == 0) {
        file.replace(gzip(bytes));
        if (auto z = c.call("read_sequences (gzip)", [&] { return app::read_sequences(path, limits); }))
            c.same("parse_sequences", parsed, "read_sequences of its gzip", *z);
    }
    // A chunk boundary inside the input: the parser's state crosses it.
    if ((h >> 3) % 4 == 0 && !is_gzip(bytes)) {
        const std::string big = padded(bytes, h >> 5);
        file.replace(big);
        auto whole = c.call("parse_sequences (padded)", [&] { return app::parse_sequences(big, path, limits); });
        auto chunked = c.call("read_sequences (padded)", [&] { return app::read_sequences(path, limits); });
        if (whole && chunked) c.same("parse_sequences (padded)", *whole, "read_sequences (padded)", *chunked);
    }
}

// The first two records (or the first with itself), cut to kMaxSide residues, aligned.
void align_parsed(Checker& c, const Expected<std::vector<SequenceRecord>>& parsed, uint64_t h) {
    if (!parsed || parsed->empty()) return;
    const SequenceRecord& q = parsed->front();
    const SequenceRecord& t = parsed->size() > 1 ? (*parsed)[1] : parsed->front();
    align_sequences(c, {q.name, q.residues.substr(0, kMaxSide)}, {t.name, t.residues.substr(0, kMaxSide)}, h);
}

Findings check_sequences(std::string_view bytes) {
    Checker c;
    const ReadLimits limits = sequence_limits();
    const uint64_t h = fingerprint(bytes);
    // Error messages name the origin: the string parser gets the file's path, so both agree.
    std::optional<MemFile> file;
    if (reads_files(bytes, h)) file.emplace(bytes);
    const std::string path = file ? file->path() : "/proc/self/fd/fuzz";

    const std::string text(bytes);
    auto parsed = c.call("parse_sequences", [&] { return app::parse_sequences(text, path, limits); });
    if (!parsed) return c.findings;
    check_records(c, "parse_sequences", *parsed, limits);
    if (file) check_sequence_files(c, bytes, *parsed, *file, limits, h >> 3);
    align_parsed(c, *parsed, h);
    return c.findings;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Signals
// ---------------------------------------------------------------------------------------------

void check_signal_value(Checker& c, const std::string& what, const Expected<SignalInput>& r) {
    if (!r) return c.message(what, r.error());
    if (r->values.empty()) c.add(what + ": success with no values");
    for (const double v : r->values)
        if (!std::isfinite(v)) return c.add(what + ": a value is not finite");
    if (r->name.empty()) c.add(what + ": the signal has no name");
    if (r->name.find('\n') != std::string::npos) c.add(what + ": the signal name spans lines");
}

void align_signals(Checker& c, const SignalInput& a, const SignalInput& b, uint64_t h) {
    if (a.values.empty() || b.values.empty()) return;  // already a finding of check_signal_value
    SignalInput q{a.name, {}}, t{b.name, {}};
    q.values.assign(a.values.begin(), a.values.begin() + std::min(a.values.size(), kMaxSide));
    // The target: the other column, or the same one reversed from an offset the input picks.
    if (&a != &b && a.values != b.values) {
        t.values.assign(b.values.begin(), b.values.begin() + std::min(b.values.size(), kMaxSide));
    } else {
        const size_t skip = static_cast<size_t>(h % (b.values.size() + 1));
        t.values.assign(b.values.rbegin() + std::min(skip, b.values.size() - 1), b.values.rend());
        if (t.values.size() > kMaxSide) t.values.resize(kMaxSide);
    }
    ScoringOptions s;
    s.dtw_cost = (h >> 8) % 2 ? DtwCost::squared : DtwCost::abs;
    s.band = (h >> 9) % 3 == 0 ? static_cast<int32_t>((h >> 12) % 8) : -1;
    if ((h >> 16) % 4 == 0) s.dtw_scale = std::ldexp(1.0, static_cast<int>((h >> 20) % 48) - 24);
    auto p = c.call("make_dtw_problem", [&] { return make_dtw_problem(q, t, s); });
    if (!p) return;
    if (!*p) return c.message("make_dtw_problem", p->error());
    compare_backends(c, **p, h >> 24);
}

// The file reader on the same bytes, plain, gzip-compressed and padded past a chunk boundary.
void check_signal_files(Checker& c, std::string_view bytes, const std::string& column,
                        const Expected<SignalInput>& parsed, MemFile& file, const ReadLimits& limits, uint64_t h) {
    const std::string& path = file.path();
    if (auto from_file = c.call("read_signal", [&] { return app::read_signal(path, column, limits); })) {
        check_signal_value(c, "read_signal", *from_file);
        if (!is_gzip(bytes)) c.same("parse_signal", parsed, "read_signal", *from_file);
    }
    if ((h >> 2) % 2 == 0) {
        file.replace(gzip(bytes));
        if (auto z = c.call("read_signal (gzip)", [&] { return app::read_signal(path, column, limits); }))
            c.same("parse_signal", parsed, "read_signal of its gzip", *z);
    }
    if ((h >> 3) % 4 == 0 && !is_gzip(bytes)) {
        const std::string big = padded(bytes, h >> 5);
        file.replace(big);
        auto whole = c.call("parse_signal (padded)", [&] { return app::parse_signal(big, path, column, limits); });
        auto chunked = c.call("read_signal (padded)", [&] { return app::read_signal(path, column, limits); });
        if (whole && chunked) c.same("parse_signal (padded)", *whole, "read_signal (padded)", *chunked);
    }
}

Findings check_signal(std::string_view bytes) {
    Checker c;
    ReadLimits limits;
    limits.max_bytes = uint64_t(8) << 20;
    limits.max_line = 4096;
    const uint64_t h = fingerprint(bytes);
    std::optional<MemFile> file;
    if (reads_files(bytes, h)) file.emplace(bytes);
    const std::string path = file ? file->path() : "/proc/self/fd/fuzz";
    const std::string text(bytes);

    // The default (one column), and one choice by index or by a name the seeds use.
    static const char* const kColumns[] = {"1", "2", "3", "value", "b", "0", "time"};
    const std::string column = kColumns[(h >> 3) % 7];
    auto first = c.call("parse_signal", [&] { return app::parse_signal(text, path, "", limits); });
    auto chosen = c.call("parse_signal(column)", [&] { return app::parse_signal(text, path, column, limits); });
    if (!first || !chosen) return c.findings;
    check_signal_value(c, "parse_signal", *first);
    check_signal_value(c, "parse_signal(column \"" + column + "\")", *chosen);
    if (file) check_signal_files(c, bytes, column, *chosen, *file, limits, h >> 6);

    const Expected<SignalInput>& a = *first ? *first : *chosen;
    const Expected<SignalInput>& b = *chosen ? *chosen : *first;
    if (a && b) align_signals(c, *a, *b, h >> 16);
    return c.findings;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Substitution matrices
// ---------------------------------------------------------------------------------------------

void check_matrix_value(Checker& c, const std::string& what, const Expected<SubstitutionMatrix>& r) {
    if (!r) return c.message(what, r.error());
    const std::string& a = r->alphabet;
    if (a.empty()) c.add(what + ": success with an empty alphabet");
    for (size_t k = 0; k < a.size(); ++k) {
        if (!((a[k] >= 'A' && a[k] <= 'Z') || a[k] == '*'))
            c.add(what + ": alphabet byte " + printable(a.substr(k, 1)) + " is not an upper-case letter or '*'");
        if (a.find(a[k]) != k) c.add(what + ": letter " + printable(a.substr(k, 1)) + " twice in the alphabet");
    }
    if (r->scores.size() != a.size() * a.size())
        c.add(what + ": " + std::to_string(r->scores.size()) + " scores for " + std::to_string(a.size()) + " letters");
    for (const int32_t v : r->scores)
        if (v > 1'000'000 || v < -1'000'000)
            return c.add(what + ": entry " + std::to_string(v) + " beyond +-1,000,000");
}

void align_with_matrix(Checker& c, const SubstitutionMatrix& m, uint64_t h) {
    // Sequences over the matrix's own letters, so encoding succeeds and the scores are used.
    const std::string& a = m.alphabet;
    const size_t lq = 1 + h % kMaxSide, lt = 1 + (h >> 6) % kMaxSide;
    SequenceInput q{"q", ""}, t{"t", ""};
    for (size_t k = 0; k < lq; ++k) q.residues += a[(k * 7 + (h >> 12)) % a.size()];
    for (size_t k = 0; k < lt; ++k) t.residues += a[(k * 3 + 1) % a.size()];
    static constexpr Algorithm kAlgos[] = {Algorithm::local, Algorithm::global, Algorithm::semiglobal};
    ScoringOptions s;
    s.matrix = m;
    s.gaps = {static_cast<int32_t>((h >> 20) % 16), static_cast<int32_t>((h >> 24) % 5)};
    auto p = c.call("make_problem", [&] { return make_problem(kAlgos[(h >> 28) % 3], q, t, s); });
    if (!p) return;
    if (!*p) return c.message("make_problem", p->error());
    compare_backends(c, **p, h >> 32);
}

Findings check_matrix(std::string_view bytes) {
    Checker c;
    MemFile file(bytes);
    const std::string& path = file.path();
    const std::string text(bytes);
    auto parsed = c.call("parse_matrix", [&] { return app::parse_matrix(text, path); });
    if (!parsed) return c.findings;
    check_matrix_value(c, "parse_matrix", *parsed);
    if (auto loaded = c.call("load_matrix", [&] { return app::load_matrix(path); }))
        c.same("parse_matrix", *parsed, "load_matrix", *loaded);
    if (*parsed && !(*parsed)->alphabet.empty()) align_with_matrix(c, **parsed, fingerprint(bytes));
    return c.findings;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] HMM models and observations
// ---------------------------------------------------------------------------------------------

// Shapes, probabilities, row sums within 1e-6 and the logs of a parsed model.
void check_hmm_tables(Checker& c, const std::string& what, const Hmm& m) {
    const size_t S = m.states.size(), K = m.alphabet.size();
    if (S == 0 || S > size_t(kMaxHmmStates) || K == 0) return c.add(what + ": " + std::to_string(S) + " states, " +
                                                                  std::to_string(K) + " symbols");
    const std::vector<double>* tables[] = {&m.start, &m.transition, &m.emission};
    const std::vector<double>* logs[] = {&m.log_start, &m.log_transition, &m.log_emission};
    const size_t cols[] = {S, S, K}, rows[] = {1, S, S};
    const char* names[] = {"start", "transition", "emission"};
    for (int t = 0; t < 3; ++t) {
        const std::vector<double>& v = *tables[t];
        if (v.size() != rows[t] * cols[t] || logs[t]->size() != v.size())
            return c.add(what + ": " + names[t] + " has " + std::to_string(v.size()) + " values");
        for (size_t r = 0; r < rows[t]; ++r) {
            double sum = 0.0;
            for (size_t k = 0; k < cols[t]; ++k) {
                const double p = v[r * cols[t] + k], lp = (*logs[t])[r * cols[t] + k];
                if (!(p >= 0.0 && p <= 1.0)) return c.add(what + ": " + names[t] + " value " + std::to_string(p));
                if (lp != (p > 0.0 ? std::log(p) : -INFINITY))
                    return c.add(what + ": the log of a " + names[t] + " value is wrong");
                sum += p;
            }
            if (std::abs(sum - 1.0) > kHmmRowTolerance)
                return c.add(what + ": " + names[t] + " row " + std::to_string(r) + " sums to " + std::to_string(sum));
        }
    }
}

void check_hmm_value(Checker& c, const std::string& what, const Expected<Hmm>& r, const std::string& origin) {
    if (!r) {
        c.message(what, r.error());
        if (r.error().message.rfind(origin + ":", 0) != 0)
            c.add(what + ": error \"" + printable(r.error().message) + "\" does not start with the origin");
        return;
    }
    check_hmm_tables(c, what, *r);
}

// Viterbi on up to 64 symbols of the model's alphabet that the input picks: the reference's
// path scores what it says, and the fixed-point optimum is within its bound of the double one.
void decode_with(Checker& c, const Hmm& m, uint64_t h) {
    if (m.states.size() > 32) return;  // S^2 per symbol: keep the run short
    std::vector<uint8_t> obs(1 + h % kMaxSide);
    for (size_t t = 0; t < obs.size(); ++t) obs[t] = static_cast<uint8_t>((t * 7 + (h >> 8)) % m.alphabet.size());
    auto ref = c.call("viterbi_reference", [&] { return viterbi_reference(m, obs); });
    auto q = c.call("quantize_hmm_for", [&] { return quantize_hmm_for(m, obs.size()); });
    if (!ref || !q) return;
    if (!*ref || !*q)
        return c.add("viterbi on a parsed model failed: " + (*ref ? (*q).error() : (*ref).error()).message);
    auto fx = c.call("viterbi_fixed", [&] { return viterbi_fixed(**q, obs); });
    if (!fx) return;
    if (!*fx) return c.add("viterbi_fixed failed at its own scale: " + (*fx).error().message);
    const double lp = (*ref)->log_probability, fixed = (*fx)->log_probability();
    if ((lp == -INFINITY) != (fixed == -INFINITY) || (*ref)->path.empty() != (lp == -INFINITY))
        return c.add("viterbi: the reference and the fixed point disagree on whether the observations are possible");
    if (lp == -INFINITY) return;
    if (std::abs(path_log_probability(m, obs, (*ref)->path) - lp) > 1e-9 * std::max(1.0, std::abs(lp)))
        c.add("viterbi_reference: its path does not score its log-probability");
    if (std::abs(fixed - lp) > viterbi_quantization_bound(**q, obs.size()) + 1e-9 * std::max(1.0, std::abs(lp)))
        c.add("viterbi_fixed: off the reference by more than the quantization bound");
}

// The same bytes as an observation file: a value or a one-line error, and symbols that encode
// or fail with a one-line error.
void check_observations(Checker& c, const std::string& text, const std::string& path, const Hmm* model) {
    auto obs = c.call("parse_observations", [&] { return app::parse_observations(text, path); });
    if (!obs) return;
    if (!*obs) return c.message("parse_observations", obs->error());
    if ((*obs)->symbols.empty()) c.add("parse_observations: success with no observations");
    if (!model) return;
    auto codes = c.call("encode_observations", [&] { return app::encode_observations(*model, (*obs)->symbols, path); });
    if (codes && !*codes) c.message("encode_observations", codes->error());
}

Findings check_hmm(std::string_view bytes) {
    Checker c;
    MemFile file(bytes);
    const std::string& path = file.path();
    const std::string text(bytes);
    auto parsed = c.call("parse_hmm", [&] { return app::parse_hmm(text, path); });
    if (!parsed) return c.findings;
    check_hmm_value(c, "parse_hmm", *parsed, path);
    if (auto again = c.call("parse_hmm (again)", [&] { return app::parse_hmm(text, path); }))
        c.same("parse_hmm", *parsed, "parse_hmm of the same text", *again);
    if (auto loaded = c.call("load_hmm", [&] { return app::load_hmm(path); }))
        c.same("parse_hmm", *parsed, "load_hmm", *loaded);
    const uint64_t h = fingerprint(bytes);
    if (*parsed) {
        const std::string written = app::format_hmm(**parsed);
        if (auto back = c.call("parse_hmm (format_hmm)", [&] { return app::parse_hmm(written, path); }))
            c.same("parse_hmm", *parsed, "parse_hmm of its format_hmm", *back);
        decode_with(c, **parsed, h);
    }
    check_observations(c, text, path, *parsed ? &**parsed : nullptr);
    return c.findings;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Command line
// ---------------------------------------------------------------------------------------------

// argv words: the input split at NUL bytes (a real argv word cannot hold one). A word that names
// a sandbox file becomes its absolute path; a word with a '/' is dropped, so only the sandbox's
// files are ever opened, and a file the command line writes by a relative name lands in the
// sandbox (check_cli's working directory), never where the fuzzer was started.
std::vector<std::string> words_of(std::string_view bytes) {
    constexpr size_t kMaxWords = 64;
    constexpr size_t kMaxWord = 512;  // a --seq literal of 512 x 512 cells is still fast
    const fs::path sandbox = cli_sandbox();
    std::vector<std::string> words;
    while (words.size() < kMaxWords) {
        const size_t nul = bytes.find('\0');
        std::string w(bytes.substr(0, std::min(nul, kMaxWord)));
        std::error_code ec;
        const bool writes = w == "--png" || w.rfind("--png=", 0) == 0;  // no output files
        if (w.empty() || w == "-" || w.rfind("--", 0) == 0 || w.find('/') != std::string::npos || writes) {
            // "" and options are not file names; a '/' could leave the sandbox.
            if (!writes && w.find('/') == std::string::npos) words.push_back(std::move(w));
        } else if (fs::exists(fs::symlink_status(sandbox / w, ec))) {
            words.push_back((sandbox / w).string());
        } else {
            words.push_back(std::move(w));
        }
        if (nul == std::string_view::npos) break;
        bytes.remove_prefix(nul + 1);
    }
    return words;
}

Findings check_cli(std::string_view bytes) {
    Checker c;
    // Relative names resolve in the sandbox: whatever a command line writes is removed with it.
    fs::current_path(cli_sandbox());
    const std::vector<std::string> args = words_of(bytes);
    // `bench` measures for minutes and `gui` opens a window: neither is argument parsing.
    if (!args.empty() && (args[0] == "bench" || args[0] == "gui")) return c.findings;
    std::ostringstream out, err;
    const auto rc = c.call("run_cli", [&] { return app::run_cli(args, out, err); });
    if (!rc) return c.findings;
    const std::string o = out.str(), e = err.str();
    const std::string shown = " (args:" + [&] {
        std::string s;
        for (const auto& a : args) s += " '" + printable(a, 40) + "'";
        return s;
    }() + ")";
    if (*rc != app::kExitOk && *rc != app::kExitUsage && *rc != app::kExitInput && *rc != app::kExitResource &&
        *rc != app::kExitDevice)
        c.add("run_cli returned " + std::to_string(*rc) + ", not a documented exit code" + shown);
    // PAF and BLAST tabular write no line for a pair without an alignment, as minimap2 and BLAST
    // report no hit: a run that aligned nothing may print nothing.
    const bool may_print_nothing = [&] {
        for (size_t k = 0; k < args.size(); ++k) {
            const std::string& a = args[k];
            std::string value = a.rfind("--format=", 0) == 0 ? a.substr(9)
                                : a == "--format" && k + 1 < args.size() ? args[k + 1]
                                                                        : "";
            for (char& ch : value) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            if (value == "paf" || value == "blast6") return true;
        }
        return false;
    }();
    if (*rc == app::kExitOk && o.empty() && !may_print_nothing) c.add("run_cli succeeded with no output" + shown);
    if (*rc != app::kExitOk && e.empty()) c.add("run_cli failed with no message" + shown);
    if (*rc != app::kExitOk && !args.empty()) {
        // Each diagnostic is one line "dpviz: ..." (the usage text for an empty command line aside).
        std::string_view rest = e;
        if (rest.empty() || rest.back() != '\n') c.add("run_cli: stderr does not end with a newline" + shown);
        while (!rest.empty()) {
            const size_t nl = rest.find('\n');
            const std::string_view line = rest.substr(0, nl);
            if (line.rfind("dpviz: ", 0) != 0) {
                c.add("run_cli: stderr line \"" + printable(line) + "\" is not a one-line diagnostic" + shown);
                break;
            }
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
        }
    }
    return c.findings;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Registry
// ---------------------------------------------------------------------------------------------

constexpr Harness kHarnesses[] = {
    {"sequences", size_t(64) << 10, &check_sequences},
    {"signal", size_t(64) << 10, &check_signal},
    {"matrix", size_t(64) << 10, &check_matrix},
    {"cli", size_t(4) << 10, &check_cli},
    {"hmm", size_t(64) << 10, &check_hmm},
};

void write_file(const fs::path& p, std::string_view bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) harness_failure("writing a sandbox file");
}

}  // namespace

Findings run_harness(const Harness& h, std::string_view bytes) {
    return h.run(bytes.substr(0, std::min(bytes.size(), h.max_len)));
}

std::span<const Harness> harnesses() { return kHarnesses; }

const Harness* find_harness(std::string_view name) {
    for (const Harness& h : kHarnesses)
        if (h.name == name) return &h;
    return nullptr;
}

const std::string& cli_sandbox() {
    // Never destroyed: the atexit handler below runs after static destructors would have.
    static const std::string* const dir = [] {
        std::string tmpl = (fs::temp_directory_path() / "dpviz-fuzz-cli-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) harness_failure("mkdtemp");
        const fs::path d = tmpl;
        const std::string fasta = ">q1 query one\nMKVLAAGIVGLLLAQ\n>q2\nACGTACGTNNACGT\n";
        write_file(d / "q.fa", fasta);
        write_file(d / "q.fa.gz", gzip(fasta));
        write_file(d / "t.fa", ">t1\nMKVIAAGLVGALLSQ\n");
        write_file(d / "r.fq", "@r1\nACGTN\n+\nIIII#\n");
        write_file(d / "p.txt", "acgt acgt 10\n");
        write_file(d / "e.fa", "");
        write_file(d / "s.csv", "time,value\n0,1.5\n1,2.5\n2,-1\n3,0.25\n");
        write_file(d / "s.tsv", "1\t2\n3\t4\n5\t6\n");
        write_file(d / "m.mat", "   A  C  G  T  *\nA  2 -1 -1 -1 -5\nC -1  2 -1 -1 -5\nG -1 -1  2 -1 -5\n"
                                "T -1 -1 -1  2 -5\n*  -5 -5 -5 -5  1\n");
        fs::create_directory(d / "dir");
        // align() sizes its allocations against this instead of the machine's free memory.
        ::setenv("DPVIZ_MEMORY_LIMIT", "268435456", 1);
        // With a display, `dpviz` with no arguments opens the GUI.
        ::unsetenv("DISPLAY");
        ::unsetenv("WAYLAND_DISPLAY");
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(cli_sandbox(), ec);
        });
        return new std::string(tmpl);
    }();
    return *dir;
}

}  // namespace dpviz::fuzz
