// The default text output: a header of parameters and score, then the alignment in blocks of
// 50 columns, in the style of EMBOSS `pair` output (1-based residue numbers).
#include <cstdio>
#include <sstream>

#include "dpviz/engine.hpp"

namespace dpviz {
namespace {

std::string percent(int32_t part, int32_t whole) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%d/%d (%.1f%%)", part, whole, whole ? 100.0 * part / whole : 0.0);
    return buf;
}

}  // namespace

std::string format_pair_text(const Problem& p, const DpResult& r) {
    const Alignment& a = r.alignment;
    std::ostringstream o;
    o << "########################################\n";
    o << "# Program: dpviz align\n";
    o << "# Algorithm: " << algorithm_name(p.algo) << "\n";
    o << "# 1: " << p.query_name << " (" << p.rows() << ")\n";
    o << "# 2: " << p.target_name << " (" << p.cols() << ")\n";
    if (uses_substitution_matrix(p.algo)) {
        o << "# Matrix: " << p.matrix.name << "\n";
        o << "# Gap_penalty: " << p.score_text(p.gaps.open) << "\n";
        o << "# Extend_penalty: " << p.score_text(p.gaps.extend) << (p.gaps.linear() ? " (linear gaps)" : " (affine gaps)") << "\n";
    }
    if (p.algo == Algorithm::dtw) {
        o << "# Cost: " << dtw_cost_name(p.dtw_cost) << "\n";
        o << "# Band: " << (p.band < 0 ? std::string("none") : std::to_string(p.band)) << "\n";
        o << "# Fixed_point_scale: " << p.dtw_scale << "\n";
    }
    o << "#\n";
    o << "# Length: " << a.length << "\n";
    if (p.algo != Algorithm::dtw) {
        o << "# Identity:   " << percent(a.identical, a.length) << "\n";
        if (uses_substitution_matrix(p.algo)) o << "# Similarity: " << percent(a.similar, a.length) << "\n";
        o << "# Gaps:       " << percent(a.gaps, a.length) << "\n";
    }
    // The path as --format cigar prints it ("*" for an empty alignment, as SAM writes none).
    o << "# CIGAR: " << (a.cigar.empty() ? "*" : a.cigar) << "\n";
    o << "# Score: " << p.score_text(r.score) << "\n";
    if (p.algo == Algorithm::dtw) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "# Distance: %.9g (double precision: %.9g, quantization error %.3g)\n",
                      r.dtw_distance, r.dtw_reference, r.dtw_distance - r.dtw_reference);
        o << buf;
    }
    o << "# Backend: " << r.backend << (r.fallback.empty() ? "" : " (" + r.fallback + ")") << "\n";
    o << "########################################\n";
    if (p.algo == Algorithm::dtw) {
        // A warping path has no residues to show: list the matched sample pairs instead.
        o << "\n# Warping path (query index, target index), 1-based:\n";
        for (size_t k = 1; k < r.path.size(); ++k) o << r.path[k].i << "\t" << r.path[k].j << "\n";
        return o.str();
    }

    constexpr size_t kWidth = 50;
    const size_t name_width = 13;
    auto label = [&](const std::string& n) {
        std::string s = n.substr(0, name_width);
        return s + std::string(name_width - s.size() + 1, ' ');
    };
    int32_t qpos = a.query_begin, tpos = a.target_begin;  // residues consumed so far (0-based)
    for (size_t start = 0; start < a.query_row.size(); start += kWidth) {
        const size_t len = std::min(kWidth, a.query_row.size() - start);
        const std::string q = a.query_row.substr(start, len), m = a.markup.substr(start, len),
                          t = a.target_row.substr(start, len);
        int32_t qn = 0, tn = 0;
        for (char c : q) qn += c != '-';
        for (char c : t) tn += c != '-';
        char buf[32];
        o << "\n";
        std::snprintf(buf, sizeof buf, "%6d ", qn ? qpos + 1 : qpos);
        o << label(p.query_name) << buf << q;
        std::snprintf(buf, sizeof buf, " %6d\n", qpos + qn);
        o << buf;
        o << std::string(name_width + 1 + 7, ' ') << m << "\n";
        std::snprintf(buf, sizeof buf, "%6d ", tn ? tpos + 1 : tpos);
        o << label(p.target_name) << buf << t;
        std::snprintf(buf, sizeof buf, " %6d\n", tpos + tn);
        o << buf;
        qpos += qn;
        tpos += tn;
    }
    return o.str();
}

std::string format_caption(const Problem& p, const DpResult& r) {
    std::ostringstream o;
    o << algorithm_name(p.algo) << "  " << p.query_name << " (" << p.rows() << ") x " << p.target_name << " ("
      << p.cols() << ")  ";
    if (uses_substitution_matrix(p.algo))
        o << p.matrix.name << "  gap open " << p.score_text(p.gaps.open) << " extend " << p.score_text(p.gaps.extend) << "  ";
    if (p.algo == Algorithm::dtw) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.6g", r.dtw_distance);
        o << "cost " << dtw_cost_name(p.dtw_cost) << (p.band >= 0 ? "  band " + std::to_string(p.band) : "")
          << "  distance " << buf << "  ";
    }
    o << "score " << p.score_text(r.score) << "  backend " << r.backend;
    return o.str();
}

}  // namespace dpviz
