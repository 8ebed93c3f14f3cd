// What the command-line entry points share (`dpviz align`, `dpviz batch`, `dpviz bench`, the
// GUI's measurement output): option parsing, exit codes, one-line error messages, JSON strings.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "dpviz/alphabet.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/expected.hpp"

namespace dpviz::app {

// The documented exit code of an error (README "Exit codes").
int exit_code(ErrorKind k);
// Messages echo arguments and file names byte for byte: one line, no terminal control bytes.
std::string one_line(const std::string& s);
// "dpviz: MESSAGE" on `err`; returns the error's exit code.
int fail(std::ostream& err, const Error& e);
// The body of a JSON string (quotes, backslashes and control bytes escaped).
std::string json_escape(const std::string& s);

// Options that take a value, flags that do not, and the rest in order.
struct Args {
    std::map<std::string, std::string> values;
    std::map<std::string, bool> flags;
    std::vector<std::string> positional;
    // With parse_args' keep_order: the options in the order given, each value option every time
    // it is given and each flag once (with an empty value), for a reader that takes an option
    // more than once (the GUI's --panel). Empty otherwise, so a million repeated words cost
    // nothing here.
    std::vector<std::pair<std::string, std::string>> in_order;
    bool has(const std::string& k) const { return values.count(k) > 0; }
    std::string get(const std::string& k, const std::string& fallback = "") const;
};

// Parses args[first..]: `--opt value`, `--opt=value`, flags, `--` ends the options; an unknown
// option or a flag given a value is a usage error that names `help` ("see HELP").
Expected<Args> parse_args(const std::vector<std::string>& args, size_t first, const std::vector<std::string>& value_opts,
                          const std::vector<std::string>& flag_opts, const std::string& help = "--help",
                          bool keep_order = false);
// A score or penalty with at most two decimals, in hundredths ("0.5" -> 50, "-3" -> -300);
// anything else is a usage error naming `name`.
Expected<int64_t> parse_hundredths(const std::string& name, const std::string& text);
// The same for an option, `fallback` (hundredths) when absent.
Expected<int64_t> hundredths_option(const Args& a, const std::string& name, int64_t fallback);
// The smallest scale (a divisor of 100) that makes every value (in hundredths) an integer.
int32_t common_score_scale(std::initializer_list<int64_t> hundredths);
// The user's scores and penalties (hundredths) as make_problem takes them, for the command line
// and the GUI alike: match > 0, mismatch <= 0 and both within kMaxScoreMagnitude when they score
// (`match_mismatch`), gaps >= 0 with extend <= open; the scale the smallest that makes the gaps
// (and match and mismatch when they score) integers. `prefix` goes before each value's name in
// the messages ("--" for the command line's options, "" for the GUI's fields).
struct UserScores {
    int64_t gap_open = 0, gap_extend = 0, match = 0, mismatch = 0;
    bool match_mismatch = false;
};
Status scale_scores(const UserScores& v, const std::string& prefix, ScoringOptions& s);
// EMBOSS needle's and water's gap penalties, the defaults of align and batch (hundredths).
inline constexpr int64_t kDefaultGapOpen = 1000;
inline constexpr int64_t kDefaultGapExtend = 50;
// What a picture of the landscape layer adds to its caption (`dpviz align --png`, the GUI's PNG).
inline constexpr const char* kLandscapeCaption = "  layer: landscape (the best alignment through each cell)";

// The integer value of an option, `fallback` when it is absent; anything else is a usage error.
Expected<int32_t> int_option(const Args& a, const std::string& name, int32_t fallback);

// What every alignment command takes: --algo (default local) and the gap, band and DTW options,
// with the checks that each given option applies to the algorithm.
struct AlgoScoring {
    Algorithm algo = Algorithm::local;
    ScoringOptions scoring;
};
Expected<AlgoScoring> algo_scoring_from_args(const Args& a);
// One input sequence as messages name it: its file (or "query" / "target" for --seq) and its
// record (SequenceInput::name).
struct NamedSequence {
    std::string origin;
    const SequenceInput* sequence = nullptr;
};
// The alphabet of a job: --alphabet dna|rna|protein, every residue checked against it (one it
// does not accept is an input error naming the file, the record, the position and the letter),
// or else detect_alphabet over all the inputs together.
Expected<Alphabet> alphabet_from_args(const Args& a, std::span<const NamedSequence> inputs);
// What a sequence job takes from the options and its inputs: the alphabet (alphabet_from_args)
// and, for local, global and semiglobal, the substitution scores into `s`: --match/--mismatch,
// or --matrix, by default the alphabet's (BLOSUM62 for protein, NUC.4.4 for DNA and RNA).
Status sequence_scoring_from_args(const Args& a, Algorithm algo, std::span<const NamedSequence> inputs,
                                  ScoringOptions& s);
// make_problem for a pair read from the command line's inputs: an input error names the file
// (or "query" / "target" for --seq) and the record, "FILE: record 'NAME': position K: residue
// 'J' is not in matrix M".
Expected<Problem> sequence_problem(Algorithm algo, const NamedSequence& query, const NamedSequence& target,
                                   const ScoringOptions& s);

}  // namespace dpviz::app
