// The fast CPU backend: bands of rows pipelined across threads, each band swept by a SIMD step
// kernel (wavefront_kernel.inl). Bit-identical to align_reference at every output level.
//
// Index
// [SECTION] Plan: every algorithm as one of four kernel families
// [SECTION] Instruction set
// [SECTION] Chunk outputs: matrices into the row-major grids
// [SECTION] Bands and threads
// [SECTION] align_cpu
//
// The pipeline: a band is `lanes` rows (16 with AVX-512). Band b may run steps [a, z] once band
// b-1 has published its bottom row up to column min(z, N); bands are handed out in order to the
// threads, so with T threads T bands sweep the matrix together, each a chunk behind the one
// above. One row buffer carries the bottom row of a band to the next: band b overwrites a
// column only after it has read it, and band b+1 reads it only after b has published it.
#include <emmintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include "dpviz/band_shape.hpp"
#include "dpviz/engine.hpp"
#include "dpviz/store.hpp"
#include "viterbi_backend.hpp"
#include "wavefront.hpp"

namespace dpviz {
namespace {

using wavefront::Family;
using wavefront::Store;

// Steps per chunk: the unit of hand-over between bands. Its buffers (H, E, F, bits) stay in L1/L2,
// and one hand-over costs about one cache-line transfer, small against 256 steps of work.
constexpr int32_t kChunkSteps = cpu_band::kChunkSteps;  // the teaching views' schedule models it too
static_assert(kChunkSteps <= wavefront::kMaxPoolSteps, "the overview's pool takes a chunk's steps at once");
static_assert(kChunkSteps % 16 == 0, "the kernels copy direction bits in blocks of 16 steps");
// threads = 0 (automatic) runs smaller problems on the calling thread: below ~1 ms of work,
// starting threads and filling the pipeline cost about what a second core saves.
constexpr int64_t kMinCellsForThreads = int64_t(1) << 21;

// ---------------------------------------------------------------------------------------------
// [SECTION] Plan: every algorithm as one of four kernel families
// ---------------------------------------------------------------------------------------------

struct Plan {
    wavefront::Kernel kernel;     // everything but the target array
    bool dtw = false;
    bool affine = false;
    AlgorithmRules rules;         // borders and end cell (dpviz/algorithm.hpp), in the user's terms
    bool negate = false;          // edit distance runs as -D (a maximisation)
};

// Match/mismatch by code when, over the codes present, s(a, b) takes one value for a == b and one
// for a != b: one compare per step instead of a profile lookup.
bool match_mismatch_of(const Problem& p, int32_t& match, int32_t& mismatch) {
    const int A = p.matrix.size();
    std::vector<char> in_query(A, 0), in_target(A, 0);
    for (const uint8_t c : p.query_codes) in_query[c] = 1;
    for (const uint8_t c : p.target_codes) in_target[c] = 1;
    bool have_match = false, have_mismatch = false;
    match = mismatch = 0;
    for (int a = 0; a < A; ++a) {
        if (!in_query[a]) continue;
        for (int b = 0; b < A; ++b) {
            if (!in_target[b]) continue;
            const int32_t v = p.matrix.at(a, b);
            bool& have = a == b ? have_match : have_mismatch;
            int32_t& want = a == b ? match : mismatch;
            if (!have) {
                have = true;
                want = v;
            } else if (v != want) {
                return false;
            }
        }
    }
    return true;
}

// `checkpoints`: a score-level fill that also hands the result store its restart values.
Plan make_plan(const Problem& p, OutputLevel level, bool checkpoints) {
    Plan plan;
    wavefront::Kernel& k = plan.kernel;
    k.store = level == OutputLevel::score ? (checkpoints ? Store::checkpoints : Store::score)
              : level == OutputLevel::path ? Store::dirs
                                           : Store::matrix;
    k.n = p.cols();
    plan.rules = rules_of(p.algo);
    switch (p.algo) {
        case Algorithm::local:
        case Algorithm::global:
        case Algorithm::semiglobal:
        case Algorithm::glocal:
            plan.affine = p.affine();
            k.family = plan.affine ? Family::align_affine : Family::align_linear;
            k.local = p.algo == Algorithm::local;
            k.open = p.gaps.open;
            k.extend = p.gaps.extend;
            k.table = !match_mismatch_of(p, k.match, k.mismatch);
            k.alphabet = p.matrix.size();
            break;
        case Algorithm::edit:
            // -D[i][j] = max(-D[i-1][j-1] - (a != b), -D[i-1][j] - 1, -D[i][j-1] - 1): global
            // alignment with match 0, mismatch -1, linear gap 1; the same ties, the same bits.
            k.family = Family::align_linear;
            k.open = k.extend = 1;
            k.match = 0;
            k.mismatch = -1;
            plan.negate = true;
            break;
        case Algorithm::lcs:
            // Free gaps, +1 on a match, and a mismatch so costly that the diagonal never ties the
            // maximum (which is >= 0): the reference's "diagonal only on a match".
            k.family = Family::align_linear;
            k.open = k.extend = 0;
            k.match = 1;
            k.mismatch = -int32_t(kScoreBound);
            break;
        case Algorithm::dtw:
            k.family = p.dtw_cost == DtwCost::abs ? Family::dtw_abs : Family::dtw_squared;
            plan.dtw = true;
            break;
        case Algorithm::viterbi: break;  // no wavefront: align_cpu hands it to align_viterbi_cpu
    }
    return plan;
}

// H(0, k) (border `top`) or H(k, 0) (`left`) as the kernel sees it (edit distance runs negated).
int32_t kernel_border(const Plan& plan, Border b, int32_t k) {
    const int32_t h = border_h(b, k, plan.kernel.open, plan.kernel.extend);
    return plan.negate ? -h : h;
}

// Row i's columns inside the Sakoe-Chiba band, Problem::in_band as an interval:
// |j*M - i*N + shift| <= band*M  <=>  i*N - band*M - shift <= j*M <= i*N + band*M - shift.
void band_columns(const Problem& p, int32_t i, int32_t& lo, int32_t& hi) {
    const int64_t M = p.rows(), N = p.cols();
    if (p.band < 0) {
        lo = 1;
        hi = int32_t(N);
        return;
    }
    const int64_t low = int64_t(i) * N - int64_t(p.band) * M - p.band_shift;
    const int64_t high = int64_t(i) * N + int64_t(p.band) * M - p.band_shift;
    const int64_t first = low >= 0 ? (low + M - 1) / M : -((-low) / M);   // ceil(low / M)
    const int64_t last = high >= 0 ? high / M : -((-high + M - 1) / M);  // floor(high / M)
    lo = int32_t(std::max<int64_t>(first, 1));
    hi = int32_t(std::min<int64_t>(last, N));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Instruction set
// ---------------------------------------------------------------------------------------------

// The widest kernel the CPU runs; DPVIZ_CPU_ISA=sse2|avx2 caps it (tests run every kernel).
wavefront::Isa pick_isa() {
    const char* cap = std::getenv("DPVIZ_CPU_ISA");
    const std::string_view want = cap ? cap : "";
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
                      __builtin_cpu_supports("fma") && __builtin_cpu_supports("popcnt");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    if (avx512 && want != "sse2" && want != "avx2") return wavefront::isa_avx512();
    if (avx2 && want != "sse2") return wavefront::isa_avx2();
    return wavefront::isa_sse2();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Chunk outputs: matrices into the row-major grids
// ---------------------------------------------------------------------------------------------

// Where a chunk's results go: lane k of step t is cell (i0 + k, t - k).
struct ChunkPlace {
    int32_t a, z;   // steps
    int32_t i0;     // first row of the band
    int lanes;      // buffer stride
    int rows;       // real rows in the band (the last band may be short)
    int32_t n;      // N
    int32_t first_col(int k) const { return std::max(1, a - k); }
    int32_t last_col(int k) const { return std::min(n, z - k); }
};

void place_values(const int32_t* buf, const ChunkPlace& c, bool negate, Grid<int32_t>& g) {
    for (int k = 0; k < c.rows; ++k) {
        int32_t* row = &g.at(c.i0 + k, 0);
        const int32_t lo = c.first_col(k), hi = c.last_col(k);
        const int32_t* src = buf + size_t(lo + k - c.a) * c.lanes + k;  // cell (i0 + k, lo): step lo + k
        if (negate)
            for (int32_t j = lo; j <= hi; ++j, src += c.lanes) row[j] = -*src;
        else
            for (int32_t j = lo; j <= hi; ++j, src += c.lanes) row[j] = *src;
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Bands and threads
// ---------------------------------------------------------------------------------------------

// A band's published progress. `sleepers` lets the publisher skip the futex call when nobody
// sleeps (the common case on an idle machine: the band below is only spinning briefly).
struct alignas(64) Progress {
    std::atomic<int32_t> columns{0};  // bottom-row columns 1..columns published
    std::atomic<int32_t> sleepers{0};
};

void wait_for(Progress& p, int32_t need) {
    int32_t v = p.columns.load(std::memory_order_acquire);
    for (int spin = 0; v < need && spin < 512; ++spin) {
        _mm_pause();
        v = p.columns.load(std::memory_order_acquire);
    }
    for (int spin = 0; v < need && spin < 16; ++spin) {  // more threads than free cores: let others run
        std::this_thread::yield();
        v = p.columns.load(std::memory_order_acquire);
    }
    if (v >= need) return;
    p.sleepers.fetch_add(1, std::memory_order_seq_cst);
    while ((v = p.columns.load(std::memory_order_seq_cst)) < need) p.columns.wait(v, std::memory_order_acquire);
    p.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

void publish(Progress& p, int32_t columns) {
    p.columns.store(columns, std::memory_order_seq_cst);
    if (p.sleepers.load(std::memory_order_seq_cst) > 0) p.columns.notify_all();
}

struct Best {  // local alignment: highest H, ties to the smallest i, then j
    int32_t score = 0;
    Cell cell{0, 0};
    void offer(int32_t s, Cell c) {
        if (s > score || (s == score && (c.i < cell.i || (c.i == cell.i && c.j < cell.j)))) {
            score = s;
            cell = c;
        }
    }
};

struct Scratch {  // one per thread
    std::vector<int32_t> h, e, f, state, query, profile, scores, lo, hi;
    std::vector<uint8_t> dirs;
    Best best;
    Overview overview;  // this thread's part of the overview, when one is kept
    int32_t thread = 0;
};

class Wavefront {
public:
    // `checkpoints`, when given, receives the restart values of its lines (dpviz/store.hpp).
    // `overview`, when given, receives the pooled cells (its borders already there); `given`, when
    // given, replaces row 0 and column 0 (a rectangle of a bigger matrix, restarted from its borders).
    Wavefront(const Problem& p, const Plan& plan, const wavefront::Isa& isa, DpResult& r, const RunControl& control,
              Checkpoints* checkpoints, Overview* overview, const RectBorders* given = nullptr)
        : p_(p), plan_(plan), isa_(isa), r_(r), control_(control), ck_(checkpoints), ov_(overview), given_(given),
          W_(isa.lanes), M_(p.rows()), N_(p.cols()), bands_((M_ + W_ - 1) / W_) {
        kernel_ = plan.kernel;
        trev_.assign(size_t(N_) + 2 * W_, 0);
        int32_t* trev = trev_.data() + W_;
        for (int32_t y = 0; y < N_; ++y) {
            const int32_t j = N_ - y;  // column
            trev[y] = plan.dtw ? p.target_fixed[j - 1] : p.target_codes[j - 1];
        }
        kernel_.trev = trev;
        if (plan.kernel.table) {
            const int32_t pad = W_ + 16;
            tfwd_.assign(size_t(N_) + 2 * size_t(pad) + 1, 0);
            for (int32_t j = 1; j <= N_; ++j) tfwd_[size_t(pad + j)] = p.target_codes[j - 1];
            kernel_.tfwd = tfwd_.data() + pad;
        }
        // The row above band 0 is row 0.
        top_h_.assign(size_t(N_) + 2 * W_ + 2, plan.dtw ? kPosInf : 0);
        top_f_.assign(top_h_.size(), kNegInf);
        for (int32_t j = 1; j <= N_; ++j) top_h_[W_ + j] = kernel_border(plan, plan.rules.top, j);
        if (given_)
            for (int32_t j = 1; j <= N_; ++j) {
                top_h_[W_ + j] = kernel_value(given_->top_h[j]);
                if (given_->top_f) top_f_[W_ + j] = given_->top_f[j];
            }
        if (keeps_last_column()) last_col_.assign(size_t(M_) + 1, 0);
        progress_ = std::make_unique<Progress[]>(size_t(bands_));
    }

    void run(unsigned threads, bool automatic) {
        unsigned t = std::max(1u, threads);
        t = unsigned(std::min<int64_t>(t, bands_));
        if (automatic && int64_t(M_) * N_ < kMinCellsForThreads) t = 1;
        std::vector<Scratch> scratch(t);
        for (Scratch& x : scratch) prepare(x);
        for (unsigned k = 0; k < t; ++k) scratch[k].thread = int32_t(k);
        r_.shape.lanes = W_;
        r_.shape.threads = int32_t(t);
        r_.shape.band_thread.assign(size_t(bands_), 0);
        std::vector<std::thread> pool;
        for (unsigned k = 1; k < t; ++k) pool.emplace_back([this, &scratch, k] { work(scratch[k], false); });
        work(scratch[0], true);
        for (std::thread& th : pool) th.join();
        for (const Scratch& x : scratch) best_.offer(x.best.score, x.best.cell);
        if (ov_)
            for (const Scratch& x : scratch) merge_overview(*ov_, x.overview);
    }

    // Results after run(): H of the last row (kernel terms), H[i][N] (semi-global), the local best.
    int32_t last_row(int32_t j) const { return top_h_[W_ + j]; }
    int32_t last_col(int32_t i) const { return last_col_[i]; }
    const Best& best() const { return best_; }
    bool cancelled() const { return stop_.load(std::memory_order_relaxed); }

private:
    void prepare(Scratch& x) const {
        const size_t chunk = size_t(kChunkSteps) * W_;
        x.h.assign(chunk, 0);
        x.f.assign(plan_.affine ? chunk : 0, 0);
        const bool e = kernel_.store == Store::matrix || kernel_.store == Store::checkpoints;
        x.e.assign(plan_.affine && e ? chunk : 0, 0);
        x.dirs.assign(keeps_dirs() ? chunk : 0, 0);
        x.state.assign(size_t(wavefront::kStateVectors) * W_, 0);
        x.query.assign(W_, 0);
        x.lo.assign(W_, 1);
        x.hi.assign(W_, 0);
        x.profile.assign(kernel_.table ? size_t(wavefront::profile_stride(kernel_.alphabet)) * W_ : 0, 0);
        x.scores.assign(kernel_.table ? chunk : 0, 0);
        if (ov_) x.overview = empty_overview(p_, ov_->block);
    }

    // The caller's thread (`reports`) also reports progress: bands done, scaled to 0.9 of the run.
    void work(Scratch& x, bool reports) {
        for (;;) {
            if (stopping()) return;
            const int32_t b = next_band_.fetch_add(1, std::memory_order_relaxed);
            if (b >= bands_) return;
            r_.shape.band_thread[size_t(b)] = x.thread;  // the hand-out is dynamic: record it
            run_band(x, b);
            const int32_t done = bands_done_.fetch_add(1, std::memory_order_relaxed) + 1;
            if (reports) control_.report(0.9 * double(done) / double(bands_));
        }
    }

    // Cancelled (RunControl): checked before every chunk of a band.
    bool stopping() {
        if (stop_.load(std::memory_order_relaxed)) return true;
        if (!control_.cancelled()) return false;
        stop_.store(true, std::memory_order_relaxed);
        return true;
    }

    void run_band(Scratch& x, int32_t b) {
        const int W = W_;
        const int32_t i0 = 1 + b * W;
        const int rows = std::min(W, M_ - i0 + 1);
        const int bottom = rows - 1;  // lane of the band's last row
        int32_t* hp = x.state.data();
        int32_t* e = hp + W;
        int32_t* fp = hp + 2 * W;
        int32_t* d = hp + 3 * W;
        int32_t* maxv = hp + 4 * W;
        int32_t* maxt = hp + 5 * W;
        for (int k = 0; k < W; ++k) {
            const int32_t i = i0 + k;
            const bool real = k < rows;
            hp[k] = real ? left_h(i) : (plan_.dtw ? kPosInf : 0);
            e[k] = fp[k] = kNegInf;
            if (real && given_ && given_->left_e) e[k] = given_->left_e[i];
            maxv[k] = maxt[k] = 0;
            if (plan_.dtw) {
                x.query[k] = real ? p_.query_fixed[i - 1] : 0;
                x.lo[k] = 1;
                x.hi[k] = 0;
                if (real) band_columns(p_, i, x.lo[k], x.hi[k]);
            } else {
                x.query[k] = real ? p_.query_codes[i - 1] : 0;
            }
            if (kernel_.table) {
                int32_t* row = x.profile.data() + size_t(k) * wavefront::profile_stride(kernel_.alphabet);
                for (int c = 0; c < kernel_.alphabet; ++c) row[c] = real ? p_.matrix.at(p_.query_codes[i - 1], c) : 0;
            }
        }
        d[0] = left_h(i0 - 1);
        for (int k = 1; k < W; ++k) d[k] = hp[k - 1];
        const wavefront::Band band{x.query.data(), x.profile.data(), x.lo.data(), x.hi.data(), hp};

        const int32_t last_step = N_ + W - 1;
        for (int32_t a = 1; a <= last_step; a += kChunkSteps) {
            const int32_t z = std::min(a + kChunkSteps - 1, last_step);
            if (b > 0) wait_for(progress_[b - 1], std::min(z, N_));
            if (stopping()) {
                publish(progress_[b], N_);  // the band below must not wait for rows that never come
                return;
            }
            wavefront::Chunk chunk{a, z, top_h_.data() + W, top_f_.data() + W, x.h.data(), x.e.data(), x.f.data(),
                                   x.dirs.data()};
            chunk.rows = rows;
            chunk.scores = x.scores.data();
            chunk.bottom_h = top_h_.data() + W;
            chunk.bottom_f = top_f_.data() + W;
            if (keeps_dirs()) {
                chunk.grid = &r_.dirs.at(i0, 0);
                chunk.grid_stride = size_t(N_) + 1;
            }
            isa_.run(kernel_, band, chunk);
            finish_chunk(x, {a, z, i0, W, rows, N_});
            publish(progress_[b], z == last_step ? N_ : std::max(0, std::min(z - bottom, N_)));
        }
        if (kernel_.local)
            for (int k = 0; k < rows; ++k)
                if (maxv[k] > 0) x.best.offer(maxv[k], {i0 + k, maxt[k] - k});
    }

    // What the kernel leaves to the driver: the last column (semi-global) and the matrices.
    void finish_chunk(Scratch& x, const ChunkPlace& c) {
        const int W = c.lanes;
        if (keeps_last_column())
            for (int k = 0; k < c.rows; ++k)
                if (N_ + k >= c.a && N_ + k <= c.z) last_col_[c.i0 + k] = x.h[size_t(N_ + k - c.a) * W + k];
        if (ck_) keep_checkpoints(x, c);
        if (ov_) keep_overview(x, c);
        if (kernel_.store == Store::matrix) {
            place_values(x.h.data(), c, plan_.negate, r_.H);
            if (plan_.affine) {
                place_values(x.e.data(), c, false, r_.E);
                place_values(x.f.data(), c, false, r_.F);
            }
        }
    }

    // H of column 0 at row i, in kernel terms: the rule, or the given border.
    int32_t left_h(int32_t i) const {
        return given_ ? kernel_value(given_->left_h[i]) : kernel_border(plan_, plan_.rules.left, i);
    }
    int32_t kernel_value(int32_t h) const { return plan_.negate ? -h : h; }  // edit distance runs negated

    // The chunk's cells on checkpoint lines: rows i = K, 2K, ... (H, F) and columns (H, E).
    void keep_checkpoints(const Scratch& x, const ChunkPlace& c) {
        Checkpoints& ck = *ck_;
        const int32_t K = ck.spacing;
        const int W = c.lanes;
        const int32_t sign = plan_.negate ? -1 : 1;
        for (int k = 0; k < c.rows; ++k) {
            const int32_t i = c.i0 + k, lo = c.first_col(k), hi = c.last_col(k);
            if (lo > hi) continue;
            const size_t first = size_t(lo + k - c.a) * W + k;  // cell (i, lo): step lo + k
            if (ck.is_row_line(i)) {
                int32_t* h = ck.row(ck.row_h, i);
                for (int32_t j = lo; j <= hi; ++j) h[j] = sign * x.h[first + size_t(j - lo) * W];
                if (ck.affine) {
                    int32_t* f = ck.row(ck.row_f, i);
                    for (int32_t j = lo; j <= hi; ++j) f[j] = x.f[first + size_t(j - lo) * W];
                }
            }
            for (int32_t j = ck.col_after(ck.col_before(lo)); j <= hi; j += K) {  // the first line >= lo
                const size_t o = first + size_t(j - lo) * W;
                ck.col(ck.col_h, j)[i] = sign * x.h[o];
                if (ck.affine) ck.col(ck.col_e, j)[i] = x.e[o];
            }
        }
    }

    // The chunk's cells pooled into this thread's overview by the instruction set's pool.
    void keep_overview(Scratch& x, const ChunkPlace& c) {
        Overview& o = x.overview;
        wavefront::PoolChunk pc;
        pc.h = x.h.data();
        pc.a = c.a;
        pc.z = c.z;
        pc.n = c.n;
        pc.rows = c.rows;
        pc.i0 = c.i0;
        pc.sign = plan_.negate ? -1 : 1;
        pc.block = o.block;
        pc.lowest = o.lowest;
        pc.bound = int32_t(kScoreBound);
        pc.texels = o.H.data.data();
        pc.texel_cols = o.H.cols;
        wavefront::PoolRange range{o.min, o.max, o.any_finite, o.any_unreachable};
        isa_.pool(pc, range);
        o.min = range.min;
        o.max = range.max;
        o.any_finite = range.any_finite;
        o.any_unreachable = range.any_unreachable;
    }

    // Direction bits into the grid: at levels path and matrix (a checkpoint fill keeps none).
    bool keeps_dirs() const { return kernel_.store == Store::dirs || kernel_.store == Store::matrix; }

    // Semi-global's end may be in column N: the bands keep it.
    bool keeps_last_column() const { return plan_.rules.end == EndRule::last_row_or_column; }

    const Problem& p_;
    const Plan& plan_;
    const wavefront::Isa isa_;
    DpResult& r_;
    const RunControl& control_;
    Checkpoints* const ck_;
    Overview* const ov_;
    const RectBorders* const given_;
    const int W_;
    const int32_t M_, N_;
    const int32_t bands_;
    wavefront::Kernel kernel_;
    std::vector<int32_t> trev_, tfwd_, top_h_, top_f_, last_col_;
    std::unique_ptr<Progress[]> progress_;
    std::atomic<int32_t> next_band_{0};
    std::atomic<int32_t> bands_done_{0};
    std::atomic<bool> stop_{false};
    Best best_;
};

// Grid::reset for big grids. A fresh grid costs mostly its page faults (the kernel zeroes every
// page; on a virtual machine that is several times slower than a memset), so: ask for
// transparent huge pages, fault the pages in from all threads at once (MADV_POPULATE_WRITE,
// Linux 5.14+; on older kernels the memset below faults them in), then fill.
template <class T>
void reset_grid(Grid<T>& g, int32_t rows, int32_t cols, T fill, unsigned threads) {
    const size_t n = size_t(rows) * size_t(cols);
    g.rows = rows;
    g.cols = cols;
    std::vector<T>().swap(g.data);
    g.data.reserve(n);  // allocates; no page is touched yet
    constexpr uintptr_t kHuge = uintptr_t(2) << 20, kPage = 4096;
    const uintptr_t first = reinterpret_cast<uintptr_t>(g.data.data());
    const uintptr_t last = first + n * sizeof(T);
    const uintptr_t huge_begin = (first + kHuge - 1) & ~(kHuge - 1), huge_end = last & ~(kHuge - 1);
    if (huge_end > huge_begin) madvise(reinterpret_cast<void*>(huge_begin), huge_end - huge_begin, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
    const uintptr_t begin = (first + kPage - 1) & ~(kPage - 1), end = last & ~(kPage - 1);
    const unsigned parts = std::min<uintptr_t>(threads, (end - std::min(end, begin)) / (uintptr_t(32) << 20));
    if (parts > 1) {
        const uintptr_t step = ((end - begin) / parts + kHuge - 1) & ~(kHuge - 1);
        auto populate = [&](unsigned k) {
            const uintptr_t a = begin + k * step, b = std::min(end, a + step);
            if (a < b) madvise(reinterpret_cast<void*>(a), b - a, MADV_POPULATE_WRITE);  // a hint; may fail
        };
        std::vector<std::thread> pool;
        for (unsigned k = 1; k < parts; ++k) pool.emplace_back(populate, k);
        populate(0);
        for (std::thread& t : pool) t.join();
    }
#else
    (void)threads;
#endif
    g.data.assign(n, fill);
}

// Borders of the grids the level keeps (interiors come from the bands).
void fill_borders(const Problem& p, const Plan& plan, OutputLevel level, unsigned threads, DpResult& r) {
    const int32_t M = p.rows(), N = p.cols();
    if (level != OutputLevel::score) reset_grid<uint8_t>(r.dirs, M + 1, N + 1, 0, threads);
    if (level == OutputLevel::matrix) {
        reset_grid(r.H, M + 1, N + 1, 0, threads);
        if (plan.affine) {
            reset_grid(r.E, M + 1, N + 1, kNegInf, threads);
            reset_grid(r.F, M + 1, N + 1, kNegInf, threads);
        }
    }
    write_borders(p, r);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] align_cpu
// ---------------------------------------------------------------------------------------------

DpResult align_cpu(const Problem& p, OutputLevel level, unsigned threads) {
    return std::move(align_cpu(p, level, threads, RunControl{}).value());
}

namespace {

// align_cpu, and with `checkpoints` a score-level fill that keeps them and traces back over them.
Expected<DpResult> fill_cpu(const Problem& p, OutputLevel level, unsigned threads, const RunControl& control,
                            std::shared_ptr<Checkpoints> checkpoints, std::shared_ptr<Overview> overview,
                            const RectBorders* given = nullptr) {
    if (control.cancelled()) return cancelled_error();
    if (p.algo == Algorithm::viterbi) return align_viterbi_cpu(p, level, false, control);
    DpResult r;
    r.algo = p.algo;
    r.level = level;
    r.backend = Backend::cpu;
    r.cells = int64_t(p.rows()) * p.cols();
    const int32_t M = p.rows(), N = p.cols();

    const auto t0 = std::chrono::steady_clock::now();
    const Plan plan = make_plan(p, checkpoints ? OutputLevel::score : level, checkpoints != nullptr);
    const bool automatic = threads == 0;
    if (automatic) threads = std::max(1u, std::thread::hardware_concurrency());
    fill_borders(p, plan, checkpoints ? OutputLevel::score : level, threads, r);

    // H of the cells select_end may pick, in kernel terms: borders, the last row, the last column.
    std::unique_ptr<Wavefront> wf;
    if (M > 0 && N > 0) {
        wf = std::make_unique<Wavefront>(p, plan, pick_isa(), r, control, checkpoints.get(), overview.get(), given);
        wf->run(threads, automatic);
        if (wf->cancelled()) return cancelled_error();
    }
    if (given) return r;  // a rectangle's cells only: no end cell, no traceback
    auto h_at = [&](int32_t i, int32_t j) {
        if (i == 0) return kernel_border(plan, plan.rules.top, j);
        if (j == 0) return kernel_border(plan, plan.rules.left, i);
        if (i == M) return wf->last_row(j);
        return wf->last_col(i);  // j == N
    };
    // select_end (traceback.cpp) over what the bands kept: the local best comes from the bands,
    // the other rules' cells lie on the borders, row M and column N.
    const EndRule end = plan.rules.end;
    if (end == EndRule::best_cell) {
        r.end = wf ? wf->best().cell : Cell{0, 0};
        r.score = wf ? wf->best().score : 0;
    } else if (end == EndRule::corner) {
        r.end = {M, N};
        r.score = plan.negate ? -h_at(M, N) : h_at(M, N);
    } else {
        std::vector<int32_t> last_column(size_t(M) + 1), last_row(size_t(N) + 1);
        if (end == EndRule::last_row_or_column)  // the only rule that reads column N (kept by the bands)
            for (int32_t i = 0; i <= M; ++i) last_column[size_t(i)] = h_at(i, N);
        for (int32_t j = 0; j <= N; ++j) last_row[size_t(j)] = h_at(M, j);
        const EndCell e = select_end_on_edges(p, last_column, last_row);
        r.end = e.cell;
        r.score = e.score;
    }
    r.fill_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.checkpoints = std::move(checkpoints);
    r.overview = std::move(overview);
    finish_result(p, r);
    control.report(1.0);
    return r;
}

}  // namespace

Expected<DpResult> align_cpu(const Problem& p, OutputLevel level, unsigned threads, const RunControl& control) {
    return fill_cpu(p, level, threads, control, nullptr, nullptr);
}

Expected<DpResult> fill_rect_cpu(const Problem& p, const RectBorders& borders, OutputLevel level, unsigned threads) {
    // A band's columns are the whole matrix's (Problem::in_band): a rectangle's own problem would
    // place it elsewhere.
    if (p.algo == Algorithm::viterbi || (p.algo == Algorithm::dtw && p.band >= 0))
        return usage_error("internal: fill_rect_cpu takes alignments, edit distance, LCS and DTW without a band");
    return fill_cpu(p, level, threads, RunControl{}, nullptr, nullptr, &borders);
}

Expected<Checkpoints> fill_checkpoints(const Problem& p, int32_t spacing, unsigned threads, const RunControl& control,
                                       int32_t row_phase, int32_t col_phase) {
    if (p.algo == Algorithm::viterbi) return usage_error("the Viterbi trellis keeps no checkpoints");
    auto kept = std::make_shared<Checkpoints>(make_checkpoints(p, spacing, row_phase, col_phase));
    Expected<DpResult> r = fill_cpu(p, OutputLevel::score, threads, control, kept, nullptr);
    if (!r) return r.error();
    return std::move(*kept);
}

Expected<DpResult> align_cpu_checkpoints(const Problem& p, int32_t spacing, unsigned threads,
                                         const RunControl& control, int32_t overview_block) {
    if (p.algo == Algorithm::viterbi) return align_viterbi_cpu_checkpoints(p, spacing, control, overview_block);
    return fill_cpu(p, OutputLevel::path, threads, control, std::make_shared<Checkpoints>(make_checkpoints(p, spacing)),
                    overview_block > 0 ? std::make_shared<Overview>(make_overview(p, overview_block)) : nullptr);
}

}  // namespace dpviz
