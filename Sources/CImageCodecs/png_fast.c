// The fast PNG decoding path: the chunks are walked and checked here, the zlib stream is
// inflated whole by libdeflate (several times faster than zlib's inflate), and each row is
// unfiltered (SSE2 for the Sub and Average filters of 3- and 4-byte pixels, SSE4.1 or else SSE2
// for Paeth) and converted while it is in cache. Anything unusual is left to libpng (see png_fast.h).
#include "image_codecs.h"
#include "pixel_memory.h"
#include "png_fast.h"
#include "png_pixels.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { MC_PNG_DONE = 0, MC_PNG_ELSEWHERE = 1 };

/// A chunk type is four ASCII letters (libpng refuses anything else).
static int mc_valid_chunk_type(const uint8_t *type) {
    for (int i = 0; i < 4; i++) {
        uint8_t letter = type[i] | 0x20;
        if (letter < 'a' || letter > 'z') return 0;
    }
    return 1;
}

/// What the chunks before the image data said.
typedef struct {
    int channels;         // bytes per pixel: 1 gray or index, 2 gray+alpha, 3 RGB, 4 RGBA
    int color;            // PNG colour type
    uint8_t palette[256][4]; // straight R, G, B, A per entry; opaque black past the PLTE (as libpng)
    const uint8_t *idat;   // the image data when it is one IDAT chunk
    uint8_t *joined;       // the image data of several IDAT chunks, joined (owned)
    size_t idat_length;
} mc_png_layout;

// ---- Unfiltering (PNG spec §9), in place, `prior` being the unfiltered row above (zeros for the first).

static void mc_unfilter_sub(uint8_t *row, size_t length, int bpp) {
    for (size_t i = (size_t)bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - (size_t)bpp]);
}

static void mc_unfilter_up(uint8_t *restrict row, const uint8_t *restrict prior, size_t length) {
    for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
}

static void mc_unfilter_average(uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
    size_t i = 0;
    for (; i < (size_t)bpp; i++) row[i] = (uint8_t)(row[i] + (prior[i] >> 1));
    for (; i < length; i++) row[i] = (uint8_t)(row[i] + ((row[i - (size_t)bpp] + prior[i]) >> 1));
}

