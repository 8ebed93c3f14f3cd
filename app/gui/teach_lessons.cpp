// The four lessons (see teach_lessons.hpp): their text, presets and views, the menu and the panel.
//
// Index of this file
// [SECTION] Presets
// [SECTION] Lesson 1: global, local, semi-global
// [SECTION] Lesson 2: affine gaps, H, E, F
// [SECTION] Lesson 3: the wavefront and DPX
// [SECTION] Lesson 4: an HMM trellis is a DP matrix too
// [SECTION] Navigation
// [SECTION] Menu and panel
#include "gui/teach_lessons.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "gui/compute.hpp"
#include "gui/frame.hpp"
#include "gui/teach_playback.hpp"
#include "gui/ui_scale.hpp"

namespace dpviz::gui {
namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Presets
// ---------------------------------------------------------------------------------------------
void pasted(AppState& s, const char* query, const char* target) {
    s.query = {};
    s.target = {};
    s.query.source = s.target.source = InputSource::paste;
    s.query.pasted = query;
    s.target.pasted = target;
}

void globins(AppState& s) {
    const std::string f = (std::filesystem::path(s.assets_dir) / "examples" / "globins.fa").string();
    s.query = {};
    s.target = {};
    s.query.path = s.target.path = f;
    s.query.record = "HBA_HUMAN";
    s.target.record = "HBB_HUMAN";
}

// The lessons' scores are whole numbers (their texts do the arithmetic).
void blosum(AppState& s, int open, int extend) {
    s.params.scoring = ScoringMode::matrix;
    s.params.matrix = "BLOSUM62";
    s.params.gap_open = Hundredths::units(open);
    s.params.gap_extend = Hundredths::units(extend);
}

void match_mismatch(AppState& s, int match, int mismatch, int open, int extend) {
    s.params.scoring = ScoringMode::match_mismatch;
    s.params.match = Hundredths::units(match);
    s.params.mismatch = Hundredths::units(mismatch);
    s.params.gap_open = Hundredths::units(open);
    s.params.gap_extend = Hundredths::units(extend);
}

// Every step starts from the same view: matrix with path, no mask, layer H, fitted.
void common(AppState& s, Algorithm a) {
    s.params.algo = a;
    s.params.band_on = false;
    s.params.backend = BackendChoice::automatic;
    s.view.layer = Layer::H;
    s.view.show_mask = false;
    s.view.show_path = true;
    s.view.show_details = true;
    s.view.fit_pending = true;
    s.panels.matrix = s.panels.inspector = s.panels.lesson = true;
    s.panels.inputs = false;  // the lesson sets the inputs; its text takes their place
    s.panels.machine_code = false;
    s.panels.wavefront = false;
    s.wavefront.view = TeachView::none;
}

// The globins, HBA_HUMAN against HBB_HUMAN, under BLOSUM62 with these gap costs.
void on_globins(AppState& s, Algorithm a, int open, int extend) {
    common(s, a);
    globins(s);
    blosum(s, open, extend);
}

void inspect_end(AppState& s) {
    if (s.result) s.view.inspected = s.result->result.end;
}

// A table-scale close-up centered on the matrix (numbers and arrows in the cells).
void close_up(AppState& s, Cell c) {
    s.view.inspected = c;
    // 34 px a cell at scale 1: the table's values and arrows, growing with the UI's text.
    if (s.result)
        s.view.center_pending = MatrixView::CenterOn{s.result->rows() / 2.0, s.result->cols() / 2.0, 34.0 * ui_scale(s.ui)};
}

// A step's view: the close-up with cell (I, J) inspected; in layer L, where one is given.
template <int I, int J>
void close_up_at(AppState& s) {
    close_up(s, {I, J});
}
template <int I, int J, Layer L>
void close_up_in(AppState& s) {
    close_up(s, {I, J});
    s.view.layer = L;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Lesson 1: global, local, semi-global
// ---------------------------------------------------------------------------------------------
// Short pair: GATTACA inside CCGATTACATT (match 2, mismatch -1, gap 2): semi-global and local
// score 14 (seven matches), global 6 (it pays for the four overhanging residues).
constexpr const char* kReadQ = "GATTACA";
constexpr const char* kReadT = "CCGATTACATT";

// The short pair under its scoring: match 2, mismatch -1, gap 2.
void on_read(AppState& s, Algorithm a) {
    common(s, a);
    pasted(s, kReadQ, kReadT);
    match_mismatch(s, 2, -1, 2, 2);
}

constexpr std::array<LessonStep, 5> kModes{{
    {
        "Global: end to end",
        "Needleman-Wunsch aligns both sequences from the first residue to the last. Row 0 and column 0 hold "
        "the cost of a leading gap (-8 per residue here), and the path runs from the bottom-right cell (M, N) "
        "back to (0, 0).\n\nThe Inspector shows the clicked cell (here the end cell): H = max(diag + s, up - g, "
        "left - g) with its numbers, the term that won and the direction bits the engine stored. Click other cells.",
        [](AppState& s) { on_globins(s, Algorithm::global, 8, 8); },
        inspect_end,
    },
    {
        "Local: the best-scoring piece",
        "Smith-Waterman adds a fourth candidate, 0: a score never drops below zero, so an alignment may start "
        "anywhere (the zero bit). The path starts at the best cell of the whole matrix and stops where H is 0.\n\n"
        "Most of the matrix is now near 0; the similar region stands out as a bright ridge.",
        [](AppState& s) { on_globins(s, Algorithm::local, 8, 8); },
        inspect_end,
    },
    {
        "Semi-global: free end gaps",
        "Row 0 and column 0 are 0, and the path may end anywhere on the last row or column: gaps before the "
        "start and after the end of either sequence cost nothing. Use it when one sequence should fit inside "
        "the other, or when two reads overlap.",
        [](AppState& s) { on_globins(s, Algorithm::semiglobal, 8, 8); },
        inspect_end,
    },
    {
        "Close-up: a short read in a longer sequence",
        "GATTACA against CCGATTACATT (match 2, mismatch -1, gap 2), semi-global. The read fits inside the "
        "target: seven matches, score 14; the overhanging CC and TT cost nothing.\n\nThe cells show their "
        "values and arrows (one per direction bit). Hover any cell to inspect it.",
        [](AppState& s) { on_read(s, Algorithm::semiglobal); },
        close_up_at<7, 9>,
    },
    {
        "Same pair, global",
        "Global must also align CC and TT, against gaps: 14 - 4 x 2 = 6. Row 0 now counts down 0, -2, -4, ...: "
        "click a cell of row 0 and the Inspector gives the border rule. Local would give 14 again, and its path "
        "would cover GATTACA only.",
        [](AppState& s) { on_read(s, Algorithm::global); },
        close_up_at<7, 11>,
    },
}};

// ---------------------------------------------------------------------------------------------
// [SECTION] Lesson 2: affine gaps, H, E, F
// ---------------------------------------------------------------------------------------------
// The target has 4 extra bases after CATGC: linear gaps (3) split them into two gaps of 2
// (4=2D1=2D11=, score 20); affine 5/1 makes one gap of 4 (5=4D11=, score 24).
constexpr const char* kGapQ = "CATGCATTGCAGCTAG";
constexpr const char* kGapT = "CATGCACGTATTGCAGCTAG";

// The gapped pair, global, match 2, mismatch -3, with these gap costs.
void on_gapped(AppState& s, int open, int extend) {
    common(s, Algorithm::global);
    pasted(s, kGapQ, kGapT);
    match_mismatch(s, 2, -3, open, extend);
}

constexpr std::array<LessonStep, 5> kAffine{{
    {
        "Linear gaps: every gap column costs the same",
        "Global, match 2, mismatch -3, gap 3 per column. The target has four extra bases after CATGC. With a "
        "linear gap every gap column costs 3 wherever it stands, so the best alignment may split the insertion: "
        "here two gaps of two (score 20). Follow the path in the table.",
        [](AppState& s) { on_gapped(s, 3, 3); },
        close_up_at<5, 8>,
    },
    {
        "Affine gaps: open once, extend cheaply",
        "Now a gap of length k costs open + (k-1) x extend = 5 + (k-1). One gap of four (8) is cheaper than "
        "two gaps of two (12): the path takes one long gap, score 24.\n\nThis needs two more matrices. "
        "E[i][j]: best score ending in a gap in the query (a move to the left), "
        "E = max(H[i][j-1] - open, E[i][j-1] - extend). F: the same from above. Then H = max(diag + s, E, F). "
        "The Inspector shows all three, and the E/F open and extend bits.",
        [](AppState& s) { on_gapped(s, 5, 1); },
        close_up_at<5, 9>,
    },
    {
        "Layer E: gaps in the query",
        "The heatmap now shows E. Along row 5 the gap is opened once (E open bit: from H) and then extended "
        "(E extend bit: from E). Each cell's arrow points to where its E came from.",
        [](AppState& s) { on_gapped(s, 5, 1); },
        close_up_in<5, 9, Layer::E>,
    },
    {
        "Layer F: gaps in the target",
        "F is the same recurrence for vertical moves (a query residue against a gap). This pair needs none on "
        "its best path, but F is computed for every cell: the kernels pay for three matrices either way.",
        [](AppState& s) { on_gapped(s, 5, 1); },
        close_up_in<9, 9, Layer::F>,
    },
    {
        "Real proteins: globins, gaps 10/1",
        "HBA_HUMAN against HBB_HUMAN, global, BLOSUM62, open 10, extend 1. The tint marks every cell on some "
        "optimal path (following the H, E and F states through the bits): where it widens, several alignments "
        "score the same.",
        [](AppState& s) { on_globins(s, Algorithm::global, 10, 1); },
        [](AppState& s) {
            s.view.show_mask = true;
            inspect_end(s);
        },
    },
}};

// ---------------------------------------------------------------------------------------------
// [SECTION] Lesson 3: the wavefront and DPX
// ---------------------------------------------------------------------------------------------
// The globins, local, 10/1, with the Wavefront panel (teach_playback.hpp) in the Inspector's
// place, playing from step 0.
void play_the_fill(AppState& s) {
    on_globins(s, Algorithm::local, 10, 1);
    s.panels.inspector = false;
    s.panels.wavefront = true;
    s.wavefront.view = TeachView::playback;
    s.wavefront.playback = {};
    s.wavefront.playback.playing = true;
}

// The globins, local, 10/10, with the Machine code panel open.
void with_machine_code(AppState& s) {
    on_globins(s, Algorithm::local, 10, 10);
    s.panels.machine_code = true;
}

constexpr std::array<LessonStep, 4> kWavefront{{
    {
        "Each cell waits for three others",
        "H[i][j] needs H[i-1][j-1], H[i-1][j] and H[i][j-1]. So a cell of anti-diagonal i + j = k depends only "
        "on diagonals k-1 and k-2: all cells of one anti-diagonal are independent and can be computed at the "
        "same time. That front, sweeping from the top-left corner to the bottom-right, is the wavefront.",
        [](AppState& s) { on_read(s, Algorithm::local); },
        close_up_at<4, 6>,
    },
    {
        "Watch the wavefront",
        "The Playback view replays the fill as the GPU schedules it: a warp owns a band of 128 rows (4 per "
        "lane), its 32 lanes work one step apart along an anti-diagonal, and a band starts once the band above "
        "has handed over its bottom row. Play, pause and scrub in the Wavefront panel. A job that ran "
        "on the CPU replays the CPU's schedule instead (bands of rows, one SIMD lane per row): the same "
        "wavefront idea at a smaller scale.",
        play_the_fill,
        nullptr,
    },
    {
        "One cell in machine code",
        "The Inspector's last table is what the kernel executes for the clicked cell. With DPX (sm_90) the "
        "three-way max with the floor 0 is one instruction, __vimax3_s32_relu (VIMNMX3.RELU); the DPX-free "
        "kernel computes the same expression tree with two-input maxima (FMNMX). Under 'score only' the "
        "fused add-max __viaddmax_s32 does max(a + b, c) in one instruction.",
        [](AppState& s) { on_globins(s, Algorithm::local, 10, 10); },
        inspect_end,
    },
    {
        "The instruction mix per cell",
        "The Machine code panel counts the instructions of each fill kernel's steady-state loop, per cell, DPX "
        "opcodes highlighted, beside the DPX-free kernel. Fewer instructions on each cell's dependency chain "
        "mean fewer cycles per wavefront step: with one warp per band there are few other warps to hide the "
        "latency, so the chain is what the time is made of. Registers per thread set how many warps fit on an "
        "SM.",
        with_machine_code,
        inspect_end,
    },
}};

// ---------------------------------------------------------------------------------------------
// [SECTION] Lesson 4: an HMM trellis is a DP matrix too
// ---------------------------------------------------------------------------------------------
// The bundled Viterbi examples (frame.cpp): the dishonest casino's 300 rolls and the CpG-island
// model on a real gene.
void on_example(AppState& s, Example e) {
    common(s, Algorithm::viterbi);
    load_example(s, e);
}

// Cell c of the path inspected and centred at `px` pixels a cell (at UI scale 1), the decoding
// strip scrolled to its observation.
void show_path_cell(AppState& s, Cell c, double px) {
    s.view.inspected = c;
    s.view.center_pending = MatrixView::CenterOn{double(c.i), double(c.j), px * ui_scale(s.ui)};
    s.alignment.scroll_to_column = std::max(c.j - 1, 0);
}

// The first observation at which the most likely path changes state (the end cell when it never
// does).
Cell first_switch_cell(const Computed& c) {
    const std::vector<Cell>& path = c.result.path;
    for (size_t k = 2; k < path.size(); ++k)
        if (path[k].i != path[k - 1].i) return path[k];
    return c.result.end;
}

// Where the longest stay of the path away from its first state begins (the end cell when it
// never leaves it): the casino's longest run of the loaded die, the CpG model's longest island.
Cell longest_excursion(const Computed& c) {
    const std::vector<Cell>& path = c.result.path;
    Cell best = c.result.end;
    size_t longest = 0;
    for (size_t k = 1; k < path.size();) {
        size_t e = k;
        while (e + 1 < path.size() && path[e + 1].i == path[k].i) ++e;
        if (path[k].i != path[1].i && e - k + 1 > longest) {
            longest = e - k + 1;
            best = path[k];
        }
        k = e + 1;
    }
    return best;
}

// The layer "behind best" over some forty observations around the longest excursion.
void behind_best(AppState& s) {
    s.view.layer = Layer::E;
    if (s.result) show_path_cell(s, longest_excursion(*s.result), 12.0);
}

// The table-scale close-up of the first change of state, that cell inspected.
void first_switch(AppState& s) {
    if (s.result) show_path_cell(s, first_switch_cell(*s.result), 40.0);
}

constexpr std::array<LessonStep, 5> kTrellis{{
    {
        "The trellis: states by time",
        "Viterbi decoding of a hidden Markov model fills a DP matrix too. The occasionally dishonest casino "
        "(Durbin et al. 1998) mostly rolls a fair die (F) and now and then a loaded one (L) that shows a six "
        "half the time; only the 300 rolls are seen. Rows are the states (row 0 the silent begin state), "
        "columns the rolls. Cell (s, t) holds delta(s, t), the log probability of the most likely state path "
        "that explains the first t rolls and ends in state s.\n\nAs an alignment's H, it is filled from cells "
        "already computed (here the whole previous column), and the path is traced back from the end cell, the "
        "best state of the last column. It takes one cell per column and jumps between the rows where the die "
        "changes.",
        [](AppState& s) { on_example(s, Example::casino); },
        inspect_end,
    },
    {
        "Behind the best",
        "delta falls with every roll (a fair roll costs ln 1/6 = -1.79), so the heatmap of delta itself is "
        "mostly a gradient from left to right. The layer 'behind best' (Matrix toolbar) shows delta(s, t) minus "
        "the best delta of column t: 0 for the state the best partial path is in at time t, negative for the "
        "other; the view is centred where the path's longest stay with the loaded die begins. The stretches "
        "where L is ahead are the runs of many sixes; the path does not follow every short one, because "
        "switching dice costs ln 0.05 or ln 0.10.",
        [](AppState& s) { on_example(s, Example::casino); },
        behind_best,
    },
    {
        "One cell, every predecessor",
        "The close-up centres the first roll at which the path changes state. The Inspector writes "
        "delta(s, t) = max_k(delta(k, t-1) + ln a(k, s)) + ln e(s, x_t) with its numbers: one candidate per "
        "predecessor state k, the winner (its backpointer, the arrow in the table, which the traceback follows) "
        "and the emission of the roll.\n\nThe engine adds logs in fixed point (q = ln p x 2^18 here), so the "
        "max over predecessors is an integer running max: on DPX one __viaddmax_s32(delta(k, t-1), ln a(k, s), "
        "best) per predecessor, where the DPX-free kernel needs an add and a max.",
        [](AppState& s) { on_example(s, Example::casino); },
        first_switch,
    },
    {
        "One thread per state, one column per step",
        "An alignment kernel sweeps anti-diagonals, because a cell needs its up, left and diagonal neighbours. "
        "A trellis has no such wavefront: every state of column t needs all of column t - 1, and the states of "
        "one column do not need each other. So the GPU kernel runs one block with one thread per state and "
        "steps through the columns, each thread taking its running max over all predecessors. The Machine code "
        "panel says what runs.",
        [](AppState& s) {
            on_example(s, Example::casino);
            s.panels.machine_code = true;
        },
        inspect_end,
    },
    {
        "Real DNA: a CpG island",
        "The same two-state idea on 2,085 bases of the human insulin receptor gene (exon 1 and its 5' flank, "
        "EMBL M23100): an island state I, rich in C and G, and a background state B. EMBOSS newcpgreport reports "
        "one CpG island in this sequence, bases 1026-2004. The view is centred where the path's longest stay in "
        "I begins, which covers most of that island; the Alignment panel's decoding text lists every run of I "
        "and B.\n\nIn the layer 'behind best', I takes the lead of its column some bases after the path has "
        "entered I: delta compares partial paths that end at time t, and only the traceback from the end says "
        "where switching paid off.",
        [](AppState& s) { on_example(s, Example::cpg_island); },
        behind_best,
    },
}};

constexpr std::array<Lesson, 4> kLessons{{
    {"Lesson 1: Global, local and semi-global", kModes},
    {"Lesson 2: Affine gaps, H, E and F", kAffine},
    {"Lesson 3: The wavefront, and what DPX changes", kWavefront},
    {"Lesson 4: An HMM trellis is a DP matrix too", kTrellis},
}};

void apply_step(AppState& s) {
    const LessonStep& st = kLessons[size_t(s.teach.lesson)].steps[size_t(s.teach.step)];
    st.apply(s);
    s.requests.compute = true;
    s.teach.view_pending = st.view != nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Navigation
// ---------------------------------------------------------------------------------------------
std::span<const Lesson> lessons() { return kLessons; }

void open_lesson(AppState& s, int lesson, int step) {
    if (lesson < 0 || lesson >= int(kLessons.size())) return;
    s.teach.lesson = lesson;
    s.teach.step = std::clamp(step, 0, int(kLessons[size_t(lesson)].steps.size()) - 1);
    s.teach.layout_pending = true;
    apply_step(s);
}

void lesson_next(AppState& s) {
    if (s.teach.lesson < 0 || s.teach.step + 1 >= int(kLessons[size_t(s.teach.lesson)].steps.size())) return;
    ++s.teach.step;
    apply_step(s);
}

void lesson_back(AppState& s) {
    if (s.teach.lesson < 0 || s.teach.step == 0) return;
    --s.teach.step;
    apply_step(s);
}

void close_lesson(AppState& s) {
    s.teach.lesson = -1;
    s.teach.step = 0;
    s.teach.view_pending = false;
    s.panels.lesson = false;
}

bool lesson_view_applied(const AppState& s) { return !s.teach.view_pending; }

void update_lesson(AppState& s) {
    if (!s.teach.view_pending || s.teach.lesson < 0) return;
    // This step's result is shown: no request or job in flight, and the newest job is on screen.
    if (s.requests.compute || s.job.busy || !s.result || s.job.shown != s.job.submitted) return;
    const LessonStep& st = kLessons[size_t(s.teach.lesson)].steps[size_t(s.teach.step)];
    if (st.view) st.view(s);
    s.teach.view_pending = false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Menu and panel
// ---------------------------------------------------------------------------------------------
void draw_lessons_menu(AppState& s) {
    update_lesson(s);
    if (!ImGui::BeginMenu("Lessons")) return;
    for (size_t k = 0; k < kLessons.size(); ++k)
        if (ImGui::MenuItem(kLessons[k].title, nullptr, s.teach.lesson == int(k), !s.assets_dir.empty()))
            open_lesson(s, int(k));
    ImGui::Separator();
    if (ImGui::MenuItem("Close lesson", nullptr, false, s.teach.lesson >= 0)) close_lesson(s);
    ImGui::EndMenu();
}

void draw_teach_lesson(AppState& s) {
    update_lesson(s);
    if (s.teach.lesson < 0) {
        text_wrapped("Pick a lesson from the Lessons menu:");
        for (size_t k = 0; k < kLessons.size(); ++k)
            if (ImGui::Selectable(kLessons[k].title)) open_lesson(s, int(k));
        return;
    }
    const Lesson& l = kLessons[size_t(s.teach.lesson)];
    const LessonStep& st = l.steps[size_t(s.teach.step)];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", l.title);
    ImGui::PopStyleColor();
    text_wrapped("Step %d of %d: %s", s.teach.step + 1, int(l.steps.size()), st.title);
    ImGui::Separator();
    text_wrapped("%s", st.text);
    ImGui::Separator();
    const bool first = s.teach.step == 0, last = s.teach.step + 1 == int(l.steps.size());
    ImGui::BeginDisabled(first);
    if (ImGui::Button("Back")) lesson_back(s);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(last);
    if (ImGui::Button("Next")) lesson_next(s);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(last ? "Finish" : "Close")) close_lesson(s);
}

}  // namespace dpviz::gui
