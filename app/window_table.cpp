#include "window_table.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz::app {
namespace {

// A non-negative decimal integer filling `text`.
bool whole_number(std::string_view text, int64_t& v) {
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc{} && end == text.data() + text.size() && v >= 0;
}

// "A:B" -> [A, B) within [0, limit].
Status parse_range(std::string_view text, int64_t limit, const char* what, int32_t& lo, int32_t& hi) {
    const size_t colon = text.find(':');
    int64_t a = 0, b = 0;
    if (colon == std::string_view::npos || !whole_number(text.substr(0, colon), a) ||
        !whole_number(text.substr(colon + 1), b))
        return usage_error(std::string("--region: the ") + what + " '" + std::string(text) +
                           "' is not START:END (0-based, end exclusive)");
    if (a >= b || b > limit)
        return usage_error(std::string("--region: ") + what + " " + std::to_string(a) + ":" + std::to_string(b) +
                           " is not a non-empty range within 0:" + std::to_string(limit));
    lo = int32_t(a);
    hi = int32_t(b);
    return Ok{};
}

std::string cell_value(const Problem& p, int32_t v) {
    if (v <= -kScoreBound) return "-inf";
    if (v >= kScoreBound) return "inf";
    if (p.algo == Algorithm::viterbi && p.hmm_fixed) {
        // ln p exactly: a fixed-point value is a dyadic fraction, so the shortest decimal that
        // reads back as the same double is H / 2^scale_log2 itself (value_text rounds, for views).
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, std::ldexp(double(v), -p.hmm_fixed->scale_log2));
        return std::string(buf, r.ptr);
    }
    return value_text(p, v);
}

}  // namespace

Window whole_matrix(const Problem& p) { return {0, p.rows() + 1, 0, p.cols() + 1}; }

Expected<Window> parse_region(std::string_view text, const Problem& p) {
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos)
        return usage_error("--region '" + std::string(text) + "' is not I0:I1,J0:J1 (matrix rows and columns)");
    Window w;
    if (Status s = parse_range(text.substr(0, comma), int64_t(p.rows()) + 1, "rows", w.i0, w.i1); !s) return s.error();
    if (Status s = parse_range(text.substr(comma + 1), int64_t(p.cols()) + 1, "columns", w.j0, w.j1); !s)
        return s.error();
    return w;
}

WindowValues cut_window(const Problem& p, const DpResult& r, Window w) {
    WindowValues v;
    v.w = w;
    auto take = [&](const auto& g, auto& out) {
        if (g.empty()) return;
        out.reset(w.rows(), w.cols(), {});
        for (int32_t i = w.i0; i < w.i1; ++i)
            for (int32_t j = w.j0; j < w.j1; ++j) out.at(i - w.i0, j - w.j0) = g.at(i, j);
    };
    take(r.H, v.H);
    take(r.dirs, v.dirs);
    take(r.back, v.back);  // Viterbi
    if (p.affine()) {
        take(r.E, v.E);
        take(r.F, v.F);
    }
    return v;
}

std::string format_window_table(const Problem& p, const WindowValues& v) {
    const bool affine = !v.E.empty(), bits = !v.dirs.empty(), back = !v.back.empty();
    std::ostringstream o;
    if (back) o << "i\tj\tH\tback\n";  // a trellis: its predecessor rows in place of bits
    else if (!bits) o << "i\tj\tL\n";  // the landscape: one value per cell
    else o << (affine ? "i\tj\tH\tE\tF\tbits\n" : "i\tj\tH\tbits\n");
    for (int32_t r = 0; r < v.H.rows; ++r)
        for (int32_t c = 0; c < v.H.cols; ++c) {
            o << v.w.i0 + r << '\t' << v.w.j0 + c << '\t' << cell_value(p, v.H.at(r, c));
            if (affine) o << '\t' << cell_value(p, v.E.at(r, c)) << '\t' << cell_value(p, v.F.at(r, c));
            if (bits) o << '\t' << int(v.dirs.at(r, c));
            if (back) o << '\t' << v.back.at(r, c);
            o << '\n';
        }
    return o.str();
}

std::vector<Cell> path_in_window(const std::vector<Cell>& path, Window w) {
    std::vector<Cell> in;
    for (const Cell c : path)
        if (c.i >= w.i0 && c.i < w.i1 && c.j >= w.j0 && c.j < w.j1) in.push_back({c.i - w.i0, c.j - w.j0});
    return in;
}

}  // namespace dpviz::app
