// The terminal progress line of dpviz align: its text, the first-second delay and the redraw
// limit (with a clock the test moves), the in-place rewrite and the final blanking, and when it is off.
#include <unistd.h>

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "cli_run.hpp"
#include "progress_line.hpp"

namespace dpviz::app {
namespace {

TEST(ProgressLine, RateReadsInPowersOfAThousand) {
    EXPECT_EQ(format_cell_rate(0), "0 cells/s");
    EXPECT_EQ(format_cell_rate(950), "950 cells/s");
    EXPECT_EQ(format_cell_rate(999.6), "1.0 Kcells/s");  // as printed, not "1000 cells/s"
    EXPECT_EQ(format_cell_rate(12.34e6), "12.3 Mcells/s");
    EXPECT_EQ(format_cell_rate(1.2e9), "1.2 Gcells/s");
    EXPECT_EQ(format_cell_rate(999.97e6), "1.0 Gcells/s");
    EXPECT_EQ(format_cell_rate(2.5e12), "2.5 Tcells/s");
    EXPECT_EQ(format_cell_rate(-5), "0 cells/s");
}

TEST(ProgressLine, TextNamesTheFillThePercentAndTheRate) {
    EXPECT_EQ(progress_text("filling 30000 x 30000 local", 0.42, 1.2e9),
              "dpviz: filling 30000 x 30000 local ... 42% 1.2 Gcells/s");
    EXPECT_EQ(progress_text("x", 0.999, 1), "dpviz: x ... 99% 1 cells/s");  // 100% only when done
    EXPECT_EQ(progress_text("x", 1.0, 1), "dpviz: x ... 100% 1 cells/s");
    EXPECT_EQ(progress_text("x", 7.0, 1), "dpviz: x ... 100% 1 cells/s");
}

// What a progress line sees: a clock the test sets, and the stream the line writes to.
struct FakeTerminal {
    double now = 100.0;
    std::ostringstream out;
    ProgressLine::Clock clock() {
        return [this] { return now; };
    }
};

TEST(ProgressLine, NothingInTheFirstSecondThenRedrawnInPlaceAtMostTenTimesASecond) {
    FakeTerminal term;
    ProgressLine line(term.out, true, "filling 100 x 100 local", 10000, term.clock());
    term.now += 0.5;
    line.update(0.3);
    term.now += 0.25;
    line.update(0.6);
    EXPECT_EQ(term.out.str(), "");  // 0.75 s: a short run never draws
    term.now += 0.25;  // 1 s, 70% of 10,000 cells
    line.update(0.7);
    EXPECT_EQ(term.out.str(), "\rdpviz: filling 100 x 100 local ... 70% 7.0 Kcells/s");
    term.now += 0.0625;  // too soon after that draw
    line.update(0.75);
    EXPECT_EQ(term.out.str(), "\rdpviz: filling 100 x 100 local ... 70% 7.0 Kcells/s");
    term.now += 0.0625;  // 0.125 s after it: 8,800 cells in 1.125 s
    term.out.str("");
    line.update(0.88);
    EXPECT_EQ(term.out.str(), "\rdpviz: filling 100 x 100 local ... 88% 7.8 Kcells/s");
}

TEST(ProgressLine, AShorterLineBlanksTheRestAndFinishClearsIt) {
    FakeTerminal term;
    ProgressLine line(term.out, true, "x", 10000, term.clock());
    term.now += 1.0;
    line.update(0.1);  // 1,000 cells in 1 s
    EXPECT_EQ(term.out.str(), "\rdpviz: x ... 10% 1.0 Kcells/s");
    term.now += 9.0;
    term.out.str("");
    line.update(0.2);  // 2,000 cells in 10 s: one character shorter
    EXPECT_EQ(term.out.str(), "\rdpviz: x ... 20% 200 cells/s ");
    term.out.str("");
    line.finish();
    EXPECT_EQ(term.out.str(), "\r                             \r");  // the 29 characters of the longest line
    term.out.str("");
    line.finish();
    term.now += 1.0;
    line.update(0.9);
    EXPECT_EQ(term.out.str(), "");  // finished: nothing more
}

TEST(ProgressLine, AFastRunLeavesNothingBehind) {
    FakeTerminal term;
    {
        ProgressLine line(term.out, true, "x", 100, term.clock());
        term.now += 0.2;
        line.update(1.0);
    }  // the destructor finishes
    EXPECT_EQ(term.out.str(), "");
}

TEST(ProgressLine, DisabledWritesNothingEver) {
    FakeTerminal term;
    {
        ProgressLine line(term.out, false, "x", 100, term.clock());
        for (int k = 1; k <= 50; ++k) {
            term.now += 1.0;
            line.update(k / 50.0);
        }
        line.finish();
    }
    EXPECT_EQ(term.out.str(), "");
}

TEST(ProgressLine, OnlyTheRealStandardErrorOnATerminalWithoutQuiet) {
    std::ostringstream s;
    EXPECT_FALSE(progress_wanted(s, false));  // a caller's stream: tests, the fuzz harness
    EXPECT_FALSE(progress_wanted(std::cerr, true));  // --quiet
    EXPECT_EQ(progress_wanted(std::cerr, false), isatty(STDERR_FILENO) == 1);
}

TEST(ProgressLine, AlignWithProgressGivesAlignsResultAndKeepsTheCallersCallback) {
    ScoringOptions so;
    auto p = make_problem(Algorithm::global, {"q", "GATTACA"}, {"t", "GCATGCT"}, so);
    ASSERT_TRUE(p);
    AlignOptions opt;
    opt.backend = Backend::cpu;
    double last = -1;
    opt.control.progress = [&](double f) { last = f; };
    std::ostringstream err;
    auto r = align_with_progress(*p, opt, err, false);
    ASSERT_TRUE(r);
    AlignOptions plain_opt;
    plain_opt.backend = Backend::cpu;
    auto plain = align(*p, plain_opt);
    ASSERT_TRUE(plain);
    EXPECT_EQ(r->score, plain->score);
    EXPECT_EQ(r->alignment.cigar, plain->alignment.cigar);
    EXPECT_EQ(last, 1.0);
    EXPECT_EQ(err.str(), "");
}

TEST(ProgressLine, AlignTakesQuietAndAStreamErrGetsNoProgress) {
    auto r = test::run({"align", "--quiet", "--seq", "GATTACA", "GCATGCT"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    auto loud = test::run({"align", "--seq", "GATTACA", "GCATGCT"});
    EXPECT_EQ(loud.code, 0);
    EXPECT_EQ(loud.out, r.out);
    EXPECT_EQ(loud.err, "");
    auto help = test::run({"align", "--help"});
    EXPECT_NE(help.out.find("--quiet"), std::string::npos);
}

}  // namespace
}  // namespace dpviz::app
