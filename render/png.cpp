// PNG export: stb_image_write (Debian's libstb.so) encodes; this file makes the write atomic. The
// bytes go to a new temporary file beside the target, are synced, and the file is renamed over it.
#include "dpviz/render/png.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <system_error>

// The implementation is compiled into libstb.so: do not define STB_IMAGE_WRITE_IMPLEMENTATION.
#include <stb_image_write.h>

namespace dpviz::render {

namespace {

std::string errno_text(int e) { return std::error_code(e, std::generic_category()).message(); }

// stb hands the encoded bytes to a callback; the first write error sticks and stops the rest.
struct FdSink {
    int fd = -1;
    int error = 0;
};

void write_to_fd(void* context, void* data, int size) {
    auto* sink = static_cast<FdSink*>(context);
    const auto* p = static_cast<const char*>(data);
    size_t left = size > 0 ? static_cast<size_t>(size) : 0;
    while (left > 0 && sink->error == 0) {
        const ssize_t n = ::write(sink->fd, p, left);
        if (n < 0) {
            if (errno != EINTR) sink->error = errno;
            continue;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

// Creates `path.tmp.XXXXXX` exclusively. Unlike mkstemp (mode 0600), open(..., 0666) lets the
// umask decide the mode, so the renamed PNG gets the permissions of any new file.
int create_temporary(const std::string& path, std::string& tmp) {
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device rd;
    for (int attempt = 0; attempt < 64; ++attempt) {
        uint64_t r = (static_cast<uint64_t>(rd()) << 32) ^ rd();
        tmp = path + ".tmp.";
        for (int k = 0; k < 6; ++k, r /= 62) tmp += kLetters[r % 62];
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

// After the rename, sync the folder so the new name survives a crash. Best effort: the file is
// complete and in place either way.
void sync_parent_folder(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace

Status write_png_atomic(const Image& img, const std::string& path) {
    if (path.empty()) return usage_error("PNG export: the output path is empty");
    if (img.width < 1 || img.height < 1 || img.width > INT_MAX / 3 ||
        img.rgb.size() != static_cast<size_t>(img.width) * static_cast<size_t>(img.height) * 3) {
        return usage_error("PNG export: not a " + std::to_string(img.width) + " x " + std::to_string(img.height) +
                           " RGB image (" + std::to_string(img.rgb.size()) + " bytes)");
    }
    const auto failure = [&](const std::string& reason) { return resource_error("cannot write " + path + ": " + reason); };

    std::string tmp;
    const int fd = create_temporary(path, tmp);
    if (fd < 0) return failure(errno_text(errno));

    FdSink sink{fd, 0};
    std::string reason;
    if (!stbi_write_png_to_func(write_to_fd, &sink, img.width, img.height, 3, img.rgb.data(), img.width * 3)) {
        reason = "PNG encoding failed (out of memory)";  // stb's only failure: an allocation
    } else if (sink.error != 0) {
        reason = errno_text(sink.error);
    } else if (::fsync(fd) != 0) {  // data on disk before the rename makes it visible
        reason = errno_text(errno);
    }
    if (::close(fd) != 0 && reason.empty()) reason = errno_text(errno);
    if (reason.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) reason = errno_text(errno);
    if (!reason.empty()) {
        ::unlink(tmp.c_str());
        return failure(reason);
    }
    sync_parent_folder(path);
    return Ok{};
}

}  // namespace dpviz::render
