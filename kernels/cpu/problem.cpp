// Building a Problem: names, encoding residues into matrix codes, the DTW fixed-point scale,
// and the up-front checks that keep every score inside int32 (no silent overflow anywhere).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dpviz/alphabet.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}


// EMBOSS's ambiguous and rare protein letters and the stop: a matrix without one of them scores
// it 0 against everything (needle and water give every letter outside the matrix a zero row).
constexpr std::string_view kZeroWhenMissing = "BZJOUX*";

// A nucleotide matrix: every letter of it is a nucleotide code (NUC.4.4, an ACGT file).
bool is_nucleotide_matrix(const SubstitutionMatrix& m) {
    return !m.alphabet.empty() && std::all_of(m.alphabet.begin(), m.alphabet.end(), is_nucleotide_code);
}

// The letter a nucleotide matrix scores `c` as when it lacks `c`: U as T (RNA against a DNA
// matrix), T as U, X as N (EMBOSS reads X in a nucleotide sequence as N). 0: none.
char nucleotide_alias(const SubstitutionMatrix& m, char c) {
    for (const auto& [from, to] : {std::pair{'U', 'T'}, std::pair{'T', 'U'}, std::pair{'X', 'N'}})
        if (c == from && m.index_of(to) >= 0) return to;
    return 0;
}

// Adds a row and a column for each letter of `residues` that `m` lacks and that has a defined
// meaning: a nucleotide alias copies the scores of the letter it stands for; a letter of
// kZeroWhenMissing scores 0 and goes last (m.unscored counts those). Other missing letters stay
// missing, so encoding reports them. This is the one place where letters map to matrix rows.
void add_missing_letters(SubstitutionMatrix& m, const std::string& residues) {
    const bool nucleotide = is_nucleotide_matrix(m);
    std::string aliased, zero;
    std::vector<int> source;  // per alias: the row it copies
    for (const char c : residues) {
        if (m.index_of(c) >= 0 || aliased.find(c) != std::string::npos || zero.find(c) != std::string::npos) continue;
        if (const char to = nucleotide ? nucleotide_alias(m, c) : 0) {
            aliased += c;
            source.push_back(m.index_of(to));
        } else if (kZeroWhenMissing.find(c) != std::string_view::npos) {
            zero += c;
        }
    }
    if (aliased.empty() && zero.empty()) return;
    // New order: the scored letters, the aliases, then every zero letter (old and new).
    const int kept = m.size() - m.unscored;
    std::vector<int> from;  // per new letter: the row of `m` it reads, -1 for zeros
    for (int k = 0; k < kept; ++k) from.push_back(k);
    from.insert(from.end(), source.begin(), source.end());
    from.insert(from.end(), size_t(m.unscored) + zero.size(), -1);
    const size_t n = from.size();
    std::vector<int32_t> scores(n * n, 0);
    for (size_t x = 0; x < n; ++x)
        for (size_t y = 0; y < n; ++y)
            if (from[x] >= 0 && from[y] >= 0) scores[x * n + y] = m.at(from[x], from[y]);
    m.alphabet = m.alphabet.substr(0, size_t(kept)) + aliased + m.alphabet.substr(size_t(kept)) + zero;
    m.scores = std::move(scores);
    m.unscored += static_cast<int>(zero.size());
}

}  // namespace

std::string_view algorithm_name(Algorithm a) { return info_of(a).name; }

std::string algorithm_choices() {
    std::string s;
    for (const AlgorithmInfo& row : kAlgorithms) s += (s.empty() ? "" : ", ") + std::string(row.name);
    return s;
}

std::optional<Algorithm> parse_algorithm(std::string_view s) {
    const std::string l = lower(s);
    for (const AlgorithmInfo& row : kAlgorithms) {
        if (l == row.name) return row.id;
        for (std::string_view rest = row.aliases; !rest.empty();) {
            const size_t space = rest.find(' ');
            if (l == rest.substr(0, space)) return row.id;
            rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
        }
    }
    return std::nullopt;
}

std::string_view dtw_cost_name(DtwCost c) { return c == DtwCost::abs ? "abs" : "squared"; }

std::string format_score(int64_t value, int32_t scale) {
    if (scale <= 1) return std::to_string(value);
    // scale divides 100, so value / scale has at most two decimals: print them exactly.
    const int64_t hundredths = value * (kMaxScoreScale / scale);
    const uint64_t mag = hundredths < 0 ? uint64_t(-hundredths) : uint64_t(hundredths);
    std::string text = (hundredths < 0 ? "-" : "") + std::to_string(mag / 100);
    if (const uint64_t frac = mag % 100; frac != 0) {
        text += '.';
        text += char('0' + frac / 10);
        if (frac % 10 != 0) text += char('0' + frac % 10);
    }
    return text;
}

int SubstitutionMatrix::index_of(char c) const {
    const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto pos = alphabet.find(u);
    return pos == std::string::npos ? -1 : static_cast<int>(pos);
}
int32_t SubstitutionMatrix::min_score() const {
    return scores.empty() ? 0 : *std::min_element(scores.begin(), scores.end());
}
int32_t SubstitutionMatrix::max_score() const {
    return scores.empty() ? 0 : *std::max_element(scores.begin(), scores.end());
}

