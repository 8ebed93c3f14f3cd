// OutputFile: links followed and their targets replaced in place, non-regular destinations
// refused and left as they were, failed writes (a file-size limit standing in for a full disk)
// reported with nothing half-written, permissions of a replaced file kept.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "dpviz/render/output_file.hpp"

namespace fs = std::filesystem;

namespace dpviz::render {
namespace {

class OutputFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/dpviz-out-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string at(const std::string& name) const { return (dir_ / name).string(); }
    std::vector<std::string> entries(const fs::path& d) const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    static std::string slurp(const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    fs::path dir_;
};

bool mentions(const Status& st, const std::string& text) {
    return !st && st.error().message.find(text) != std::string::npos && st.error().message.find('\n') == std::string::npos;
}

TEST_F(OutputFileTest, WritesANewFileAndReplacesAnOldOneWhole) {
    ASSERT_TRUE(write_file_atomic(at("a.txt"), "first"));
    ASSERT_TRUE(write_file_atomic(at("a.txt"), "second, longer"));
    EXPECT_EQ(slurp(at("a.txt")), "second, longer");
    EXPECT_EQ(entries(dir_), std::vector<std::string>{"a.txt"});
}

TEST_F(OutputFileTest, ALinkIsFollowedAndStaysALink) {
    fs::create_directory(dir_ / "real");
    { std::ofstream(at("real/data.csv")) << "old"; }
    fs::create_symlink("real/data.csv", dir_ / "rel.csv");         // relative to the link's folder
    fs::create_symlink(dir_ / "rel.csv", dir_ / "chain.csv");     // a link to a link
    ASSERT_TRUE(write_file_atomic(at("chain.csv"), "new"));
    EXPECT_TRUE(fs::is_symlink(dir_ / "chain.csv"));
    EXPECT_TRUE(fs::is_symlink(dir_ / "rel.csv"));
    EXPECT_EQ(slurp(at("real/data.csv")), "new");
    EXPECT_EQ(entries(dir_ / "real"), std::vector<std::string>{"data.csv"});  // replaced in its own folder
    // A dangling link gets its target created.
    fs::create_symlink("real/later.txt", dir_ / "dangling");
    ASSERT_TRUE(write_file_atomic(at("dangling"), "made"));
    EXPECT_TRUE(fs::is_symlink(dir_ / "dangling"));
    EXPECT_EQ(slurp(at("real/later.txt")), "made");
}

TEST_F(OutputFileTest, ALinkLoopIsAnError) {
    fs::create_symlink("b", dir_ / "a");
    fs::create_symlink("a", dir_ / "b");
    const Status st = write_file_atomic(at("a"), "x");
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::resource);
    EXPECT_TRUE(mentions(st, "writing " + at("a") + ": ")) << st.error().message;
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"a", "b"}));
}

TEST_F(OutputFileTest, NonRegularDestinationsAreRefusedAndKept) {
    ASSERT_EQ(::mkfifo(at("pipe").c_str(), 0600), 0);
    fs::create_directory(dir_ / "folder");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string sock_path = at("sock");
    ASSERT_LT(sock_path.size(), sizeof addr.sun_path);
    std::copy(sock_path.begin(), sock_path.end(), addr.sun_path);
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    fs::create_symlink(dir_ / "pipe", dir_ / "to_pipe");

    // System device nodes are not tried here: a regression would replace them (the test makes
    // a device node of its own below).
    const std::vector<std::pair<std::string, std::string>> cases = {
        {at("pipe"), "a FIFO"}, {at("to_pipe"), "a FIFO"}, {at("folder"), "a folder"},
        {at("sock"), "a socket"}, {at("folder") + "/", "a folder"}};
    for (const auto& [path, what] : cases) {
        const Status st = write_file_atomic(path, "must not land");
        ASSERT_FALSE(st) << path;
        EXPECT_EQ(st.error().kind, ErrorKind::resource) << path;
        EXPECT_TRUE(mentions(st, "writing " + path + ": it is " + what)) << st.error().message;
        EXPECT_TRUE(mentions(st, "replaces only regular files")) << st.error().message;
    }
    ::close(sock);
    struct stat sb {};
    ASSERT_EQ(::lstat(at("pipe").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISFIFO(sb.st_mode));
    ASSERT_EQ(::lstat(at("sock").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISSOCK(sb.st_mode));
    EXPECT_TRUE(fs::is_empty(dir_ / "folder"));
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"folder", "pipe", "sock", "to_pipe"}));
}

