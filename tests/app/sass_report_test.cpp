// The SASS reports' data: the shipped reports parse, DPX opcodes are flagged where the report
// counts them and DPX-free kernels show none, every algorithm's fill kernel is found by name, the
// res-usage parser and the occupancy rules, the fallback order.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "gpu_model.hpp"
#include "sass_report.hpp"
#include "scoped_env.hpp"
#include "temp_dir.hpp"

namespace dpviz::app {
namespace {

using dpviz::test::TempDir;

std::string docs_sass() { return std::string(DPVIZ_ASSETS) + "/../docs/sass"; }

std::string read(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), {}};
}

// What a report script of kernels/cuda (run by `interpreter`) prints for a fabricated dump.
std::string run_report_script(const std::string& interpreter, const std::string& script, const std::string& dump_text) {
    TempDir dir;
    const std::string dump = dir.path() + "/dump.txt", out = dir.path() + "/report.txt";
    std::ofstream(dump) << dump_text;
    const std::string path = std::string(DPVIZ_ASSETS) + "/../kernels/cuda/" + script;
    const int rc = std::system((interpreter + " '" + path + "' '" + dump + "' > '" + out + "' 2>&1").c_str());
    EXPECT_EQ(rc, 0) << read(out);
    return read(out);
}

int dpx_ops(const OpCounts& ops) {
    int n = 0;
    for (const auto& [op, count] : ops)
        if (is_dpx_opcode(op)) n += count;
    return n;
}

TEST(SassReport, DpxOpcodes) {
    EXPECT_TRUE(is_dpx_opcode("VIADDMNMX"));
    EXPECT_TRUE(is_dpx_opcode("VIADDMNMX.RELU"));
    EXPECT_TRUE(is_dpx_opcode("VIMNMX3"));
    EXPECT_TRUE(is_dpx_opcode("VIBMNMX"));
    EXPECT_TRUE(is_dpx_opcode("VIMNMX.16x2"));
    EXPECT_TRUE(is_dpx_opcode("VHMNMX"));     // sm_90's three-input half min/max
    EXPECT_FALSE(is_dpx_opcode("HMNMX2"));
    EXPECT_FALSE(is_dpx_opcode("VIMNMX"));  // a two-input integer max: plain ALU on sm_90
    EXPECT_FALSE(is_dpx_opcode("FMNMX"));
    EXPECT_FALSE(is_dpx_opcode("IADD3"));
}

TEST(SassReport, ShippedLoopReportFlagsDpxOnlyInDpxKernels) {
    int cells = 0;
    const std::string text = read(docs_sass() + "/sass_hot_sm90.txt");
    const auto loops = parse_sass_loops(text, &cells);
    EXPECT_EQ(cells, 16);
    // The one-pair kernel's loop holds 16 steps of 4 rows: its own count, in the same header.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(one-pair kernel \((\d+) cells per iteration[;)])")));
    const int pair_cells = std::stoi(m[1]);
    EXPECT_EQ(pair_cells, 64);
    ASSERT_GE(loops.size(), 40u);
    int pair_kernels = 0;
    for (const SassLoop& k : loops) {
        EXPECT_EQ(dpx_ops(k.ops), k.dpx) << k.kernel;  // the DPX column is the flagged opcodes' sum
        const bool pair = k.kernel.rfind("pair-score", 0) == 0;
        pair_kernels += pair;
        const bool words16 = k.kernel.find("-16x2") != std::string::npos;  // two pairs' cells per iteration
        int per_iteration = pair ? pair_cells : words16 ? 2 * cells : cells;
        if (std::regex_search(k.kernel, m, std::regex(R"(^pair-serial.*-r(\d+) )")))  // the row-serial fill: 16 steps
            per_iteration = (words16 ? 32 : 16) * std::stoi(m[1]);                     // of its R rows (16x2: two cells each)
        EXPECT_NEAR(k.per_cell, double(k.instructions) / per_iteration, 0.01) << k.kernel;
        if (k.kernel.find("dpx-free") != std::string::npos) {
            EXPECT_EQ(k.dpx, 0) << k.kernel;
        }
        else EXPECT_GT(k.dpx, 0) << k.kernel;
    }
    EXPECT_EQ(pair_kernels, 34);  // six forms (pair_score::Form) x score and store, five x picture (not the affine corner form); DPX and DPX-free
}

