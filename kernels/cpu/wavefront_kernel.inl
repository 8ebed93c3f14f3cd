// The CPU backend's step kernels: one band of DPVIZ_LANES rows advanced one anti-diagonal per
// step, written once with GCC vector extensions and compiled per instruction set.
//
// Included (once, no guard) by wavefront_<isa>.cpp, inside `#pragma GCC target`, after it has
// defined DPVIZ_LANES (4, 8 or 16) and DPVIZ_WAVEFRONT_NS (a namespace of its own, so that the
// three compilations never share a symbol). Layout, lanes and steps: see wavefront.hpp.
//
// Per step, lane k of the band (row i = i0 + k, column j = t - k) needs
//   left     H[i][j-1], E[i][j-1]   its own values of step t-1 (registers hp, e)
//   up       H[i-1][j], F[i-1][j]   lane k-1's values of step t-1 (shift_in), lane 0: the row above
//   diagonal H[i-1][j-1]            lane k-1's up-value of step t-1 (register d)
// so a step is a handful of vector operations on whole anti-diagonals: the recurrences of
// cell_ops.hpp (the GPU kernels' too) over WavefrontOps, whose values are GCC vectors of lanes.
// Steps where some lane is off the matrix (j < 1 or j > N) take the `edge` path.

// Inside the including file's target region, so the recurrences compile for its instruction set.
#include "cell_ops.hpp"

