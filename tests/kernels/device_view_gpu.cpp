// The GPU-resident view path (align_on_device) against the reference: the same score, end cell,
// path and alignment; every cell of H, E, F and the direction bytes read back through windows;
// each max-pooled level equal to a host max-pool; the value ranges. Every algorithm, linear and
// affine gaps. Skips cleanly without a usable device.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <random>
#include <sstream>

#include "dpviz/device_view.hpp"
#include "dpviz/engine.hpp"
#include "gpu_dispatch.hpp"
#include "gpu_test.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

struct Case {
    const char* name;
    Algorithm algo;
    GapPenalties gaps;
};

const Case kCases[] = {
    {"local-linear", Algorithm::local, {2, 2}},      {"local-affine", Algorithm::local, {5, 1}},
    {"global-linear", Algorithm::global, {2, 2}},    {"global-affine", Algorithm::global, {4, 2}},
    {"semiglobal-linear", Algorithm::semiglobal, {1, 1}}, {"semiglobal-affine", Algorithm::semiglobal, {3, 1}},
    {"edit", Algorithm::edit, {1, 1}},               {"lcs", Algorithm::lcs, {1, 1}},
    {"dtw", Algorithm::dtw, {1, 1}},
    {"glocal-linear", Algorithm::glocal, {2, 2}},    {"glocal-affine", Algorithm::glocal, {4, 1}},
};

Problem make_case(const Case& c, int m, int n, uint32_t seed) {
    std::mt19937 g(seed);
    ScoringOptions so;
    so.gaps = c.gaps;
    so.match = 2;
    so.mismatch = -3;
    if (c.algo == Algorithm::dtw) {
        std::vector<double> a(static_cast<size_t>(m)), b(static_cast<size_t>(n));
        double x = 0;
        for (auto& v : a) v = (x += double(int(g() % 201) - 100) / 40.0);
        for (auto& v : b) v = (x += double(int(g() % 201) - 100) / 40.0);
        auto p = make_dtw_problem({"q", a}, {"t", b}, so);
        EXPECT_TRUE(p) << p.error().message;
        return *p;
    }
    const std::string q = test::random_sequence(g, test::kDna, m);
    std::string t = test::mutate(g, q, test::kDna, 0.06);
    t.resize(size_t(n), 'C');
    auto p = make_problem(c.algo, {"q", q}, {"t", t}, so);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

// render::build_value_pyramid's pooling, written again here: the largest reachable value.
Grid<int32_t> pool(const Grid<int32_t>& src) {
    Grid<int32_t> dst;
    dst.reset((src.rows + 1) / 2, (src.cols + 1) / 2, kNegInf);
    for (int i = 0; i < src.rows; ++i)
        for (int j = 0; j < src.cols; ++j) {
            const int32_t v = src.at(i, j);
            const int32_t k = v > kNegInf && v < kPosInf ? v : kNegInf;
            dst.at(i / 2, j / 2) = std::max(dst.at(i / 2, j / 2), k);
        }
    return dst;
}

void check(const Case& c, int m, int n, uint32_t seed, bool dpx, int min_side) {
    std::ostringstream what;
    what << c.name << " " << m << "x" << n << " seed " << seed << (dpx ? " dpx" : " dpx-free") << " min_side " << min_side;
    SCOPED_TRACE(what.str());
    const Problem p = make_case(c, m, n, seed);
    const DpResult ref = align_reference(p);
    int calls = 0;
    DeviceRange early;
    auto d = align_on_device(p, dpx, min_side, {}, [&](const DeviceRange& r) {
        early = r;
        ++calls;
    });
    ASSERT_TRUE(d) << d.error().message;
    // H's range reaches the caller once, before the path, and is the range the matrices report.
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(early.min, d->matrices->range(0).min);
    EXPECT_EQ(early.max, d->matrices->range(0).max);
    EXPECT_EQ(early.any_finite, d->matrices->range(0).any_finite);
    EXPECT_EQ(early.any_unreachable, d->matrices->range(0).any_unreachable);
    const DpResult& r = d->result;
    EXPECT_EQ(r.score, ref.score);
    EXPECT_EQ(r.end, ref.end);
    EXPECT_EQ(r.path, ref.path);
    EXPECT_EQ(r.alignment.cigar, ref.alignment.cigar);
    EXPECT_EQ(r.alignment.query_row, ref.alignment.query_row);
    EXPECT_TRUE(r.H.empty() && r.dirs.empty());  // nothing of the matrices on the host
    // The launch shape the teaching views map cells with: the one a copy-back run reports.
    auto copied = align_gpu(p, OutputLevel::matrix, dpx);
    ASSERT_TRUE(copied) << copied.error().message;
    EXPECT_GT(r.shape.blocks, 0);
    EXPECT_EQ(r.shape.blocks, copied->shape.blocks);
    EXPECT_EQ(r.shape.warps_per_block, copied->shape.warps_per_block);

    const DeviceMatrices& dm = *d->matrices;
    ASSERT_EQ(dm.rows(), m + 1);
    ASSERT_EQ(dm.cols(), n + 1);
    const Grid<int32_t>* layers[3] = {&ref.H, &ref.E, &ref.F};
    for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(dm.has_layer(k), !layers[k]->empty()) << "layer " << k;
        if (!dm.has_layer(k)) continue;
        // The whole layer in four windows (one of them a single cell).
        Grid<int32_t> got;
        got.reset(m + 1, n + 1, 12345);
        const int mi = (m + 1) / 2, mj = (n + 1) / 3;
        const int wins[4][4] = {{0, 0, mi, mj}, {0, mj, mi, n + 1 - mj}, {mi, 0, m + 1 - mi, n + 1}, {m, n, 1, 1}};
        for (const auto& w : wins) {
            std::vector<int32_t> buf(size_t(w[2]) * w[3]);
            ASSERT_TRUE(dm.fetch(k, w[0], w[1], w[2], w[3], buf.data()));
            for (int a = 0; a < w[2]; ++a)
                for (int b = 0; b < w[3]; ++b) got.at(w[0] + a, w[1] + b) = buf[size_t(a) * w[3] + b];
        }
        EXPECT_EQ(got.data, layers[k]->data) << "layer " << k;
        // The pyramid, level by level.
        const auto& lv = dm.levels(k);
        Grid<int32_t> want = *layers[k];
        for (size_t level = 0; level < lv.size(); ++level) {
            if (level) want = pool(want);
            ASSERT_EQ(lv[level].rows, want.rows) << "layer " << k << " level " << level;
            ASSERT_EQ(lv[level].cols, want.cols);
            std::vector<int32_t> buf(want.data.size());
            ASSERT_TRUE(dm.fetch_level(k, int(level), buf.data()));
            EXPECT_EQ(buf, want.data) << "layer " << k << " level " << level;
        }
        EXPECT_LE(std::max(want.rows, want.cols), min_side);  // pooled until the top fits, as on the host
        // The range: finite min/max and unreachable cells.
        int32_t lo = INT_MAX, hi = INT_MIN;
        bool unreachable = false;
        for (const int32_t v : layers[k]->data) {
            if (v > kNegInf && v < kPosInf) lo = std::min(lo, v), hi = std::max(hi, v);
            else unreachable = true;
        }
        const DeviceRange range = dm.range(k);
        EXPECT_EQ(range.any_unreachable, unreachable);
        EXPECT_EQ(range.any_finite, lo <= hi);
        if (lo <= hi) {
            EXPECT_EQ(range.min, lo);
            EXPECT_EQ(range.max, hi);
        }
    }
    Grid<uint8_t> bits;
    bits.reset(m + 1, n + 1, 0);
    ASSERT_TRUE(dm.fetch_bits(0, 0, m + 1, n + 1, bits.data.data()));
    EXPECT_EQ(bits.data, ref.dirs.data);
}

}  // namespace

