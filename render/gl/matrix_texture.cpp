// The matrix view's GL texture: allocation, growth, and the choice between the host upload
// path and the CUDA-GL interop writer (tried once per registration, host on any failure).
#include <glad/gl.h>  // before anything that may include <GL/gl.h>

#include "dpviz/render/gl_matrix_texture.hpp"

#include <algorithm>
#include <vector>

#include "interop.hpp"

namespace dpviz::render {

const char* upload_path_name(UploadPath p) {
    return p == UploadPath::cuda_interop ? "CUDA-GL interop" : "host";
}

struct MatrixTexture::Impl {
    GLuint tex = 0;
    int w = 0, h = 0;
    bool prefer_interop = false;
    std::unique_ptr<InteropWriter> interop;
    std::string note;
    std::vector<uint32_t> staging;  // host path: one view's texels

    ~Impl() {
        interop.reset();  // unregister before the texture goes away
        if (tex) glDeleteTextures(1, &tex);
    }

    Status allocate(int width, int height) {
        interop.reset();
        if (!tex) glGenTextures(1, &tex);
        if (!tex) return resource_error("glGenTextures failed (no current GL context?)");
        w = width;
        h = height;
        glBindTexture(GL_TEXTURE_2D, tex);
        // Nearest: a zoomed-in cell stays a crisp square; zoomed out, pooling already did the work.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        if (const GLenum e = glGetError(); e != GL_NO_ERROR)
            return resource_error("glTexImage2D " + std::to_string(w) + "x" + std::to_string(h) + " failed (GL error " +
                                  std::to_string(e) + ")");
        if (prefer_interop) {
            auto writer = make_interop_writer(tex);
            if (writer) {
                interop = std::move(*writer);
                note = interop->device_name();
            } else {
                note = writer.error().message;
                prefer_interop = false;  // one failed registration is enough to know
            }
        } else if (note.empty()) {
            note = interop_compiled() ? "interop not requested" : "built without CUDA";
        }
        return Ok{};
    }

    Status draw_host(const ViewSource& src, const TexelRequest& req) {
        staging.resize(size_t(req.out_w) * req.out_h);
        MatrixTexture::draw_host(src, req, staging.data(), req.out_w);
        glBindTexture(GL_TEXTURE_2D, tex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, req.out_w, req.out_h, GL_RGBA, GL_UNSIGNED_BYTE, staging.data());
        if (const GLenum e = glGetError(); e != GL_NO_ERROR)
            return resource_error("glTexSubImage2D failed (GL error " + std::to_string(e) + ")");
        return Ok{};
    }
};

MatrixTexture::MatrixTexture() = default;
MatrixTexture::~MatrixTexture() = default;
MatrixTexture::MatrixTexture(MatrixTexture&&) noexcept = default;
MatrixTexture& MatrixTexture::operator=(MatrixTexture&&) noexcept = default;

Expected<MatrixTexture> MatrixTexture::create(int width, int height, bool prefer_interop) {
    MatrixTexture t;
    t.impl_ = std::make_unique<Impl>();
    t.impl_->prefer_interop = prefer_interop;
    if (Status s = t.impl_->allocate(std::max(width, 1), std::max(height, 1)); !s) return s.error();
    return t;
}

Status MatrixTexture::draw(const ViewSource& src, const TexelRequest& req) {
    if (!impl_) return resource_error("matrix texture not created");
    if ((!src.values && !src.device_values) || !src.lut || req.out_w <= 0 || req.out_h <= 0) return Ok{};
    if (req.out_w > impl_->w || req.out_h > impl_->h) {
        // Grow in 256-texel steps so a window being resized does not reallocate every frame.
        auto up = [](int v) { return (v + 255) / 256 * 256; };
        if (Status s = impl_->allocate(std::max(impl_->w, up(req.out_w)), std::max(impl_->h, up(req.out_h))); !s)
            return s;
    }
    if (impl_->interop) {
        if (Status s = impl_->interop->draw(src, req); s) return s;
        else impl_->note = "interop failed (" + s.error().message + "); host path";
        impl_->interop.reset();
        impl_->prefer_interop = false;
    }
    if (!src.values) return device_error("the matrices are in GPU memory and this texture takes the host path (" + impl_->note + ")");
    return impl_->draw_host(src, req);
}

void MatrixTexture::draw_host(const ViewSource& src, const TexelRequest& req, uint32_t* out, int32_t stride) {
    draw_view_pixels(*src.values, src.mask, *src.lut, req, out, stride);
}

std::vector<uint32_t> MatrixTexture::read_back(int w, int h) const {
    std::vector<uint32_t> all(size_t(impl_->w) * impl_->h);
    glBindTexture(GL_TEXTURE_2D, impl_->tex);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, all.data());
    std::vector<uint32_t> out(size_t(w) * h);
    for (int y = 0; y < h; ++y)
        std::copy_n(all.begin() + ptrdiff_t(y) * impl_->w, w, out.begin() + ptrdiff_t(y) * w);
    return out;
}

uint32_t MatrixTexture::gl_name() const { return impl_ ? impl_->tex : 0; }
int MatrixTexture::width() const { return impl_ ? impl_->w : 0; }
int MatrixTexture::height() const { return impl_ ? impl_->h : 0; }
UploadPath MatrixTexture::path() const {
    return impl_ && impl_->interop ? UploadPath::cuda_interop : UploadPath::host;
}
const std::string& MatrixTexture::path_note() const {
    static const std::string none;
    return impl_ ? impl_->note : none;
}

InteropSupport interop_support() {
    return {interop_compiled(), interop_compiled() ? "CUDA build: interop tried at run time" : "built without CUDA"};
}

}  // namespace dpviz::render
