// The GPU-resident view path against the host path, with a real GL context whose texture takes
// the interop path (the NVIDIA GL driver: Xvfb + NVIDIA GLX, on the device machine): for random
// problems the texture written from device memory holds exactly the host path's pixels (pooled,
// one texel per cell, with the optimal-path mask, every layer), and the path, the tooltip's
// values and the table's windows are the same. Skips without a display, without CUDA-GL interop
// (Mesa, CPU builds) or without a device. The suite is named GlTexture* so the Xvfb CTest entry
// runs it too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>

#include "dpviz/device_view.hpp"
#include "dpviz/render/gl_matrix_texture.hpp"
#include "gl_context_fixture.hpp"
#include "gui/cell_inspect.hpp"
#include "gui/compute.hpp"
#include "gui/measure.hpp"
#include "gui/panels.hpp"
#include "gui_test_util.hpp"

namespace dpviz::gui {
namespace {

using testing::pasted;

class GlTextureResident : public dpviz::testing::GlContextTest {
protected:
    void SetUp() override {
        GlContextTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto tex = render::MatrixTexture::create(64, 64, /*prefer_interop=*/true);
        ASSERT_TRUE(tex) << tex.error().message;
        if (tex->path() != render::UploadPath::cuda_interop) {
            // Where interop is promised (the device run), its absence is a failure.
            if (std::getenv("DPVIZ_REQUIRE_INTEROP")) FAIL() << "DPVIZ_REQUIRE_INTEROP: " << tex->path_note();
            GTEST_SKIP() << "no CUDA-GL interop here: " << tex->path_note();
        }
        if (!device_view_available()) GTEST_SKIP() << "no usable CUDA device";
        texture_ = std::move(*tex);
    }
    void TearDown() override {
        texture_ = {};
        GlContextTest::TearDown();
    }
    render::MatrixTexture texture_;
};

std::shared_ptr<const Computed> compute(JobRequest req, bool device) {
    req.device_view = device;
    JobContext ctx;
    JobOutcome out = run_job(req, ctx);
    EXPECT_TRUE(out.computed) << (out.error ? out.error->message : "no result");
    return out.computed;
}

void expect_same_explain(const CellExplain& a, const CellExplain& b, Cell c) {
    SCOPED_TRACE("cell (" + std::to_string(c.i) + ", " + std::to_string(c.j) + ")");
    EXPECT_EQ(a.h, b.h);
    EXPECT_EQ(a.e, b.e);
    EXPECT_EQ(a.f, b.f);
    EXPECT_EQ(a.bits, b.bits);
    ASSERT_EQ(a.h_candidates.size(), b.h_candidates.size());
    for (size_t k = 0; k < a.h_candidates.size(); ++k) {
        EXPECT_EQ(a.h_candidates[k].value, b.h_candidates[k].value) << a.h_candidates[k].label;
        EXPECT_EQ(a.h_candidates[k].won, b.h_candidates[k].won) << a.h_candidates[k].label;
    }
    ASSERT_EQ(a.e_candidates.size(), b.e_candidates.size());
    for (size_t k = 0; k < a.e_candidates.size(); ++k) EXPECT_EQ(a.e_candidates[k].value, b.e_candidates[k].value);
    ASSERT_EQ(a.f_candidates.size(), b.f_candidates.size());
    for (size_t k = 0; k < a.f_candidates.size(); ++k) EXPECT_EQ(a.f_candidates[k].value, b.f_candidates[k].value);
}

TEST_F(GlTextureResident, InteropPixelsPathAndHoverValuesEqualTheHostPath) {
    struct Config {
        Algorithm algo;
        int open, extend;
        int m;
    };
    const Config configs[] = {{Algorithm::local, 10, 1, 900}, {Algorithm::global, 3, 3, 700},
                              {Algorithm::semiglobal, 5, 2, 333}, {Algorithm::edit, 1, 1, 500},
                              {Algorithm::lcs, 1, 1, 260}};
    uint64_t seed = 1;
    // Values and LUT versions: every draw below gets new ones (braced lists evaluate left to
    // right), so the writer never keeps a LUT of another layer.
    uint64_t version = 1000;
    for (const Config& cf : configs) {
        const auto [q, t] = random_dna_pair(cf.m, seed++);
        JobRequest req;
        req.query = pasted("q", q);
        req.target = pasted("t", t);
        req.params.algo = cf.algo;
        req.params.gap_open = Hundredths::units(cf.open);
        req.params.gap_extend = Hundredths::units(cf.extend);
        req.params.backend = BackendChoice::dpx;
        const auto host = compute(req, false);
        const auto dev = compute(req, true);
        ASSERT_TRUE(host && dev);
        std::ostringstream what;
        what << algorithm_name(cf.algo) << " " << host->rows() << "x" << host->cols();
        SCOPED_TRACE(what.str());
        ASSERT_FALSE(host->resident());
        ASSERT_TRUE(dev->resident()) << dev->result.fallback;
        EXPECT_EQ(dev->result.score, host->result.score);
        EXPECT_EQ(dev->result.end, host->result.end);
        EXPECT_EQ(dev->result.path, host->result.path);
        EXPECT_EQ(dev->pair_text, host->pair_text);

        for (const Layer layer : {Layer::H, Layer::E, Layer::F}) {
            ASSERT_EQ(dev->has_layer(layer), host->has_layer(layer));
            if (!host->has_layer(layer)) continue;
            const int k = int(layer);
            // E's and F's ranges come from the device on first use.
            const render::ValueRange dr = dev->layer_range(layer), hr = host->layer_range(layer);
            EXPECT_EQ(dr.min, hr.min);
            EXPECT_EQ(dr.max, hr.max);
            EXPECT_EQ(dr.any_finite, hr.any_finite);
            EXPECT_EQ(dr.any_unreachable, hr.any_unreachable);
            render::HeatmapOptions ho;
            const render::ColorLut lut = render::ColorLut::build(render::make_color_scale(hr, ho));
            if (layer == Layer::H) {
                // The colour table both jobs built on the worker is the view's own.
                for (const Computed* c : {host.get(), dev.get()}) {
                    ASSERT_TRUE(c->lut);
                    EXPECT_EQ(c->lut_scale.map, render::make_color_scale(hr, ho).map);
                    EXPECT_EQ(c->lut->lo, lut.lo);
                    EXPECT_EQ(c->lut->span, lut.span);
                    EXPECT_EQ(c->lut->rgba, lut.rgba);
                }
            }
            const int R = host->rows(), C = host->cols();
            const render::TexelRequest reqs[] = {
                {0, 0, R, C, std::min(C, 450), std::min(R, 350), false},      // pooled
                {0, 0, R, C, std::min(C, 200), std::min(R, 150), true},       // pooled, with the mask
                {R / 3, C / 4, std::min(R - R / 3, 90), std::min(C - C / 4, 120), std::min(C - C / 4, 120),
                 std::min(R - R / 3, 90), true},                              // one texel per cell
                {0, 0, R, C, std::min(C, 7), std::min(R, 5), true},          // coarser than the top level
            };
            for (const render::TexelRequest& r : reqs) {
                const render::ViewSource hs{&host->pyramid(layer), &host->mask, &lut, ++version, version};
                render::ViewSource ds{nullptr, r.mask ? &dev->mask_pyramid() : nullptr, &lut, ++version, version};
                ds.device_values = &dev->device->levels(k);
                std::vector<uint32_t> want(size_t(r.out_w) * r.out_h);
                render::MatrixTexture::draw_host(hs, r, want.data(), r.out_w);
                ASSERT_TRUE(texture_.draw(ds, r));
                ASSERT_EQ(texture_.path(), render::UploadPath::cuda_interop);
                EXPECT_EQ(texture_.read_back(r.out_w, r.out_h), want)
                    << "layer " << k << " request " << r.i0 << "," << r.j0 << " " << r.rows << "x" << r.cols << " -> "
                    << r.out_w << "x" << r.out_h << (r.mask ? " mask" : "");
            }
        }

        // Tooltips and the table: windows of the device matrices equal the host's cells.
        std::mt19937 g{uint32_t(seed)};
        for (int n = 0; n < 40; ++n) {
            const Cell c{int(g() % uint32_t(host->rows())), int(g() % uint32_t(host->cols()))};
            expect_same_explain(explain_cell(dev->problem, dev->window(c.i, c.i + 1, c.j, c.j + 1), c),
                                explain_cell(host->problem, host->refs(), c), c);
        }
        const int i0 = host->rows() / 2, j0 = host->cols() / 3, i1 = std::min(i0 + 60, host->rows()),
                  j1 = std::min(j0 + 80, host->cols());
        const MatrixRefs w = dev->window(i0, i1, j0, j1);
        const MatrixRefs h = host->refs();
        for (int i = i0 - 1; i < i1; ++i)
            for (int j = j0 - 1; j < j1; ++j) {
                ASSERT_EQ(w.value(w.H, i, j), h.value(h.H, i, j)) << i << "," << j;
                ASSERT_EQ(w.bits(i, j), h.bits(i, j)) << i << "," << j;
            }
        // The whole-matrix copy (exports, the mask) equals the host's too.
        EXPECT_EQ(dev->grid(Layer::H).data, host->grid(Layer::H).data);
    }
}

TEST_F(GlTextureResident, A2048ViewThroughInteropEqualsTheHostPixels) {
    // A host pyramid through the interop writer (the host path's device copies), 2048 x 2048
    // texels of a 3000 x 2600 matrix with unreachable cells and a mask: every texel equal. A
    // narrow range (a table of 4,001 entries: the writer reads 16-bit table slots) and a wide one
    // (65,536 sampled entries: it reads the values), each with the values' range and a third of
    // it: a new table over the same values must give slots made again.
    uint64_t version = 70;
    for (const int32_t spread : {4001, 3'000'001}) {
        std::mt19937 g(9);
        Grid<int32_t> v;
        v.reset(3000, 2600, 0);
        for (auto& x : v.data) x = g() % 50 == 0 ? (g() % 2 ? kNegInf : kPosInf) : int32_t(g() % uint32_t(spread)) - 1500;
        Grid<uint8_t> m;
        m.reset(3000, 2600, 0);
        for (int k = 0; k < 2600; ++k) m.at(k, k) = 1;
        const render::ValuePyramid p = render::build_value_pyramid(v);
        const render::MaskPyramid mp = render::build_mask_pyramid(m);
        const uint64_t values_version = ++version;
        for (const bool clipped : {false, true}) {
            render::HeatmapOptions ho;
            ho.auto_colormap = false;
            ho.colormap = clipped ? render::Colormap::magma : render::Colormap::viridis;
            render::ColorScale scale = render::make_color_scale(render::value_range(v), ho);
            if (clipped) scale.max = scale.min + (scale.max - scale.min) / 3;  // other slots for the same values
            const render::ColorLut lut = render::ColorLut::build(scale);
            if (!clipped) EXPECT_EQ(lut.rgba.size(), size_t(std::min<int64_t>(spread, render::ColorLut::kMaxEntries)));
            const render::ViewSource src{&p, &mp, &lut, values_version, ++version};
            for (const bool mask : {false, true}) {
                const render::TexelRequest r{0, 0, 3000, 2600, 2048, 2048, mask};
                std::vector<uint32_t> want(size_t(r.out_w) * r.out_h);
                render::MatrixTexture::draw_host(src, r, want.data(), r.out_w);
                ASSERT_TRUE(texture_.draw(src, r));
                ASSERT_EQ(texture_.path(), render::UploadPath::cuda_interop);
                EXPECT_EQ(texture_.read_back(r.out_w, r.out_h), want)
                    << "spread " << spread << (clipped ? ", clipped range" : "") << (mask ? ", with the mask" : "");
            }
        }
    }
}

TEST_F(GlTextureResident, AffineLayersAndDtwToo) {
    uint64_t version = 5000;
    for (const Algorithm algo : {Algorithm::local, Algorithm::dtw}) {
        JobRequest req;
        if (algo == Algorithm::dtw) {
            std::mt19937 g(3);
            std::string a, b;
            for (int k = 0; k < 300; ++k) a += std::to_string(int(g() % 100) - 50) + "\n";
            for (int k = 0; k < 340; ++k) b += std::to_string(int(g() % 100) - 50) + "\n";
            req.query.source = req.target.source = InputSource::paste;
            req.query.pasted = a;
            req.target.pasted = b;
            req.params.band_on = true;
            req.params.band = 40;
        } else {
            const auto [q, t] = random_dna_pair(1200, 77);
            req.query = pasted("q", q);
            req.target = pasted("t", t);
            req.params.gap_open = Hundredths::units(8);
            req.params.gap_extend = Hundredths::units(2);
        }
        req.params.algo = algo;
        req.params.backend = BackendChoice::dpx_free;
        const auto host = compute(req, false);
        const auto dev = compute(req, true);
        ASSERT_TRUE(host && dev);
        ASSERT_TRUE(dev->resident()) << dev->result.fallback;
        EXPECT_EQ(dev->result.path, host->result.path);
        EXPECT_EQ(dev->result.dtw_distance, host->result.dtw_distance);
        for (const Layer layer : {Layer::H, Layer::E, Layer::F}) {
            if (!host->has_layer(layer)) continue;
            render::HeatmapOptions ho;
            const render::ColorLut lut = render::ColorLut::build(render::make_color_scale(host->range[int(layer)], ho));
            const render::TexelRequest r{0, 0, host->rows(), host->cols(), std::min(host->cols(), 333),
                                         std::min(host->rows(), 257), true};
            const render::ViewSource hs{&host->pyramid(layer), &host->mask, &lut, ++version, version};
            render::ViewSource ds{nullptr, &dev->mask_pyramid(), &lut, ++version, version};
            ds.device_values = &dev->device->levels(int(layer));
            std::vector<uint32_t> want(size_t(r.out_w) * r.out_h);
            render::MatrixTexture::draw_host(hs, r, want.data(), r.out_w);
            ASSERT_TRUE(texture_.draw(ds, r));
            EXPECT_EQ(texture_.read_back(r.out_w, r.out_h), want) << algorithm_name(algo) << " layer " << int(layer);
        }
    }
}

}  // namespace
}  // namespace dpviz::gui
