// `dpviz batch`: one query against many targets, or many pairs, scored in one call.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dpviz::app {

// args: the arguments after "batch". Returns the process exit code; never exits.
int run_batch_cmd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
