// `dpviz bench`: throughput of every backend on generated and real pairs.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dpviz::app {

int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
