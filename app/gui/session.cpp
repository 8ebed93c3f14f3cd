// session.ini: the last inputs, parameters, view options and recent files, as key=value lines;
// a file that is not a sound session (cut short, binary, out of range) is ignored as a whole.
#include "gui/session.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "dpviz/engine.hpp"
#include "dpviz/render/output_file.hpp"
#include "gui/files.hpp"

namespace dpviz::gui {
namespace {

constexpr size_t kMaxSavedPaste = size_t(1) << 20;
// What session_text() can write: two pasted inputs (escaping at most doubles them), short keys
// and values, 12 recent files. Anything longer is not a session this program wrote.
constexpr size_t kMaxLineBytes = 2 * kMaxSavedPaste + 64;
constexpr uintmax_t kMaxSessionBytes = 8u << 20;
constexpr int kMaxRecent = 12;
// The engine's bound for scores and penalties, and for the band here too.
constexpr int kMaxScore = kMaxScoreMagnitude;
constexpr int64_t kMaxHundredths = int64_t(kMaxScoreMagnitude) * 100;

// One line per value: backslash, newline and carriage return escaped.
std::string escape(const std::string& s) {
    std::string o;
    for (const char c : s) {
        if (c == '\\') o += "\\\\";
        else if (c == '\n') o += "\\n";
        else if (c == '\r') o += "\\r";
        else o += c;
    }
    return o;
}

std::string unescape(const std::string& s) {
    std::string o;
    for (size_t k = 0; k < s.size(); ++k) {
        if (s[k] != '\\' || k + 1 == s.size()) {
            o += s[k];
            continue;
        }
        const char n = s[++k];
        o += n == 'n' ? '\n' : n == 'r' ? '\r' : n;
    }
    return o;
}

bool parse_int(const std::string& v, int& out, int lo = -kMaxScore, int hi = kMaxScore) {
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno == ERANGE || x < lo || x > hi) return false;
    out = int(x);
    return true;
}

// A score or gap cost as `dpviz align` reads it, in [lo, hi] hundredths: "0.5", "10.25", and
// the whole numbers older sessions wrote.
bool parse_score(const std::string& v, Hundredths& out, int64_t lo, int64_t hi) {
    const auto h = parse_hundredths("score", v);
    if (!h || h->value < lo || h->value > hi) return false;
    out = *h;
    return true;
}

// A value as a notice shows it: at most 40 bytes, control bytes as '?'.
std::string shown(const std::string& v) {
    std::string o = v.size() > 40 ? v.substr(0, 40) + "..." : v;
    for (char& c : o)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return o;
}

}  // namespace

std::string config_dir() {
    namespace fs = std::filesystem;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return (fs::path(x) / "dpviz").string();
    if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".config" / "dpviz").string();
    return "";
}

std::string session_text(const AppState& s) {
    std::ostringstream o;
    o << "# dpviz GUI session (written on exit)\n";
    auto side = [&](const char* k, const InputSide& in) {
        o << k << ".source=" << (in.source == InputSource::paste ? "paste" : "file") << "\n";
        o << k << ".path=" << escape(in.path) << "\n";
        o << k << ".record=" << escape(in.record) << "\n";
        // A pasted genome is not worth a slow start: keep what is small enough to retype.
        o << k << ".pasted=" << (in.pasted.size() <= kMaxSavedPaste ? escape(in.pasted) : "") << "\n";
        o << k << ".column=" << escape(in.column) << "\n";
    };
    side("query", s.query);
    side("target", s.target);
    const Parameters& p = s.params;
    o << "algo=" << algorithm_name(p.algo) << "\n";
    o << "scoring=" << (p.scoring == ScoringMode::matrix ? "matrix" : "match") << "\n";
    o << "matrix=" << escape(p.matrix) << "\n";
    // In the user's units, as typed: "0.5" (an older dpviz, which read whole numbers only,
    // ignores such a file and starts with its defaults).
    o << "match=" << p.match.text() << "\nmismatch=" << p.mismatch.text() << "\n";
    o << "gap_open=" << p.gap_open.text() << "\ngap_extend=" << p.gap_extend.text() << "\n";
    o << "band_on=" << p.band_on << "\nband=" << p.band << "\n";
    o << "dtw_cost=" << dtw_cost_name(p.dtw_cost) << "\n";
    o << "backend=" << int(p.backend) << "\n";
    o << "colormap=" << (s.view.auto_colormap ? "auto" : std::string(render::colormap_name(s.view.colormap))) << "\n";
    o << "show_path=" << s.view.show_path << "\nshow_mask=" << s.view.show_mask << "\n";
    o << "show_details=" << s.view.show_details << "\n";
    o << "layer=" << layer_key(s.view.layer) << "\n";
    o << "ui_zoom=" << s.ui.zoom << "\n";  // the user's Ctrl +/- factor over the monitor's scale
    o << "export.folder=" << escape(s.export_settings.folder) << "\n";
    o << "export.stem=" << escape(s.export_settings.stem) << "\n";
    for (const std::string& r : s.recent_files) o << "recent=" << escape(r) << "\n";
    return o.str();
}

