// Batch mode on the CPU: every pair's score and end cell equal the reference's (all algorithms,
// lengths 0 and 1 included), the checks that make pairs one batch, and the CPU fallback.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "batch_gpu.hpp"
#include "batch_test_util.hpp"
#include "dpviz/batch.hpp"
#include "gpu_dispatch.hpp"

using namespace dpviz;
using dpviz::test::batch_configs;
using dpviz::test::batch_of;

namespace {

void expect_reference(const std::vector<Problem>& pairs, const BatchResult& r, const std::string& what) {
    ASSERT_EQ(r.pairs.size(), pairs.size()) << what;
    int64_t cells = 0;
    for (size_t k = 0; k < pairs.size(); ++k) {
        const DpResult ref = align_reference(pairs[k]);
        const std::string at = what + " pair " + std::to_string(k) + " (" + std::to_string(pairs[k].rows()) + "x" +
                               std::to_string(pairs[k].cols()) + ")";
        EXPECT_EQ(r.pairs[k].score, ref.score) << at;
        EXPECT_EQ(r.pairs[k].end, ref.end) << at << ": end (" << r.pairs[k].end.i << "," << r.pairs[k].end.j
                                           << ") want (" << ref.end.i << "," << ref.end.j << ")";
        if (pairs[k].algo == Algorithm::dtw) EXPECT_DOUBLE_EQ(r.pairs[k].dtw_distance, ref.dtw_distance) << at;
        cells += int64_t(pairs[k].rows()) * pairs[k].cols();
    }
    EXPECT_EQ(r.cells, cells) << what;
}

}  // namespace

TEST(Batch, CpuBackendsMatchTheReferenceEveryAlgorithm) {
    uint32_t seed = 1;
    for (const auto& c : batch_configs())
        for (const auto& [count, lo, hi] : std::vector<std::tuple<int, int, int>>{{1, 0, 1}, {9, 0, 3}, {23, 0, 70}}) {
            const auto pairs = batch_of(c, count, lo, hi, seed++);
            ASSERT_EQ(int(pairs.size()), count) << c.name;
            for (const Backend b : {Backend::cpu, Backend::cpu_reference})
                for (const unsigned threads : {1u, 3u}) {
                    BatchOptions opt;
                    opt.backend = b;
                    opt.threads = threads;
                    auto r = align_batch(pairs, opt);
                    ASSERT_TRUE(r) << c.name << ": " << r.error().message;
                    EXPECT_EQ(r->backend, b);
                    EXPECT_TRUE(r->fallback.empty()) << r->fallback;
                    expect_reference(pairs, *r, c.name + " " + std::string(backend_name(b)) + " threads " +
                                                    std::to_string(threads));
                    if (HasFatalFailure()) return;
                }
        }
}

TEST(Batch, EmptySidesAndSingleResidues) {
    for (const auto& c : batch_configs()) {
        if (c.algo == Algorithm::dtw) continue;  // DTW needs two non-empty signals
        std::mt19937 g(5);
        std::vector<Problem> pairs;
        for (const auto& [m, n] : std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 9}, {9, 0}, {1, 9}, {9, 1}}) {
            auto p = test::batch_pair(c, m, n, g);
            ASSERT_TRUE(p) << c.name << ": " << p.error().message;
            pairs.push_back(std::move(*p));
        }
        BatchOptions opt;
        opt.backend = Backend::cpu;
        auto r = align_batch(pairs, opt);
        ASSERT_TRUE(r) << c.name << ": " << r.error().message;
        expect_reference(pairs, *r, c.name + " edges");
    }
}

TEST(Batch, GpuRequestGivesTheReferenceScoresOnEveryMachine) {
    // With a device this runs the batch kernels; without one it falls back to the CPU and says so.
    const auto& c = batch_configs()[1];  // local affine
    const auto pairs = batch_of(c, 12, 0, 90, 77);
    for (const Backend b : {Backend::automatic, Backend::cuda, Backend::cuda_portable}) {
        BatchOptions opt;
        opt.backend = b;
        auto r = align_batch(pairs, opt);
        ASSERT_TRUE(r) << r.error().message;
        if (!gpu_usable() && b != Backend::automatic) {
            EXPECT_EQ(r->backend, Backend::cpu);
            EXPECT_NE(r->fallback.find("ran on the CPU"), std::string::npos) << r->fallback;
        }
        expect_reference(pairs, *r, std::string(backend_name(b)));
    }
}

