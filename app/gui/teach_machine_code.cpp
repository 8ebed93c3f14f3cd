// The machine-code panel and its report parsers (see teach_machine_code.hpp).
//
// Index of this file
// [SECTION] Parsers
// [SECTION] Loading
// [SECTION] Kernel names, launch shape, occupancy
// [SECTION] Panel
#include "gui/teach_machine_code.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "assets_dir.hpp"
#include "dpviz/band_shape.hpp"
#include "gui/compute.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {

// ---------------------------------------------------------------------------------------------
// [SECTION] Parsers
// ---------------------------------------------------------------------------------------------
namespace {

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> words(const std::string& l) {
    std::istringstream in(l);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool is_dpx_opcode(std::string_view op) {
    const std::string_view base = op.substr(0, op.find('.'));
    if (base == "VIADDMNMX" || base == "VIMNMX3" || base == "VIBMNMX") return true;
    return base == "VIMNMX" && op.find("16x2") != std::string_view::npos;
}

std::vector<SassLoop> parse_sass_loops(std::string_view text, int* cells_per_iteration) {
    // "align-local dpx matrix   429 instr  26.81 /cell  DPX  24   VIMNMX3=24 IADD3=22 ..."
    static const std::regex row(R"(^(\S.*?)\s+(\d+) instr\s+([0-9.]+) /cell\s+DPX\s+(\d+)\s*(.*)$)");
    static const std::regex head(R"(\((\d+) cells per iteration\))");
    std::vector<SassLoop> out;
    for (const std::string& l : lines_of(text)) {
        std::smatch m;
        if (cells_per_iteration && std::regex_search(l, m, head)) *cells_per_iteration = std::stoi(m[1]);
        if (!std::regex_match(l, m, row)) continue;
        SassLoop k;
        k.kernel = m[1];
        k.instructions = std::stoi(m[2]);
        k.per_cell = std::stod(m[3]);
        k.dpx = std::stoi(m[4]);
        for (const std::string& w : words(m[5])) {
            const auto eq = w.find('=');
            if (eq == std::string::npos || !all_digits(w.substr(eq + 1))) continue;
            k.ops.emplace_back(w.substr(0, eq), std::stoi(w.substr(eq + 1)));
        }
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<SassMix> parse_sass_mix(std::string_view text) {
    // Header "kernel total DPX OP1 OP2 ...", then "fill align-local dpx matrix 1777 48 0 48 ...":
    // the name has spaces, so the numbers are counted from the right.
    std::vector<std::string> columns;
    std::vector<SassMix> out;
    for (const std::string& l : lines_of(text)) {
        if (l.empty() || l[0] == '#') continue;
        const std::vector<std::string> w = words(l);
        if (w.size() > 3 && w[0] == "kernel" && w[1] == "total" && w[2] == "DPX") {
            columns.assign(w.begin() + 3, w.end());
            continue;
        }
        if (columns.empty() || w.size() < columns.size() + 3) continue;
        const size_t first = w.size() - columns.size() - 2;
        if (!std::all_of(w.begin() + long(first), w.end(), all_digits)) continue;
        SassMix k;
        for (size_t t = 0; t < first; ++t) k.kernel += (t ? " " : "") + w[t];
        k.total = std::stoi(w[first]);
        k.dpx = std::stoi(w[first + 1]);
        for (size_t c = 0; c < columns.size(); ++c) k.ops.emplace_back(columns[c], std::stoi(w[first + 2 + c]));
        out.push_back(std::move(k));
    }
    return out;
}

std::string short_kernel_name(std::string_view mangled) {
    // As kernels/cuda/sass_hot_loop.py: Alg<Kind, local, affine, squared[, banded]>, the ops
    // policy, Out.
    static const std::regex alg(R"(KindE(\d)ELb([01])ELb([01])ELb([01])(?:ELb([01]))?)");
    static const std::regex out_level(R"(OutE(\d))");
    const std::string f(mangled);
    std::smatch m;
    if (f.find("band_fill") == std::string::npos || !std::regex_search(f, m, alg)) return {};
    static const char* const kinds[] = {"align", "edit", "lcs", "dtw"};
    const int kind = std::stoi(m[1]);
    if (kind < 0 || kind > 3) return {};
    std::string s = kinds[kind];
    if (m[2] == "1") s += "-local";
    if (m[3] == "1") s += "-affine";
    if (m[4] == "1") s += "-squared";
    if (m[5] == "0") s += "-noband";
    s += f.find("DpxOps") != std::string::npos ? " dpx" : " dpx-free";
    static const char* const levels[] = {"score", "path", "matrix", "locate"};
    if (std::regex_search(f, m, out_level)) {
        const int lv = std::stoi(m[1]);
        if (lv >= 0 && lv <= 3) s += std::string(" ") + levels[lv];
    }
    return s;
}

std::vector<SassResources> parse_res_usage(std::string_view text) {
    // cuobjdump -res-usage: " Function NAME:" then " REG:40 STACK:0 SHARED:0 LOCAL:0 ..."
    static const std::regex fn(R"(Function\s+(\S+?):?\s*$)");
    static const std::regex reg(R"(REG:(\d+))");
    static const std::regex shared(R"(SHARED:(\d+))");
    std::vector<SassResources> out;
    std::string current;
    for (const std::string& l : lines_of(text)) {
        std::smatch m;
        if (std::regex_search(l, m, fn)) {
            current = short_kernel_name(m[1].str());
            continue;
        }
        if (current.empty() || !std::regex_search(l, m, reg)) continue;
        SassResources r;
        r.kernel = current;
        r.registers = std::stoi(m[1]);
        if (std::regex_search(l, m, shared)) r.shared_static = std::stoi(m[1]);
        out.push_back(std::move(r));
        current.clear();
    }
    return out;
}

const SassLoop* SassReport::loop(std::string_view kernel) const {
    for (const SassLoop& k : loops)
        if (k.kernel == kernel) return &k;
    return nullptr;
}
const SassMix* SassReport::whole(std::string_view kernel) const {
    for (const SassMix& k : mix)
        if (k.kernel == "fill " + std::string(kernel)) return &k;
    return nullptr;
}
const SassResources* SassReport::resources_of(std::string_view kernel) const {
    for (const SassResources& k : resources)
        if (k.kernel == kernel) return &k;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Loading
// ---------------------------------------------------------------------------------------------
namespace {

std::optional<std::string> read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The first "# ..." line of a shipped report says where and when it was made.
std::string provenance(const std::string& text) {
    if (text.rfind("# ", 0) != 0) return {};
    return text.substr(2, text.find('\n') - 2);
}

template <class Parse>
void load_part(const std::string& build_dir, const char* build_name, const std::string& docs_dir, const char* docs_name,
               std::string& source, Parse parse) {
    namespace fs = std::filesystem;
    if (!build_dir.empty()) {
        const fs::path p = fs::path(build_dir) / build_name;
        if (auto t = read_text(p); t && parse(*t)) {
            source = "this build: " + p.string();
            return;
        }
    }
    if (!docs_dir.empty()) {
        const fs::path p = fs::path(docs_dir) / docs_name;
        if (auto t = read_text(p); t && parse(*t)) {
            const std::string from = provenance(*t);
            source = "shipped report " + p.filename().string() + (from.empty() ? "" : " (" + from.substr(0, from.find(':')) + ")") +
                     "; this build made none (no cuobjdump)";
            return;
        }
    }
    source = "n/a (no report: build with CUDA where cuobjdump is installed)";
}

}  // namespace

SassReport load_sass_report(const std::string& build_dir, const std::string& docs_sass_dir) {
    SassReport r;
    load_part(build_dir, "sass_hot.txt", docs_sass_dir, "sass_hot_sm90.txt", r.loops_source, [&](const std::string& t) {
        r.loops = parse_sass_loops(t, &r.cells_per_iteration);
        return !r.loops.empty();
    });
    load_part(build_dir, "sass_report.txt", docs_sass_dir, "sass_mix_sm90.txt", r.mix_source, [&](const std::string& t) {
        r.mix = parse_sass_mix(t);
        return !r.mix.empty();
    });
    load_part(build_dir, "sass_resources.txt", docs_sass_dir, "sass_res_sm90.txt", r.resources_source,
              [&](const std::string& t) {
                  r.resources = parse_res_usage(t);
                  return !r.resources.empty();
              });
    return r;
}

SassReport load_default_sass_report(const std::string& assets_dir) {
    std::string build_dir;
#ifdef DPVIZ_BUILD_DIR
    build_dir = DPVIZ_BUILD_DIR;
#endif
    // The shipped reports come from where the examples came from: installed or the source tree.
    return load_sass_report(build_dir, app::sass_reports_dir(assets_dir));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Kernel names, launch shape, occupancy
// ---------------------------------------------------------------------------------------------
std::string fill_kernel_name(const Problem& p, bool dpx, OutputLevel level) {
    std::string s;
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            s = "align";
            if (p.algo == Algorithm::local) s += "-local";
            if (p.affine()) s += "-affine";
            break;
        case Algorithm::edit: s = "edit"; break;
        case Algorithm::lcs: s = "lcs"; break;
        case Algorithm::dtw:
            s = p.dtw_cost == DtwCost::squared ? "dtw-squared" : "dtw";
            if (p.band < 0) s += "-noband";  // kernels/cuda/dtw.cu: no band test per cell
            break;
        case Algorithm::viterbi: s = "viterbi"; break;  // not a band kernel: no report line (yet)
    }
    s += dpx ? " dpx" : " dpx-free";
    s += level == OutputLevel::score ? " score" : level == OutputLevel::path ? " path" : " matrix";
    return s;
}

LaunchShape band_launch_shape(const Problem& p) {
    // The kernels' own rules (band_shape.hpp) with the H200's 227 KiB of opt-in shared memory
    // per block (the panel describes that machine; the fill reads it from the device).
    constexpr long kOptin = 232448;
    const long per_warp = gpu_band::profile_bytes_per_warp(std::max(1, p.matrix.size()), p.algo != Algorithm::dtw);
    LaunchShape s;
    s.warps_per_block = std::max(1, gpu_band::warps_per_block(per_warp, kOptin));
    s.smem_per_block = int(per_warp) * s.warps_per_block;
    s.bands = gpu_band::band_count(p.rows());
    return s;
}

std::optional<Occupancy> sm90_occupancy(int regs, int warps_per_block, int smem_per_block) {
    constexpr int kWarpsPerSm = 64, kBlocksPerSm = 32, kRegsPerSm = 65536, kRegUnit = 256;
    constexpr int kSmemPerSm = 233472, kSmemReservedPerBlock = 1024, kSmemUnit = 128;
    if (regs <= 0 || regs > 255 || warps_per_block <= 0 || smem_per_block < 0) return std::nullopt;
    const int regs_per_warp = (regs * 32 + kRegUnit - 1) / kRegUnit * kRegUnit;
    const int by_regs = (kRegsPerSm / regs_per_warp) / warps_per_block;
    const int smem = (smem_per_block + kSmemReservedPerBlock + kSmemUnit - 1) / kSmemUnit * kSmemUnit;
    const int by_smem = kSmemPerSm / smem;
    const int by_warps = kWarpsPerSm / warps_per_block;
    Occupancy o;
    o.blocks_per_sm = std::min({by_regs, by_smem, by_warps, kBlocksPerSm});
    o.limiter = o.blocks_per_sm == by_regs ? "registers" : o.blocks_per_sm == by_smem ? "shared memory"
                                         : o.blocks_per_sm == by_warps        ? "warps"
                                                                              : "blocks";
    o.warps_per_sm = o.blocks_per_sm * warps_per_block;
    o.fraction = double(o.warps_per_sm) / kWarpsPerSm;
    return o;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel
// ---------------------------------------------------------------------------------------------
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
    const auto occ = sm90_occupancy(res->registers, shape.warps_per_block, shape.smem_per_block + res->shared_static);
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

void draw_teach_machine_code(AppState& s) {
    if (!s.teach.sass) s.teach.sass = std::make_shared<const SassReport>(load_default_sass_report(s.assets_dir));
    const SassReport& r = *s.teach.sass;
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
    const LaunchShape shape = band_launch_shape(p);
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
