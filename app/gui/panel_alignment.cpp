// Alignment panel: the summary (score, identity, similarity, gaps) and the pairwise text as one
// scrolling strip, linked to the matrix: hovering a column highlights its path cell, clicking a
// path cell in the matrix scrolls here. The EMBOSS-style text is below. Viterbi: the decoding
// instead, the observations over the state the most likely path is in at each, as one strip.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/compute.hpp"
#include "gui/panels.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

// One figure of the summary line: on this line (after a gap) when it fits, else on the next.
void figure(const char* fmt, ...) IM_FMTARGS(1);
void figure(const char* fmt, ...) {
    char text[256];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    const float gap = ImGui::GetFontSize() * 1.2f;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize(text).x <= right) ImGui::SameLine(0.0f, gap);
    ImGui::TextUnformatted(text);
}

void draw_summary(const Computed& c) {
    const Alignment& a = c.result.alignment;
    const Problem& p = c.problem;
    ImGui::Text("score %s", value_text(p, c.result.score).c_str());  // user units: 10.5, not 21 at scale 2
    figure("length %d", a.length);
    if (p.algo != Algorithm::dtw) {
        figure("identity %d/%d (%.1f%%)", a.identical, a.length, 100.0 * a.identity());
        if (uses_substitution_matrix(p.algo)) figure("similarity %d/%d (%.1f%%)", a.similar, a.length, 100.0 * a.similarity());
        figure("gaps %d/%d (%.1f%%)", a.gaps, a.length, a.length ? 100.0 * a.gaps / a.length : 0.0);
    } else if (std::isnan(c.result.dtw_reference)) {
        figure("distance %.6g (double precision: not computed above 2^30 cells)", c.result.dtw_distance);
    } else {
        figure("distance %.6g (double precision %.6g, quantization %.2g)", c.result.dtw_distance, c.result.dtw_reference,
               c.result.dtw_distance - c.result.dtw_reference);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("query %s %d..%d   target %s %d..%d   CIGAR %.60s%s", p.query_name.c_str(), a.query_begin + 1,
                 a.query_end, p.target_name.c_str(), a.target_begin + 1, a.target_end, a.cigar.c_str(),
                 a.cigar.size() > 60 ? "..." : "");
    ImGui::PopStyleColor();
}

void draw_viterbi_summary(const Computed& c) {
    const DpResult& r = c.result;
    const Problem& p = c.problem;
    ImGui::Text("ln P(path, observations) = %.6f", r.log_probability);
    if (std::isnan(r.log_probability_reference))  // not computed for the largest trellises
        figure("double precision: not computed (S^2 T above 2^30)");
    else
        figure("double precision %.6f (quantization %.2g)", r.log_probability_reference,
               r.log_probability - r.log_probability_reference);
    figure("score %d (x 2^%d)", r.score, p.hmm_fixed->scale_log2);
    int switches = 0;
    for (size_t k = 2; k < r.path.size(); ++k) switches += r.path[k].i != r.path[k - 1].i;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("model %s, observations %s (%d), final state %s, %d state change%s", p.query_name.c_str(),
                 p.target_name.c_str(), p.cols(), state_name(p, r.end.i).c_str(), switches, switches == 1 ? "" : "s");
    ImGui::PopStyleColor();
}

// One character per state for the decoded row (dpviz::state_letters), '?' for each when there
// are too many states with shared initials.
std::string decoded_letters(const Hmm& m) {
    const std::string letters = state_letters(m);
    return letters.empty() ? std::string(m.states.size(), '?') : letters;
}

}  // namespace

