// Writes gzip'd test inputs: `repeat` copies of a block through zlib, for the readers' tests of
// compressed files (and of inputs that inflate to far more than they take on disk).
#pragma once

#include <zlib.h>

#include <cstddef>
#include <string>

namespace dpviz::test {

// Writes `repeat` copies of `block` to `path` at zlib's fast level (the data is repetitive);
// returns `path`.
inline std::string write_gzip(const std::string& path, const std::string& block, size_t repeat = 1) {
    gzFile gz = gzopen(path.c_str(), "wb1");
    for (size_t k = 0; k < repeat; ++k) gzwrite(gz, block.data(), static_cast<unsigned>(block.size()));
    gzclose(gz);
    return path;
}

}  // namespace dpviz::test
