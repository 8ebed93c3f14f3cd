// Safe output files (output_file.hpp): destinations resolved and checked, bytes written to an
// exclusive temporary beside the destination, synced, and renamed over it.
#include "dpviz/render/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <random>
#include <system_error>

namespace dpviz::render {

namespace {

constexpr int kMaxLinkHops = 40;  // as the kernel's own limit (ELOOP)

std::string errno_text(int e) { return std::error_code(e, std::generic_category()).message(); }

Error write_error(const std::string& shown, const std::string& reason) {
    return resource_error("writing " + shown + ": " + reason);
}

std::string folder_of(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

const char* file_type_name(mode_t m) {
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

// Creates `path.tmp.XXXXXX` exclusively. Unlike mkstemp (mode 0600), open(..., 0666) lets the
// umask decide the mode, so a new file gets the permissions of any new file.
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
void sync_folder(const std::string& path) {
    const int fd = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace

Expected<Destination> resolve_destination(const std::string& path) {
    if (path.empty()) return usage_error("the output path is empty");
    Destination d{path == "-" ? "standard output" : path, path, path == "-"};
    if (d.standard_output) return d;
    for (int hops = 0;; ++hops) {
        struct stat st {};
        if (::lstat(d.resolved.c_str(), &st) != 0) {
            if (errno == ENOENT) return d;  // a new file; a missing folder fails when it is created
            return write_error(path, errno_text(errno));
        }
        if (S_ISREG(st.st_mode)) return d;
        if (!S_ISLNK(st.st_mode))
            return write_error(path, std::string("it is ") + file_type_name(st.st_mode) +
                                         ", and dpviz replaces only regular files");
        if (hops == kMaxLinkHops) return write_error(path, errno_text(ELOOP));
        std::string target(size_t(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
        const ssize_t n = ::readlink(d.resolved.c_str(), target.data(), target.size());
        if (n < 0) return write_error(path, errno_text(errno));
        target.resize(size_t(n));
        // A relative link names a file relative to the folder that holds the link.
        d.resolved = target.front() == '/' ? target : folder_of(d.resolved) + "/" + target;
    }
}

Expected<OutputFile> OutputFile::open(const std::string& path) {
    auto dest = resolve_destination(path);
    if (!dest) return dest.error();
    OutputFile f(std::move(*dest));
    if (f.dest_.standard_output) {
        f.fd_ = STDOUT_FILENO;
        return f;
    }
    f.fd_ = create_temporary(f.dest_.resolved, f.tmp_);
    if (f.fd_ < 0) {
        const int err = errno;
        f.tmp_.clear();  // nothing was created
        return f.failure(err);
    }
    struct stat st {};
    if (::stat(f.dest_.resolved.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        (void)::fchmod(f.fd_, st.st_mode & 07777);  // a replaced file keeps its permissions
    return f;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : dest_(std::move(o.dest_)), tmp_(std::move(o.tmp_)), fd_(o.fd_), error_(o.error_), committed_(o.committed_) {
    o.fd_ = -1;
    o.tmp_.clear();
    o.committed_ = true;
}

OutputFile::~OutputFile() {
    if (committed_) return;
    if (!dest_.standard_output && fd_ >= 0) ::close(fd_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

Error OutputFile::failure(int err) const { return write_error(dest_.shown, errno_text(err)); }

void OutputFile::write(const void* data, size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0 && error_ == 0 && fd_ >= 0) {
        const ssize_t n = ::write(fd_, p, bytes);
        if (n < 0) {
            if (errno != EINTR) error_ = errno;
            continue;
        }
        if (n == 0) error_ = EIO;  // a regular file or pipe never takes 0 bytes of a non-empty write
        p += n;
        bytes -= size_t(n);
    }
}

Status OutputFile::commit() {
    if (committed_) return Ok{};
    committed_ = true;
    if (dest_.standard_output) return error_ ? Status(failure(error_)) : Status(Ok{});
    int err = error_;
    if (err == 0 && ::fsync(fd_) != 0) err = errno;  // data on disk before the rename shows it
    if (::close(fd_) != 0 && err == 0) err = errno;
    fd_ = -1;
    if (err == 0 && ::rename(tmp_.c_str(), dest_.resolved.c_str()) != 0) err = errno;
    if (err != 0) {
        ::unlink(tmp_.c_str());
        return failure(err);
    }
    sync_folder(dest_.resolved);
    return Ok{};
}

OutputFileBuf::OutputFileBuf(OutputFile file) : file_(std::move(file)) { setp(buffer_, buffer_ + sizeof buffer_); }

bool OutputFileBuf::flush_buffer() {
    file_.write(pbase(), size_t(pptr() - pbase()));
    setp(buffer_, buffer_ + sizeof buffer_);
    return !file_.failed();
}

OutputFileBuf::int_type OutputFileBuf::overflow(int_type c) {
    if (!flush_buffer()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
}

int OutputFileBuf::sync() { return flush_buffer() ? 0 : -1; }

Status OutputFileBuf::commit() {
    flush_buffer();
    return file_.commit();
}

Status write_file_atomic(const std::string& path, std::string_view bytes) {
    auto f = OutputFile::open(path);
    if (!f) return f.error();
    f->write(bytes.data(), bytes.size());
    return f->commit();
}

}  // namespace dpviz::render
