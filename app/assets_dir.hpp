// Where dpviz finds the files it reads at run time (bundled examples, matrices as text, SASS
// reports): one lookup for every caller, the installed layout first, a source tree last.
#pragma once

#include <string>
#include <vector>

namespace dpviz::app {

// What the lookup looks at, apart from the process, so tests can set each part.
struct AssetsSearch {
    std::string exe;              // this executable, canonical; "" when unknown
    std::string env;              // $DPVIZ_ASSETS; "" when unset
    std::string install_relative; // from the installed bin folder to share/dpviz ("../share/dpviz")
    std::string build_dir;        // the build tree compiled in (CMAKE_BINARY_DIR)
    std::string source_assets;    // the source tree's assets/ compiled in
};

// The folders tried, in order: <exe dir>/<install_relative> (cmake --install, the .deb), then
// $DPVIZ_ASSETS, then the source tree's assets/ for an executable inside the build tree only: a
// moved or installed binary never reads a source tree that may be another version's.
std::vector<std::string> assets_candidates(const AssetsSearch& s);

// The first candidate that holds examples/globins.fa, canonical; "" when none does.
std::string find_assets_dir(const AssetsSearch& s);

// The same for this process: `exe_path` ("" = /proc/self/exe), the environment and the paths
// this build compiled in.
std::string find_assets_dir(const std::string& exe_path = "");

// A folder of reports made on a device and shipped with dpviz, docs/<name>: "sass" (the SASS
// reports the machine-code panel falls back on), "scan" (`dpviz bench --scan`'s table, which the
// timing panel shows). <assets>/<name> where installed, else the source tree's docs/<name> beside
// its assets/. "" when `assets_dir` is.
std::string shipped_reports_dir(const std::string& assets_dir, const std::string& name);

}  // namespace dpviz::app