TEST(DeviceView, SameResultsAndMatricesAsTheReferenceForRandomProblems) {
    DPVIZ_REQUIRE_DEVICE_VIEW();
    uint32_t seed = 11;
    const std::pair<int, int> shapes[] = {{1, 1}, {7, 300}, {130, 129}, {257, 200}, {300, 450}};
    for (const Case& c : kCases)
        for (const auto& [m, n] : shapes) {
            check(c, m, n, seed++, seed % 2 == 0, 16);
            if (HasFatalFailure()) return;
        }
}

TEST(DeviceView, LongPathsCrossManyTraceTiles) {
    DPVIZ_REQUIRE_DEVICE_VIEW();
    // 2,000 x 2,100: the path crosses ~8-16 tiles (256^2) of the traceback kernel in every state;
    // the global case ends in the matrix's last bytes (the tile loads' guarded tail).
    check(kCases[1], 2000, 2100, 5, true, 128);
    check(kCases[3], 2000, 2100, 6, false, 128);
    check(kCases[5], 1500, 2300, 7, true, 128);
    // Global ends in the matrix's last bytes; a 6,000-cell path crosses ~25 tiles.
    check(kCases[2], 3001, 2999, 8, true, 128);
    check(kCases[6], 3001, 2999, 9, false, 128);
}

TEST(DeviceView, CancelledBeforeStartIsCancelled) {
    DPVIZ_REQUIRE_DEVICE_VIEW();
    const Problem p = make_case(kCases[0], 100, 100, 1);
    std::atomic<bool> flag{true};
    RunControl ctl;
    ctl.cancel = &flag;
    auto d = align_on_device(p, true, 128, ctl);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error().kind, ErrorKind::cancelled);
}

TEST(DeviceView, GpuDescriptionNamesTheDevice) {
    const std::string d = gpu_description();
    if (!device_view_available()) {
        EXPECT_EQ(d.rfind("not available: ", 0), 0u) << d;
        return;
    }
    EXPECT_NE(d.find("SMs"), std::string::npos) << d;
    EXPECT_NE(d.find("GiB"), std::string::npos) << d;
}
