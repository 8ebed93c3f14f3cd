// Soak: thousands of seeded random parameter changes, cancels and example switches through
// headless UI frames and the real worker (the CPU backend; and a GPU-resident variant that skips
// without a device). Asserts no crash, every settled result equal to the reference engine's
// score for its problem and the newest request's, and memory after the run within 5 % of what
// it was after the first 100 changes: the resident set (under ASan, whose quarantine keeps freed
// memory resident, the sanitizer's live heap instead); the GPU variant, device memory in use.
// Run with `ctest -L soak`; how memory is measured, and the figures: docs/robustness.md.
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <random>

#include "dpviz/device_view.hpp"
#include "gui_test_util.hpp"
#include "memory_probe.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;
using dpviz::test::heap_bytes;
using dpviz::test::resident_kib;

#ifdef DPVIZ_SOAK_ASAN
// Slower under the sanitizer: half the changes, the same mix, still three times the 300 the
// memory baseline is taken at.
constexpr int kChanges = 1000;
#else
constexpr int kChanges = 2000;
#endif
// After 300 changes: state the GUI builds once (about 110 kB of live heap, first needed between
// the 100th and the 300th change of this seed) is in the baseline; growth after it is what the
// soak looks for (3,000 changes under ASan grow the heap exactly as much as 1,000 do).
constexpr int kBaselineAt = 300;

