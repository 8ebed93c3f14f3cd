// Timing panel: the shown result's fill and traceback times and GCUPS, its stages (host or
// GPU-resident path), the machine (the GPU, GPU backends, GL renderer, texture upload path), and
// "run all backends": DPX, DPX-free and CPU side by side as bars with numbers and speedups, or
// "not available" and why, and DPX against DPX-free on the fills and on the jobs. A GPU fill is
// set against its kernel's issue bound (instructions per cell from the SASS report) with the
// bound that applies, in words. "GCUPS vs size" measures the current scoring from 128^2 up; the
// shipped `dpviz bench --scan` tables show big pairs on a GPU.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "assets_dir.hpp"
#include "dpviz/band_shape.hpp"
#include "gui/compute.hpp"
#include "gui/gcups_scan.hpp"
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

ImU32 series_color(BackendChoice b) {
    switch (b) {
        case BackendChoice::dpx: return IM_COL32(255, 158, 38, 255);      // the machine-code panel's DPX orange
        case BackendChoice::dpx_free: return IM_COL32(90, 170, 255, 255);
        default: return IM_COL32(140, 220, 120, 255);
    }
}

std::string side_label(int side) { return side >= 1024 ? std::to_string(side / 1024) + "k" : std::to_string(side); }

// GCUPS against the side of the square, both axes logarithmic; a legend and, on hover, the
// values at the nearest size.
void draw_gcups_axes_and_series(const GcupsPlot& g) {
    const float h = 14.0f * ImGui::GetTextLineHeight();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x, 100.0f);
    ImGui::InvisibleButton("gcups_plot", ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float pad_l = ImGui::CalcTextSize("0.001").x + 6, pad_b = ImGui::GetTextLineHeight() + 4;
    const float left = origin.x + pad_l, right = origin.x + w - 8, top = origin.y + 4, bottom = origin.y + h - pad_b;
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border), label = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const GcupsAxes a = gcups_axes(g.series, g.first_side, g.last_side, g.whole_call);
    dl->AddRect(ImVec2(left, top), ImVec2(right, bottom), grid);
    for (int d = int(a.y0); d <= int(a.y1); ++d) {
        const PlotXY p = gcups_plot_xy(a, left, top, right, bottom, g.first_side, std::pow(10.0, d));
        dl->AddLine(ImVec2(left, p.y), ImVec2(right, p.y), grid);
        char text[16];
        std::snprintf(text, sizeof text, "%.*f", d < 0 ? -d : 0, std::pow(10.0, d));
        dl->AddText(ImVec2(origin.x, p.y - ImGui::GetTextLineHeight() / 2), label, text);
    }
    const std::vector<int> sides = gcups_scan_sizes(g.first_side, g.last_side);
    for (const int side : sides) {
        const PlotXY p = gcups_plot_xy(a, left, top, right, bottom, side, 1.0);
        dl->AddLine(ImVec2(p.x, top), ImVec2(p.x, bottom), grid);
        const std::string t = side_label(side);
        dl->AddText(ImVec2(p.x - ImGui::CalcTextSize(t.c_str()).x / 2, bottom + 2), label, t.c_str());
    }
    float legend_y = top + 2;
    for (const GcupsSeries& s : g.series) {
        const ImU32 c = series_color(s.backend);
        std::vector<ImVec2> line;
        for (const GcupsPoint& pt : s.points) {
            const PlotXY p = gcups_plot_xy(a, left, top, right, bottom, pt.side, pt.gcups(g.whole_call));
            line.emplace_back(p.x, p.y);
            dl->AddCircleFilled(line.back(), 3.0f, c);
        }
        if (line.size() > 1) dl->AddPolyline(line.data(), int(line.size()), c, 0, 2.0f);
        const std::string name = std::string(backend_choice_label(s.backend)) + (s.available ? "" : " (not available)");
        dl->AddLine(ImVec2(left + 6, legend_y + 7), ImVec2(left + 22, legend_y + 7), c, 2.0f);
        dl->AddText(ImVec2(left + 26, legend_y), s.available ? ImGui::GetColorU32(ImGuiCol_Text) : label, name.c_str());
        legend_y += ImGui::GetTextLineHeight();
    }
    if (hovered && !sides.empty()) {
        // The nearest size under the mouse, and every series' value there.
        const float mx = ImGui::GetIO().MousePos.x;
        int nearest = sides.front();
        float best = INFINITY;
        for (const int side : sides)
            if (const float d = std::fabs(gcups_plot_xy(a, left, top, right, bottom, side, 1.0).x - mx); d < best) {
                best = d;
                nearest = side;
            }
        std::string tip = std::to_string(nearest) + "^2";
        for (const GcupsSeries& s : g.series)
            for (const GcupsPoint& pt : s.points)
                if (pt.side == nearest) {
                    char line[160];
                    std::snprintf(line, sizeof line, "\n%s: %.3f GCUPS (call %.3f ms, fill %.3f ms, median of %d)",
                                  backend_choice_label(s.backend), pt.gcups(g.whole_call), pt.wall_ms, pt.fill_ms, pt.runs);
                    tip += line;
                }
        ImGui::SetTooltip("%s", tip.c_str());
    }
}