static inline uint8_t mc_paeth_predictor(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

static void mc_unfilter_paeth_scalar(uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
    size_t i = 0;
    for (; i < (size_t)bpp; i++) row[i] = (uint8_t)(row[i] + prior[i]);
    for (; i < length; i++) {
        row[i] = (uint8_t)(row[i] + mc_paeth_predictor(row[i - (size_t)bpp], prior[i], prior[i - (size_t)bpp]));
    }
}

#if defined(__SSE2__)
// One pixel of 3 or 4 bytes at a time, its channels side by side in 16-bit lanes (as libpng's
// SSE2 filters do).
static inline __attribute__((always_inline)) __m128i mc_load_pixel(const uint8_t *p, int bpp) {
    uint32_t word;
    if (bpp == 4) memcpy(&word, p, 4);
    else word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16; // no 3-byte copy through memory
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void mc_store_pixel(uint8_t *p, __m128i lanes, int bpp) {
    uint32_t word = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    if (bpp == 4) {
        memcpy(p, &word, 4);
    } else {
        p[0] = (uint8_t)word;
        p[1] = (uint8_t)(word >> 8);
        p[2] = (uint8_t)(word >> 16);
    }
}

static inline __m128i mc_abs16(__m128i x) {
    __m128i negative = _mm_cmplt_epi16(x, _mm_setzero_si128());
    return _mm_sub_epi16(_mm_xor_si128(x, negative), negative);
}

static inline __m128i mc_select(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

static inline __attribute__((always_inline)) void mc_unfilter_paeth_sse2(uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    const __m128i mask = _mm_set1_epi16(0xFF);
    for (size_t i = 0; i < length; i += (size_t)bpp) {
        __m128i b = mc_load_pixel(prior + i, bpp);
        __m128i x = mc_load_pixel(row + i, bpp);
        __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
        __m128i pc = mc_abs16(_mm_add_epi16(pa, pb));
        pa = mc_abs16(pa);
        pb = mc_abs16(pb);
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        __m128i nearest = mc_select(_mm_cmpeq_epi16(smallest, pa), a,
                                    mc_select(_mm_cmpeq_epi16(smallest, pb), b, c));
        a = _mm_and_si128(_mm_add_epi16(x, nearest), mask);
        mc_store_pixel(row + i, a, bpp);
        c = b;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// Paeth with SSSE3's absolute value and SSE4.1's blend, whose chain from one pixel to the
/// next is about half as long as the SSE2 loop's: `b - c` does not depend on the pixel to the
/// left, a blend is one instruction where SSE2 takes three, and adding in 8-bit lanes wraps as
/// PNG's bytes do (the lanes' high bytes stay zero), so no mask is needed.
__attribute__((target("sse4.1"))) static inline __attribute__((always_inline)) void
mc_unfilter_paeth_sse41(uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i < length; i += (size_t)bpp) {
        __m128i b = mc_load_pixel(prior + i, bpp);
        __m128i x = mc_load_pixel(row + i, bpp);
        __m128i from_c = _mm_sub_epi16(b, c), left_from_c = _mm_sub_epi16(a, c);
        // PNG's pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|.
        __m128i pa = _mm_abs_epi16(from_c), pb = _mm_abs_epi16(left_from_c);
        __m128i pc = _mm_abs_epi16(_mm_add_epi16(from_c, left_from_c));
        // a when pa <= pb and pa <= pc; else b when pb <= pc; else c.
        __m128i b_or_c = _mm_blendv_epi8(b, c, _mm_cmpgt_epi16(pb, pc));
        __m128i not_a = _mm_cmpgt_epi16(pa, _mm_min_epi16(pb, pc));
        a = _mm_add_epi8(x, _mm_blendv_epi8(a, b_or_c, not_a));
        mc_store_pixel(row + i, a, bpp);
        c = b;
    }
}

__attribute__((target("sse4.1"))) static void mc_unfilter_paeth3_sse41(uint8_t *row, const uint8_t *prior, size_t length) {
    mc_unfilter_paeth_sse41(row, prior, length, 3);
}

__attribute__((target("sse4.1"))) static void mc_unfilter_paeth4_sse41(uint8_t *row, const uint8_t *prior, size_t length) {
    mc_unfilter_paeth_sse41(row, prior, length, 4);
}

/// The processor's feature bits are read once at start-up; asking is a load and a test.
static int mc_has_sse41(void) { return __builtin_cpu_supports("sse4.1"); }
#else
static int mc_has_sse41(void) { return 0; }
static void mc_unfilter_paeth3_sse41(uint8_t *row, const uint8_t *prior, size_t length) { (void)row, (void)prior, (void)length; }
static void mc_unfilter_paeth4_sse41(uint8_t *row, const uint8_t *prior, size_t length) { (void)row, (void)prior, (void)length; }
#endif

static inline __attribute__((always_inline)) void mc_unfilter_average_sse2(uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
    __m128i a = _mm_setzero_si128();
    const __m128i mask = _mm_set1_epi16(0xFF);
    for (size_t i = 0; i < length; i += (size_t)bpp) {
        __m128i b = mc_load_pixel(prior + i, bpp);
        __m128i x = mc_load_pixel(row + i, bpp);
        a = _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(_mm_add_epi16(a, b), 1)), mask);
        mc_store_pixel(row + i, a, bpp);
    }
}

static inline __attribute__((always_inline)) void mc_unfilter_sub_sse2(uint8_t *row, size_t length, int bpp) {
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i < length; i += (size_t)bpp) {
        a = _mm_add_epi8(a, mc_load_pixel(row + i, bpp));
        a = _mm_and_si128(a, _mm_set1_epi16(0xFF));
        mc_store_pixel(row + i, a, bpp);
    }
}
#endif

#if defined(__SSE2__)
/// Undoes one row's filter with the SSE2 loops, `bpp` being 3 or 4 and a constant where this
/// is inlined (so each pixel is one move); 0 when the filter type is valid.
static inline __attribute__((always_inline)) int mc_unfilter_sse2(int filter, uint8_t *row, const uint8_t *prior,
                                                                  size_t length, int bpp) {
    switch (filter) {
    case 0: return 0;
    case 1: mc_unfilter_sub_sse2(row, length, bpp); return 0;
    case 2: mc_unfilter_up(row, prior, length); return 0;
    case 3: mc_unfilter_average_sse2(row, prior, length, bpp); return 0;
    case 4: mc_unfilter_paeth_sse2(row, prior, length, bpp); return 0;
    default: return 1;
    }
}
#endif

/// Undoes one row's filter; 0 when the filter type is valid. A row's length is a whole
/// number of pixels.
static int mc_unfilter(int filter, uint8_t *row, const uint8_t *prior, size_t length, int bpp) {
#if defined(__SSE2__)
    if (filter == 4 && (bpp == 3 || bpp == 4) && mc_has_sse41()) {
        if (bpp == 3) mc_unfilter_paeth3_sse41(row, prior, length);
        else mc_unfilter_paeth4_sse41(row, prior, length);
        return 0;
    }
    if (bpp == 4) return mc_unfilter_sse2(filter, row, prior, length, 4);
    if (bpp == 3) return mc_unfilter_sse2(filter, row, prior, length, 3);
#endif
    switch (filter) {
    case 0: return 0;
    case 1: mc_unfilter_sub(row, length, bpp); return 0;
    case 2: mc_unfilter_up(row, prior, length); return 0;
    case 3: mc_unfilter_average(row, prior, length, bpp); return 0;
    case 4: mc_unfilter_paeth_scalar(row, prior, length, bpp); return 0;
    default: return 1;
    }
}

// ---- Conversion of one unfiltered row to the output.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// RGB pixels to opaque words, four at a time (16 bytes read for 12, so it stops while 4
/// spare bytes remain in the row): straight R, G, B, A bytes or premultiplied ARGB32 (B, G, R,
/// A in memory). Returns how many pixels were converted.
__attribute__((target("ssse3"))) static size_t mc_rgb_to_words_ssse3(const uint8_t *in, uint8_t *out, size_t width,
                                                                    int premultiply) {
    const __m128i order = premultiply ? _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1)
                                      : _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    size_t x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i pixels = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 3 * x)), order);
        _mm_storeu_si128((__m128i *)(out + 4 * x), _mm_or_si128(pixels, opaque));
    }
    return x;
}

