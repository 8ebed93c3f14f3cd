// What the command-line tests share: run the CLI in-process and keep its exit code and output,
// a scratch directory for input and output files, the readers of what the CLI wrote, and the
// check of a failed run's exit code and message.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "temp_dir.hpp"
#include "test_text.hpp"

namespace dpviz::app::test {

using dpviz::test::fields;
using dpviz::test::json_field;
using dpviz::test::lines_of;
using dpviz::test::slurp;
using dpviz::test::TempDir;

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult run(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int code = run_cli(args, out, err);
    return {code, out.str(), err.str()};
}

// Expects the run to have failed with exit code `code` and an error message holding each of `parts`.
inline void expect_failure(const CliResult& r, int code, std::initializer_list<std::string> parts) {
    EXPECT_EQ(r.code, code) << r.err;
    for (const std::string& part : parts) EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

}  // namespace dpviz::app::test
