// session.ini: the last inputs, parameters, view options and recent files, as key=value lines.
#include "gui/session.hpp"

#include <cstdlib>
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

bool parse_int(const std::string& v, int& out) {
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x < -1000000 || x > 1000000) return false;
    out = int(x);
    return true;
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
    o << "match=" << p.match << "\nmismatch=" << p.mismatch << "\n";
    o << "gap_open=" << p.gap_open << "\ngap_extend=" << p.gap_extend << "\n";
    o << "band_on=" << p.band_on << "\nband=" << p.band << "\n";
    o << "dtw_cost=" << dtw_cost_name(p.dtw_cost) << "\n";
    o << "backend=" << int(p.backend) << "\n";
    o << "colormap=" << (s.view.auto_colormap ? "auto" : std::string(render::colormap_name(s.view.colormap))) << "\n";
    o << "show_path=" << s.view.show_path << "\nshow_mask=" << s.view.show_mask << "\n";
    o << "show_details=" << s.view.show_details << "\n";
    o << "export.folder=" << escape(s.export_settings.folder) << "\n";
    o << "export.stem=" << escape(s.export_settings.stem) << "\n";
    for (const std::string& r : s.recent_files) o << "recent=" << escape(r) << "\n";
    return o.str();
}

int apply_session_text(AppState& s, const std::string& text) {
    std::istringstream in(text);
    std::string line;
    int applied = 0;
    std::vector<std::string> recent;
    using Setter = std::function<bool(const std::string&)>;
    auto str = [](std::string& dst) { return Setter([&dst](const std::string& v) { dst = v; return true; }); };
    auto num = [](int& dst) { return Setter([&dst](const std::string& v) { return parse_int(v, dst); }); };
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
        {"matrix", str(p.matrix)},                  {"match", num(p.match)},
        {"mismatch", num(p.mismatch)},              {"gap_open", num(p.gap_open)},
        {"gap_extend", num(p.gap_extend)},          {"band_on", flag(p.band_on)},
        {"band", num(p.band)},                      {"show_path", flag(s.view.show_path)},
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
        {"recent", [&](const std::string& v) {
             recent.push_back(v);
             return true;
         }},
    };
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) continue;
        const auto it = keys.find(line.substr(0, eq));
        if (it != keys.end() && it->second(unescape(line.substr(eq + 1)))) ++applied;
    }
    if (!recent.empty()) s.recent_files = recent;
    return applied;
}

Status save_session(const AppState& s, const std::string& dir) {
    if (dir.empty()) return Ok{};
    const std::string path = (std::filesystem::path(dir) / "session.ini").string();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return resource_error("writing " + path + ": cannot make the folder: " + ec.message());
    return render::write_file_atomic(path, session_text(s));
}

void load_session(AppState& s, const std::string& dir) {
    if (dir.empty()) return;
    std::ifstream f(std::filesystem::path(dir) / "session.ini");
    if (!f) return;
    std::ostringstream text;
    text << f.rdbuf();
    apply_session_text(s, text.str());
}

}  // namespace dpviz::gui
