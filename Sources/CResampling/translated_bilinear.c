// Bilinear resampling of an image moved by a fraction of a pixel, at its own scale, painted
// OVER a destination: the paint of a map layer whose tiles land between device pixels.
//
// Pixman resamples this case with its general bilinear path, which steps a fixed-point
// coordinate and recomputes the weights for every pixel. At scale 1 the weights are the same
// for every pixel, so each row is two short loops (AVX2 where the processor has it, else SSE2,
// plain C for the ends of rows and elsewhere): the two source rows blended vertically into
// 16-bit sums, then neighbouring sums blended horizontally. The arithmetic is pixman's: 7-bit
// weights, one truncating shift of the exact sum, then OVER with pixman's rounded multiply and
// saturating add, so the pixels are the same. The same loops can write the resampled pixels in
// place of the source's own (see mc_translated_bilinear_over).
#include "translated_bilinear.h"

#include <stdlib.h>

enum { WEIGHT_ONE = 1 << 7 };

/// One pixel of premultiplied `s` OVER `d` (native-endian 0xAARRGGBB words), as pixman does.
static inline uint32_t over(uint32_t s, uint32_t d) {
    uint32_t inverse_alpha = 255 - (s >> 24);
    if (inverse_alpha == 0) return s;
    if (s == 0) return d;
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t t = ((d >> shift) & 0xFF) * inverse_alpha + 0x80;
        t = (t + (t >> 8)) >> 8;
        uint32_t sum = ((s >> shift) & 0xFF) + t;
        out |= (sum > 0xFF ? 0xFF : sum) << shift;
    }
    return out;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/// Four pixels of `source` OVER the four at `out`, as pixman's SSE2 code does. Opaque ones
/// are stored without reading `out` first: reading a new map's untouched memory would fault
/// in a shared zero page that the store then has to replace.
static inline void over4(__m128i source, __m128i *out) {
    const __m128i zero = _mm_setzero_si128();
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_srli_epi32(source, 24), _mm_set1_epi32(0xFF))) == 0xFFFF) {
        _mm_storeu_si128(out, source);
        return;
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(source, zero)) == 0xFFFF) return;
    __m128i target = _mm_loadu_si128(out);
    const __m128i half = _mm_set1_epi16(0x80), spread = _mm_set1_epi16(0x0101), byte_mask = _mm_set1_epi16(0xFF);
    __m128i alpha_lo = _mm_unpacklo_epi8(source, zero), alpha_hi = _mm_unpackhi_epi8(source, zero);
    alpha_lo = _mm_shufflehi_epi16(_mm_shufflelo_epi16(alpha_lo, 0xFF), 0xFF);
    alpha_hi = _mm_shufflehi_epi16(_mm_shufflelo_epi16(alpha_hi, 0xFF), 0xFF);
    __m128i inverse_lo = _mm_xor_si128(alpha_lo, byte_mask), inverse_hi = _mm_xor_si128(alpha_hi, byte_mask);
    __m128i lo = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(target, zero), inverse_lo), half), spread);
    __m128i hi = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(target, zero), inverse_hi), half), spread);
    _mm_storeu_si128(out, _mm_adds_epu8(source, _mm_packus_epi16(lo, hi)));
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

/// The vertical sums of the row's leading bytes, 32 at a time; returns how many were summed.
AVX2 static size_t vertical_sums_avx2(const uint8_t *top, const uint8_t *bottom, size_t row_bytes, uint16_t top_weight,
                                      uint16_t bottom_weight, uint16_t *sums) {
    const __m256i top_w = _mm256_set1_epi16((short)top_weight), bottom_w = _mm256_set1_epi16((short)bottom_weight);
    size_t i = 0;
    for (; i + 32 <= row_bytes; i += 32) {
        for (size_t half = 0; half < 32; half += 16) {
            __m256i t = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(top + i + half)));
            __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(bottom + i + half)));
            _mm256_storeu_si256((__m256i *)(sums + i + half),
                                _mm256_add_epi16(_mm256_mullo_epi16(t, top_w), _mm256_mullo_epi16(b, bottom_w)));
        }
    }
    return i;
}

/// The leading pixels of the row blended horizontally from `sums`, eight at a time, written
/// (`replace`) or painted OVER `destination`; returns how many.
AVX2 static int horizontal_avx2(const uint16_t *sums, int width, uint32_t left_weight, uint32_t right_weight,
                                int replace, uint32_t *destination) {
    const __m256i horizontal = _mm256_set1_epi32((int)(left_weight | right_weight << 16));
    int x = 0;
    for (; x + 8 <= width; x += 8) {
        const uint16_t *s = sums + (size_t)x * 4;
        // Per 128-bit lane, as the SSE2 loop: a and b hold pixels x.. and x+1.., c and d x+4..
        // and x+5..; the lanes come out as pixels (x, x+1, x+4, x+5) and (x+2, x+3, x+6, x+7).
        __m256i a = _mm256_loadu_si256((const __m256i *)s), b = _mm256_loadu_si256((const __m256i *)(s + 4));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + 16)), d = _mm256_loadu_si256((const __m256i *)(s + 20));
        __m256i p0 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), horizontal), 14);
        __m256i p1 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), horizontal), 14);
        __m256i p2 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(c, d), horizontal), 14);
        __m256i p3 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(c, d), horizontal), 14);
        __m256i packed = _mm256_packus_epi16(_mm256_packs_epi32(p0, p1), _mm256_packs_epi32(p2, p3));
        __m256i pixels = _mm256_permute4x64_epi64(packed, _MM_SHUFFLE(3, 1, 2, 0));
        if (replace) {
            _mm256_storeu_si256((__m256i *)(destination + x), pixels);
        } else {
            over4(_mm256_castsi256_si128(pixels), (__m128i *)(destination + x));
            over4(_mm256_extracti128_si256(pixels, 1), (__m128i *)(destination + x + 4));
        }
    }
    return x;
}

