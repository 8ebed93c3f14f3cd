// `dpviz align --algo viterbi --hmm MODEL OBS`: the JSON fields against the engine's own run,
// the text view (observations above their decoded states), the PNG of the trellis, and the
// one-line errors with their exit codes for bad models, observations and options.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

#include "cli_run.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "exit_codes.hpp"
#include "hmm_file.hpp"

namespace dpviz::app {
namespace {

using test::run;

std::string example(const std::string& name) { return std::string(DPVIZ_ASSETS) + "/examples/" + name; }

// The state names of a JSON "state_path" array, in order.
std::vector<std::string> state_path(const std::string& json) {
    std::vector<std::string> out;
    const size_t at = json.find("\"state_path\":[");
    if (at == std::string::npos) return out;
    size_t k = at + 14;
    while (json[k] == '"') {
        const size_t end = json.find('"', k + 1);
        out.push_back(json.substr(k + 1, end - k - 1));
        k = end + 1;
        if (json[k] == ',') ++k;
    }
    return out;
}

TEST(ViterbiCli, JsonReportsWhatTheEngineDecodes) {
    const std::string model = example("casino.hmm"), rolls = example("casino_rolls.txt");
    auto p = load_viterbi_problem(model, rolls, false);
    ASSERT_TRUE(p) << p.error().message;
    AlignOptions opt;
    opt.backend = Backend::cpu_reference;
    auto want = align(*p, opt);
    ASSERT_TRUE(want) << want.error().message;

    const auto r = run({"align", "--algo", "viterbi", "--hmm", model, "--backend", "cpu", "--json", rolls});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(test::json_field(r.out, "algo"), "\"viterbi\"");
    EXPECT_EQ(test::json_field(r.out, "states"), "2");
    EXPECT_EQ(test::json_field(r.out, "observations_length"), "300");
    EXPECT_EQ(test::json_field(r.out, "score"), std::to_string(want->score));
    EXPECT_EQ(test::json_field(r.out, "scale_log2"), std::to_string(p->hmm_fixed->scale_log2));
    const double lp = std::stod(test::json_field(r.out, "log_probability"));
    const double ref = std::stod(test::json_field(r.out, "viterbi_reference"));
    EXPECT_NEAR(lp, want->log_probability, 1e-9 * std::abs(lp));
    EXPECT_NEAR(ref, want->log_probability_reference, 1e-9 * std::abs(ref));
    EXPECT_LE(std::abs(std::stod(test::json_field(r.out, "viterbi_quantization_error"))),
              viterbi_quantization_bound(*p->hmm_fixed, 300));
    const auto states = state_path(r.out);
    ASSERT_EQ(states.size(), 300u);
    for (size_t t = 0; t < states.size(); ++t)
        ASSERT_EQ(states[t], p->hmm->states[size_t(want->path[t + 1].i - 1)]) << "observation " << t + 1;
    EXPECT_EQ(test::json_field(r.out, "final_state"), "\"" + states.back() + "\"");
    EXPECT_EQ(test::json_field(r.out, "backend"), "\"cpu\"");

    // Score only: no state path, the same score.
    const auto s = run({"align", "--algo", "viterbi", "--hmm", model, "--score-only", "--json", rolls});
    ASSERT_EQ(s.code, kExitOk) << s.err;
    EXPECT_EQ(test::json_field(s.out, "score"), std::to_string(want->score));
    EXPECT_EQ(s.out.find("state_path"), std::string::npos);
}

TEST(ViterbiCli, TextShowsObservationsAboveTheirStates) {
    // Four sixes in a row make the loaded die the better explanation.
    const auto r = run({"align", "--algo", "viterbi", "--hmm", example("casino.hmm"), "--seq", "1234566666666663"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const size_t obs = r.out.find("1234566666666663");
    ASSERT_NE(obs, std::string::npos) << r.out;
    const size_t line_end = r.out.find('\n', obs);
    const std::string below = r.out.substr(line_end + 1, r.out.find('\n', line_end + 1) - line_end - 1);
    const std::string decoded = below.substr(below.find_first_not_of(' '));
    ASSERT_EQ(decoded.size(), 16u) << below;
    EXPECT_EQ(below.size() - decoded.size(), obs - r.out.rfind('\n', obs) - 1);  // aligned under the symbols
    EXPECT_EQ(decoded.find_first_not_of("FL"), std::string::npos) << decoded;
    EXPECT_NE(decoded.find('L'), std::string::npos) << decoded;
    EXPECT_NE(r.out.find("# Log_probability: -"), std::string::npos);
    EXPECT_NE(r.out.find("# State runs"), std::string::npos);
}

TEST(ViterbiCli, PngOfTheTrellis) {
    test::TempDir dir;
    const std::string png = dir.path("trellis.png");
    const auto r = run({"align", "--algo", "viterbi", "--hmm", example("cpg.hmm"), example("insr_exon1.fa"), "--png",
                        png, "--png-size", "256"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    // A whole PNG (signature to IEND) of the trellis: 3 rows x 2,086 columns, so far wider than
    // high (IHDR's width and height, big-endian, at bytes 16 and 20).
    const std::string bytes = test::slurp(png);
    ASSERT_GT(bytes.size(), 33u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    EXPECT_EQ(bytes.substr(12, 4), "IHDR");
    EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND");
    const auto be32 = [&](size_t at) {
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) v = v << 8 | uint8_t(bytes[at + k]);
        return v;
    };
    const uint32_t width = be32(16), height = be32(20);
    EXPECT_GT(width, 2 * height) << width << " x " << height;
    EXPECT_NE(r.out.find("# PNG: " + png), std::string::npos) << r.out;
}

TEST(ViterbiCli, BadInputsAreOneLineErrorsWithTheirExitCodes) {
    // Every failure below is one line.
    auto expect_failure = [](const test::CliResult& r, int code, std::initializer_list<std::string> parts) {
        test::expect_failure(r, code, parts);
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    };
    test::TempDir dir;
    const std::string model = example("casino.hmm");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.path(name)) << text;
        return dir.path(name);
    };
    // A symbol outside the alphabet names file and position.
    const std::string rolls = write("rolls.txt", "1234\n5672\n");
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", model, rolls}), kExitInput,
                   {rolls, "position 7", "'7'", "casino.hmm"});
    // A row that does not sum to 1 names the line.
    const std::string bad = write("bad.hmm", "states A B\nalphabet x y\nstart 0.5 0.5\ntransition\nA 0.5 0.4\n"
                                             "B 0.5 0.5\nemission\nA 0.5 0.5\nB 0.5 0.5\n");
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", bad, "--seq", "xy"}), kExitInput, {bad + ":5", "sums to"});
    // Observations the model cannot produce.
    const std::string never = write("never.hmm", "states A\nalphabet x y\nstart 1\ntransition\nA 1\nemission\nA 1 0\n");
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", never, "--seq", "xxy"}), kExitInput, {"impossible"});
    // Options.
    expect_failure(run({"align", "--algo", "viterbi", rolls}), kExitUsage, {"--hmm MODEL"});
    expect_failure(run({"align", "--hmm", model, "a", "b"}), kExitUsage, {"--hmm applies to --algo viterbi only"});
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", model, rolls, rolls}), kExitUsage, {"OBSERVATIONS"});
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", model, "--format", "sam", "--seq", "12"}), kExitUsage,
                   {"--format sam does not apply to --algo viterbi"});
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", model, "--gap-open", "3", "--seq", "12"}), kExitUsage,
                   {"--gap-open does not apply"});
    expect_failure(run({"align", "--algo", "viterbi", "--hmm", dir.path("missing.hmm"), "--seq", "12"}), kExitInput,
                   {"missing.hmm"});
}

}  // namespace
}  // namespace dpviz::app