static size_t mc_rgb_to_words_fast(const uint8_t *in, uint8_t *out, size_t width, int premultiply) {
    return __builtin_cpu_supports("ssse3") ? mc_rgb_to_words_ssse3(in, out, width, premultiply) : 0;
}
#else
static size_t mc_rgb_to_words_fast(const uint8_t *in, uint8_t *out, size_t width, int premultiply) {
    (void)in, (void)out, (void)width, (void)premultiply;
    return 0;
}
#endif

static void mc_convert_row(const mc_png_layout *layout, const uint8_t *in, uint8_t *out, size_t width,
                           int premultiply) {
    switch (layout->color) {
    case 6:
        if (!premultiply) { memcpy(out, in, width * 4); return; }
        for (size_t x = 0; x < width; x++, in += 4) {
            uint32_t word = mc_premultiplied_word(in[0], in[1], in[2], in[3]);
            memcpy(out + x * 4, &word, 4);
        }
        return;
    case 2: {
        size_t x = mc_rgb_to_words_fast(in, out, width, premultiply);
        in += 3 * x;
        out += 4 * x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // Four bytes read per pixel (the fourth is the next pixel's, replaced), so not the last.
        for (; x + 1 < width; x++, in += 3, out += 4) {
            uint32_t word;
            memcpy(&word, in, 4);
            word = premultiply ? __builtin_bswap32(word) >> 8 | 0xFF000000u : word | 0xFF000000u;
            memcpy(out, &word, 4);
        }
#endif
        for (; x < width; x++, in += 3, out += 4) {
            if (premultiply) {
                uint32_t word = 0xFF000000u | (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
                memcpy(out, &word, 4);
            } else {
                out[0] = in[0]; out[1] = in[1]; out[2] = in[2]; out[3] = 0xFF;
            }
        }
        return;
    }
    case 3:
        for (size_t x = 0; x < width; x++) memcpy(out + x * 4, layout->palette[in[x]], 4);
        break;
    case 0:
        for (size_t x = 0; x < width; x++) {
            uint8_t *p = out + x * 4;
            p[0] = p[1] = p[2] = in[x];
            p[3] = 0xFF;
        }
        break;
    case 4:
        for (size_t x = 0; x < width; x++, in += 2) {
            uint8_t *p = out + x * 4;
            p[0] = p[1] = p[2] = in[0];
            p[3] = in[1];
        }
        break;
    }
    if (premultiply) mc_premultiply_row(out, width);
}

// ---- Chunks.

/// Walks the chunks up to IEND; MC_PNG_DONE when the file is one this path decodes.
static int mc_read_layout(const uint8_t *data, size_t length, int width, int height, mc_png_layout *layout) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (length < 8 || memcmp(data, signature, 8) != 0) return MC_PNG_ELSEWHERE;
    for (int i = 0; i < 256; i++) layout->palette[i][3] = 0xFF; // the rest is zero
    size_t pos = 8, idat_end = 0;
    int seen_ihdr = 0, seen_idat = 0, palette_entries = 0, idat_chunks = 0;
    size_t first_idat = 0;
    for (;;) {
        if (length - pos < 12) return MC_PNG_ELSEWHERE;
        uint32_t chunk_length = mc_be32(data + pos);
        if (chunk_length > 0x7FFFFFFFu || chunk_length > length - pos - 12) return MC_PNG_ELSEWHERE;
        const uint8_t *type = data + pos + 4, *body = data + pos + 8;
        if (!mc_valid_chunk_type(type)) return MC_PNG_ELSEWHERE;
        int critical = !(type[0] & 0x20);
        if (critical && libdeflate_crc32(0, type, chunk_length + 4) != mc_be32(body + chunk_length)) {
            return MC_PNG_ELSEWHERE;
        }
        if (!seen_ihdr) {
            if (memcmp(type, "IHDR", 4) != 0 || chunk_length != 13) return MC_PNG_ELSEWHERE;
            if (mc_be32(body) != (uint32_t)width || mc_be32(body + 4) != (uint32_t)height) return MC_PNG_ELSEWHERE;
            int depth = body[8], color = body[9];
            if (depth != 8 || body[10] != 0 || body[11] != 0 || body[12] != 0) return MC_PNG_ELSEWHERE;
            static const int channels[7] = {1, 0, 3, 1, 2, 0, 4};
            if (color > 6 || channels[color] == 0) return MC_PNG_ELSEWHERE;
            layout->color = color;
            layout->channels = channels[color];
            seen_ihdr = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (seen_idat && idat_end != pos) return MC_PNG_ELSEWHERE; // IDAT chunks must follow each other
            if (!seen_idat) first_idat = pos;
            seen_idat = 1;
            idat_chunks++;
            layout->idat_length += chunk_length;
            idat_end = pos + 12 + chunk_length;
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        } else if (seen_idat && (critical || memcmp(type, "tRNS", 4) == 0)) {
            return MC_PNG_ELSEWHERE;
        } else if (memcmp(type, "PLTE", 4) == 0) {
            if (palette_entries || chunk_length == 0 || chunk_length % 3 != 0 || chunk_length > 768) return MC_PNG_ELSEWHERE;
            if (layout->color == 0 || layout->color == 4) return MC_PNG_ELSEWHERE;
            palette_entries = (int)(chunk_length / 3);
            for (int i = 0; i < palette_entries; i++) {
                memcpy(layout->palette[i], body + i * 3, 3);
            }
        } else if (memcmp(type, "tRNS", 4) == 0) {
            // Only a palette's tRNS here; a gray or RGB colour key is left to libpng.
            if (layout->color != 3 || !palette_entries || chunk_length > (uint32_t)palette_entries) return MC_PNG_ELSEWHERE;
            if (libdeflate_crc32(0, type, chunk_length + 4) != mc_be32(body + chunk_length)) return MC_PNG_ELSEWHERE;
            for (uint32_t i = 0; i < chunk_length; i++) layout->palette[i][3] = body[i];
        } else if (critical) {
            return MC_PNG_ELSEWHERE;
        } // other ancillary chunks (gAMA, sBIT, text…) are ignored, as Cairo ignores them
        pos += 12 + chunk_length;
    }
    if (!seen_idat || (layout->color == 3 && !palette_entries)) return MC_PNG_ELSEWHERE;
    if (idat_chunks == 1) {
        layout->idat = data + first_idat + 8;
        return MC_PNG_DONE;
    }
    layout->joined = malloc(layout->idat_length ? layout->idat_length : 1);
    if (!layout->joined) return MC_PNG_ELSEWHERE;
    size_t filled = 0;
    for (size_t at = first_idat; at < idat_end;) {
        uint32_t chunk_length = mc_be32(data + at);
        memcpy(layout->joined + filled, data + at + 8, chunk_length);
        filled += chunk_length;
        at += 12 + chunk_length;
    }
    layout->idat = layout->joined;
    return MC_PNG_DONE;
}

