// The recurrences of kernels/common/cell_ops.hpp, host policy: each form a kernel takes for speed
// (no direction bits, the chain's input last, the adds moved) gives the value of the plain form
// that also computes the direction bits, on seeded random inputs in the kernels' ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "../../kernels/common/cell_ops.hpp"
#include "dpviz/algorithm.hpp"

using namespace dpviz;
using cell::HostOps;

namespace {

constexpr int kDraws = 200000;

// Scores of a band's cells (|H| < 2^29 in every kernel; the draws stay well inside it).
int32_t score(std::mt19937& g) { return std::uniform_int_distribution<int32_t>(-(1 << 20), 1 << 20)(g); }
int32_t near(std::mt19937& g, int32_t v) { return v + std::uniform_int_distribution<int32_t>(-40, 40)(g); }

}  // namespace

TEST(CellOps, LinearGapFormsGiveThePlainValue) {
    std::mt19937 g(71);
    std::uniform_int_distribution<int32_t> sub(-127, 127), gap(0, 300);
    for (int n = 0; n < kDraws; ++n) {
        // Neighbours close together, so that every candidate wins (and ties) often.
        const int32_t diag = score(g), up = near(g, diag), left = near(g, diag), s = sub(g), gp = gap(g);
        const int32_t floor = n % 2 ? 0 : near(g, diag);
        uint32_t bits = 0, none = 0;
        for (const bool local : {true, false}) {
            const int32_t want = local ? cell::align_linear<HostOps, true, true>(diag, up, left, s, gp, floor, bits)
                                       : cell::align_linear<HostOps, false, true>(diag, up, left, s, gp, floor, bits);
            const int32_t nobits = local ? cell::align_linear<HostOps, true, false>(diag, up, left, s, gp, floor, none)
                                        : cell::align_linear<HostOps, false, false>(diag, up, left, s, gp, floor, none);
            const int32_t chain = local ? cell::align_linear<HostOps, true, false, true>(diag, up, left, s, gp, floor, none)
                                        : cell::align_linear<HostOps, false, false, true>(diag, up, left, s, gp, floor, none);
            ASSERT_EQ(nobits, want) << "local " << local << " draw " << n;
            ASSERT_EQ(chain, want) << "local " << local << " draw " << n;
        }
    }
}

TEST(CellOps, AffineGapFormGivesThePlainValues) {
    std::mt19937 g(72);
    std::uniform_int_distribution<int32_t> sub(-127, 127), ext(0, 40), more(0, 200);
    for (int n = 0; n < kDraws; ++n) {
        const int32_t diag = score(g), hup = near(g, diag), hleft = near(g, diag), fup = near(g, hup - 20),
                      eleft = near(g, hleft - 20), s = sub(g), x = ext(g), open = x + more(g);
        const int32_t floor = n % 2 ? 0 : near(g, diag);
        for (const bool local : {true, false}) {
            int32_t e0 = 0, f0 = 0, e1 = 0, f1 = 0;
            uint32_t bits = 0, none = 0;
            const int32_t want =
                local ? cell::align_affine<HostOps, true, true>(diag, hup, fup, hleft, eleft, s, open, x, floor, e0, f0, bits)
                      : cell::align_affine<HostOps, false, true>(diag, hup, fup, hleft, eleft, s, open, x, floor, e0, f0, bits);
            const int32_t fast =
                local ? cell::align_affine<HostOps, true, false>(diag, hup, fup, hleft, eleft, s, open, x, floor, e1, f1, none)
                      : cell::align_affine<HostOps, false, false>(diag, hup, fup, hleft, eleft, s, open, x, floor, e1, f1, none);
            ASSERT_EQ(fast, want) << "local " << local << " draw " << n;
            ASSERT_EQ(e1, e0) << "local " << local << " draw " << n;
            ASSERT_EQ(f1, f0) << "local " << local << " draw " << n;
        }
    }
}

TEST(CellOps, EditAndLcsFormsGiveThePlainValue) {
    std::mt19937 g(73);
    std::uniform_int_distribution<int32_t> value(0, 1 << 20), coin(0, 1);
    for (int n = 0; n < kDraws; ++n) {
        const int32_t diag = value(g), up = near(g, diag), left = near(g, diag);
        uint32_t bits = 0, none = 0;
        const int32_t mismatch = coin(g);  // 0 on a match
        ASSERT_EQ((cell::edit<HostOps, false>(diag, up, left, mismatch, none)),
                  (cell::edit<HostOps, true>(diag, up, left, mismatch, bits)))
            << "draw " << n;
        // LCS's gain: 1 on a match, the reference's "no diagonal" otherwise (or the corner form's s').
        const int32_t gain = coin(g) ? 1 : n % 3 ? -(1 << 29) : std::uniform_int_distribution<int32_t>(-127, 127)(g);
        const int32_t want = cell::lcs<HostOps, true>(diag, up, left, gain, bits);
        ASSERT_EQ((cell::lcs<HostOps, false>(diag, up, left, gain, none)), want) << "draw " << n;
        ASSERT_EQ((cell::lcs<HostOps, false, true>(diag, up, left, gain, none)), want) << "draw " << n;
    }
}

TEST(CellOps, DtwChainFormGivesThePlainValue) {
    std::mt19937 g(74);
    std::uniform_int_distribution<int32_t> value(0, (1 << 29) - 1), cost(0, (1 << 29) - 1), coin(0, 3);
    for (int n = 0; n < kDraws; ++n) {
        // Unreachable neighbours (kPosInf) often, and costs up to the problem's bound.
        const int32_t base = value(g);
        const auto pick = [&] { return coin(g) == 0 ? kPosInf : std::max(0, near(g, base)); };
        const int32_t diag = pick(), up = pick(), left = pick();
        const int32_t c = n % 2 ? cost(g) : std::uniform_int_distribution<int32_t>(0, 80)(g);
        uint32_t bits = 0, none = 0;
        const int32_t want = cell::dtw<HostOps, true>(diag, up, left, c, true, kPosInf, bits);
        ASSERT_EQ((cell::dtw<HostOps, false>(diag, up, left, c, true, kPosInf, none)), want) << "draw " << n;
        ASSERT_EQ((cell::dtw<HostOps, false, true>(diag, up, left, c, true, kPosInf, none)), want) << "draw " << n;
    }
}
