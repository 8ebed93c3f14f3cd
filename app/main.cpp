// dpviz entry point: hands argv to the CLI.
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return dpviz::app::run_cli(args, std::cout, std::cerr);
}
