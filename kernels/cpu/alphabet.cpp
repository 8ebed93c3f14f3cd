// Alphabet decisions (see dpviz/alphabet.hpp): the nucleotide code table and the one detection
// rule that the CLI, batch mode and the GUI share.
#include "dpviz/alphabet.hpp"

#include <cctype>
#include <string>

namespace dpviz {
namespace {

// EMBOSS's nucleotide set (ajseqtype.c's seqCharNuc without '?', which no reader here accepts).
constexpr std::string_view kNucleotideCodes = "ACGTUBDHKMNRSVWXY";

char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

}  // namespace

const char* alphabet_name(Alphabet a) {
    switch (a) {
        case Alphabet::dna: return "DNA";
        case Alphabet::rna: return "RNA";
        case Alphabet::protein: return "protein";
    }
    return "?";
}

std::optional<Alphabet> parse_alphabet(std::string_view s) {
    std::string l;
    for (const char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l == "dna") return Alphabet::dna;
    if (l == "rna") return Alphabet::rna;
    if (l == "protein") return Alphabet::protein;
    return std::nullopt;
}

bool is_nucleotide_code(char c) {
    const char u = upper(c);
    return u != '\0' && kNucleotideCodes.find(u) != std::string_view::npos;
}

bool accepts(Alphabet a, char c) {
    if (a != Alphabet::protein) return is_nucleotide_code(c);
    return std::isalpha(static_cast<unsigned char>(c)) || c == '*';
}

std::optional<size_t> first_rejected(std::string_view residues, Alphabet a) {
    for (size_t k = 0; k < residues.size(); ++k)
        if (!accepts(a, residues[k])) return k;
    return std::nullopt;
}

Alphabet detect_alphabet(std::span<const std::string_view> sequences) {
    bool has_t = false, has_u = false;
    for (const std::string_view s : sequences)
        for (const char raw : s) {
            const char c = upper(raw);
            if (c == '-' || c == '.') continue;
            if (!is_nucleotide_code(c)) return Alphabet::protein;
            has_t = has_t || c == 'T';
            has_u = has_u || c == 'U';
        }
    return has_u && !has_t ? Alphabet::rna : Alphabet::dna;
}

}  // namespace dpviz
