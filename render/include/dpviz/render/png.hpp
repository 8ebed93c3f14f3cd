// PNG export via stb_image_write: written to a temporary file in the same folder, then renamed,
// so a failed write never leaves a partial or clobbered file.
#pragma once

#include <string>

#include "dpviz/expected.hpp"
#include "dpviz/render/heatmap.hpp"

namespace dpviz::render {

Status write_png_atomic(const Image& img, const std::string& path);

}  // namespace dpviz::render
