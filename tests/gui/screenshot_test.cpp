// The real binary under Xvfb + Mesa: `dpviz gui --screenshot` on the globin example must write a
// PNG that is not blank, with the heatmap where the Matrix panel is and every panel's title bar
// where the layout puts it; with --scale 2 the window is laid out twice as large. Skips without
// Xvfb, or while `dpviz gui` is not routed.
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sys/wait.h>

#include "gui_test_util.hpp"
#include "gui/ui_scale.hpp"
#include "xvfb_display.hpp"

namespace dpviz::gui {
namespace {

using namespace dpviz::gui::testing;

struct Png {
    int w = 0, h = 0;
    std::vector<uint8_t> rgb;
    const uint8_t* at(int x, int y) const { return &rgb[(size_t(y) * w + x) * 3]; }
};

Png load_png(const std::string& path) {
    Png p;
    int n = 0;
    unsigned char* data = stbi_load(path.c_str(), &p.w, &p.h, &n, 3);
    if (!data) return p;
    p.rgb.assign(data, data + size_t(p.w) * p.h * 3);
    stbi_image_free(data);
    return p;
}

bool have(const char* program) { return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0; }

const std::string kBin = DPVIZ_BINARY;

// Why these tests cannot run here, "" when they can: no Xvfb (for those that need one), or a
// dpviz that does not route `dpviz gui`.
std::string cannot_run(bool needs_xvfb) {
    if (needs_xvfb && !have("Xvfb")) return "Xvfb is not installed";
    if (std::system((kBin + " gui --help >/dev/null 2>&1").c_str()) != 0)
        return "this dpviz has no gui command yet (cli.cpp does not route it)";
    return "";
}

struct Run {
    int rc;
    std::string output;  // stdout and stderr
};

// Runs the shell `command` in `dir`, its output going to dir/log.txt.
Run run_logged(const TempDir& dir, const std::string& command) {
    const std::string log = dir.file("log.txt");
    const int rc = std::system(("cd " + dir.path() + " && " + command + " >" + log + " 2>&1").c_str());
    return {rc, slurp(log)};
}

// `dpviz gui --screenshot PNG ARGS` under a private Xvfb of `screen` ("WxHxDEPTH"), in `dir` and
// with `dir` as its config home: it writes nothing anywhere else.
Run screenshot(const TempDir& dir, const std::string& png, const std::string& screen, const std::string& args) {
    return run_logged(dir, "XDG_CONFIG_HOME=" + dir.path() + " " + with_xvfb(screen) + kBin + " gui --screenshot " +
                               png + " " + args);
}

// The menu bar's height at scale 1: the font's size plus its frame padding above and below.
float menu_bar_px() { return kBaseFontPx + 2 * ImGuiStyle().FramePadding.y; }

// The menu bar's height in column x: its border (the colour of the top row), its background,
// its border again.
int menu_bar_rows(const Png& img, int x) {
    const uint8_t* border = img.at(x, 0);
    const auto is_border = [&](int y) { return std::equal(border, border + 3, img.at(x, y)); };
    int y = 0;
    while (y < img.h && is_border(y)) ++y;
    while (y < img.h && !is_border(y)) ++y;
    while (y < img.h && is_border(y)) ++y;
    return y;
}

TEST(GuiScreenshot, GlobinExampleUnderXvfb) {
    if (const std::string why = cannot_run(true); !why.empty()) GTEST_SKIP() << why;
    TempDir dir;
    const std::string png = dir.file("shot.png");
    const std::string fa = assets() + "/examples/globins.fa";
    const auto [rc, output] = screenshot(dir, png, "1280x800x24",
                                         "--frames 5 --query-record HBA_HUMAN --target-record HBB_HUMAN " + fa + " " + fa);
    ASSERT_EQ(rc, 0) << output;
    const Png img = load_png(png);
    ASSERT_EQ(img.w, 1280) << output;
    ASSERT_EQ(img.h, 800);
    // Nothing but the PNG and the log was written (no imgui.ini, no session).
    size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir.path())) files += e.is_regular_file();
    EXPECT_EQ(files, 2u);

    // Not blank: many distinct colors over the whole window.
    std::set<uint32_t> colors;
    for (size_t k = 0; k < img.rgb.size(); k += 3 * 7)
        colors.insert(uint32_t(img.rgb[k]) << 16 | uint32_t(img.rgb[k + 1]) << 8 | img.rgb[k + 2]);
    EXPECT_GT(colors.size(), 100u);

