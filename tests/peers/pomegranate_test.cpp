// dpviz's double-precision Viterbi against pomegranate's (Debian's python3-pomegranate 0.14, run
// by /usr/bin/python3 through pomegranate_viterbi.py) on the bundled models and seeded random
// ones: the log-probability within 1e-9 relative, the state path exactly when it is unique.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../kernels/hmm_test_util.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/hmm.hpp"
#include "hmm_file.hpp"
#include "peer_env.hpp"

namespace dpviz::peers {
namespace {

// Debian's pomegranate is for Debian's Python, which a pyenv python3 on $PATH would hide.
constexpr const char* kPython = "/usr/bin/python3";
constexpr double kRelative = 1e-9;

std::string pomegranate_missing() {
    if (access(kPython, X_OK) != 0) return std::string(kPython) + " is missing (apt install python3)";
    const CommandOutput r = run_command({kPython, "-c", "import pomegranate"});
    if (r.status != 0)
        return std::string("pomegranate does not import in ") + kPython + " (apt install python3-pomegranate)";
    return "";
}

struct Case {
    std::string name;
    Hmm model;
    std::string observations;  // symbols of model.alphabet
};

struct PeerAnswer {
    double log_probability = 0.0;
    std::vector<std::string> path;  // state names
};

std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Numbers as %.17g: JSON reads them back to the same doubles.
std::string json_numbers(const double* v, size_t n) {
    std::string out = "[";
    char buf[32];
    for (size_t k = 0; k < n; ++k) {
        std::snprintf(buf, sizeof buf, "%.17g", v[k]);
        out += (k ? "," : "") + std::string(buf);
    }
    return out + "]";
}

std::string json_case(const Case& c) {
    const Hmm& m = c.model;
    const size_t S = m.states.size(), K = m.alphabet.size();
    std::string states = "[", transition = "[", emission = "[";
    for (size_t k = 0; k < S; ++k) {
        states += (k ? "," : "") + json_string(m.states[k]);
        transition += (k ? "," : "") + json_numbers(m.transition.data() + k * S, S);
        emission += (k ? "," : "") + json_numbers(m.emission.data() + k * K, K);
    }
    return "{\"name\":" + json_string(c.name) + ",\"states\":" + states + "],\"alphabet\":" + json_string(m.alphabet) +
           ",\"start\":" + json_numbers(m.start.data(), S) + ",\"transition\":" + transition +
           "],\"emission\":" + emission + "],\"observations\":" + json_string(c.observations) + "}";
}

// One run of the script for all cases (importing pomegranate takes most of a second).
std::map<std::string, PeerAnswer> run_pomegranate(const std::vector<Case>& cases) {
    std::string json = "{\"cases\":[";
    for (size_t k = 0; k < cases.size(); ++k) json += (k ? ",\n" : "\n") + json_case(cases[k]);
    const std::string file = scratch_file("viterbi_cases.json", json + "\n]}\n");
    const CommandOutput r = run_command({kPython, DPVIZ_POMEGRANATE_SCRIPT, file});
    if (r.status != 0)
        throw std::runtime_error("pomegranate_viterbi.py failed (" + std::to_string(r.status) + "): " + r.err);
    std::map<std::string, PeerAnswer> answers;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t a = line.find('\t'), b = line.find('\t', a + 1);
        if (a == std::string::npos || b == std::string::npos) throw std::runtime_error("unexpected line: " + line);
        PeerAnswer& p = answers[line.substr(0, a)];
        p.log_probability = std::strtod(line.substr(a + 1, b - a - 1).c_str(), nullptr);
        std::istringstream names(line.substr(b + 1));
        for (std::string n; names >> n;)
            if (n != "-") p.path.push_back(n);
    }
    return answers;
}

// Returns whether the paths were compared (the optimum is unique).
bool compare(const Case& c, const PeerAnswer& peer) {
    SCOPED_TRACE(c.name);
    auto obs = app::encode_observations(c.model, c.observations, c.name);
    EXPECT_TRUE(obs) << obs.error().message;
    if (!obs) return false;
    auto ref = viterbi_reference(c.model, *obs);
    EXPECT_TRUE(ref) << ref.error().message;
    if (!ref) return false;
    if (ref->log_probability == -hmm_test::kInf) {
        EXPECT_EQ(peer.log_probability, -hmm_test::kInf);
        EXPECT_TRUE(peer.path.empty());
        return false;
    }
    EXPECT_NEAR(peer.log_probability, ref->log_probability, kRelative * std::abs(ref->log_probability));
    const hmm_test::TopTwo top = hmm_test::top_two(c.model, *obs);
    if (!(top.margin() > kRelative * std::max(1.0, std::abs(top.best)))) return false;  // co-optimal paths
    std::vector<std::string> names;
    for (const int32_t j : ref->path) names.push_back(c.model.states[size_t(j)]);
    EXPECT_EQ(names, peer.path);
    // The engine's fixed-point decoding (`dpviz align --algo viterbi`, every CPU backend and the
    // GPU where there is one): the same path when the optimum wins by more than twice the
    // quantization bound, and ln P within the bound of pomegranate's.
    auto p = make_viterbi_problem(std::make_shared<const Hmm>(c.model), {c.name, c.observations}, *obs);
    EXPECT_TRUE(p) << p.error().message;
    if (!p) return true;
    const double bound = viterbi_quantization_bound(*p->hmm_fixed, obs->size());
    for (const Backend b : {Backend::cpu, Backend::cpu_reference, Backend::cuda, Backend::cuda_portable}) {
        AlignOptions opt;
        opt.backend = b;
        auto r = align(*p, opt);
        EXPECT_TRUE(r) << r.error().message;
        if (!r || !r->fallback.empty()) continue;  // no GPU here: the CPU's answer again
        EXPECT_EQ(r->backend, b);
        EXPECT_NEAR(r->log_probability, peer.log_probability, bound + kRelative * std::abs(peer.log_probability));
        if (top.margin() <= 2 * bound) continue;
        std::vector<std::string> decoded;
        for (size_t k = 1; k < r->path.size(); ++k) decoded.push_back(c.model.states[size_t(r->path[k].i - 1)]);
        EXPECT_EQ(decoded, peer.path) << backend_name(b);
    }
    return true;
}

int compare_all(const std::vector<Case>& cases) {
    const auto answers = run_pomegranate(cases);
    int paths = 0;
    for (const Case& c : cases) {
        const auto it = answers.find(c.name);
        if (it == answers.end()) {
            ADD_FAILURE() << "pomegranate gave no answer for " << c.name;
            continue;
        }
        paths += compare(c, it->second);
    }
    return paths;
}

std::string assets(const std::string& name) { return std::string(DPVIZ_ASSETS) + "/examples/" + name; }

Hmm bundled_model(const std::string& file) {
    auto m = app::load_hmm(assets(file));
    if (!m) throw std::runtime_error(m.error().message);
    return *m;
}

std::string bundled_observations(const std::string& file, const std::string& record) {
    auto r = app::read_observations(assets(file), record);
    if (!r) throw std::runtime_error(r.error().message);
    return r->symbols;
}

// The cpg model's alphabet is A C G T: the real DNA's three N are left out here.
std::string without_n(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), 'N'), s.end());
    return s;
}