void draw_gcups_plot(AppState& s) {
    const bool busy = s.job.busy, viterbi = s.result && s.result->problem.algo == Algorithm::viterbi;
    const bool scanning = busy && s.job.stage.rfind("GCUPS vs size", 0) == 0;
    if (busy || !s.result || viterbi) ImGui::BeginDisabled();
    if (ImGui::Button("GCUPS vs size")) s.requests.gcups_scan = true;
    if (busy || !s.result || viterbi) ImGui::EndDisabled();
    ImGui::SameLine();
    if (scanning) {
        if (ImGui::SmallButton("Cancel##gcups")) s.requests.cancel = true;
        ImGui::SameLine();
        ImGui::TextDisabled("%s", s.job.stage.c_str());
    } else {
        if (viterbi) ImGui::TextDisabled("not for Viterbi (its rows are the model's states)");
        else ImGui::TextDisabled("squares %d^2 to %d^2, score level, each backend", s.gcups.first_side, s.gcups.last_side);
    }
    if (s.gcups.series.empty()) return;
    disabled_wrapped(s.gcups.what);
    ImGui::Checkbox("whole call (uploads, launches, copies)", &s.gcups.whole_call);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("on: the time of the whole align() call; off: the fill alone (the kernel's events on a GPU)");
    draw_gcups_axes_and_series(s.gcups);
    for (const GcupsSeries& g : s.gcups.series) {
        std::string line = std::string(backend_choice_label(g.backend)) + ": ";
        if (!g.available) line += "not available (" + g.note + ")";
        else {
            line += std::to_string(g.points.size()) + " point" + (g.points.size() == 1 ? "" : "s");
            if (!g.kernel.empty()) line += ", kernel " + g.kernel;
            if (!g.note.empty()) line += "; " + g.note;
        }
        disabled_wrapped(line);
    }
}

