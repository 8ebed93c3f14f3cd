// Batch mode: the checks that make many pairs one batch, the shared letter code space, the CPU
// backends (threads over pairs) and the choice of backend with the CPU fallback of align().
#include "dpviz/batch.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <sstream>
#include <thread>

#include "batch_gpu.hpp"
#include "gpu_dispatch.hpp"

namespace dpviz {
namespace {

std::string pair_label(std::span<const Problem> pairs, size_t k) {
    return "pair " + std::to_string(k + 1) + " (" + pairs[k].query_name + " x " + pairs[k].target_name + ")";
}

std::string gib(uint64_t bytes) {
    std::ostringstream o;
    o.precision(2);
    o << std::fixed << double(bytes) / double(uint64_t(1) << 30) << " GiB";
    return o.str();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The input of the recurrence for query letter a and target letter b of pair p (codes of p).
int32_t cell_input(const Problem& p, int a, int b) {
    if (uses_substitution_matrix(p.algo)) return p.matrix.at(a, b);
    if (p.algo == Algorithm::edit) return a != b;
    return a == b ? 1 : -(1 << 29);  // LCS: no diagonal candidate without a match
}

PairScore score_of(const Problem& p, const DpResult& r) {
    PairScore s;
    s.score = r.score;
    s.end = r.end;
    if (p.algo == Algorithm::dtw) s.dtw_distance = dtw_distance_from_score(p, r.score);
    return s;
}

// One fill of every pair, threads taking pairs in order from a shared counter.
std::vector<PairScore> fill_cpu(std::span<const Problem> pairs, bool reference, unsigned threads) {
    std::vector<PairScore> out(pairs.size());
    std::atomic<size_t> next{0};
    auto work = [&]() {
        for (size_t k = next++; k < pairs.size(); k = next++) {
            const Problem& p = pairs[k];
            out[k] = score_of(p, reference ? align_reference(p) : align_cpu(p, OutputLevel::score, 1));
        }
    };
    const unsigned n = unsigned(std::min<size_t>(threads, pairs.size()));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    return out;
}

Expected<BatchResult> run_cpu(std::span<const Problem> pairs, bool reference, const BatchOptions& opt) {
    unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = unsigned(std::max<size_t>(1, std::min<size_t>(threads, pairs.size())));
    // Every thread holds one pair's working memory at a time (the reference: its whole matrices).
    uint64_t per_pair = 0;
    for (const Problem& p : pairs)
        per_pair = std::max(per_pair, estimate_host_bytes(p, reference ? OutputLevel::matrix : OutputLevel::score));
    const Expected<uint64_t> available = available_host_bytes();
    if (!available) return available.error();
    const uint64_t need = per_pair * threads, have = *available;
    if (need > have)
        return resource_error("the batch needs " + gib(need) + " of memory on " + std::to_string(threads) +
                              " threads, " + gib(have) + " available: use fewer threads or shorter pairs");
    BatchResult r;
    r.backend = reference ? Backend::cpu_reference : Backend::cpu;
    const int timed = std::max(1, opt.repeats);
    for (int k = timed > 1 ? -1 : 0; k < timed; ++k) {  // one untimed warm-up when repeating
        const auto t0 = std::chrono::steady_clock::now();
        r.pairs = fill_cpu(pairs, reference, threads);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (k >= 0) r.runs_ms.push_back(ms);
    }
    return r;
}

}  // namespace

Status check_batch(std::span<const Problem> pairs) {
    if (pairs.empty()) return Ok{};
    const Problem& a = pairs[0];
    for (size_t k = 1; k < pairs.size(); ++k) {
        const Problem& p = pairs[k];
        auto differs = [&](const std::string& what) {
            return usage_error(pair_label(pairs, k) + ": " + what + " differs from pair 1; a batch has one problem setup");
        };
        if (p.algo != a.algo) return differs("the algorithm");
        if (uses_gap_penalties(p.algo) && (p.gaps.open != a.gaps.open || p.gaps.extend != a.gaps.extend))
            return differs("the gap penalties");
        if (p.algo == Algorithm::dtw && (p.dtw_cost != a.dtw_cost || p.band != a.band))
            return differs("the DTW cost or band");
    }
    if (auto c = batch_codes(pairs); !c) return c.error();
    return Ok{};
}

Expected<BatchCodes> batch_codes(std::span<const Problem> pairs) {
    BatchCodes c;
    if (pairs.empty() || pairs[0].algo == Algorithm::dtw) return c;
    // Letters in order of first appearance; a real substitution matrix gives its own alphabet.
    std::array<int, 256> index;
    index.fill(-1);
    std::string letters;
    c.remap.resize(pairs.size());
    for (size_t k = 0; k < pairs.size(); ++k) {
        const std::string& alpha = pairs[k].matrix.alphabet;
        for (const char ch : alpha) {
            const unsigned char u = static_cast<unsigned char>(ch);
            if (index[u] < 0) {
                if (letters.size() >= 255) return usage_error("the batch uses more than 255 distinct letters");
                index[u] = int(letters.size());
                letters += ch;
            }
        }
        c.remap[k].resize(alpha.size());
        for (size_t x = 0; x < alpha.size(); ++x) c.remap[k][x] = uint8_t(index[static_cast<unsigned char>(alpha[x])]);
    }
    const int A = int(letters.size());
    c.letters = A;
    c.table.assign(size_t(A) * A, 0);
    std::vector<uint8_t> set(size_t(A) * A, 0);
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Problem& p = pairs[k];
        const int n = p.matrix.size();
        for (int x = 0; x < n; ++x)
            for (int y = 0; y < n; ++y) {
                const size_t at = size_t(c.remap[k][x]) * A + c.remap[k][y];
                const int32_t v = cell_input(p, x, y);
                if (set[at] && c.table[at] != v)
                    return usage_error(pair_label(pairs, k) + ": scores " + std::string(1, p.matrix.alphabet[x]) + "/" +
                                       std::string(1, p.matrix.alphabet[y]) + " as " + std::to_string(v) +
                                       ", an earlier pair as " + std::to_string(c.table[at]) +
                                       "; a batch has one scoring");
                c.table[at] = v;
                set[at] = 1;
            }
    }
    return c;
}

Expected<BatchResult> align_batch(std::span<const Problem> pairs, const BatchOptions& opt) {
    if (auto st = check_batch(pairs); !st) return st.error();
    if (opt.repeats < 1) return usage_error("repeats must be at least 1");

    Expected<BatchResult> r = BatchResult{};
    const bool gpu = opt.backend == Backend::cuda || opt.backend == Backend::cuda_portable ||
                     (opt.backend == Backend::automatic && gpu_usable());
    if (gpu) {
        auto codes = batch_codes(pairs);
        if (!codes) return codes.error();
        const bool dpx = opt.backend != Backend::cuda_portable;
        r = align_batch_gpu(pairs, *codes, dpx, opt.repeats);
        if (r) {
            // Pairs with an empty side have no interior cell for a kernel: their borders are the answer.
            for (size_t k = 0; k < pairs.size(); ++k)
                if (pairs[k].rows() == 0 || pairs[k].cols() == 0) r->pairs[k] = score_of(pairs[k], align_reference(pairs[k]));
        }
        if (!r && r.error().kind == ErrorKind::device) {
            // As align(): a GPU that is missing or faulted never costs the user the answer.
            const std::string why = r.error().message;
            r = run_cpu(pairs, false, opt);
            if (r) r->fallback = std::string(backend_name(opt.backend)) + " unavailable (" + why + "); ran on the CPU";
        }
    } else {
        r = run_cpu(pairs, opt.backend == Backend::cpu_reference, opt);
    }
    if (!r) return r;
    r->fill_ms = median(r->runs_ms);
    r->cells = 0;
    for (size_t k = 0; k < pairs.size(); ++k) {
        const Problem& p = pairs[k];
        r->cells += int64_t(p.rows()) * p.cols();
        PairScore& s = r->pairs[k];
        if (p.algo == Algorithm::dtw) {
            if (s.score >= kPosInf)
                return usage_error(pair_label(pairs, k) + ": a band of " + std::to_string(p.band) +
                                   " leaves no warping path from (1,1) to (" + std::to_string(p.rows()) + "," +
                                   std::to_string(p.cols()) + "); widen the band");
            s.dtw_distance = dtw_distance_from_score(p, s.score);
        }
    }
    return r;
}

}  // namespace dpviz
