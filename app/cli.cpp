// placeholder: being written
#include "cli.hpp"
namespace dpviz::app {
int run_cli(const std::vector<std::string>&, std::ostream&, std::ostream&) { return 0; }
}
