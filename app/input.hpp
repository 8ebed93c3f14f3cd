// Reading inputs: sequences (FASTA, FASTQ, plain text; any of them gzip-compressed) and
// numeric signals (CSV, TSV, whitespace). Errors name the file, the record and the position.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpviz/alphabet.hpp"
#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

// The alphabet rule lives with the engine (dpviz/alphabet.hpp), one copy for every front end.
using SeqAlphabet = dpviz::Alphabet;
using dpviz::alphabet_name;
using dpviz::detect_alphabet;

struct SequenceRecord {
    std::string name;         // first word of the header; plain text: the origin's file name stem
    std::string description;  // rest of the header line
    std::string residues;     // letters and '*', upper-cased; whitespace and digits removed
};

// Limits that keep pathological files in bounded memory and time. Sequence and quality lines
// are streamed (a 1 GB one-line genome costs its residues, no line buffer); header, '+' and
// signal lines are buffered whole and bounded by max_line. Exceeding a limit is a resource error.
struct ReadLimits {
    uint64_t max_bytes = uint64_t(4) << 30;  // bytes read from one file (after decompression)
    uint64_t max_records = 1'000'000;        // records kept in memory by read_sequences
    uint64_t max_line = uint64_t(1) << 20;   // longest buffered line (headers, signal rows)
    // Samples kept per signal: 8 bytes each, from as little as 2 bytes of input ("1\n"), so
    // max_bytes alone would let a signal take 4x its input. 2^29 is what the engine accepts.
    uint64_t max_values = uint64_t(1) << 29;
};

// Reads every record of a FASTA / FASTQ / plain-text file, gzip or not (detected by the magic
// bytes). The format follows from the first non-blank character: '>' FASTA, '@' FASTQ,
// anything else plain text (one record). An empty file, or one with no record, is an error;
// records with no residues are kept (pick_record rejects them).
Expected<std::vector<SequenceRecord>> read_sequences(const std::string& path, const ReadLimits& limits = {});
// The same from a string in memory (used for pasted text and literal --seq arguments): a bare
// string like "ACGT" is one record named after `origin`.
Expected<std::vector<SequenceRecord>> parse_sequences(const std::string& text, const std::string& origin,
                                                      const ReadLimits& limits = {});
// Picks one record: `which` is "" (the first), a record name, or a 1-based index ("3"); a
// name wins over an index, so a record named "2" stays reachable. A record that is not there is
// an input error (index 0 a usage error), saying how many records there are; a picked record
// with no residues is an input error.
Expected<SequenceRecord> pick_record(const std::vector<SequenceRecord>& records, const std::string& which,
                                     const std::string& origin);
// read_sequences + pick_record in one pass that keeps only the wanted record in memory, so a
// file with millions of records needs no more than the record asked for. The whole file is
// still validated.
Expected<SequenceRecord> read_record(const std::string& path, const std::string& which,
                                     const ReadLimits& limits = {});

// A numeric signal: one column, or the column named `column` (header line), or the 1-based
// column index; separators comma, tab or whitespace; '#' comments; an optional header line
// (a first row in which no field is a number). NaN, Inf, empty and non-numeric values in the
// chosen column are input errors; an unknown or missing column choice is a usage error.
// gzip-compressed files are read too.
Expected<SignalInput> read_signal(const std::string& path, const std::string& column = "",
                                  const ReadLimits& limits = {});
Expected<SignalInput> parse_signal(const std::string& text, const std::string& origin, const std::string& column = "",
                                   const ReadLimits& limits = {});

}  // namespace dpviz::app