namespace dpviz::wavefront::DPVIZ_WAVEFRONT_NS {
namespace {

constexpr int kLanes = DPVIZ_LANES;

typedef int32_t vint __attribute__((vector_size(kLanes * 4)));
typedef int32_t vint_u __attribute__((vector_size(kLanes * 4), aligned(4), may_alias));
typedef uint8_t vbyte __attribute__((vector_size(kLanes)));
typedef uint8_t vbyte_u __attribute__((vector_size(kLanes), aligned(1), may_alias));

#define DPVIZ_ALWAYS_INLINE inline __attribute__((always_inline))

DPVIZ_ALWAYS_INLINE vint load(const int32_t* p) { return *reinterpret_cast<const vint_u*>(p); }
DPVIZ_ALWAYS_INLINE void store(int32_t* p, vint v) { *reinterpret_cast<vint_u*>(p) = v; }
DPVIZ_ALWAYS_INLINE void store_bytes(uint8_t* p, vint v) {
    *reinterpret_cast<vbyte_u*>(p) = __builtin_convertvector(v, vbyte);
}
DPVIZ_ALWAYS_INLINE vint splat(int32_t x) { return vint{} + x; }
DPVIZ_ALWAYS_INLINE vint vmax(vint a, vint b) { return a > b ? a : b; }
DPVIZ_ALWAYS_INLINE vint vmin(vint a, vint b) { return a < b ? a : b; }
DPVIZ_ALWAYS_INLINE vint lane_index() {
    vint v{};
    for (int k = 0; k < kLanes; ++k) v[k] = k;
    return v;
}

// The operation policy of cell_ops.hpp over whole anti-diagonals: a value, the direction bits and
// a condition are each a vector of lanes (a condition's lanes are -1 or 0).
struct WavefrontOps {
    using V = vint;
    using Bits = vint;
    using Mask = vint;
    static constexpr bool kDpx = false;
    static constexpr int32_t kAlignBias = 0;
    static DPVIZ_ALWAYS_INLINE V max2(V a, V b) { return vmax(a, b); }
    static DPVIZ_ALWAYS_INLINE V min2(V a, V b) { return vmin(a, b); }
    static DPVIZ_ALWAYS_INLINE V max3(V a, V b, V c) { return vmax(vmax(a, b), c); }
    static DPVIZ_ALWAYS_INLINE V min3(V a, V b, V c) { return vmin(vmin(a, b), c); }
    static DPVIZ_ALWAYS_INLINE V addmax(V a, V b, V c) { return vmax(a + b, c); }
    static DPVIZ_ALWAYS_INLINE V addmin(V a, V b, V c) { return vmin(a + b, c); }
    static DPVIZ_ALWAYS_INLINE V addmin_chained(V a, V b, V c) { return addmin(a, b, c); }
    static DPVIZ_ALWAYS_INLINE V addmax_floor(V a, V b, V c, V fl) { return vmax(vmax(a + b, c), fl); }
    static DPVIZ_ALWAYS_INLINE V max3_floor(V a, V b, V c, V fl) { return vmax(max3(a, b, c), fl); }
    template <int kShift>
    static DPVIZ_ALWAYS_INLINE Bits bit(Mask c) { return c & (1 << kShift); }
    template <class T>
    static DPVIZ_ALWAYS_INLINE T select(Mask c, T a, T b) { return c ? a : b; }
};

// Lane k takes lane k-1 of h; lane 0 takes the last lane of x (a load that ends at the new value).
DPVIZ_ALWAYS_INLINE vint shift_in(vint h, vint x) {
#if DPVIZ_LANES == 4
    return __builtin_shufflevector(x, h, 3, 4, 5, 6);
#elif DPVIZ_LANES == 8
    return __builtin_shufflevector(x, h, 7, 8, 9, 10, 11, 12, 13, 14);
#elif DPVIZ_LANES == 16
    return __builtin_shufflevector(x, h, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
#else
#error "DPVIZ_LANES must be 4, 8 or 16"
#endif
}

// ---------------------------------------------------------------------------------------------
// After the steps: the band's last row to the next band, the bits into the row-major grid
// ---------------------------------------------------------------------------------------------

void hand_on_bottom_row(const Kernel& kn, const Chunk& c, bool affine) {
    constexpr int W = kLanes;
    const int bottom = c.rows - 1;  // lane of the last row: column t - bottom at step t
    const int32_t first = c.a > 1 + bottom ? c.a : 1 + bottom;
    const int32_t last = c.z < kn.n + bottom ? c.z : kn.n + bottom;
    const int32_t* h = c.h + size_t(first - c.a) * W + bottom;
    for (int32_t t = first; t <= last; ++t, h += W) c.bottom_h[t - bottom] = *h;
    if (affine) {  // only affine fills have an F buffer (c.f is null otherwise)
        const int32_t* f = c.f + size_t(first - c.a) * W + bottom;
        for (int32_t t = first; t <= last; ++t, f += W) c.bottom_f[t - bottom] = *f;
    }
}

// 16 steps x W lanes of bits -> W rows x 16 steps: a 16x16 byte transpose (SSE2 unpacks; the
// unused rows of a narrower band cost nothing that matters).
DPVIZ_ALWAYS_INLINE void transpose_16_steps(const uint8_t* in, __m128i out[16]) {
    __m128i x[16], y[16];
    for (int u = 0; u < 16; ++u) {
#if DPVIZ_LANES == 16
        x[u] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + u * kLanes));
#elif DPVIZ_LANES == 8
        x[u] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + u * kLanes));
#else
        int32_t v;
        __builtin_memcpy(&v, in + u * kLanes, 4);
        x[u] = _mm_cvtsi32_si128(v);
#endif
    }
    for (int m = 0; m < 8; ++m) {  // 16-bit units: steps (2m, 2m+1) of one lane
        y[2 * m] = _mm_unpacklo_epi8(x[2 * m], x[2 * m + 1]);
        y[2 * m + 1] = _mm_unpackhi_epi8(x[2 * m], x[2 * m + 1]);
    }
    for (int m = 0; m < 4; ++m) {  // 32-bit units: steps 4m..4m+3; x[4m + g] holds lanes 4g..4g+3
        x[4 * m + 0] = _mm_unpacklo_epi16(y[4 * m], y[4 * m + 2]);
        x[4 * m + 1] = _mm_unpackhi_epi16(y[4 * m], y[4 * m + 2]);
        x[4 * m + 2] = _mm_unpacklo_epi16(y[4 * m + 1], y[4 * m + 3]);
        x[4 * m + 3] = _mm_unpackhi_epi16(y[4 * m + 1], y[4 * m + 3]);
    }
    for (int g = 0; g < 4; ++g) {  // 64-bit units: steps 0..7 and 8..15, then whole lanes
        const __m128i lo0 = _mm_unpacklo_epi32(x[g], x[4 + g]), hi0 = _mm_unpackhi_epi32(x[g], x[4 + g]);
        const __m128i lo1 = _mm_unpacklo_epi32(x[8 + g], x[12 + g]), hi1 = _mm_unpackhi_epi32(x[8 + g], x[12 + g]);
        out[4 * g + 0] = _mm_unpacklo_epi64(lo0, lo1);
        out[4 * g + 1] = _mm_unpackhi_epi64(lo0, lo1);
        out[4 * g + 2] = _mm_unpacklo_epi64(hi0, hi1);
        out[4 * g + 3] = _mm_unpackhi_epi64(hi0, hi1);
    }
}

