// The machine-code panel (see teach_machine_code.hpp); the reports' parsers are app/sass_report.cpp.
#include "gui/teach_machine_code.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "gpu_model.hpp"
#include "gui/compute.hpp"
#include "gui/ui_scale.hpp"
#include "sass_report.hpp"

namespace dpviz::gui {

using app::fill_kernel_name;
using app::is_dpx_opcode;
using app::LaunchShape;
using app::OpCounts;
using app::SassLoop;
using app::SassMix;
using app::SassReport;
using app::SassResources;

namespace {

const ImVec4 kDpxColor(1.0f, 0.62f, 0.15f, 1.0f);
const ImVec4 kDim(0.6f, 0.6f, 0.6f, 1.0f);

void disabled_wrapped(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

// ImGui 1.86 has no SeparatorText.
void section(const char* title) {
    ImGui::Separator();
    ImGui::TextColored(ImVec4(0.75f, 0.85f, 1.0f, 1.0f), "%s", title);
}

int count_of(const OpCounts& ops, const std::string& op) {
    for (const auto& [o, n] : ops)
        if (o == op) return n;
    return 0;
}

// Opcode rows of two kernels side by side: DPX opcodes first and highlighted.
void mix_table(const char* id, const OpCounts* a, const OpCounts* b, double scale_a, double scale_b) {
    std::vector<std::string> ops;
    for (const OpCounts* k : {a, b})
        if (k)
            for (const auto& [o, n] : *k)
                if (n > 0 && std::find(ops.begin(), ops.end(), o) == ops.end()) ops.push_back(o);
    std::stable_partition(ops.begin(), ops.end(), [](const std::string& o) { return is_dpx_opcode(o); });
    if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame))
        return;
    ImGui::TableSetupColumn("opcode");
    ImGui::TableSetupColumn("DPX kernel");
    ImGui::TableSetupColumn("DPX-free kernel");
    ImGui::TableHeadersRow();
    for (const std::string& o : ops) {
        const bool dpx = is_dpx_opcode(o);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (dpx) ImGui::TextColored(kDpxColor, "%s  (DPX)", o.c_str());
        else ImGui::TextUnformatted(o.c_str());
        for (auto [k, scale] : {std::pair{a, scale_a}, std::pair{b, scale_b}}) {
            ImGui::TableNextColumn();
            if (!k) {
                ImGui::TextDisabled("n/a");
                continue;
            }
            const int n = count_of(*k, o);
            if (scale == 1.0) ImGui::TextColored(n ? (dpx ? kDpxColor : ImVec4(1, 1, 1, 1)) : kDim, "%d", n);
            else ImGui::TextColored(n ? (dpx ? kDpxColor : ImVec4(1, 1, 1, 1)) : kDim, "%.2f", n * scale);
        }
    }
    ImGui::EndTable();
}

void resources_line(const SassReport& r, const std::string& kernel, const LaunchShape& shape, const char* label) {
    const SassResources* res = r.resources_of(kernel);
    if (!res) {
        text_wrapped("%s: registers/thread n/a, occupancy n/a", label);
        return;
    }
    const auto occ = app::sm90_occupancy(res->registers, shape.warps_per_block, shape.smem_per_block + res->shared_static);
    if (!occ) {
        text_wrapped("%s: %d registers/thread, occupancy n/a", label, res->registers);
        return;
    }
    text_wrapped("%s: %d registers/thread; %d warps/SM resident = %.0f %% occupancy (limit: %s)", label,
                 res->registers, occ->warps_per_sm, occ->fraction * 100.0, occ->limiter.c_str());
}

// Viterbi: not a band kernel, so neither bands, tiles nor the band launch shape apply. What runs,
// and the instruction mix where a report has the kernel.
void draw_viterbi_machine(const SassReport& r, const Computed& c) {
    const Problem& p = c.problem;
    const Backend backend = c.result.backend;
    const int S = p.rows(), T = p.cols();
    const std::string dpx_k = fill_kernel_name(p, true, OutputLevel::matrix);
    const std::string free_k = fill_kernel_name(p, false, OutputLevel::matrix);
    if (backend == Backend::cuda) text_wrapped("ran: the Viterbi trellis kernel, DPX build (%s)", dpx_k.c_str());
    else if (backend == Backend::cuda_portable) text_wrapped("ran: the Viterbi trellis kernel, DPX-free build (%s)", free_k.c_str());
    else
        text_wrapped("This job ran on the CPU (backend %s): the same recurrence, cell_ops.hpp over HostOps. On an "
                     "H200 the GUI's job would run the Viterbi trellis kernel (%s, or %s without DPX):",
                     std::string(backend_name(backend)).c_str(), dpx_k.c_str(), free_k.c_str());
    section("how the trellis kernel runs");
    text_wrapped("One block of one thread per state (%d thread%s here), the trellis one column per step: at step t "
                 "thread s takes the running max over the %d predecessors, best = __viaddmax_s32(delta(k, t-1), "
                 "ln a(k, s), best), adds ln e(s, x_t), writes delta(s, t) and its backpointer, and the block "
                 "synchronizes before column t + 1. %d steps of %d dependent add-max each per thread.",
                 S, S == 1 ? "" : "s", S, T, S);
    text_wrapped("No wavefront and no bands: the states of one column are independent (they run at once), and "
                 "every state of column t needs all of column t - 1. One block runs on one SM, so the rest of the "
                 "GPU idles; the time is the chain of column steps, and each step is the chain of S add-max "
                 "operations, one VIADDMNMX each with DPX, IADD3 + FMNMX without.");
    section("instructions per cell");
    const SassLoop* a = r.loop(dpx_k);
    const SassLoop* b = r.loop(free_k);
    if (a || b) {
        const double per = 1.0 / std::max(1, r.cells_per_iteration);
        mix_table("viterbi_loop", a ? &a->ops : nullptr, b ? &b->ops : nullptr, per, per);
    } else {
        text_wrapped("n/a: the SASS reports list the band kernels (align, edit, lcs, dtw); none has a line for "
                     "the Viterbi kernel.");
    }
    disabled_wrapped("source: " + r.loops_source);
}

}  // namespace

