// Fill throughput of the CUDA kernels for one long pair (the visualizer's case): device time of
// the fill (CUDA events, median of repeats, nothing copied back), DPX vs DPX-free, in TCUPS.
// usage: dpviz_gpu_bench [N] [repeats] [case-substring] [M]   (M x N, default 65536 x 65536)
// DPVIZ_BENCH_SPACING=K: the store's and the picture's checkpoint lines every K rows and columns.
// M = 128 (one band) gives the time of a wavefront step; a small N with a large M, the band lag.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "gpu_engine.hpp"

using namespace dpviz;

namespace {

std::string random_dna(int n, std::mt19937& g) {
    static const char kBases[] = "ACGT";
    std::string s(size_t(n), 'A');
    for (auto& c : s) c = kBases[g() & 3];
    return s;
}

// Two related sequences: the second a mutated copy of the first (so the local alignment is long).
std::pair<std::string, std::string> related_pair(int n, std::mt19937& g) {
    std::string a = random_dna(n, g), b = a;
    for (auto& c : b)
        if (g() % 10 == 0) c = "ACGT"[g() & 3];
    return {a, b};
}

struct Row {
    std::string name;
    double dpx_ms = 0, free_ms = 0;
    int32_t dpx_score = 0, free_score = 0;
};

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each row as it is measured, also into a file a timeout cuts
    const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    const std::string only = argc > 3 ? argv[3] : "";
    const int m = argc > 4 ? std::atoi(argv[4]) : n;
    if (auto st = cuda::device_ready(); !st) {
        std::printf("no usable device: %s\n", st.error().message.c_str());
        return 1;
    }
    std::mt19937 g(20240607);
    const int len = std::max(n, m);
    auto [qa, tb] = related_pair(len, g);
    std::vector<double> qs(static_cast<size_t>(len)), ts(static_cast<size_t>(len));
    double x = 0, y = 0;
    for (int k = 0; k < len; ++k) { x += double(int(g() % 2001) - 1000) / 1000.0; qs[k] = x; }
    for (int k = 0; k < len; ++k) { y += double(int(g() % 2001) - 1000) / 1000.0; ts[k] = y; }
    qa.resize(size_t(m));
    qs.resize(size_t(m));
    tb.resize(size_t(n));
    ts.resize(size_t(n));
    if (m != n) std::printf("M x N = %d x %d\n", m, n);

    // store: the result store's fill (checkpoint lines); picture: that and the overview of a
    // 4096-texel side, as a PNG or the GUI asks for it; squared: DTW's squared cost.
    struct Case {
        std::string name;
        Algorithm algo;
        GapPenalties gaps;
        OutputLevel level;
        bool store = false, picture = false, squared = false;
    };
    const Case cases[] = {
        {"local linear score", Algorithm::local, {2, 2}, OutputLevel::score},
        {"local linear store", Algorithm::local, {2, 2}, OutputLevel::path, true},
        {"local linear path", Algorithm::local, {2, 2}, OutputLevel::path},
        {"local affine score", Algorithm::local, {5, 1}, OutputLevel::score},
        {"local affine store", Algorithm::local, {5, 1}, OutputLevel::path, true},
        {"local affine picture", Algorithm::local, {5, 1}, OutputLevel::path, true, true},
        {"local affine path", Algorithm::local, {5, 1}, OutputLevel::path},
        {"global linear score", Algorithm::global, {2, 2}, OutputLevel::score},
        {"global linear path", Algorithm::global, {2, 2}, OutputLevel::path},
        {"global affine score", Algorithm::global, {5, 1}, OutputLevel::score},
        {"global affine picture", Algorithm::global, {5, 1}, OutputLevel::path, true, true},
        {"edit score", Algorithm::edit, {1, 1}, OutputLevel::score},
        {"edit store", Algorithm::edit, {1, 1}, OutputLevel::path, true},
        {"edit picture", Algorithm::edit, {1, 1}, OutputLevel::path, true, true},
        {"edit path", Algorithm::edit, {1, 1}, OutputLevel::path},
        {"lcs score", Algorithm::lcs, {1, 1}, OutputLevel::score},
        {"lcs picture", Algorithm::lcs, {1, 1}, OutputLevel::path, true, true},
        {"dtw abs score", Algorithm::dtw, {1, 1}, OutputLevel::score},
        {"dtw squared score", Algorithm::dtw, {1, 1}, OutputLevel::score, false, false, true},
        {"dtw abs store", Algorithm::dtw, {1, 1}, OutputLevel::path, true},
        {"dtw abs picture", Algorithm::dtw, {1, 1}, OutputLevel::path, true, true},
        {"dtw abs path", Algorithm::dtw, {1, 1}, OutputLevel::path},
    };
    int bad = 0;
    bool warm = false;
    for (const Case& c : cases) {
        if (!only.empty() && c.name.find(only) == std::string::npos) continue;
        Expected<Problem> p = usage_error("");
        ScoringOptions so;
        so.match = 2;
        so.mismatch = -1;
        so.gaps = c.gaps;
        so.dtw_cost = c.squared ? DtwCost::squared : DtwCost::abs;
        if (c.algo == Algorithm::dtw) p = make_dtw_problem({"q", qs}, {"t", ts}, so);
        else p = make_problem(c.algo, {"q", qa}, {"t", tb}, so);
        if (!p) { std::printf("%s: %s\n", c.name.c_str(), p.error().message.c_str()); return 1; }
        cuda::GpuRunOptions o;
        o.copy_back = false;
        o.repeats = reps;
        // The store's spacing: the device's choice, or DPVIZ_BENCH_SPACING (a power of two >= 128).
        const char* k_env = std::getenv("DPVIZ_BENCH_SPACING");
        if (c.store) o.checkpoint_spacing = k_env ? std::atoi(k_env) : kGpuChoosesSpacing;
        if (c.picture) o.overview_block = overview_block(*p, 4096);
        if (!warm && reps > 1) {
            // Let the clocks come up from idle before anything is timed (about a second of fills).
            cuda::GpuRunOptions w = o;
            w.repeats = 1;
            const auto t0 = std::chrono::steady_clock::now();
            while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1500)) (void)cuda::run_gpu(*p, c.level, true, w);
            std::printf("%-22s %10s %10s %8s %8s %7s %s\n", "case (N x N)", "dpx ms", "free ms", "dpx TC", "free TC", "ratio", "scores");
            warm = true;
        }
        auto a = cuda::run_gpu(*p, c.level, true, o);
        auto b = cuda::run_gpu(*p, c.level, false, o);
        if (!a || !b) {
            std::printf("%s: %s\n", c.name.c_str(), (!a ? a.error() : b.error()).message.c_str());
            return 1;
        }
        const double cells = double(m) * n;
        const bool same = a->score == b->score && a->end == b->end;
        bad += !same;
        std::printf("%-22s %10.3f %10.3f %8.3f %8.3f %7.3f %d %d (%d,%d)%s\n", c.name.c_str(), a->fill_ms, b->fill_ms,
                    cells / a->fill_ms / 1e9, cells / b->fill_ms / 1e9, b->fill_ms / a->fill_ms, a->score, b->score,
                    a->end.i, a->end.j, same ? "" : "  MISMATCH");
        std::fflush(stdout);
    }
    return bad ? 2 : 0;
}