/// The processor's feature bits are read once at start-up; asking is a load and a test.
static int has_avx2(void) { return __builtin_cpu_supports("avx2") ? 1 : 0; }
#else
static size_t vertical_sums_avx2(const uint8_t *top, const uint8_t *bottom, size_t row_bytes, uint16_t top_weight,
                                 uint16_t bottom_weight, uint16_t *sums) {
    (void)top, (void)bottom, (void)row_bytes, (void)top_weight, (void)bottom_weight, (void)sums;
    return 0;
}
static int horizontal_avx2(const uint16_t *sums, int width, uint32_t left_weight, uint32_t right_weight, int replace,
                           uint32_t *destination) {
    (void)sums, (void)width, (void)left_weight, (void)right_weight, (void)replace, (void)destination;
    return 0;
}
static int has_avx2(void) { return 0; }
#endif

static void translated_bilinear_rows(const uint8_t *source, size_t source_stride, const uint8_t *last_below,
                                     uint8_t *target, size_t target_stride, int width, int height, int weight_x,
                                     int weight_y, int replace, uint16_t *sums) {
    // `sums`: the vertical sums of a row's width + 1 source pixels, 4 channels each.
    const uint16_t top_weight = (uint16_t)(WEIGHT_ONE - weight_y), bottom_weight = (uint16_t)weight_y;
    const uint32_t left_weight = (uint32_t)(WEIGHT_ONE - weight_x), right_weight = (uint32_t)weight_x;
    const size_t row_bytes = ((size_t)width + 1) * 4;
    const int avx2 = has_avx2();
    for (int y = 0; y < height; y++) {
        const uint8_t *top = source + (size_t)y * source_stride;
        const uint8_t *bottom = y == height - 1 && last_below ? last_below : top + source_stride;
        uint32_t *destination = (uint32_t *)(target + (size_t)y * target_stride);
        size_t i = avx2 ? vertical_sums_avx2(top, bottom, row_bytes, top_weight, bottom_weight, sums) : 0;
        int x = 0;
#if defined(__SSE2__)
        // Vertical: each channel of the row's width + 1 source pixels, at most 255 × 128.
        const __m128i zero = _mm_setzero_si128();
        const __m128i vertical_top = _mm_set1_epi16((short)top_weight), vertical_bottom = _mm_set1_epi16((short)bottom_weight);
        for (; i + 16 <= row_bytes; i += 16) {
            __m128i t = _mm_loadu_si128((const __m128i *)(top + i)), b = _mm_loadu_si128((const __m128i *)(bottom + i));
            __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(t, zero), vertical_top),
                                       _mm_mullo_epi16(_mm_unpacklo_epi8(b, zero), vertical_bottom));
            __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(t, zero), vertical_top),
                                       _mm_mullo_epi16(_mm_unpackhi_epi8(b, zero), vertical_bottom));
            _mm_storeu_si128((__m128i *)(sums + i), lo);
            _mm_storeu_si128((__m128i *)(sums + i + 8), hi);
        }
#endif
        for (; i < row_bytes; i++) sums[i] = (uint16_t)(top[i] * top_weight + bottom[i] * bottom_weight);
        if (avx2) x = horizontal_avx2(sums, width, left_weight, right_weight, replace, destination);
#if defined(__SSE2__)
        // Horizontal: each channel and its right neighbour's, weighted by one multiply-add,
        // then the 14 bits of weight off; four pixels at a time, then OVER.
        const __m128i horizontal = _mm_set1_epi32((int)(left_weight | right_weight << 16));
        for (; x + 4 <= width; x += 4) {
            const uint16_t *s = sums + (size_t)x * 4;
            __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 4));
            __m128i c = _mm_loadu_si128((const __m128i *)(s + 8)), d = _mm_loadu_si128((const __m128i *)(s + 12));
            __m128i p0 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(a, b), horizontal), 14);
            __m128i p1 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(a, b), horizontal), 14);
            __m128i p2 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(c, d), horizontal), 14);
            __m128i p3 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(c, d), horizontal), 14);
            __m128i pixels = _mm_packus_epi16(_mm_packs_epi32(p0, p1), _mm_packs_epi32(p2, p3));
            if (replace) _mm_storeu_si128((__m128i *)(destination + x), pixels);
            else over4(pixels, (__m128i *)(destination + x));
        }
#endif
        for (; x < width; x++) {
            uint32_t pixel = 0;
            for (int channel = 0; channel < 4; channel++) {
                size_t k = (size_t)x * 4 + (size_t)channel;
                pixel |= ((sums[k] * left_weight + sums[k + 4] * right_weight) >> 14) << (8 * channel);
            }
            if (replace || pixel >> 24 == 0xFF) destination[x] = pixel;  // `destination` not read (see over4)
            else destination[x] = over(pixel, destination[x]);
        }
    }
}

int mc_translated_bilinear_over(const uint8_t *source, size_t source_stride, const uint8_t *last_below,
                                uint8_t *target, size_t target_stride, int width, int height, int weight_x,
                                int weight_y, int replace) {
    if (width <= 0 || height <= 0 || weight_x < 0 || weight_x >= WEIGHT_ONE || weight_y < 0 ||
        weight_y >= WEIGHT_ONE)
        return -1;
    uint16_t *sums = malloc(((size_t)width + 1) * 4 * sizeof *sums);
    if (!sums) return -1;
    translated_bilinear_rows(source, source_stride, last_below, target, target_stride, width, height, weight_x,
                                weight_y, replace, sums);
    free(sums);
    return 0;
}
