// The run-time data lookup (assets_dir.hpp): the installed share/dpviz beside the binary,
// $DPVIZ_ASSETS, and the source tree only for a binary that still sits in its build tree.
#include "assets_dir.hpp"

#include <cstdlib>
#include <filesystem>

// app/CMakeLists.txt defines these for this file only; empty ones turn the matching step off.
#ifndef DPVIZ_INSTALL_ASSETS_RELATIVE
#define DPVIZ_INSTALL_ASSETS_RELATIVE ""
#endif
#ifndef DPVIZ_BUILD_DIR
#define DPVIZ_BUILD_DIR ""
#endif
#ifndef DPVIZ_SOURCE_ASSETS
#define DPVIZ_SOURCE_ASSETS ""
#endif

namespace dpviz::app {

namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& file, const fs::path& dir) {
    std::error_code ec;
    const fs::path f = fs::weakly_canonical(file, ec);
    if (ec) return false;
    const fs::path d = fs::weakly_canonical(dir, ec);
    if (ec || d.empty()) return false;
    const fs::path rel = f.lexically_relative(d);
    return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::vector<std::string> assets_candidates(const AssetsSearch& s) {
    std::vector<std::string> out;
    if (!s.exe.empty() && !s.install_relative.empty())
        out.push_back((fs::path(s.exe).parent_path() / s.install_relative).lexically_normal().string());
    if (!s.env.empty()) out.push_back(s.env);
    if (!s.exe.empty() && !s.build_dir.empty() && !s.source_assets.empty() && inside(s.exe, s.build_dir))
        out.push_back(s.source_assets);
    return out;
}

std::string find_assets_dir(const AssetsSearch& s) {
    std::error_code ec;
    for (const std::string& c : assets_candidates(s))
        if (fs::is_regular_file(fs::path(c) / "examples" / "globins.fa", ec)) return fs::weakly_canonical(c, ec).string();
    return "";
}

std::string find_assets_dir(const std::string& exe_path) {
    AssetsSearch s;
    std::error_code ec;
    const fs::path exe = exe_path.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::weakly_canonical(exe_path, ec);
    if (!ec) s.exe = exe.string();
    if (const char* env = std::getenv("DPVIZ_ASSETS")) s.env = env;
    s.install_relative = DPVIZ_INSTALL_ASSETS_RELATIVE;
    s.build_dir = DPVIZ_BUILD_DIR;
    s.source_assets = DPVIZ_SOURCE_ASSETS;
    return find_assets_dir(s);
}

std::string shipped_reports_dir(const std::string& assets_dir, const std::string& name) {
    if (assets_dir.empty()) return "";
    std::error_code ec;
    const fs::path installed = fs::path(assets_dir) / name;
    if (fs::is_directory(installed, ec)) return installed.string();
    return (fs::path(assets_dir) / ".." / "docs" / name).lexically_normal().string();
}

}  // namespace dpviz::app
