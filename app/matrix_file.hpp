// Substitution matrices: the built-in NCBI-format tables shipped in assets/matrices (compiled
// into the binary), looked up by name or EMBOSS alias, and user-supplied matrix files.
#pragma once

#include <string>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

// Built-in names (case-insensitive): BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80, PAM250, NUC.4.4;
// aliases EBLOSUM62 (and the other E- names), EDNAFULL, DNAFULL, NUC44.
std::vector<std::string> builtin_matrix_names();
// A built-in name, or else a path to an NCBI-format file.
Expected<SubstitutionMatrix> load_matrix(const std::string& name_or_path);
// Parses NCBI/EMBOSS format text: '#' comments, a header row of letters, then one row per
// letter (row letter first). Errors name the origin, line and problem.
Expected<SubstitutionMatrix> parse_matrix(const std::string& text, const std::string& origin);

}  // namespace dpviz::app
