#include <gtest/gtest.h>
#include "dpviz/engine.hpp"
TEST(Smoke, Builds) {
    dpviz::ScoringOptions s; s.gaps = {2, 2};
    auto p = dpviz::make_problem(dpviz::Algorithm::global, {"q", "ACGT"}, {"t", "AGT"}, s);
    ASSERT_TRUE(p);
    auto r = dpviz::align_reference(*p);
    EXPECT_EQ(r.score, 1);
}
