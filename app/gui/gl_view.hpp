// The frame loop's GL side: keeps the matrix texture in step with what the matrix panel asks
// for (render/ does the pixels, through the host or the interop path), and reads the window
// back for screenshots. Needs the GL context current.
#pragma once

#include <cstdint>
#include <string>

#include "dpviz/expected.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"
#include "dpviz/render/heatmap.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

class GlView {
public:
    // Creates the texture; interop is tried when this build has CUDA (prefer_interop).
    Status init(AppState& s, bool prefer_interop);
    // Redraws the texture when the wanted region, the result, the layer, the colormap or the
    // mask changed; publishes what it holds in s.view.texture.
    void update(AppState& s);
    void release() { texture_ = {}; }

private:
    render::MatrixTexture texture_;
    render::ColorLut lut_;
    uint64_t lut_key_result_ = 0;
    int lut_key_layer_ = -1;
    render::ColorScale lut_key_scale_;
    uint64_t lut_version_ = 0;
    render::TexelRequest drawn_;
    uint64_t drawn_values_ = 0, drawn_lut_ = 0;
};

// The window's back buffer (call after rendering, before the swap), top row first.
render::Image read_framebuffer(int width, int height);
// True when every pixel is (nearly) one color: nothing was drawn.
bool image_is_blank(const render::Image& img);

}  // namespace dpviz::gui