// Lane k of step t is cell (i0 + k, t - k): each lane's 16 steps are 16 consecutive columns of
// its row. Blocks that reach outside columns 1..N or past step z store only their valid part.
void place_dirs(const Kernel& kn, const Chunk& c) {
    constexpr int W = kLanes;
    const int32_t N = kn.n;
    for (int32_t t0 = c.a; t0 <= c.z; t0 += 16) {
        __m128i out[16];
        transpose_16_steps(c.dirs + size_t(t0 - c.a) * W, out);
        const int32_t tz = c.z < t0 + 15 ? c.z : t0 + 15;
        if (c.rows == W && t0 - (W - 1) >= 1 && tz == t0 + 15 && tz <= N) {
#pragma GCC unroll 16
            for (int k = 0; k < W; ++k)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(c.grid + size_t(k) * c.grid_stride + size_t(t0 - k)), out[k]);
            continue;
        }
        alignas(16) uint8_t tmp[16];
#pragma GCC unroll 16
        for (int k = 0; k < W; ++k) {
            if (k >= c.rows) break;
            const int32_t lo = t0 - k >= 1 ? t0 - k : 1, hi = tz - k <= N ? tz - k : N;
            if (lo > hi) continue;
            _mm_store_si128(reinterpret_cast<__m128i*>(tmp), out[k]);
            __builtin_memcpy(c.grid + size_t(k) * c.grid_stride + size_t(lo), tmp + (lo - (t0 - k)), size_t(hi - lo + 1));
        }
    }
}

