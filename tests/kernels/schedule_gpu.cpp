// The teaching views' GPU mapping against the real kernel: fills of several shapes record, per
// cell, the block, warp and lane that computed it (FillParams::owner), and every cell must match
// Schedule::owner() for the launch shape the run reports. Skips cleanly without a device.
#include <gtest/gtest.h>

#include <string>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/schedule.hpp"
#include "gpu_dispatch.hpp"

using namespace dpviz;

namespace {

std::string letters(int n, int seed, const std::string& alphabet) {
    std::string s(size_t(n), 'A');
    for (int k = 0; k < n; ++k) s[size_t(k)] = alphabet[size_t((k * 7 + seed * 13 + k / 5) % int(alphabet.size()))];
    return s;
}

// Runs the fill with the owner output and compares every cell; returns the launch shape used.
FillShape check_owners(const Problem& p, bool dpx) {
    Grid<uint32_t> owner;
    auto r = align_gpu_owners(p, dpx, owner);
    EXPECT_TRUE(r) << r.error().message;
    if (!r) return {};
    EXPECT_EQ(r->backend, dpx ? Backend::cuda : Backend::cuda_portable);
    EXPECT_GE(r->shape.blocks, 1);
    EXPECT_GE(r->shape.warps_per_block, 1);
    EXPECT_LE(r->shape.warps_per_block, gpu_band::kMaxWarpsPerBlock);
    auto s = Schedule::of_result(*r, p.rows(), p.cols());
    EXPECT_TRUE(s) << (s ? "" : s.error().message);
    if (!s) return r->shape;
    EXPECT_EQ(owner.rows, p.rows() + 1);
    EXPECT_EQ(owner.cols, p.cols() + 1);
    int64_t bad = 0;
    for (int32_t i = 0; i <= p.rows(); ++i)
        for (int32_t j = 0; j <= p.cols(); ++j) {
            const uint32_t w = owner.at(i, j);
            if (i == 0 || j == 0) {
                if (w != 0xffffffffu && ++bad <= 5) ADD_FAILURE() << "border cell (" << i << ", " << j << ") written";
                continue;
            }
            const CellOwner o = s->owner(i, j);
            const uint32_t want = gpu_band::pack_owner(unsigned(o.block), unsigned(o.warp), unsigned(o.lane));
            if (w != want && ++bad <= 5)
                ADD_FAILURE() << "cell (" << i << ", " << j << "): kernel block " << gpu_band::owner_block(w) << " warp "
                              << gpu_band::owner_warp(w) << " lane " << gpu_band::owner_lane(w) << ", schedule block "
                              << o.block << " warp " << o.warp << " lane " << o.lane;
        }
    EXPECT_EQ(bad, 0);
    return r->shape;
}

#define DPVIZ_REQUIRE_GPU()                                         \
    do {                                                            \
        if (!gpu_usable()) GTEST_SKIP() << "no usable CUDA device"; \
    } while (0)

TEST(ScheduleGpu, OwnersMatchTheKernelForSeveralShapes) {
    DPVIZ_REQUIRE_GPU();
    const std::string dna = "ACGT";
    const std::pair<int, int> shapes[] = {{1, 1}, {5, 300}, {129, 77}, {700, 1000}, {3000, 64}, {257, 5}};
    for (const auto& [m, n] : shapes)
        for (const Algorithm algo : {Algorithm::global, Algorithm::local, Algorithm::edit}) {
            SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " " + std::string(algorithm_name(algo)));
            ScoringOptions sc;
            sc.gaps = {algo == Algorithm::local ? 5 : 2, algo == Algorithm::local ? 1 : 2};  // affine and linear
            auto p = make_problem(algo, {"q", letters(m, 1, dna)}, {"t", letters(n, 2, dna)}, sc);
            ASSERT_TRUE(p) << p.error().message;
            check_owners(*p, true);
            check_owners(*p, false);
        }
}

// More bands than resident warps: warps take a second and third band (the round-robin wrap).
// 20,000 bands exceed what an H200 keeps resident (132 SMs x 16 blocks x 4 warps at most).
TEST(ScheduleGpu, OwnersMatchWhenWarpsTakeSeveralBands) {
    DPVIZ_REQUIRE_GPU();
    ScoringOptions sc;
    sc.gaps = {2, 2};
    const int m = gpu_band::kBandRows * 20000 + 17;
    auto p = make_problem(Algorithm::global, {"q", letters(m, 5, "ACGT")}, {"t", letters(9, 6, "ACGT")}, sc);
    ASSERT_TRUE(p);
    const FillShape shape = check_owners(*p, true);
    EXPECT_LT(shape.blocks * shape.warps_per_block, gpu_band::band_count(m)) << "the grid did not wrap around";
}

}  // namespace
