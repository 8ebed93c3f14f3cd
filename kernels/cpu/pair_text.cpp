// The default text output: a header of parameters and score, then the alignment in blocks of
// 50 columns, in the style of EMBOSS `pair` output (1-based residue numbers).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"

namespace dpviz {
namespace {

std::string percent(int32_t part, int32_t whole) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%d/%d (%.1f%%)", part, whole, whole ? 100.0 * part / whole : 0.0);
    return buf;
}

std::string log_text(double v) {
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// Viterbi: the model, the log probabilities, then the observations above their decoded states in
// blocks of 60, and the runs of each state.
std::string format_viterbi_text(const Problem& p, const DpResult& r) {
    const Hmm& m = *p.hmm;
    std::ostringstream o;
    o << "########################################\n";
    o << "# Program: dpviz align\n";
    o << "# Algorithm: viterbi\n";
    o << "# Model: " << p.query_name << " (" << p.rows() << " states, alphabet " << m.alphabet << ")\n";
    o << "# Observations: " << p.target_name << " (" << p.cols() << ")\n";
    o << "# Fixed_point_scale: 2^" << p.hmm_fixed->scale_log2 << "\n";
    o << "#\n";
    o << "# Score: " << r.score << "\n";
    const double bound = viterbi_quantization_bound(*p.hmm_fixed, size_t(p.cols()));
    o << "# Log_probability: " << log_text(r.log_probability);
    if (std::isnan(r.log_probability_reference))
        o << " (within " << log_text(bound) << " of the double-precision optimum, which is not computed for "
          << "S^2 T above 2^30)\n";
    else
        o << " (double precision: " << log_text(r.log_probability_reference) << ", quantization error "
          << log_text(r.log_probability - r.log_probability_reference) << ", at most " << log_text(bound) << ")\n";
    o << "# Final_state: " << m.states[size_t(r.end.i - 1)] << "\n";
    o << "# Backend: " << backend_name(r.backend) << (r.fallback.empty() ? "" : " (" + r.fallback + ")") << "\n";
    o << "########################################\n";
    if (r.path.size() < 2) return o.str();
    std::vector<int32_t> states;
    for (size_t k = 1; k < r.path.size(); ++k) states.push_back(r.path[k].i - 1);
    if (const std::string letters = state_letters(m); !letters.empty()) {
        // A legend when a letter is not the state's whole name.
        bool legend = false;
        for (size_t k = 0; k < m.states.size(); ++k) legend |= m.states[k] != std::string(1, letters[k]);
        if (legend) {
            o << "\n# Decoded states:";
            for (size_t k = 0; k < m.states.size(); ++k) o << " " << letters[k] << "=" << m.states[k];
            o << "\n";
        }
        constexpr size_t kWidth = 60;
        for (size_t start = 0; start < states.size(); start += kWidth) {
            const size_t len = std::min(kWidth, states.size() - start);
            std::string decoded;
            for (size_t k = start; k < start + len; ++k) decoded += letters[size_t(states[k])];
            char buf[32];
            std::snprintf(buf, sizeof buf, "%8zu ", start + 1);
            o << "\n" << buf << p.target.substr(start, len) << "\n";
            o << std::string(9, ' ') << decoded << "\n";
        }
    }
    o << "\n# State runs (first, last observation, 1-based; state):\n";
    for (size_t k = 0; k < states.size();) {
        size_t e = k;
        while (e + 1 < states.size() && states[e + 1] == states[k]) ++e;
        o << k + 1 << "\t" << e + 1 << "\t" << m.states[size_t(states[k])] << "\n";
        k = e + 1;
    }
    return o.str();
}

}  // namespace

std::string format_pair_text(const Problem& p, const DpResult& r) {
    if (p.algo == Algorithm::viterbi) return format_viterbi_text(p, r);
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
        char buf[160];
        if (std::isnan(r.dtw_reference))
            std::snprintf(buf, sizeof buf, "# Distance: %.9g (double precision: not computed above 2^30 cells)\n",
                          r.dtw_distance);
        else
            std::snprintf(buf, sizeof buf, "# Distance: %.9g (double precision: %.9g, quantization error %.3g)\n",
                          r.dtw_distance, r.dtw_reference, r.dtw_distance - r.dtw_reference);
        o << buf;
    }
    o << "# Backend: " << backend_name(r.backend) << (r.fallback.empty() ? "" : " (" + r.fallback + ")") << "\n";
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

std::string value_text(const Problem& p, int64_t v) {
    if (p.algo != Algorithm::viterbi || !p.hmm_fixed) return p.score_text(v);
    if (v <= kNegInf) return "-inf";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", std::ldexp(double(v), -p.hmm_fixed->scale_log2));
    return buf;
}

std::string format_caption(const Problem& p, const DpResult& r) {
    std::ostringstream o;
    o << algorithm_name(p.algo) << "  " << p.query_name << " (" << p.rows()
      << (p.algo == Algorithm::viterbi ? " states" : "") << ") x " << p.target_name << " (" << p.cols() << ")  ";
    if (uses_substitution_matrix(p.algo))
        o << p.matrix.name << "  gap open " << p.score_text(p.gaps.open) << " extend " << p.score_text(p.gaps.extend) << "  ";
    if (p.algo == Algorithm::viterbi) {
        o << "ln P " << log_text(r.log_probability) << "  backend " << backend_name(r.backend);
        return o.str();
    }
    if (p.algo == Algorithm::dtw) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.6g", r.dtw_distance);
        o << "cost " << dtw_cost_name(p.dtw_cost) << (p.band >= 0 ? "  band " + std::to_string(p.band) : "")
          << "  distance " << buf << "  ";
    }
    o << "score " << p.score_text(r.score) << "  backend " << backend_name(r.backend);
    return o.str();
}

}  // namespace dpviz
