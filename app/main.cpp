// dpviz entry point: hands argv to the CLI (and `gui` to the GUI, where it is built), with
// standard output written through a checked stream, so a result that could not be written (a
// full disk, a closed pipe) is exit 4, and so is an allocation that fails past the memory check.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "dpviz/engine.hpp"
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

// The one line for an allocation that failed (align() checks its estimate first, but the limits
// move, and not every allocation is estimated): why, and what bounds the process now.
void report_out_of_memory(const std::string& why) {
    try {
        std::ostringstream line;
        line << "dpviz: out of memory (" << why;
        // The limit measured, not $DPVIZ_MEMORY_LIMIT: the allocation failed against the real one.
        const dpviz::HostMemoryLimit limit = dpviz::measured_host_memory_limit();
        line.precision(1);
        line << "; " << limit.source << " leaves " << std::fixed << double(limit.bytes) / double(1 << 20)
             << " MiB now)\n";
        std::cerr << line.str();
    } catch (const std::exception&) {
        std::fputs("dpviz: out of memory (an allocation failed)\n", stderr);
    }
}

// A standard descriptor closed at the start would be taken by the first file dpviz (or a library:
// the CUDA driver) opens, and output meant for it would land in that file. Each closed one is held
// by /dev/null opened read-only, so a write to a closed standard output still fails (EBADF) and is
// reported.
void hold_closed_standard_descriptors() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        const int held = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (held >= 0 && held != fd) {
            dup2(held, fd);
            close(held);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    hold_closed_standard_descriptors();
    std::vector<std::string> args(argv + 1, argv + argc);
    // Past a file-size limit a write then fails with EFBIG, which is reported, instead of the
    // signal ending the process with the file half-written.
    std::signal(SIGXFSZ, SIG_IGN);
    auto file = dpviz::render::OutputFile::open("-");
    if (!file) return dpviz::app::kExitResource;  // "-" always resolves
    dpviz::render::OutputFileBuf buf(std::move(*file));
    std::ostream out(&buf);
    int code = dpviz::app::kExitResource;
    try {
        code = dpviz::app::run_cli(args, out, std::cerr, kGui);
    } catch (const std::bad_alloc&) {
        report_out_of_memory("an allocation failed");
    } catch (const std::length_error& e) {
        report_out_of_memory(std::string("a size beyond what one allocation can hold: ") + e.what());
    }
    if (dpviz::Status written = buf.commit(); !written) {
        std::cerr << "dpviz: " << written.error().message << "\n";
        return code != dpviz::app::kExitOk ? code : dpviz::app::kExitResource;
    }
    return code;
}
