// A hidden GLFW window with a current OpenGL 3.3 core context (glad loaded), for the GlTexture*
// suites, and a read-back of the matrix panel's texture. Without a display the test is skipped, except where DPVIZ_REQUIRE_GL promises one (the
// Xvfb CTest entry, the device run): then it fails.
#pragma once

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gui/app_state.hpp"

namespace dpviz::testing {

// The texels the frame loop drew for the matrix panel (TextureContent::placed's out_w x out_h,
// top-left of the texture), read back from GL.
inline std::vector<uint32_t> texture_texels(const gui::TextureContent& t) {
    const int w = int(std::lround(t.placed.out_w / t.u1)), h = int(std::lround(t.placed.out_h / t.v1));
    std::vector<uint32_t> all(size_t(w) * h), out;
    glBindTexture(GL_TEXTURE_2D, GLuint(t.gl_name));
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, all.data());
    for (int y = 0; y < t.placed.out_h; ++y)
        out.insert(out.end(), all.begin() + ptrdiff_t(y) * w, all.begin() + ptrdiff_t(y) * w + t.placed.out_w);
    return out;
}

class GlContextTest : public ::testing::Test {
protected:
    void SetUp() override {
        const bool required = std::getenv("DPVIZ_REQUIRE_GL") != nullptr;
        if (!std::getenv("DISPLAY")) {
            if (required) FAIL() << "DPVIZ_REQUIRE_GL is set but there is no DISPLAY";
            GTEST_SKIP() << "no display (CTest runs this under Xvfb too)";
        }
        glfwSetErrorCallback(+[](int code, const char* what) { last_glfw_error() = std::to_string(code) + " " + what; });
        if (!glfwInit()) {
            if (required) FAIL() << "GLFW cannot start: " << last_glfw_error();
            GTEST_SKIP() << "GLFW cannot start";
        }
        glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        window_ = glfwCreateWindow(64, 64, "dpviz test", nullptr, nullptr);
        if (!window_) {
            if (required) FAIL() << "no GL 3.3 core context";
            GTEST_SKIP() << "no GL 3.3 core context";
        }
        glfwMakeContextCurrent(window_);
        ASSERT_TRUE(gladLoadGL(glfwGetProcAddress));
    }
    void TearDown() override {
        if (window_) glfwDestroyWindow(window_);
        glfwTerminate();
    }
    GLFWwindow* window_ = nullptr;

private:
    static std::string& last_glfw_error() {
        static std::string text;
        return text;
    }
};

}  // namespace dpviz::testing
