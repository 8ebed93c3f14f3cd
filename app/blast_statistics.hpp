// E-values and bit scores for the BLAST tabular output: the published Karlin-Altschul parameters
// of BLAST's tables (NCBI blast_stat.c) for the matrices and gap costs they cover, nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dpviz/types.hpp"

namespace dpviz::app {

// Gapped Karlin-Altschul parameters of one scoring system.
struct KarlinAltschul {
    std::string_view scoring;  // "BLOSUM62 11/1", "nucleotide +1/-2 0/2": BLAST's names and gap costs
    double lambda = 0.0;
    double k = 0.0;
    // BLAST's +2 reward tables hold for even scores only: an odd score is rounded down first.
    bool even_scores_only = false;
};

// Is every residue of both sequences a nucleotide code (A C G T U, IUPAC's ambiguity codes, X)?
bool nucleotide_residues(const Problem& p);

// The parameters for `p`, if BLAST publishes them: a local alignment whose substitution scores
// over the 20 standard amino acids are BLOSUM45/50/62/80 or PAM250, or whose sequences are
// nucleotides scored +r/-q on A, C, G, T (match/mismatch, NUC.4.4 = +5/-4), with gap costs in
// the matrix's table. BLAST charges a gap of length k existence + k*extension, dpviz
// open + (k-1)*extend: so BLAST's existence is open - extend, its extension is extend.
// nullopt for every other problem (global, semiglobal, edit, lcs, dtw; other matrices or gaps).
std::optional<KarlinAltschul> karlin_altschul(const Problem& p);

struct BlastStatistics {
    double evalue = 0.0;
    double bit_score = 0.0;
};

// E = K m n exp(-lambda S) and bits = (lambda S - ln K) / ln 2 for the raw score S of an
// alignment of sequences of lengths m and n: the lengths as they are, with no effective-length
// correction (BLAST subtracts an expected HSP length from m and n first), so E is larger than
// BLAST's for short sequences and the same order of magnitude otherwise.
BlastStatistics blast_statistics(const KarlinAltschul& ka, int32_t score, int64_t m, int64_t n);

}  // namespace dpviz::app
