// Timing panel: the shown result's fill and traceback times and GCUPS, its stages (host or
// GPU-resident path), the machine (the GPU, GPU backends, GL renderer, texture upload path), and
// "run all backends": DPX, DPX-free and CPU side by side as bars with numbers and speedups, or
// "not available" and why. A GPU fill is set against its kernel's issue bound (instructions per
// cell from the SASS report) with the bound that applies, in words.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "dpviz/band_shape.hpp"
#include "gui/compute.hpp"
#include "gui/panels.hpp"
#include "gui/teach_machine_code.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

void draw_machine(const AppState& s) {
    const SystemInfo& sys = s.system;
    if (ImGui::TreeNodeEx("Machine", ImGuiTreeNodeFlags_DefaultOpen)) {
        auto backend_line = [](const char* name, bool ok, const std::string& why) {
            if (ok) {
                ImGui::Text("%s: available", name);
                return;
            }
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            text_wrapped("%s: not available (%s)", name, why.c_str());
            ImGui::PopStyleColor();
        };
        if (!sys.gpu.empty()) {
            const bool none = sys.gpu.rfind("not available", 0) == 0;
            if (none) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            text_wrapped("GPU: %s", sys.gpu.c_str());
            if (none) ImGui::PopStyleColor();
        }
        if (!sys.backends_probed) ImGui::TextDisabled("GPU backends: not probed");
        else {
            backend_line("DPX", sys.dpx_available, sys.dpx_note);
            backend_line("DPX-free", sys.dpx_free_available, sys.dpx_free_note);
        }
        if (sys.gpu_figures.sms > 0) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            text_wrapped("issue bound: %d SMs x 4 schedulers x SM clock x 32 lanes / instructions per cell; clock: %s",
                         sys.gpu_figures.sms, sys.gpu_figures.clock_source.c_str());
            ImGui::PopStyleColor();
        }
        text_wrapped("GL renderer: %s", sys.gl_renderer.c_str());
        text_wrapped("texture upload: %s (%s)", sys.upload_path.c_str(), sys.upload_note.c_str());
        ImGui::TreePop();
    }
}

// A time as the bar prints it, and back: the ratio is taken of these.
double printed_ms(double ms) { return std::round(ms * 100.0) / 100.0; }

