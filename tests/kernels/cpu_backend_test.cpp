// The fast CPU backend (align_cpu) against the reference (align_reference), field by field and
// bit by bit: seeded random pairs of every algorithm, gap model, alphabet, size and thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "kernels/result_compare.hpp"

namespace dpviz {
namespace {

// Sanitizer builds run a fraction of the random cases, on smaller inputs.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kScale = 3;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kScale = 3;
#else
constexpr int kScale = 1;
#endif
#else
constexpr int kScale = 1;
#endif

// Every kernel the machine can run: DPVIZ_CPU_ISA caps the instruction set align_cpu picks
// (a cap the CPU lacks falls back to the next one down, so the list is safe anywhere).
const std::vector<const char*> kIsas = {"sse2", "avx2", "avx512"};

class IsaCap {
public:
    explicit IsaCap(const char* isa) { setenv("DPVIZ_CPU_ISA", isa, 1); }
    ~IsaCap() { unsetenv("DPVIZ_CPU_ISA"); }
    IsaCap(const IsaCap&) = delete;
    IsaCap& operator=(const IsaCap&) = delete;
};

// Everything the reference reports, restricted to what the level keeps, from the fast backend.
void expect_same(const DpResult& want, const DpResult& got, OutputLevel level, const std::string& where) {
    EXPECT_EQ(got.backend, Backend::cpu) << where;
    EXPECT_TRUE(got.fallback.empty()) << where;
    test::expect_same(want, got, level, where);
}

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

using test::kDna;
using test::kProtein;
using test::mutate;
using test::random_sequence;

// A random integer matrix over `alphabet` (positive diagonal, mostly negative elsewhere).
SubstitutionMatrix random_matrix(std::mt19937& rng, const std::string& alphabet) {
    SubstitutionMatrix m;
    m.name = "random";
    m.alphabet = alphabet;
    const size_t n = alphabet.size();
    m.scores.resize(n * n);
    std::uniform_int_distribution<int> off(-6, 3), on(2, 9);
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) m.scores[a * n + b] = a == b ? on(rng) : off(rng);
    return m;
}

struct Case {
    Algorithm algo = Algorithm::local;
    std::string query, target;
    ScoringOptions scoring;
};

Problem make(const Case& c) {
    auto p = make_problem(c.algo, {"q", c.query}, {"t", c.target}, c.scoring);
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return p ? *p : Problem{};
}

// The reference once, align_cpu at every level, instruction set and the given thread counts.
void check(const Problem& p, const std::string& where, const std::vector<unsigned>& threads = {1, 2}) {
    const DpResult want = align_reference(p);
    for (const char* isa : kIsas) {
        const IsaCap cap(isa);
        for (const unsigned t : threads)
            for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix})
                expect_same(want, align_cpu(p, level, t), level,
                            where + " isa " + isa + " threads " + std::to_string(t));
    }
}

std::string describe(const Case& c) {
    return std::string(algorithm_name(c.algo)) + " " + std::to_string(c.query.size()) + "x" +
           std::to_string(c.target.size()) + " gaps " + std::to_string(c.scoring.gaps.open) + "/" +
           std::to_string(c.scoring.gaps.extend) + (c.scoring.matrix ? " matrix" : " match/mismatch");
}

const std::vector<Algorithm> kSequenceAlgorithms = {Algorithm::local, Algorithm::global, Algorithm::semiglobal,
                                                    Algorithm::edit, Algorithm::lcs};

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

// Empty and tiny inputs: only borders, or a band of one row.
TEST(CpuBackend, TinyInputsEveryAlgorithm) {
    const std::vector<std::string> seqs = {"", "A", "C", "AC", "GA", "ACG", "TTTT"};
    for (const Algorithm algo : kSequenceAlgorithms)
        for (const GapPenalties gaps : {GapPenalties{2, 2}, GapPenalties{3, 1}})
            for (const std::string& q : seqs)
                for (const std::string& t : seqs) {
                    Case c{algo, q, t, {}};
                    c.scoring.match = 2;
                    c.scoring.mismatch = -1;
                    c.scoring.gaps = gaps;
                    check(make(c), describe(c) + " '" + q + "' vs '" + t + "'", {1, 3});
                }
}

