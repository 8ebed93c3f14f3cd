// A scratch folder for one test's input and output files, removed with everything in it when the
// test ends. Shared by the command-line, GUI and peer tests.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <string>

namespace dpviz::test {

class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/dpviz-test-XXXXXX";
        path_ = mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    // The path of `name` inside the folder; nothing is made.
    std::string path(const std::string& name) const { return path_ + "/" + name; }
    std::string file(const std::string& name) const { return path(name); }
    // Writes `content` to `name` inside the folder and returns its path.
    std::string file(const std::string& name, const std::string& content) const {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

private:
    std::string path_;
};

}  // namespace dpviz::test