TEST(SassReport, ShippedMixReportParses) {
    const auto mix = parse_sass_mix(read(docs_sass() + "/sass_mix_sm90.txt"));
    int fills = 0;
    for (const SassMix& k : mix) {
        fills += k.kernel.rfind("fill ", 0) == 0;  // besides: the end-cell search and unpack_dirs
        EXPECT_EQ(dpx_ops(k.ops), k.dpx) << k.kernel;
        int sum = 0;
        for (const auto& [op, n] : k.ops) sum += n;
        EXPECT_LE(sum, k.total) << k.kernel;
        if (k.kernel.find("dpx-free") != std::string::npos) {
            EXPECT_EQ(k.dpx, 0) << k.kernel;
        }
    }
    EXPECT_GE(fills, 48);  // 8 algorithm variants x DPX / DPX-free x 3 output levels
}

// The shipped registers name every kernel the loop report names: the same rule wrote both.
TEST(SassReport, ShippedResourcesNameTheLoopReportsKernels) {
    const SassReport r = load_sass_report("", docs_sass());
    ASSERT_GE(r.resources.size(), 150u) << r.resources_source;
    for (const SassLoop& k : r.loops) EXPECT_TRUE(r.resources_of(k.kernel)) << k.kernel;
    for (const SassResources& k : r.resources) EXPECT_GT(k.registers, 0) << k.kernel;
}

// The mix script itself (the device runs it on cuobjdump's dump): two fabricated kernels, their
// short names, opcode and DPX counts.
TEST(SassReport, MixScriptCountsAFabricatedDump) {
    const std::string out = run_report_script(
        "python3", "sass_mix.py",
        "\t\tFunction : _ZN5dpviz4cuda9band_fillINS0_3AlgILNS0_4KindE1ELb0ELb0ELb0ELb1ELb0EEENS_4cell6DpxOpsELNS0_3OutE2EEEvNS0_10FillParamsE\n"
        "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
        "        /*0010*/                   VIADDMNMX R2, R3, 0x1, R4, !PT ;\n"
        "        /*0020*/              @!P0 VIMNMX3 R2, R3, R4, R5, PT ;\n"
        "        /*0030*/                   NOP ;\n"
        "\t\tFunction : _ZN5dpviz4cuda9band_fillINS0_3AlgILNS0_4KindE1ELb0ELb0ELb0ELb1ELb0EEENS_4cell11PortableOpsELNS0_3OutE0EEEvNS0_10FillParamsE\n"
        "        /*0000*/                   FMNMX R2, R3, R4, !PT ;\n"
        "        /*0010*/                   IADD3 R2, R3, 0x1, RZ ;\n");
    const auto mix = parse_sass_mix(out);
    ASSERT_EQ(mix.size(), 2u) << out;
    EXPECT_EQ(mix[0].kernel, "fill edit dpx picture");
    EXPECT_EQ(mix[0].total, 3);
    EXPECT_EQ(mix[0].dpx, 2);
    EXPECT_EQ(mix[1].kernel, "fill edit dpx-free score");
    EXPECT_EQ(mix[1].total, 2);
    EXPECT_EQ(mix[1].dpx, 0);
    int fmnmx = 0;
    for (const auto& [op, n] : mix[1].ops) fmnmx += op == "FMNMX" ? n : 0;
    EXPECT_EQ(fmnmx, 1);
}

