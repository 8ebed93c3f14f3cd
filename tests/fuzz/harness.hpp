// Fuzz harnesses: one per input parser (sequences, signals, substitution matrices, the command
// line, HMM files), shared by the libFuzzer targets and by the corpus replay test, so both check
// the same.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dpviz::fuzz {

// What a harness found wrong with one input, one sentence each; empty when nothing was.
// A finding is a product bug: an exception, a multi-line or empty error message, a broken
// invariant of the parsed value, two ways of reading the same bytes that disagree, or a CPU
// backend that disagrees with the reference on the parsed input.
using Findings = std::vector<std::string>;

struct Harness {
    std::string_view name;  // corpus folder tests/fuzz/corpus/<name>, fuzz target fuzz_<name>
    size_t max_len;         // longest input worth fuzzing (libFuzzer -max_len); longer ones are cut
    Findings (*run)(std::string_view bytes);
};

// Runs `h` on `bytes` cut to h.max_len: what a fuzz target and the corpus replay both do.
Findings run_harness(const Harness& h, std::string_view bytes);

// Every harness, in a fixed order: sequences, signal, matrix, cli, hmm.
std::span<const Harness> harnesses();
const Harness* find_harness(std::string_view name);

// The cli harness's scratch directory, made on first use and removed at exit: a few small input
// files (q.fa q.fa.gz t.fa r.fq p.txt e.fa s.csv s.tsv m.mat, a folder dir). A fuzzed command
// line opens only those (its words that name them become absolute paths; other words with a
// '/' or naming anything in the working directory are dropped) and writes nothing (--png is
// dropped, and command lines of `bench` or `gui` are skipped). It also unsets DISPLAY and
// WAYLAND_DISPLAY, since `dpviz` alone opens the GUI when there is a display.
const std::string& cli_sandbox();

}  // namespace dpviz::fuzz
