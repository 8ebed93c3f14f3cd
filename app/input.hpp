// Reading inputs: sequences (FASTA, FASTQ, plain text; any of them gzip-compressed) and
// numeric signals (CSV, TSV, whitespace). Errors name the file, the record and the position.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

enum class SeqAlphabet { dna, rna, protein };
const char* alphabet_name(SeqAlphabet a);
// DNA when every letter is ACGTN (or IUPAC nucleotide codes) and T appears or U does not;
// RNA when U appears instead of T; protein otherwise.
SeqAlphabet detect_alphabet(const std::string& residues);

struct SequenceRecord {
    std::string name;         // first word of the header ("" for plain text)
    std::string description;  // rest of the header line
    std::string residues;     // letters and '*', upper-cased; whitespace and digits removed
};

// Limits that keep pathological files in bounded memory and time.
struct ReadLimits {
    uint64_t max_bytes = uint64_t(4) << 30;  // decompressed bytes read from one file
    uint64_t max_records = 10'000'000;
    uint64_t max_line = uint64_t(1) << 30;
};

// Reads every record of a FASTA / FASTQ / plain-text file, gzip or not (detected by content).
Expected<std::vector<SequenceRecord>> read_sequences(const std::string& path, const ReadLimits& limits = {});
// The same from a string in memory (used for pasted text and literal --seq arguments).
Expected<std::vector<SequenceRecord>> parse_sequences(const std::string& text, const std::string& origin,
                                                      const ReadLimits& limits = {});
// Picks one record: `which` is "" (the first), a 1-based index ("3"), or a record name.
Expected<SequenceRecord> pick_record(const std::vector<SequenceRecord>& records, const std::string& which,
                                     const std::string& origin);

// A numeric signal: one column, or the column named `column` (header line), or the 1-based
// column index; separators comma, tab or whitespace; '#' comments. NaN/Inf are errors.
Expected<SignalInput> read_signal(const std::string& path, const std::string& column = "");
Expected<SignalInput> parse_signal(const std::string& text, const std::string& origin, const std::string& column = "");

}  // namespace dpviz::app
