// Output files written so that no data is lost or clobbered: the bytes go to a new file beside
// the destination and replace it in one rename once every write, fsync and close succeeded.
#pragma once

#include <cstddef>
#include <streambuf>
#include <string>
#include <string_view>

#include "dpviz/expected.hpp"

namespace dpviz::render {

// Where a write to `path` goes: "-" is standard output; a symbolic link is followed (to the
// file it names, which is then replaced in its own folder); an existing FIFO, device, socket or
// folder is refused, since replacing one by a regular file destroys it. Errors are resource
// errors "writing PATH: REASON"; an empty path is a usage error.
struct Destination {
    std::string shown;     // the path as the user gave it, for messages
    std::string resolved;  // the regular file (existing or not) that a rename replaces
    bool standard_output = false;
};
Expected<Destination> resolve_destination(const std::string& path);

// One output being written. Writes after the first failure are skipped; commit() reports it.
// Until commit() succeeds the destination is untouched, and a file that is dropped (or whose
// commit fails) leaves no temporary behind. An existing file's permission bits are kept.
class OutputFile {
public:
    static Expected<OutputFile> open(const std::string& path);
    OutputFile(OutputFile&& o) noexcept;
    OutputFile& operator=(OutputFile&&) = delete;
    OutputFile(const OutputFile&) = delete;
    ~OutputFile();

    void write(const void* data, size_t bytes);
    bool failed() const { return error_ != 0; }
    // Flushes to the disk, closes and renames into place (standard output: checks the writes).
    Status commit();
    const std::string& shown() const { return dest_.shown; }

private:
    explicit OutputFile(Destination d) : dest_(std::move(d)) {}
    Error failure(int err) const;

    Destination dest_;
    std::string tmp_;
    int fd_ = -1;
    int error_ = 0;  // the first errno of a failed write
    bool committed_ = false;
};

// A stream buffer over an OutputFile, for an std::ostream: what dpviz prints to standard output
// goes through one, so a full disk or a closed descriptor is an error, not a lost result. A
// failed write sets the stream's badbit.
class OutputFileBuf : public std::streambuf {
public:
    explicit OutputFileBuf(OutputFile file);
    // Flushes what is buffered, then commits the file.
    Status commit();

protected:
    int_type overflow(int_type c) override;
    int sync() override;

private:
    bool flush_buffer();

    OutputFile file_;
    char buffer_[1 << 16];
};

// The whole of `bytes` to `path` through an OutputFile.
Status write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace dpviz::render