int Problem::rows() const {
    if (algo == Algorithm::viterbi) return hmm ? hmm->num_states() : 0;
    return algo == Algorithm::dtw ? static_cast<int>(query_fixed.size()) : static_cast<int>(query_codes.size());
}
int Problem::cols() const {
    return algo == Algorithm::dtw ? static_cast<int>(target_fixed.size()) : static_cast<int>(target_codes.size());
}

bool Problem::in_band(int i, int j) const {
    if (band < 0) return true;
    const int64_t M = rows(), N = cols();
    return std::llabs(int64_t(j) * M - int64_t(i) * N + band_shift) <= int64_t(band) * M;
}

Expected<Problem> make_problem(Algorithm algo, const SequenceInput& query, const SequenceInput& target,
                               const ScoringOptions& s) {
    if (algo == Algorithm::dtw) return usage_error("DTW takes numeric signals, not sequences");
    if (s.band >= 0) return usage_error("a Sakoe-Chiba band applies to DTW only");
    Problem p;
    p.algo = algo;
    p.query_name = query.name;
    p.target_name = target.name;
    p.gaps = s.gaps;
    if (s.score_scale < 1 || s.score_scale > kMaxScoreScale || kMaxScoreScale % s.score_scale != 0)
        return usage_error("the score scale must divide " + std::to_string(kMaxScoreScale) + "; got " +
                           std::to_string(s.score_scale));
    p.score_scale = uses_substitution_matrix(algo) ? s.score_scale : 1;
    const int64_t max_penalty = int64_t(kMaxScoreMagnitude) * p.score_scale;
    auto shown = [&](int64_t v) { return format_score(v, p.score_scale); };
    for (const char c : query.residues) p.query += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const char c : target.residues) p.target += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (p.query.size() > size_t(kScoreBound) || p.target.size() > size_t(kScoreBound))
        return resource_error("sequences longer than 2^29 residues are not supported");

    if (uses_gap_penalties(algo)) {
        if (s.gaps.open < 0 || s.gaps.extend < 0)
            return usage_error("gap penalties are positive numbers (a gap of length k costs open + (k-1)*extend); got open " +
                               shown(s.gaps.open) + ", extend " + shown(s.gaps.extend));
        if (s.gaps.open > max_penalty || s.gaps.extend > max_penalty)
            return usage_error("gap penalties above " + std::to_string(kMaxScoreMagnitude) + " are not supported");
        // With extend > open the affine recurrence prices a run of k gaps at k * open (two adjacent
        // gaps are cheaper than one long one), which is not the model promised above.
        if (s.gaps.extend > s.gaps.open)
            return usage_error("gap extend (" + shown(s.gaps.extend) + ") must not exceed gap open (" +
                               shown(s.gaps.open) + ")");
    }

    if (uses_substitution_matrix(algo) && s.matrix) {
        p.matrix = *s.matrix;
        add_missing_letters(p.matrix, p.query + p.target);
        for (int32_t& v : p.matrix.scores) v *= p.score_scale;  // |entry| <= 10^6 (matrix_file): x 100 fits
    } else {
        // Match/mismatch (or plain identity for edit distance and LCS) over the letters present.
        std::string letters = p.query + p.target;
        std::sort(letters.begin(), letters.end());
        letters.erase(std::unique(letters.begin(), letters.end()), letters.end());
        if (letters.size() > 255) return input_error("more than 255 distinct residue letters");
        if (uses_substitution_matrix(algo) && (std::abs(s.match) > max_penalty || std::abs(s.mismatch) > max_penalty))
            return usage_error("match and mismatch scores beyond +-" + std::to_string(kMaxScoreMagnitude) + " are not supported");
        p.matrix.name = uses_substitution_matrix(algo) ? "match/mismatch" : "identity";
        p.matrix.alphabet = letters;
        const size_t n = letters.size();
        p.matrix.scores.assign(n * n, uses_substitution_matrix(algo) ? s.mismatch : 0);
        for (size_t k = 0; k < n; ++k) p.matrix.scores[k * n + k] = uses_substitution_matrix(algo) ? s.match : 1;
    }

    auto encode = [&](const std::string& residues, const std::string& which, std::vector<uint8_t>& codes) -> Status {
        codes.resize(residues.size());
        for (size_t k = 0; k < residues.size(); ++k) {
            const int idx = p.matrix.index_of(residues[k]);
            if (idx < 0) {
                const unsigned char c = static_cast<unsigned char>(residues[k]);
                const std::string shown = std::isprint(c) ? std::string("'") + char(c) + "'" : "byte " + std::to_string(c);
                return input_error(which + ": position " + std::to_string(k + 1) + ": residue " + shown +
                                   " is not in matrix " + p.matrix.name);
            }
            codes[k] = static_cast<uint8_t>(idx);
        }
        return Ok{};
    };
    if (auto st = encode(p.query, "query", p.query_codes); !st) return st.error();
    if (auto st = encode(p.target, "target", p.target_codes); !st) return st.error();

    // Worst case of any H, E or F value: every step scores the largest magnitude there is.
    const int64_t steps = int64_t(p.query.size()) + int64_t(p.target.size()) + 1;
    int64_t per_step = 1;
    if (uses_substitution_matrix(algo))
        per_step = std::max<int64_t>({std::abs(int64_t(p.matrix.min_score())), std::abs(int64_t(p.matrix.max_score())),
                                      int64_t(p.gaps.open), int64_t(p.gaps.extend), 1});
    if (steps * per_step + int64_t(p.gaps.open) >= kScoreBound)
        return resource_error("scores could exceed the int32 range (" + std::to_string(steps) + " steps x " +
                              std::to_string(per_step) + "); use smaller scores or shorter inputs");
    return p;
}