// glibc raises its mmap threshold to the size of the largest block freed so far (up to 32 MiB):
// after the first large matrix, matrices live in the heap, and the resident set then follows
// where they happened to land, not what is held. A fixed threshold (glibc's initial one) keeps
// large blocks in their own mappings, so the resident set measures what the program holds.
void fix_mmap_threshold() {
#ifndef DPVIZ_SOAK_ASAN
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

struct Figures {
    int changes = 0, settled = 0, checked = 0, cancels = 0, switches = 0, errors = 0, resident = 0;
    double rss_base_kib = 0, rss_end_kib = 0, heap_base = 0, heap_end = 0, seconds = 0;
    double device_used_base = 0, device_used_end = 0;
};

class Soak {
public:
    Soak(bool device, uint64_t seed) : device_(device), rng_(seed), worker_(run_job) {
        s_ = fresh_state();
        s_.system.device_view = device;  // headless: the jobs take the GPU-resident path
        s_.params.backend = device ? BackendChoice::dpx : BackendChoice::cpu;
        load_example(s_, Example::globins);
    }

    // Every example once at the largest zoom with the tables, the mask, a tooltip and the
    // teaching inspector, and at the smallest: ImGui keeps its vertex and index buffers at the
    // largest frame they held, a one-off cost that belongs in the baseline, not in the growth.
    void warm_up() {
        for (const Example e : {Example::dna_repeat_inversion, Example::dtw_signals, Example::casino, Example::globins}) {
            load_example(s_, e);
            settle_and_check();
            s_.panels.inspector = true;
            s_.view.show_mask = s_.view.show_details = true;
            for (const double px : {kMaxCellPx, 20.0, 0.25}) {
                s_.view.center_pending = MatrixView::CenterOn{s_.result->rows() / 2.0, s_.result->cols() / 2.0, px};
                ui_.frame(s_, &worker_);
                const Canvas& c = s_.view.canvas;
                ImGui::GetIO().MousePos = ImVec2(float(c.x + c.w / 2), float(c.y + c.h / 2));
                for (int k = 0; k < 3; ++k) ui_.frame(s_, &worker_);
            }
            s_.requests.run_all_backends = true;
            settle_and_check();
        }
        s_.panels.inspector = s_.view.show_mask = false;
    }

    // One random change, then a frame; now and then the frames until everything has settled.
    void change() {
        const unsigned k = pick(100);
        Parameters& p = s_.params;
        if (k < 28) {  // gap penalties (a slider's release)
            // Whole, half and quarter units, as a slider or a typed value gives them (scales 1, 2, 4).
            static constexpr int64_t kSteps[] = {100, 50, 25};
            const int64_t step = kSteps[pick(3)];
            p.gap_open = Hundredths{step * (1 + int64_t(pick(80)))};
            p.gap_extend = Hundredths{step * (1 + int64_t(pick(unsigned(p.gap_open.value / step))))};
            request_compute(s_, true);
            current_ = true;
        } else if (k < 36) {  // algorithm; DTW only on the signals, Viterbi only on its model (a recompute)
            if (p.algo == Algorithm::dtw) {
                p.dtw_cost = pick(2) ? DtwCost::abs : DtwCost::squared;
                p.band_on = pick(2);
                p.band = int(pick(300));
            } else if (p.algo != Algorithm::viterbi) {
                static constexpr Algorithm kSeq[] = {Algorithm::local, Algorithm::global, Algorithm::semiglobal,
                                                     Algorithm::edit, Algorithm::lcs};
                p.algo = kSeq[pick(5)];
            }
            request_compute(s_, true);
            current_ = true;
        } else if (k < 44) {  // scoring: a matrix (NUC.4.4 on proteins fails: the error path) or match/mismatch
            static const char* kMatrices[] = {"", "BLOSUM62", "PAM250", "NUC.4.4", "BLOSUM45"};
            if (pick(3)) {
                p.scoring = ScoringMode::matrix;
                p.matrix = kMatrices[pick(5)];
            } else {
                p.scoring = ScoringMode::match_mismatch;
                p.match = Hundredths{50 * (1 + int64_t(pick(12)))};
                p.mismatch = Hundredths{-50 * int64_t(pick(12))};
            }
            request_compute(s_, true);
            current_ = true;
        } else if (k < 52) {
            static constexpr Example kExamples[] = {Example::globins, Example::globins, Example::dtw_signals,
                                                    Example::dna_repeat_inversion, Example::casino};
            load_example(s_, kExamples[pick(5)]);
            current_ = true;
            ++figures.switches;
        } else if (k < 60) {
            s_.requests.cancel = true;
            current_ = false;  // the parameters now may differ from what is shown, until the next request
            ++figures.cancels;
        } else if (k < 72) {  // the view: layer, colours, mask, zoom and pan (tables and arrows at large zoom)
            MatrixView& v = s_.view;
            v.layer = Layer(pick(3));
            v.auto_colormap = pick(2);
            v.colormap = render::Colormap(pick(4));
            v.show_mask = pick(4) == 0;
            v.show_details = pick(2);
            if (s_.result && pick(2))
                v.center_pending = MatrixView::CenterOn{double(pick(unsigned(s_.result->rows()))),
                                                        double(pick(unsigned(s_.result->cols()))), 1.0 + pick(60)};
            else v.fit_pending = true;
        } else if (k < 76) {
            s_.requests.run_all_backends = true;
        } else if (k < 80) {
            s_.panels.inspector = !s_.panels.inspector;
            s_.panels.alignment = pick(4) != 0;
        }
        // The mouse somewhere (over the matrix most of the time: tooltips), now and then the wheel.
        ImGuiIO& io = ImGui::GetIO();
        const Canvas& c = s_.view.canvas;
        if (c.w > 0 && pick(4)) io.MousePos = ImVec2(float(c.x + c.w * uniform()), float(c.y + c.h * uniform()));
        else io.MousePos = ImVec2(float(1280 * uniform()), float(800 * uniform()));
        io.MouseWheel = pick(8) == 0 ? (pick(2) ? 1.0f : -1.0f) : 0.0f;
        ui_.frame(s_, &worker_);
        io.MouseWheel = 0.0f;
        ++figures.changes;
        if (pick(4) == 0) settle_and_check();
    }

    // Frames until no job or request is left; then the shown result is checked.
    void settle_and_check() {
        ASSERT_TRUE(frames_until(ui_, s_, worker_,
                                 [&] { return !s_.job.busy && !s_.requests.compute && !s_.requests.run_all_backends; }, 120.0))
            << "change " << figures.changes << ": " << pending_work(s_, false);
        ui_.frame(s_, &worker_);
        ++figures.settled;
        if (!s_.error.empty()) {
            ++figures.errors;  // a refused matrix or a cancel: the last result stays, with the error line
            return;
        }
        ASSERT_TRUE(s_.result);
        const Computed& c = *s_.result;
        // The newest request's result: its algorithm and, where they count, its gaps (unless a
        // cancel came after the last request: the result shown is then an older one).
        if (current_) {
            EXPECT_EQ(c.problem.algo, s_.params.algo) << "change " << figures.changes;
            if (uses_gap_penalties(c.problem.algo)) {
                EXPECT_EQ(c.problem.score_text(c.problem.gaps.open), s_.params.gap_open.text()) << "change " << figures.changes;
                EXPECT_EQ(c.problem.score_text(c.problem.gaps.extend), s_.params.gap_extend.text())
                    << "change " << figures.changes;
            }
        }
        if (!device_) {
            EXPECT_FALSE(c.resident());
        }
        figures.resident += c.resident();  // GPU: DTW with an unreachable end takes the host path
        if (c.id != checked_id_) {
            checked_id_ = c.id;
            const DpResult ref = align_reference(c.problem);
            EXPECT_EQ(c.result.score, ref.score) << "change " << figures.changes << ": " << c.caption;
            ++figures.checked;
        }
    }

    // The same state at both measurements: the globin example at the default parameters, its
    // result shown, nothing running.
    void normalize() {
        const BackendChoice b = s_.params.backend;
        s_.params = Parameters{};
        s_.params.backend = b;
        s_.view.layer = Layer::H;
        s_.view.show_mask = false;
        s_.timings.clear();
        load_example(s_, Example::globins);
        current_ = true;
        settle_and_check();
        for (int k = 0; k < 3; ++k) ui_.frame(s_, &worker_);
    }

    // The warm-up, then kChanges changes, with the memory figures taken after kBaselineAt of them
    // and at the end, each time after normalize(); `device_used`, when given, adds the device's
    // memory in use to both. Stops at a fatal failure, which the caller asserts.
    void run(const std::function<double()>& device_used = {}) {
        warm_up();
        for (int k = 0; k < kChanges && !::testing::Test::HasFatalFailure(); ++k) {
            change();
            if (k + 1 == kBaselineAt) {
                normalize();
                if (device_used) figures.device_used_base = device_used();
                figures.rss_base_kib = resident_kib();
                figures.heap_base = heap_bytes();
            }
        }
        if (::testing::Test::HasFatalFailure()) return;
        normalize();
        if (device_used) figures.device_used_end = device_used();
        figures.rss_end_kib = resident_kib();
        figures.heap_end = heap_bytes();
    }

    Figures figures;

private:
    unsigned pick(unsigned n) { return unsigned(rng_() % n); }
    double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }

    bool device_;
    std::mt19937_64 rng_;
    HeadlessImGui ui_;
    AppState s_;
    Worker worker_;
    uint64_t checked_id_ = 0;
    bool current_ = true;  // no cancel since the last request: the shown result is the newest request's
};

