// Sequence alphabets: which letters are nucleotide codes, how the alphabet of a job is decided
// from all of its inputs together, and which letters a forced alphabet (--alphabet) accepts.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace dpviz {

// DNA and RNA accept the same letters (U reads as T, as EMBOSS's dna and rna types do); they
// differ in name only. Both get NUC.4.4 by default, protein BLOSUM62.
enum class Alphabet { dna, rna, protein };

const char* alphabet_name(Alphabet a);                     // "DNA", "RNA", "protein"
std::optional<Alphabet> parse_alphabet(std::string_view s);  // "dna", "rna", "protein", any case

// A nucleotide code, either case: A C G T U, the IUPAC ambiguity codes B D H K M N R S V W Y,
// and X (EMBOSS reads X in a nucleotide sequence as N).
bool is_nucleotide_code(char c);

// Whether `a` accepts the residue `c`: nucleotide codes for DNA and RNA, every letter and '*'
// for protein (EMBOSS's B Z J O U X and '*' included).
bool accepts(Alphabet a, char c);

// 0-based position of the first residue that `a` does not accept, if any.
std::optional<size_t> first_rejected(std::string_view residues, Alphabet a);

// The one rule, over the union of the letters of every sequence (query and target together, or
// every record of a batch): nucleotide when every letter is a nucleotide code, else protein; a
// nucleotide set is RNA when it has U and no T, else DNA (so RNA against DNA is nucleotide).
// Gap characters '-' and '.' are neutral. No letters at all: DNA.
Alphabet detect_alphabet(std::span<const std::string_view> sequences);
inline Alphabet detect_alphabet(std::string_view residues) { return detect_alphabet(std::span(&residues, 1)); }

}  // namespace dpviz
