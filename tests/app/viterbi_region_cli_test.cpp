// `dpviz align --algo viterbi` through the result store: --region with --table and --png, the
// table of the whole trellis, against the engine's whole trellis cell by cell; --png of a
// trellis too big to hold, drawn from the overview the fill pooled; the landscape's refusal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "dpviz/render/heatmap.hpp"
#include "dpviz/render/png.hpp"
#include "dpviz/store.hpp"
#include "exit_codes.hpp"
#include "hmm_file.hpp"
#include "kernels/hmm_test_util.hpp"

namespace dpviz::app {
namespace {

using test::run;
using hmm_test::whole_trellis;

std::string example(const std::string& name) { return std::string(DPVIZ_ASSETS) + "/examples/" + name; }

// Every line of a Viterbi table against the whole trellis: the cell, ln p exactly (read back and
// scaled, it is the fixed-point integer), the predecessor row.
void expect_table_is_trellis(const std::string& table, const Problem& p, const DpResult& whole, Window w) {
    const std::vector<std::string> lines = test::lines_of(table);
    ASSERT_EQ(lines.size(), size_t(w.cells() + 1));
    EXPECT_EQ(lines[0], "i\tj\tH\tback");
    size_t k = 1;
    int finite = 0;
    for (int32_t i = w.i0; i < w.i1; ++i)
        for (int32_t j = w.j0; j < w.j1; ++j, ++k) {
            const std::vector<std::string> f = test::fields(lines[k]);
            ASSERT_EQ(f.size(), 4u) << lines[k];
            ASSERT_EQ(f[0], std::to_string(i));
            ASSERT_EQ(f[1], std::to_string(j));
            const int32_t h = whole.H.at(i, j);
            if (h == kNegInf) {
                ASSERT_EQ(f[2], "-inf") << "cell " << i << "," << j;
            } else {
                ASSERT_EQ(std::ldexp(std::stod(f[2]), p.hmm_fixed->scale_log2), double(h)) << "cell " << i << "," << j;
                ++finite;
            }
            ASSERT_EQ(f[3], std::to_string(whole.back.at(i, j))) << "cell " << i << "," << j;
        }
    EXPECT_GT(finite, 0);
}

// Windows across kept columns (K = 256 at this size: 512, 768, 1024) and at the trellis's edges,
// on the CPU's store and on the reference's whole trellis.
TEST(ViterbiRegionCli, TableEqualsTheWholeTrellis) {
    test::TempDir dir;
    const std::string model = example("cpg.hmm"), obs = example("insr_exon1.fa");
    auto p = load_viterbi_problem(model, obs, false);
    ASSERT_TRUE(p) << p.error().message;
    const DpResult whole = whole_trellis(*p);
    const int32_t S = p->rows(), T = p->cols();
    const Window windows[] = {{0, S + 1, 500, 1030}, {1, 2, 767, 770}, {0, 1, 0, 1}, {S, S + 1, T, T + 1},
                              {0, S + 1, T - 3, T + 1}, {1, S + 1, 1, 3}};
    for (const Window& w : windows) {
        const std::string region = std::to_string(w.i0) + ":" + std::to_string(w.i1) + "," + std::to_string(w.j0) +
                                   ":" + std::to_string(w.j1);
        SCOPED_TRACE(region);
        const auto r = run({"align", "--algo", "viterbi", "--hmm", model, obs, "--region", region, "--table",
                            dir.path("w.tsv")});
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_NE(r.out.find("# table: " + dir.path("w.tsv")), std::string::npos) << r.out;
        expect_table_is_trellis(test::slurp(dir.path("w.tsv")), *p, whole, w);
        const auto ref = run({"align", "--algo", "viterbi", "--hmm", model, obs, "--region", region, "--table",
                              dir.path("ref.tsv"), "--backend", "cpu-reference"});
        ASSERT_EQ(ref.code, kExitOk) << ref.err;
        EXPECT_EQ(test::slurp(dir.path("w.tsv")), test::slurp(dir.path("ref.tsv")));
    }
    // The whole trellis without --region, to standard output.
    const auto all = run({"align", "--algo", "viterbi", "--hmm", example("casino.hmm"), example("casino_rolls.txt"),
                          "--table", "-"});
    ASSERT_EQ(all.code, kExitOk) << all.err;
    auto casino = load_viterbi_problem(example("casino.hmm"), example("casino_rolls.txt"), false);
    ASSERT_TRUE(casino);
    expect_table_is_trellis(all.out, *casino, whole_trellis(*casino), {0, 3, 0, 301});
}

TEST(ViterbiRegionCli, PngOfAWindowHasTheWindowsShape) {
    test::TempDir dir;
    const auto r = run({"align", "--algo", "viterbi", "--hmm", example("cpg.hmm"), example("insr_exon1.fa"),
                        "--region", "0:3,1000:1012", "--png", dir.path("w.png")});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const std::string png = test::slurp(dir.path("w.png"));
    ASSERT_GT(png.size(), 33u);
    ASSERT_EQ(png.substr(1, 3), "PNG");
    auto be32 = [&](size_t at) {
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) v = v << 8 | uint8_t(png[at + k]);
        return v;
    };
    EXPECT_GT(be32(16), be32(20)) << "a 3 x 12 window is wider than high";
    EXPECT_NE(r.out.find("# PNG: " + dir.path("w.png")), std::string::npos);
}

// The scope of the environment variable that caps what dpviz may allocate.
struct MemoryLimit {
    explicit MemoryLimit(const std::string& v) { setenv("DPVIZ_MEMORY_LIMIT", v.c_str(), 1); }
    ~MemoryLimit() { unsetenv("DPVIZ_MEMORY_LIMIT"); }
    MemoryLimit(const MemoryLimit&) = delete;
    MemoryLimit& operator=(const MemoryLimit&) = delete;
};

// A trellis whose whole grid does not fit under the limit is drawn from the overview its fill
// pooled: the run succeeds where the whole trellis is refused, and its PNG is the picture of the
// overview that the whole trellis implies, byte for byte.
TEST(ViterbiRegionCli, PngOfATrellisTooBigToHoldComesFromTheOverview) {
    test::TempDir dir;
    std::mt19937 rng(6);
    std::string rolls = ">rolls\n";
    for (int k = 0; k < 200000; ++k) rolls += char('1' + rng() % 6);
    const std::string obs = dir.file("rolls.fa", rolls + "\n"), model = example("casino.hmm");
    auto p = load_viterbi_problem(model, obs, false);
    ASSERT_TRUE(p) << p.error().message;
    // Between what the store needs and what the whole trellis needs.
    const uint64_t whole_bytes = estimate_host_bytes(*p, OutputLevel::matrix);
    const uint64_t limit = estimate_host_bytes(*p, OutputLevel::score) + (uint64_t(1) << 20);
    ASSERT_LT(2 * limit, whole_bytes);
    const std::string png = dir.path("t.png");
    {
        const MemoryLimit cap(std::to_string(limit));
        const auto refused = run({"align", "--algo", "viterbi", "--hmm", model, obs, "--backend", "cpu-reference",
                                  "--png", dir.path("no.png")});
        test::expect_failure(refused, kExitResource, {"available"});
        const auto r = run({"align", "--algo", "viterbi", "--hmm", model, obs, "--png", png, "--png-size", "300"});
        ASSERT_EQ(r.code, kExitOk) << r.err;
    }
    // The picture the CLI draws of an overview, from the whole trellis's.
    const DpResult whole = whole_trellis(*p);
    const Overview o = overview_from_matrix(*p, whole.H, overview_block(*p, 300));
    render::HeatmapOptions h;
    h.max_side = 300;
    DpResult shown = whole;
    shown.backend = Backend::cpu;
    h.caption = format_caption(*p, shown);
    h.value_text = [&](int64_t v) { return value_text(*p, v); };
    h.range = render::ValueRange{o.min, o.max, o.any_finite, o.any_unreachable};
    h.rows_shown = {0, p->rows()};
    h.cols_shown = {0, p->cols()};
    auto img = render::compose_heatmap(o.H, overview_path(o, whole.path), h);
    ASSERT_TRUE(img) << img.error().message;
    ASSERT_TRUE(render::write_png_atomic(*img, dir.path("want.png")));
    EXPECT_TRUE(test::slurp(png) == test::slurp(dir.path("want.png"))) << "the overview's picture";
}

TEST(ViterbiRegionCli, TheLandscapeIsRefusedWithWhy) {
    test::TempDir dir;
    const auto r = run({"align", "--algo", "viterbi", "--hmm", example("casino.hmm"), example("casino_rolls.txt"),
                        "--layer", "landscape", "--table", dir.path("l.tsv")});
    test::expect_failure(r, kExitUsage, {"--layer landscape", "viterbi", "--layer H"});
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace dpviz::app
