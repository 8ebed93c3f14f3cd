// The matrix behind the tests of EMBOSS's similarity rule (a pair is similar when one residue
// scores > 0 against itself and against the other): P/Q scores +2 but both diagonals are
// negative, so not similar; A/E is similar, with A/A = 0, because E/E > 0 and E/A > 0.
#pragma once

namespace dpviz::test {

inline constexpr const char* kSimilarityRuleMatrix =
    "   A  E  P  Q  W\n"
    "A  0  1  0  0  0\n"
    "E  1  4  0  0  0\n"
    "P  0  0 -1  2  0\n"
    "Q  0  0  2 -1  0\n"
    "W  0  0  0  0 11\n";

}  // namespace dpviz::test