namespace {

// Applies the lines of `text` that it understands. The first line it cannot use (a known key
// with a bad value) is described in `*bad` when given; `*known` counts lines with a known key.
int apply_lines(AppState& s, const std::string& text, std::string* bad, int* known) {
    std::istringstream in(text);
    std::string line;
    int applied = 0, line_no = 0;
    std::vector<std::string> recent;
    using Setter = std::function<bool(const std::string&)>;
    auto str = [](std::string& dst) { return Setter([&dst](const std::string& v) { dst = v; return true; }); };
    // A negative band is no session's.
    auto num = [](int& dst, int lo, int hi) {
        return Setter([&dst, lo, hi](const std::string& v) { return parse_int(v, dst, lo, hi); });
    };
    // Match > 0, mismatch <= 0, gaps >= 0 (the engine's rules), at most the engine's bound.
    auto score = [](Hundredths& dst, int64_t lo, int64_t hi) {
        return Setter([&dst, lo, hi](const std::string& v) { return parse_score(v, dst, lo, hi); });
    };
    auto flag = [](bool& dst) {
        return Setter([&dst](const std::string& v) {
            if (v != "0" && v != "1") return false;
            dst = v == "1";
            return true;
        });
    };
    auto source = [](InputSource& dst) {
        return Setter([&dst](const std::string& v) {
            if (v != "file" && v != "paste") return false;
            dst = v == "paste" ? InputSource::paste : InputSource::file;
            return true;
        });
    };
    Parameters& p = s.params;
    std::map<std::string, Setter> keys = {
        {"query.source", source(s.query.source)},   {"query.path", str(s.query.path)},
        {"query.record", str(s.query.record)},      {"query.pasted", str(s.query.pasted)},
        {"query.column", str(s.query.column)},      {"target.source", source(s.target.source)},
        {"target.path", str(s.target.path)},        {"target.record", str(s.target.record)},
        {"target.pasted", str(s.target.pasted)},    {"target.column", str(s.target.column)},
        {"matrix", str(p.matrix)},                  {"match", score(p.match, 1, kMaxHundredths)},
        {"mismatch", score(p.mismatch, -kMaxHundredths, 0)}, {"gap_open", score(p.gap_open, 0, kMaxHundredths)},
        {"gap_extend", score(p.gap_extend, 0, kMaxHundredths)}, {"band_on", flag(p.band_on)},
        {"band", num(p.band, 0, kMaxScore)},        {"show_path", flag(s.view.show_path)},
        {"show_mask", flag(s.view.show_mask)},      {"show_details", flag(s.view.show_details)},
        {"export.folder", str(s.export_settings.folder)}, {"export.stem", str(s.export_settings.stem)},
        {"algo", [&](const std::string& v) {
             const auto a = parse_algorithm(v);
             if (a) p.algo = *a;
             return a.has_value();
         }},
        {"scoring", [&](const std::string& v) {
             if (v != "matrix" && v != "match") return false;
             p.scoring = v == "match" ? ScoringMode::match_mismatch : ScoringMode::matrix;
             return true;
         }},
        {"dtw_cost", [&](const std::string& v) {
             if (v != "abs" && v != "squared") return false;
             p.dtw_cost = v == "abs" ? DtwCost::abs : DtwCost::squared;
             return true;
         }},
        {"backend", [&](const std::string& v) {
             int b = 0;
             if (!parse_int(v, b) || b < 0 || b > int(BackendChoice::cpu)) return false;
             p.backend = BackendChoice(b);
             return true;
         }},
        {"colormap", [&](const std::string& v) {
             if (v == "auto") return s.view.auto_colormap = true;
             const auto m = render::parse_colormap(v);
             if (!m) return false;
             s.view.auto_colormap = false;
             s.view.colormap = *m;
             return true;
         }},
        {"layer", [&](const std::string& v) {
             const auto l = parse_layer(v);
             if (l) s.view.layer = *l;
             return l.has_value();
         }},
        {"ui_zoom", [&](const std::string& v) {
             char* end = nullptr;
             const float z = std::strtof(v.c_str(), &end);
             if (v.empty() || *end != '\0' || !(z >= 0.25f && z <= 4.0f)) return false;
             s.ui.zoom = z;
             return true;
         }},
        {"recent", [&](const std::string& v) {
             recent.push_back(v);
             return true;
         }},
    };
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();  // edited on Windows: session_text escapes its own
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        const auto it = keys.find(line.substr(0, eq));
        if (it == keys.end()) continue;  // a key of another version
        if (known) ++*known;
        if (it->second(unescape(line.substr(eq + 1)))) ++applied;
        else if (bad && bad->empty())
            *bad = "line " + std::to_string(line_no) + ": " + shown(line.substr(0, eq)) + "=" +
                   shown(line.substr(eq + 1)) + " is not a value dpviz uses";
    }
    if (recent.size() > size_t(kMaxRecent)) recent.resize(size_t(kMaxRecent));
    if (!recent.empty()) s.recent_files = recent;
    return applied;
}

