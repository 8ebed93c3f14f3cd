// Colormaps shared by PNG export and the GUI: value in [0,1] -> sRGB.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dpviz::render {

enum class Colormap { viridis, magma, grayscale, diverging };

std::string_view colormap_name(Colormap c);
std::optional<Colormap> parse_colormap(std::string_view s);

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

// t is clamped to [0, 1]. Diverging is blue (0) - white (0.5) - red (1).
Rgb colorize(Colormap c, float t);

}  // namespace dpviz::render
