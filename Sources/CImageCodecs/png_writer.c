// PNG writer for Cairo's premultiplied ARGB32 pixels.
//
// Pixels are un-premultiplied exactly as Cairo's own PNG writer does, written as 8-bit RGB when
// every pixel is opaque (as Cairo does too) and RGBA otherwise. Each row gets the filter with the
// smallest sum of absolute differences (libpng's heuristic). The filtered rows are deflated with
// zlib in strips on several threads and joined into one zlib stream as pigz does: raw deflate per
// strip, each primed with the 32 KiB of filtered data before it, flushed to a byte boundary with
// Z_SYNC_FLUSH except the last (Z_FINISH), the Adler-32 checksums combined with adler32_combine.
// Every strip becomes one IDAT chunk, its CRC computed on the thread that compressed it.

#include "image_codecs.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { WINDOW = 32768, STRIP_TARGET = 256 * 1024, MAX_THREADS = 16 };

static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

static void fail(char *errbuf, size_t errlen, const char *format, ...) {
    if (!errbuf || errlen == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(errbuf, errlen, format, args);
    va_end(args);
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/// Everything the threads share: the source, the filtered rows and the strips' results.
typedef struct {
    const uint8_t *pixels;
    int width, height, stride, channels, level;
    size_t row_bytes;      // filtered row: filter byte + width * channels
    uint8_t *filtered;     // height * row_bytes
    int strip_rows, strip_count;
    // Per strip: its IDAT chunk (length, type, data, CRC still to finish for the last one),
    // the chunk's size, its CRC so far and the Adler-32 of its uncompressed bytes.
    uint8_t **chunks;
    size_t *chunk_sizes;
    uLong *crcs, *adlers;
    int *errors;           // per strip: 0, or a zlib status / -1000 for out of memory
    // The next strip to claim in the current pass.
    pthread_mutex_t lock;
    int next;
} job;

/// Un-premultiplies one row of Cairo ARGB32 (native-endian 32-bit words) into RGB or RGBA
/// bytes, rounding exactly as Cairo's writer does (fully transparent pixels become 0,0,0,0).
static void unpremultiply_row(const uint8_t *src, uint8_t *dst, int width, int channels) {
    const uint32_t *in = (const uint32_t *)src;
    for (int x = 0; x < width; x++) {
        uint32_t pixel = in[x];
        uint32_t alpha = pixel >> 24;
        uint32_t r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF;
        if (alpha == 0) {
            r = g = b = 0;
        } else if (alpha != 255) {
            r = (r * 255 + alpha / 2) / alpha;
            g = (g * 255 + alpha / 2) / alpha;
            b = (b * 255 + alpha / 2) / alpha;
        }
        dst[0] = (uint8_t)r;
        dst[1] = (uint8_t)g;
        dst[2] = (uint8_t)b;
        if (channels == 4) dst[3] = (uint8_t)alpha;
        dst += channels;
    }
}

/// The filter heuristic's cost of a filtered byte: its distance from zero as a signed byte.
static inline unsigned cost(uint8_t v) { return v < 128 ? v : 256u - v; }

static inline int absolute(int v) { return v < 0 ? -v : v; }

/// Writes the five PNG filters of `row` (previous row `prior`; both preceded by `bpp` zero
/// bytes, so the loop has no edge cases and vectorizes) into `candidates` (each n + 1 bytes,
/// filter type first) and copies the one of least absolute sum into `out`.
static void filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp,
                       uint8_t *candidates[5], uint8_t *out) {
    unsigned sum_none = 0, sum_sub = 0, sum_up = 0, sum_avg = 0, sum_paeth = 0;
    uint8_t *none = candidates[0] + 1, *sub = candidates[1] + 1, *up = candidates[2] + 1,
            *avg = candidates[3] + 1, *pae = candidates[4] + 1;
    for (size_t i = 0; i < n; i++) {
        int x = row[i], a = row[(ptrdiff_t)i - bpp], b = prior[i], c = prior[(ptrdiff_t)i - bpp];
        int pa = absolute(b - c), pb = absolute(a - c), pc = absolute(a + b - 2 * c);
        int predicted = (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c;
        uint8_t fn = (uint8_t)x, fs = (uint8_t)(x - a), fu = (uint8_t)(x - b), fa = (uint8_t)(x - ((a + b) >> 1)),
                fp = (uint8_t)(x - predicted);
        none[i] = fn;
        sub[i] = fs;
        up[i] = fu;
        avg[i] = fa;
        pae[i] = fp;
        sum_none += cost(fn);
        sum_sub += cost(fs);
        sum_up += cost(fu);
        sum_avg += cost(fa);
        sum_paeth += cost(fp);
    }
    unsigned sums[5] = {sum_none, sum_sub, sum_up, sum_avg, sum_paeth};
    int best = 0;
    for (int f = 1; f < 5; f++)
        if (sums[f] < sums[best]) best = f;
    candidates[best][0] = (uint8_t)best;
    memcpy(out, candidates[best], n + 1);
}

/// Takes the next unclaimed strip, or -1 when none is left.
static int claim(job *j) {
    pthread_mutex_lock(&j->lock);
    int strip = j->next < j->strip_count ? j->next++ : -1;
    pthread_mutex_unlock(&j->lock);
    return strip;
}

/// Un-premultiplies and filters the rows of one strip into `filtered`. `scratch` holds two
/// rows, each after `channels` zero bytes, and the five candidate rows.
static void filter_strip(job *j, int strip, uint8_t *scratch) {
    size_t n = j->row_bytes - 1, pad = (size_t)j->channels;
    uint8_t *current = scratch + pad, *previous = scratch + 2 * pad + n;
    uint8_t *candidates[5];
    for (int f = 0; f < 5; f++) candidates[f] = scratch + 2 * (pad + n) + (size_t)f * (n + 1);
    memset(scratch, 0, 2 * (pad + n));
    int first = strip * j->strip_rows;
    int last = first + j->strip_rows < j->height ? first + j->strip_rows : j->height;
    if (first > 0) unpremultiply_row(j->pixels + (size_t)(first - 1) * j->stride, previous, j->width, j->channels);
    for (int y = first; y < last; y++) {
        unpremultiply_row(j->pixels + (size_t)y * j->stride, current, j->width, j->channels);
        filter_row(current, previous, n, j->channels, candidates, j->filtered + (size_t)y * j->row_bytes);
        uint8_t *swap = current;
        current = previous;
        previous = swap;
    }
}

/// Deflates one strip of filtered rows into its IDAT chunk (see `job`).
static int deflate_strip(job *j, int strip) {
    size_t begin = (size_t)strip * j->strip_rows * j->row_bytes;
    size_t end = (size_t)(strip + 1) * j->strip_rows;
    end = (end < (size_t)j->height ? end : (size_t)j->height) * j->row_bytes;
    size_t length = end - begin;
    int first = strip == 0, last = strip == j->strip_count - 1;

    z_stream z;
    memset(&z, 0, sizeof z);
    int status = deflateInit2(&z, j->level, Z_DEFLATED, -15, 8, j->level == 0 ? Z_DEFAULT_STRATEGY : Z_FILTERED);
    if (status != Z_OK) return status;
    // Room for the chunk's length and type, the zlib header, the data (with the sync
    // flush's empty stored block) and the CRC.
    size_t capacity = 8 + 2 + deflateBound(&z, (uLong)length) + 16 + 4;
    uint8_t *chunk = malloc(capacity);
    if (!chunk) {
        deflateEnd(&z);
        return -1000;
    }
    size_t header = 8;
    if (first) {
        // CMF: deflate, 32 KiB window; FLG: the level hint, check bits making CMF*256+FLG
        // a multiple of 31.
        int hint = j->level < 2 ? 0 : j->level < 6 ? 1 : j->level == 6 ? 2 : 3;
        unsigned cmf = 0x78, flg = (unsigned)hint << 6;
        flg += 31 - (cmf * 256 + flg) % 31;
        chunk[header++] = (uint8_t)cmf;
        chunk[header++] = (uint8_t)flg;
    } else {
        size_t dictionary = begin < WINDOW ? begin : WINDOW;
        status = deflateSetDictionary(&z, j->filtered + begin - dictionary, (uInt)dictionary);
        if (status != Z_OK) {
            free(chunk);
            deflateEnd(&z);
            return status;
        }
    }
    // A strip is at most 256 KiB or one row (under 64 MiB): zlib's counters hold it.
    z.next_in = j->filtered + begin;
    z.avail_in = (uInt)length;
    z.next_out = chunk + header;
    z.avail_out = (uInt)(capacity - header - 4);
    // Z_FINISH ends the stream (Z_STREAM_END); Z_SYNC_FLUSH returns Z_OK with room left over
    // when all was written.
    status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    if ((last && status != Z_STREAM_END) || (!last && (status != Z_OK || z.avail_out == 0)) || z.avail_in != 0) {
        free(chunk);
        deflateEnd(&z);
        return status == Z_OK || status == Z_STREAM_END ? Z_BUF_ERROR : status;
    }
    size_t data_end = (size_t)(z.next_out - chunk);
    // A stream flushed but not finished ends with Z_DATA_ERROR: expected for all but the last.
    status = deflateEnd(&z);
    if (status != Z_OK && !(status == Z_DATA_ERROR && !last)) {
        free(chunk);
        return status;
    }
    j->adlers[strip] = adler32(adler32(0, NULL, 0), j->filtered + begin, (uInt)length);
    put32(chunk, (uint32_t)(data_end - 8 + (last ? 4 : 0)));
    memcpy(chunk + 4, "IDAT", 4);
    j->crcs[strip] = crc32(crc32(0, NULL, 0), chunk + 4, (uInt)(data_end - 4));
    j->chunks[strip] = chunk;
    j->chunk_sizes[strip] = data_end;
    return 0;
}

/// One pass over the strips: filtering, or deflating (which needs every strip filtered, for
/// the dictionaries).
typedef enum { FILTER, DEFLATE } pass;

typedef struct {
    job *j;
    pass pass;
    uint8_t *scratch;
} worker;

/// A worker: takes strips until none is left.
static void *work(void *argument) {
    worker *w = argument;
    job *j = w->j;
    for (int strip; (strip = claim(j)) >= 0;) {
        if (w->pass == FILTER) filter_strip(j, strip, w->scratch);
        else j->errors[strip] = deflate_strip(j, strip);
    }
    return NULL;
}

/// Runs one pass on up to `threads` threads, the calling one included. A helper thread that
/// cannot be started only leaves more strips to the others.
static void run_pass(job *j, pass pass, int threads, uint8_t *scratch, size_t scratch_size) {
    worker workers[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    j->next = 0;
    for (int t = 0; t < threads; t++) workers[t] = (worker){j, pass, scratch + (size_t)t * scratch_size};
    for (int t = 1; t < threads; t++) started[t] = pthread_create(&ids[t], NULL, work, &workers[t]) == 0;
    work(&workers[0]);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(ids[t], NULL);
}

static int is_opaque(const uint8_t *pixels, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++)
            if ((row[x] >> 24) != 0xFF) return 0;
    }
    return 1;
}

static int thread_count(int requested, int strips) {
    int n = requested;
    if (n <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        n = cores > 0 ? (int)cores : 1;
    }
    if (n > MAX_THREADS) n = MAX_THREADS;
    return n < strips ? n : strips;
}

static uint8_t *append_chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t length) {
    put32(p, length);
    memcpy(p + 4, type, 4);
    if (length) memcpy(p + 8, data, length);
    uLong crc = crc32(crc32(0, NULL, 0), p + 4, length + 4);
    put32(p + 8 + length, (uint32_t)crc);
    return p + 12 + length;
}