// The loop script (the device runs it on cuobjdump's dump): a fabricated band kernel and batch
// kernel, each with one loop closed by a backward branch; their short names and counts.
TEST(SassReport, LoopScriptNamesBandAndBatchKernels) {
    const std::string out = run_report_script(
        "python3", "sass_hot_loop.py",
        "\t\tFunction : _ZN5dpviz4cuda9band_fillINS0_3AlgILNS0_4KindE1ELb0ELb0ELb0ELb1ELb0EEENS_4cell6DpxOpsELNS0_3OutE1EEEvNS0_10FillParamsE\n"
        "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
        "        /*0010*/                   VIADDMNMX R2, R3, 0x1, R4, !PT ;\n"
        "        /*0020*/                   IADD3 R2, R3, 0x1, RZ ;\n"
        "        /*0030*/              @P0 BRA 0x10 ;\n"
        "        /*0040*/                   EXIT ;\n"
        "\t\tFunction : _ZN5dpviz4cuda5batch10batch_fillINS0_3AlgILNS0_4KindE0ELb1ELb1ELb0ELb1ELb0EEENS_4cell11PortableOpsELNS_7EndRuleE1EEEvNS1_11BatchParamsE\n"
        "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
        "        /*0010*/                   FMNMX R2, R3, R4, !PT ;\n"
        "        /*0020*/                   IADD3 R2, R3, 0x1, RZ ;\n"
        "        /*0030*/                   FMNMX R5, R2, R4, !PT ;\n"
        "        /*0040*/              @P0 BRA 0x10 ;\n"
        "        /*0050*/                   EXIT ;\n"
        "\t\tFunction : _ZN5dpviz4cuda5batch10batch_fillINS0_3AlgILNS0_4KindE1ELb0ELb0ELb0ELb1ELb0EEENS_4cell10Dpx16x2OpsELNS_7EndRuleE0EEEvNS1_11BatchParamsE\n"
        "        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
        "        /*0010*/                   VIADDMNMX.S16x2 R2, R3, R6, R4, PT ;\n"
        "        /*0020*/                   VIMNMX.S16x2 R5, R2, R4, PT ;\n"
        "        /*0030*/                   PRMT R7, R5, 0x5410, R2 ;\n"
        "        /*0040*/              @P0 BRA 0x10 ;\n"
        "        /*0050*/                   EXIT ;\n");
    int cells = 0;
    auto loops = parse_sass_loops(out, &cells);
    EXPECT_EQ(cells, 16);
    ASSERT_EQ(loops.size(), 3u) << out;
    EXPECT_EQ(loops[1].kernel, "batch edit dpx-16x2 corner");  // two pairs per word: 32 cells per iteration
    EXPECT_EQ(loops[1].instructions, 4);
    EXPECT_EQ(loops[1].dpx, 2);
    EXPECT_NEAR(loops[1].per_cell, 4.0 / 32, 0.01);
    EXPECT_EQ(dpx_ops(loops[1].ops), 2);
    loops.erase(loops.begin() + 1);
    EXPECT_EQ(loops[0].kernel, "batch align-local-affine dpx-free best-cell");
    EXPECT_EQ(loops[0].instructions, 4);  // the loop: from the branch's target to the branch
    EXPECT_EQ(loops[0].dpx, 0);
    EXPECT_EQ(loops[1].kernel, "edit dpx store");
    EXPECT_EQ(loops[1].instructions, 3);
    EXPECT_EQ(loops[1].dpx, 1);
}

TEST(SassReport, EveryAlgorithmsKernelIsInTheReport) {
    const SassReport r = load_sass_report("", docs_sass());
    EXPECT_NE(r.loops_source.find("shipped"), std::string::npos) << r.loops_source;
    ScoringOptions s;
    for (const Algorithm a : {Algorithm::local, Algorithm::global, Algorithm::semiglobal, Algorithm::edit, Algorithm::lcs,
                              Algorithm::glocal}) {
        for (const int open : {1, 5}) {
            s.gaps = {open, 1};
            auto p = make_problem(a, {"q", "ACGT"}, {"t", "ACGA"}, s);
            ASSERT_TRUE(p);
            for (const bool dpx : {true, false})
                for (const OutputLevel lv : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
                    const std::string name = fill_kernel_name(*p, dpx, lv);
                    EXPECT_TRUE(r.loop(name)) << name;
                    EXPECT_TRUE(r.whole(name)) << name;
                }
        }
    }
    for (const DtwCost c : {DtwCost::abs, DtwCost::squared})
        for (const int band : {-1, 2}) {  // without a band: the kernels without the band test
            s.dtw_cost = c;
            s.band = band;
            auto p = make_dtw_problem({"q", {1, 2, 3}}, {"t", {1, 3}}, s);
            ASSERT_TRUE(p);
            const std::string name = fill_kernel_name(*p, true, OutputLevel::matrix);
            EXPECT_EQ(name.find("-noband") != std::string::npos, band < 0) << name;
            EXPECT_TRUE(r.loop(name)) << name;
            EXPECT_TRUE(r.loop(fill_kernel_name(*p, false, OutputLevel::matrix)));
        }
    s.band = -1;
    s.gaps = {5, 1};
    auto p = make_problem(Algorithm::semiglobal, {"q", "ACGT"}, {"t", "ACGA"}, s);
    EXPECT_EQ(fill_kernel_name(*p, true, OutputLevel::matrix), "align-affine dpx matrix");
}

