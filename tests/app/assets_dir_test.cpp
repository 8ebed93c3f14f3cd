// The run-time data lookup: installed share/dpviz beside the binary first, then $DPVIZ_ASSETS,
// and the source tree only for a binary inside its build tree; the SASS reports beside either.
#include <gtest/gtest.h>

#include <filesystem>

#include "assets_dir.hpp"
#include "cli_run.hpp"

namespace dpviz::app {
namespace {

namespace fs = std::filesystem;

// An assets folder as the lookup recognizes one (examples/globins.fa).
void make_assets(const std::string& dir) {
    fs::create_directories(dir + "/examples");
    std::ofstream(dir + "/examples/globins.fa") << ">a\nACGT\n";
}

TEST(AssetsDir, CandidatesInOrderInstalledThenEnvironmentThenSourceTree) {
    AssetsSearch s;
    s.exe = "/opt/x/bin/dpviz";
    s.env = "/env/assets";
    s.install_relative = "../share/dpviz";
    s.build_dir = "/opt/x";  // the binary is inside it
    s.source_assets = "/src/assets";
    EXPECT_EQ(assets_candidates(s), (std::vector<std::string>{"/opt/x/share/dpviz", "/env/assets", "/src/assets"}));
}

TEST(AssetsDir, ABinaryOutsideItsBuildTreeNeverReadsTheSourceTree) {
    AssetsSearch s;
    s.exe = "/usr/bin/dpviz";
    s.install_relative = "../share/dpviz";
    s.build_dir = "/home/me/dpviz/build";
    s.source_assets = "/home/me/dpviz/assets";
    EXPECT_EQ(assets_candidates(s), (std::vector<std::string>{"/usr/share/dpviz"}));
    s.build_dir = "/usr/bi";  // a prefix of the path is not a parent folder
    EXPECT_EQ(assets_candidates(s), (std::vector<std::string>{"/usr/share/dpviz"}));
    s.exe = "";  // unknown executable: only the environment
    s.env = "/env";
    EXPECT_EQ(assets_candidates(s), (std::vector<std::string>{"/env"}));
}

TEST(AssetsDir, TheFirstFolderWithTheExamplesWins) {
    test::TempDir t;
    const std::string root = t.path("");
    make_assets(root + "prefix/share/dpviz");
    make_assets(root + "env");
    fs::create_directories(root + "prefix/bin");
    AssetsSearch s;
    s.exe = root + "prefix/bin/dpviz";
    s.env = root + "env";
    s.install_relative = "../share/dpviz";
    EXPECT_EQ(find_assets_dir(s), fs::weakly_canonical(root + "prefix/share/dpviz").string());
    fs::remove_all(root + "prefix/share");  // moved binary: the environment answers
    EXPECT_EQ(find_assets_dir(s), fs::weakly_canonical(root + "env").string());
    s.env = root + "nothing-here";
    EXPECT_EQ(find_assets_dir(s), "");
}

TEST(AssetsDir, ThisTestFindsTheSourceTreeFromItsBuildTree) {
    // This executable sits in the build tree, so the compiled-in source path applies even when
    // $DPVIZ_ASSETS points nowhere.
    const char* old = std::getenv("DPVIZ_ASSETS");
    const std::string saved = old ? old : "";
    setenv("DPVIZ_ASSETS", "/nonexistent", 1);
    const std::string found = find_assets_dir();
    old ? setenv("DPVIZ_ASSETS", saved.c_str(), 1) : unsetenv("DPVIZ_ASSETS");
    EXPECT_EQ(found, fs::weakly_canonical(DPVIZ_ASSETS).string());
}

TEST(AssetsDir, ShippedReportsInstalledBesideTheExamplesElseInTheSourceDocs) {
    test::TempDir t;
    const std::string root = t.path("");
    make_assets(root + "share/dpviz");
    fs::create_directories(root + "share/dpviz/sass");
    EXPECT_EQ(shipped_reports_dir(root + "share/dpviz", "sass"), root + "share/dpviz/sass");
    make_assets(root + "src/assets");
    EXPECT_EQ(shipped_reports_dir(root + "src/assets", "sass"), root + "src/docs/sass");
    EXPECT_EQ(shipped_reports_dir(root + "src/assets", "scan"), root + "src/docs/scan");
    EXPECT_EQ(shipped_reports_dir("", "sass"), "");
    // This source tree's docs/sass and docs/scan.
    EXPECT_TRUE(fs::is_regular_file(shipped_reports_dir(DPVIZ_ASSETS, "sass") + "/sass_hot_sm90.txt"));
    EXPECT_TRUE(fs::is_regular_file(shipped_reports_dir(DPVIZ_ASSETS, "scan") + "/bench_scan_h200.txt"));
    EXPECT_TRUE(fs::is_regular_file(shipped_reports_dir(DPVIZ_ASSETS, "scan") + "/bench_scan_h100.txt"));
}

}  // namespace
}  // namespace dpviz::app