void disabled_wrapped(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

std::string fill_bound_text(const app::SassReport& r, const app::GpuFigures& g, const std::string& kernel,
                            int64_t cells, int rows, double fill_ms) {
    const app::KernelBound b = app::kernel_bound(r, kernel, g, cells, fill_ms);
    const app::BoundVerdict v = app::which_bound({cells, rows, fill_ms, g.sms, g.warps_per_sm});
    char text[640];
    if (b.per_cell <= 0)
        std::snprintf(text, sizeof text, "%s: instructions per cell n/a (the SASS report has no line for it). ",
                      kernel.c_str());
    else if (b.bound_cells_per_s <= 0)
        std::snprintf(text, sizeof text, "%s: %.2f instructions per cell (SASS loop); issue bound n/a (%s). ",
                      kernel.c_str(), b.per_cell, g.sms > 0 ? "this GPU's SM clock is unknown" : "no GPU figures");
    else
        std::snprintf(text, sizeof text,
                      "%s: %.2f instructions per cell (SASS loop) -> issue bound %.3f TCUPS on this GPU; this fill "
                      "%.4f TCUPS = %.1f %% of it. ",
                      kernel.c_str(), b.per_cell, b.bound_cells_per_s / 1e12,
                      fill_ms > 0 ? double(cells) / (fill_ms * 1e-3) / 1e12 : 0.0, b.fraction * 100);
    return std::string(text) + "Bound: " + app::bound_name(v.bound) + " (" + v.why + ")";
}

std::string timing_bar_text(const TimingRow& t, double cpu_ms) {
    const double ms = printed_ms(t.fill_ms + t.traceback_ms), cpu = printed_ms(cpu_ms);
    char text[128];
    if (cpu > 0 && ms > 0 && t.backend != BackendChoice::cpu) {
        const double r = cpu / ms;
        if (r >= 1.0) std::snprintf(text, sizeof text, "%.2f GCUPS  %.2f ms  %.1fx faster than the CPU", t.gcups(), ms, r);
        else std::snprintf(text, sizeof text, "%.2f GCUPS  %.2f ms  %.1fx slower than the CPU", t.gcups(), ms, 1.0 / r);
    } else {
        std::snprintf(text, sizeof text, "%.2f GCUPS  %.2f ms", t.gcups(), ms);
    }
    return text;
}

std::string timing_bar_why(const TimingRow& t, double cpu_ms, int rows) {
    const double ms = t.fill_ms + t.traceback_ms;
    // Only a small matrix's: below 2048^2 cells a GPU job is mostly its launches and copies.
    if (t.backend == BackendChoice::cpu || cpu_ms <= 0 || ms <= cpu_ms || t.cells >= int64_t(2048) * 2048) return "";
    const int bands = (rows + gpu_band::kBandRows - 1) / gpu_band::kBandRows;
    char text[256];
    std::snprintf(text, sizeof text,
                  "slower than the CPU here: %lld cells keep %d warp%s busy (one a band of %d rows), and the launches "
                  "and copies of a job cost more than its cells; a GPU gains on big matrices",
                  static_cast<long long>(t.cells), bands, bands == 1 ? "" : "s", gpu_band::kBandRows);
    return text;
}

void draw_timing(AppState& s) {
    if (s.result) {
        const DpResult& r = s.result->result;
        const double total = r.fill_ms + r.traceback_ms;
        ImGui::Text("shown: %s", std::string(backend_name(r.backend)).c_str());
        ImGui::Text("fill %.3f ms   traceback %.3f ms", r.fill_ms, r.traceback_ms);
        ImGui::Text("%lld cells   %.3f GCUPS", static_cast<long long>(r.cells), total > 0 ? double(r.cells) / (total * 1e6) : 0.0);
        const StageTimes& st = s.result->stages;
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        if (s.result->problem.algo == Algorithm::viterbi)
            text_wrapped("level matrix: the trellis (delta) and its backpointers kept for the view, in host memory; "
                         "each of the %lld cells takes the max over %d predecessors",
                         static_cast<long long>(r.cells), s.result->problem.rows());
        else if (s.result->stored())
            text_wrapped("result store (matrix too big to hold): checkpoints every %d rows and columns (%.1f MiB "
                         "in %s memory) and an overview of %d x %d blocks of %d x %d cells, pooled by the fill; "
                         "windows are recomputed exactly on the %s as you zoom in",
                         r.checkpoints->spacing,
                         double(checkpoint_bytes(s.result->problem, r.checkpoints->spacing)) / (1 << 20),
                         s.result->store_on_gpu() ? "GPU" : "host", r.overview->H.rows, r.overview->H.cols,
                         r.overview->block, r.overview->block, s.result->store_on_gpu() ? "GPU" : "CPU");
        else
            text_wrapped("level matrix: H%s and the direction bits kept for the view, %s",
                         s.result->problem.affine() ? ", E, F" : "",
                         st.on_device ? "in GPU memory (GPU-resident view)" : "in host memory");
        text_wrapped("job %.2f ms: fill %.2f, traceback %.2f, pyramid %.2f%s, view prep %.2f", st.total, st.fill,
                     st.traceback, st.pyramid, st.on_device ? " (GPU)" : "", st.prepare);
        ImGui::PopStyleColor();
        if (const std::string kernel = app::ran_kernel_name(s.result->problem, r); !kernel.empty())
            disabled_wrapped(fill_bound_text(sass_report(s), s.system.gpu_figures, kernel, r.cells,
                                             s.result->problem.rows(), r.fill_ms));
        if (!r.fallback.empty()) text_wrapped("note: %s", r.fallback.c_str());
    } else {
        ImGui::TextDisabled("No result yet.");
    }
    ImGui::Separator();
    const bool busy = s.job.busy;
    if (busy || !s.result) ImGui::BeginDisabled();
    if (ImGui::Button("Run all backends")) s.requests.run_all_backends = true;
    if (busy || !s.result) ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("level path, same inputs");

    double best = 0.0, cpu_ms = 0.0;
    for (const TimingRow& t : s.timings) {
        best = std::max(best, t.gcups());
        if (t.backend == BackendChoice::cpu && t.available) cpu_ms = t.fill_ms + t.traceback_ms;
    }
    for (const TimingRow& t : s.timings) {
        ImGui::PushID(int(t.backend));
        ImGui::TextUnformatted(backend_choice_label(t.backend));
        ImGui::SameLine(ImGui::CalcTextSize("DPX-free").x + ImGui::GetStyle().ItemSpacing.x * 3);
        if (t.available) {
            const std::string overlay = timing_bar_text(t, cpu_ms);
            ImGui::ProgressBar(best > 0 ? float(t.gcups() / best) : 0.0f, ImVec2(-1, 0), overlay.c_str());
            const std::string why = s.result ? timing_bar_why(t, cpu_ms, s.result->problem.rows()) : "";
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("fill %.3f ms (the kernel, or the CPU's fill), traceback %.3f ms, %lld cells; %s%s%s",
                                  t.fill_ms, t.traceback_ms, static_cast<long long>(t.cells), t.note.c_str(),
                                  why.empty() ? "" : "\n", why.c_str());
            if (!t.kernel.empty())
                disabled_wrapped(fill_bound_text(sass_report(s), s.system.gpu_figures, t.kernel, t.cells, t.rows, t.fill_ms));
        } else {
            ImGui::TextDisabled("not available");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.note.c_str());
            ImGui::SameLine();
            ImGui::TextDisabled("(?)");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.note.c_str());
        }
        ImGui::PopID();
    }
    ImGui::Separator();
    draw_machine(s);
}

}  // namespace dpviz::gui
