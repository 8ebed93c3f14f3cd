// `dpviz bench`: throughput of every backend on generated and real pairs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace dpviz::app {

// A generated pair: a seeded random sequence and a mutated copy (the query), and two random-walk
// signals of the same length (DTW).
struct BenchPair {
    std::string name;
    std::string query, target;
    std::vector<double> query_signal, target_signal;
};
// A random sequence of `length` and a copy with ~10% substitutions, ~3% insertions and ~3%
// deletions; the same for the same arguments on every machine.
BenchPair make_bench_pair(int length, bool protein, uint32_t seed);
// The median of timings (0 for none): what every bench table reports.
double median(std::vector<double> v);
// The CPU's model name from /proc/cpuinfo, or "unknown".
std::string cpu_model();

int run_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace dpviz::app
