// The fast CPU backend (placeholder until the tiled multithreaded fill lands): delegates to the
// reference and trims the outputs to the requested level.
#include "dpviz/engine.hpp"

namespace dpviz {

DpResult align_cpu(const Problem& p, OutputLevel level, unsigned) {
    DpResult r = align_reference(p);
    r.backend = "cpu";
    r.level = level;
    if (level != OutputLevel::matrix) { r.H = {}; r.E = {}; r.F = {}; }
    if (level == OutputLevel::score) { r.dirs = {}; r.path.clear(); r.alignment = {}; }
    return r;
}

}  // namespace dpviz
