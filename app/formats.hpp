// The standard outputs of `dpviz align` and `dpviz batch` (--format): EMBOSS-style text, JSON,
// SAM, PAF, BLAST tabular, a bare CIGAR, and batch's TSV. One writer per format (docs/formats.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

enum class OutputFormat { text, json, sam, paf, blast6, cigar, tsv };

std::string_view output_format_name(OutputFormat f);
std::optional<OutputFormat> parse_output_format(std::string_view s);  // the names above, any case
// Does format f describe a result of algorithm a? SAM, PAF and BLAST describe an alignment of
// residues: not a DTW warping path; a Viterbi state path is text or JSON only. When not, `why`
// says so for the message ("a warping path aligns no residues").
bool format_takes(OutputFormat f, Algorithm a, std::string* why = nullptr);
// SAM, PAF, BLAST and CIGAR are alignments: they need a path (text shows one when there is one,
// JSON and the TSV report a score-level result too).
bool format_needs_path(OutputFormat f);

struct Args;
// --format F, or --json (its alias for json), else `fallback`. A name outside `allowed`, or
// --json with another --format, is a usage error.
Expected<OutputFormat> output_format_from_args(const Args& a, OutputFormat fallback,
                                               std::span<const OutputFormat> allowed);

// One pair's result as the writers read it.
struct PairOutput {
    const Problem* problem = nullptr;
    const DpResult* result = nullptr;
    // The alignment was asked for. Without it only score, end, cells, backend, fallback and the
    // DTW distances are read, and the writers leave every alignment field out.
    bool path = true;
    int64_t pair = 0;            // batch: the pair's 1-based number ("pair" in JSON and TSV); 0 for align
    bool timed = true;           // fill_ms / traceback_ms are this pair's own (not for batch scores)
    bool dtw_reference = true;   // result->dtw_reference was computed (not for batch scores)
    double job_ms = -1.0;        // align: the command's wall clock up to this record (JSON `job_ms`); < 0: none
};

// What a header says beyond the pairs.
struct HeaderInfo {
    std::string command_line;    // SAM's @PG CL: the arguments as given
    bool with_path = false;      // TSV: alignment columns after the score columns
};

// The command line as SAM's @PG CL records it: `program` and `args` joined by spaces, an argument
// holding a blank or a quote written in single quotes.
std::string command_line(std::string_view program, std::span<const std::string> args);

// The lines a format opens with: SAM's @HD, one @SQ per target and @PG; the TSV's column line;
// nothing for the others. An input error when two different targets would share one SAM name.
Expected<std::string> format_header(OutputFormat f, std::span<const Problem> problems, const HeaderInfo& info);
// One pair: a line (JSON, SAM, PAF, BLAST, CIGAR, TSV) or a block (text). PAF and BLAST write
// nothing for an empty alignment (a local alignment scoring 0), as minimap2 and BLAST report
// no hit; SAM writes it as an unmapped read; CIGAR as "*".
std::string format_pair(OutputFormat f, const PairOutput& out, const HeaderInfo& info = {});

// The CIGAR of the aligned part ('=' 'X' 'I' 'D'), "*" when empty, as SAM writes no CIGAR.
std::string cigar_or_star(const Alignment& a);

}  // namespace dpviz::app