/// Most bytes of inflated rows kept between decodes on a thread (a 256-px RGBA tile's).
enum { MC_KEPT_ROWS_MAX = (256 * 4 + 1) * 256 };

static pthread_key_t kept_rows_key;
static pthread_once_t kept_rows_once = PTHREAD_ONCE_INIT;

static void mc_make_kept_rows_key(void) {
    if (pthread_key_create(&kept_rows_key, free) != 0) kept_rows_key = (pthread_key_t)-1;
}

/// The calling thread's buffer of MC_KEPT_ROWS_MAX bytes for inflated rows, kept for its next
/// decode and freed when the thread ends: tiles decoded one after another on a thread take no
/// fresh memory from the kernel for their rows. NULL when it cannot be had.
static uint8_t *mc_kept_rows(void) {
    pthread_once(&kept_rows_once, mc_make_kept_rows_key);
    if (kept_rows_key == (pthread_key_t)-1) return NULL;
    uint8_t *kept = pthread_getspecific(kept_rows_key);
    if (kept) return kept;
    kept = malloc(MC_KEPT_ROWS_MAX);
    if (kept && pthread_setspecific(kept_rows_key, kept) != 0) {
        free(kept);
        return NULL;
    }
    return kept;
}

/// A buffer for the inflated rows; a large one asks for huge pages, which spares the kernel
/// thousands of page faults (a 2048² RGBA image inflates to 16 MiB). Released with free().
static uint8_t *mc_alloc_rows(size_t length) {
    const size_t huge = (size_t)2 << 20;
    if (length >= 2 * huge) {
        void *buffer = NULL;
        size_t rounded = (length + huge - 1) / huge * huge;
        if (posix_memalign(&buffer, huge, rounded) != 0) return NULL;
        mc_advise_huge_pages(buffer, rounded);
        return buffer;
    }
    return malloc(length);
}