// The one-pair kernel's score fills, the skewed and the row-serial one at both of its rows a
// lane, by DPVIZ_PAIR_SERIAL, and the 16x2 fill at both of its: each kernel a GPU score fill can
// report has its loop and its registers in the shipped reports (the timing panel's instructions
// per cell and occupancy).
TEST(SassReport, EveryOnePairScoreKernelIsInTheReport) {
    const SassReport r = load_sass_report("", docs_sass());
    const test::ScopedEnv routing("DPVIZ_PAIR_KERNEL", nullptr);
    ScoringOptions s;
    s.match = 2;
    s.mismatch = -1;
    s.gaps = {2, 2};
    const std::string small = "ACGT", large(131073, 'A');  // the row-serial fill: 6 rows a lane, 16 past 131,072
    int serial_rows_seen = 0;
    const test::ScopedEnv lanes16("DPVIZ_PAIR_16X2", nullptr);
    const test::ScopedEnv rows16("DPVIZ_PAIR_16X2_ROWS", nullptr);
    for (const char* serial : {static_cast<const char*>(nullptr), "1", "0"}) {
        const test::ScopedEnv knob("DPVIZ_PAIR_SERIAL", serial);
        for (const Algorithm a : {Algorithm::local, Algorithm::global, Algorithm::edit, Algorithm::lcs})
            for (const std::string* q : {&small, &large}) {
                auto p = make_problem(a, {"q", *q}, {"t", "ACGA"}, s);
                ASSERT_TRUE(p);
                for (const Backend b : {Backend::cuda, Backend::cuda_portable}) {
                    DpResult res;
                    res.level = OutputLevel::score;
                    res.backend = b;
                    const std::string name = ran_kernel_name(*p, res);
                    ASSERT_FALSE(name.empty()) << algorithm_name(a);
                    EXPECT_TRUE(r.loop(name)) << name;
                    EXPECT_TRUE(r.resources_of(name)) << name;
                    serial_rows_seen += name.rfind("pair-serial", 0) == 0;
                }
            }
    }
    // By default the corner form's long pair and local linear's with DPX (16x2 lanes), everything
    // with "1".
    EXPECT_EQ(serial_rows_seen, 2 * (3 + 2 * 4) + 1);
    // Both forms of the 16x2 fill (local affine's from 262,144 rows) at both R.
    const test::ScopedEnv serial("DPVIZ_PAIR_SERIAL", nullptr);
    const std::string tall(262144, 'A');
    for (const bool affine : {false, true}) {
        ScoringOptions g = s;
        if (affine) g.gaps = {5, 1};
        auto p = make_problem(Algorithm::local, {"q", tall}, {"t", "ACGA"}, g);
        ASSERT_TRUE(p);
        for (const char* rows : {"8", "16"}) {
            const test::ScopedEnv knob("DPVIZ_PAIR_16X2_ROWS", rows);
            DpResult res;
            res.level = OutputLevel::score;
            res.backend = Backend::cuda;
            const std::string name = ran_kernel_name(*p, res);
            EXPECT_EQ(name, std::string(affine ? "pair-serial-16x2-affine-r" : "pair-serial-16x2-r") + rows + " dpx score");
            EXPECT_TRUE(r.loop(name)) << name;
            EXPECT_TRUE(r.resources_of(name)) << name;
        }
    }
}