TEST_F(OutputFileTest, ADeviceNodeOfOurOwnIsNotReplaced) {
    // As root, a rename over a device node would succeed: this is the case that must be refused.
    if (::mknod(at("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
    fs::create_symlink("null", dir_ / "to_null");
    for (const std::string& path : {at("to_null"), at("null")}) {
        const Status st = write_file_atomic(path, "x");
        EXPECT_TRUE(mentions(st, "writing " + path + ": it is a character device")) << (st ? "written" : st.error().message);
    }
    struct stat sb {};
    ASSERT_EQ(::lstat(at("null").c_str(), &sb), 0);
    EXPECT_TRUE(S_ISCHR(sb.st_mode));
    EXPECT_EQ(entries(dir_), (std::vector<std::string>{"null", "to_null"}));
}

// Runs `body` with writes beyond `bytes` failing (EFBIG), as on a full disk.
template <class Body>
void with_file_size_limit(rlim_t bytes, Body body) {
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit lim = old;
    lim.rlim_cur = bytes;
    void (*old_handler)(int) = ::signal(SIGXFSZ, SIG_IGN);  // else the kernel ends the process
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &lim), 0);
    body();
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, old_handler);
}

TEST_F(OutputFileTest, AFailedWriteLeavesTheOldFileAndNoTemporary) {
    { std::ofstream(at("keep.txt")) << "precious"; }
    const std::string big(size_t(1) << 20, 'x');
    Status st = Ok{};
    with_file_size_limit(4096, [&] { st = write_file_atomic(at("keep.txt"), big); });
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::resource);
    EXPECT_TRUE(mentions(st, "writing " + at("keep.txt") + ": File too large")) << st.error().message;
    EXPECT_EQ(slurp(at("keep.txt")), "precious");
    EXPECT_EQ(entries(dir_), std::vector<std::string>{"keep.txt"});
}

TEST_F(OutputFileTest, AStreamOverAFailingFileFailsAndCommitSaysWhy) {
    auto file = OutputFile::open(at("stream.txt"));
    ASSERT_TRUE(file);
    OutputFileBuf buf(std::move(*file));
    std::ostream out(&buf);
    Status st = Ok{};
    with_file_size_limit(1000, [&] {
        for (int k = 0; k < 10000 && out; ++k) out << "line " << k << "\n";
        EXPECT_FALSE(out.good());  // the stream sees the failure, so a writer can stop early
        st = buf.commit();
    });
    EXPECT_TRUE(mentions(st, "writing " + at("stream.txt") + ": File too large")) << (st ? "ok" : st.error().message);
    EXPECT_TRUE(entries(dir_).empty());
}

TEST_F(OutputFileTest, AReplacedFileKeepsItsPermissions) {
    { std::ofstream(at("private.txt")) << "old"; }
    fs::permissions(at("private.txt"), fs::perms::owner_read | fs::perms::owner_write);
    ASSERT_TRUE(write_file_atomic(at("private.txt"), "new"));
    EXPECT_EQ(fs::status(at("private.txt")).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(OutputFileTest, DroppedWithoutCommitLeavesNothing) {
    { std::ofstream(at("old.txt")) << "old"; }
    {
        auto f = OutputFile::open(at("old.txt"));
        ASSERT_TRUE(f);
        f->write("partial", 7);
    }
    EXPECT_EQ(slurp(at("old.txt")), "old");
    EXPECT_EQ(entries(dir_), std::vector<std::string>{"old.txt"});
}

TEST_F(OutputFileTest, DashIsStandardOutputAndAnEmptyPathIsAUsageError) {
    auto d = resolve_destination("-");
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->standard_output);
    EXPECT_EQ(d->shown, "standard output");
    EXPECT_EQ(write_file_atomic("", "x").error().kind, ErrorKind::usage);
}

}  // namespace
}  // namespace dpviz::render