Expected<Problem> make_dtw_problem(const SignalInput& query, const SignalInput& target, const ScoringOptions& s) {
    Problem p;
    p.algo = Algorithm::dtw;
    p.query_name = query.name;
    p.target_name = target.name;
    p.query_signal = query.values;
    p.target_signal = target.values;
    p.dtw_cost = s.dtw_cost;
    p.band = s.band;
    if (p.query_signal.empty() || p.target_signal.empty()) return input_error("DTW needs two non-empty signals");
    if (p.query_signal.size() > size_t(kScoreBound) || p.target_signal.size() > size_t(kScoreBound))
        return resource_error("signals longer than 2^29 samples are not supported");
    double peak = 0.0;
    for (const auto* v : {&p.query_signal, &p.target_signal})
        for (const double x : *v) {
            if (!std::isfinite(x)) return input_error("signal value is not a finite number");
            peak = std::max(peak, std::abs(x));
        }

    // Fixed point: q = round(x * scale), scale a power of two. The largest local cost is
    // (2 * peak * scale) for abs, its square for squared; a path has at most M + N - 1 cells.
    // Auto scale: the largest power of two up to 2^16 that keeps the worst-case sum below 2^29.
    const double steps = double(p.query_signal.size() + p.target_signal.size());
    auto fits = [&](double scale) {
        const double span = 2.0 * peak * scale + 1.0;  // +1: rounding of both values
        const double cost = s.dtw_cost == DtwCost::abs ? span : span * span;
        return peak * scale + 1.0 < double(kScoreBound) && steps * cost < double(kScoreBound);
    };
    if (s.dtw_scale) {
        const double e = std::log2(*s.dtw_scale);
        if (!(*s.dtw_scale > 0) || e != std::floor(e) || e < -60 || e > 30)
            return usage_error("the DTW scale must be a power of two between 2^-60 and 2^30");
        if (!fits(*s.dtw_scale))
            return resource_error("a DTW scale of " + std::to_string(*s.dtw_scale) +
                                  " lets DTW costs exceed the int32 range; pick a smaller scale");
        p.dtw_scale = *s.dtw_scale;
    } else {
        int e = 16;
        while (e > -60 && !fits(std::ldexp(1.0, e))) --e;
        if (!fits(std::ldexp(1.0, e))) {
            // Say which numbers: "too long" alone misleads when three samples of 1e300 fail here.
            std::ostringstream o;
            o << "signals too long or values too large for int32 DTW costs (largest |value| " << peak << ", "
              << uint64_t(steps) << " samples in all); rescale or shorten the signals";
            return resource_error(o.str());
        }
        p.dtw_scale = std::ldexp(1.0, e);
    }
    for (const double x : p.query_signal) p.query_fixed.push_back(static_cast<int32_t>(std::lround(x * p.dtw_scale)));
    for (const double x : p.target_signal) p.target_fixed.push_back(static_cast<int32_t>(std::lround(x * p.dtw_scale)));
    if (s.band < -1) return usage_error("the band must be 0 or more");
    return p;
}

Expected<Problem> make_viterbi_problem(std::shared_ptr<const Hmm> model, const SequenceInput& observations,
                                       std::vector<uint8_t> codes) {
    if (!model) return usage_error("Viterbi needs a model");
    if (codes.empty()) return input_error(observations.name + ": no observations to decode");
    for (size_t t = 0; t < codes.size(); ++t)
        if (codes[t] >= model->alphabet.size())
            return input_error(observations.name + ": position " + std::to_string(t + 1) + ": symbol index " +
                               std::to_string(codes[t]) + " is not in the alphabet of " + model->name);
    if (codes.size() >= size_t(kScoreBound)) return resource_error("more than 2^29 observations are not supported");
    auto fixed = quantize_hmm_for(*model, codes.size());
    if (!fixed) return fixed.error();
    Problem p;
    p.algo = Algorithm::viterbi;
    p.query_name = model->name;
    p.target_name = observations.name;
    // One letter per state, for views that label rows with residues; the names are in the model.
    for (const std::string& state : model->states) p.query += state.front();
    p.target = observations.residues;
    p.target_codes = std::move(codes);
    p.hmm_fixed = std::make_shared<const FixedHmm>(std::move(*fixed));
    p.hmm = std::move(model);
    return p;
}

}  // namespace dpviz