TEST(PomegranateViterbi, BundledModels) {
    if (const std::string why = pomegranate_missing(); !why.empty()) GTEST_SKIP() << why;
    const Hmm casino = bundled_model("casino.hmm"), cpg = bundled_model("cpg.hmm");
    const std::string rolls = bundled_observations("casino_rolls.txt", "");
    const std::vector<Case> cases = {
        {"casino_rolls", casino, rolls},
        {"casino_first_ten", casino, rolls.substr(0, 10)},
        {"casino_sixes", casino, "666666666666666666661"},
        {"cpg_epsilon_globin", cpg, without_n(bundled_observations("dna_repeat_inversion.fa", "1"))},
        {"cpg_rearranged_copy", cpg, without_n(bundled_observations("dna_repeat_inversion.fa", "2"))},
        {"cpg_island_like", cpg, std::string(400, 'A') + std::string(3000, 'G') + "CGCGCGTATA"},
        {"cpg_insr_exon1", cpg, bundled_observations("insr_exon1.fa", "")},
    };
    EXPECT_EQ(compare_all(cases), int(cases.size()));  // every optimum here is unique
}

// Sizes 1 to 8 states and 1 to 6 symbols, up to 300 observations; some probabilities 0 (so
// pomegranate prunes edges), and a quarter of the sequences drawn uniformly (some impossible).
TEST(PomegranateViterbi, SeededRandomModels) {
    if (const std::string why = pomegranate_missing(); !why.empty()) GTEST_SKIP() << why;
    std::mt19937_64 rng(1998);
    std::vector<Case> cases;
    for (int k = 0; k < 80; ++k) {
        const int S = 1 + k % 8, K = 1 + (k / 8) % 6;
        const Hmm m = hmm_test::random_hmm(rng, S, K, k % 3 == 0 ? 0.3 : 0.0);
        const size_t T = 1 + rng() % 300;
        const auto obs = hmm_test::random_observations(rng, m, T, k % 4 == 3);
        std::string symbols;
        for (const uint8_t o : obs) symbols += m.alphabet[o];
        cases.push_back({"random_" + std::to_string(k), m, symbols});
    }
    EXPECT_GT(compare_all(cases), 50);
}

}  // namespace
}  // namespace dpviz::peers
