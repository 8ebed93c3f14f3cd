// Peer-test plumbing: a per-process scratch directory, running programs without a shell,
// extracting real entries with EMBOSS seqret, and dpviz's score for a comparison.
#include "peer_env.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "dpviz/engine.hpp"
#include "input.hpp"
#include "matrix_file.hpp"

extern char** environ;

namespace dpviz::peers {
namespace fs = std::filesystem;
namespace {

// Removed when the test process exits; every file a test writes lives here.
class ScratchDir {
public:
    ScratchDir() {
        std::string templ = (fs::temp_directory_path() / "dpviz-peers-XXXXXX").string();
        if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a scratch directory in " + templ);
        path_ = templ;
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

const fs::path& scratch() {
    static ScratchDir dir;
    return dir.path();
}

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream o;
    o << f.rdbuf();
    return o.str();
}

std::string join(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

bool readable(const std::string& path) { return access(path.c_str(), R_OK) == 0; }

// Writes residues as FASTA (60 per line) and reads them back through dpviz's own reader, so
// every tool sees the same letters and a reader bug shows up here, named, not as a score mismatch.
Seq write_fasta(const std::string& name, const std::string& residues) {
    const fs::path path = scratch() / (name + ".fa");
    {
        std::ofstream f(path);
        f << '>' << name << '\n';
        for (size_t k = 0; k < residues.size(); k += 60) f << residues.substr(k, 60) << '\n';
        if (!f) throw std::runtime_error("cannot write " + path.string());
    }
    auto rec = app::read_record(path.string(), "");
    if (!rec) throw std::runtime_error("dpviz cannot read " + path.string() + ": " + rec.error().message);
    std::string upper = residues;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (rec->residues != upper)
        throw std::runtime_error("dpviz read " + std::to_string(rec->residues.size()) + " residues from " +
                                 path.string() + ", the file holds " + std::to_string(upper.size()));
    return {name, rec->residues, path.string()};
}

// seqret -> FASTA, the residues taken as they are (EMBL is lower case).
Seq extract(const std::string& usa, const std::string& name) {
    static std::mutex mu;
    static std::map<std::string, Seq> cache;
    std::lock_guard lock(mu);
    if (const auto it = cache.find(usa); it != cache.end()) return it->second;
    const CommandOutput r = run_command({"seqret", "-sequence", usa, "-outseq", "fasta::stdout", "-auto"});
    if (r.status != 0) throw std::runtime_error("seqret " + usa + " failed (" + std::to_string(r.status) + "): " + r.err);
    std::string residues;
    std::istringstream in(r.out);
    std::string line;
    bool header = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == '>') {
            if (header) throw std::runtime_error("seqret " + usa + " returned more than one entry");
            header = true;
            continue;
        }
        for (const char c : line)
            if (!std::isspace(static_cast<unsigned char>(c))) residues += c;
    }
    if (!header || residues.empty()) throw std::runtime_error("seqret " + usa + " returned no sequence: " + r.err);
    return cache[usa] = write_fasta(name, residues);
}

}  // namespace

std::optional<std::string> find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
        if (access(p.c_str(), X_OK) == 0) return p.string();
    }
    return std::nullopt;
}

std::string emboss_data_missing() {
    if (!find_program("seqret")) return "EMBOSS seqret is not installed (apt install emboss)";
    for (const std::string& f : {std::string(kSwissDat), std::string(kEmblDir) + "/hum1.dat"})
        if (!readable(f)) return f + " is missing (apt install emboss-test)";
    return "";
}

std::string emboss_missing() {
    for (const char* prog : {"needle", "water"})
        if (!find_program(prog)) return std::string("EMBOSS ") + prog + " is not installed (apt install emboss)";
    for (const char* m : {"EBLOSUM62", "EDNAFULL"})
        if (!readable(std::string(kEmbossData) + "/" + m))
            return std::string(kEmbossData) + "/" + m + " is missing (apt install emboss-data)";
    return emboss_data_missing();
}

CommandOutput run_command(const std::vector<std::string>& argv) {
    // stdout and stderr go to files, not pipes: no deadlock whatever the volume.
    static std::atomic<int> counter{0};
    const int n = counter++;
    const fs::path out = scratch() / ("cmd" + std::to_string(n) + ".out");
    const fs::path err = scratch() / ("cmd" + std::to_string(n) + ".err");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    CommandOutput r;
    if (rc != 0) {
        r.err = "cannot start " + join(argv) + ": " + std::strerror(rc);
        return r;
    }
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    std::error_code ec;
    fs::remove(out, ec);
    fs::remove(err, ec);
    return r;
}

