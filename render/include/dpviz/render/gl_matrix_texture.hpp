// The matrix view's GL texture (RGBA8) and its two upload paths with identical pixels:
//   host  - draw_view_pixels() on the CPU, then glTexSubImage2D;
//   cuda  - CUDA-GL interop: the texture is registered once, then each update maps it, a kernel
//           writes the texels through a surface object, and it is unmapped (CUDA builds only).
// The path is chosen at run time: interop when this build has CUDA and registration works
// (it does not on Mesa), else host. Needs a current GL 3.3 context with glad loaded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpviz/device_view.hpp"
#include "dpviz/expected.hpp"
#include "dpviz/render/gl_view_pixels.hpp"

namespace dpviz::render {

enum class UploadPath { host, cuda_interop };
const char* upload_path_name(UploadPath p);  // "host", "CUDA-GL interop"

// What a view is drawn from. The versions identify the contents: the interop path keeps device
// copies and re-uploads one only when its version changes. The pointees are borrowed for the call.
// The GPU-resident path gives `device_values` (levels already in device memory, same pooling)
// instead of `values`: the interop path reads them where they are; the host path cannot.
struct ViewSource {
    const ValuePyramid* values = nullptr;
    const MaskPyramid* mask = nullptr;  // may be null
    const ColorLut* lut = nullptr;
    uint64_t values_version = 0;        // values and mask
    uint64_t lut_version = 0;
    const std::vector<DeviceLevel>* device_values = nullptr;
};

// Whether this build can use CUDA-GL interop, and (if it was probed) on which device.
struct InteropSupport {
    bool compiled = false;
    std::string note;  // "built without CUDA", the registration error, or the device name
};

class MatrixTexture {
public:
    MatrixTexture();
    ~MatrixTexture();
    MatrixTexture(MatrixTexture&&) noexcept;
    MatrixTexture& operator=(MatrixTexture&&) noexcept;

    // A texture of at least width x height texels. With prefer_interop, tries to register it
    // with CUDA; a failure is not an error (the host path is used, and path_note() says why).
    static Expected<MatrixTexture> create(int width, int height, bool prefer_interop);

    // Draws the view into the texture's top-left req.out_w x req.out_h texels. Grows the
    // texture (re-registering it) when the request is larger. An interop failure switches this
    // texture to the host path for good and draws there (a device-only source then fails: the
    // caller recomputes on the host path).
    Status draw(const ViewSource& src, const TexelRequest& req);

    uint32_t gl_name() const;
    int width() const;    // allocated texels
    int height() const;
    UploadPath path() const;
    const std::string& path_note() const;  // why the host path, or the CUDA device's name

    // The host path into a caller buffer (tests compare it with the texture and the interop path).
    static void draw_host(const ViewSource& src, const TexelRequest& req, uint32_t* out, int32_t stride);
    // Reads back the top-left w x h texels (glGetTexImage of the whole texture; tests only).
    std::vector<uint32_t> read_back(int w, int h) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

InteropSupport interop_support();

}  // namespace dpviz::render
