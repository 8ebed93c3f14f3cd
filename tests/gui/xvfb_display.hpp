// An X server number for the tests that run the real binary under xvfb-run, and a wait for that
// server to be gone before the next test starts one.
#pragma once

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace dpviz::gui::testing {

// xvfb-run kills its Xvfb without waiting for it to exit. A run that starts meanwhile on the same
// display number (`-a` sees the number free once the lock file is gone) loses its socket when
// the old server's exit removes it, and its next GLFW start fails mid-test. So these runs take a
// number away from the 99 the other Xvfb tests start at, and wait for their server's lock file
// to go before returning.
class XvfbDisplay {
public:
    XvfbDisplay() : number_(300 + int(getpid() % 300)) {}
    // The command prefix: the first free number from ours, a 1280x800 screen.
    std::string run() const { return "xvfb-run -n " + std::to_string(number_) + " -a -s '-screen 0 1280x800x24' "; }
    // After a run: until the server removed its lock (at most 5 s; if our number was taken and
    // xvfb-run took the next, this waits for someone else's server and gives up).
    void wait_gone() const {
        const std::string lock = "/tmp/.X" + std::to_string(number_) + "-lock";
        for (int k = 0; k < 100 && std::filesystem::exists(lock); ++k)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }

private:
    int number_;
};

}  // namespace dpviz::gui::testing
