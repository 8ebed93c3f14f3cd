// Heatmap composition for PNG export and the GUI: value range and color scale, max-pool/nearest
// resampling, the path overlay, colorbar, axis hints and caption text. No GL, no file I/O.
//
// Index
// [SECTION] Values and colors
// [SECTION] Resampling
// [SECTION] Drawing: rectangles, thick lines
// [SECTION] Text: stb_easy_font quads at an integer scale
// [SECTION] Layout
// [SECTION] Composition

#include "dpviz/render/heatmap.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

// Header-only, every function static: this is the one translation unit that includes it.
#include <stb_easy_font.h>

namespace dpviz::render {

namespace {

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kText{25, 25, 25};
constexpr Rgb kFrame{120, 120, 120};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Values and colors
// ---------------------------------------------------------------------------------------------

ValueRange value_range(const Grid<int32_t>& H) {
    ValueRange r;
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (const int32_t v : H.data) {
        if (is_unreachable(v)) {
            r.any_unreachable = true;
            continue;
        }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        r.any_finite = true;
    }
    if (r.any_finite) {
        r.min = lo;
        r.max = hi;
    }
    return r;
}

ColorScale make_color_scale(const ValueRange& range, const HeatmapOptions& opt) {
    ColorScale s;
    s.min = range.min;
    s.max = range.max;
    if (opt.auto_colormap) {
        s.map = range.min < 0 && range.max > 0 ? Colormap::diverging : Colormap::viridis;
    } else {
        s.map = opt.colormap;
    }
    return s;
}

float ColorScale::position(int32_t v) const {
    const int32_t lo = std::min(min, max), hi = std::max(min, max);
    const double x = std::clamp(v, lo, hi);
    if (map == Colormap::diverging) {
        if (x < 0) return static_cast<float>(0.5 - 0.5 * x / lo);  // x >= lo, so lo < 0 here
        if (x > 0) return static_cast<float>(0.5 + 0.5 * x / hi);
        return 0.5f;
    }
    if (hi == lo) return 0.5f;
    return static_cast<float>((x - lo) / (static_cast<double>(hi) - lo));
}

Rgb ColorScale::color(int32_t v) const {
    return is_unreachable(v) ? unreachable_color(map) : colorize(map, position(v));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Resampling
// ---------------------------------------------------------------------------------------------

Size fit_matrix(int32_t rows, int32_t cols, int max_side) {
    if (rows <= 0 || cols <= 0 || max_side <= 0) return {0, 0};
    const int64_t longer = std::max(rows, cols);
    if (longer <= max_side) {
        const int64_t k = max_side / longer;  // integer factor: every cell a k x k square
        return {static_cast<int>(cols * k), static_cast<int>(rows * k)};
    }
    const double s = static_cast<double>(max_side) / static_cast<double>(longer);
    const auto side = [&](int32_t n) {
        return static_cast<int>(std::clamp<int64_t>(std::llround(n * s), 1, max_side));
    };
    return {side(cols), side(rows)};
}

namespace {

// Pixel p covers cells [start[p], std::max(start[p + 1], start[p] + 1)).
std::vector<int64_t> block_starts(int64_t cells, int pixels) {
    std::vector<int64_t> start(static_cast<size_t>(pixels) + 1);
    for (int p = 0; p <= pixels; ++p) start[p] = static_cast<int64_t>(p) * cells / pixels;
    return start;
}

void put(Image& img, int x, int y, Rgb c) {
    uint8_t* p = &img.rgb[(static_cast<size_t>(y) * img.width + x) * 3];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
}

Image blank_image(int width, int height, Rgb fill) {
    Image img;
    img.width = width;
    img.height = height;
    img.rgb.resize(static_cast<size_t>(width) * height * 3);
    for (size_t i = 0; i < img.rgb.size(); i += 3) {
        img.rgb[i] = fill.r;
        img.rgb[i + 1] = fill.g;
        img.rgb[i + 2] = fill.b;
    }
    return img;
}

Status check_grid(const Grid<int32_t>& H) {
    if (H.rows < 0 || H.cols < 0 || H.data.size() != static_cast<size_t>(H.rows) * static_cast<size_t>(H.cols)) {
        return usage_error("heatmap: matrix data holds " + std::to_string(H.data.size()) + " values, not " +
                           std::to_string(H.rows) + " x " + std::to_string(H.cols));
    }
    return Ok{};
}

}  // namespace

namespace {

// Pixel rows [y0, y1) of colorize_into.
void colorize_rows(const Grid<int32_t>& H, const ColorScale& scale, Image& img, Rect area, bool lowest,
                   const std::vector<int64_t>& col, const std::vector<int64_t>& row, int y0, int y1) {
    std::vector<int32_t> pooled(static_cast<size_t>(area.w));
    const size_t row_bytes = static_cast<size_t>(area.w) * 3;
    const auto line = [&](int y) { return &img.rgb[(static_cast<size_t>(area.y + y) * img.width + area.x) * 3]; };
    for (int y = y0; y < y1; ++y) {
        const int64_t r0 = row[y], r1 = std::max(row[y + 1], r0 + 1);
        if (y > y0 && r0 == row[y - 1]) {  // upscaled: the same cell row as the pixel row above
            std::memcpy(line(y), line(y - 1), row_bytes);
            continue;
        }
        // kNegInf is below every finite value (kPosInf above), so it doubles as "no finite cell
        // in this block".
        std::fill(pooled.begin(), pooled.end(), lowest ? kPosInf : kNegInf);
        for (int64_t r = r0; r < r1; ++r) {
            const int32_t* cells = &H.data[static_cast<size_t>(r) * H.cols];
            for (int x = 0; x < area.w; ++x) {
                const int64_t c1 = std::max(col[x + 1], col[x] + 1);
                int32_t best = pooled[x];
                for (int64_t c = col[x]; c < c1; ++c) {
                    const int32_t v = cells[c];
                    if (lowest ? (v < best && v > kNegInf) : (v > best && v < kPosInf)) best = v;
                }
                pooled[x] = best;
            }
        }
        for (int x = 0; x < area.w; ++x) put(img, area.x + x, area.y + y, scale.color(pooled[x]));
    }
}

// Resamples and colorizes H into `area` of img (inside it, checked by the callers): bands of
// pixel rows on the machine's cores when the picture is big (each pixel is its own, so the
// image does not depend on how the rows are shared).
void colorize_into(const Grid<int32_t>& H, const ColorScale& scale, Image& img, Rect area, bool lowest = false) {
    const std::vector<int64_t> col = block_starts(H.cols, area.w);
    const std::vector<int64_t> row = block_starts(H.rows, area.h);
    constexpr int64_t kPixelsPerThread = 1 << 18;
    const int64_t pixels = int64_t(area.w) * area.h;
    const int threads = int(std::clamp<int64_t>(std::min<int64_t>(std::thread::hardware_concurrency(), 16), 1,
                                                std::max<int64_t>(1, pixels / kPixelsPerThread)));
    if (threads == 1) return colorize_rows(H, scale, img, area, lowest, col, row, 0, area.h);
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> failed(static_cast<size_t>(threads));  // bad_alloc, rethrown here
    const auto band = [&](int t, int y0, int y1) {
        try {
            colorize_rows(H, scale, img, area, lowest, col, row, y0, y1);
        } catch (...) {
            failed[size_t(t)] = std::current_exception();
        }
    };
    const auto first_row = [&](int t) { return int(int64_t(area.h) * t / threads); };
    try {
        for (int t = 1; t < threads; ++t) pool.emplace_back(band, t, first_row(t), first_row(t + 1));
    } catch (const std::system_error&) {  // no thread to spare: the rest on this one
    }
    const int started = int(pool.size()) + 1;
    band(0, 0, first_row(1));
    if (started < threads) band(0, first_row(started), area.h);
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
}

}  // namespace

Expected<Image> colorize_matrix(const Grid<int32_t>& H, const ColorScale& scale, Size size) {
    if (Status ok = check_grid(H); !ok) return ok.error();
    if (H.rows == 0 || H.cols == 0) return usage_error("heatmap: the matrix is empty");
    if (size.width < 1 || size.height < 1 || size.width > kMaxImageSide || size.height > kMaxImageSide) {
        return usage_error("heatmap: matrix image size " + std::to_string(size.width) + " x " +
                           std::to_string(size.height) + " is outside 1.." + std::to_string(kMaxImageSide));
    }
    try {
        Image img = blank_image(size.width, size.height, kBackground);
        colorize_into(H, scale, img, {0, 0, size.width, size.height});
        return img;
    } catch (const std::bad_alloc&) {
        return resource_error("heatmap: not enough memory for a " + std::to_string(size.width) + " x " +
                              std::to_string(size.height) + " image");
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Drawing: rectangles, thick lines
// ---------------------------------------------------------------------------------------------

namespace {

Rect intersect(Rect a, Rect b) {
    const int x0 = std::max(a.x, b.x), y0 = std::max(a.y, b.y);
    const int x1 = std::min(a.x + a.w, b.x + b.w), y1 = std::min(a.y + a.h, b.y + b.h);
    return {x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0)};
}

void fill_rect(Image& img, Rect r, Rgb c) {
    r = intersect(r, {0, 0, img.width, img.height});
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x) put(img, x, y, c);
}

// A one-pixel frame just outside r.
void frame_rect(Image& img, Rect r, Rgb c) {
    fill_rect(img, {r.x - 1, r.y - 1, r.w + 2, 1}, c);
    fill_rect(img, {r.x - 1, r.y + r.h, r.w + 2, 1}, c);
    fill_rect(img, {r.x - 1, r.y, 1, r.h}, c);
    fill_rect(img, {r.x + r.w, r.y, 1, r.h}, c);
}

// Every pixel whose center lies within `radius` of the segment a-b (a capsule), inside clip.
// Consecutive capsules share their end discs, so a polyline never breaks.
void draw_capsule(Image& img, float ax, float ay, float bx, float by, float radius, Rgb c, Rect clip) {
    const Rect box = intersect(clip, {static_cast<int>(std::floor(std::min(ax, bx) - radius)),
                                      static_cast<int>(std::floor(std::min(ay, by) - radius)),
                                      static_cast<int>(std::ceil(std::abs(bx - ax) + 2 * radius)) + 1,
                                      static_cast<int>(std::ceil(std::abs(by - ay) + 2 * radius)) + 1});
    const float dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, r2 = radius * radius;
    for (int y = box.y; y < box.y + box.h; ++y) {
        for (int x = box.x; x < box.x + box.w; ++x) {
            const float px = x + 0.5f - ax, py = y + 0.5f - ay;
            const float t = len2 > 0 ? std::clamp((px * dx + py * dy) / len2, 0.f, 1.f) : 0.f;
            const float ex = px - t * dx, ey = py - t * dy;
            if (ex * ex + ey * ey <= r2) put(img, x, y, c);
        }
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Text: stb_easy_font quads at an integer scale
// ---------------------------------------------------------------------------------------------

namespace {

constexpr int kLineUnits = 12;  // stb_easy_font's line advance; glyph ink fits in the first 10

// stb_easy_font indexes a table with (c - 32): only printable ASCII may reach it. Tabs become
// spaces, other control characters '?', and each UTF-8 sequence one '?'.
std::string printable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (u >= 32 && u < 127) out += ch;
        else if (u == '\t') out += ' ';
        else if ((u & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
        else out += '?';
    }
    return out;
}

// Width in font units of printable text.
int text_units(std::string_view s) {
    static const std::array<int, 95> advance = [] {
        std::array<int, 95> a{};
        for (int c = 32; c < 127; ++c) {
            char one[2] = {static_cast<char>(c), '\0'};
            a[c - 32] = stb_easy_font_width(one);
        }
        return a;
    }();
    int w = 0;
    for (const char ch : s) w += advance[static_cast<unsigned char>(ch) - 32];
    return w;
}

enum class Orientation { horizontal, down };  // down: turned 90 degrees clockwise, read top to bottom

// Draws printable text with its top-left corner at (x, y) (for `down`: the top-right corner of the
// unturned line lands at (x + 12 * scale, y)).
void draw_text(Image& img, int x, int y, const std::string& text, int scale, Rgb color,
               Orientation o = Orientation::horizontal) {
    if (text.empty()) return;
    std::string buf = text;                          // stb wants a mutable C string
    std::vector<char> quads(buf.size() * 1024 + 64);  // ~270 bytes per character on average
    const int n = stb_easy_font_print(0, 0, buf.data(), nullptr, quads.data(), static_cast<int>(quads.size()));
    for (int q = 0; q < n; ++q) {
        float u0 = 1e9f, v0 = 1e9f, u1 = -1e9f, v1 = -1e9f;
        for (int k = 0; k < 4; ++k) {
            float xy[2];
            std::memcpy(xy, &quads[static_cast<size_t>(q) * 64 + static_cast<size_t>(k) * 16], sizeof xy);
            u0 = std::min(u0, xy[0]);
            u1 = std::max(u1, xy[0]);
            v0 = std::min(v0, xy[1]);
            v1 = std::max(v1, xy[1]);
        }
        // Segment coordinates are whole units, so the scaled quads are pixel-exact.
        const int iu0 = static_cast<int>(u0), iu1 = static_cast<int>(u1);
        const int iv0 = static_cast<int>(v0), iv1 = static_cast<int>(v1);
        if (o == Orientation::horizontal) {
            fill_rect(img, {x + iu0 * scale, y + iv0 * scale, (iu1 - iu0) * scale, (iv1 - iv0) * scale}, color);
        } else {
            fill_rect(img, {x + (kLineUnits - iv1) * scale, y + iu0 * scale, (iv1 - iv0) * scale, (iu1 - iu0) * scale},
                      color);
        }
    }
}

// Greedy word wrap to max_units per line, at most max_lines lines; a cut ends in "...".
// Words longer than a line are split. '\n' starts a new line.
std::vector<std::string> wrap_text(std::string_view text, int max_units, int max_lines) {
    std::vector<std::string> lines;
    bool cut = false;
    const auto emit = [&](std::string line) {
        if (static_cast<int>(lines.size()) == max_lines) {
            cut = true;
            return;
        }
        lines.push_back(std::move(line));
    };
    size_t start = 0;
    while (start <= text.size() && !cut) {
        const size_t nl = std::min(text.find('\n', start), text.size());
        const std::string para = printable(text.substr(start, nl - start));
        start = nl + 1;
        std::string line;
        size_t i = 0;
        while (i < para.size() && !cut) {
            if (para[i] == ' ') {
                ++i;
                continue;
            }
            const size_t end = std::min(para.find(' ', i), para.size());
            std::string word = para.substr(i, end - i);
            i = end;
            const std::string joined = line.empty() ? word : line + " " + word;
            if (text_units(joined) <= max_units) {
                line = joined;
                continue;
            }
            if (!line.empty()) emit(std::exchange(line, std::string()));
            while (text_units(word) > max_units && !cut) {  // split an overlong word
                size_t k = 1;
                while (k < word.size() && text_units(std::string_view(word).substr(0, k + 1)) <= max_units) ++k;
                emit(word.substr(0, k));
                word.erase(0, k);
            }
            line = word;
        }
        if (!line.empty() && !cut) emit(line);
        if (nl == text.size()) break;
    }
    if (cut && !lines.empty()) {
        std::string& last = lines.back();
        while (!last.empty() && text_units(last + "...") > max_units) last.pop_back();
        last += "...";
    }
    return lines;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Layout
// ---------------------------------------------------------------------------------------------

namespace {

struct Plan {
    HeatmapLayout layout;
    int margin = 0, gap = 0, line = 0;
    std::string top_label, left_label;        // axis hints, already shortened to fit
    std::string max_label, min_label;         // colorbar ends
    Rect legend;                              // the unreachable swatch; empty when not needed
    std::vector<std::string> caption_lines;
};

std::string first_fitting(const std::vector<std::string>& candidates, int max_units) {
    for (const std::string& c : candidates)
        if (text_units(c) <= max_units) return c;
    return {};
}

Plan plan_layout(int32_t rows, int32_t cols, const ValueRange& range, const HeatmapOptions& opt) {
    Plan p;
    const Size m = fit_matrix(rows, cols, opt.max_side);
    const int s = opt.text_scale > 0 ? opt.text_scale : std::clamp(std::max(m.width, m.height) / 450, 2, 8);
    p.layout.text_scale = s;
    p.margin = 6 * s;
    p.gap = 3 * s;
    p.line = kLineUnits * s;

    const bool left = !opt.row_label.empty(), top = !opt.col_label.empty();
    Rect& mat = p.layout.matrix;
    mat = {p.margin + (left ? p.line + p.gap : 0), p.margin + (top ? p.line + p.gap : 0), m.width, m.height};

    // Right column: colorbar, ticks and labels, and the unreachable legend under the bar.
    int right = mat.x + mat.w;
    int content_h = mat.h;
    if (opt.colorbar) {
        const auto text = [&](int64_t v) { return opt.value_text ? opt.value_text(v) : std::to_string(v); };
        p.max_label = range.any_finite ? text(range.max) : "";
        p.min_label = range.any_finite && range.min != range.max ? text(range.min) : "";
        const bool legend = range.any_unreachable;
        const int label_units = std::max({text_units(p.max_label), text_units(p.min_label), text_units("0"),
                                          legend ? text_units("unreachable") : 0});
        content_h = std::max(content_h, (legend ? 8 : 6) * p.line);
        Rect& bar = p.layout.colorbar;
        bar = {mat.x + mat.w + p.margin + p.gap, mat.y, 10 * s, content_h - (legend ? 2 * p.line : 0)};
        if (legend) p.legend = {bar.x, bar.y + bar.h + p.line, bar.w, 8 * s};
        right = bar.x + bar.w + p.gap + p.gap + label_units * s;
    }
    const int width = std::max(right + p.margin, 320 * s);
    const int caption_units = (width - 2 * p.margin) / s;

    if (top) {
        const HeatmapOptions::Span span = opt.cols_shown.value_or(HeatmapOptions::Span{0, cols - 1});
        const std::string range_hint = "  j = " + std::to_string(span.first) + ".." + std::to_string(span.last);
        p.top_label = first_fitting({printable(opt.col_label) + range_hint, printable(opt.col_label)},
                                    (width - mat.x - p.margin) / s);
    }
    if (left) {
        const HeatmapOptions::Span span = opt.rows_shown.value_or(HeatmapOptions::Span{0, rows - 1});
        const std::string range_hint = "  i = " + std::to_string(span.first) + ".." + std::to_string(span.last);
        p.left_label = first_fitting({printable(opt.row_label) + range_hint, printable(opt.row_label)}, content_h / s);
    }

    int height = mat.y + content_h + p.margin;
    if (!opt.caption.empty()) {
        p.caption_lines = wrap_text(opt.caption, caption_units, kCaptionLines);
        p.layout.caption = {p.margin, height, width - 2 * p.margin, static_cast<int>(p.caption_lines.size()) * p.line};
        height += p.layout.caption.h + p.margin;
    }
    p.layout.width = width;
    p.layout.height = height;
    return p;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Composition
// ---------------------------------------------------------------------------------------------

namespace {

void draw_path(Image& img, const Plan& p, int32_t rows, int32_t cols, const std::vector<Cell>& path,
               const PathStyle& style) {
    const Rect& mat = p.layout.matrix;
    const auto center = [&](const Cell& c, float& x, float& y) {  // double: indices may exceed 2^24
        x = static_cast<float>(mat.x + (c.j + 0.5) * mat.w / cols);
        y = static_cast<float>(mat.y + (c.i + 0.5) * mat.h / rows);
    };
    // Thick enough to see on a large image, and on big upscaled cells; cell_px is 0 when downsampled.
    const int cell_px = std::min(mat.w / cols, mat.h / rows);
    const float core = static_cast<float>(std::clamp(std::max(std::max(mat.w, mat.h) / 320, cell_px / 10), 2, 16));
    const float radii[2] = {core / 2 + std::max(1.f, std::round(core * 0.4f)), core / 2};
    const Rgb colors[2] = {style.outline, style.core};
    for (int pass = 0; pass < 2; ++pass) {  // the whole outline first, so the core is never cut
        float ax, ay;
        center(path.front(), ax, ay);
        draw_capsule(img, ax, ay, ax, ay, radii[pass], colors[pass], mat);
        for (size_t k = 1; k < path.size(); ++k) {
            float bx, by;
            center(path[k], bx, by);
            draw_capsule(img, ax, ay, bx, by, radii[pass], colors[pass], mat);
            ax = bx;
            ay = by;
        }
    }
}

void draw_colorbar(Image& img, const Plan& p, const ValueRange& range, const ColorScale& scale) {
    const Rect& bar = p.layout.colorbar;
    const int s = p.layout.text_scale;
    if (!range.any_finite) {
        fill_rect(img, bar, scale.color(kPosInf));
        frame_rect(img, bar, kFrame);
    } else {
        // Rows are even steps in t between the ends of the range, max at the top.
        const float t_lo = scale.position(scale.min), t_hi = scale.position(scale.max);
        for (int r = 0; r < bar.h; ++r) {
            const float t = t_hi - (t_hi - t_lo) * (static_cast<float>(r) + 0.5f) / static_cast<float>(bar.h);
            fill_rect(img, {bar.x, bar.y + r, bar.w, 1}, colorize(scale.map, t));
        }
        frame_rect(img, bar, kFrame);
        const auto tick = [&](int y, const std::string& label) {
            fill_rect(img, {bar.x + bar.w, y - s / 2, p.gap, std::max(1, s / 2)}, kFrame);
            draw_text(img, bar.x + bar.w + 2 * p.gap, y - 4 * s, label, s, kText);
        };
        const int top = bar.y, bottom = bar.y + bar.h;
        if (t_hi == t_lo) {
            tick(bar.y + bar.h / 2, p.max_label);
        } else {
            tick(top, p.max_label);
            tick(bottom, p.min_label);
            if (scale.map == Colormap::diverging && scale.min < 0 && scale.max > 0) {
                const int y0 = bar.y + static_cast<int>(std::lround((t_hi - 0.5f) / (t_hi - t_lo) * bar.h));
                if (y0 - top >= p.line && bottom - y0 >= p.line) tick(y0, "0");
            }
        }
    }
    if (!p.legend.empty()) {
        fill_rect(img, p.legend, scale.color(kPosInf));
        frame_rect(img, p.legend, kFrame);
        draw_text(img, p.legend.x + p.legend.w + 2 * p.gap, p.legend.y, "unreachable", s, kText);
    }
}

}  // namespace

Expected<Heatmap> compose_heatmap_with_layout(const Grid<int32_t>& H, const std::vector<Cell>& path,
                                              const HeatmapOptions& opt) {
    if (opt.max_side < 1 || opt.max_side > kMaxImageSide) {
        return usage_error("heatmap: max side " + std::to_string(opt.max_side) + " is outside 1.." +
                           std::to_string(kMaxImageSide));
    }
    if (opt.text_scale < 0 || opt.text_scale > 16) {
        return usage_error("heatmap: text scale " + std::to_string(opt.text_scale) + " is outside 0..16");
    }
    if (Status ok = check_grid(H); !ok) return ok.error();
    if (H.rows == 0 || H.cols == 0) return Heatmap{blank_image(1, 1, kBackground), HeatmapLayout{}, ColorScale{}};
    for (const Cell& c : path) {
        if (c.i < 0 || c.i >= H.rows || c.j < 0 || c.j >= H.cols) {
            return usage_error("heatmap: path cell (" + std::to_string(c.i) + ", " + std::to_string(c.j) +
                               ") is outside the " + std::to_string(H.rows) + " x " + std::to_string(H.cols) +
                               " matrix");
        }
    }
    try {
        const ValueRange range = opt.range ? *opt.range : value_range(H);
        const ColorScale scale = make_color_scale(range, opt);
        const Plan p = plan_layout(H.rows, H.cols, range, opt);
        const HeatmapLayout& L = p.layout;
        const int s = L.text_scale;

        Image img = blank_image(L.width, L.height, kBackground);
        colorize_into(H, scale, img, L.matrix, opt.pool_lowest);
        frame_rect(img, L.matrix, kFrame);
        if (opt.draw_path && !path.empty()) draw_path(img, p, H.rows, H.cols, path, path_style(scale.map));
        if (opt.colorbar) draw_colorbar(img, p, range, scale);

        draw_text(img, L.matrix.x, p.margin, p.top_label, s, kText);
        draw_text(img, p.margin, L.matrix.y, p.left_label, s, kText, Orientation::down);
        for (size_t k = 0; k < p.caption_lines.size(); ++k) {
            draw_text(img, L.caption.x, L.caption.y + static_cast<int>(k) * p.line, p.caption_lines[k], s, kText);
        }
        return Heatmap{std::move(img), L, scale};
    } catch (const std::bad_alloc&) {
        return resource_error("heatmap: not enough memory for the image of a " + std::to_string(H.rows) + " x " +
                              std::to_string(H.cols) + " matrix");
    }
}

Expected<Image> compose_heatmap(const Grid<int32_t>& H, const std::vector<Cell>& path, const HeatmapOptions& opt) {
    Expected<Heatmap> h = compose_heatmap_with_layout(H, path, opt);
    if (!h) return h.error();
    return std::move(h->image);
}

}  // namespace dpviz::render