TEST(Batch, RepeatsAreTimedAndResultsUnchanged) {
    const auto pairs = batch_of(batch_configs()[14], 5, 10, 40, 3);  // edit
    BatchOptions opt;
    opt.backend = Backend::cpu;
    opt.repeats = 4;
    auto r = align_batch(pairs, opt);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->runs_ms.size(), 4u);
    EXPECT_GE(r->fill_ms, *std::min_element(r->runs_ms.begin(), r->runs_ms.end()));
    EXPECT_LE(r->fill_ms, *std::max_element(r->runs_ms.begin(), r->runs_ms.end()));
    expect_reference(pairs, *r, "repeats");
    opt.repeats = 0;
    auto bad = align_batch(pairs, opt);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::usage);
}

TEST(Batch, OneSetupPerBatch) {
    std::mt19937 g(9);
    auto local = test::batch_pair(batch_configs()[0], 20, 20, g);
    auto global = test::batch_pair(batch_configs()[3], 20, 20, g);
    auto affine = test::batch_pair(batch_configs()[1], 20, 20, g);
    ASSERT_TRUE(local && global && affine);

    auto mixed_algo = check_batch(std::vector<Problem>{*local, *global});
    ASSERT_FALSE(mixed_algo);
    EXPECT_EQ(mixed_algo.error().kind, ErrorKind::usage);
    EXPECT_NE(mixed_algo.error().message.find("pair 2"), std::string::npos) << mixed_algo.error().message;
    EXPECT_NE(mixed_algo.error().message.find("algorithm"), std::string::npos) << mixed_algo.error().message;

    auto mixed_gaps = align_batch(std::vector<Problem>{*local, *affine}, {});
    ASSERT_FALSE(mixed_gaps);
    EXPECT_NE(mixed_gaps.error().message.find("gap penalties"), std::string::npos) << mixed_gaps.error().message;

    // Match/mismatch pairs over their own letters agree; a different match score does not.
    ScoringOptions so;
    so.gaps = {2, 2};
    so.match = 2;
    so.mismatch = -3;
    auto a = make_problem(Algorithm::local, {"a", "ACGT"}, {"b", "ACG"}, so);
    auto b = make_problem(Algorithm::local, {"c", "TTG"}, {"d", "GGA"}, so);
    so.match = 3;
    auto d = make_problem(Algorithm::local, {"e", "GA"}, {"f", "GC"}, so);
    ASSERT_TRUE(a && b && d);
    EXPECT_TRUE(check_batch(std::vector<Problem>{*a, *b}));
    auto conflict = check_batch(std::vector<Problem>{*a, *b, *d});
    ASSERT_FALSE(conflict);
    EXPECT_EQ(conflict.error().kind, ErrorKind::usage);
    EXPECT_NE(conflict.error().message.find("pair 3"), std::string::npos) << conflict.error().message;

    EXPECT_TRUE(check_batch(std::vector<Problem>{}));
    auto none = align_batch(std::vector<Problem>{}, {});
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->pairs.empty());
}

TEST(Batch, CodeSpaceIsTheUnionOfLetters) {
    ScoringOptions so;
    so.match = 2;
    so.mismatch = -3;
    auto a = make_problem(Algorithm::edit, {"a", "AC"}, {"b", "CA"}, so);
    auto b = make_problem(Algorithm::edit, {"c", "GT"}, {"d", "GA"}, so);
    ASSERT_TRUE(a && b);
    auto codes = batch_codes(std::vector<Problem>{*a, *b});
    ASSERT_TRUE(codes) << codes.error().message;
    EXPECT_EQ(codes->letters, 4);  // A, C, G, T
    // The same letter gets the same batch code in both pairs; edit's input is a != b.
    const uint8_t a_in_first = codes->remap[0][size_t(a->matrix.index_of('A'))];
    const uint8_t a_in_second = codes->remap[1][size_t(b->matrix.index_of('A'))];
    EXPECT_EQ(a_in_first, a_in_second);
    const uint8_t g_code = codes->remap[1][size_t(b->matrix.index_of('G'))];
    EXPECT_EQ(codes->table[size_t(a_in_first) * 4 + a_in_first], 0);
    EXPECT_EQ(codes->table[size_t(a_in_first) * 4 + g_code], 1);
}

TEST(Batch, DtwBandWithoutPathIsAUsageError) {
    ScoringOptions so;
    so.band = 0;
    auto ok = make_dtw_problem({"q", {1, 2, 3}}, {"t", {1, 2, 3}}, so);
    auto none = make_dtw_problem({"q", {1, 2, 3, 4, 5}}, {"t", {1, 2}}, so);
    ASSERT_TRUE(ok && none);
    auto r = align_batch(std::vector<Problem>{*ok, *none}, {Backend::cpu, 1, 1});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::usage);
    EXPECT_NE(r.error().message.find("pair 2"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("widen the band"), std::string::npos) << r.error().message;
}
