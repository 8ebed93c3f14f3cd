// RunControl: a cancel from another thread stops a fill early with ErrorKind::cancelled (never a
// device error, never a CPU fallback), and progress is monotone in [0, 1] and ends at 1, on the
// fast CPU backend, the reference and through align().
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "dpviz/engine.hpp"
#include "kernels/result_compare.hpp"

using namespace dpviz;

namespace {

Problem dna_pair(int m, int n, uint32_t seed, GapPenalties gaps = {10, 1}) {
    std::mt19937 g(seed);
    const std::string q = test::random_sequence(g, test::kDna, m);
    std::string t = test::mutate(g, q, test::kDna, 0.05);
    t.resize(size_t(n), 'A');
    ScoringOptions so;
    so.gaps = gaps;
    so.match = 2;
    so.mismatch = -3;
    auto p = make_problem(Algorithm::local, {"q", q}, {"t", t}, so);
    EXPECT_TRUE(p) << p.error().message;
    return *p;
}

// Cancels from a second thread once the run has reported its first progress, and holds that
// report until the flag is set: the run must see the cancel at its next check.
struct Canceller {
    std::atomic<bool> flag{false};
    std::mutex m;
    std::condition_variable cv;
    bool started = false;
    std::vector<double> seen;
    std::thread thread;

    RunControl control() {
        RunControl c;
        c.cancel = &flag;
        c.progress = [this](double f) {
            std::unique_lock l(m);
            seen.push_back(f);
            if (!started) {
                started = true;
                cv.notify_all();
                cv.wait(l, [&] { return flag.load(); });
            }
        };
        thread = std::thread([this] {
            std::unique_lock l(m);
            cv.wait(l, [&] { return started; });
            flag.store(true);
            cv.notify_all();
        });
        return c;
    }
    ~Canceller() {
        if (thread.joinable()) thread.join();
    }
};

double max_of(const std::vector<double>& v) {
    double x = -1;
    for (const double f : v) x = std::max(x, f);
    return x;
}

}  // namespace

TEST(RunControl, CancelFromAnotherThreadStopsTheCpuFillEarly) {
    const Problem p = dna_pair(3000, 3000, 1);
    Canceller c;
    const auto r = align_cpu(p, OutputLevel::path, 1, c.control());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::cancelled);
    // One thread: it stopped right after the band that reported first, far from the end.
    EXPECT_LT(max_of(c.seen), 0.5);
}

TEST(RunControl, CancelStopsEveryThreadOfTheCpuFill) {
    const Problem p = dna_pair(3000, 2500, 2);
    Canceller c;
    const auto r = align_cpu(p, OutputLevel::matrix, 4, c.control());  // more threads than cores: waits too
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::cancelled);
}

TEST(RunControl, CancelStopsTheReferenceBetweenRows) {
    const Problem p = dna_pair(1200, 900, 3);
    Canceller c;
    const auto r = align_reference(p, c.control());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::cancelled);
    EXPECT_LT(max_of(c.seen), 0.5);
}

TEST(RunControl, CancelledRunsAreNotDeviceErrorsAndDoNotFallBack) {
    const Problem p = dna_pair(300, 300, 4);
    std::atomic<bool> cancelled{true};
    for (const Backend b : {Backend::automatic, Backend::cpu, Backend::cpu_reference, Backend::cuda, Backend::cuda_portable}) {
        AlignOptions opt;
        opt.backend = b;
        opt.level = OutputLevel::path;
        opt.control.cancel = &cancelled;
        const auto r = align(p, opt);
        ASSERT_FALSE(r) << backend_name(b);
        EXPECT_EQ(r.error().kind, ErrorKind::cancelled) << backend_name(b) << ": " << r.error().message;
    }
}

TEST(RunControl, ProgressIsMonotoneAndReachesOne) {
    const Problem p = dna_pair(900, 700, 5);
    for (const Backend b : {Backend::cpu, Backend::cpu_reference, Backend::automatic}) {
        for (const unsigned threads : {1u, 3u}) {
            std::vector<double> seen;
            std::mutex m;
            AlignOptions opt;
            opt.backend = b;
            opt.level = OutputLevel::path;
            opt.threads = threads;
            opt.control.progress = [&](double f) {
                std::lock_guard l(m);
                seen.push_back(f);
            };
            const auto r = align(p, opt);
            ASSERT_TRUE(r) << r.error().message;
            ASSERT_GE(seen.size(), 2u) << backend_name(b);  // something before the end, and the end
            for (size_t k = 0; k < seen.size(); ++k) {
                EXPECT_GE(seen[k], 0.0);
                EXPECT_LE(seen[k], 1.0);
                if (k) EXPECT_GE(seen[k], seen[k - 1]) << backend_name(b) << " report " << k;
            }
            EXPECT_EQ(seen.back(), 1.0) << backend_name(b);
        }
    }
}

TEST(RunControl, AnUnsetControlChangesNothing) {
    const Problem p = dna_pair(400, 350, 6, {3, 3});
    std::atomic<bool> never{false};
    AlignOptions opt;
    opt.backend = Backend::cpu;
    opt.level = OutputLevel::matrix;
    opt.control.cancel = &never;
    opt.control.progress = [](double) {};
    const auto r = align(p, opt);
    ASSERT_TRUE(r) << r.error().message;
    test::expect_same(align_reference(p), *r, OutputLevel::matrix, "with a control");
}