static const char *zlib_message(int status) {
    return status == -1000 ? "out of memory" : zError(status);
}

int mc_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride, int level,
                         int threads, uint8_t **out, size_t *out_length, char *errbuf, size_t errlen) {
    *out = NULL;
    *out_length = 0;
    if (!pixels || width <= 0 || height <= 0 || width > (1 << 24) || stride / 4 < width || level < 0 ||
        level > 9) {
        fail(errbuf, errlen, "invalid arguments (%dx%d, stride %d, level %d)", width, height, stride, level);
        return -1;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.pixels = pixels;
    j.width = width;
    j.height = height;
    j.stride = stride;
    j.level = level;
    j.channels = is_opaque(pixels, width, height, stride) ? 3 : 4;
    j.row_bytes = 1 + (size_t)width * (size_t)j.channels;
    size_t rows = STRIP_TARGET / j.row_bytes;
    j.strip_rows = rows < 1 ? 1 : rows > (size_t)height ? height : (int)rows;
    j.strip_count = (height + j.strip_rows - 1) / j.strip_rows;
    int workers = thread_count(threads, j.strip_count);
    size_t scratch_size = 2 * (4 + j.row_bytes) + 5 * j.row_bytes;

    int result = -1;
    j.filtered = malloc((size_t)height * j.row_bytes);
    j.chunks = calloc((size_t)j.strip_count, sizeof *j.chunks);
    j.chunk_sizes = calloc((size_t)j.strip_count, sizeof *j.chunk_sizes);
    j.crcs = calloc((size_t)j.strip_count, sizeof *j.crcs);
    j.adlers = calloc((size_t)j.strip_count, sizeof *j.adlers);
    j.errors = calloc((size_t)j.strip_count, sizeof *j.errors);
    uint8_t *scratch = malloc(scratch_size * (size_t)workers);
    if (!j.filtered || !j.chunks || !j.chunk_sizes || !j.crcs || !j.adlers || !j.errors || !scratch) {
        fail(errbuf, errlen, "out of memory for a %dx%d PNG", width, height);
        goto done;
    }
    if (pthread_mutex_init(&j.lock, NULL) != 0) {
        fail(errbuf, errlen, "cannot create a mutex");
        goto done;
    }
    run_pass(&j, FILTER, workers, scratch, scratch_size);
    run_pass(&j, DEFLATE, workers, scratch, scratch_size);
    pthread_mutex_destroy(&j.lock);
    for (int s = 0; s < j.strip_count; s++) {
        if (j.errors[s] != 0) {
            fail(errbuf, errlen, "zlib: %s", zlib_message(j.errors[s]));
            goto done;
        }
    }

    uLong adler = j.adlers[0];
    size_t total = sizeof signature + 25 + 18 + 12;  // IHDR, bKGD, IEND
    for (int s = 0; s < j.strip_count; s++) {
        if (s > 0) {
            size_t rows_in_strip = (size_t)((s + 1) * j.strip_rows < height ? j.strip_rows
                                                                            : height - s * j.strip_rows);
            adler = adler32_combine(adler, j.adlers[s], (z_off_t)(rows_in_strip * j.row_bytes));
        }
        total += j.chunk_sizes[s] + 4;
    }
    total += 4;  // Adler-32 at the end of the last IDAT
    uint8_t *png = malloc(total);
    if (!png) {
        fail(errbuf, errlen, "out of memory for a %zu-byte PNG", total);
        goto done;
    }
    uint8_t *p = png;
    memcpy(p, signature, sizeof signature);
    p += sizeof signature;
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;                          // bit depth
    ihdr[9] = j.channels == 4 ? 6 : 2;    // colour type: RGBA or RGB
    ihdr[10] = ihdr[11] = ihdr[12] = 0;   // deflate, adaptive filtering, no interlace
    p = append_chunk(p, "IHDR", ihdr, sizeof ihdr);
    // A white background, as Cairo writes.
    static const uint8_t white[6] = {0, 0xFF, 0, 0xFF, 0, 0xFF};
    p = append_chunk(p, "bKGD", white, sizeof white);
    for (int s = 0; s < j.strip_count; s++) {
        memcpy(p, j.chunks[s], j.chunk_sizes[s]);
        p += j.chunk_sizes[s];
        uLong crc = j.crcs[s];
        if (s == j.strip_count - 1) {
            put32(p, (uint32_t)adler);
            crc = crc32(crc, p, 4);
            p += 4;
        }
        put32(p, (uint32_t)crc);
        p += 4;
    }
    p = append_chunk(p, "IEND", NULL, 0);
    *out = png;
    *out_length = (size_t)(p - png);
    result = 0;

done:
    if (j.chunks)
        for (int s = 0; s < j.strip_count; s++) free(j.chunks[s]);
    free(j.chunks);
    free(j.chunk_sizes);
    free(j.crcs);
    free(j.adlers);
    free(j.errors);
    free(j.filtered);
    free(scratch);
    return result;
}

void mc_png_free(uint8_t *buffer) { free(buffer); }
