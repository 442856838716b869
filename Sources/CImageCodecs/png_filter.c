// PNG row filtering for the writer: the five filters' costs (libpng's least-absolute-sum
// heuristic) computed without storing the candidates, 32 bytes at a time with AVX2 where the
// processor has it, then the chosen filter written once.
//
// Most of a map is flat: 32 bytes equal to the bytes to their left and above, which every
// filter but None turns into zeros. Such bytes are recognised by two comparisons: only None's
// cost is added for them, and any other filter writes them as zeros, without computing the
// predictions (Paeth's above all). The costs and the bytes written are those of the full
// computation.

#include "image_codecs.h"

#include <stdlib.h>
#include <string.h>

enum { NONE, SUB, UP, AVERAGE, PAETH };

static inline int absolute(int v) { return v < 0 ? -v : v; }

/// PNG's Paeth predictor.
static inline int paeth(int a, int b, int c) {
    int pa = absolute(b - c), pb = absolute(a - c), pc = absolute(a + b - 2 * c);
    return (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c;
}

/// One byte filtered: `x` the byte, `a` left, `b` above, `c` above-left.
static inline uint8_t filtered_byte(int type, int x, int a, int b, int c) {
    switch (type) {
    case SUB: return (uint8_t)(x - a);
    case UP: return (uint8_t)(x - b);
    case AVERAGE: return (uint8_t)(x - ((a + b) >> 1));
    case PAETH: return (uint8_t)(x - paeth(a, b, c));
    default: return (uint8_t)x;
    }
}

/// The heuristic's cost of a filtered byte: its distance from zero as a signed byte.
static inline unsigned cost(uint8_t v) { return v < 128 ? v : 256u - v; }

/// Adds the five filters' costs of bytes [from, n) to `sums`.
static void add_costs_portable(const uint8_t *row, const uint8_t *prior, size_t from, size_t n, int bpp,
                               uint64_t sums[5]) {
    for (size_t i = from; i < n; i++) {
        int x = row[i], a = row[(ptrdiff_t)i - bpp], b = prior[i], c = prior[(ptrdiff_t)i - bpp];
        for (int type = NONE; type <= PAETH; type++) sums[type] += cost(filtered_byte(type, x, a, b, c));
    }
}

/// Writes bytes [from, n) of the row filtered with `type`.
static void apply_portable(int type, const uint8_t *row, const uint8_t *prior, size_t from, size_t n, int bpp,
                           uint8_t *out) {
    for (size_t i = from; i < n; i++)
        out[i] = filtered_byte(type, row[i], row[(ptrdiff_t)i - bpp], prior[i], prior[(ptrdiff_t)i - bpp]);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

/// Paeth predictions of 16 bytes held as 16-bit lanes.
AVX2 static inline __m256i paeth16(__m256i a, __m256i b, __m256i c) {
    __m256i pa = _mm256_abs_epi16(_mm256_sub_epi16(b, c)), pb = _mm256_abs_epi16(_mm256_sub_epi16(a, c));
    __m256i pc = _mm256_abs_epi16(_mm256_sub_epi16(_mm256_add_epi16(a, b), _mm256_add_epi16(c, c)));
    // a when pa <= pb and pa <= pc; else b when pb <= pc; else c.
    __m256i not_a = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
    __m256i b_or_c = _mm256_blendv_epi8(b, c, _mm256_cmpgt_epi16(pb, pc));
    return _mm256_blendv_epi8(a, b_or_c, not_a);
}

/// The prediction of filter `type` for 32 bytes whose left, above and above-left neighbours
/// are `a`, `b` and `c`.
AVX2 static inline __m256i predicted32(int type, __m256i a, __m256i b, __m256i c) {
    __m256i zero = _mm256_setzero_si256();
    switch (type) {
    case SUB: return a;
    case UP: return b;
    case AVERAGE:
        // floor((a + b) / 2): avg_epu8 rounds up, so take back the odd bit.
        return _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_set1_epi8(1)));
    case PAETH: {
        // Widening to 16 bits and packing back keeps the byte order (both work per 128-bit lane).
        __m256i low = paeth16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero), _mm256_unpacklo_epi8(c, zero));
        __m256i high = paeth16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero), _mm256_unpackhi_epi8(c, zero));
        return _mm256_packus_epi16(low, high);
    }
    default: return zero;
    }
}

