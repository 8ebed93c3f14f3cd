// The GPU fault-injection checks, shared by fault_injection_test.cpp (the simulated device: every
// build, CI included) and fault_injection_gpu.cpp (the real device, `gpu` label): for every fault,
// align() returns the CPU's result field for field and says in `fallback` which backend failed how.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "gpu_dispatch.hpp"
#include "pair_score_plan.hpp"

namespace dpviz::fault_test {

using gpu_fault::ScopedFault;

// Which device the faults hit: the simulated one (prefix "simulate,") or the real one.
enum class Device { simulated, real };

inline std::string with_device(Device d, const std::string& item) {
    if (d == Device::real) return item;
    return item.empty() ? "simulate" : "simulate," + item;
}

struct Case {
    std::string name;
    Problem problem;
};

// Two bands of rows (so the band hand-over buffers exist), every algorithm family, linear and
// affine gaps, a substitution matrix, and a pair whose local score is 0 (no end-cell search).
inline std::vector<Case> cases() {
    std::vector<Case> out;
    std::string q, t;
    uint32_t x = 12345;
    auto next = [&x] { x = x * 1103515245u + 12345u; return (x >> 16) & 3u; };
    for (int k = 0; k < 150; ++k) q += "ACGT"[next()];
    for (int k = 0; k < 170; ++k) t += "ACGT"[next()];
    t.replace(30, 60, q.substr(50, 60));  // a long common stretch: long alignments
    ScoringOptions affine;
    affine.gaps = {5, 1};
    affine.match = 2;
    affine.mismatch = -3;
    ScoringOptions linear = affine;
    linear.gaps = {2, 2};
    auto add = [&out](const std::string& name, Expected<Problem> p) {
        EXPECT_TRUE(p) << name << ": " << p.error().message;
        if (p) out.push_back({name, std::move(*p)});
    };
    add("local-affine", make_problem(Algorithm::local, {"q", q}, {"t", t}, affine));
    add("local-linear-no-hit", make_problem(Algorithm::local, {"q", "AAAA"}, {"t", "CCCCCC"}, linear));
    add("global-linear", make_problem(Algorithm::global, {"q", q}, {"t", t}, linear));
    add("semiglobal-affine", make_problem(Algorithm::semiglobal, {"q", q.substr(0, 40)}, {"t", t}, affine));
    add("edit", make_problem(Algorithm::edit, {"q", q}, {"t", t.substr(0, 90)}, {}));
    add("lcs", make_problem(Algorithm::lcs, {"q", q.substr(0, 60)}, {"t", t}, {}));
    std::vector<double> a, b;
    for (int k = 0; k < 140; ++k) a.push_back(double(int(next()) - 1) * 0.5 + k * 0.01);
    for (int k = 0; k < 90; ++k) b.push_back(double(int(next()) - 1) * 0.5 + k * 0.015);
    add("dtw", make_dtw_problem({"q", a}, {"t", b}, {}));
    return out;
}

inline const char* level_name(OutputLevel l) {
    return l == OutputLevel::score ? "score" : l == OutputLevel::path ? "path" : "matrix";
}

// Every field a caller can see, except the timings and `fallback` (checked by the callers).
inline void expect_identical(const DpResult& got, const DpResult& want) {
    EXPECT_EQ(got.backend, want.backend);
    EXPECT_EQ(got.algo, want.algo);
    EXPECT_EQ(got.level, want.level);
    EXPECT_EQ(got.score, want.score);
    EXPECT_EQ(got.end.i, want.end.i);
    EXPECT_EQ(got.end.j, want.end.j);
    EXPECT_EQ(got.cells, want.cells);
    EXPECT_TRUE(got.H.rows == want.H.rows && got.H.cols == want.H.cols && got.H.data == want.H.data) << "H";
    EXPECT_TRUE(got.E.rows == want.E.rows && got.E.cols == want.E.cols && got.E.data == want.E.data) << "E";
    EXPECT_TRUE(got.F.rows == want.F.rows && got.F.cols == want.F.cols && got.F.data == want.F.data) << "F";
    EXPECT_TRUE(got.dirs.rows == want.dirs.rows && got.dirs.cols == want.dirs.cols && got.dirs.data == want.dirs.data)
        << "direction bits";
    EXPECT_TRUE(got.path == want.path) << "path";
    const Alignment &g = got.alignment, &w = want.alignment;
    EXPECT_EQ(g.cigar, w.cigar);
    EXPECT_EQ(g.query_row, w.query_row);
    EXPECT_EQ(g.markup, w.markup);
    EXPECT_EQ(g.target_row, w.target_row);
    EXPECT_EQ(g.query_begin, w.query_begin);
    EXPECT_EQ(g.query_end, w.query_end);
    EXPECT_EQ(g.target_begin, w.target_begin);
    EXPECT_EQ(g.target_end, w.target_end);
    EXPECT_EQ(g.length, w.length);
    EXPECT_EQ(g.identical, w.identical);
    EXPECT_EQ(g.similar, w.similar);
    EXPECT_EQ(g.gaps, w.gaps);
    EXPECT_EQ(got.dtw_distance, want.dtw_distance);
    EXPECT_EQ(got.dtw_reference, want.dtw_reference);
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

constexpr Backend kGpuBackends[] = {Backend::cuda, Backend::cuda_portable, Backend::automatic};

// align() under DPVIZ_GPU_FAULT=`fault`: the CPU's answer, and a fallback line that names the
// backend and contains every one of `parts`.
inline void expect_cpu_answer(const Problem& p, OutputLevel level, Backend b, const std::string& fault,
                              const std::vector<std::string>& parts) {
    SCOPED_TRACE(std::string(gpu_fault::kEnvVar) + "=" + fault + ", backend " + std::string(backend_name(b)) +
                 ", level " + level_name(level));
    const ScopedFault env(fault);
    AlignOptions opt;
    opt.backend = b;
    opt.level = level;
    auto r = align(p, opt);
    ASSERT_TRUE(r) << r.error().message;
    expect_identical(*r, align_cpu(p, level, 0));
    EXPECT_TRUE(contains(r->fallback, std::string(backend_name(b)) + " unavailable (")) << r->fallback;
    EXPECT_TRUE(contains(r->fallback, "); ran on the CPU")) << r->fallback;
    for (const auto& part : parts) EXPECT_TRUE(contains(r->fallback, part)) << r->fallback << "\nlacks: " << part;
    EXPECT_EQ(r->fallback.find('\n'), std::string::npos);
}

// The allocation and launch counts of one align_gpu call on `d` with no fault.
inline gpu_fault::Counts counts_without_fault(Device d, const Problem& p, OutputLevel level, bool dpx,
                                              int32_t checkpoint_spacing = 0, int32_t overview_block = 0) {
    const ScopedFault env(with_device(d, ""));
    (void)align_gpu(p, level, dpx, {}, checkpoint_spacing, overview_block);
    return gpu_fault::last_run();
}

// alloc:N and launch:N for N = 1, 2, the middle and the last of what the call makes: the CPU's
// answer with the injected CUDA error named; N one past the last: no fault fires.
inline void check_alloc_and_launch_faults(Device d) {
    for (const Case& c : cases())
        for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
            SCOPED_TRACE(c.name);
            const gpu_fault::Counts n = counts_without_fault(d, c.problem, level, true);
            // The band kernels: inputs (3), the last column and the end-cell slot at least; the
            // one-pair score kernel: selectors, row tables, row slots and its ticket/best cell.
            const bool one_pair = pair_score::takes(c.problem, level);
            ASSERT_GE(n.allocations, one_pair ? 4 : 5) << (one_pair ? "one-pair kernel" : "band kernels");
            ASSERT_GE(n.launches, 1);
            EXPECT_FALSE(n.fired);
            for (const auto& [kind, total] : {std::pair{std::string("alloc"), n.allocations},
                                              std::pair{std::string("launch"), n.launches}}) {
                std::vector<int64_t> at = {1, 2, (total + 1) / 2, total};
                for (const int64_t k : at) {
                    if (k > total) continue;
                    const std::string item = kind + ":" + std::to_string(k);
                    const std::string error = kind == "alloc" ? "cudaErrorMemoryAllocation (out of memory)"
                                                              : "cudaErrorLaunchFailure (unspecified launch failure)";
                    for (const Backend b : kGpuBackends) {
                        expect_cpu_answer(c.problem, level, b, with_device(d, item),
                                          {error, gpu_fault::injected_note(item)});
                        const gpu_fault::Counts after = gpu_fault::last_run();
                        EXPECT_TRUE(after.fired) << item;
                        EXPECT_EQ(kind == "alloc" ? after.allocations : after.launches, k)
                            << "the run stops at the injected failure";
                    }
                    if (::testing::Test::HasFatalFailure()) return;
                }
                // One past the last: nothing fires. The real device computes; the simulated one
                // says it has no kernels, and the CPU answers.
                const std::string item = kind + ":" + std::to_string(total + 1);
                const ScopedFault env(with_device(d, item));
                auto r = align_gpu(c.problem, level, true);
                EXPECT_FALSE(gpu_fault::last_run().fired) << item;
                if (d == Device::simulated) {
                    ASSERT_FALSE(r);
                    EXPECT_EQ(r.error().kind, ErrorKind::device);
                    EXPECT_TRUE(contains(r.error().message, "no kernels")) << r.error().message;
                } else {
                    ASSERT_TRUE(r) << item << ": " << r.error().message;
                    DpResult want = align_cpu(c.problem, level, 0);
                    want.backend = Backend::cuda;
                    expect_identical(*r, want);
                }
            }
        }
}

// no-device: cuda and cuda-portable fall back naming it; automatic quietly runs the CPU, as on a
// machine without a GPU (no fallback note: nothing the user asked for is missing).
inline void check_no_device(Device d) {
    const ScopedFault env(with_device(d, "no-device"));
    EXPECT_FALSE(gpu_usable());
    for (const Case& c : cases())
        for (const OutputLevel level : {OutputLevel::score, OutputLevel::path, OutputLevel::matrix}) {
            SCOPED_TRACE(c.name);
            for (const Backend b : {Backend::cuda, Backend::cuda_portable})
                expect_cpu_answer(c.problem, level, b, with_device(d, "no-device"),
                                  {"no CUDA device", gpu_fault::injected_note("no-device")});
            AlignOptions opt;
            opt.level = level;
            auto r = align(c.problem, opt);
            ASSERT_TRUE(r) << r.error().message;
            expect_identical(*r, align_cpu(c.problem, level, 0));
            EXPECT_EQ(r->fallback, "");
        }
}

}  // namespace dpviz::fault_test