// The registers' script (the device runs it on cuobjdump -res-usage) names the kernels by the one
// rule (kernels/cuda/sass_names.py), and the app reads its lines.
TEST(SassReport, ResourceUsageAndShortNames) {
    const std::string text =
        "Resource usage:\n"
        " Common:\n  GLOBAL:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE0ELb1ELb0ELb0EEENS0_4cell6DpxOpsELNS1_3OutE4EEEvNS1_10FillParamsE:\n"
        "  REG:40 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:1024 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE3ELb0ELb0ELb1EEENS0_4cell11PortableOpsELNS1_3OutE0EEEvNS1_10FillParamsE:\n"
        "  REG:56 STACK:8 SHARED:16 LOCAL:0\n"
        " Function _Z11unpack_dirsPKjPhiiii:\n"
        "  REG:16 STACK:0 SHARED:0 LOCAL:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE3ELb0ELb0ELb0ELb0EEENS0_4cell6DpxOpsELNS1_3OutE3EEEvNS1_10FillParamsE:\n"
        "  REG:48 STACK:0 SHARED:0 LOCAL:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE1ELb0ELb0ELb0EEENS0_4cell6DpxOpsELNS1_3OutE2EEEvNS1_10FillParamsE:\n"
        "  REG:72 STACK:0 SHARED:0 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell11PortableOpsELi0EEEvNS1_6ParamsE:\n"
        "  REG:95 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell6DpxOpsELi1EEEvNS1_6ParamsE:\n"
        "  REG:127 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell11PortableOpsELi2EEEvNS1_6ParamsE:\n"
        "  REG:90 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell6DpxOpsELi3EEEvNS1_6ParamsE:\n"
        "  REG:100 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell11PortableOpsELi4EEEvNS1_6ParamsE:\n"
        "  REG:101 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell6DpxOpsELi5EEEvNS1_6ParamsE:\n"
        "  REG:121 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell6DpxOpsELi1ELi1EEEvNS1_6ParamsE:\n"
        "  REG:167 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell11PortableOpsELi3ELi0EEEvNS1_6ParamsE:\n"
        "  REG:79 STACK:0 SHARED:1040 LOCAL:0\n"
        " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell11PortableOpsELi0ELi2EEEvNS1_6ParamsE:\n"
        "  REG:168 STACK:0 SHARED:1040 LOCAL:0\n";
    const std::string out = run_report_script("python3", "sass_res_usage.py", "# provenance\n" + text);
    const auto res = parse_res_usage(out);
    ASSERT_EQ(res.size(), 14u) << out;
    std::vector<std::string> names;
    for (const SassResources& r : res) names.push_back(r.kernel);
    const std::vector<std::string> want = {
        "align-local dpx matrix", "dtw-squared dpx-free score", "unpack_dirs",
        "dtw-noband dpx path", "edit dpx picture",  // Out's levels in fill_params.hpp's order
        "pair-score dpx-free score", "pair-score-affine dpx score",  // pair_score_fill<Ops, form>: 1 affine
        "pair-score-corner dpx-free score",                          // 2: the corner form
        "pair-score-dtw dpx score",                                  // 3: DTW, |a - b|
        "pair-score-dtw-squared dpx-free score",                     // 4: DTW, (a - b)^2
        "pair-score-corner-affine dpx score",                        // 5: global, affine gaps
        "pair-score-affine dpx store",  // pair_score_fill<Ops, form, out>: 1 the lines
        "pair-score-dtw dpx-free score", "pair-score dpx-free picture"};  // 2: the lines and the overview
    EXPECT_EQ(names, want) << out;
    EXPECT_EQ(res[0].registers, 40);
    EXPECT_EQ(res[1].registers, 56);
    EXPECT_EQ(res[1].shared_static, 16);
    EXPECT_EQ(res[5].registers, 95);
    EXPECT_EQ(res[13].registers, 168);
    // The forms' names are the ones the app asks for (pair_score_kernel, ran_kernel_name): the
    // script's table of them and pair_score::form_name agree, form by form.
    std::string forms;
    for (int k = 0; k < 6; ++k)
        forms += " Function _ZN5dpviz4cuda12_GLOBAL__N_115pair_score_fillINS_4cell6DpxOpsELi" + std::to_string(k) +
                 "ELi0EEEvNS1_6ParamsE:\n  REG:" + std::to_string(64 + k) + " STACK:0 SHARED:0 LOCAL:0\n";
    const auto by_form = parse_res_usage(run_report_script("python3", "sass_res_usage.py", forms));
    ASSERT_EQ(by_form.size(), 6u);
    for (int k = 0; k < 6; ++k) {
        EXPECT_EQ(by_form[size_t(k)].kernel, pair_score_form_name(k) + " dpx score") << k;
        EXPECT_EQ(by_form[size_t(k)].registers, 64 + k);
    }
    EXPECT_EQ(pair_score_form_name(6), "");  // no seventh form: the script's table would need one
}

