// Soak: thousands of `dpviz align` runs of seeded random small pairs through the in-process CLI
// (every algorithm, matrices and match/mismatch, linear and affine gaps, DTW signals from CSV
// files, a few usage errors on purpose). Each score must equal the reference engine's for the
// same problem, and memory after the run must be within 5 % of what it was after the first 100
// runs (resident set after malloc_trim; under ASan the sanitizer's live heap). `ctest -L soak`.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <regex>

#include "app/cli_run.hpp"
#include "dpviz/engine.hpp"
#include "matrix_file.hpp"
#include "memory_probe.hpp"

namespace dpviz::app {
namespace {

constexpr int kRuns = 5000;
constexpr int kBaselineAt = 100;

using dpviz::test::heap_bytes;
using dpviz::test::resident_kib;

class Pairs {
public:
    explicit Pairs(uint64_t seed) : rng_(seed) {}
    unsigned pick(unsigned n) { return unsigned(rng_() % n); }
    std::string sequence(bool protein) {
        static const char kDna[] = "ACGT", kProtein[] = "ARNDCQEGHILKMFPSTWYV";
        std::string s(1 + pick(60), 'A');
        for (char& c : s) c = protein ? kProtein[pick(20)] : kDna[pick(4)];
        // Letters that are no nucleotide code, so that the alphabet is protein as meant.
        if (protein && s.find_first_of("EFILPQ") == std::string::npos) s[0] = 'L';
        return s;
    }
    std::vector<double> signal() {
        std::vector<double> v(1 + pick(80));
        double x = 0;
        for (double& y : v) y = x += std::uniform_real_distribution<double>(-1.0, 1.0)(rng_);
        return v;
    }

private:
    std::mt19937_64 rng_;
};

// One random run: the arguments, and the problem the reference engine solves for them (unset
// for the deliberate usage errors).
struct Case {
    std::vector<std::string> args;
    std::optional<Problem> problem;
    bool score_only = false;
    std::string format = "json";
};

Case random_case(Pairs& r, const test::TempDir& dir) {
    Case c;
    static constexpr Algorithm kAlgos[] = {Algorithm::local, Algorithm::global, Algorithm::semiglobal,
                                           Algorithm::edit,  Algorithm::lcs,    Algorithm::dtw};
    const Algorithm algo = kAlgos[r.pick(6)];
    ScoringOptions so;
    c.args = {"align", "--algo", std::string(algorithm_name(algo)), "--quiet"};
    c.args.insert(c.args.end(), {"--backend", r.pick(2) ? "cpu" : "auto"});
    if (algo == Algorithm::dtw) {
        SignalInput q{"q", r.signal()}, t{"t", r.signal()};
        const auto csv = [&](const std::string& name, const std::vector<double>& v, std::vector<double>& parsed) {
            std::string text = "value\n";
            for (const double x : v) {
                char b[32];
                std::snprintf(b, sizeof b, "%.6f\n", x);
                text += b;
                parsed.push_back(std::strtod(b, nullptr));  // what the CLI reads back
            }
            return dir.file(name, text);
        };
        std::vector<double> qv, tv;
        const std::string qf = csv("q.csv", q.values, qv), tf = csv("t.csv", t.values, tv);
        q.values = qv;
        t.values = tv;
        if (r.pick(2)) {
            so.dtw_cost = DtwCost::squared;
            c.args.insert(c.args.end(), {"--dtw-cost", "squared"});
        }
        if (r.pick(3) == 0) {
            // Wide enough for a path from corner to corner (a narrower one is a usage error).
            so.band = int(std::max(q.values.size(), t.values.size()) - std::min(q.values.size(), t.values.size())) +
                      int(r.pick(20));
            c.args.insert(c.args.end(), {"--band", std::to_string(so.band)});
        }
        c.args.insert(c.args.end(), {qf, tf});
        auto p = make_dtw_problem(q, t, so);
        if (p) c.problem = std::move(*p);
    } else {
        const bool protein = r.pick(2);
        const std::string q = r.sequence(protein), t = r.sequence(protein);
        if (uses_substitution_matrix(algo)) {
            if (r.pick(3)) {
                const char* name = protein ? (r.pick(2) ? "BLOSUM62" : "PAM250") : "NUC.4.4";
                c.args.insert(c.args.end(), {"--matrix", name});
                so.matrix = *load_matrix(name);
            } else {
                so.match = 1 + int(r.pick(5));
                so.mismatch = -int(r.pick(5));
                c.args.insert(c.args.end(), {"--match", std::to_string(so.match), "--mismatch", std::to_string(so.mismatch)});
            }
        }
        if (uses_gap_penalties(algo)) {
            so.gaps.open = 1 + int(r.pick(20));
            so.gaps.extend = 1 + int(r.pick(unsigned(so.gaps.open)));
            c.args.insert(c.args.end(), {"--gap-open", std::to_string(so.gaps.open), "--gap-extend",
                                         std::to_string(so.gaps.extend)});
        }
        c.args.insert(c.args.end(), {"--seq", q, t});
        auto p = make_problem(algo, {"query", q}, {"target", t}, so);
        if (p) c.problem = std::move(*p);
    }
    c.score_only = r.pick(4) == 0;
    if (c.score_only) c.args.push_back("--score-only");
    if (!c.score_only && algo != Algorithm::dtw && r.pick(5) == 0) c.format = r.pick(2) ? "sam" : "cigar";
    c.args.insert(c.args.end(), {"--format", c.format == "json" && c.score_only ? "text" : c.format});
    if (c.score_only) c.format = "text";
    if (r.pick(40) == 0) {  // a usage error on purpose: the run must end with exit 2 and one line
        if (uses_gap_penalties(algo) && r.pick(2)) c.args.insert(c.args.end(), {"--gap-open", "-3"});  // the last one counts
        else c.args.push_back("--bogus");
        c.problem.reset();
    }
    return c;
}

TEST(CliSoak, ThousandsOfAlignRunsMatchTheReferenceAndKeepMemoryFlat) {
    const auto t0 = std::chrono::steady_clock::now();
    test::TempDir dir;
    Pairs r(20261201);
    const std::regex json_score("\"score\":(-?[0-9]+)"), text_score("score (-?[0-9]+) end");
    int checked = 0, usage = 0, other_formats = 0;
    double rss_base = 0, heap_base = 0;
    for (int k = 0; k < kRuns; ++k) {
        const Case c = random_case(r, dir);
        const test::CliResult out = test::run(c.args);
        std::string cmd;
        for (const std::string& a : c.args) cmd += a + " ";
        if (!c.problem) {
            ASSERT_EQ(out.code, kExitUsage) << cmd << "\n" << out.err;
            ASSERT_EQ(std::count(out.err.begin(), out.err.end(), '\n'), 1) << out.err;
            ++usage;
        } else {
            ASSERT_EQ(out.code, kExitOk) << cmd << "\n" << out.err;
            std::smatch m;
            if (c.format == "json" || c.score_only) {
                ASSERT_TRUE(std::regex_search(out.out, m, c.format == "json" ? json_score : text_score)) << cmd << "\n" << out.out;
                const DpResult ref = align_reference(*c.problem);
                ASSERT_EQ(std::stoi(m[1].str()), ref.score) << cmd;
                ++checked;
            } else {
                ASSERT_FALSE(out.out.empty()) << cmd;
                ++other_formats;
            }
        }
        if (k + 1 == kBaselineAt) {
            rss_base = resident_kib();
            heap_base = heap_bytes();
        }
    }
    const double rss_end = resident_kib(), heap_end = heap_bytes();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("CliSoak: %d runs (%d scores checked against the reference, %d other formats, %d usage errors), %.1f s\n",
                kRuns, checked, other_formats, usage, seconds);
    std::printf("CliSoak: resident %.0f kB after %d runs, %.0f kB after %d (%+.2f %%); heap in use %.0f -> %.0f kB (%+.2f %%)\n",
                rss_base, kBaselineAt, rss_end, kRuns, 100.0 * (rss_end - rss_base) / rss_base, heap_base / 1024,
                heap_end / 1024, 100.0 * (heap_end - heap_base) / heap_base);
    EXPECT_GT(checked, kRuns / 2);
    EXPECT_GT(usage, 0);
#ifdef DPVIZ_SOAK_ASAN
    EXPECT_LE(heap_end, heap_base * 1.05) << "live heap grew";
#else
    EXPECT_LE(rss_end, rss_base * 1.05) << "resident memory grew";
#endif
}

}  // namespace
}  // namespace dpviz::app
