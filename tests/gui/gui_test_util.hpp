// Shared by the GUI tests: a headless Dear ImGui context (no window, no GL: a display size and
// a built font atlas are enough to run whole frames; the clipboard is a string here), remote
// activation of widgets by ID, a panel's text, key presses, a temporary folder, a small wait for
// the worker, and the fixture of the tests that run whole frames with the globin example.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <variant>

#include "gui/app_state.hpp"
#include "gui/compute.hpp"
#include "gui/frame.hpp"
#include "gui/measure.hpp"
#include "gui/panels.hpp"
#include "gui/view_math.hpp"
#include "temp_dir.hpp"
#include "test_text.hpp"

namespace dpviz::gui::testing {

class HeadlessImGui {
public:
    explicit HeadlessImGui(float w = 1280, float h = 800) {
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;  // tests never write imgui.ini (nor a log) anywhere
        io.LogFilename = nullptr;
        io.DisplaySize = ImVec2(w, h);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int tw = 0, th = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);  // builds the atlas
        // The clipboard: no window system here, so a string the tests read and write.
        io.ClipboardUserData = &clipboard_;
        io.SetClipboardTextFn = [](void* user, const char* text) { *static_cast<std::string*>(user) = text; };
        io.GetClipboardTextFn = [](void* user) { return static_cast<std::string*>(user)->c_str(); };
    }
    ~HeadlessImGui() { ImGui::DestroyContext(ctx_); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;

    // One whole frame: panels, render, then the frame loop's request handling.
    void frame(AppState& s, Worker* worker = nullptr) {
        ImGui::NewFrame();
        draw_ui(s);
        ImGui::Render();
        if (worker) process_requests(s, *worker);
    }

    // What ImGui::SetClipboardText last wrote.
    std::string& clipboard() { return clipboard_; }

private:
    ImGuiContext* ctx_ = nullptr;
    std::string clipboard_;
};

// The text a panel draws, as ImGui's logging captures it, in a frame of its own inside a window
// named "probe" (a log ends with the window it began in: one panel at a time).
inline std::string panel_text(void (*draw)(AppState&), AppState& s) {
    ImGui::NewFrame();
    ImGui::Begin("probe");
    ImGui::LogToBuffer();
    draw(s);
    const std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
    ImGui::LogFinish();
    ImGui::End();
    ImGui::Render();
    return text;
}

// The ID of a widget: the window's ID stack, then PushID(string or int) levels, then the label.
using IdPart = std::variant<const char*, int>;
inline ImGuiID widget_id(const char* window, std::initializer_list<IdPart> parts) {
    ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return 0;
    ImGuiID seed = w->ID;
    for (const IdPart& p : parts) {
        if (const int* n = std::get_if<int>(&p)) seed = ImHashData(n, sizeof(int), seed);
        else seed = ImHashStr(std::get<const char*>(p), 0, seed);
    }
    return seed;
}

// The name ImGui gives a child window (BeginChild(child) inside `window`), for widget_id.
inline std::string child_window_name(const char* window, const char* child) {
    char name[256];
    ImFormatString(name, sizeof name, "%s/%s_%08X", window, child, widget_id(window, {child}));
    return name;
}
// The name of a popup window (BeginPopup(popup) inside `window`), for widget_id.
inline std::string popup_window_name(const char* window, const char* popup) {
    char name[32];
    ImFormatString(name, sizeof name, "##Popup_%08x", widget_id(window, {popup}));
    return name;
}

// Presses a button / checkbox / selectable remotely: queued like keyboard-navigation
// activation, taken by the widget on the next frame. (ActivateItem also clears the flags a
// SetKeyboardFocusHere leaves behind, which would turn the press into text-input activation.)
inline void activate(ImGuiID id) { ImGui::ActivateItem(id); }

// One frame with `key` (a GLFW key code, gui/keys.hpp) down and the modifiers held, then one
// with everything released.
inline void press_key(HeadlessImGui& ui, AppState& s, int key, bool ctrl, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    io.KeysDown[key] = true;
    ui.frame(s);
    io.KeysDown[key] = false;
    io.KeyCtrl = io.KeyShift = false;
    ui.frame(s);
}

using dpviz::test::slurp;
using dpviz::test::TempDir;

// Runs frames until `done` or a timeout; returns whether done.
template <class Pred>
bool frames_until(HeadlessImGui& ui, AppState& s, Worker& w, Pred done, double seconds = 30.0) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!done()) {
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds) return false;
        ui.frame(s, &w);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