    // The layout is the registry's (no imgui.ini): the area below the menu bar.
    EXPECT_EQ(menu_bar_rows(img, 700), int(menu_bar_px())) << "menu bar height";
    const float top = menu_bar_px(), area_w = 1280.0f, area_h = 800.0f - top;
    for (const PanelEntry& p : panel_registry()) {
        // Title bar: ImGui's dark style title color (inactive or active) across most of its row.
        const int y = int(top + p.y * area_h) + 9;
        const int x0 = int(p.x * area_w) + 30, x1 = int((p.x + p.w) * area_w) - 30;
        int title = 0;
        for (int x = x0; x < x1; ++x) {
            const uint8_t* c = img.at(x, y);
            const bool inactive = c[0] == 10 && c[1] == 10 && c[2] == 10;
            const bool active = c[0] == 41 && c[1] == 74 && c[2] == 122;
            title += inactive || active;
        }
        EXPECT_GT(title, (x1 - x0) * 6 / 10) << p.title << " title bar at y=" << y;
    }
    // The heatmap: strong color variation in the middle of the Matrix panel.
    const PanelEntry& m = panel_registry()[2];
    ASSERT_STREQ(m.title, "Matrix");
    const int mx0 = int((m.x + m.w * 0.3f) * area_w), mx1 = int((m.x + m.w * 0.6f) * area_w);
    const int my0 = int(top + (m.y + m.h * 0.35f) * area_h), my1 = int(top + (m.y + m.h * 0.75f) * area_h);
    double sum = 0, sum2 = 0;
    std::set<uint32_t> heat;
    int n = 0;
    for (int y = my0; y < my1; ++y)
        for (int x = mx0; x < mx1; ++x) {
            const uint8_t* c = img.at(x, y);
            const double l = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
            sum += l;
            sum2 += l * l;
            ++n;
            heat.insert(uint32_t(c[0]) << 16 | uint32_t(c[1]) << 8 | c[2]);
        }
    const double sd = std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
    EXPECT_GT(sd, 10.0) << "heatmap region looks flat";
    EXPECT_GT(heat.size(), 40u) << "heatmap region has few colors";
}

TEST(GuiScreenshot, ScaleTwoLaysOutTwiceAsLarge) {
    if (const std::string why = cannot_run(true); !why.empty()) GTEST_SKIP() << why;
    TempDir dir;
    const std::string png = dir.file("shot2x.png");
    const auto [rc, output] =
        screenshot(dir, png, "2560x1600x24", "--frames 3 --scale 2 --size 2560x1600 --example globins");
    ASSERT_EQ(rc, 0) << output;
    const Png img = load_png(png);
    ASSERT_EQ(img.w, 2560) << output;
    ASSERT_EQ(img.h, 1600);
    // Fonts and spacing at twice the size: the menu bar is twice as tall, and the panels' title
    // bars lie where the registry puts them in the doubled layout.
    EXPECT_EQ(menu_bar_rows(img, 1400), int(2 * menu_bar_px()));
    const float top = 2 * menu_bar_px(), area_h = 1600.0f - top;
    for (const PanelEntry& p : panel_registry()) {
        const int y = int(top + p.y * area_h) + 18, x = int((p.x + p.w * 0.5f) * 2560.0f);
        const uint8_t* c = img.at(x, y);
        const bool inactive = c[0] == 10 && c[1] == 10 && c[2] == 10, active = c[0] == 41 && c[1] == 74 && c[2] == 122;
        EXPECT_TRUE(inactive || active) << p.title << " title bar at (" << x << ", " << y << ")";
    }
}

TEST(GuiScreenshot, NoDisplayIsAOneLineErrorNotACrash) {
    if (const std::string why = cannot_run(false); !why.empty()) GTEST_SKIP() << why;
    TempDir dir;
    const auto [rc, output] = run_logged(
        dir, "env -u DISPLAY -u WAYLAND_DISPLAY " + kBin + " gui --screenshot " + dir.file("x.png") + " --example globins");
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 5) << output;
    EXPECT_NE(output.find("65544"), std::string::npos) << output;
    EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("x.png")));
}

}  // namespace
}  // namespace dpviz::gui
