// The frame loop's GL side: keeps the matrix texture in step with what the matrix panel asks
// for (render/ does the pixels, through the host or the interop path; GPU-resident results are
// drawn from their device levels), and reads the window back for screenshots. Needs the GL
// context current.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"
#include "dpviz/render/heatmap.hpp"
#include "gui/app_state.hpp"

namespace dpviz::gui {

struct StoreWindow;

class GlView {
public:
    // Creates the texture; interop is tried when this build has CUDA (prefer_interop).
    Status init(AppState& s, bool prefer_interop);
    // Redraws the texture when the wanted region, the result, the layer, the colormap or the
    // mask changed; publishes what it holds in s.view.texture.
    void update(AppState& s);
    void release() { texture_ = {}; }

    // Milliseconds of the last view update (a new colour table when needed, then colorize +
    // upload, or map + write + unmap), and the id of the result it drew.
    double last_upload_ms() const { return last_upload_ms_; }
    uint64_t last_drawn_result() const { return drawn_result_; }
    // Draws `req` of the shown result `repeats` times (nothing cached between them but the
    // device copies and the color table) and returns each time in ms, glFinish included; the
    // texture's next update redraws the view. For --measure-upload.
    Expected<std::vector<double>> time_uploads(AppState& s, const render::TexelRequest& req, int repeats);
    // The same draws back to back, one glFinish after the last: milliseconds per draw when
    // updates follow each other (the GPU overlaps one's unmap with the next one's map).
    Expected<double> time_uploads_back_to_back(AppState& s, const render::TexelRequest& req, int repeats);
    render::UploadPath path() const { return texture_.path(); }

private:
    render::MatrixTexture texture_;
    std::shared_ptr<const render::ColorLut> lut_;
    uint64_t lut_key_result_ = 0;
    int lut_key_layer_ = -1;
    render::ColorScale lut_key_scale_;
    uint64_t lut_version_ = 0;
    render::TexelRequest drawn_;
    uint64_t drawn_values_ = 0, drawn_lut_ = 0;
    double last_upload_ms_ = 0.0;
    uint64_t drawn_result_ = 0;

    std::shared_ptr<const StoreWindow> store_window_;  // the window a store result's texture shows

    // What to draw for `want`: the source and the request in its pyramid's units (`want` itself
    // except for store results), and the cells the texels cover.
    render::ViewSource source(const AppState& s, const render::TexelRequest& want, uint64_t& values_version,
                              render::TexelRequest& local, render::TexelRequest& placed, bool* window_pending = nullptr);
};

// The window's back buffer (call after rendering, before the swap), top row first.
render::Image read_framebuffer(int width, int height);
// True when every pixel is (nearly) one color: nothing was drawn.
bool image_is_blank(const render::Image& img);

}  // namespace dpviz::gui
