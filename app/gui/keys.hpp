// Key codes the panels test with ImGui::IsKeyPressed: ImGui 1.86's io.KeysDown[] is indexed by the
// platform backend's codes, GLFW's here (gui.cpp checks these against GLFW's names). Panels do
// not include GLFW; the headless tests press keys through the same numbers.
#pragma once

namespace dpviz::gui {

inline constexpr int kKey0 = 48;               // GLFW_KEY_0
inline constexpr int kKeyMinus = 45;           // GLFW_KEY_MINUS
inline constexpr int kKeyEqual = 61;           // GLFW_KEY_EQUAL (the + key, shifted)
inline constexpr int kKeyC = 67;               // GLFW_KEY_C
inline constexpr int kKeyG = 71;               // GLFW_KEY_G
inline constexpr int kKeyKeypad0 = 320;        // GLFW_KEY_KP_0
inline constexpr int kKeyKeypadSubtract = 333;  // GLFW_KEY_KP_SUBTRACT
inline constexpr int kKeyKeypadAdd = 334;      // GLFW_KEY_KP_ADD

}  // namespace dpviz::gui