void report(const char* name, const Figures& f) {
    std::printf("%s: %d changes (%d settled, %d results checked against the reference, %d cancels, %d example "
                "switches, %d settled on an error line), %.1f s\n",
                name, f.changes, f.settled, f.checked, f.cancels, f.switches, f.errors, f.seconds);
    std::printf("%s: resident %.0f kB after %d changes, %.0f kB after %d (%+.2f %%); heap in use %.0f -> %.0f kB (%+.2f %%)\n",
                name, f.rss_base_kib, kBaselineAt, f.rss_end_kib, f.changes,
                100.0 * (f.rss_end_kib - f.rss_base_kib) / f.rss_base_kib, f.heap_base / 1024, f.heap_end / 1024,
                100.0 * (f.heap_end - f.heap_base) / f.heap_base);
}

TEST(GuiSoak, CpuFramesSurviveRandomChangesCancelsAndExampleSwitches) {
    const auto t0 = std::chrono::steady_clock::now();
    fix_mmap_threshold();
    Soak soak(/*device=*/false, /*seed=*/20261201);
    soak.run();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    Figures& f = soak.figures;
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report("GuiSoak.Cpu", f);
    EXPECT_EQ(f.changes, kChanges);
    EXPECT_GT(f.checked, kChanges / 20);  // the check ran, on many distinct results
    EXPECT_GT(f.cancels, 0);
    EXPECT_GT(f.switches, 0);
#ifdef DPVIZ_SOAK_ASAN
    EXPECT_LE(f.heap_end, f.heap_base * 1.05) << "live heap grew";
#else
    EXPECT_LE(f.rss_end_kib, f.rss_base_kib * 1.05) << "resident memory grew";
#endif
}

TEST(GuiSoakGpu, ResidentViewKeepsDeviceMemoryStable) {
    if (!device_view_available()) GTEST_SKIP() << "no usable CUDA device";
    const auto t0 = std::chrono::steady_clock::now();
    fix_mmap_threshold();
    Soak soak(/*device=*/true, /*seed=*/20261202);
    const auto used = [] {
        const auto m = device_memory();
        return m ? double(m->total_bytes - m->free_bytes) : -1.0;
    };
    ASSERT_GE(used(), 0.0);
    soak.run(used);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    Figures& f = soak.figures;
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report("GuiSoakGpu", f);
    std::printf("GuiSoakGpu: device memory in use %.1f MiB after %d changes, %.1f MiB after %d\n",
                f.device_used_base / 1048576, kBaselineAt, f.device_used_end / 1048576, f.changes);
    EXPECT_GT(f.checked, kChanges / 20);
    EXPECT_GT(f.resident, f.settled / 2) << "the GPU-resident path hardly ran";
    // In use on the whole device (the context, the kept blocks of the last shapes): 5 % of it.
    EXPECT_LE(f.device_used_end, f.device_used_base * 1.05) << "device memory grew";
    // Host memory is the CPU variant's to assert: here the driver's own (pinned staging buffers,
    // module loads) shares the resident set; it is reported above.
}

}  // namespace
}  // namespace dpviz::gui
