// Substitution matrices: the built-in NCBI-format tables shipped in assets/matrices (compiled
// into the binary), looked up by name or EMBOSS alias, and user-supplied matrix files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpviz/expected.hpp"
#include "dpviz/types.hpp"

namespace dpviz::app {

// Built-in names (case-insensitive): BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80, PAM250, NUC.4.4;
// aliases EBLOSUM62 (and the other E- names), EPAM250, EDNAFULL, DNAFULL, NUC44.
std::vector<std::string> builtin_matrix_names();
// The canonical name ("BLOSUM62", "NUC.4.4") of a built-in name or alias, if it is one.
std::optional<std::string> builtin_matrix_name(std::string_view name_or_alias);
// The NCBI-format text of a built-in matrix, as compiled in (for showing it to the user).
std::optional<std::string_view> builtin_matrix_text(std::string_view name_or_alias);
// A built-in name (which wins over a file of the same name: write "./BLOSUM62" for the file),
// or else a path to an NCBI-format file of at most 1 MiB. Neither: a usage error.
Expected<SubstitutionMatrix> load_matrix(const std::string& name_or_path);
// Parses NCBI/EMBOSS format text: '#' comments, a header row of letters, then one row per
// letter (row letter first, rows in header order), integer entries with |v| <= 1,000,000.
// Errors are one line, "ORIGIN:LINE: problem". The matrix is named after the origin's file name.
Expected<SubstitutionMatrix> parse_matrix(const std::string& text, const std::string& origin);

}  // namespace dpviz::app
