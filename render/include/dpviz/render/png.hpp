// PNG export via stb_image_write: written to a temporary file in the same folder, then renamed,
// so a failed write never leaves a partial or clobbered file.
#pragma once

#include <string>

#include "dpviz/expected.hpp"
#include "dpviz/render/heatmap.hpp"

namespace dpviz::render {

// Writes img (8-bit RGB) to `path`, replacing an existing file in one rename: readers see the old
// file or the new one, never a mix. Whether replacing is allowed is the caller's decision.
// Errors: resource ("cannot write PATH: REASON", the temporary removed) for any I/O failure;
// usage for an empty path or an image whose pixel buffer does not match its size.
Status write_png_atomic(const Image& img, const std::string& path);

}  // namespace dpviz::render
