// Small text helpers shared by the readers: user-supplied tokens quoted safely for one-line
// messages, a field without its blanks, and a line split into whitespace-separated tokens.
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

// Space, tab and the other blanks a line may hold (not the newline).
inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// `s` without the blanks at either end.
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

// Whitespace-separated tokens of one line, one at a time, so a line with a million tokens costs
// nothing past the one that is refused.
class Tokens {
public:
    explicit Tokens(std::string_view line) : rest_(line) {}
    bool next(std::string_view& tok) {
        size_t i = 0;
        while (i < rest_.size() && is_blank(rest_[i])) ++i;
        if (i == rest_.size()) return false;
        size_t j = i;
        while (j < rest_.size() && !is_blank(rest_[j])) ++j;
        tok = rest_.substr(i, j - i);
        rest_.remove_prefix(j);
        return true;
    }

private:
    std::string_view rest_;
};

}  // namespace dpviz::app
