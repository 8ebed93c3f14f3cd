// The GUI's panels, registered in one list. A panel is a free function draw_<panel>(AppState&)
// that draws its window's contents and writes requests into the state; it never calls CUDA or
// GL (the frame loop does). draw_ui() draws the menu bar and every open panel.
#pragma once

#include <array>
#include <span>
#include <string>

#include "bench_scan.hpp"
#include "dpviz/render/heatmap.hpp"
#include "gpu_model.hpp"
#include "gui/app_state.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {

void draw_inputs(AppState& s);
void draw_parameters(AppState& s);
void draw_matrix(AppState& s);
void draw_alignment(AppState& s);
void draw_timing(AppState& s);
// One bar's label of "run all backends": GCUPS, the time (fill + traceback), and against the CPU's
// row (cpu_ms > 0, its fill + traceback) how many times faster or slower, from the times as
// printed, so the ratio matches them.
std::string timing_bar_text(const TimingRow& t, double cpu_ms);
// Why a GPU row of a small matrix (below 2048^2 cells) is slower than the CPU's, when it is (""
// otherwise): `rows`, the matrix's rows, say how few warps it keeps busy.
std::string timing_bar_why(const TimingRow& t, double cpu_ms, int rows);
// DPX against DPX-free under the bars: the fills' times (the kernels' events, 3 decimals) and the
// jobs' (fill + traceback, as the bars print them), each with how many times faster or slower
// DPX is, from the times as printed; "" unless both rows are available.
std::string dpx_ratio_text(const TimingRow& dpx, const TimingRow& dpx_free);
// A GPU fill against its kernel, in words: the kernel, its instructions per cell (the SASS
// report's steady-state loop), the issue bound they imply on this GPU, the fill's fraction of it,
// and which bound applies (gpu_model.hpp: which_bound) and why.
std::string fill_bound_text(const app::SassReport& r, const app::GpuFigures& g, const std::string& kernel,
                            int64_t cells, int rows, double fill_ms);
// The shipped `dpviz bench --scan` table's rows of one workload as the timing panel's table shows
// them, one per size and level: each backend's time and TCUPS as the table prints them ("" where
// the scan has no row for it, "not timed" where it did not time it), DPX-free / DPX from those
// printed times ("" unless both GPU backends were timed), and the DPX row's kernel.
struct ScanShownRow {
    std::string shape, level;
    std::array<std::string, 3> backends;  // DPX, DPX-free, CPU: "8.94 ms = 0.481 TCUPS"
    std::string ratio;                    // "1.06"
    std::string kernel;
};
std::vector<ScanShownRow> scan_table_rows(const app::ScanTable& t, const std::string& workload);
// A shipped scan table's name in the panel's chooser: its device and date ("H100 80GB HBM3,
// 2026-12-06"), or its file's name when its first line names neither.
std::string scan_table_label(const app::ScanTable& t);
void draw_export(AppState& s);

struct PanelEntry {
    const char* title;            // also the ImGui window name (and its imgui.ini key)
    bool PanelsOpen::*open;
    void (*draw)(AppState&);
    float x, y, w, h;             // first-use placement, as fractions of the area below the menu bar
    float lx = -1, ly = 0, lw = 0, lh = 0;  // placement when a lesson opens (lx < 0: closed then)
};

std::span<const PanelEntry> panel_registry();

// Menu bar (examples, panel toggles, progress and Cancel) and every open panel.
void draw_ui(AppState& s);

// The color scale of the shown layer under the current colormap settings (the PNG export's).
render::ColorScale view_color_scale(const AppState& s);

}  // namespace dpviz::gui