const app::SassReport& sass_report(AppState& s) {
    if (!s.teach.sass) s.teach.sass = std::make_shared<const SassReport>(app::load_default_sass_report(s.assets_dir));
    return *s.teach.sass;
}

void draw_teach_machine_code(AppState& s) {
    const SassReport& r = sass_report(s);
    if (!s.result) {
        text_wrapped("No matrix yet: the panel shows the kernels of the algorithm that ran.");
        return;
    }
    const Computed& c = *s.result;
    const Problem& p = c.problem;
    if (p.algo == Algorithm::viterbi) {
        draw_viterbi_machine(r, c);
        return;
    }
    const Backend backend = c.result.backend;
    // The GUI's job runs at level matrix (H, E, F and the direction bits are copied back).
    const std::string dpx_k = fill_kernel_name(p, true, OutputLevel::matrix);
    const std::string free_k = fill_kernel_name(p, false, OutputLevel::matrix);
    if (backend == Backend::cuda) text_wrapped("ran: %s (DPX), beside it the DPX-free build of the same source", dpx_k.c_str());
    else if (backend == Backend::cuda_portable)
        text_wrapped("ran: %s, beside it the DPX build of the same source", free_k.c_str());
    else
        text_wrapped("This job ran on the CPU (backend %s). On an H200 the GUI's job would run the fill kernel "
                     "'%s' (DPX) or '%s':", std::string(backend_name(backend)).c_str(), dpx_k.c_str(), free_k.c_str());

    const SassLoop* a = r.loop(dpx_k);
    const SassLoop* b = r.loop(free_k);
    section("steady-state loop, instructions per cell");
    if (a || b) {
        char pa[32] = "n/a", pb[32] = "n/a";
        if (a) std::snprintf(pa, sizeof pa, "%.2f", a->per_cell);
        if (b) std::snprintf(pb, sizeof pb, "%.2f", b->per_cell);
        text_wrapped("instructions per cell: DPX %s, DPX-free %s (%d cells per loop iteration)", pa, pb,
                     r.cells_per_iteration);
        const double per = 1.0 / std::max(1, r.cells_per_iteration);
        mix_table("loop", a ? &a->ops : nullptr, b ? &b->ops : nullptr, per, per);
    } else {
        ImGui::TextDisabled("n/a");
    }
    disabled_wrapped("source: " + r.loops_source);

    const SassMix* wa = r.whole(dpx_k);
    const SassMix* wb = r.whole(free_k);
    if (ImGui::TreeNode("whole kernel (every instruction once, not per cell)")) {
        if (wa || wb) {
            ImGui::Text("total: DPX %s, DPX-free %s", wa ? std::to_string(wa->total).c_str() : "n/a",
                        wb ? std::to_string(wb->total).c_str() : "n/a");
            mix_table("whole", wa ? &wa->ops : nullptr, wb ? &wb->ops : nullptr, 1.0, 1.0);
        } else {
            ImGui::TextDisabled("n/a");
        }
        disabled_wrapped("source: " + r.mix_source);
        ImGui::TreePop();
    }

    section("registers and occupancy (sm_90)");
    const LaunchShape shape = app::band_launch_shape(p);
    text_wrapped("launch: %d warps/block, %d bytes shared memory/block; this matrix has %d band%s of 128 rows = %d "
                 "warp%s working at once",
                 shape.warps_per_block, shape.smem_per_block, shape.bands, shape.bands == 1 ? "" : "s", shape.bands,
                 shape.bands == 1 ? "" : "s");
    resources_line(r, dpx_k, shape, "DPX");
    resources_line(r, free_k, shape, "DPX-free");
    disabled_wrapped("source: " + r.resources_source);

    section("why fused add-max shortens the chain");
    text_wrapped(
        "Each cell needs its up and left neighbours (and the diagonal) before it can start, so the cells of one "
        "lane form a chain of dependent instructions: the next cell waits for this one's result. A warp runs 32 "
        "lanes on 32 anti-diagonal positions at once, but within a lane nothing overlaps, and with few warps per "
        "SM (one per band of 128 rows) there is little other work to hide the latency. max(a + b, c) as IADD3 "
        "then a max is two dependent instructions; VIADDMNMX does it in one, and VIMNMX3 takes a three-way max "
        "in one instead of two. Fewer instructions on the chain per cell = fewer cycles per wavefront step. "
        "The DPX-free kernel computes the same expression tree with one add and two-input maxima (FMNMX).");
}

}  // namespace dpviz::gui
