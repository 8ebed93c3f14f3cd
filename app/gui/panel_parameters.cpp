// Parameters panel: algorithm, scoring (matrix or match/mismatch), gaps, DTW band and cost, and
// the backend; for Viterbi (scored by its model) what the model and the fixed point are. Sliders
// recompute while dragging when the last job says it fits in a frame, otherwise on release.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli_common.hpp"
#include "dpviz/hmm.hpp"
#include "gui/compute.hpp"
#include "gui/panels.hpp"
#include "gui/ui_scale.hpp"
#include "matrix_file.hpp"

namespace dpviz::gui {
namespace {

// A slider that recomputes live (small problems) or on release.
void param_slider(AppState& s, const char* label, int* v, int lo, int hi, const char* help = nullptr) {
    if (ImGui::SliderInt(label, v, lo, hi, "%d", ImGuiSliderFlags_AlwaysClamp)) request_compute(s, false);
    if (ImGui::IsItemDeactivatedAfterEdit()) request_compute(s, true);
    if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
}

// The same for a score or gap cost with two decimals, as `dpviz align` takes them (Ctrl+click
// types one); the value snaps to hundredths. A double, not a float: every hundredth up to the
// engine's 10^6 rounds back to itself.
void score_slider(AppState& s, const char* label, Hundredths* v, double lo, double hi, const char* help) {
    double x = double(v->value) / 100.0;
    if (ImGui::SliderScalar(label, ImGuiDataType_Double, &x, &lo, &hi, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
        const Hundredths snapped{std::llround(x * 100.0)};
        if (snapped != *v) {
            *v = snapped;
            request_compute(s, false);
        }
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) request_compute(s, true);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (two decimals; Ctrl+click to type one)", help);
}


void backend_combo(AppState& s) {
    const SystemInfo& sys = s.system;
    auto label = [&](BackendChoice b) -> std::string {
        std::string l = backend_choice_label(b);
        if (b == BackendChoice::dpx && !sys.dpx_available) l += " (not available)";
        if (b == BackendChoice::dpx_free && !sys.dpx_free_available) l += " (not available)";
        return l;
    };
    if (!ImGui::BeginCombo("backend", label(s.params.backend).c_str())) return;
    for (const BackendChoice b : {BackendChoice::automatic, BackendChoice::dpx, BackendChoice::dpx_free, BackendChoice::cpu}) {
        const bool gpu = b == BackendChoice::dpx || b == BackendChoice::dpx_free;
        const bool ok = !gpu || (b == BackendChoice::dpx ? sys.dpx_available : sys.dpx_free_available);
        if (!ok) ImGui::BeginDisabled();
        if (ImGui::Selectable(label(b).c_str(), s.params.backend == b)) {
            s.params.backend = b;
            request_compute(s, true);
        }
        if (!ok) {
            ImGui::EndDisabled();
            const std::string& why = b == BackendChoice::dpx ? sys.dpx_note : sys.dpx_free_note;
            ImGui::SameLine();
            ImGui::TextDisabled("%s", why.c_str());
        }
    }
    ImGui::EndCombo();
}

// Viterbi has no scoring controls: the model's probabilities are the scores. What it computes
// with instead, from the shown result when it is a Viterbi one.
void viterbi_model_lines(const AppState& s) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    const Problem* p = s.result && s.result->problem.algo == Algorithm::viterbi ? &s.result->problem : nullptr;
    if (!p) {
        text_wrapped("Scored by the model: the Inputs panel takes an HMM file and the observations "
                     "(File menu: the casino and CpG-island examples).");
        ImGui::PopStyleColor();
        return;
    }
    const Hmm& m = *p->hmm;
    std::string states;
    for (size_t k = 0; k < m.states.size() && k < 8; ++k) states += (k ? " " : "") + m.states[k];
    if (m.states.size() > 8) states += " ...";
    text_wrapped("model %s: %d states (%s), alphabet %s", p->query_name.c_str(), m.num_states(), states.c_str(),
                 m.alphabet.c_str());
    text_wrapped("scores: ln p in fixed point, q = round(ln p x 2^%d) (int32; the largest scale at which no path "
                 "of %d observations can leave it); the fixed-point optimum is within %.3g nats of the "
                 "double-precision one",
                 p->hmm_fixed->scale_log2, p->cols(), viterbi_quantization_bound(*p->hmm_fixed, size_t(p->cols())));
    ImGui::PopStyleColor();
}

}  // namespace

void draw_parameters(AppState& s) {
    Parameters& p = s.params;
    // Fields fill the panel, less the widest label ("matrix file", "local cost").
    ImGui::PushItemWidth(-(ImGui::CalcTextSize("matrix file").x + ImGui::GetStyle().ItemInnerSpacing.x * 2));
    if (ImGui::BeginCombo("algorithm", std::string(info_of(p.algo).label).c_str())) {
        for (const AlgorithmInfo& a : dpviz::kAlgorithms)
            if (ImGui::Selectable(std::string(a.label).c_str(), a.id == p.algo) && a.id != p.algo) {
                p.algo = a.id;
                request_compute(s, true);
            }
        ImGui::EndCombo();
    }

    if (uses_substitution_matrix(p.algo)) {
        int mode = int(p.scoring);
        bool changed = ImGui::RadioButton("substitution matrix", &mode, int(ScoringMode::matrix));
        same_line_if_fits(check_width("match/mismatch"));
        changed |= ImGui::RadioButton("match/mismatch", &mode, int(ScoringMode::match_mismatch));
        p.scoring = ScoringMode(mode);
        if (changed) request_compute(s, true);
        if (p.scoring == ScoringMode::matrix) {
            std::string shown = p.matrix.empty() ? "auto" : p.matrix;
            if (p.matrix.empty() && s.result && uses_substitution_matrix(s.result->problem.algo))
                shown += " (" + s.result->problem.matrix.name + ")";
            if (ImGui::BeginCombo("matrix", shown.c_str())) {
                if (ImGui::Selectable("auto (BLOSUM62 protein, NUC.4.4 DNA)", p.matrix.empty())) {
                    p.matrix.clear();
                    request_compute(s, true);
                }
                for (const std::string& name : app::builtin_matrix_names())
                    if (ImGui::Selectable(name.c_str(), p.matrix == name)) {
                        p.matrix = name;
                        request_compute(s, true);
                    }
                ImGui::EndCombo();
            }
            std::string& file = s.matrix_file_draft;  // committed on Enter or when focus leaves
            ImGui::InputTextWithHint("matrix file", "NCBI-format file", &file);
            if (ImGui::IsItemDeactivatedAfterEdit() && !file.empty()) {
                p.matrix = file;
                request_compute(s, true);
            }
        } else {
            score_slider(s, "match", &p.match, 1, 20, "score of two identical residues");
            score_slider(s, "mismatch", &p.mismatch, -20, 0, "score of two different residues (0 or less)");
        }
    }
    if (uses_gap_penalties(p.algo)) {
        score_slider(s, "gap open", &p.gap_open, 1, 40, "cost of a gap's first residue");
        // From 0: the default extend is EMBOSS's 0.5.
        score_slider(s, "gap extend", &p.gap_extend, 0, 40,
                     "cost of each further residue; a gap of length k costs open + (k-1)*extend");
        bool linear = p.gap_open == p.gap_extend;
        if (ImGui::Checkbox("linear gaps (extend = open)", &linear)) {
            // Back to affine at the defaults' ratio (10 / 0.5), at least a hundredth.
            const int64_t affine =
                std::max<int64_t>(1, p.gap_open.value * app::kDefaultGapExtend / app::kDefaultGapOpen);
            p.gap_extend = linear ? p.gap_open : Hundredths{std::min(affine, p.gap_open.value)};
            request_compute(s, true);
        }
    }
    if (p.algo == Algorithm::dtw) {
        int cost = int(p.dtw_cost);
        const char* costs[] = {"|a - b|", "(a - b)^2"};
        if (ImGui::Combo("local cost", &cost, costs, 2)) {
            p.dtw_cost = DtwCost(cost);
            request_compute(s, true);
        }
        if (ImGui::Checkbox("Sakoe-Chiba band", &p.band_on)) request_compute(s, true);
        if (p.band_on) {
            const int longest = s.result ? std::max(s.result->problem.rows(), s.result->problem.cols()) : 1000;
            param_slider(s, "band", &p.band, 0, std::max(longest, 1), "half-width in target columns around the diagonal");
        }
    }
    if (p.algo == Algorithm::viterbi) viterbi_model_lines(s);
    backend_combo(s);
    ImGui::PopItemWidth();

    ImGui::Separator();
    if (s.result) {
        const double est_ms = double(s.result->result.cells) * s.job.ns_per_cell * 1e-6;
        ImGui::TextDisabled(live_recompute_ok(s) ? "sliders recompute live (%.1f ms a job)"
                                                 : "sliders recompute on release (%.0f ms a job)",
                            est_ms);
    }
    if (ImGui::Button("Compute now")) s.requests.compute = true;
}

}  // namespace dpviz::gui
