// What the kernel tests share: seeded random inputs and the field-by-field comparison of two
// results (a backend against the reference), restricted to what an output level keeps.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dpviz/engine.hpp"

namespace dpviz::test {

inline const std::string kDna = "ACGT";
inline const std::string kProtein = "ARNDCQEGHILKMFPSTWYV";

inline std::string random_sequence(std::mt19937& rng, const std::string& alphabet, int length) {
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::string s(size_t(length), 'A');
    for (char& c : s) c = alphabet[pick(rng)];
    return s;
}

// n letters drawn as g() % letters.size() (the GPU tests' draw, kept so their seeds give the same
// inputs).
inline std::string random_text(std::mt19937& g, int n, const std::string& letters) {
    std::string s(static_cast<size_t>(n), ' ');
    for (auto& c : s) c = letters[g() % letters.size()];
    return s;
}

// A random walk of n steps of -2.5 .. 2.5 (the GPU tests' DTW signals).
inline std::vector<double> random_walk(std::mt19937& g, int n) {
    std::vector<double> v(static_cast<size_t>(n));
    double x = 0;
    for (auto& y : v) {
        x += double(int(g() % 2001) - 1000) / 400.0;
        y = x;
    }
    return v;
}

// A mutated copy (substitutions, insertions, deletions at `rate` each), so the optimal path is
// long and crosses many bands and chunks.
inline std::string mutate(std::mt19937& rng, const std::string& s, const std::string& alphabet, double rate) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    std::string out;
    for (const char c : s) {
        const double x = u(rng);
        if (x < rate) continue;                                       // deletion
        if (x < 2 * rate) out += alphabet[pick(rng)];                 // insertion before c
        out += x < 3 * rate ? alphabet[pick(rng)] : c;                // substitution or copy
    }
    return out;
}

inline const char* level_name(OutputLevel l) {
    return l == OutputLevel::score ? "score" : l == OutputLevel::path ? "path" : "matrix";
}

// `r` as a backend run at `level` reports it: no matrices below level matrix, no bits, path or
// alignment at level score.
inline DpResult trimmed(DpResult r, OutputLevel level) {
    r.level = level;
    if (level != OutputLevel::matrix) { r.H = {}; r.E = {}; r.F = {}; }
    if (level == OutputLevel::score) { r.dirs = {}; r.path.clear(); r.alignment = {}; }
    return r;
}

// "" when equal, else the shape difference or the first differing cell.
template <class T>
std::string first_difference(const Grid<T>& got, const Grid<T>& want) {
    std::ostringstream o;
    if (got.rows != want.rows || got.cols != want.cols || got.data.size() != want.data.size()) {
        o << "shape " << got.rows << "x" << got.cols << ", want " << want.rows << "x" << want.cols;
        return o.str();
    }
    for (size_t k = 0; k < got.data.size(); ++k)
        if (got.data[k] != want.data[k]) {
            o << "first difference at (" << k / size_t(got.cols) << "," << k % size_t(got.cols)
              << "): " << int64_t(got.data[k]) << ", want " << int64_t(want.data[k]);
            return o.str();
        }
    return "";
}

// Every field a caller can see of `got` (run at `level`) against the reference result `ref`
// (any level at or above `level`): score, end cell, matrices, bits, path, alignment, DTW.
inline void expect_same(const DpResult& ref, const DpResult& got, OutputLevel level, const std::string& where) {
    SCOPED_TRACE(where + " level " + level_name(level));
    const DpResult want = trimmed(ref, level);
    EXPECT_EQ(got.level, level);
    EXPECT_EQ(got.algo, want.algo);
    EXPECT_EQ(got.cells, want.cells);
    EXPECT_EQ(got.score, want.score);
    EXPECT_EQ(got.end, want.end) << "end (" << got.end.i << "," << got.end.j << "), want (" << want.end.i << ","
                                 << want.end.j << ")";
    EXPECT_EQ(first_difference(got.H, want.H), "") << "H";
    EXPECT_EQ(first_difference(got.E, want.E), "") << "E";
    EXPECT_EQ(first_difference(got.F, want.F), "") << "F";
    EXPECT_EQ(first_difference(got.dirs, want.dirs), "") << "direction bits";
    EXPECT_TRUE(got.path == want.path) << "path of " << got.path.size() << " cells, want " << want.path.size();
    EXPECT_EQ(got.alignment.cigar, want.alignment.cigar);
    EXPECT_EQ(got.alignment.query_row, want.alignment.query_row);
    EXPECT_EQ(got.alignment.markup, want.alignment.markup);
    EXPECT_EQ(got.alignment.target_row, want.alignment.target_row);
    EXPECT_EQ(got.alignment.query_begin, want.alignment.query_begin);
    EXPECT_EQ(got.alignment.target_begin, want.alignment.target_begin);
    EXPECT_EQ(got.alignment.identical, want.alignment.identical);
    EXPECT_EQ(got.alignment.similar, want.alignment.similar);
    EXPECT_EQ(got.alignment.gaps, want.alignment.gaps);
    EXPECT_EQ(got.dtw_distance, want.dtw_distance);
    EXPECT_EQ(got.dtw_reference, want.dtw_reference);
    EXPECT_GE(got.fill_ms, 0.0);
    EXPECT_GE(got.traceback_ms, 0.0);
}

}  // namespace dpviz::test
