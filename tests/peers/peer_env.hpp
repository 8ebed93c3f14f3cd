// Shared by the peer-agreement tests: finding the peers (EMBOSS programs and data), real
// sequences extracted at test time from Debian's emboss-test data, and dpviz's side of a comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpviz/types.hpp"

namespace dpviz::peers {

// ---------------------------------------------------------------------------------------------
// Where the peers live (Debian packages emboss, emboss-data, emboss-test)
// ---------------------------------------------------------------------------------------------

inline constexpr const char* kEmbossData = "/usr/share/EMBOSS/data";             // EBLOSUM62, EDNAFULL
inline constexpr const char* kSwissDat = "/usr/share/EMBOSS/test/swiss/seq.dat";  // 100 SwissProt entries
inline constexpr const char* kEmblDir = "/usr/share/EMBOSS/test/embl";            // EMBL flat files
inline constexpr const char* kEmbossTestData = "/usr/share/EMBOSS/test/data";      // ambignuc.fasta, rna1.seq, ...

// Empty when `needle`, `water`, `seqret`, EMBOSS's matrices and its test data are all there;
// otherwise why not (for GTEST_SKIP).
std::string emboss_missing();
// Empty when `seqret` and the test data are there (enough to feed parasail and edlib real data).
std::string emboss_data_missing();

// ---------------------------------------------------------------------------------------------
// Real sequences
// ---------------------------------------------------------------------------------------------

// One sequence both as residues (what dpviz, parasail and edlib get) and as a FASTA file holding
// exactly those residues (what needle, water and the dpviz binary read).
struct Seq {
    std::string name;
    std::string residues;  // upper case, as dpviz's reader returns them
    std::string fasta;     // path in the per-process scratch directory
};

// A SwissProt entry of emboss-test's seq.dat ("HBA_HUMAN").
Seq swiss(const std::string& id);
// An EMBL entry of emboss-test's flat files: `file` is "hum1.dat", `id` "U01317".
Seq embl(const std::string& file, const std::string& id);
// Residues begin..end (1-based, inclusive, as EMBOSS and EMBL count) of `s`, as a new Seq.
Seq segment(const Seq& s, int begin, int end);
// Any residues, written to a FASTA file (synthetic cases).
Seq literal(const std::string& name, const std::string& residues);
// A sequence file of emboss-test's data folder used as it is (every tool reads that file): its
// first record as dpviz's reader returns it. Throws when the file is missing.
Seq test_data(const std::string& file);
// A file in the scratch directory holding `content` (a matrix for -datafile and --matrix).
std::string scratch_file(const std::string& name, const std::string& content);

// Both helpers above throw std::runtime_error with the command and its stderr when a peer
// fails; GoogleTest reports that as a failure of the test that asked.

// ---------------------------------------------------------------------------------------------
// Running programs
// ---------------------------------------------------------------------------------------------

struct CommandOutput {
    int status = -1;     // exit status; -1 when the command did not exit normally
    std::string out;     // stdout
    std::string err;     // stderr
};
CommandOutput run_command(const std::vector<std::string>& argv);
std::optional<std::string> find_program(const std::string& name);  // searches $PATH

// ---------------------------------------------------------------------------------------------
// dpviz's side
// ---------------------------------------------------------------------------------------------

// A built-in matrix by name ("BLOSUM62", "NUC.4.4") or a matrix file path, via the app's loader.
const SubstitutionMatrix& matrix(const std::string& name_or_path);

Problem make(Algorithm algo, const Seq& query, const Seq& target, const SubstitutionMatrix* m = nullptr,
             GapPenalties gaps = {});
// dpviz's score: the CPU reference (level matrix; its alignment re-scored from the aligned rows
// as a self-check, a failure added to the running test) up to kReferenceCells cells, the fast
// CPU backend at level score beyond.
inline constexpr int64_t kReferenceCells = int64_t(1) << 20;
int32_t dpviz_score(const Problem& p);

// The score of an alignment recomputed from its two rows: substitution scores plus
// open + (k-1)*extend for each run of k '-' (internal and end gaps alike). Edit distance: the
// columns that differ.
int64_t rescore_rows(const Problem& p, const std::string& query_row, const std::string& target_row);

// "10/1" for messages and test names.
std::string gaps_text(GapPenalties g);

}  // namespace dpviz::peers
