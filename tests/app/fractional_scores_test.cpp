// Fractional scores and penalties: parsed to hundredths, put on the smallest common integer
// scale, computed in integers and reported in the user's units; EMBOSS's gap defaults.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "app/cli_run.hpp"
#include "cli.hpp"
#include "cli_common.hpp"
#include "matrix_file.hpp"
#include "dpviz/engine.hpp"

namespace dpviz::app {
namespace {

using test::run;

Args args_of(std::initializer_list<std::pair<const char*, const char*>> kv) {
    Args a;
    for (const auto& [k, v] : kv) a.values[k] = v;
    return a;
}

TEST(FractionalScores, HundredthsAreParsedExactlyOrRejected) {
    const std::vector<std::pair<const char*, int64_t>> good = {
        {"10", 1000}, {"0.5", 50}, {"0.25", 25}, {"-3", -300}, {"-0.75", -75}, {"+2", 200}, {"12.", 1200},
        {".5", 50},   {"7.1", 710}, {"0", 0}};
    for (const auto& [text, hundredths] : good) {
        auto v = hundredths_option(args_of({{"--gap-open", text}}), "--gap-open", 0);
        ASSERT_TRUE(v) << text << ": " << v.error().message;
        EXPECT_EQ(*v, hundredths) << text;
    }
    for (const char* bad : {"", "ten", "1.234", "0.125", "1e3", "1,5", "--", ".", "-", "1.2.3", "99999999"}) {
        auto v = hundredths_option(args_of({{"--gap-extend", bad}}), "--gap-extend", 0);
        ASSERT_FALSE(v) << bad;
        EXPECT_EQ(v.error().kind, ErrorKind::usage);
        EXPECT_NE(v.error().message.find("--gap-extend"), std::string::npos) << v.error().message;
    }
    EXPECT_EQ(*hundredths_option(Args{}, "--gap-open", 1000), 1000);  // absent: the fallback
}

TEST(FractionalScores, TheScaleIsTheSmallestThatMakesEveryValueWhole) {
    EXPECT_EQ(common_score_scale({1000, 100}), 1);
    EXPECT_EQ(common_score_scale({1000, 50}), 2);
    EXPECT_EQ(common_score_scale({1050, 25}), 4);
    EXPECT_EQ(common_score_scale({120, 100}), 5);
    EXPECT_EQ(common_score_scale({110, -300}), 10);
    EXPECT_EQ(common_score_scale({1000, 75, 150}), 4);
    EXPECT_EQ(common_score_scale({33}), 100);
}

TEST(FractionalScores, ScoresAreShownInTheUsersUnits) {
    EXPECT_EQ(format_score(79, 2), "39.5");
    EXPECT_EQ(format_score(-79, 2), "-39.5");
    EXPECT_EQ(format_score(80, 2), "40");
    EXPECT_EQ(format_score(5, 4), "1.25");
    EXPECT_EQ(format_score(-1, 100), "-0.01");
    EXPECT_EQ(format_score(-20, 100), "-0.2");
    EXPECT_EQ(format_score(0, 50), "0");
    EXPECT_EQ(format_score(123, 1), "123");
}

// The score of `args` through the CLI's JSON, as text.
std::string json_score(const std::vector<std::string>& args) {
    std::vector<std::string> full = {"align", "--json", "--backend", "cpu"};
    full.insert(full.end(), args.begin(), args.end());
    const test::CliResult r = run(full);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    const auto at = r.out.find("\"score\":");
    if (at == std::string::npos) return "<none>";
    return r.out.substr(at + 8, r.out.find_first_of(",}", at) - at - 8);
}

TEST(FractionalScores, AFractionalRunEqualsTheSameRunInWholeUnitsDividedDown) {
    // Every value x 4 is whole: scores at 10.5 / 0.25 must be those at 42 / 1 divided by 4, for
    // every algorithm with gaps, on pairs that need long gaps.
    const std::string q = "GATTACAGATTACAGGGTTTAAACCCGATTACA", t = "GATTTTTTACAGATACAGGGAAACCCCCCGATTA";
    for (const char* algo : {"local", "global", "semiglobal"}) {
        SCOPED_TRACE(algo);
        const std::string frac = json_score({"--algo", algo, "--gap-open", "10.5", "--gap-extend", "0.25", "--match", "1.5",
                                             "--mismatch", "-0.75", "--seq", q, t});
        const std::string whole = json_score({"--algo", algo, "--gap-open", "42", "--gap-extend", "1", "--match", "6",
                                              "--mismatch", "-3", "--seq", q, t});
        EXPECT_DOUBLE_EQ(std::stod(frac) * 4, std::stod(whole)) << frac << " vs " << whole;
    }
    // A matrix keeps whole units and the gaps are halves (scale 2): the CLI equals the reference
    // on the doubled integer problem, shown halved.
    const std::string half = json_score({"--algo", "global", "--gap-open", "10", "--gap-extend", "0.5", "--seq", q, t});
    ScoringOptions so;
    so.score_scale = 2;
    so.gaps = {20, 1};
    auto m = load_matrix("NUC.4.4");
    ASSERT_TRUE(m);
    so.matrix = *m;
    auto p = make_problem(Algorithm::global, {"query", q}, {"target", t}, so);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(half, p->score_text(align_reference(*p).score));
}

TEST(FractionalScores, TheDefaultsAreEmbossNeedleAndWater) {
    // Open 10, extend 0.5: a two-residue gap costs 10.5.
    const std::string q = "ACGTACGTACGTACGTAAAACGTACGTACGTACGT", t = "ACGTACGTACGTACGTACGTACGTACGTACGT";
    for (const char* algo : {"local", "global", "semiglobal"})
        EXPECT_EQ(json_score({"--algo", algo, "--seq", q, t}),
                  json_score({"--algo", algo, "--gap-open", "10", "--gap-extend", "0.5", "--seq", q, t}))
            << algo;
    const test::CliResult text = run({"align", "--algo", "global", "--seq", q, t});
    ASSERT_EQ(text.code, kExitOk) << text.err;
    EXPECT_NE(text.out.find("# Gap_penalty: 10\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("# Extend_penalty: 0.5 (affine gaps)"), std::string::npos) << text.out;
    EXPECT_NE(run({"align", "--help"}).out.find("default 0.5, as EMBOSS needle/water"), std::string::npos);
}

TEST(FractionalScores, BadValuesAreUsageErrorsInTheUsersUnits) {
    const test::CliResult three = run({"align", "--seq", "--gap-extend", "0.125", "ACGT", "ACGT"});
    EXPECT_EQ(three.code, kExitUsage);
    EXPECT_NE(three.err.find("at most two decimals"), std::string::npos) << three.err;
    const test::CliResult order = run({"align", "--seq", "--gap-open", "2.5", "--gap-extend", "3.25", "ACGT", "ACGT"});
    EXPECT_EQ(order.code, kExitUsage);
    EXPECT_NE(order.err.find("(3.25) must not exceed"), std::string::npos) << order.err;
    EXPECT_NE(order.err.find("(2.5)"), std::string::npos) << order.err;
    const test::CliResult mm = run({"align", "--seq", "--match", "1", "--mismatch", "0.5", "ACGT", "ACGT"});
    EXPECT_EQ(mm.code, kExitUsage);
    EXPECT_NE(mm.err.find("got 0.5"), std::string::npos) << mm.err;
}

}  // namespace
}  // namespace dpviz::app
