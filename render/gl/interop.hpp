// The seam between the GL texture and the CUDA-GL interop writer. No CUDA types: the CUDA
// build implements it in cuda_interop.cu, other builds in no_interop.cpp ("built without CUDA").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dpviz/expected.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"

namespace dpviz::render {

class InteropWriter {
public:
    virtual ~InteropWriter() = default;
    // Maps the registered texture, writes req's texels with the same texel_color as the host
    // path, unmaps. Device copies of the pyramid and table follow the versions in `src`.
    virtual Status draw(const ViewSource& src, const TexelRequest& req) = 0;
    virtual const std::string& device_name() const = 0;
};

bool interop_compiled();
// Registers the GL_TEXTURE_2D `texture` (RGBA8) once. Device errors (no GPU, a GL context the
// CUDA driver cannot share, such as Mesa's) come back as ErrorKind::device.
Expected<std::unique_ptr<InteropWriter>> make_interop_writer(uint32_t texture);

}  // namespace dpviz::render
