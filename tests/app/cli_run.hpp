// What the command-line tests share: run the CLI in-process and keep its exit code and output,
// and a scratch directory for input and output files, removed at the end of the test.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace dpviz::app::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/dpviz-cli-XXXXXX";
        path_ = mkdtemp(tmpl);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name, const std::string& content) const {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }
    std::string path(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

}  // namespace dpviz::app::test
