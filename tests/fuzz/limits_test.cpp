// Pathological inputs, generated at run time and never stored: a 1 GiB single line, an endless
// stream, a file past the size limit, a million records, nested nonsense, a matrix with 10^6
// columns, 10^6 argv words. Each case runs in a child process that reports its own peak memory
// growth (getrusage) and time, so the bounds asserted here are the case's alone.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "input.hpp"
#include "matrix_file.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define DPVIZ_LIMITS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPVIZ_LIMITS_SANITIZED 1
#endif
#endif

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

#ifdef DPVIZ_LIMITS_SANITIZED
// ASan makes the parsers several times slower, so the streamed inputs are shorter (still far
// past every line and record limit). It also keeps freed blocks in a quarantine (256 MiB by
// default) and adds redzones, so memory bounds are loosened; the figures that mean something
// come from an uninstrumented build.
constexpr uint64_t kGiantLine = uint64_t(256) << 20;
constexpr uint64_t kEndlessSignalLimit = uint64_t(4) << 20;
constexpr double kMemoryFactor = 3, kMemorySlackMib = 320;
constexpr double kTimeFactor = 4;
#else
constexpr uint64_t kGiantLine = uint64_t(1) << 30;
constexpr uint64_t kEndlessSignalLimit = uint64_t(16) << 20;
constexpr double kMemoryFactor = 1, kMemorySlackMib = 0;
constexpr double kTimeFactor = 1;
#endif

// The default time bound of a case (times kTimeFactor): generous, since CI machines are shared;
// what it catches is a hang or a quadratic blow-up, not a slow-down.
constexpr double kSlowSeconds = 20;

std::string giant_name() { return std::to_string(kGiantLine >> 20) + " MiB"; }

// ---------------------------------------------------------------------------------------------
// Running a case in a child process
// ---------------------------------------------------------------------------------------------

// What a reader returned: a value (and a short summary of it) or an error.
struct Result {
    bool ok = false;
    int kind = -1;        // ErrorKind when !ok
    std::string text;     // the error message, or the summary of the value
};

template <class T, class Summary>
Result result_of(const Expected<T>& r, Summary&& summary) {
    if (r) return {true, -1, summary(*r)};
    return {false, int(r.error().kind), r.error().message};
}
template <class T>
Result result_of(const Expected<T>& r) {
    return result_of(r, [](const T&) { return std::string("value"); });
}

struct Outcome {
    Result result;
    double seconds = 0;
    double growth_mib = 0;  // peak resident memory of the child above its resident memory at fork
    std::string died;       // how the child died, when it did
};

long peak_rss_kib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

std::ostream& operator<<(std::ostream& o, const Outcome& c);

// Runs `fn` in a forked child. A forked child's peak-RSS counter starts at its resident size at
// fork, not at the parent's peak, so its growth is this case's own. Prints one line per case
// (the figures docs/robustness.md quotes).
Outcome isolated_run(const std::function<Result()>& fn);
Outcome isolated(const std::string& name, const std::function<Result()>& fn) {
    const Outcome c = isolated_run(fn);
    std::ostringstream line;
    line << c;
    std::printf("[ limits   ] %s: %s\n", name.c_str(), line.str().substr(0, 240).c_str());
    return c;
}

