// The one-pair score kernel's plan (cuda/pair_score.cu), CUDA-free: which problems it takes and
// the compact code of their residues, so the device path, the simulated device
// (cpu/simulated_gpu.cpp) and the CPU tests decide alike.
//
// The kernel (docs/single_pair_kernel.md: the design, measured): persistent blocks of kWarps
// warps, each warp a band of 32 * kRowsPerLane rows with a lane's rows skewed by one column so
// its cells of a step are independent; band to band through shared memory, block to block
// through two global row slots of self-tagged entries (affine gaps: two more for F). A cell's
// score is one byte-permute of the query row's 4 scores, so the pair may use at most 4 residue
// codes; H is carried as H << 8 and the end cell packed in 64 bits, which bounds the score and
// the lengths. DTW (no band) runs the same sweep over the signals' fixed-point values: a cell's
// cost is |a - b| (or its square) of its row's and column's values, and the score is D(M, N).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "dpviz/types.hpp"

namespace dpviz::pair_score {

// W bands per block hand over through a shared-memory ring guarded by mbarriers; blocks through
// global memory. The probe's best shape was 4 bands per block (0.774 TCUPS against 0.671 with 1).
// Its first hand-over synchronized warps through volatile flags, which compute-sanitizer's
// racecheck cannot follow (it reported the ring's accesses as races; a racecheck-clean kernel is
// the rule here), so the engine ran W = 1 until the mbarrier hand-over.
inline constexpr int kWarps = 4;         // W: bands per block
inline constexpr int kRowsPerLane = 4;   // R
inline constexpr int kPublish = 32;      // P: steps between two publications of a band's progress
inline constexpr int kBandRows = 32 * kRowsPerLane;
inline constexpr int kGroupRows = kWarps * kBandRows;
inline constexpr int kScale = 8;         // H << kScale inside the kernel
// The DPX-free form carries every alignment value with a bias of 2^24 and compares them as
// floats: a value must stay a normal positive float, in [2^23, 0x7f800000). (DTW's values, in
// [0, 2^30], are carried unbiased, as the band kernels carry them: below 2^23 their bit patterns
// are subnormal floats, which order like the integers since nothing here flushes subnormals: no
// -ftz, no --use_fast_math.) H << 8 plus the bias (and a step's
// offset, < 2^8) stays below the top for H < (0x7f800000 - 2^24) / 2^8 = 8,290,304; the lowest
// values, the bias minus the gaps (E and F never fall below -open; one extend more) or minus the
// padding's score 128 << 8, stay above 2^23 for a gap (affine: open + extend) of at most kMaxGap.
inline constexpr int kFloatBias = 1 << 24;
inline constexpr int64_t kMaxScore = 8'000'000;
inline constexpr int kMaxGap = ((1 << 23) >> kScale) - 1;  // 32,767
static_assert((kMaxScore << kScale) + 255 + kFloatBias < 0x7f800000, "DPX-free values stay finite floats");
static_assert(kFloatBias - (int64_t(kMaxGap) << kScale) >= (1 << 23), "DPX-free values stay normal floats");

// The end cell's key: score << b | (2^b - 1 - (i (N + 1) + j)), b the bits of the largest index
// (M + 1)(N + 1) - 1, so that the largest key is the best score's first cell in row-major order.
// The score has the other 64 - b bits (23 at 1,048,576^2, 25 at 185,000 x 2,200,000, 14 at
// kMaxDim^2): `applies` checks the pair's worst case against them.
inline int key_index_bits(int M, int N) {
    const uint64_t last = uint64_t(M + 1) * uint64_t(N + 1) - 1;
    int b = 1;
    while (b < 64 && (last >> b) != 0) ++b;
    return b;
}
// The lengths, on both sides, are bounded by the group tags' 16 bits (at most 65,536 groups of
// kGroupRows rows); a local fill's also by its key (above), the corner form packs none.
inline constexpr int kMaxDim = (1 << 25) - 1;
static_assert((int64_t(kMaxDim) + kGroupRows - 1) / kGroupRows <= (1 << 16), "group tags have 16 bits");
inline constexpr int kSelOff = 256;      // the target's selectors start kSelOff entries in

// The pair's residue codes mapped onto 0..3 (code[c] = compact code of matrix code c, -1 unused).
struct Compact {
    std::array<int8_t, 256> code{};
    std::array<uint8_t, 4> of{};  // matrix code of each compact code
    int used = 0;
};

// The compact codes when the pair uses at most 4 distinct codes; used = 0 otherwise (or 5: "more").
inline Compact compact_codes(const Problem& p) {
    Compact c;
    c.code.fill(-1);
    for (const auto* side : {&p.query_codes, &p.target_codes})
        for (const uint8_t x : *side) {
            if (c.code[x] >= 0) continue;
            if (c.used == 4) return Compact{{}, {}, 5};
            c.code[x] = int8_t(c.used);
            c.of[size_t(c.used++)] = x;
        }
    return c;
}

// The kernel's fill: H' = max(diag' + s'(a, b), up' - gap, left' - gap, 0) from borders of 0
// (affine gaps: with E and F), over the pair's compact codes. A local alignment is that fill
// (s' = s). Global alignment with a linear gap g, edit distance (g = 1) and LCS (g = 0) start
// from borders of g k and read the corner: as H' = sign H + g (i + j) (sign -1 for a distance),
// H' = max(diag' + sign s + 2 g, up', left') with borders of 0 ("the corner form"). H' never
// falls along a row or a column, so the zero floor never binds, the largest H' is H'(M, N), and
// H(M, N) = sign (H'(M, N) - g (M + N)). Rows past M and columns past N (scored -128) copy the
// last real ones, so the band bottom row past M holds row M.
// Global alignment with affine gaps (a gap of k costs open + (k - 1) extend) takes the same
// transform with g = extend and a constant: H' = H + extend (i + j) + c0, c0 = open - extend.
// Then an extension costs nothing, an opening c0 (E' = max(E'left, H'left - c0), F' likewise),
// s' = s + 2 extend, H' = max(diag' + s', E', F') with no floor, and every border is 0 but
// H'(0, 0) = c0 ("the affine corner form"). Columns left of column 1 compute 0 by themselves when
// their F' starts at 0 (F' carries the 0 down, E' and diag' + s' stay below it), which is the
// border. H' may fall along a row (by c0, once) and stays >= -c0 (the two-gap path), so H'(M, N)
// is kept as it is computed, as DTW's D(M, N) is.
struct Scoring {
    bool corner = false;        // the corner form: the score is sign (best - g (M + N)) at (M, N)
    bool dtw = false;           // DTW: D = cost + min(diag, up, left), the score D(M, N)
    bool squared = false;       // DTW's cost: (a - b)^2, else |a - b|
    int sign = 1;
    int32_t g = 0;              // the corner form's border step
    int32_t open = 0, extend = 0;  // the kernel's gaps (the corner form: none; the affine one: c0, 0)
    int32_t c0 = 0;             // the affine corner form's H'(0, 0)
    std::array<int32_t, 16> s{};   // s'[a * 4 + b] for compact codes a (query) and b (target)
};

// The kernel's scoring of p (its algorithm, gaps and matrix) over the compact codes c, or none
// when the kernel does not take the algorithm or its gaps. DTW takes no codes (its inputs are
// signals) and no Sakoe-Chiba band.
inline std::optional<Scoring> scoring_of(const Problem& p, const Compact& c) {
    Scoring sc;
    if (p.algo == Algorithm::dtw) {
        if (p.band >= 0) return std::nullopt;
        sc.dtw = true;
        sc.squared = p.dtw_cost == DtwCost::squared;
        return sc;
    }
    switch (p.algo) {
        case Algorithm::local: sc.open = p.gaps.open; sc.extend = p.gaps.extend; break;
        case Algorithm::global:
            sc.corner = true;
            sc.g = p.gaps.extend;  // a linear gap: open = extend
            sc.open = sc.c0 = p.gaps.open - p.gaps.extend;
            break;
        case Algorithm::edit: sc.corner = true; sc.sign = -1; sc.g = 1; break;
        case Algorithm::lcs: sc.corner = true; break;
        default: return std::nullopt;
    }
    for (int a = 0; a < c.used; ++a)
        for (int b = 0; b < c.used; ++b) {
            const int32_t same = a == b;  // compact codes are equal where the residues' codes are
            const int32_t v = p.algo == Algorithm::edit ? 1 - same  // the cost of a substitution
                              : p.algo == Algorithm::lcs ? same
                                                         : p.matrix.at(c.of[size_t(a)], c.of[size_t(b)]);
            sc.s[size_t(a * 4 + b)] = sc.sign * v + 2 * sc.g;
        }
    return sc;
}

// A value the kernel computes for cell (i, j), H', E' or F' (unscaled, unbiased), in the problem's
// terms: sign (v - g (i + j) - c0); a local fill's and DTW's as they are (sign 1, g = c0 = 0).
// The score of a corner form is its H'(M, N). constexpr: the kernel's lines call it too.
constexpr int64_t problem_value(const Scoring& sc, int64_t v, int i, int j) {
    return sc.sign * (v - int64_t(sc.g) * (int64_t(i) + j) - sc.c0);
}
constexpr int64_t corner_score(const Scoring& sc, int64_t corner, int M, int N) { return problem_value(sc, corner, M, N); }

// The kernel's forms, one instantiation each (cuda/pair_score.cu: pair_score_fill<Ops, int(form)>),
// and the names the SASS reports, the scan and the GUI give them.
enum class Form { linear, affine, corner, dtw, dtw_squared, corner_affine };
inline Form form_of(const Scoring& sc) {
    if (sc.dtw) return sc.squared ? Form::dtw_squared : Form::dtw;
    if (sc.corner) return sc.c0 != 0 ? Form::corner_affine : Form::corner;
    return sc.open != sc.extend ? Form::affine : Form::linear;
}
inline const char* form_name(Form f) {
    switch (f) {
        case Form::linear: return "pair-score";
        case Form::affine: return "pair-score-affine";
        case Form::corner: return "pair-score-corner";
        case Form::dtw: return "pair-score-dtw";
        case Form::dtw_squared: return "pair-score-dtw-squared";
        case Form::corner_affine: return "pair-score-corner-affine";
    }
    return "pair-score";
}

// The largest s' of the pair's codes (0 if none is positive), or none when an s' is past
// +-limit (127: no int8; the 16x2 fill's 15: 8 s' no int8).
inline std::optional<int32_t> largest_score(const Scoring& sc, const Compact& c, int32_t limit = 127) {
    int32_t hi = 0;
    for (int a = 0; a < c.used; ++a)
        for (int b = 0; b < c.used; ++b) {
            const int32_t s = sc.s[size_t(a * 4 + b)];
            if (s < -limit || s > limit) return std::nullopt;
            hi = std::max(hi, s);
        }
    return hi;
}

// The largest H' the kernel carries exactly: kMaxScore, and for a local fill also the end-cell
// key's score bits.
inline int64_t score_limit(const Scoring& sc, int M, int N) {
    if (sc.corner || sc.dtw) return kMaxScore;
    return std::min<int64_t>(kMaxScore, (int64_t(1) << std::min(62, 64 - key_index_bits(M, N))) - 1);
}

// The pair's worst case: min(M, N) times the largest s', plus c0.
inline int64_t worst_score(const Scoring& sc, int32_t hi, int M, int N) {
    return int64_t(std::min(M, N)) * hi + sc.c0;
}

// Whether a local fill's best score `best` proves that every cell stayed within `limit`. A cell
// past the limit, the first one in the fill's order, is diag + s' (its E and F stay below the
// cells they come from), so its diag, in range and computed exactly, lies within hi of the limit
// and the best is at least that: a best of at most limit - hi leaves no cell past the limit (and
// whatever a cell past it computed never lowers the best below its diag's). Else the band kernels
// fill the pair again. pair_score_plan_test checks the argument on reference matrices.
inline bool proves_range(int64_t best, int64_t limit, int32_t hi) { return best <= limit - hi; }

// Whether the one-pair score kernel computes this problem (else the band kernel does): at score
// level, a local alignment (linear or affine gaps), the corner forms (global, edit, LCS) or DTW
// without a band; at most 4 residue codes, every s' an int8, both lengths at most kMaxDim, and a
// gap (local affine: open plus extend; global affine: 2 c0) of at most kMaxGap. A corner form's
// worst case must stay within score_limit (nothing in the fill shows a cell past it); a local
// fill's may pass it, its best proving the range after the fill (proves_range). DTW's values need
// no check here: make_dtw_problem keeps |value| and every path's cost below 2^29 (kScoreBound),
// and the kernel's unreachable is kPosInf = 2^30, so cost + unreachable stays below 2^31 and, for
// the DPX-free form, below the floats' infinity (0x7f800000).
inline bool applies(const Problem& p, OutputLevel level) {
    if (level != OutputLevel::score) return false;
    const int64_t M = p.rows(), N = p.cols();
    if (M < 1 || N < 1 || M > kMaxDim || N > kMaxDim) return false;
    if (p.algo == Algorithm::dtw) return scoring_of(p, Compact{}).has_value();
    const Compact c = compact_codes(p);
    if (c.used < 1 || c.used > 4) return false;
    const auto sc = scoring_of(p, c);
    if (!sc) return false;
    // The lowest value a DPX-free fill compares: -open - extend (local, affine), -gap (linear),
    // -2 c0 (the affine corner form: every H', E' and F' stays >= -c0, one opening below).
    const int64_t gaps = sc->c0 != 0               ? 2 * int64_t(sc->c0)
                         : sc->open != sc->extend ? int64_t(sc->open) + sc->extend
                                                  : sc->open;
    if (sc->open < 0 || sc->extend < 0 || gaps > kMaxGap || (sc->corner && sc->g < 0)) return false;
    const auto hi = largest_score(*sc, c);
    if (!hi) return false;
    const int64_t limit = score_limit(*sc, int(M), int(N));
    return sc->corner ? worst_score(*sc, *hi, int(M), int(N)) <= limit : *hi < limit;
}

// Whether the device path fills p at `level` with the kernel (else with the band kernels): every
// fill it applies to, none with DPVIZ_PAIR_KERNEL=0 (a measurement knob: the band kernels fill
// them all; docs/gpu.md).
inline bool band_kernels_only() {
    const char* e = std::getenv("DPVIZ_PAIR_KERNEL");
    return e && std::string_view(e) == "0";
}
inline bool takes(const Problem& p, OutputLevel level) { return !band_kernels_only() && applies(p, level); }

// Launch geometry: groups of kGroupRows rows; a band runs `steps` steps (its N columns and the
// skew of its 32 * R rows, rounded up to a multiple of kPublish).
inline int groups(int M) { return (M + kGroupRows - 1) / kGroupRows; }
inline int steps(int N) { return (N + kBandRows + kPublish - 1) / kPublish * kPublish; }
// Blocks per SM, chosen by the fill's critical path (docs/single_pair_kernel.md, "Blocks per
// SM"): group g starts kGroupLagSteps steps after group g - 1 or, past the first k * sms groups,
// when a block is free, so the last group starts after (waves - 1) sweeps and its rank in its
// wave's lags, and runs one sweep more. A step of that path takes step_cycles(form, w) with w
// warps of the fill on each scheduler (they share its ALU pipe).
inline constexpr int64_t kGroupLagSteps = 720;

// Cycles of a step with w = 1, 2, ... warps on each scheduler, by form: fills of 1,048,576^2 on
// an H200 with k = w blocks per SM, the DPX fill's time at 1.98 GHz over the path below (local
// linear: k = 1..5; the other forms: k = 1..4, the mean of two device calls). One table per cell:
// the corner form's is edit distance's, the affine corner form's global affine's, DTW's squared
// cost takes |a - b|'s. Local affine's w = 3 is 220, not the 212 of its fill, so that its choice
// at 524,288^2 is the measured best (2) as well. Past a table, each warp costs its share.
inline int64_t step_cycles(Form f, int64_t w) {
    static constexpr int64_t linear[] = {78, 111, 155, 230, 270}, affine[] = {115, 167, 220, 288},
                             corner[] = {67, 90, 124, 180}, dtw[] = {81, 100, 128, 185},
                             corner_affine[] = {105, 144, 183, 250};
    const auto at = [w](const auto& t) {
        const int64_t n = int64_t(std::size(t));
        return w <= n ? t[w - 1] : t[n - 1] * w / n;
    };
    switch (f) {
        case Form::linear: return at(linear);
        case Form::affine: return at(affine);
        case Form::corner: return at(corner);
        case Form::dtw:
        case Form::dtw_squared: return at(dtw);
        case Form::corner_affine: return at(corner_affine);
    }
    return at(linear);
}

// The model's cycles for k blocks on each of `sms` SMs.
inline int64_t predicted_cycles(Form f, int M, int N, int sms, int k) {
    const int64_t G = groups(M), S = steps(N), slots = int64_t(k) * sms;
    const int64_t last_wave = (G - 1) / slots, rank = (G - 1) % slots;
    const int64_t path = (last_wave + 1) * S + rank * kGroupLagSteps;
    const int64_t per_scheduler = std::min<int64_t>(k, (G + sms - 1) / sms);  // warps of one scheduler
    return path * step_cycles(f, per_scheduler);
}

// The k in 1..fits with the fewest predicted cycles (the smallest of equals).
inline int choose_blocks_per_sm(Form f, int M, int N, int sms, int fits) {
    int best = 1;
    for (int k = 2; k <= fits; ++k)
        if (predicted_cycles(f, M, N, sms, k) < predicted_cycles(f, M, N, sms, best)) best = k;
    return best;
}

// The row-serial fill (cuda/pair_score.cu, "Row-serial fill"; docs/single_pair_kernel.md): the
// score fills of local alignment with a linear gap, of the corner form and of DTW, a lane's R rows in
// series, groups of kSerialWarps * 32 * R rows, chunks of kSerialChunk steps, a ring of
// kSerialRing slots between two warps. R by size: kSerialRowsSmall up to kSerialSmallRows rows,
// kSerialRowsLarge past them (a step is a chain of R cells: fewer rows a lane start the last
// group sooner, more give each warp more cells a step; chosen from the probe's measurements). The
// same buffers as the fill above (its row slots hold steps + 32 entries: serial_steps(N) + 32 <=
// row_slot_entries(N)).
inline constexpr int kSerialWarps = 4;
inline constexpr int kSerialChunk = 32;
inline constexpr int kSerialRing = 256;
inline constexpr int kSerialRowsSmall = 6, kSerialRowsLarge = 16;
inline constexpr int kSerialSmallRows = 131072;
inline constexpr int kSerialMinBlocks = 4;  // registers for 4 blocks per SM (at most 128 each)
inline int serial_rows(int M) { return M <= kSerialSmallRows ? kSerialRowsSmall : kSerialRowsLarge; }
inline int serial_groups(int M) {
    const int rows = kSerialWarps * 32 * serial_rows(M);
    return (M + rows - 1) / rows;
}
inline int serial_steps(int N) { return (N + 31 + kSerialChunk - 1) / kSerialChunk * kSerialChunk; }
// The corner form's score fill from kSerialMinRows rows by default: on an H100 it is faster than
// the skewed fill from 16,384^2 to 1,048,576^2 (edit distance 269.6 against 388.7 ms at
// 1,048,576^2), slower at 1,024^2 (0.090 against 0.077 ms) and 4,096^2 (0.304 against 0.298).
// Local linear with DPX from kSerialLocalMinRows rows: its end-cell key costs it a fifth, so it
// is slower than the skewed fill at 65,536^2 and 131,072^2 and faster at 262,144^2 (30.3 against
// 35.7 ms on an H100) and 1,048,576^2 with one block per SM (419.9 against 444.9); without DPX
// it stays on the skewed fill (its row-serial chain is an add and an FMNMX a row: 65.5 against
// 45.4 ms at 262,144^2; docs/single_pair_kernel.md, "The row-serial fill"). DPVIZ_PAIR_SERIAL=1: the
// row-serial fill for every form it takes, at any size and either Ops; DPVIZ_PAIR_SERIAL=0: the skewed fill.
// DTW (either cost) from kSerialDtwMinRows rows with either Ops: on an H100 at 1,048,576^2 its
// row-serial fill is faster with both costs and both Ops (the absolute cost with DPX 409.3
// against 420.0 ms, without 420.5 against 500.1; the squared cost 313.2 against 358.5 and 338.3
// against 417.3); at 262,144^2 and 65,536^2 only the absolute cost with DPX is (30.2 against
// 33.5 ms), the others slower (at 262,144^2 44.5 against 37.9 ms without DPX, the squared cost
// 35.5 against 30.7 with it; docs/single_pair_kernel.md, "The row-serial fill").
inline constexpr int kSerialMinRows = 16384;
inline constexpr int kSerialLocalMinRows = 262144;
inline constexpr int kSerialDtwMinRows = 1 << 20;
inline bool is_dtw(Form f) { return f == Form::dtw || f == Form::dtw_squared; }
inline bool takes_serial(Form f, OutputLevel level, int M, bool dpx) {
    if (level != OutputLevel::score || (f != Form::linear && f != Form::corner && !is_dtw(f))) return false;
    const char* e = std::getenv("DPVIZ_PAIR_SERIAL");
    const std::string_view asked = e ? e : "";
    if (asked == "1") return true;
    if (asked == "0") return false;
    if (is_dtw(f)) return M >= kSerialDtwMinRows;
    return f == Form::corner ? M >= kSerialMinRows : dpx && M >= kSerialLocalMinRows;
}
// Its kernel's name in the SASS reports (kernels/cuda/sass_names.py): "pair-serial-r16",
// "pair-serial-corner-r6", "pair-serial-dtw-squared-r16", ...
inline std::string serial_name(Form f, int M) {
    const char* form = f == Form::corner ? "-corner" : f == Form::dtw ? "-dtw" : f == Form::dtw_squared ? "-dtw-squared" : "";
    return std::string("pair-serial") + form + "-r" + std::to_string(serial_rows(M));
}
// Blocks per SM: the corner form's and DTW's every group resident at once where that takes at most
// kSerialMaxBlocks on an SM (one wave), else kSerialMaxBlocks (or fewer where fewer fit). With 4
// blocks on an SM, 4 warps share each scheduler and a warp that waits on the band above takes
// issue slots from the others: at 1,048,576^2 (512 groups) 4 blocks per SM in one wave took 630.7
// ms for edit distance, 2 in two waves 269.7 (H100). Local linear, and DTW's absolute cost with
// DPX: one block per SM at every size (at 1,048,576^2 on an H100: local linear 419.9 ms with 1,
// 579.5 with 2; DTW 409.3 with 1, 471.1 with 2, its cell four ALU instructions, where without
// DPX 616.2 with 1 and 420.5 with 2, the chain an add and an FMNMX).
inline constexpr int kSerialMaxBlocks = 2;
inline int serial_blocks_per_sm(Form f, int M, int sms, int fits, bool dpx) {
    if (f == Form::linear || (f == Form::dtw && dpx)) return 1;
    const int need = (serial_groups(M) + sms - 1) / sms;
    return std::clamp(need, 1, std::clamp(fits, 1, kSerialMaxBlocks));
}

// The 16x2 fill (cuda/pair_score.cu, "16x2 fill"; docs/single_pair_kernel.md): local alignment
// with a linear gap (or affine gaps: fits16_affine) at score level, on the row-serial layout
// with two virtual lanes a thread, one in each 16-bit half, so one VIADDMNMX.S16x2 computes two
// cells. A band is 64 virtual lanes of R
// rows (kLanes16RowsSmall or kLanes16RowsLarge), a group kSerialWarps bands. The halves hold
// S H + (S - 1 - k mod S) less a warp-wide base (the warp's lowest S H at the last 32-step chunk
// boundary, a multiple of S), S = lanes16_scale(R): the end cell's key, with a row of S in the low
// bits (R / S keys a lane). Range: for local alignment H(i, j) - H(i - 1, j) and
// H(i, j) - H(i, j - 1) lie in [-g, max s + g], so the cells of a warp at a step (64 R rows and 64
// columns of skew) lie within (64 R + 64)(max s + g) of each other; a chunk's 32 steps raise them
// by at most 32 (max s + g) over the base, the row above the band is one step more, and a half
// must keep room for a score (S |s'| <= 120) and the clamp of the row above before it wraps:
// kLanes16Room (lanes16_step_bound). fits16 takes the pairs for which that bound holds at both R
// (a proof: the spread of related pairs comes near it, about (max s + g) a row above the diagonal).
// The kernel still checks each chunk's spread against lanes16_spread, which keeps the next chunk
// from wrapping, and raises a flag when it is passed: the host then fills the pair again in 32
// bits (it cannot happen, by the proof; the check stays, so a flag is never a wrong score).
inline constexpr int kLanes16RowsSmall = 8, kLanes16RowsLarge = 16;
inline constexpr int kLanes16Room = 32767 - 128 - 256;  // a score, and the clamp of the row above
// S: 8 at R = 8 (one key), 4 at R = 16 (four keys; 8 would leave the bound no room at 2/-1/2).
constexpr int lanes16_scale(int R) { return R > 8 ? 4 : 8; }
inline int64_t lanes16_step_bound(int32_t hi, int32_t g, int R) {  // the spread, scaled, a chunk's rise included
    return int64_t(64 * R + 64 + 32 + 1) * (int64_t(hi) + g) * lanes16_scale(R);
}
// Whether a local linear fill with these scores s' (compact codes c) and gap g fits the 16x2 fill:
// every s' in [-15, 15] (times 8, an int8 of the row's table), g >= 1 (a padding row's cells stay
// below the real cell above them), and the range bound within kLanes16Room at both R.
inline bool fits16(const Scoring& sc, const Compact& c) {
    if (sc.corner || sc.dtw || sc.open != sc.extend || sc.open < 1) return false;
    const auto hi = largest_score(sc, c, 15);
    return hi && lanes16_step_bound(*hi, sc.open, kLanes16RowsSmall) <= kLanes16Room &&
           lanes16_step_bound(*hi, sc.open, kLanes16RowsLarge) <= kLanes16Room;
}
// Local affine on the 16x2 fill (its kAffine form): every s' in [-15, 15], 1 <= extend < open (E
// and F stay within open of the H they come from, a padding row below the real cell above it),
// and the next chunk's rise (max s + open a step: a neighbour differs by at most that) within
// half the room. Its bound, (64 R + 97)(max s + open) S, is past the room for DNA scorings
// (NUC.4.4 10/1: 73,080 at R = 8), far above what related pairs reach (the probe's emulation:
// 2,807 unscaled at 20,000^2), so the range rests on the kernel's check and the 32-bit refill.
inline bool fits16_affine(const Scoring& sc, const Compact& c) {
    if (sc.corner || sc.dtw || sc.extend < 1 || sc.open <= sc.extend) return false;
    const auto hi = largest_score(sc, c, 15);
    return hi && int64_t(33) * (int64_t(*hi) + sc.open) * lanes16_scale(kLanes16RowsSmall) <= kLanes16Room / 2;
}
// The spread the kernel accepts at a chunk boundary (scaled): the room less the next chunk's rise
// and the row above.
inline int32_t lanes16_spread(int32_t hi, int32_t g, int R) {
    return int32_t(kLanes16Room - int64_t(33) * (int64_t(hi) + g) * lanes16_scale(R));
}
// Where the 16x2 fill runs: the DPX local score fills that fit, at R = 8; local linear from
// kLanes16MinRows rows, local affine from kLanes16MinRowsAffine. On an H100 (2026-12-07,
// docs/single_pair_kernel.md, "The 16x2 fill"), local linear 2/-1/2: 307.0 ms at 1,048,576^2
// against the 32-bit row-serial fill's 424.5, 23.4 at 262,144^2 against 31.6, 11.7 at 131,072^2
// against the skewed fill's 13.4; at 65,536^2 (32 groups for 132 SMs) the skewed fill stays. Local
// affine 2/-1/5/1: 521.8 ms at 1,048,576^2 (two blocks an SM) against 622.2, 50.9 at 262,144^2
// against 52.8, but 25.4 at 131,072^2 against the skewed fill's 18.1 (64 groups). R = 16 was
// slower at every size but one (local affine at 1,048,576^2, one block an SM: 547.5 against R = 8's
// 650.9 there, 521.8 with two). DPVIZ_PAIR_16X2=0: never; =1: every DPX local score fill that
// fits, at any size. With DPVIZ_PAIR_SERIAL set (a fill asked for) only with DPVIZ_PAIR_16X2=1.
// DPVIZ_PAIR_16X2_ROWS=16: R = 16 (a measurement knob).
inline constexpr int kLanes16MinRows = 131072, kLanes16MinRowsAffine = 262144;
inline bool takes16(const Scoring& sc, const Compact& c, OutputLevel level, int M, bool dpx) {
    if (level != OutputLevel::score || !dpx || !(fits16(sc, c) || fits16_affine(sc, c))) return false;
    const char* e = std::getenv("DPVIZ_PAIR_16X2");
    const std::string_view asked = e ? e : "";
    if (asked == "0") return false;
    if (asked == "1") return true;
    const char* serial = std::getenv("DPVIZ_PAIR_SERIAL");  // "0" or "1": the fill asked for
    const std::string_view fill = serial ? serial : "";
    return fill != "0" && fill != "1" && M >= (fits16(sc, c) ? kLanes16MinRows : kLanes16MinRowsAffine);
}
// Blocks an SM (each takes groups by ticket until none is left): local linear one, its step's
// issue slots fill the SM; local affine two, whose longer chains a step leave one warp a scheduler
// waiting. At 1,048,576^2 on an H100 (512 groups): local linear 306.8 ms with one, 401.2 with two;
// local affine 650.9 with one, 521.8 with two, 821.8 with three (DPVIZ_PAIR_BLOCKS_PER_SM).
inline int lanes16_blocks_per_sm(bool affine) { return affine ? 2 : 1; }
inline int lanes16_rows() {
    const char* e = std::getenv("DPVIZ_PAIR_16X2_ROWS");
    return e && std::string_view(e) == "16" ? kLanes16RowsLarge : kLanes16RowsSmall;
}
inline int groups16(int M, int R) {
    const int rows = kSerialWarps * 64 * R;
    return (M + rows - 1) / rows;
}
inline int steps16(int N) { return (N + 63 + kSerialChunk - 1) / kSerialChunk * kSerialChunk; }
inline std::string name16(int R, bool affine = false) {
    return std::string(affine ? "pair-serial-16x2-affine" : "pair-serial-16x2") + "-r" + std::to_string(R);
}

// Device buffers, in the order the device path allocates them (the simulated device mirrors it).
inline int64_t selector_entries(int N) { return int64_t(N) + 2 * kSelOff + 2048; }  // + look-ahead
// A column entry: a PRMT selector (uint16), or DTW's fixed-point value (int32).
inline size_t column_entry_bytes(const Problem& p) { return p.algo == Algorithm::dtw ? 4 : 2; }
// A row slot holds a sweep's slots and the chunks past it: the skewed fill's columns up to
// N + 32 and more, serial_steps(N) + 32, steps16(N) + 64 entries.
inline int64_t row_slot_entries(int N) { return (int64_t(N) + 63 + 31) / 32 * 32 + 64; }
inline int row_slots(const Problem& p) { return p.affine() ? 4 : 2; }  // H's two; affine: F's two

// Columns the kernel watches for (pair_score_fill<.., kStoreOut> and <.., kPictureOut>): row k of
// lane l computes column j at step j - 1 + l R + k, so a lane's rows reach a boundary column jn
// at R consecutive steps, from `first` on. Each lane keeps the boundary it is at: the chunk of P steps from s0
// runs the loop that watches boundaries when a lane of the warp has a step of its boundary in it,
// and the lane takes the next boundary once the chunk has passed all its rows' steps. The
// boundaries are K, 2K, .. <= N (K >= kPublish: at most one a chunk): the store's column lines,
// the overview's texel columns; and `one(N + 1, ..)`, the first padding column, where the last
// texel column ends. A lane with no row in the matrix, or past its last boundary, reaches none
// (kNever).
struct LineCursor {
    static constexpr int kNever = 0x3fffffff;
    int jn = 0, first = kNever;
    constexpr LineCursor(int K, int N, int lane, int rows_in)
        : jn(K), first(rows_in > 0 && K > 0 && K <= N ? K - 1 + lane * kRowsPerLane : kNever) {}
    static constexpr LineCursor one(int column, int lane, int rows_in) { return LineCursor(column, column, lane, rows_in); }
    constexpr int row_at(int step) const { return step - first; }  // the row at column jn, if in 0 .. R - 1
    constexpr bool in_chunk(int s0) const { return first <= s0 + kPublish - 1 && s0 <= first + kRowsPerLane - 1; }
    // After the chunk from s0: the boundary the lane's rows have all passed in it (and the lane
    // takes the next), or 0. `one`'s: K = N = its column.
    constexpr int after_chunk(int s0, int K, int N) {
        if (s0 + kPublish - 1 < first + kRowsPerLane - 1) return 0;
        const int passed = jn;
        jn += K;
        first = jn <= N ? first + K : kNever;
        return passed;
    }
};
// Where a lane's row k meets its column line, in the kernel's unrolled blocks of kLineBlock steps
// (blocks start at multiples of it): with K a multiple of 8, `first` (K - 1 + R lane, plus
// multiples of K) is 7 mod 8 in even lanes and 3 mod 8 in odd ones, so the step in the block is
// known when the kernel is compiled: odd lanes' rows at steps 3..6 of the block that holds
// `first`, even lanes' row 0 at step 7 of it and rows 1..3 at steps 0..2 of the next block. The
// kernel keeps each row's cell there with one predicated move and writes the lane's cells after
// the chunk in which its rows passed the line (LineCursor::after_chunk).
constexpr int kLineBlock = 8;
struct LineStep {
    int block, step;  // block: 0, the block that holds `first`; 1, the next one
};
constexpr LineStep line_step(bool odd_lane, int k) {
    const int at = (odd_lane ? 3 : 7) + k;
    return {at / kLineBlock, at % kLineBlock};
}
static_assert(kRowsPerLane == 4 && kBandRows % kLineBlock == 0, "a lane's rows meet a line at fixed steps of a block");
// The overview's texel columns (blocks of B cells, B a multiple of 8) start where the lines would
// be. Row k of a lane folds two cells into its texel's maximum at the steps of k's parity, so a
// row's first cell of a texel column and the next one are folded together one step after
// line_step's: odd lanes' rows at steps 4..7 of the block that holds `first`, even lanes' at
// steps 0..3 of the next one.
constexpr LineStep texel_fold(bool odd_lane, int k) {
    const int at = (odd_lane ? 3 : 7) + k + 1;
    return {at / kLineBlock, at % kLineBlock};
}
static_assert(texel_fold(true, 3).block == 0 && texel_fold(false, 0).block == 1 && texel_fold(false, 1).step % 2 == 1,
              "a texel column's first cells are folded at a step of the row's parity");

// A band's bottom row (the kernel's bands are kBandRows rows) is a row line of spacing K.
constexpr bool is_row_line(int bottom, int K, int M) { return (bottom & (K - 1)) == 0 && bottom <= M; }

// Whether the kernel can pool the overview of p in blocks of `overview_block` cells: a local fill,
// edit distance or LCS (whose worst values lie on the borders, which the host pools: H >= 0,
// D(i, j) <= max(i, j), LCS >= 0), or DTW (the kernel keeps its largest value; a global
// alignment's worst may lie inside too, which it does not keep), in blocks of at least a band's
// rows (a lane passes into the next texel column at most once a chunk) and a multiple of 8
// (texel_fold; dpviz/store.hpp's overview_block makes them so).
// Edit distance's picture offsets the cells it folds (its blocks' first rows) by (i + j) << kScale
// within 2^30 (cuda/pair_score.cu, kShiftBias): i + j, past the matrix by the band's skew and a
// chunk, below kMaxPictureDiagonal.
inline constexpr int64_t kMaxPictureDiagonal = (int64_t(1) << (30 - kScale)) - 2 * kBandRows - 2 * kPublish;
inline bool pools(const Problem& p, int32_t overview_block) {
    const bool kind = p.algo == Algorithm::local || p.algo == Algorithm::lcs || p.algo == Algorithm::dtw ||
                      (p.algo == Algorithm::edit && int64_t(p.rows()) + p.cols() < kMaxPictureDiagonal);
    return kind && overview_block >= kBandRows && overview_block % kLineBlock == 0;
}
// The picture's fill on the kernel unless DPVIZ_PAIR_PICTURE=0 (a measurement knob: the band
// kernels' picture instead, 1.21x / 1.13x slower at 1,048,576^2 local affine, docs/performance.md).
inline bool picture_on_kernel() {
    const char* e = std::getenv("DPVIZ_PAIR_PICTURE");
    return !(e && std::string_view(e) == "0");
}
// Whether the kernel fills a request of run_gpu at `fill_level` (the store's fill is at score
// level): what it applies to; the store's fill too (its checkpoint lines in dpviz/store.hpp's
// layout, allocated after the buffers above); and, unless DPVIZ_PAIR_PICTURE=0, the picture's:
// the lines and an overview of blocks of `overview_block` cells (allocated after them) it pools.
inline bool fills(const Problem& p, OutputLevel fill_level, int32_t overview_block) {
    if (!takes(p, fill_level)) return false;
    if (overview_block == 0) return true;
    return pools(p, overview_block) && picture_on_kernel();
}

}  // namespace dpviz::pair_score
