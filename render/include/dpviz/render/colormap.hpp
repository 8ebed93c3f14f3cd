// Colormaps shared by PNG export and the GUI: value in [0,1] -> sRGB, plus the colors drawn on top
// of a map (unreachable cells, the traceback path) chosen so they cannot be mistaken for map values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dpviz::render {

enum class Colormap { viridis, magma, grayscale, diverging };

std::string_view colormap_name(Colormap c);                // "viridis", "magma", "grayscale", "diverging"
std::optional<Colormap> parse_colormap(std::string_view s);  // case-insensitive; "gray"/"grey" too

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

// t is clamped to [0, 1] (NaN reads as 0). Viridis and magma interpolate matplotlib's tables;
// diverging is ColorBrewer RdBu reversed: blue (0) - near-white (0.5) - red (1).
Rgb colorize(Colormap c, float t);

// Unreachable cells: dark gray, except on the grayscale map where gray is a value; there a dark
// red-brown that no map value has.
Rgb unreachable_color(Colormap c);

// The traceback path: a core line with an outline, contrasting with every value of the map.
struct PathStyle {
    Rgb core;
    Rgb outline;
};
PathStyle path_style(Colormap c);

}  // namespace dpviz::render
