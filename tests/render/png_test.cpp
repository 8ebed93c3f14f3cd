// PNG export: pixels survive a round trip through stb_image, failures leave nothing behind, and an
// existing file is replaced by a rename, never rewritten in place.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <stb_image.h>  // the implementation is in libstb.so, like stb_image_write's

#include "dpviz/render/heatmap.hpp"
#include "dpviz/render/png.hpp"

namespace dpviz::render {
namespace {

namespace fs = std::filesystem;

class Png : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("dpviz_png_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path dir_;
};

Image test_image(int w, int h) {
    Image img;
    img.width = w;
    img.height = h;
    img.rgb.resize(static_cast<size_t>(w) * h * 3);
    for (size_t k = 0; k < img.rgb.size(); ++k) img.rgb[k] = static_cast<uint8_t>(k * 37 + 11);
    return img;
}

struct Loaded {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;
};

Loaded load(const fs::path& p) {
    Loaded out;
    int channels = 0;
    unsigned char* data = stbi_load(p.c_str(), &out.width, &out.height, &channels, 3);
    if (data) {
        out.rgb.assign(data, data + static_cast<size_t>(out.width) * out.height * 3);
        stbi_image_free(data);
    }
    return out;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_F(Png, RoundTripKeepsEveryPixel) {
    const Image img = test_image(7, 5);
    const fs::path out = dir_ / "out.png";
    const Status st = write_png_atomic(img, out.string());
    ASSERT_TRUE(st) << st.error().message;
    EXPECT_EQ(slurp(out).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    const Loaded back = load(out);
    EXPECT_EQ(back.width, 7);
    EXPECT_EQ(back.height, 5);
    EXPECT_EQ(back.rgb, img.rgb);
    EXPECT_EQ(entries(), std::vector<std::string>{"out.png"});  // no temporary left
}

TEST_F(Png, ComposedHeatmapRoundTrips) {
    Grid<int32_t> H;
    H.reset(40, 30, 0);
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 30; ++j) H.at(i, j) = i - j;
    HeatmapOptions opt;
    opt.max_side = 200;
    opt.caption = "global, score -10";
    Expected<Image> img = compose_heatmap(H, {{0, 0}, {1, 1}, {2, 2}}, opt);
    ASSERT_TRUE(img);
    const fs::path out = dir_ / "heatmap.png";
    ASSERT_TRUE(write_png_atomic(*img, out.string()));
    const Loaded back = load(out);
    EXPECT_EQ(back.width, img->width);
    EXPECT_EQ(back.height, img->height);
    EXPECT_EQ(back.rgb, img->rgb);
}

TEST_F(Png, MissingFolderIsAResourceErrorAndLeavesNothing) {
    const fs::path out = dir_ / "no_such_folder" / "out.png";
    const Status st = write_png_atomic(test_image(3, 3), out.string());
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::resource);
    EXPECT_NE(st.error().message.find(out.string()), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("No such file or directory"), std::string::npos) << st.error().message;
    EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
    EXPECT_FALSE(fs::exists(out));
    EXPECT_TRUE(entries().empty());
}

TEST_F(Png, FailedRenameRemovesTheTemporary) {
    // The target is a non-empty folder: the temporary is written, the rename fails.
    const fs::path out = dir_ / "taken.png";
    fs::create_directories(out / "inside");
    const Status st = write_png_atomic(test_image(4, 4), out.string());
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::resource);
    EXPECT_NE(st.error().message.find(out.string()), std::string::npos) << st.error().message;
    EXPECT_EQ(entries(), std::vector<std::string>{"taken.png"});
    EXPECT_TRUE(fs::is_directory(out / "inside"));
}

TEST_F(Png, ReplacesAnExistingFileByRename) {
    const fs::path out = dir_ / "out.png";
    const fs::path witness = dir_ / "old.link";
    { std::ofstream(out) << "old contents"; }
    fs::create_hard_link(out, witness);  // sees the old inode whatever happens to the name

    const Status st = write_png_atomic(test_image(6, 2), out.string());
    ASSERT_TRUE(st) << st.error().message;
    EXPECT_EQ(load(out).width, 6);
    EXPECT_EQ(slurp(witness), "old contents");  // the old file was not rewritten in place
    EXPECT_EQ(entries(), (std::vector<std::string>{"old.link", "out.png"}));
}

TEST_F(Png, NewFileFollowsTheUmask) {
    const mode_t old = ::umask(022);
    const fs::path out = dir_ / "out.png";
    const Status st = write_png_atomic(test_image(2, 2), out.string());
    ::umask(old);
    ASSERT_TRUE(st);
    struct stat sb {};
    ASSERT_EQ(::stat(out.c_str(), &sb), 0);
    EXPECT_EQ(sb.st_mode & 0777, 0644u);
}

TEST_F(Png, RejectsBadImagesAndPaths) {
    Image torn = test_image(4, 4);
    torn.rgb.pop_back();
    EXPECT_EQ(write_png_atomic(torn, (dir_ / "a.png").string()).error().kind, ErrorKind::usage);
    EXPECT_EQ(write_png_atomic(Image{}, (dir_ / "b.png").string()).error().kind, ErrorKind::usage);
    EXPECT_EQ(write_png_atomic(test_image(1, 1), "").error().kind, ErrorKind::usage);
    EXPECT_TRUE(entries().empty());
}

}  // namespace
}  // namespace dpviz::render