Seq swiss(const std::string& id) { return extract("swiss::" + std::string(kSwissDat) + ":" + id, id); }

Seq embl(const std::string& file, const std::string& id) {
    return extract("embl::" + std::string(kEmblDir) + "/" + file + ":" + id, id);
}

Seq segment(const Seq& s, int begin, int end) {
    if (begin < 1 || end > static_cast<int>(s.residues.size()) || begin > end)
        throw std::runtime_error(s.name + " has " + std::to_string(s.residues.size()) + " residues, no segment " +
                                 std::to_string(begin) + ".." + std::to_string(end));
    return write_fasta(s.name + "_" + std::to_string(begin) + "-" + std::to_string(end),
                       s.residues.substr(begin - 1, end - begin + 1));
}

Seq literal(const std::string& name, const std::string& residues) { return write_fasta(name, residues); }

Seq test_data(const std::string& file) {
    const std::string path = std::string(kEmbossTestData) + "/" + file;
    auto rec = app::read_record(path, "");
    if (!rec) throw std::runtime_error("dpviz cannot read " + path + ": " + rec.error().message);
    return {rec->name, rec->residues, path};
}

std::string scratch_file(const std::string& name, const std::string& content) {
    const fs::path path = scratch() / name;
    std::ofstream f(path, std::ios::binary);
    f << content;
    if (!f) throw std::runtime_error("cannot write " + path.string());
    return path.string();
}

const SubstitutionMatrix& matrix(const std::string& name_or_path) {
    static std::mutex mu;
    static std::map<std::string, SubstitutionMatrix> cache;
    std::lock_guard lock(mu);
    if (const auto it = cache.find(name_or_path); it != cache.end()) return it->second;
    auto m = app::load_matrix(name_or_path);
    if (!m) throw std::runtime_error("load_matrix(" + name_or_path + "): " + m.error().message);
    return cache[name_or_path] = *m;
}

Problem make(Algorithm algo, const Seq& query, const Seq& target, const SubstitutionMatrix* m, GapPenalties gaps) {
    ScoringOptions s;
    if (m) s.matrix = *m;
    s.gaps = gaps;
    auto p = make_problem(algo, {query.name, query.residues}, {target.name, target.residues}, s);
    if (!p) throw std::runtime_error("make_problem(" + query.name + ", " + target.name + "): " + p.error().message);
    return *p;
}

int64_t rescore_rows(const Problem& p, const std::string& q, const std::string& t) {
    if (q.size() != t.size()) throw std::runtime_error("aligned rows differ in length");
    int64_t score = 0;
    for (size_t k = 0; k < q.size(); ++k) {
        const bool gq = q[k] == '-', gt = t[k] == '-';
        if (gq && gt) throw std::runtime_error("a column with two gaps");
        if (p.algo == Algorithm::edit) {
            score += gq || gt || q[k] != t[k];
            continue;
        }
        if (!gq && !gt) {
            score += p.matrix.at(p.matrix.index_of(q[k]), p.matrix.index_of(t[k]));
            continue;
        }
        const bool opens = k == 0 || (gq ? q[k - 1] != '-' : t[k - 1] != '-');
        score -= opens ? p.gaps.open : p.gaps.extend;
    }
    return score;
}

int32_t dpviz_score(const Problem& p) {
    const int64_t cells = int64_t(p.rows()) * p.cols();
    if (cells <= kReferenceCells) {
        const DpResult r = align_reference(p);
        // With extend > open the recurrence prices each gap residue as a new gap (H - open >=
        // E - extend), not as the documented run cost, so the rows cannot be re-scored.
        if (p.gaps.extend > p.gaps.open) return r.score;
        const int64_t again = rescore_rows(p, r.alignment.query_row, r.alignment.target_row);
        if (again != r.score)
            ADD_FAILURE() << "dpviz's own " << algorithm_name(p.algo) << " alignment of " << p.query_name << " x "
                          << p.target_name << " scores " << again << ", not the reported " << r.score << "\n  "
                          << r.alignment.query_row << "\n  " << r.alignment.target_row;
        return r.score;
    }
    AlignOptions opt;
    opt.backend = Backend::cpu;
    opt.level = OutputLevel::score;
    auto r = align(p, opt);
    if (!r) throw std::runtime_error("align(" + p.query_name + ", " + p.target_name + "): " + r.error().message);
    return r->score;
}

std::string gaps_text(GapPenalties g) { return std::to_string(g.open) + "/" + std::to_string(g.extend); }

}  // namespace dpviz::peers