// Sizes around the band height (4, 8, 16 lanes) and the chunk width (256 steps), where the
// kernels switch between edge and inner steps and the bits between block and scalar copies.
TEST(CpuBackend, BandAndChunkBoundaries) {
    std::mt19937 rng(7);
    const std::vector<int> rows = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49};
    const std::vector<int> cols = {1, 2, 15, 16, 17, 255, 256, 257, 271, 272, 273, 511, 512, 513};
    int n = 0;
    for (const int m : rows)
        for (const int c : cols) {
            if (kScale > 1 && (n++ % kScale)) continue;
            Case k;
            k.algo = kSequenceAlgorithms[size_t(m + c) % kSequenceAlgorithms.size()];
            k.target = random_sequence(rng, kDna, c);
            k.query = m <= c ? mutate(rng, k.target.substr(0, size_t(m)), kDna, 0.1) : random_sequence(rng, kDna, m);
            k.scoring.gaps = (m + c) % 2 ? GapPenalties{5, 2} : GapPenalties{2, 2};
            k.scoring.match = 2;
            k.scoring.mismatch = -3;
            check(make(k), describe(k), {1, 2, 3});
        }
}

// The bulk: seeded random pairs, related and unrelated, DNA and protein-like, match/mismatch and
// random matrices, linear and affine gaps, 1, 2, 3 and 7 threads.
TEST(CpuBackend, RandomPairsMatchReference) {
    std::mt19937 rng(20240611);
    const int cases = 240 / kScale;
    for (int n = 0; n < cases; ++n) {
        Case c;
        c.algo = kSequenceAlgorithms[size_t(n) % kSequenceAlgorithms.size()];
        const bool protein = n % 3 == 2;
        const std::string& alphabet = protein ? kProtein : kDna;
        std::uniform_int_distribution<int> small(0, 70), medium(60, 700), large(700, 2000);
        const int kind = n % 10;
        const int length = (kind < 5 ? small(rng) : kind < 9 ? medium(rng) : large(rng)) / (kScale > 1 ? 3 : 1);
        c.target = random_sequence(rng, alphabet, length);
        if (n % 4 != 3) {
            c.query = mutate(rng, c.target, alphabet, 0.02 + 0.03 * (n % 5));
            if (n % 7 == 1 && c.query.size() > 10) c.query = c.query.substr(c.query.size() / 4, c.query.size() / 2);
        } else {
            std::uniform_int_distribution<int> other(0, length + 40);
            c.query = random_sequence(rng, alphabet, other(rng));
        }
        if ((n / 5) % 2) c.scoring.matrix = random_matrix(rng, alphabet);
        std::uniform_int_distribution<int> mm(1, 5), gap(1, 12);
        c.scoring.match = mm(rng);
        c.scoring.mismatch = -mm(rng);
        const int open = gap(rng);
        c.scoring.gaps = n % 2 ? GapPenalties{open, open} : GapPenalties{open + 3, std::max(1, open / 3)};
        const std::vector<unsigned> threads = {1u + unsigned(n % 3) , n % 4 == 0 ? 7u : 2u};
        check(make(c), "case " + std::to_string(n) + ": " + describe(c), threads);
        if (::testing::Test::HasFailure()) return;  // one broken case is enough to read
    }
}

// Many exact ties: a two-letter alphabet with +1/-1 scoring has co-optimal paths everywhere, so
// every direction bit and the tie-breaks of the end cell are exercised.
TEST(CpuBackend, TiesEverywhere) {
    std::mt19937 rng(99);
    for (int n = 0; n < 30 / kScale; ++n) {
        Case c;
        c.algo = kSequenceAlgorithms[size_t(n) % kSequenceAlgorithms.size()];
        c.query = random_sequence(rng, "AC", 40 + 37 * n);
        c.target = random_sequence(rng, "AC", 35 + 41 * n);
        c.scoring.match = 1;
        c.scoring.mismatch = -1;
        c.scoring.gaps = n % 2 ? GapPenalties{1, 1} : GapPenalties{2, 1};
        check(make(c), describe(c), {1, 3});
    }
}

