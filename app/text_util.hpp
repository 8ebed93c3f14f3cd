// Small text helpers shared by the readers: user-supplied tokens quoted safely for one-line messages.
#pragma once

#include <string>
#include <string_view>

namespace dpviz::app {

// A user-supplied token, printable and short enough for a one-line message: 'abc', 'x?y', 'long...'.
inline std::string show_token(std::string_view s) {
    constexpr size_t kMaxShown = 24;
    std::string out = "'";
    for (size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        out += (c >= 0x20 && c < 0x7f) ? char(c) : '?';
    }
    if (s.size() > kMaxShown) out += "...";
    return out + "'";
}

}  // namespace dpviz::app
