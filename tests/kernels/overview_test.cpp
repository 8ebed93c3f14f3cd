// The overview a GPU fill pools (interior cells only, by atomics, and the worst finite value)
// turned into the store's Overview on the host, against the whole matrix's; and the route of a
// big picture to the GPU's store (the simulated device: every build, CI included).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "dpviz/store.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

bool finite(int32_t v) { return v > -kScoreBound && v < kScoreBound; }

// What a GPU's fill hands back: the interior cells' texels (the device's "nothing pooled" where
// no finite cell fell: bytes 0xc0 or 0x40) and the worst finite interior value (or a value that
// is not finite when there is none).
struct Interior {
    std::vector<int32_t> texels;
    int32_t worst;
};

Interior pool_interior(const Problem& p, const Grid<int32_t>& H, int32_t block) {
    const bool lowest = minimizes(p.algo);
    const int32_t nothing = lowest ? int32_t(0x40404040) : int32_t(0xc0c0c0c0);
    Interior d{std::vector<int32_t>(size_t((p.rows() / block + 1) * (p.cols() / block + 1)), nothing), -nothing};
    const int32_t cols = p.cols() / block + 1;
    for (int32_t i = 1; i <= p.rows(); ++i)
        for (int32_t j = 1; j <= p.cols(); ++j) {
            const int32_t v = H.at(i, j);
            if (!finite(v)) continue;
            int32_t& t = d.texels[size_t((i / block) * cols + j / block)];
            t = t == nothing ? v : lowest ? std::min(t, v) : std::max(t, v);
            d.worst = !finite(d.worst) ? v : lowest ? std::max(d.worst, v) : std::min(d.worst, v);
        }
    return d;
}

void expect_same_overview(const Overview& want, const Overview& got, const std::string& what) {
    EXPECT_EQ(got.block, want.block) << what;
    EXPECT_EQ(got.lowest, want.lowest) << what;
    EXPECT_EQ(got.H.rows, want.H.rows) << what;
    EXPECT_EQ(got.H.cols, want.H.cols) << what;
    EXPECT_EQ(got.H.data, want.H.data) << what << ": texels";
    EXPECT_EQ(got.min, want.min) << what;
    EXPECT_EQ(got.max, want.max) << what;
    EXPECT_EQ(got.any_finite, want.any_finite) << what;
    EXPECT_EQ(got.any_unreachable, want.any_unreachable) << what;
}

}  // namespace

TEST(OverviewFromInterior, EqualsTheWholeMatrixs) {
    std::mt19937 g(41);
    struct Case {
        Algorithm algo;
        GapPenalties gaps;
        int32_t band;
    };
    const Case cases[] = {{Algorithm::local, {5, 1}, -1},  {Algorithm::global, {4, 2}, -1}, {Algorithm::semiglobal, {2, 2}, -1},
                          {Algorithm::glocal, {6, 1}, -1}, {Algorithm::edit, {1, 1}, -1},   {Algorithm::lcs, {1, 1}, -1},
                          {Algorithm::dtw, {1, 1}, -1},    {Algorithm::dtw, {1, 1}, 3}};
    for (const Case& c : cases)
        for (const auto& [m, n] : {std::pair{1, 1}, std::pair{37, 53}, std::pair{64, 9}})
            for (const int32_t block : {1, 2, 5, 16, 100}) {
                ScoringOptions so;
                so.gaps = c.gaps;
                so.band = c.band;
                Expected<Problem> p = usage_error("unset");
                if (c.algo == Algorithm::dtw)
                    p = make_dtw_problem({"q", test::random_walk(g, m)}, {"t", test::random_walk(g, n)}, so);
                else
                    p = make_problem(c.algo, {"q", test::random_text(g, m, test::kDna)},
                                     {"t", test::random_text(g, n, test::kDna)}, so);
                ASSERT_TRUE(p) << p.error().message;
                const DpResult ref = align_reference(*p);
                const Interior d = pool_interior(*p, ref.H, block);
                const std::string what = std::string(algorithm_name(c.algo)) + " band " + std::to_string(c.band) + " " +
                                         std::to_string(m) + "x" + std::to_string(n) + " B " + std::to_string(block);
                expect_same_overview(overview_from_matrix(*p, ref.H, block),
                                     overview_from_interior(*p, block, d.texels, d.worst), what);
            }
}

TEST(OverviewFromInterior, ABigPictureAsksTheGpusStoreForTheOverview) {
    // 8,300^2 cells >= kCheckpointPathCells at level matrix with an overview: on a GPU the store's
    // fill pools it. The simulated device has no kernels, so the CPU's store answers, and says why.
    std::mt19937 g(5);
    const std::string q = test::random_text(g, 8300, test::kDna), t = test::mutate(g, q, test::kDna, 0.05);
    ScoringOptions so;
    so.gaps = {5, 1};
    auto p = make_problem(Algorithm::global, {"q", q}, {"t", t}, so);
    ASSERT_TRUE(p);
    for (const Backend b : {Backend::cuda, Backend::cuda_portable, Backend::automatic}) {
        SCOPED_TRACE(std::string(backend_name(b)));
        const gpu_fault::ScopedFault env("simulate");
        AlignOptions opt;
        opt.backend = b;
        opt.level = OutputLevel::matrix;
        opt.overview_side = 500;
        auto r = align(*p, opt);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_NE(r->fallback.find("no kernels to compute with"), std::string::npos) << r->fallback;
        ASSERT_TRUE(r->overview && r->checkpoints);
        EXPECT_TRUE(r->H.empty()) << "a whole H";
        // The device's last allocation in the picture's sequence is the overview's worst value.
        const int64_t allocations = gpu_fault::last_run().allocations;
        ASSERT_GT(allocations, 1);
        for (const auto& [at, what] : {std::pair{allocations - 1, std::string("cudaMalloc of the overview")},
                                       std::pair{allocations, std::string("cudaMalloc of the overview's worst value")}}) {
            const gpu_fault::ScopedFault last("simulate,alloc:" + std::to_string(at));
            auto f = align(*p, opt);
            ASSERT_TRUE(f) << f.error().message;
            EXPECT_NE(f->fallback.find(what), std::string::npos) << f->fallback;
        }
        // The CPU's store answers with the same overview as its own run.
        AlignOptions cpu = opt;
        cpu.backend = Backend::cpu;
        auto c = align(*p, cpu);
        ASSERT_TRUE(c) << c.error().message;
        expect_same_overview(*c->overview, *r->overview, "fallback");
    }
}