/// The 32 bytes at `i` filtered with each filter `types` holds (a bit per filter type).
AVX2 static inline void filters32(const uint8_t *row, const uint8_t *prior, size_t i, int bpp, unsigned types,
                                  __m256i out[5]) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(row + i));
    __m256i a = _mm256_loadu_si256((const __m256i *)(row + i - bpp));
    __m256i b = _mm256_loadu_si256((const __m256i *)(prior + i));
    __m256i c = _mm256_loadu_si256((const __m256i *)(prior + i - bpp));
    for (int type = NONE; type <= PAETH; type++)
        if (types & (1u << type)) out[type] = _mm256_sub_epi8(x, predicted32(type, a, b, c));
}

/// 1 when each of the 32 bytes at `i` equals its left and above neighbours: every filter but
/// None makes them zeros (Paeth predicts the left byte when left and above are equal, whatever
/// the byte above-left).
AVX2 static inline int flat32(const uint8_t *row, const uint8_t *prior, size_t i, int bpp) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(row + i));
    __m256i a = _mm256_loadu_si256((const __m256i *)(row + i - bpp));
    __m256i b = _mm256_loadu_si256((const __m256i *)(prior + i));
    return _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(x, a), _mm256_cmpeq_epi8(x, b))) == -1;
}

/// Returns how many leading bytes (a multiple of 32) were costed into `sums`.
AVX2 static size_t add_costs_avx2(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint64_t sums[5]) {
    __m256i totals[5], zero = _mm256_setzero_si256();
    for (int f = 0; f < 5; f++) totals[f] = zero;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        if (flat32(row, prior, i, bpp)) {
            // Only None costs anything here: the bytes themselves.
            __m256i x = _mm256_loadu_si256((const __m256i *)(row + i));
            totals[NONE] = _mm256_add_epi64(totals[NONE], _mm256_sad_epu8(_mm256_abs_epi8(x), zero));
            continue;
        }
        __m256i filtered[5];
        filters32(row, prior, i, bpp, 0x1F, filtered);
        // |signed byte| is the cost; sad against zero sums each 8 bytes into a 64-bit lane.
        for (int f = 0; f < 5; f++)
            totals[f] = _mm256_add_epi64(totals[f], _mm256_sad_epu8(_mm256_abs_epi8(filtered[f]), zero));
    }
    for (int f = 0; f < 5; f++) {
        uint64_t lanes[4];
        _mm256_storeu_si256((__m256i *)lanes, totals[f]);
        sums[f] += lanes[0] + lanes[1] + lanes[2] + lanes[3];
    }
    return i;
}

/// Writes the leading bytes (a multiple of 32) filtered with `type`; returns how many.
AVX2 static size_t apply_avx2(int type, const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        if (type != NONE && flat32(row, prior, i, bpp)) {
            _mm256_storeu_si256((__m256i *)(out + i), _mm256_setzero_si256());
            continue;
        }
        __m256i filtered[5];
        filters32(row, prior, i, bpp, 1u << type, filtered);
        _mm256_storeu_si256((__m256i *)(out + i), filtered[type]);
    }
    return i;
}

/// The processor's feature bits are read once at start-up; asking is a load and a test.
static int has_avx2(void) { return __builtin_cpu_supports("avx2") ? 1 : 0; }
#else
static int has_avx2(void) { return 0; }
static size_t add_costs_avx2(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint64_t sums[5]) {
    (void)row, (void)prior, (void)n, (void)bpp, (void)sums;
    return 0;
}
static size_t apply_avx2(int type, const uint8_t *row, const uint8_t *prior, size_t n, int bpp, uint8_t *out) {
    (void)type, (void)row, (void)prior, (void)n, (void)bpp, (void)out;
    return 0;
}
#endif

void mc_png_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, int vectorized, uint8_t *out) {
    int simd = vectorized && has_avx2();
    uint64_t sums[5] = {0, 0, 0, 0, 0};
    size_t done = simd ? add_costs_avx2(row, prior, n, bpp, sums) : 0;
    add_costs_portable(row, prior, done, n, bpp, sums);
    int best = NONE;
    for (int type = SUB; type <= PAETH; type++)
        if (sums[type] < sums[best]) best = type;
    out[0] = (uint8_t)best;
    done = simd ? apply_avx2(best, row, prior, n, bpp, out + 1) : 0;
    apply_portable(best, row, prior, done, n, bpp, out + 1);
}

void mc_png_filter_repeated_row(const uint8_t *row, size_t n, uint8_t *out) {
    int zeros = n == 0 || (row[0] == 0 && memcmp(row, row + 1, n - 1) == 0);
    out[0] = (uint8_t)(zeros ? NONE : UP);
    memset(out + 1, 0, n);
}