Outcome isolated_run(const std::function<Result()>& fn) {
    std::fflush(stdout);
    std::fflush(stderr);
    int fds[2];
    if (::pipe(fds) != 0) return {{}, 0, 0, "pipe failed"};
    const pid_t pid = ::fork();
    if (pid < 0) return {{}, 0, 0, "fork failed"};
    if (pid == 0) {
        ::close(fds[0]);
        ::signal(SIGPIPE, SIG_IGN);  // streams whose reader stops early
        const long rss0 = peak_rss_kib();
        const auto t0 = std::chrono::steady_clock::now();
        const Result r = fn();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const long rss1 = peak_rss_kib();
        std::ostringstream o;
        o << r.ok << ' ' << r.kind << ' ' << seconds << ' ' << double(rss1 - rss0) / 1024.0 << '\n' << r.text;
        const std::string s = o.str();
        for (size_t done = 0; done < s.size();) {
            const ssize_t n = ::write(fds[1], s.data() + done, s.size() - done);
            if (n <= 0) break;
            done += size_t(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string s;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) s.append(buf, size_t(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    Outcome out;
    if (WIFSIGNALED(status)) out.died = "killed by signal " + std::to_string(WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0) out.died = "exit status " + std::to_string(WEXITSTATUS(status));
    if (!out.died.empty()) return out;
    std::istringstream in(s);
    in >> out.result.ok >> out.result.kind >> out.seconds >> out.growth_mib;
    in.get();
    out.result.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return out;
}

std::ostream& operator<<(std::ostream& o, const Outcome& c) {
    if (!c.died.empty()) return o << "child " << c.died;
    return o << (c.result.ok ? "value" : "error kind " + std::to_string(c.result.kind)) << " \"" << c.result.text
             << "\" in " << c.seconds << " s, peak memory +" << c.growth_mib << " MiB";
}

// The case ended (value or error) within the time and memory bounds.
testing::AssertionResult bounded(const Outcome& c, double max_mib, double max_seconds = kSlowSeconds) {
    if (!c.died.empty()) return testing::AssertionFailure() << c;
    if (c.seconds > max_seconds * kTimeFactor) return testing::AssertionFailure() << "too slow: " << c;
    const double limit = max_mib * kMemoryFactor + kMemorySlackMib;
    if (c.growth_mib > limit) return testing::AssertionFailure() << "more than " << limit << " MiB: " << c;
    return testing::AssertionSuccess() << c;
}

// The case was rejected with an error of `kind` whose one-line message says `what`.
testing::AssertionResult rejected(const Outcome& c, ErrorKind kind, const std::string& what) {
    if (!c.died.empty()) return testing::AssertionFailure() << c;
    if (c.result.ok || c.result.kind != int(kind))
        return testing::AssertionFailure() << "expected error kind " << int(kind) << ": " << c;
    if (c.result.text.empty() || c.result.text.find('\n') != std::string::npos)
        return testing::AssertionFailure() << "not a one-line message: " << c;
    if (c.result.text.find(what) == std::string::npos)
        return testing::AssertionFailure() << "message lacks \"" << what << "\": " << c;
    return testing::AssertionSuccess() << c;
}

// Value or error, but an error is one non-empty line.
testing::AssertionResult answered(const Outcome& c) {
    if (!c.died.empty()) return testing::AssertionFailure() << c;
    if (!c.result.ok && (c.result.text.empty() || c.result.text.find('\n') != std::string::npos))
        return testing::AssertionFailure() << "not a one-line message: " << c;
    return testing::AssertionSuccess() << c;
}

// ---------------------------------------------------------------------------------------------
// Generated inputs: streams through a pipe (no disk), sparse files
// ---------------------------------------------------------------------------------------------

// `head`, then `body` repeated until `body_bytes` (or forever when 0), then `tail`, written by a
// thread into a pipe the readers open by its /proc path. Destroying the stream closes the read
// end, which stops a writer whose reader gave up early.
class Stream {
public:
    Stream(std::string head, std::string body, uint64_t body_bytes, std::string tail = "") {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) std::abort();
        read_fd_ = fds[0];
        ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);  // fewer wake-ups; best effort
        path_ = "/proc/self/fd/" + std::to_string(read_fd_);
        writer_ = std::thread([=, w = fds[1]] {
            // Blocks of whole `body`s, about 1 MiB each.
            std::string block;
            while (!body.empty() && block.size() < (size_t(1) << 20)) block += body;
            bool open = write_all(w, head);
            for (uint64_t done = 0; open && (body_bytes == 0 || done < body_bytes); done += block.size()) {
                const size_t n =
                    body_bytes == 0 ? block.size() : size_t(std::min<uint64_t>(block.size(), body_bytes - done));
                open = write_all(w, std::string_view(block).substr(0, n));
            }
            if (open) write_all(w, tail);
            ::close(w);
        });
    }
    ~Stream() {
        ::close(read_fd_);
        writer_.join();
    }
    const std::string& path() const { return path_; }

private:
    static bool write_all(int fd, std::string_view s) {
        while (!s.empty()) {
            const ssize_t n = ::write(fd, s.data(), s.size());
            if (n <= 0) return false;
            s.remove_prefix(size_t(n));
        }
        return true;
    }
    int read_fd_ = -1;
    std::string path_;
    std::thread writer_;
};

// A scratch directory, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "dpviz-limits-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) std::abort();
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    fs::path operator/(const std::string& name) const { return path_ / name; }

private:
    fs::path path_;
};

std::string repeat(const std::string& unit, size_t bytes) {
    std::string s;
    s.reserve(bytes + unit.size());
    while (s.size() < bytes) s += unit;
    return s;
}

// ---------------------------------------------------------------------------------------------
// Sequences
// ---------------------------------------------------------------------------------------------

TEST(PathologicalSequences, GiantSingleLineIsStreamedPastWhenNotPicked) {
    // The line is a record nobody asked for: read_record scans it without keeping it.
    const Outcome c = isolated(giant_name() + " line, another record picked", [] {
        Stream s(">small\nMKV\n>giant one line\n", "ACGT", kGiantLine, "\n>after\nWW\n");
        return result_of(read_record(s.path(), "small"), [](const SequenceRecord& r) { return r.residues; });
    });
    EXPECT_TRUE(bounded(c, 32));
    EXPECT_TRUE(c.result.ok && c.result.text == "MKV") << c;
}

TEST(PathologicalSequences, GiantSingleLineKeptUpToMaxBytes) {
    // Kept, the line grows until the input limit stops it: memory is bounded by max_bytes.
    const Outcome c = isolated(giant_name() + " line kept, max_bytes 64 MiB", [] {
        Stream s(">giant\n", "ACGT", kGiantLine, "\n");
        ReadLimits limits;
        limits.max_bytes = uint64_t(64) << 20;
        return result_of(read_sequences(s.path(), limits));
    });
    EXPECT_TRUE(rejected(c, ErrorKind::resource, "larger than 64 MiB"));
    EXPECT_TRUE(bounded(c, 64 * 2.5));  // the residues, and a string doubling once more
}

TEST(PathologicalSequences, EndlessStreamStopsAtMaxBytes) {
    const Outcome c = isolated("endless stream, max_bytes 32 MiB", [] {
        Stream s("", "ACGTACGTAC\n", 0);  // like `yes ACGTACGTAC`: it never ends
        ReadLimits limits;
        limits.max_bytes = uint64_t(32) << 20;
        return result_of(read_record(s.path(), "1", limits));
    });
    EXPECT_TRUE(rejected(c, ErrorKind::resource, "larger than 32 MiB"));
    EXPECT_TRUE(bounded(c, 32 * 2.5));
}

TEST(PathologicalSequences, FileBeyondTheDefaultLimitIsRejectedUnread) {
    // A sparse 5 GiB file: the size check rejects it before a byte is read.
    TempDir dir;
    const fs::path big = dir / "big.fa";
    { std::ofstream(big).put('>'); }
    fs::resize_file(big, uint64_t(5) << 30);
    const Outcome seq = isolated("sparse 5 GiB file, read_sequences",
                                 [&] { return result_of(read_sequences(big.string())); });
    EXPECT_TRUE(rejected(seq, ErrorKind::resource, "larger than 4 GiB"));
    EXPECT_TRUE(bounded(seq, 8, 1));
    const Outcome one = isolated("sparse 5 GiB file, read_record",
                                 [&] { return result_of(read_record(big.string(), "1")); });
    EXPECT_TRUE(rejected(one, ErrorKind::resource, "larger than 4 GiB"));
    const Outcome sig = isolated("sparse 5 GiB file, read_signal",
                                 [&] { return result_of(read_signal(big.string())); });
    EXPECT_TRUE(rejected(sig, ErrorKind::resource, "larger than 4 GiB"));
    EXPECT_TRUE(bounded(sig, 8, 1));
}

TEST(PathologicalSequences, MillionRecords) {
    constexpr uint64_t kRecords = 1'000'001;  // one past the default max_records
    const std::string unit = ">r\nACGT\n";
    // Listing every record stops at max_records.
    const Outcome all = isolated("1,000,001 records, read_sequences", [&] {
        Stream s("", unit, kRecords * unit.size());
        return result_of(read_sequences(s.path()));
    });
    EXPECT_TRUE(rejected(all, ErrorKind::resource, "more than 1000000 records"));
    EXPECT_TRUE(bounded(all, 512));
    // Picking one keeps one: memory does not grow with the number of records.
    const Outcome last = isolated("1,000,001 records, read_record last", [&] {
        Stream s("", unit, kRecords * unit.size());
        return result_of(read_record(s.path(), "1000001"), [](const SequenceRecord& r) { return r.residues; });
    });
    EXPECT_TRUE(bounded(last, 16));
    EXPECT_TRUE(last.result.ok && last.result.text == "ACGT") << last;
}

// ---------------------------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------------------------

TEST(PathologicalSignals, GiantSingleLineStopsAtMaxLine) {
    const Outcome c = isolated("signal, " + giant_name() + " line", [] {
        Stream s("value\n", "1", kGiantLine, "\n");
        return result_of(read_signal(s.path()));
    });
    EXPECT_TRUE(rejected(c, ErrorKind::input, "line longer than 1 MiB"));
    EXPECT_TRUE(bounded(c, 16, 5));
}

TEST(PathologicalSignals, MillionRows) {
    const Outcome c = isolated("signal 1,000,000 rows", [] {
        Stream s("time,value\n", "12345,0.5\n", uint64_t(1'000'000) * 10);
        return result_of(read_signal(s.path(), "value"),
                         [](const SignalInput& v) { return std::to_string(v.values.size()); });
    });
    EXPECT_TRUE(bounded(c, 64));
    EXPECT_TRUE(c.result.ok && c.result.text == "1000000") << c;
}

TEST(PathologicalSignals, EndlessStreamStopsAtMaxBytes) {
    // "1\n" is 2 bytes of input and 8 bytes of double: the values alone are 4x max_bytes, and
    // the vector doubles (docs/robustness.md, finding 4: a max_values limit would bound it).
    const std::string limit = std::to_string(kEndlessSignalLimit >> 20) + " MiB";
    const Outcome c = isolated("signal endless stream, max_bytes " + limit, [] {
        Stream s("", "1\n", 0);
        ReadLimits limits;
        limits.max_bytes = kEndlessSignalLimit;
        return result_of(read_signal(s.path(), "", limits));
    });
    EXPECT_TRUE(rejected(c, ErrorKind::resource, "larger than " + limit));
    EXPECT_TRUE(bounded(c, double(kEndlessSignalLimit >> 20) * 8));
}

// ---------------------------------------------------------------------------------------------
// Nested nonsense through every parser
// ---------------------------------------------------------------------------------------------

struct Nonsense {
    const char* name;
    std::string text;
};

std::vector<Nonsense> nonsense() {
    constexpr size_t kBytes = size_t(4) << 20;
    const size_t half = kBytes / 2;
    return {
        {"parentheses", std::string(half, '(') + std::string(half, ')')},
        {"brackets and braces", repeat("[{", half) + repeat("}]", half)},
        {"json", repeat("{\"a\":[", half) + repeat("]}", half / 3)},
        {"xml", repeat("<a>", half) + repeat("</a>", half)},
        {"one header line", std::string(kBytes, '>')},
        {"empty fasta records", repeat(">\n", kBytes)},
        {"fastq skeletons", repeat("@\n\n+\n\n", kBytes)},
        {"fasta comments", repeat(";;;\n", kBytes)},
        {"quotes", repeat("\"", kBytes)},
        {"csv quotes", repeat("\"\"\"a\"\"\",", half) + "\n1\n"},
        {"hashes", repeat("#", kBytes)},
        {"crlf only", repeat("\r\n", kBytes)},
        {"nul bytes", std::string(kBytes, '\0')},
        {"commas", repeat(",", kBytes) + "\n"},
        {"matrix headers", repeat("A C\n", kBytes)},
    };
}

TEST(PathologicalNonsense, EveryParserAnswersInBoundedTimeAndMemory) {
    for (const Nonsense& n : nonsense()) {
        SCOPED_TRACE(n.name);
        const std::string name = n.name;
        const Outcome seq = isolated(name + ", parse_sequences",
                                     [&] { return result_of(parse_sequences(n.text, "nonsense")); });
        EXPECT_TRUE(answered(seq));
        EXPECT_TRUE(bounded(seq, 256, 10));  // 2M empty records are 1M kept, then max_records
        const Outcome sig =
            isolated(name + ", parse_signal", [&] { return result_of(parse_signal(n.text, "nonsense")); });
        EXPECT_TRUE(answered(sig));
        EXPECT_TRUE(bounded(sig, 64, 10));
        const Outcome mat =
            isolated(name + ", parse_matrix", [&] { return result_of(parse_matrix(n.text, "nonsense")); });
        EXPECT_TRUE(answered(mat));
        EXPECT_TRUE(bounded(mat, 64, 10));
    }
}

// ---------------------------------------------------------------------------------------------
// Substitution matrices
// ---------------------------------------------------------------------------------------------

TEST(PathologicalMatrices, MillionColumns) {
    std::string header;  // 10^6 column letters: the 28th is necessarily a repeat
    for (int k = 0; k < 1'000'000; ++k) header += std::string(1, char('A' + k % 26)) + " ";
    const Outcome wide_header =
        isolated("matrix header of 10^6 columns", [&] { return result_of(parse_matrix(header + "\n", "wide.mat")); });
    EXPECT_TRUE(rejected(wide_header, ErrorKind::input, "wide.mat:1: duplicate letter 'A'"));
    EXPECT_TRUE(bounded(wide_header, 16, 2));

    std::string row = "A";  // a 1-letter matrix whose row has 10^6 entries
    for (int k = 0; k < 1'000'000; ++k) row += " 1";
    const Outcome wide_row =
        isolated("matrix row of 10^6 entries", [&] { return result_of(parse_matrix("A\n" + row + "\n", "row.mat")); });
    EXPECT_TRUE(rejected(wide_row, ErrorKind::input, "row.mat:2: row 'A' has more than 1 entries"));
    EXPECT_TRUE(bounded(wide_row, 16, 2));

    std::string rows = "A\nA 1\n";  // 10^6 rows after a complete matrix
    for (int k = 0; k < 1'000'000; ++k) rows += "A 1\n";
    const Outcome tall = isolated("matrix of 10^6 rows", [&] { return result_of(parse_matrix(rows, "tall.mat")); });
    EXPECT_TRUE(rejected(tall, ErrorKind::input, "tall.mat:3: more rows than"));

    // As a file, the size limit rejects it before parsing.
    TempDir dir;
    const fs::path file = dir / "wide.mat";
    std::ofstream(file, std::ios::binary) << header << "\n";
    const Outcome loaded =
        isolated("matrix file of 10^6 columns, load_matrix", [&] { return result_of(load_matrix(file.string())); });
    EXPECT_TRUE(rejected(loaded, ErrorKind::input, "larger than 1 MiB"));
    EXPECT_TRUE(bounded(loaded, 8, 1));
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

Result cli_result(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int rc = run_cli(args, out, err);
    // The first line says enough: the error, or the header of the alignment text.
    const std::string text = rc == kExitOk ? out.str() : err.str();
    return {rc == kExitOk, rc, text.substr(0, text.find('\n'))};
}

TEST(PathologicalCommandLine, MillionWords) {
    std::vector<std::string> flags = {"align"};
    for (int k = 0; k < 1'000'000; ++k) flags.push_back("--seq");
    flags.push_back("MKV");
    flags.push_back("MKI");
    const Outcome repeated = isolated("10^6 argv words --seq", [&] { return cli_result(flags); });
    EXPECT_TRUE(bounded(repeated, 64, 10));
    EXPECT_TRUE(repeated.result.ok) << repeated;

    std::vector<std::string> positional = {"align", "--seq"};
    positional.resize(1'000'002, "ACGT");
    const Outcome many = isolated("10^6 positional argv words", [&] { return cli_result(positional); });
    EXPECT_TRUE(bounded(many, 64, 10));
    EXPECT_EQ(many.result.kind, kExitUsage) << many;
    EXPECT_NE(many.result.text.find("got 1000000 arguments"), std::string::npos) << many;
}

TEST(PathologicalCommandLine, HugeLiteralsAreRefusedUpFront) {
    // 10^6 x 10^6 cells with a path needs ~1 TB of direction bits: refused before allocating.
    const std::string giant(1'000'000, 'A');
    const Outcome c = isolated("--seq literals of 10^6 residues each", [&] {
        ::setenv("DPVIZ_MEMORY_LIMIT", "1073741824", 1);
        return cli_result({"align", "--seq", giant, giant});
    });
    EXPECT_TRUE(bounded(c, 64, 10));
    EXPECT_EQ(c.result.kind, kExitResource) << c;
    EXPECT_NE(c.result.text.find("--score-only"), std::string::npos) << c;
}

}  // namespace
}  // namespace dpviz::app