// The rows as a table: a column per backend the scan timed, the ratio where it has one.
void draw_scan_rows(const std::vector<ScanShownRow>& rows) {
    const char* const backends[] = {"DPX", "DPX-free", "CPU"};
    bool shown[3] = {}, ratio = false;
    for (const ScanShownRow& r : rows) {
        for (int b = 0; b < 3; ++b) shown[b] = shown[b] || !r.backends[size_t(b)].empty();
        ratio = ratio || !r.ratio.empty();
    }
    const int columns = 3 + shown[0] + shown[1] + shown[2] + ratio;
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg |
                                       ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    // ScrollX needs a height: the rows' own, so the table scrolls sideways only.
    const float height = ImGui::GetFrameHeightWithSpacing() * float(rows.size() + 1) + ImGui::GetStyle().ScrollbarSize;
    if (!ImGui::BeginTable("scan rows", columns, kFlags, ImVec2(0, height))) return;
    ImGui::TableSetupColumn("M x N");
    ImGui::TableSetupColumn("level");
    for (int b = 0; b < 3; ++b)
        if (shown[b]) ImGui::TableSetupColumn(backends[b]);
    if (ratio) ImGui::TableSetupColumn("DPX-free / DPX");
    ImGui::TableSetupColumn("kernel (DPX)");
    ImGui::TableHeadersRow();
    for (const ScanShownRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.shape.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.level.c_str());
        for (int b = 0; b < 3; ++b)
            if (shown[b]) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(r.backends[size_t(b)].c_str());
            }
        if (ratio) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.ratio.c_str());
        }
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", r.kernel.c_str());
    }
    ImGui::EndTable();
}

// The chosen shipped scan table's rows for the shown result's workload, with the run's conditions.
void draw_scan_table(AppState& s) {
    if (!ImGui::TreeNode("Big pairs on a GPU (dpviz bench --scan)")) return;
    if (!s.scan_tables)
        s.scan_tables = std::make_shared<const std::vector<app::ScanTable>>(
            app::load_scan_tables(app::shipped_reports_dir(s.assets_dir, "scan")));
    const std::vector<app::ScanTable>& tables = *s.scan_tables;
    s.scan_table_shown = std::clamp(s.scan_table_shown, 0, int(tables.size()) - 1);
    if (tables.size() > 1) {
        std::vector<std::string> labels;
        for (const app::ScanTable& t : tables) labels.push_back(scan_table_label(t));
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
        if (ImGui::BeginCombo("table", labels[s.scan_table_shown].c_str())) {
            for (size_t k = 0; k < labels.size(); ++k)
                if (ImGui::Selectable(labels[k].c_str(), int(k) == s.scan_table_shown)) s.scan_table_shown = int(k);
            ImGui::EndCombo();
        }
    }
    const app::ScanTable& t = tables[s.scan_table_shown];
    const std::string workload = s.result ? app::scan_workload(s.result->problem) : "";
    if (t.rows.empty()) disabled_wrapped(t.source);
    else if (!s.result) ImGui::TextDisabled("No result yet.");
    else if (workload.empty())
        disabled_wrapped("the scan times local alignment (linear and affine gaps), edit distance and DTW; this "
                         "algorithm is not among them");
    else {
        text_wrapped("%s: fill times (median), TCUPS = cells / time", workload.c_str());
        draw_scan_rows(scan_table_rows(t, workload));
        disabled_wrapped(t.about);
        disabled_wrapped("source: " + t.source);
    }
    ImGui::TreePop();
}

}  // namespace

std::string scan_table_label(const app::ScanTable& t) {
    if (t.device.empty()) return std::filesystem::path(t.source).filename().string();
    return t.date.empty() ? t.device : t.device + ", " + t.date;
}

std::vector<ScanShownRow> scan_table_rows(const app::ScanTable& t, const std::string& workload) {
    std::vector<ScanShownRow> out;
    for (const app::ScanTableRow& r : t.rows)
        if (r.workload == workload && std::none_of(out.begin(), out.end(), [&](const ScanShownRow& o) {
                return o.shape == r.shape && o.level == r.level;
            }))
            out.push_back({r.shape, r.level, {}, {}, {}});  // in the table's order
    for (ScanShownRow& row : out) {
        double ms[2] = {0, 0};  // DPX, DPX-free: as printed
        for (const BackendChoice b : {BackendChoice::dpx, BackendChoice::dpx_free, BackendChoice::cpu})
            for (const app::ScanTableRow& r : t.rows) {
                if (r.workload != workload || r.shape != row.shape || r.level != row.level ||
                    r.backend != backend_name(engine_backend(b)))
                    continue;
                const size_t k = b == BackendChoice::dpx ? 0 : b == BackendChoice::dpx_free ? 1 : 2;
                char text[64];
                if (r.runs > 0) std::snprintf(text, sizeof text, "%.2f ms = %.3f TCUPS", r.ms, r.tcups);
                else std::snprintf(text, sizeof text, "not timed");
                row.backends[k] = text;
                if (k < 2 && r.runs > 0) ms[k] = std::strtod(text, nullptr);
                if (k == 0) row.kernel = r.kernel;
            }
        if (ms[0] > 0 && ms[1] > 0) {
            char text[16];
            std::snprintf(text, sizeof text, "%.2f", ms[1] / ms[0]);
            row.ratio = text;
        }
    }
    return out;
}