// Glocal's band kernels (row 0 free: Alg's sixth argument) are named apart from global's, as the
// app asks for them; the shipped reports name every kernel once.
TEST(SassReport, GlocalKernelsHaveTheirOwnNames) {
    const std::string text =
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE0ELb0ELb1ELb0ELb1ELb0EEENS0_4cell6DpxOpsELNS1_3OutE4EEEvNS1_10FillParamsE:\n"
        "  REG:40 STACK:0 SHARED:0 LOCAL:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE0ELb0ELb1ELb0ELb1ELb1EEENS0_4cell6DpxOpsELNS1_3OutE4EEEvNS1_10FillParamsE:\n"
        "  REG:41 STACK:0 SHARED:0 LOCAL:0\n"
        " Function _Z9band_fillIN5dpviz4cuda3AlgILNS1_4KindE0ELb0ELb0ELb0ELb1ELb1EEENS0_4cell11PortableOpsELNS1_3OutE0EEEvNS1_10FillParamsE:\n"
        "  REG:42 STACK:0 SHARED:0 LOCAL:0\n";
    const auto res = parse_res_usage(run_report_script("python3", "sass_res_usage.py", text));
    ASSERT_EQ(res.size(), 3u);
    ScoringOptions s;
    s.gaps = {5, 1};
    const auto global = make_problem(Algorithm::global, {"q", "ACGT"}, {"t", "ACGA"}, s);
    const auto glocal = make_problem(Algorithm::glocal, {"q", "ACGT"}, {"t", "ACGA"}, s);
    s.gaps = {1, 1};
    const auto glocal_linear = make_problem(Algorithm::glocal, {"q", "ACGT"}, {"t", "ACGA"}, s);
    ASSERT_TRUE(global && glocal && glocal_linear);
    EXPECT_EQ(res[0].kernel, fill_kernel_name(*global, true, OutputLevel::matrix));
    EXPECT_EQ(res[1].kernel, fill_kernel_name(*glocal, true, OutputLevel::matrix));
    EXPECT_EQ(res[2].kernel, fill_kernel_name(*glocal_linear, false, OutputLevel::score));
    EXPECT_EQ(res[1].kernel, "align-affine-glocal dpx matrix");

    const SassReport r = load_sass_report("", docs_sass());
    auto once = [](const auto& rows, const char* report) {
        std::map<std::string, int> seen;
        for (const auto& row : rows) ++seen[row.kernel];
        for (const auto& [kernel, n] : seen) EXPECT_EQ(n, 1) << report << ": " << kernel;
    };
    once(r.loops, "loops");
    once(r.mix, "mix");
    once(r.resources, "registers");
}

TEST(SassReport, Sm90Occupancy) {
    // 64 registers: 2048 per warp, 32 warps per SM = 8 blocks of 4 warps, half the SM.
    auto o = sm90_occupancy(64, 4, 8192);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->warps_per_sm, 32);
    EXPECT_DOUBLE_EQ(o->fraction, 0.5);
    EXPECT_EQ(o->limiter, "registers");
    // 32 registers: the warp limit (64) binds.
    o = sm90_occupancy(32, 4, 1024);
    EXPECT_EQ(o->warps_per_sm, 64);
    // 100 KB of shared memory per block: two blocks.
    o = sm90_occupancy(32, 4, 100 * 1024);
    EXPECT_EQ(o->blocks_per_sm, 2);
    EXPECT_EQ(o->limiter, "shared memory");
    EXPECT_FALSE(sm90_occupancy(0, 4, 0));
    EXPECT_FALSE(sm90_occupancy(300, 4, 0));
}

TEST(SassReport, BuildReportFirstShippedReportAsFallback) {
    TempDir dir;
    // A build without cuobjdump writes "n/a": the shipped report is used instead.
    std::ofstream(dir.file("sass_report.txt")) << "n/a: cuobjdump not found at configure time\n";
    SassReport r = load_sass_report(dir.path(), docs_sass());
    EXPECT_NE(r.mix_source.find("shipped"), std::string::npos) << r.mix_source;
    EXPECT_FALSE(r.mix.empty());
    // A build's own loop report wins over the shipped one.
    std::ofstream(dir.file("sass_hot.txt")) << "steady-state loop of each fill kernel (8 cells per iteration)\n"
                                            << "align dpx matrix    80 instr  10.00 /cell  DPX   8   VIMNMX3=8 IADD3=4\n";
    r = load_sass_report(dir.path(), docs_sass());
    EXPECT_NE(r.loops_source.find("this build"), std::string::npos) << r.loops_source;
    EXPECT_EQ(r.cells_per_iteration, 8);
    ASSERT_EQ(r.loops.size(), 1u);
    EXPECT_EQ(r.loops[0].ops.size(), 2u);
    // Nothing anywhere: n/a, no crash.
    r = load_sass_report("", "");
    EXPECT_NE(r.loops_source.find("n/a"), std::string::npos);
    EXPECT_TRUE(r.loops.empty());
}

}  // namespace
}  // namespace dpviz::app
