// The GL view under DPVIZ_GPU_FAULT=interop (test-only): CUDA-GL registration fails, the texture
// takes the host path, its note says why, and the pixels are the host path's. Needs a display
// (CTest runs it under Xvfb with the other GlTexture* tests); on the simulated device
// everywhere, through the real registration site too where a GPU is usable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"
#include "dpviz/fault_injection.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"
#include "dpviz/render/gl_view_pixels.hpp"
#include "dpviz/render/heatmap.hpp"
#include "gl_context_fixture.hpp"

namespace dpviz {
bool gpu_usable();  // kernels/common/gpu_dispatch.hpp (not on this target's include path)
}

namespace dpviz::render {
namespace {

using gpu_fault::ScopedFault;

class GlTextureFault : public dpviz::testing::GlContextTest {};

// The texture under `fault` draws the host path's pixels; returns its note.
std::string host_path_note(const std::string& fault) {
    const ScopedFault env(fault);
    auto tex = MatrixTexture::create(64, 64, /*prefer_interop=*/true);
    EXPECT_TRUE(tex) << tex.error().message;
    if (!tex) return "";
    EXPECT_EQ(tex->path(), UploadPath::host) << fault;
    Grid<int32_t> g;
    g.reset(9, 7, 2);
    g.at(4, 3) = 11;
    g.at(0, 6) = -5;
    HeatmapOptions opt;
    opt.auto_colormap = false;
    opt.colormap = Colormap::magma;
    const ColorLut lut = ColorLut::build(make_color_scale(value_range(g), opt));
    const ValuePyramid p = build_value_pyramid(g);
    const ViewSource src{&p, nullptr, &lut, 3, 3};
    const TexelRequest r{0, 0, 9, 7, 7, 9, false};
    EXPECT_TRUE(tex->draw(src, r));
    std::vector<uint32_t> want(size_t(r.out_w) * r.out_h);
    MatrixTexture::draw_host(src, r, want.data(), r.out_w);
    EXPECT_EQ(tex->read_back(r.out_w, r.out_h), want) << fault;
    return tex->path_note();
}

bool real_gpu() {
    const ScopedFault none("");
    return gpu_usable();
}

TEST_F(GlTextureFault, InjectedRegistrationFailureTakesTheHostPathAndSaysWhy) {
    std::vector<std::string> faults = {"simulate,interop"};
    if (real_gpu()) faults.push_back("interop");  // the real cudaGraphicsGLRegisterImage site
    for (const std::string& fault : faults) {
        const std::string note = host_path_note(fault);
        EXPECT_NE(note.find("CUDA cannot register the GL texture"), std::string::npos) << fault << ": " << note;
        EXPECT_NE(note.find(gpu_fault::injected_note("interop")), std::string::npos) << fault << ": " << note;
        EXPECT_NE(note.find("host upload path"), std::string::npos) << fault << ": " << note;
    }
}

TEST_F(GlTextureFault, TheSimulatedDeviceHasNoInterop) {
    const std::string note = host_path_note("simulate");
    EXPECT_NE(note.find("no CUDA-GL interop"), std::string::npos) << note;
}

}  // namespace
}  // namespace dpviz::render