std::string fill_bound_text(const app::SassReport& r, const app::GpuFigures& g, const std::string& kernel,
                            int64_t cells, int rows, double fill_ms) {
    const app::KernelBound b = app::kernel_bound(r, kernel, g, cells, fill_ms);
    const bool one_pair = kernel.rfind("pair-score", 0) == 0 || kernel.rfind("pair-serial", 0) == 0;
    const app::BoundVerdict v =
        app::which_bound({cells, rows, fill_ms, g.sms, g.warps_per_sm, one_pair, pair_score_group_rows(kernel)});
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

std::string dpx_ratio_text(const TimingRow& dpx, const TimingRow& dpx_free) {
    if (!dpx.available || !dpx_free.available) return "";
    const auto fill = [](double ms) { return std::round(ms * 1000.0) / 1000.0; };
    const auto versus = [](double a, double b, int decimals) {
        char text[96];
        if (a <= 0 || b <= 0) {
            std::snprintf(text, sizeof text, "%.*f ms vs %.*f ms", decimals, a, decimals, b);
        } else {
            const double r = b / a;
            std::snprintf(text, sizeof text, "%.*f ms vs %.*f ms, %.2fx %s", decimals, a, decimals, b, r >= 1 ? r : 1 / r,
                          r >= 1 ? "faster" : "slower");
        }
        return std::string(text);
    };
    return "DPX against DPX-free: the fill " + versus(fill(dpx.fill_ms), fill(dpx_free.fill_ms), 3) +
           "; fill + traceback " +
           versus(printed_ms(dpx.fill_ms + dpx.traceback_ms), printed_ms(dpx_free.fill_ms + dpx_free.traceback_ms), 2);
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
    ImGui::TextDisabled("level path, same inputs, medians");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Each backend runs once to warm up (loading its kernels), then up to %d times while its runs "
                          "take under %.0f s in all; the bars show the medians of the fill and of the traceback. A "
                          "first run longer than that is the only one.",
                          kRunAllRule.repeats, kRunAllRule.limit_ms / 1000);

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
                ImGui::SetTooltip("fill %.3f ms (the kernel, or the CPU's fill), traceback %.3f ms: medians of %d run%s; "
                                  "%lld cells; %s%s%s",
                                  t.fill_ms, t.traceback_ms, t.runs, t.runs == 1 ? "" : "s",
                                  static_cast<long long>(t.cells), t.note.c_str(),
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
    const TimingRow *dpx = nullptr, *dpx_free = nullptr;
    for (const TimingRow& t : s.timings) {
        if (t.backend == BackendChoice::dpx) dpx = &t;
        if (t.backend == BackendChoice::dpx_free) dpx_free = &t;
    }
    if (dpx && dpx_free) {
        if (const std::string text = dpx_ratio_text(*dpx, *dpx_free); !text.empty()) text_wrapped_unformatted(text);
    }
    ImGui::Separator();
    draw_gcups_plot(s);
    draw_scan_table(s);
    ImGui::Separator();
    draw_machine(s);
}

}  // namespace dpviz::gui
