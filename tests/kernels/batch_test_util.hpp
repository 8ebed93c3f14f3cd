// Seeded random batches for the batch-mode tests (CPU and GPU): every algorithm, linear and
// affine gaps, DNA (match/mismatch over each pair's own letters) and protein (one matrix).
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "dpviz/batch.hpp"

namespace dpviz::test {

struct BatchConfig {
    std::string name;
    Algorithm algo;
    GapPenalties gaps{1, 1};
    bool protein = false;
    DtwCost cost = DtwCost::abs;
    int band = -1;
    std::string letters = "ACGT";  // DNA letters (two letters: many ties)
};

inline const std::vector<BatchConfig>& batch_configs() {
    static const std::vector<BatchConfig> c = {
        {"local-linear-dna", Algorithm::local, {2, 2}},
        {"local-affine-dna", Algorithm::local, {5, 1}},
        {"local-linear-ties", Algorithm::local, {3, 3}, false, DtwCost::abs, -1, "AC"},
        {"global-linear-dna", Algorithm::global, {2, 2}},
        {"global-affine-dna", Algorithm::global, {4, 2}},
        {"semiglobal-linear-dna", Algorithm::semiglobal, {1, 1}},
        {"semiglobal-affine-dna", Algorithm::semiglobal, {3, 1}},
        {"semiglobal-affine-ties", Algorithm::semiglobal, {3, 1}, false, DtwCost::abs, -1, "AC"},
        {"local-affine-protein", Algorithm::local, {11, 1}, true},
        {"local-linear-protein", Algorithm::local, {4, 4}, true},
        {"global-affine-protein", Algorithm::global, {10, 1}, true},
        {"global-linear-protein", Algorithm::global, {6, 6}, true},
        {"semiglobal-linear-protein", Algorithm::semiglobal, {5, 5}, true},
        {"semiglobal-affine-protein", Algorithm::semiglobal, {10, 2}, true},
        {"edit-dna", Algorithm::edit},
        {"edit-protein", Algorithm::edit, {1, 1}, true},
        {"lcs-dna", Algorithm::lcs},
        {"lcs-protein", Algorithm::lcs, {1, 1}, true},
        {"dtw-abs", Algorithm::dtw},
        {"dtw-squared", Algorithm::dtw, {1, 1}, false, DtwCost::squared},
        {"dtw-abs-band", Algorithm::dtw, {1, 1}, false, DtwCost::abs, 3},
        {"dtw-squared-band", Algorithm::dtw, {1, 1}, false, DtwCost::squared, 20},
        {"glocal-linear-dna", Algorithm::glocal, {2, 2}},
        {"glocal-affine-dna", Algorithm::glocal, {4, 1}},
        {"glocal-affine-ties", Algorithm::glocal, {3, 1}, false, DtwCost::abs, -1, "AC"},
        {"glocal-affine-protein", Algorithm::glocal, {10, 2}, true},
    };
    return c;
}

inline const std::string kBatchProtein = "ARNDCQEGHILKMFPSTWYV";

inline SubstitutionMatrix batch_protein_matrix() {
    // A fixed, asymmetric 20x20 matrix (positive diagonal), so a transposed lookup would show.
    std::mt19937 g(62);
    SubstitutionMatrix m;
    m.name = "test20";
    m.alphabet = kBatchProtein;
    m.scores.resize(400);
    for (int a = 0; a < 20; ++a)
        for (int b = 0; b < 20; ++b) m.scores[a * 20 + b] = a == b ? 4 + int(g() % 8) : int(g() % 7) - 4;
    return m;
}

// One pair: random text, a mutated copy of half the query planted in the target (long paths).
inline Expected<Problem> batch_pair(const BatchConfig& c, int m, int n, std::mt19937& g) {
    ScoringOptions so;
    so.gaps = c.gaps;
    so.match = 2;
    so.mismatch = -3;
    so.dtw_cost = c.cost;
    so.band = c.band;
    if (c.algo == Algorithm::dtw) {
        auto signal = [&](int len) {
            std::vector<double> v(static_cast<size_t>(std::max(len, 1)));
            double x = 0;
            for (auto& y : v) { x += double(int(g() % 2001) - 1000) / 400.0; y = x; }
            return v;
        };
        // A band pair needs a path: keep the lengths close (the band is in target columns).
        if (c.band >= 0) n = std::max(1, std::min(n, m + c.band));
        return make_dtw_problem({"q", signal(m)}, {"t", signal(n)}, so);
    }
    if (c.protein && uses_substitution_matrix(c.algo)) so.matrix = batch_protein_matrix();
    const std::string& letters = c.protein ? kBatchProtein : c.letters;
    auto text = [&](int len) {
        std::string s(static_cast<size_t>(len), ' ');
        for (auto& ch : s) ch = letters[g() % letters.size()];
        return s;
    };
    std::string q = text(m), t = text(n);
    if (m > 4 && n > 4) {
        const int len = std::min(m, n) / 2, qa = int(g() % (m - len + 1)), ta = int(g() % (n - len + 1));
        for (int k = 0; k < len; ++k)
            if (g() % 8) t[ta + k] = q[qa + k];
    }
    return make_problem(c.algo, {"q" + std::to_string(m), q}, {"t" + std::to_string(n), t}, so);
}

// `count` pairs with lengths drawn from [lo, hi]; DTW lengths start at 1.
inline std::vector<Problem> batch_of(const BatchConfig& c, int count, int lo, int hi, uint32_t seed) {
    std::mt19937 g(seed);
    std::vector<Problem> out;
    for (int k = 0; k < count; ++k) {
        int m = lo + int(g() % uint32_t(hi - lo + 1)), n = lo + int(g() % uint32_t(hi - lo + 1));
        if (c.algo == Algorithm::dtw) { m = std::max(m, 1); n = std::max(n, 1); }
        auto p = batch_pair(c, m, n, g);
        if (p) out.push_back(std::move(*p));
    }
    return out;
}

}  // namespace dpviz::test
