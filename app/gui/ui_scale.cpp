// Fonts, style and the UI scale (see ui_scale.hpp).
#include "gui/ui_scale.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "gui/keys.hpp"

#ifdef DPVIZ_HAVE_FREETYPE
#include <imgui_freetype.h>
#endif

namespace dpviz::gui {

namespace {

constexpr std::array<float, 13> kZoomSteps{0.5f, 0.67f, 0.75f, 0.8f, 0.9f, 1.0f, 1.1f,
                                           1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f};

// Latin and Latin-1 (with x), dashes, quotes and the ellipsis, the four arrows, minus, not
// equal and the inequalities: what lesson and tooltip text may use, and no more (the atlas is
// rebuilt at every scale, up to 4x).
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2010, 0x2026, 0x2190, 0x2193, 0x2212, 0x2212, 0x2260, 0x2265, 0};

void build_style(float scale) {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 3.0f;
    // Opaque panels: the dark style's 94 % window background let a panel behind (Export under
    // Wavefront) show through the text of the one in front.
    style.Colors[ImGuiCol_WindowBg].w = 1.0f;
    style.Colors[ImGuiCol_PopupBg].w = 1.0f;  // tooltips and menus too: no panel text through them
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

}  // namespace

float ui_scale(const UiScale& u) { return std::clamp(u.base * u.zoom, kMinUiScale, kMaxUiScale); }

float zoom_step(float zoom, int direction) {
    if (direction > 0) {
        for (const float z : kZoomSteps)
            if (z > zoom * 1.001f) return z;
        return kZoomSteps.back();
    }
    for (auto it = kZoomSteps.rbegin(); it != kZoomSteps.rend(); ++it)
        if (*it < zoom * 0.999f) return *it;
    return kZoomSteps.front();
}

void handle_scale_keys(AppState& s) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyCtrl || io.KeyAlt) return;
    const auto pressed = [](int a, int b) { return ImGui::IsKeyPressed(a) || ImGui::IsKeyPressed(b); };
    if (pressed(kKeyEqual, kKeyKeypadAdd)) s.ui.zoom = zoom_step(s.ui.zoom, +1);
    else if (pressed(kKeyMinus, kKeyKeypadSubtract)) s.ui.zoom = zoom_step(s.ui.zoom, -1);
    else if (pressed(kKey0, kKeyKeypad0)) s.ui.zoom = 1.0f;
}

std::string find_font_file(const std::string& name) {
    namespace fs = std::filesystem;
    std::vector<fs::path> dirs;
    if (const char* d = std::getenv("DPVIZ_FONT_DIR"); d && *d) dirs.emplace_back(d);
    // Debian and Ubuntu; Fedora; Arch; a local install.
    for (const char* d : {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu-sans-fonts",
                          "/usr/share/fonts/dejavu-sans-mono-fonts", "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu",
                          "/usr/local/share/fonts"})
        dirs.emplace_back(d);
    std::error_code ec;
    for (const fs::path& d : dirs)
        if (fs::is_regular_file(d / name, ec)) return (d / name).string();
    return "";
}

bool apply_ui_scale(AppState& s) {
    const float scale = ui_scale(s.ui);
    if (s.ui.built == scale) return false;
    ImGuiIO& io = ImGui::GetIO();
    ImFontAtlas& atlas = *io.Fonts;
    atlas.Clear();
#ifdef DPVIZ_HAVE_FREETYPE
    atlas.FontBuilderIO = ImGuiFreeType::GetBuilderForFreeType();
    atlas.FontBuilderFlags = ImGuiFreeTypeBuilderFlags_LightHinting;
#endif
    const float px = std::round(kBaseFontPx * scale);
    const std::string sans = find_font_file("DejaVuSans.ttf"), mono = find_font_file("DejaVuSansMono.ttf");
    s.ui.font_note.clear();
    if (!sans.empty() && !mono.empty()) {
        ImFontConfig cfg;
        cfg.OversampleH = 2;  // stb_truetype only (without FreeType); FreeType ignores it
        atlas.AddFontFromFileTTF(sans.c_str(), px, &cfg, kGlyphRanges);
        atlas.AddFontFromFileTTF(mono.c_str(), px, &cfg, kGlyphRanges);
    }
    if (atlas.Fonts.Size < 2 || !atlas.Build()) {
        // The built-in bitmap font (ProggyClean, 13 px), scaled: readable, if blurry when large.
        s.ui.font_note = "DejaVu Sans / Sans Mono not found (install fonts-dejavu-core, or set DPVIZ_FONT_DIR): "
                         "using the built-in font";
        atlas.Clear();
        ImFontConfig cfg;
        cfg.SizePixels = std::round(13.0f * scale);
        atlas.AddFontDefault(&cfg);
        atlas.Build();
    }
    io.FontDefault = atlas.Fonts[0];
    build_style(scale);
    s.ui.built = scale;
    return true;
}

ImFont* mono_font() {
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    return atlas->Fonts.Size > 1 ? atlas->Fonts[1] : ImGui::GetFont();
}

float ui_px(float px_at_scale_1) { return px_at_scale_1 * ImGui::GetFontSize() / kBaseFontPx; }

void same_line_if_fits(float width) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float check_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

void text_wrapped(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string text(size_t(std::max(n, 0)), '\0');
    if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, args);
    va_end(args);
    text_wrapped_unformatted(text);
}

void text_wrapped_unformatted(const std::string& text) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
    auto fits = [&](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x <= width; };
    size_t start = 0;
    while (start <= text.size()) {
        const size_t nl = std::min(text.find('\n', start), text.size());
        const std::string para = text.substr(start, nl - start);
        // Greedy: the longest run of whole words that fits; the space at a break is dropped.
        size_t k = 0;
        do {
            size_t end = para.size();
            if (!fits(para.substr(k))) {
                end = k;
                for (size_t sp = para.find(' ', k + 1); sp != std::string::npos && fits(para.substr(k, sp - k));
                     sp = para.find(' ', sp + 1))
                    end = sp;
                if (end == k) {  // one word wider than the line: as many characters as fit
                    end = k + 1;
                    while (end < para.size() && fits(para.substr(k, end + 1 - k))) ++end;
                }
            }
            const std::string line = para.substr(k, end - k);
            ImGui::TextUnformatted(line.c_str(), line.c_str() + line.size());
            k = end;
            while (k < para.size() && para[k] == ' ' && k != 0) ++k;
        } while (k < para.size());
        start = nl + 1;
    }
}

}  // namespace dpviz::gui
