// Hidden Markov model files (docs/algorithms.md, "Viterbi: the HMM file") and the observation
// sequences Viterbi decodes: readers with one-line "ORIGIN:LINE: problem" errors, and a writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz::app {

// Limits of an HMM file: its size (a dense 1024-state model at 12 characters a value is about
// 13 MiB, so the limit leaves room for that and no more), a line (one transition row of 1024
// values), a state name.
inline constexpr uint64_t kMaxHmmFileBytes = uint64_t(16) << 20;
inline constexpr size_t kMaxHmmLine = size_t(64) << 10;
inline constexpr size_t kMaxHmmStateName = 32;

// A path to an HMM file of at most kMaxHmmFileBytes (more is a resource error, checked before
// reading). The model is named after the file name.
Expected<Hmm> load_hmm(const std::string& path);
// The same from text in memory; errors name `origin`, and the model is named after its file name.
Expected<Hmm> parse_hmm(std::string_view text, const std::string& origin);
// The model as an HMM file that parse_hmm reads back to the same doubles (%.17g), with the
// model's name in a comment.
std::string format_hmm(const Hmm& model);

// An observation sequence: its symbols in order, blanks and line breaks removed.
struct ObservationRecord {
    std::string name;     // the FASTA record's first word; plain text: the file name stem
    std::string symbols;  // one character per observation
};

// Reads observations from a plain-text file (every character that is not a blank or a line
// break is one symbol) or a FASTA file (first non-blank, non-comment character '>'; `which` is
// "" for the first record, a record name, or a 1-based index). In both, '#' starts a comment
// that runs to the end of the line (no alphabet has '#'; FASTA header lines are kept whole); a
// UTF-8 byte-order mark is skipped; gzip input is read too. A control character is an input
// error naming the line; so are a missing record and no symbols at all. More than `max_bytes`
// is a resource error.
Expected<ObservationRecord> read_observations(const std::string& path, const std::string& which = "",
                                              uint64_t max_bytes = uint64_t(1) << 30);
Expected<ObservationRecord> parse_observations(std::string_view text, const std::string& origin,
                                               const std::string& which = "");

// Symbol indices into model.alphabet. A symbol matches exactly, or else, for a letter, its other
// case (so 'acgt' reads with alphabet A C G T, and an alphabet with both 'a' and 'A' keeps them
// apart). A symbol not in the alphabet is an input error "WHERE: position K: symbol 'X' is
// not in the alphabet of MODEL", K counting observations from 1.
Expected<std::vector<uint8_t>> encode_observations(const Hmm& model, std::string_view symbols,
                                                   const std::string& where);

// The Viterbi problem of a job, for the CLI and the GUI alike: the model from `model_path`, the
// observations from a file (`observations` a path, `record` as for read_observations) or, with
// `literal`, `observations` itself ("--seq"). Every error names the file (or "observations"
// for a literal), the position and the problem.
Expected<Problem> load_viterbi_problem(const std::string& model_path, const std::string& observations, bool literal,
                                       const std::string& record = "");

}  // namespace dpviz::app