// Glocal alignment (the query end to end inside the target): tiny inputs, reads cut from a
// longer target and mutated (its use), unrelated pairs, and a two-letter alphabet full of ties.
TEST(CpuBackend, GlocalMatchesReference) {
    const std::vector<std::string> seqs = {"", "A", "C", "AC", "GA", "ACG", "TTTT"};
    for (const GapPenalties gaps : {GapPenalties{2, 2}, GapPenalties{3, 1}})
        for (const std::string& q : seqs)
            for (const std::string& t : seqs) {
                Case c{Algorithm::glocal, q, t, {}};
                c.scoring.match = 2;
                c.scoring.mismatch = -1;
                c.scoring.gaps = gaps;
                check(make(c), describe(c) + " '" + q + "' vs '" + t + "'", {1, 3});
            }
    std::mt19937 rng(4177);
    for (int n = 0; n < 90 / kScale; ++n) {
        Case c;
        c.algo = Algorithm::glocal;
        const bool ties = n % 6 == 5;
        const std::string& alphabet = ties ? std::string("AC") : n % 3 == 2 ? kProtein : kDna;
        std::uniform_int_distribution<int> length(1, n % 10 == 9 ? 1500 : 400);
        c.target = random_sequence(rng, alphabet, length(rng));
        std::uniform_int_distribution<size_t> at(0, c.target.size() - 1);
        const size_t begin = at(rng), len = std::min(c.target.size() - begin, 1 + at(rng) / 2);
        c.query = n % 4 == 3 ? random_sequence(rng, alphabet, int(len)) : mutate(rng, c.target.substr(begin, len), alphabet, 0.05);
        if (!ties && (n / 5) % 2) c.scoring.matrix = random_matrix(rng, alphabet);
        c.scoring.match = ties ? 1 : 3;
        c.scoring.mismatch = ties ? -1 : -2;
        c.scoring.gaps = n % 2 ? GapPenalties{4, 4} : GapPenalties{6, 1};
        check(make(c), "glocal case " + std::to_string(n) + ": " + describe(c), {1u + unsigned(n % 3), 2u});
        if (::testing::Test::HasFailure()) return;
    }
}

// Local alignment where nothing scores above 0: the end is (0, 0) and the path one cell.
TEST(CpuBackend, LocalWithoutPositiveCell) {
    Case c{Algorithm::local, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "CCCCCCCCCCCCCCCCCCCCCCCCCCCCC", {}};
    c.scoring.gaps = {4, 1};
    check(make(c), "no positive cell");
    const DpResult r = align_cpu(make(c), OutputLevel::path, 2);
    EXPECT_EQ(r.score, 0);
    EXPECT_EQ(r.end, (Cell{0, 0}));
}

// A long related pair on several threads (more threads than cores too): many bands in flight.
TEST(CpuBackend, LongPairManyThreads) {
    std::mt19937 rng(5);
    Case c;
    c.target = random_sequence(rng, kDna, 2000 / kScale);
    c.query = mutate(rng, c.target, kDna, 0.05);
    c.scoring.match = 5;
    c.scoring.mismatch = -4;
    c.scoring.gaps = {10, 1};
    for (const Algorithm algo : {Algorithm::local, Algorithm::global}) {
        c.algo = algo;
        const Problem p = make(c);
        const DpResult want = align_reference(p);
        for (const unsigned t : {0u, 2u, 7u})
            for (const OutputLevel level : {OutputLevel::path, OutputLevel::matrix})
                expect_same(want, align_cpu(p, level, t), level, describe(c) + " threads " + std::to_string(t));
    }
}

// DTW: abs and squared costs, with and without a Sakoe-Chiba band (also one with no path).
TEST(CpuBackend, DtwMatchesReference) {
    std::mt19937 rng(11);
    std::normal_distribution<double> noise(0.0, 1.0);
    const int cases = 60 / kScale;
    for (int n = 0; n < cases; ++n) {
        std::uniform_int_distribution<int> len(1, n % 6 == 5 ? 900 : 120);
        SignalInput q{"q", {}}, t{"t", {}};
        const int m = len(rng), k = len(rng);
        double x = 0;
        for (int i = 0; i < m; ++i) q.values.push_back(x += noise(rng));
        x = 0;
        for (int j = 0; j < k; ++j) t.values.push_back(x += noise(rng));
        ScoringOptions s;
        s.dtw_cost = n % 2 ? DtwCost::squared : DtwCost::abs;
        s.band = n % 3 == 0 ? -1 : (n % 3 == 1 ? 0 : n % 17);
        auto p = make_dtw_problem(q, t, s);
        ASSERT_TRUE(p) << p.error().message;
        check(*p, "dtw " + std::to_string(m) + "x" + std::to_string(k) + " band " + std::to_string(s.band), {1, 3});
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(CpuBackend, ReportsCellsAndBackend) {
    Case c{Algorithm::global, "ACGTACGT", "ACGGT", {}};
    const DpResult r = align_cpu(make(c), OutputLevel::score, 1);
    EXPECT_EQ(r.backend, Backend::cpu);
    EXPECT_EQ(r.cells, 40);
    EXPECT_EQ(r.level, OutputLevel::score);
}

}  // namespace
}  // namespace dpviz