int mc_png_fast_decode(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                       size_t stride, int premultiply) {
    if (width <= 0 || height <= 0 || !data) return MC_PNG_ELSEWHERE;
    mc_png_layout layout;
    memset(&layout, 0, sizeof layout);
    int result = MC_PNG_ELSEWHERE;
    uint8_t *raw = NULL, *scratch = NULL;
    struct libdeflate_decompressor *inflater = NULL;
    if (mc_read_layout(data, length, width, height, &layout) != MC_PNG_DONE) goto done;
    size_t row_length = (size_t)width * (size_t)layout.channels;
    size_t raw_length = (size_t)height * (row_length + 1);
    // When a filtered row (filter byte included) is no longer than an output row — every
    // colour type but RGBA — the rows are inflated into the end of the output itself: output
    // row y then ends where filtered row y + 1 begins at the latest, so nothing is overwritten
    // before it is read, and no second image-sized buffer is taken from the kernel. Each row is
    // copied out and unfiltered in a scratch row. Only when the output rows are contiguous: a
    // tile decoded into its cell of a wider image must not write over its neighbours' pixels.
    int in_place = stride == (size_t)width * 4 && stride >= row_length + 1;
    uint8_t *inflated = in_place ? pixels + (stride * (size_t)height - raw_length)
                      : raw_length <= MC_KEPT_ROWS_MAX ? mc_kept_rows() : NULL;
    if (!inflated) inflated = raw = mc_alloc_rows(raw_length);
    scratch = calloc(3, row_length); // zeros (the row above the first), and two rows in turn
    inflater = libdeflate_alloc_decompressor();
    if (!inflated || !scratch || !inflater) goto done;
    // Exactly the rows' bytes, or it is left to libpng (which says what is missing or extra).
    if (libdeflate_zlib_decompress(inflater, layout.idat, layout.idat_length, inflated, raw_length, NULL)
        != LIBDEFLATE_SUCCESS) goto done;
    const uint8_t *prior = scratch;
    for (int y = 0; y < height; y++) {
        uint8_t *line = inflated + (size_t)y * (row_length + 1), *row = line + 1;
        int filter = line[0];
        if (in_place) {
            uint8_t *copy = scratch + (size_t)(1 + y % 2) * row_length;
            memcpy(copy, row, row_length);
            row = copy;
        }
        if (mc_unfilter(filter, row, prior, row_length, layout.channels) != 0) goto done;
        mc_convert_row(&layout, row, pixels + (size_t)y * stride, (size_t)width, premultiply);
        prior = row;
    }
    result = MC_PNG_DONE;
done:
    if (inflater) libdeflate_free_decompressor(inflater);
    free(raw);
    free(scratch);
    free(layout.joined);
    return result;
}