void draw_alignment(AppState& s) {
    if (!s.result) {
        ImGui::TextDisabled("No alignment yet.");
        return;
    }
    const Computed& c = *s.result;
    const bool viterbi = c.problem.algo == Algorithm::viterbi;
    // Viterbi: a strip of one column per observation, rows observation / decoded state (as the
    // alignment's query / target rows; no markup).
    Alignment decoded;
    if (viterbi) {
        const std::string letters = decoded_letters(*c.problem.hmm);
        decoded.length = int(c.result.path.size()) - 1;
        decoded.query_row = c.problem.target.substr(0, size_t(std::max(decoded.length, 0)));
        decoded.markup.assign(size_t(std::max(decoded.length, 0)), ' ');
        for (size_t k = 1; k < c.result.path.size(); ++k) decoded.target_row += letters[size_t(c.result.path[k].i - 1)];
    }
    const Alignment& a = viterbi ? decoded : c.result.alignment;
    if (viterbi) draw_viterbi_summary(c);
    else draw_summary(c);

    // The strip: a ruler, the query row, the markup and the target row, one column per path step,
    // in the monospaced font.
    ImGui::PushFont(mono_font());
    const float cw = ImGui::CalcTextSize("M").x;
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float strip_h = lh * 4 + ImGui::GetStyle().ScrollbarSize + 8;
    ImGui::BeginChild("strip", ImVec2(0, strip_h), true, ImGuiWindowFlags_HorizontalScrollbar);
    const float margin = 6.0f;
    ImGui::Dummy(ImVec2(margin * 2 + cw * float(std::max(a.length, 1)), lh * 4));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin(ImGui::GetItemRectMin().x + margin, ImGui::GetItemRectMin().y);
    const float scroll = ImGui::GetScrollX(), width = ImGui::GetWindowWidth();
    const int first = std::max(0, int((scroll - margin) / cw) - 1);
    const int last = std::min(a.length, int((scroll + width) / cw) + 2);

    // Hover: which column is under the mouse, and its path cell in the matrix.
    s.alignment.hover_column.reset();
    if (ImGui::IsWindowHovered()) {
        const int k = int((ImGui::GetIO().MousePos.x - origin.x) / cw);
        if (k >= 0 && k < a.length) s.alignment.hover_column = k;
    }
    // Column k is the move into path cell k + 1. Marked: the hovered column, else the column of
    // the path cell under the mouse in the matrix, else the one last clicked there.
    auto column_of = [&](const std::optional<Cell>& cell) -> std::optional<int> {
        if (!cell) return std::nullopt;
        const auto k = path_index(c.result.path, *cell);
        return k ? std::optional<int>(std::max(*k - 1, 0)) : std::nullopt;
    };
    std::optional<int> mark = s.alignment.hover_column;
    if (!mark) mark = column_of(s.view.hover);
    if (!mark) mark = column_of(s.view.selected);
    if (mark) {
        const float x = origin.x + cw * float(*mark);
        dl->AddRectFilled(ImVec2(x - 1, origin.y), ImVec2(x + cw + 1, origin.y + lh * 4), IM_COL32(255, 230, 0, 90));
    }
    s.view.highlight.reset();
    if (s.alignment.hover_column && size_t(*s.alignment.hover_column + 1) < c.result.path.size())
        s.view.highlight = c.result.path[size_t(*s.alignment.hover_column + 1)];

    const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 same = IM_COL32(120, 220, 120, 255), similar = IM_COL32(230, 200, 90, 255);
    char ch[2] = {0, 0};
    for (int k = first; k < last; ++k) {
        const float x = origin.x + cw * float(k);
        if ((k + 1) % 10 == 0) {
            char num[16];
            std::snprintf(num, sizeof num, "%d", k + 1);
            dl->AddText(ImVec2(x + cw - ImGui::CalcTextSize(num).x, origin.y), dim, num);
        }
        const char m = a.markup[size_t(k)];
        const ImU32 col = m == '|' ? same : m == ':' ? similar : ink;
        ch[0] = a.query_row[size_t(k)];
        dl->AddText(ImVec2(x, origin.y + lh), ch[0] == '-' ? dim : col, ch);
        ch[0] = m;
        dl->AddText(ImVec2(x, origin.y + lh * 2), dim, ch);
        ch[0] = a.target_row[size_t(k)];
        dl->AddText(ImVec2(x, origin.y + lh * 3), ch[0] == '-' ? dim : col, ch);
    }
    if (s.alignment.scroll_to_column) {
        ImGui::SetScrollX(std::max(0.0f, margin + cw * float(*s.alignment.scroll_to_column) - width * 0.5f));
        s.alignment.scroll_to_column.reset();
    }
    ImGui::EndChild();
    ImGui::PopFont();

    if (viterbi) {
        const std::string letters = decoded_letters(*c.problem.hmm);
        std::string legend = "rows: observation, state (";
        for (size_t k = 0; k < c.problem.hmm->states.size() && k < 12; ++k)
        {
            if (k) legend += ' ';
            legend += letters[k];
            legend += '=';
            legend += c.problem.hmm->states[k];
        }
        ImGui::TextDisabled("%s%s)", legend.c_str(), c.problem.hmm->states.size() > 12 ? " ..." : "");
    }
    if (ImGui::CollapsingHeader(viterbi ? "Decoding text (as exported)" : "Pairwise text (as exported)")) {
        ImGui::BeginChild("pair_text", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
        ImGui::PushFont(mono_font());
        ImGui::TextUnformatted(c.pair_text.c_str(), c.pair_text.c_str() + c.pair_text.size());
        ImGui::PopFont();
        ImGui::EndChild();
    }
}

}  // namespace dpviz::gui