// Why `text` is not a session this program wrote, or "" when it is one.
std::string session_text_problem(const std::string& text) {
    if (text.empty()) return "it is empty";
    int line = 1;
    size_t line_start = 0;
    for (size_t k = 0; k < text.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(text[k]);
        if (c == '\n') {
            if (k - line_start > kMaxLineBytes)
                return "line " + std::to_string(line) + " is " + std::to_string(k - line_start) + " bytes long";
            ++line;
            line_start = k + 1;
        } else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
            char b[96];
            std::snprintf(b, sizeof b, "binary data (byte 0x%02x on line %d)", unsigned(c), line);
            return b;
        }
    }
    if (text.size() - line_start > kMaxLineBytes)
        return "line " + std::to_string(line) + " is " + std::to_string(text.size() - line_start) + " bytes long";
    // session_text() ends every line with a newline: a last line without one was cut short.
    if (text.back() != '\n') return "it is cut short (line " + std::to_string(line) + " has no end)";
    return "";
}

}  // namespace

int apply_session_text(AppState& s, const std::string& text) { return apply_lines(s, text, nullptr, nullptr); }

std::string apply_session_file_text(AppState& s, const std::string& text) {
    if (std::string why = session_text_problem(text); !why.empty()) return why;
    AppState candidate = s;
    std::string bad;
    int known = 0;
    apply_lines(candidate, text, &bad, &known);
    if (!bad.empty()) return bad;
    if (known == 0) return "no line of it is a dpviz session setting";
    s = std::move(candidate);
    return "";
}

Status save_session(const AppState& s, const std::string& dir) {
    if (dir.empty()) return Ok{};
    const std::string path = (std::filesystem::path(dir) / "session.ini").string();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return resource_error("writing " + path + ": cannot make the folder: " + ec.message());
    return render::write_file_atomic(path, session_text(s));
}

std::string load_session(AppState& s, const std::string& dir) {
    namespace fs = std::filesystem;
    if (dir.empty()) return "";
    const fs::path path = fs::path(dir) / "session.ini";
    const auto ignored = [&](const std::string& why) {
        return path.string() + " ignored: " + why + "; starting with the defaults";
    };
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (st.type() == fs::file_type::not_found) return "";  // a first run
    if (ec) return ignored(ec.message());
    // Never opened unless a plain file: a FIFO would block the start, a device never end.
    if (st.type() == fs::file_type::directory) return ignored("it is a folder");
    if (st.type() != fs::file_type::regular) return ignored("it is not a regular file");
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return ignored(ec.message());
    if (size > kMaxSessionBytes) return ignored("it is " + std::to_string(size) + " bytes, more than a session holds");
    std::ifstream f(path, std::ios::binary);
    if (!f) return ignored(std::string("cannot read it: ") + std::strerror(errno));
    std::string text(size_t(size), '\0');
    f.read(text.data(), std::streamsize(size));
    text.resize(size_t(f.gcount()));  // it may have shrunk since
    if (f.bad()) return ignored("cannot read it");
    if (std::string why = apply_session_file_text(s, text); !why.empty()) return ignored(why);
    return "";
}

}  // namespace dpviz::gui
