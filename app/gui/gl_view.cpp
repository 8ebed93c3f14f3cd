// GL side of the frame loop (see gl_view.hpp).
#include <glad/gl.h>

#include "gui/gl_view.hpp"

#include <algorithm>
#include <chrono>

#include "gui/compute.hpp"
#include "gui/panels.hpp"

namespace dpviz::gui {

Status GlView::init(AppState& s, bool prefer_interop) {
    auto t = render::MatrixTexture::create(1024, 1024, prefer_interop);
    if (!t) return t.error();
    texture_ = std::move(*t);
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    s.system.gl_renderer = std::string(renderer ? renderer : "?") + ", GL " + (version ? version : "?");
    s.system.upload_path = render::upload_path_name(texture_.path());
    s.system.upload_note = texture_.path_note();
    s.system.device_view = texture_.path() == render::UploadPath::cuda_interop;
    return Ok{};
}

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

render::ViewSource GlView::source(const AppState& s, const render::TexelRequest& want, uint64_t& values_version,
                                  render::TexelRequest& local, render::TexelRequest& placed, bool* window_pending) {
    const Computed& c = *s.result;
    const Layer layer = c.shown_layer(s.view.layer);
    const render::ColorScale scale = view_color_scale(s);
    const auto same = [](const render::ColorScale& a, const render::ColorScale& b) {
        return a.map == b.map && a.min == b.min && a.max == b.max;
    };
    if (c.id != lut_key_result_ || int(layer) != lut_key_layer_ || !same(scale, lut_key_scale_)) {
        // The job built H's table for the colormap it was asked for; another layer or colormap
        // is built here.
        if (c.lut && layer == Layer::H && same(scale, c.lut_scale)) lut_ = c.lut;
        else lut_ = std::make_shared<const render::ColorLut>(render::ColorLut::build(scale));
        lut_key_result_ = c.id;
        lut_key_layer_ = int(layer);
        lut_key_scale_ = scale;
        ++lut_version_;
    }
    // A GPU-resident result builds its optimal-path mask on first use (from a host copy).
    const bool want_mask = s.view.wanted.mask;
    const render::MaskPyramid* mask = want_mask || c.mask_ready() ? &c.mask_pyramid() : nullptr;
    // A store result's mask is the landscape's co-optimal cells once it is built: new values then.
    const bool land = c.landscape() != nullptr;
    values_version = ((c.id * 4 + uint64_t(layer)) * 2 + (land ? 1 : 0)) * 2 + (mask ? 1 : 0);
    render::ViewSource src{nullptr, mask, lut_.get(), values_version, lut_version_};
    local = placed = want;
    if (c.resident() && layer != Layer::landscape) {
        src.device_values = &c.device->levels(int(layer));
    } else if (c.stored()) {
        // The overview, or the visible window recomputed exactly (a new window: new values).
        const StoreDraw d = store_draw(c, want, false, land && (layer == Layer::landscape || want_mask));
        store_window_ = d.window;
        if (window_pending) *window_pending = d.window_pending;
        local = d.local;
        placed = d.placed;
        src.values = d.window ? &d.window->pyramid(layer) : &c.pyramid(layer);
        if (mask) src.mask = d.window ? &d.window->mask : mask;
        if (d.window) values_version = src.values_version = values_version + (d.window->version << 32);
    } else {
        src.values = &c.pyramid(layer);
    }
    return src;
}

void GlView::update(AppState& s) {
    TextureContent& out = s.view.texture;
    if (!s.result || s.view.wanted.rows <= 0 || s.view.wanted.out_w <= 0) return;
    const Computed& c = *s.result;
    const auto t0 = std::chrono::steady_clock::now();  // the colour table (when new) and the texture
    uint64_t values_version = 0;
    const render::TexelRequest& want = s.view.wanted;
    render::TexelRequest local, placed;
    bool window_pending = false;
    const render::ViewSource src = source(s, want, values_version, local, placed, &window_pending);
    if (want == drawn_ && values_version == drawn_values_ && lut_version_ == drawn_lut_)
        out.window_pending = window_pending;
    if (want == drawn_ && values_version == drawn_values_ && lut_version_ == drawn_lut_) return;

    if (Status st = texture_.draw(src, local); !st) {
        s.error = "matrix view: " + st.error().message;
        // The texture left the interop path: a GPU-resident result cannot be drawn any more, so
        // it is computed again on the host path.
        s.system.device_view = texture_.path() == render::UploadPath::cuda_interop;
        s.system.upload_path = render::upload_path_name(texture_.path());
        s.system.upload_note = texture_.path_note();
        if (c.resident() && !s.system.device_view) s.requests.compute = true;
        return;
    }
    last_upload_ms_ = ms_since(t0);
    drawn_result_ = c.id;
    drawn_ = want;
    drawn_values_ = values_version;
    drawn_lut_ = lut_version_;
    out.gl_name = texture_.gl_name();
    out.drawn = want;
    out.placed = placed;
    out.window_pending = window_pending;
    out.u1 = float(local.out_w) / float(texture_.width());
    out.v1 = float(local.out_h) / float(texture_.height());
    out.result_id = c.id;
    out.matrix_rows = c.rows();
    out.matrix_cols = c.cols();
    s.system.upload_path = render::upload_path_name(texture_.path());
    s.system.upload_note = texture_.path_note();
    s.system.device_view = texture_.path() == render::UploadPath::cuda_interop;
}

Expected<std::vector<double>> GlView::time_uploads(AppState& s, const render::TexelRequest& req, int repeats) {
    if (!s.result) return usage_error("no result to draw");
    uint64_t values_version = 0;
    render::TexelRequest local, placed;
    const render::ViewSource src = source(s, req, values_version, local, placed);
    std::vector<double> ms;
    for (int k = 0; k < repeats + 1; ++k) {  // the first draw uploads device copies: not timed
        glFinish();
        const auto t0 = std::chrono::steady_clock::now();
        if (Status st = texture_.draw(src, local); !st) return st.error();
        glFinish();
        if (k > 0) ms.push_back(ms_since(t0));
    }
    drawn_ = {};  // the view is redrawn on the next update (and is not "on screen" until then)
    s.view.texture.result_id = 0;
    return ms;
}

Expected<double> GlView::time_uploads_back_to_back(AppState& s, const render::TexelRequest& req, int repeats) {
    if (!s.result) return usage_error("no result to draw");
    uint64_t values_version = 0;
    render::TexelRequest local, placed;
    const render::ViewSource src = source(s, req, values_version, local, placed);
    if (Status st = texture_.draw(src, local); !st) return st.error();  // device copies: not timed
    glFinish();
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < repeats; ++k)
        if (Status st = texture_.draw(src, local); !st) return st.error();
    glFinish();
    const double ms = ms_since(t0) / std::max(repeats, 1);
    drawn_ = {};
    s.view.texture.result_id = 0;
    return ms;
}

render::Image read_framebuffer(int width, int height) {
    render::Image img;
    img.width = width;
    img.height = height;
    std::vector<uint8_t> raw(size_t(width) * height * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, raw.data());
    img.rgb.resize(raw.size());
    const size_t row = size_t(width) * 3;
    for (int y = 0; y < height; ++y)  // GL's first row is the bottom one
        std::copy_n(raw.begin() + ptrdiff_t(size_t(height - 1 - y) * row), row, img.rgb.begin() + ptrdiff_t(size_t(y) * row));
    return img;
}

bool image_is_blank(const render::Image& img) {
    if (img.rgb.empty()) return true;
    uint8_t lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (size_t k = 0; k < img.rgb.size(); ++k) {
        lo[k % 3] = std::min(lo[k % 3], img.rgb[k]);
        hi[k % 3] = std::max(hi[k % 3], img.rgb[k]);
    }
    for (int ch = 0; ch < 3; ++ch)
        if (hi[ch] - lo[ch] > 8) return false;
    return true;
}

}  // namespace dpviz::gui