// Waits (up to 12 s) until job `id` reports fill progress (0 < fraction < 0.9: still filling).
inline bool wait_until_filling(Worker& w, uint64_t id) {
    for (int k = 0; k < 60000; ++k) {
        const JobProgress p = w.progress();
        if (p.running_id == id && p.fraction > 0.0 && p.fraction < 0.9) return true;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return false;
}

// A click at `pos` (move there, press, release without moving: one frame each).
inline void click_at(HeadlessImGui& ui, AppState& s, Worker& w, ImVec2 pos) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = pos;
    ui.frame(s, &w);
    io.MouseDown[0] = true;
    ui.frame(s, &w);
    io.MouseDown[0] = false;
    ui.frame(s, &w);
}

inline std::string assets() { return DPVIZ_ASSETS; }

// A job run to its end on this thread (no worker, no frames): its result, or a test failure
// naming the error.
inline std::shared_ptr<const Computed> run_to_result(const JobRequest& req) {
    JobContext ctx;
    JobOutcome out = run_job(req, ctx);
    EXPECT_TRUE(out.computed) << (out.error ? out.error->message : "no result");
    return out.computed;
}

// One side's input pasted as a single FASTA record.
inline InputSide pasted(const std::string& name, const std::string& residues) {
    InputSide in;
    in.source = InputSource::paste;
    in.pasted = ">" + name + "\n" + residues + "\n";
    return in;
}

// A job on the CPU backend over a seeded random DNA pair: the query the first `rows` residues of
// random_dna_pair(max(rows, cols), seed)'s first, the target the first `cols` of its second.
inline JobRequest dna_request(Algorithm algo, int rows, int cols, uint64_t seed) {
    const auto [q, t] = random_dna_pair(std::max(rows, cols), seed);
    JobRequest req;
    req.query = pasted("q", q.substr(0, size_t(rows)));
    req.target = pasted("t", t.substr(0, size_t(cols)));
    req.params.algo = algo;
    req.params.backend = BackendChoice::cpu;
    return req;
}

// One request run to its end twice: as it asks (whole matrices below the store's threshold), and
// through the result store from the first cell with a 64-texel overview. {whole, store}.
inline std::pair<std::shared_ptr<const Computed>, std::shared_ptr<const Computed>> run_whole_and_stored(
    JobRequest req) {
    auto whole = run_to_result(req);
    req.engine.store_from_cells = 0;
    req.engine.store_overview_side = 64;
    return {std::move(whole), run_to_result(req)};
}

// Centres cell (i, j) at 34 pixels a cell, then puts the mouse on the cell's middle (a frame each).
inline void mouse_on_cell(HeadlessImGui& ui, AppState& s, Worker& w, int i, int j) {
    s.view.center_pending = MatrixView::CenterOn{double(i), double(j), 34};
    ui.frame(s, &w);
    const Vec2d p = to_screen(s.view.xf, s.view.canvas, {j + 0.5, i + 0.5});
    ImGui::GetIO().MousePos = ImVec2(float(p.x), float(p.y));
    ui.frame(s, &w);
}

// A state as `dpviz gui --screenshot` starts it: the bundled assets, headless.
inline AppState fresh_state() {
    AppState s;
    s.assets_dir = assets();
    s.headless = true;
    return s;
}

// Loads the globin example through the Inputs panel's button and waits for the result.
inline void load_globins(HeadlessImGui& ui, AppState& s, Worker& w) {
    ui.frame(s, &w);  // lay out the windows
    activate(widget_id("Inputs", {"Globins"}));
    ui.frame(s, &w);
    ASSERT_TRUE(frames_until(ui, s, w, [&] { return s.result && !s.job.busy; })) << s.error;
    ui.frame(s, &w);  // the matrix panel fits the new result to its canvas
}

// What a test of whole frames starts from: a headless UI, a fresh state and the real worker. A
// suite's fixture derives from it under the suite's name (TEST_F(GuiFrames, ...)).
class FramesTest : public ::testing::Test {
protected:
    HeadlessImGui ui;
    AppState s = fresh_state();
    Worker w{run_job};
};

}  // namespace dpviz::gui::testing
