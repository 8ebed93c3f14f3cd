// PNG export via stb_image_write, through an OutputFile: written to a temporary file in the same
// folder, then renamed, so a failed write never leaves a partial or clobbered file.
#pragma once

#include <string>

#include "dpviz/expected.hpp"
#include "dpviz/render/heatmap.hpp"

namespace dpviz::render {

// Writes img (8-bit RGB) to `path` ("-": standard output), replacing an existing regular file in
// one rename: readers see the old file or the new one, never a mix. A link is followed; a FIFO,
// device, socket or folder is refused. Whether replacing is allowed is the caller's decision.
// Errors: resource ("writing PATH: REASON", the temporary removed) for any I/O failure or a
// refused destination; usage for an empty path or an image whose pixels do not match its size.
Status write_png_atomic(const Image& img, const std::string& path);

}  // namespace dpviz::render
