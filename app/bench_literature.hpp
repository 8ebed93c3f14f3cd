// `dpviz bench --workloads literature`: the three batch workloads of the DPX literature (local
// alignment of one 2048^2 pair x100, edit distance of 512 pairs of 1024^2, DTW of 256 pairs of
// 800^2), DPX against DPX-free, each checked against the CPU.
#pragma once

#include <cstdint>
#include <iosfwd>

namespace dpviz::app {

struct LiteratureOptions {
    int repeats = 10;       // timed runs per backend (one warm-up first); the median is reported
    bool protein = false;   // the local workload on protein (BLOSUM62 11/1) instead of DNA (NUC.4.4 10/1)
    unsigned threads = 0;   // CPU check: threads over pairs
    uint32_t seed = 1;
    bool json = false;
    int copies = 1;         // the workload's pairs K times over in one batch (targets apply at 1)
};

int run_literature_bench(const LiteratureOptions& o, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
