// dpviz entry point: hands argv to the CLI (and `gui` to the GUI, where it is built), with
// standard output written through a checked stream, so a result that could not be written (a
// full disk, a closed pipe) is exit 4.
#include <csignal>
#include <iostream>

#include "cli.hpp"
#include "dpviz/render/output_file.hpp"
#ifdef DPVIZ_HAVE_GUI
#include "gui/gui.hpp"
#endif

namespace {

#ifdef DPVIZ_HAVE_GUI
constexpr dpviz::app::Command kGui = &dpviz::app::run_gui;
#else
constexpr dpviz::app::Command kGui = nullptr;
#endif

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    // Past a file-size limit a write then fails with EFBIG, which is reported, instead of the
    // signal ending the process with the file half-written.
    std::signal(SIGXFSZ, SIG_IGN);
    auto file = dpviz::render::OutputFile::open("-");
    if (!file) return dpviz::app::kExitResource;  // "-" always resolves
    dpviz::render::OutputFileBuf buf(std::move(*file));
    std::ostream out(&buf);
    const int code = dpviz::app::run_cli(args, out, std::cerr, kGui);
    if (dpviz::Status written = buf.commit(); !written) {
        std::cerr << "dpviz: " << written.error().message << "\n";
        return code != dpviz::app::kExitOk ? code : dpviz::app::kExitResource;
    }
    return code;
}
