// Colormaps: matplotlib's viridis and magma (anchor tables), grayscale and a ColorBrewer diverging
// map. Pure functions of t, so the GUI, PNG export and any device-side port agree pixel for pixel.
#include "dpviz/render/colormap.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>

namespace dpviz::render {

namespace {

struct Anchor {
    float r, g, b;  // 0..1, sRGB
};

// ColorBrewer RdBu, 11 classes, reversed so that low values are blue (Cynthia Brewer, colorbrewer2.org).
constexpr std::array<Anchor, 11> kDiverging = {{
    {5 / 255.f, 48 / 255.f, 97 / 255.f},     // #053061
    {33 / 255.f, 102 / 255.f, 172 / 255.f},  // #2166ac
    {67 / 255.f, 147 / 255.f, 195 / 255.f},  // #4393c3
    {146 / 255.f, 197 / 255.f, 222 / 255.f}, // #92c5de
    {209 / 255.f, 229 / 255.f, 240 / 255.f}, // #d1e5f0
    {247 / 255.f, 247 / 255.f, 247 / 255.f}, // #f7f7f7
    {253 / 255.f, 219 / 255.f, 199 / 255.f}, // #fddbc7
    {244 / 255.f, 165 / 255.f, 130 / 255.f}, // #f4a582
    {214 / 255.f, 96 / 255.f, 77 / 255.f},   // #d6604d
    {178 / 255.f, 24 / 255.f, 43 / 255.f},   // #b2182b
    {103 / 255.f, 0 / 255.f, 31 / 255.f},    // #67001f
}};

// Viridis, then magma: entries round(255 k / 32), k = 0..32 (the index is in each comment), of
// matplotlib's 256-entry tables (_cm_listed.py; maps by van der Walt and Smith). Linear
// interpolation between them stays within 2/255 of the full table.
constexpr std::array<Anchor, 33> kViridis = {{
    {0.267004f, 0.004874f, 0.329415f},  // 0
    {0.277018f, 0.050344f, 0.375715f},  // 8
    {0.282327f, 0.094955f, 0.417331f},  // 16
    {0.282884f, 0.135920f, 0.453427f},  // 24
    {0.278826f, 0.175490f, 0.483397f},  // 32
    {0.270595f, 0.214069f, 0.507052f},  // 40
    {0.258965f, 0.251537f, 0.524736f},  // 48
    {0.244972f, 0.287675f, 0.537260f},  // 56
    {0.229739f, 0.322361f, 0.545706f},  // 64
    {0.214298f, 0.355619f, 0.551184f},  // 72
    {0.199430f, 0.387607f, 0.554642f},  // 80
    {0.185556f, 0.418570f, 0.556753f},  // 88
    {0.172719f, 0.448791f, 0.557885f},  // 96
    {0.160665f, 0.478540f, 0.558115f},  // 104
    {0.149039f, 0.508051f, 0.557250f},  // 112
    {0.137770f, 0.537492f, 0.554906f},  // 120
    {0.127568f, 0.566949f, 0.550556f},  // 128
    {0.121148f, 0.592739f, 0.544641f},  // 135
    {0.120081f, 0.622161f, 0.534946f},  // 143
    {0.130067f, 0.651384f, 0.521608f},  // 151
    {0.153894f, 0.680203f, 0.504172f},  // 159
    {0.191090f, 0.708366f, 0.482284f},  // 167
    {0.239374f, 0.735588f, 0.455688f},  // 175
    {0.296479f, 0.761561f, 0.424223f},  // 183
    {0.360741f, 0.785964f, 0.387814f},  // 191
    {0.430983f, 0.808473f, 0.346476f},  // 199
    {0.506271f, 0.828786f, 0.300362f},  // 207
    {0.585678f, 0.846661f, 0.249897f},  // 215
    {0.668054f, 0.861999f, 0.196293f},  // 223
    {0.751884f, 0.874951f, 0.143228f},  // 231
    {0.835270f, 0.886029f, 0.102646f},  // 239
    {0.916242f, 0.896091f, 0.100717f},  // 247
    {0.993248f, 0.906157f, 0.143936f},  // 255
}}, kMagma = {{
    {0.001462f, 0.000466f, 0.013866f},  // 0
    {0.013708f, 0.011771f, 0.068667f},  // 8
    {0.039608f, 0.031090f, 0.133515f},  // 16
    {0.074257f, 0.052017f, 0.202660f},  // 24
    {0.113094f, 0.065492f, 0.276784f},  // 32
    {0.159018f, 0.068354f, 0.352688f},  // 40
    {0.211718f, 0.061992f, 0.418647f},  // 48
    {0.265447f, 0.060237f, 0.461840f},  // 56
    {0.316654f, 0.071690f, 0.485380f},  // 64
    {0.366012f, 0.090314f, 0.497960f},  // 72
    {0.414709f, 0.110431f, 0.504662f},  // 80
    {0.463508f, 0.129893f, 0.507652f},  // 88
    {0.512831f, 0.148179f, 0.507648f},  // 96
    {0.562866f, 0.165368f, 0.504692f},  // 104
    {0.613617f, 0.181811f, 0.498536f},  // 112
    {0.664915f, 0.198075f, 0.488836f},  // 120
    {0.716387f, 0.214982f, 0.475290f},  // 128
    {0.761077f, 0.231214f, 0.460162f},  // 135
    {0.810855f, 0.252861f, 0.439305f},  // 143
    {0.857763f, 0.279857f, 0.415496f},  // 151
    {0.899552f, 0.314616f, 0.391037f},  // 159
    {0.933606f, 0.358764f, 0.370541f},  // 167
    {0.958464f, 0.411324f, 0.360014f},  // 175
    {0.975082f, 0.468861f, 0.363111f},  // 183
    {0.985693f, 0.528148f, 0.379371f},  // 191
    {0.992196f, 0.587502f, 0.406299f},  // 199
    {0.995810f, 0.646344f, 0.441361f},  // 207
    {0.997254f, 0.704611f, 0.482635f},  // 215
    {0.997019f, 0.762398f, 0.528821f},  // 223
    {0.995424f, 0.819875f, 0.579140f},  // 231
    {0.992831f, 0.877168f, 0.633109f},  // 239
    {0.989815f, 0.934329f, 0.690198f},  // 247
    {0.987053f, 0.991438f, 0.749504f},  // 255
}};

// Each map's name, then the other spellings parse_colormap takes.
constexpr std::pair<std::string_view, Colormap> kNames[] = {
    {"viridis", Colormap::viridis},     {"magma", Colormap::magma}, {"grayscale", Colormap::grayscale},
    {"diverging", Colormap::diverging}, {"gray", Colormap::grayscale}, {"grey", Colormap::grayscale},
};

uint8_t to_byte(float v) { return static_cast<uint8_t>(std::lround(std::clamp(v, 0.f, 1.f) * 255.f)); }

template <size_t N>
Rgb interpolate(const std::array<Anchor, N>& table, float t) {
    const float x = t * static_cast<float>(N - 1);
    const size_t k = std::min(static_cast<size_t>(x), N - 2);
    const float f = x - static_cast<float>(k);
    const Anchor& a = table[k];
    const Anchor& b = table[k + 1];
    return {to_byte(a.r + (b.r - a.r) * f), to_byte(a.g + (b.g - a.g) * f), to_byte(a.b + (b.b - a.b) * f)};
}

}  // namespace

std::optional<Colormap> parse_colormap(std::string_view s) {
    std::string lower(s);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    for (const auto& [name, map] : kNames)
        if (lower == name) return map;
    return std::nullopt;
}

std::string_view colormap_name(Colormap c) {
    for (const auto& [name, map] : kNames)
        if (map == c) return name;
    return "viridis";
}

Rgb colorize(Colormap c, float t) {
    t = std::isnan(t) ? 0.f : std::clamp(t, 0.f, 1.f);
    switch (c) {
        case Colormap::viridis: return interpolate(kViridis, t);
        case Colormap::magma: return interpolate(kMagma, t);
        case Colormap::diverging: return interpolate(kDiverging, t);
        case Colormap::grayscale: {
            const uint8_t v = to_byte(t);
            return {v, v, v};
        }
    }
    return {};
}

Rgb unreachable_color(Colormap c) {
    return c == Colormap::grayscale ? Rgb{90, 30, 30} : Rgb{64, 64, 64};
}

PathStyle path_style(Colormap c) {
    switch (c) {
        case Colormap::viridis: return {{255, 255, 255}, {0, 0, 0}};
        case Colormap::magma: return {{0, 230, 255}, {0, 0, 0}};
        case Colormap::grayscale: return {{255, 40, 40}, {0, 0, 0}};
        case Colormap::diverging: return {{0, 0, 0}, {255, 255, 255}};
    }
    return {{255, 255, 255}, {0, 0, 0}};
}

}  // namespace dpviz::render