// Table scoring: the substitution scores of every step of the chunk, scores[(t - a) * W + k] =
// s(query row of lane k, target column t - k), ahead of the steps. Per lane the query letter is
// fixed, so 16 consecutive steps of one lane are one table lookup of 16 target codes; a 16x16
// transpose turns lanes x steps into steps x lanes. (A per-step gather costs several times more.)
void fill_scores(const Kernel& kn, const Band& bd, const Chunk& c) {
    constexpr int W = kLanes;
    const int32_t stride = profile_stride(kn.alphabet);
#if DPVIZ_LANES == 16
    if (stride == 32) {
        for (int32_t t0 = c.a; t0 <= c.z; t0 += 16) {
            __m512i r[16];
            for (int k = 0; k < 16; ++k) {
                const int32_t* row = bd.profile + k * 32;
                const __m512i idx = _mm512_loadu_si512(kn.tfwd + (t0 - k));  // columns t0-k .. t0-k+15
                r[k] = _mm512_permutex2var_epi32(_mm512_loadu_si512(row), idx, _mm512_loadu_si512(row + 16));
            }
            __m512i t[16], u[16];
            for (int m = 0; m < 8; ++m) {  // lane L of t[2m]: rows 2m, 2m+1 at columns 4L, 4L+1
                t[2 * m] = _mm512_unpacklo_epi32(r[2 * m], r[2 * m + 1]);
                t[2 * m + 1] = _mm512_unpackhi_epi32(r[2 * m], r[2 * m + 1]);
            }
            for (int g = 0; g < 4; ++g) {  // lane L of u[4g + q]: rows 4g..4g+3 at column 4L + q
                u[4 * g + 0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
                u[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
                u[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
                u[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
            }
            int32_t* out = c.scores + size_t(t0 - c.a) * W;
            for (int q = 0; q < 4; ++q) {  // a 4x4 transpose of 128-bit lanes
                const __m512i x0 = _mm512_shuffle_i32x4(u[q], u[4 + q], 0x44), x1 = _mm512_shuffle_i32x4(u[q], u[4 + q], 0xee);
                const __m512i x2 = _mm512_shuffle_i32x4(u[8 + q], u[12 + q], 0x44),
                              x3 = _mm512_shuffle_i32x4(u[8 + q], u[12 + q], 0xee);
                _mm512_storeu_si512(out + (0 + q) * W, _mm512_shuffle_i32x4(x0, x2, 0x88));
                _mm512_storeu_si512(out + (4 + q) * W, _mm512_shuffle_i32x4(x0, x2, 0xdd));
                _mm512_storeu_si512(out + (8 + q) * W, _mm512_shuffle_i32x4(x1, x3, 0x88));
                _mm512_storeu_si512(out + (12 + q) * W, _mm512_shuffle_i32x4(x1, x3, 0xdd));
            }
        }
        return;
    }
#endif
    for (int k = 0; k < W; ++k) {
        const int32_t* row = bd.profile + size_t(k) * stride;
        const int32_t* code = kn.tfwd - k;
        int32_t* out = c.scores + k;
        for (int32_t t = c.a; t <= c.z; ++t) out[size_t(t - c.a) * W] = row[code[t]];
    }
}

template <bool B>
struct Flag {
    static constexpr bool value = B;
};

// Global, semi-global and local alignment; linear (also edit distance and LCS) or affine gaps.
template <bool kAffine, bool kLocal, bool kTable, Store kStore>
void align_chunk(const Kernel& kn, const Band& bd, const Chunk& c) {
    constexpr int W = kLanes;
    const int32_t N = kn.n;
    int32_t* st = bd.state;
    vint hp = load(st), e = load(st + W), fp = load(st + 2 * W), d = load(st + 3 * W);
    vint maxv = load(st + 4 * W), maxt = load(st + 5 * W);
    const vint open = splat(kn.open), ext = splat(kn.extend);
    const vint match = splat(kn.match), mismatch = splat(kn.mismatch);
    const vint query = load(bd.query), lane = lane_index(), zero{};
    const int32_t* trev = kn.trev + N;  // trev - t: lane k gets column t - k
    // Locals, not c.*: the byte stores below may alias anything, the Chunk included.
    const int32_t* const top_h = c.top_h;
    const int32_t* const top_f = c.top_f;
    const int32_t* const scores = c.scores;
    int32_t* const out_h = c.h;
    int32_t* const out_e = c.e;
    int32_t* const out_f = c.f;
    uint8_t* const out_dirs = c.dirs;
    const int32_t a = c.a;

    auto step = [&](int32_t t, auto edge) __attribute__((always_inline)) {
        constexpr bool kEdge = decltype(edge)::value;
        const size_t o = size_t(t - a) * W;
        const vint up_h = shift_in(hp, load(top_h + t - (W - 1)));
        vint sub;
        if constexpr (kTable) sub = load(scores + o);
        else sub = query == load(trev - t) ? match : mismatch;
        // up: F (affine) or H(i-1, j) - g; left: E or H(i, j-1) - g, as the bits name them.
        constexpr bool kDirs = kStore == Store::dirs || kStore == Store::matrix;
        vint h, up, left, bits{};
        if constexpr (kAffine) {
            const vint up_f = shift_in(fp, load(top_f + t - (W - 1)));
            h = cell::align_affine<WavefrontOps, kLocal, kDirs>(d, up_h, up_f, hp, e, sub, open, ext, zero, left, up,
                                                                 bits);
        } else {
            h = cell::align_linear<WavefrontOps, kLocal, kDirs>(d, up_h, hp, sub, open, zero, bits);
        }
        vint j_lanes{};
        if constexpr (kEdge) {
            // Lanes still left of column 1 hold their row's column-0 values (H border, E = -inf);
            // their bits are never placed (place_dirs keeps columns 1..N).
            j_lanes = splat(t) - lane;
            const vint before = j_lanes < 1;
            h = before ? hp : h;
            if constexpr (kAffine) left = before ? e : left;
        }
        if constexpr (kDirs) store_bytes(out_dirs + o, bits);
        store(out_h + o, h);
        if constexpr (kAffine) store(out_f + o, up);
        if constexpr (kAffine && (kStore == Store::matrix || kStore == Store::checkpoints)) store(out_e + o, left);
        if constexpr (kLocal) {
            // Strictly greater: each lane keeps its first (smallest j) maximum.
            vint better = h > maxv;
            if constexpr (kEdge) better &= (j_lanes >= 1) & (j_lanes <= N);
            maxv = better ? h : maxv;
            maxt = better ? splat(t) : maxt;
        }
        d = up_h;
        hp = h;
        if constexpr (kAffine) {
            e = left;
            fp = up;
        }
    };

    int32_t t = c.a;
    for (const int32_t end = c.z < W - 1 ? c.z : W - 1; t <= end; ++t) step(t, Flag<true>{});
    for (const int32_t end = c.z < N ? c.z : N; t <= end; ++t) step(t, Flag<false>{});
    for (; t <= c.z; ++t) step(t, Flag<true>{});

    store(st, hp);
    store(st + W, e);
    store(st + 2 * W, fp);
    store(st + 3 * W, d);
    store(st + 4 * W, maxv);
    store(st + 5 * W, maxt);
}

// Dynamic time warping: D = cost + min(diag, up, left) inside the band, +inf elsewhere. Lanes
// past column N or past the last row fall outside [lo, hi] and stay +inf; lanes still left of
// column 1 hold their row's column-0 value (the rule's +inf, or a rectangle's given border), as
// align_chunk's edge steps do.
template <bool kSquared, Store kStore>
void dtw_chunk(const Kernel& kn, const Band& bd, const Chunk& c) {
    constexpr int W = kLanes;
    int32_t* st = bd.state;
    vint hp = load(st), d = load(st + 3 * W);
    const vint query = load(bd.query), lo = load(bd.lo), hi = load(bd.hi), inf = splat(kPosInf);
    const int32_t* trev = kn.trev + kn.n;
    vint j_lanes = splat(c.a) - lane_index();
    const int32_t* const top_h = c.top_h;
    int32_t* const out_h = c.h;
    uint8_t* const out_dirs = c.dirs;
    const int32_t a = c.a, z = c.z;
    constexpr bool kDirs = kStore == Store::dirs || kStore == Store::matrix;
    for (int32_t t = a; t <= z; ++t) {
        const size_t o = size_t(t - a) * W;
        const vint up = shift_in(hp, load(top_h + t - (W - 1)));
        const vint x = query - load(trev - t);
        const vint cost = kSquared ? x * x : (x < 0 ? -x : x);
        vint bits{};
        vint h = cell::dtw<WavefrontOps, kDirs>(d, up, hp, cost, (j_lanes >= lo) & (j_lanes <= hi), inf, bits);
        if (t < W) h = j_lanes < 1 ? hp : h;  // only the first W - 1 steps have lanes left of column 1
        if constexpr (kDirs) store_bytes(out_dirs + o, bits);
        store(out_h + o, h);
        d = up;
        hp = h;
        j_lanes += 1;
    }
    store(st, hp);
    store(st + 3 * W, d);
}

template <bool kAffine, bool kLocal, bool kTable>
void align_by_store(const Kernel& k, const Band& b, const Chunk& c) {
    switch (k.store) {
        case Store::score: return align_chunk<kAffine, kLocal, kTable, Store::score>(k, b, c);
        case Store::checkpoints:  // E matters to checkpoints only with affine gaps
            return align_chunk<kAffine, kLocal, kTable, kAffine ? Store::checkpoints : Store::score>(k, b, c);
        case Store::dirs: return align_chunk<kAffine, kLocal, kTable, Store::dirs>(k, b, c);
        case Store::matrix: return align_chunk<kAffine, kLocal, kTable, Store::matrix>(k, b, c);
    }
}

template <bool kAffine, bool kLocal>
void align_by_table(const Kernel& k, const Band& b, const Chunk& c) {
    if (k.table) {
        fill_scores(k, b, c);
        align_by_store<kAffine, kLocal, true>(k, b, c);
    } else {
        align_by_store<kAffine, kLocal, false>(k, b, c);
    }
}

template <bool kSquared>
void dtw_by_store(const Kernel& k, const Band& b, const Chunk& c) {
    switch (k.store) {
        case Store::score:
        case Store::checkpoints: return dtw_chunk<kSquared, Store::score>(k, b, c);
        case Store::dirs: return dtw_chunk<kSquared, Store::dirs>(k, b, c);
        case Store::matrix: return dtw_chunk<kSquared, Store::matrix>(k, b, c);
    }
}

void run_chunk(const Kernel& k, const Band& b, const Chunk& c) {
    switch (k.family) {
        case Family::align_linear:
            k.local ? align_by_table<false, true>(k, b, c) : align_by_table<false, false>(k, b, c);
            break;
        case Family::align_affine:
            k.local ? align_by_table<true, true>(k, b, c) : align_by_table<true, false>(k, b, c);
            break;
        case Family::dtw_abs: dtw_by_store<false>(k, b, c); break;
        case Family::dtw_squared: dtw_by_store<true>(k, b, c); break;
    }
    hand_on_bottom_row(k, c, k.family == Family::align_affine);
    if (c.grid) place_dirs(k, c);
}

// The chunk's cells pooled cell by cell, lane by lane: the chunks holding a value that is not
// finite (DTW outside its band).
void pool_cells(const PoolChunk& c, PoolRange& r) {
    const int32_t B = c.block;
    int32_t lo = r.any_finite ? r.min : INT32_MAX, hi = r.any_finite ? r.max : INT32_MIN;
    for (int k = 0; k < c.rows; ++k) {
        int32_t* row = c.texels + int64_t((c.i0 + k) / B) * c.texel_cols;
        const int32_t first = c.a - k > 1 ? c.a - k : 1, last = c.z - k < c.n ? c.z - k : c.n;
        for (int32_t j = first; j <= last; ++j) {
            const int32_t x = c.sign * c.h[int64_t(j + k - c.a) * kLanes + k];
            if (x <= -c.bound || x >= c.bound) {
                r.any_unreachable = true;
                continue;
            }
            int32_t& t = row[j / B];
            t = c.lowest ? (x < t ? x : t) : (x > t ? x : t);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    }
    if (lo <= hi) {
        r.min = lo;
        r.max = hi;
        r.any_finite = true;
    }
}

// The chunk's H pooled into an overview (PoolChunk in wavefront.hpp), whole anti-diagonals at a
// time. Steps are grouped by B (group g: steps gB .. gB + B - 1); lane k = qB + r sees, in group
// g, columns of block g - q - 1 before its r-th step and of block g - q from it on. So each lane
// keeps three accumulators: `carry` (block g - q - 1 from the group before), `before` and `from`;
// at a group's end carry + before is a whole block, and `from` becomes the carry. The blocks'
// values are held until the chunk's range is known: a chunk with a value that is not finite is
// pooled again by pool_cells.
template <bool kLowest>
DPVIZ_ALWAYS_INLINE vint pick(vint x, vint y) {
    return kLowest ? vmin(x, y) : vmax(x, y);
}

template <bool kLowest>
void pool_steps(const PoolChunk& c, PoolRange& r) {
    constexpr int32_t kNone = kLowest ? INT32_MAX : INT32_MIN;  // no cell (never a finite value)
    const int32_t B = c.block;
    const vint lane = lane_index(), none = splat(kNone);
    const vint neg = splat(c.sign < 0 ? -1 : 0), last = splat(c.n), rows = splat(c.rows);
    const vint lane_r = lane - lane / B * B;
    if (c.z - c.a + 1 > kMaxPoolSteps) return pool_cells(c, r);
    constexpr int kMaxGroups = kMaxPoolSteps + 2;  // B = 1: one a step
    vint done[kMaxGroups];
    int32_t done_group[kMaxGroups];
    int groups = 0;
    vint carry = none, before = none, from = none;
    vint low = splat(INT32_MAX), high = splat(INT32_MIN);
    int32_t g = c.a / B, u = c.a % B;
    for (int32_t t = c.a; t <= c.z; ++t) {
        vint v = load(c.h + int64_t(t - c.a) * kLanes);
        v = (v ^ neg) - neg;
        const vint j = splat(t) - lane;
        const vint ok = (j >= 1) & (j <= last) & (lane < rows);
        low = ok ? vmin(low, v) : low;
        high = ok ? vmax(high, v) : high;
        const vint in_from = ok & (lane_r <= splat(u));
        const vint in_before = ok & ~(lane_r <= splat(u));
        from = in_from ? pick<kLowest>(from, v) : from;
        before = in_before ? pick<kLowest>(before, v) : before;
        if (++u == B) {
            done[groups] = pick<kLowest>(carry, before);
            done_group[groups++] = g - 1;
            carry = from;
            before = from = none;
            u = 0;
            ++g;
        }
    }
    done[groups] = pick<kLowest>(carry, before);
    done_group[groups++] = g - 1;
    done[groups] = from;
    done_group[groups++] = g;

    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (int k = 0; k < kLanes; ++k) {
        lo = low[k] < lo ? low[k] : lo;
        hi = high[k] > hi ? high[k] : hi;
    }
    if (lo > hi) return;  // no cell
    if (lo <= -c.bound || hi >= c.bound) return pool_cells(c, r);
    int32_t* texel_row[kLanes];
    int32_t q[kLanes];
    for (int k = 0; k < c.rows; ++k) {
        texel_row[k] = c.texels + int64_t((c.i0 + k) / B) * c.texel_cols;
        q[k] = k / B;
    }
    for (int x = 0; x < groups; ++x) {
        for (int k = 0; k < c.rows; ++k) {
            const int32_t value = done[x][k];
            if (value == kNone) continue;
            int32_t& t = texel_row[k][done_group[x] - q[k]];
            t = kLowest ? (value < t ? value : t) : (value > t ? value : t);
        }
    }
    if (r.any_finite) {
        lo = r.min < lo ? r.min : lo;
        hi = r.max > hi ? r.max : hi;
    }
    r.min = lo;
    r.max = hi;
    r.any_finite = true;
}

void pool_chunk(const PoolChunk& c, PoolRange& r) {
    c.lowest ? pool_steps<true>(c, r) : pool_steps<false>(c, r);
}

#undef DPVIZ_ALWAYS_INLINE

}  // namespace
}  // namespace dpviz::wavefront::DPVIZ_WAVEFRONT_NS
