// The start that `dpviz align` and `dpviz batch` share once their options are parsed: --help
// answered, a parse error or a count of inputs other than two reported as a usage error.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "cli.hpp"
#include "cli_common.hpp"

namespace dpviz::app {

// The exit code when the run of subcommand `command` ends before its inputs are read (help
// printed to `out`, or an error to `err`), nullopt when it goes on with *parsed. `inputs` names
// the two positional arguments: "QUERY and TARGET".
inline std::optional<int> ends_before_inputs(const Expected<Args>& parsed, const char* help, const std::string& command,
                                             const std::string& inputs, std::ostream& out, std::ostream& err,
                                             size_t count = 2) {
    if (!parsed) return fail(err, parsed.error());
    if (parsed->flags.count("--help")) {
        out << help;
        return kExitOk;
    }
    const size_t n = parsed->positional.size();
    if (n != count)
        return fail(err, usage_error(command + " needs " + inputs + " (got " + std::to_string(n) +
                                     " arguments); see dpviz " + command + " --help"));
    return std::nullopt;
}

}  // namespace dpviz::app
