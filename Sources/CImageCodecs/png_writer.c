// PNG writer for Cairo's premultiplied ARGB32 pixels.
//
// Pixels are un-premultiplied exactly as Cairo's own PNG writer does, written as 8-bit RGB when
// every pixel is opaque (as Cairo does too) and RGBA otherwise. Whether every pixel is opaque is
// guessed from every eighth row and checked by the threads on each row they convert: a pixel
// short of opaque stops them, and the image is written again as RGBA. Each row gets the filter
// with the smallest sum of absolute differences (libpng's heuristic, png_filter.c). The image is
// cut into strips of rows, each filtered and deflated by one of several threads, and joined into
// one zlib stream as pigz does: raw deflate per strip, each primed with the 32 KiB of filtered
// data before it (those rows filtered again by the strip's thread), flushed to a byte boundary
// with Z_SYNC_FLUSH except the last (Z_FINISH), the Adler-32 checksums combined with
// adler32_combine. Deflate is zlib-ng's when pkg-config finds it (scripts/zlib-ng.sh builds it;
// zlib's API under a `zng_` prefix, with vectorised window slide, matchers and checksums), else
// zlib's, through the same names (deflate_backend.h). Every strip becomes one IDAT chunk, its CRC computed on the thread that
// compressed it. Each thread keeps one deflate state and one buffer for all its strips.
//
// One allocation holds the file as it is made: the chunks before the image data, then room
// for each strip's IDAT chunk at its own place (deflate's bound). Once every strip is done, the
// chunks are moved down to follow each other and the same buffer is returned, its unused tail
// left untouched. Separate buffers for each strip and for the file cost a mapping each, and
// unmapping them all again (with the other cores' TLBs flushed each time) took longer than
// moving the bytes. Each thread's filtered rows, deflate state and trial buffer are scratch
// memory from the pixel memory pool (pixel_memory.h): a fault per 2 MiB, not per 4 KiB, and
// reused by the next image a process writes.

#include "image_codecs.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include "deflate_backend.h"
#include "pixel_memory.h"

// Strips of 256 to 512 KiB of filtered rows, as many as STRIPS_WANTED where the image allows.
// Each strip costs a trial of its sample, a block or more with their Huffman trees, a flush
// and (coded at the job's level) its window's rows filtered again and hashed, so fewer strips
// cost less; but the threads share the strips, and the last to finish ends the image. The size
// depends on the image alone, so a file does not depend on the number of cores.
enum { WINDOW = 32768, STRIP_MIN = 256 * 1024, STRIP_MAX = 512 * 1024, STRIPS_WANTED = 16, MAX_THREADS = 16 };
// Strips of at least TRIAL_MIN_STRIP bytes try run-length coding on a sample of TRIAL_SAMPLE.
enum { TRIAL_MIN_STRIP = 96 * 1024, TRIAL_SAMPLE = 12 * 1024 };
// A sample run-length coded to 1/RUN_LENGTH_SURE of its bytes or less is taken as flat enough
// that run-length coding is used without trying the job's level.
enum { RUN_LENGTH_SURE = 64 };
// A strip's status when a row of an image guessed opaque is not; and the writer's, to write the
// image again as RGBA.
enum { NOT_OPAQUE = 2000 };

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

/// The image to write: `width` × `height` premultiplied ARGB32 pixels, rows `stride` bytes
/// apart from `pixels`.
typedef struct {
    const uint8_t *pixels;
    int width, height, stride;
} image_source;

/// Everything the threads share: the source and the strips' results.
typedef struct {
    const uint8_t *pixels;
    int width, height, stride, channels, level;
    int tries_run_length;  // each large strip may be run-length coded (see prefers_run_length)
    size_t row_bytes;      // filtered row: filter byte + width * channels
    int strip_rows, strip_count;
    int window_rows;       // rows of filtered data a strip's dictionary needs (32 KiB)
    // The file being made (see the top of this file); per strip: where its IDAT chunk is
    // written in it and how much room it has (length, type, data; the CRC, and the Adler-32
    // for the last one, are added when the chunks are joined), the chunk's size so far, its
    // CRC so far and the Adler-32 of its uncompressed bytes.
    uint8_t *file;
    size_t *chunk_offsets;
    size_t *chunk_capacities;
    size_t *chunk_sizes;
    uint32_t *crcs, *adlers;
    int *errors;           // per strip: 0, or a zlib status / -1000 for out of memory
    int guesses_opaque;    // channels is 3 from a sample of the rows: each row is checked
    int not_opaque;        // under `lock`: a row was not, and no more strips are claimed
    // The next strip to claim.
    pthread_mutex_t lock;
    int next;
} job;

/// One thread's state, kept for all the strips it takes.
typedef struct {
    job *j;
    zng_stream z;
    int z_ready;
    uint8_t *rows;         // two unpremultiplied rows, each after `channels` zero bytes
    uint8_t *filtered;     // (window_rows + strip_rows) filtered rows (scratch memory)
    uint8_t *trial;        // room for a sample compressed (see prefers_run_length)
    size_t trial_capacity;
} worker;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// The B, G, R bytes of four little-endian ARGB32 words, as R, G, B; the last four bytes zero.
__attribute__((target("ssse3"))) static size_t opaque_to_rgb_ssse3(const uint32_t *in, uint8_t *out, int width) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    int x = 0;
    // Each store writes 16 bytes for 12: stop while 4 spare bytes remain in the row.
    for (; x + 6 <= width; x += 4)
        _mm_storeu_si128((__m128i *)(out + 3 * (size_t)x),
                         _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + x)), order));
    return (size_t)x;
}

/// Converts the leading pixels of a row of opaque ARGB32 words to R, G, B bytes; returns how
/// many (the rest are left to the caller).
static int mc_png_opaque_to_rgb(const uint32_t *in, uint8_t *out, int width) {
    return __builtin_cpu_supports("ssse3") ? (int)opaque_to_rgb_ssse3(in, out, width) : 0;
}
#else
static int mc_png_opaque_to_rgb(const uint32_t *in, uint8_t *out, int width) {
    (void)in, (void)out, (void)width;
    return 0;
}
#endif

/// Un-premultiplies one row of Cairo ARGB32 (native-endian 32-bit words) into RGB or RGBA
/// bytes, rounding exactly as Cairo's writer does (fully transparent pixels become 0,0,0,0).
static void unpremultiply_row(const uint8_t *src, uint8_t *dst, int width, int channels) {
    const uint32_t *in = (const uint32_t *)src;
    int x = channels == 3 ? mc_png_opaque_to_rgb(in, dst, width) : 0;
    dst += (size_t)x * (size_t)channels;
    for (; x < width; x++) {
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

/// Takes the next unclaimed strip, or -1 when none is left.
static int claim(job *j) {
    pthread_mutex_lock(&j->lock);
    int strip = !j->not_opaque && j->next < j->strip_count ? j->next++ : -1;
    pthread_mutex_unlock(&j->lock);
    return strip;
}

/// 1 when every pixel of the row of ARGB32 words is opaque.
static int row_is_opaque(const uint8_t *src, int width) {
    const uint32_t *row = (const uint32_t *)src;
    // The whole row ANDed together (which the compiler vectorizes), then checked.
    uint32_t all = 0xFFFFFFFFu;
    for (int x = 0; x < width; x++) all &= row[x];
    return (all >> 24) == 0xFF;
}

/// Row `y` of the image.
static const uint8_t *image_row(const worker *w, int y) {
    return w->j->pixels + (size_t)y * w->j->stride;
}

/// Un-premultiplies and filters rows [first, last) into `out`, one filtered row after another;
/// 0 when the job guessed the image opaque, `checks` is set and one of these rows is not (the
/// rows are then left unfinished), else 1. Rows of another strip (its dictionary) need no
/// check: that strip checks them.
static int filter_rows(worker *w, int first, int last, uint8_t *out, int checks) {
    job *j = w->j;
    size_t n = j->row_bytes - 1, pad = (size_t)j->channels;
    uint8_t *current = w->rows + pad, *previous = w->rows + 2 * pad + n;
    memset(w->rows, 0, 2 * (pad + n));
    if (first > 0) unpremultiply_row(image_row(w, first - 1), previous, j->width, j->channels);
    for (int y = first; y < last; y++) {
        const uint8_t *source = image_row(w, y);
        if (checks && j->guesses_opaque && !row_is_opaque(source, j->width)) return 0;
        // A row of the same pixels as the one above (a flat stretch of map) filters to zeros;
        // `previous` already holds it converted.
        if (y > 0 && memcmp(source, image_row(w, y - 1), (size_t)j->width * 4) == 0) {
            mc_png_filter_repeated_row(previous, n, out + (size_t)(y - first) * j->row_bytes);
            continue;
        }
        unpremultiply_row(source, current, j->width, j->channels);
        mc_png_filter_row(current, previous, n, j->channels, 1, out + (size_t)(y - first) * j->row_bytes);
        uint8_t *swap = current;
        current = previous;
        previous = swap;
    }
    return 1;
}

/// zlib's allocator on scratch memory (deflate's state is a few hundred KiB).
static void *scratch_zalloc(void *opaque, unsigned items, unsigned size) {
    (void)opaque;
    return size != 0 && items > SIZE_MAX / size ? NULL : mc_scratch_alloc((size_t)items * size);
}

static void scratch_zfree(void *opaque, void *memory) {
    (void)opaque;
    mc_scratch_free(memory);
}

/// Deflates `length` bytes from `data` whole with `level` and `strategy` into the worker's
/// trial buffer; the compressed size, or a negative zlib status.
static long trial_size(worker *w, const uint8_t *data, size_t length, int level, int strategy) {
    int status = zng_deflateReset(&w->z);
    if (status == Z_OK) status = zng_deflateParams(&w->z, level, strategy);
    if (status != Z_OK) return status < 0 ? status : Z_STREAM_ERROR;
    w->z.next_in = data;
    w->z.avail_in = (uint32_t)length;
    w->z.next_out = w->trial;
    w->z.avail_out = (uint32_t)w->trial_capacity;
    status = zng_deflate(&w->z, Z_FINISH);
    return status == Z_STREAM_END ? (long)w->z.total_out : (status < 0 ? status : Z_BUF_ERROR);
}

/// 1 when run-length coding (the Z_RLE strategy, faster than level 4) does as
/// well on this strip as the job's level: judged on a sample, the rows in the middle of the
/// strip (TRIAL_SAMPLE bytes or more), compressed both ways; within 2 % counts as well, and a
/// sample that run-length coding shrinks RUN_LENGTH_SURE times or more is not compressed the
/// other way. Flat map areas filter to runs of zeros that it codes as well; repeated patterns
/// need the longer matches it cannot find. The sample is TRIAL_SAMPLE bytes, small beside a strip.
/// 0 when not, a negative zlib status on failure.
static int prefers_run_length(worker *w, const uint8_t *data, size_t rows, size_t row_bytes) {
    size_t sample_rows = (TRIAL_SAMPLE + row_bytes - 1) / row_bytes;
    if (sample_rows > rows) sample_rows = rows;
    const uint8_t *sample = data + (rows - sample_rows) / 2 * row_bytes;
    size_t length = sample_rows * row_bytes;
    if (w->trial_capacity < zng_deflateBound(&w->z, (unsigned long)length)) {
        mc_scratch_free(w->trial);
        w->trial_capacity = zng_deflateBound(&w->z, (unsigned long)length);
        w->trial = mc_scratch_alloc(w->trial_capacity);
        if (!w->trial) {
            w->trial_capacity = 0;
            return -1000;
        }
    }
    long run_size = trial_size(w, sample, length, 1, Z_RLE);
    if (run_size < 0) return (int)run_size;
    // A sample that run-length coding shrinks RUN_LENGTH_SURE times or more is flat: the job's
    // level could save a few bytes of it at most, so it is not tried.
    if ((size_t)run_size * RUN_LENGTH_SURE <= length) return 1;
    long level_size = trial_size(w, sample, length, w->j->level, Z_FILTERED);
    if (level_size < 0) return (int)level_size;
    return run_size * 100 <= level_size * 102;
}

/// Filters one strip (and the rows before it its dictionary needs) and deflates it into its
/// IDAT chunk (see `job`). A strip coded run-length only refers back one byte: its dictionary
/// is the last byte of the row before it (that row is filtered, as the strip's first row needs
/// it), so the other rows of the window are neither filtered nor hashed.
static int encode_strip(worker *w, int strip) {
    job *j = w->j;
    int first_row = strip * j->strip_rows;
    int last_row = first_row + j->strip_rows < j->height ? first_row + j->strip_rows : j->height;
    int window_first = first_row - j->window_rows > 0 ? first_row - j->window_rows : 0;
    int lead_first = first_row > 0 ? first_row - 1 : 0;  // the row before the strip, if any
    uint8_t *data = w->filtered + (size_t)(first_row - window_first) * j->row_bytes;
    if (!filter_rows(w, lead_first, last_row, data - (size_t)(first_row - lead_first) * j->row_bytes, 1))
        return NOT_OPAQUE;
    size_t begin = (size_t)first_row * j->row_bytes;
    size_t length = (size_t)(last_row - first_row) * j->row_bytes;
    int first = strip == 0, last = strip == j->strip_count - 1;

    // memLevel 9: in zlib-ng it sets only the symbol buffer (its hash table has a fixed size),
    // 32 Ki symbols a block where the default 8 holds 16 Ki: half as many blocks, each with its
    // three Huffman trees to build, which on a map's long runs cost as much as the matching.
    if (!w->z_ready) {
        w->z.zalloc = scratch_zalloc;
        w->z.zfree = scratch_zfree;
    }
    int status = w->z_ready ? Z_OK
                            : zng_deflateInit2(&w->z, j->level, Z_DEFLATED, -15, 9,
                                           j->level == 0 ? Z_DEFAULT_STRATEGY : Z_FILTERED);
    if (status != Z_OK) return status;
    w->z_ready = 1;
    int run_length = 0;
    if (j->tries_run_length && length >= TRIAL_MIN_STRIP) {
        run_length = prefers_run_length(w, data, (size_t)(last_row - first_row), j->row_bytes);
        if (run_length < 0) return run_length;
    }
    if (!run_length && window_first < lead_first) filter_rows(w, window_first, lead_first, w->filtered, 0);
    status = zng_deflateReset(&w->z);
    if (status == Z_OK)
        status = run_length ? zng_deflateParams(&w->z, 1, Z_RLE)
                            : zng_deflateParams(&w->z, j->level, j->level == 0 ? Z_DEFAULT_STRATEGY : Z_FILTERED);
    if (status != Z_OK) return status;
    uint8_t *chunk = j->file + j->chunk_offsets[strip];
    size_t capacity = j->chunk_capacities[strip];
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
        size_t dictionary = run_length ? 1 : begin < WINDOW ? begin : WINDOW;
        status = zng_deflateSetDictionary(&w->z, data - dictionary, (uint32_t)dictionary);
        if (status != Z_OK) return status;
    }
    // A strip is at most STRIP_MAX bytes or one row (under 64 MiB): zlib's counters hold it.
    w->z.next_in = data;
    w->z.avail_in = (uint32_t)length;
    w->z.next_out = chunk + header;
    w->z.avail_out = (uint32_t)(capacity - header - 8);
    // Z_FINISH ends the stream (Z_STREAM_END); Z_SYNC_FLUSH returns Z_OK with room left over
    // when all was written.
    status = zng_deflate(&w->z, last ? Z_FINISH : Z_SYNC_FLUSH);
    if ((last && status != Z_STREAM_END) || (!last && (status != Z_OK || w->z.avail_out == 0)) || w->z.avail_in != 0)
        return status == Z_OK || status == Z_STREAM_END ? Z_BUF_ERROR : status;
    size_t data_end = (size_t)(w->z.next_out - chunk);
    // libdeflate's checksums are vectorised: several times faster than zlib's.
    j->adlers[strip] = libdeflate_adler32(1, data, length);
    put32(chunk, (uint32_t)(data_end - 8 + (last ? 4 : 0)));
    memcpy(chunk + 4, "IDAT", 4);
    j->crcs[strip] = libdeflate_crc32(0, chunk + 4, data_end - 4);
    j->chunk_sizes[strip] = data_end;
    return 0;
}

/// A worker: takes strips until none is left.
static void *work(void *argument) {
    worker *w = argument;
    for (int strip; (strip = claim(w->j)) >= 0;) {
        int status = encode_strip(w, strip);
        w->j->errors[strip] = status;
        if (status == NOT_OPAQUE) {
            pthread_mutex_lock(&w->j->lock);
            w->j->not_opaque = 1;
            pthread_mutex_unlock(&w->j->lock);
        }
    }
    return NULL;
}

static void work_at(void *workers, int index) { work((worker *)workers + index); }

/// Runs the workers through `parallel` (the caller's pool), or one after another without it.
static void run_workers(worker *workers, int count, mc_parallel_for parallel) {
    if (parallel && count > 1) {
        parallel(work_at, workers, count);
        return;
    }
    for (int t = 0; t < count; t++) work(&workers[t]);
}

/// 1 when every eighth row (and the last) is opaque: the guess that the image is.
static int sampled_rows_opaque(const image_source *image) {
    int width = image->width, height = image->height;
    for (int y = 0; y < height; y += 8)
        if (!row_is_opaque(image->pixels + (size_t)y * image->stride, width)) return 0;
    return row_is_opaque(image->pixels + (size_t)(height - 1) * image->stride, width);
}

static int thread_count(int requested, int strips) {
    int n = requested < 1 ? 1 : requested;
    if (n > MAX_THREADS) n = MAX_THREADS;
    return n < strips ? n : strips;
}

static uint8_t *append_chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t length) {
    put32(p, length);
    memcpy(p + 4, type, 4);
    if (length) memcpy(p + 8, data, length);
    put32(p + 8 + length, libdeflate_crc32(0, p + 4, length + 4));
    return p + 12 + length;
}

static const char *zlib_message(int status) {
    return status == -1000 ? "out of memory" : zng_zError(status);
}

/// Writes the PNG with `channels` 3 (RGB, the image guessed opaque: NOT_OPAQUE when a row is
/// not) or 4 (RGBA); arguments as mc_png_encode_argb32's, checked.
static int encode_image(const image_source *image, int level, int channels, int tries_run_length, int threads, mc_parallel_for parallel,
                        const uint8_t *header_chunks, size_t header_chunks_length, uint8_t **out, size_t *out_length,
                        char *errbuf, size_t errlen) {
    int width = image->width, height = image->height;
    job j;
    memset(&j, 0, sizeof j);
    j.pixels = image->pixels;
    j.width = width;
    j.height = height;
    j.stride = image->stride;
    j.level = level;
    j.tries_run_length = tries_run_length && level > 0;
    j.channels = channels;
    j.guesses_opaque = channels == 3;
    j.row_bytes = 1 + (size_t)width * (size_t)j.channels;
    size_t image_bytes = j.row_bytes * (size_t)height;
    size_t strip_bytes = image_bytes / STRIPS_WANTED < STRIP_MIN   ? STRIP_MIN
                         : image_bytes / STRIPS_WANTED > STRIP_MAX ? STRIP_MAX
                                                                   : image_bytes / STRIPS_WANTED;
    size_t rows = strip_bytes / j.row_bytes;
    j.strip_rows = rows < 1 ? 1 : rows > (size_t)height ? height : (int)rows;
    j.strip_count = (height + j.strip_rows - 1) / j.strip_rows;
    j.window_rows = (int)((WINDOW + j.row_bytes - 1) / j.row_bytes);
    int thread_total = thread_count(threads, j.strip_count);
    worker workers[MAX_THREADS];
    memset(workers, 0, sizeof workers);

    int result = -1;
    j.chunk_offsets = calloc((size_t)j.strip_count, sizeof *j.chunk_offsets);
    j.chunk_capacities = calloc((size_t)j.strip_count, sizeof *j.chunk_capacities);
    j.chunk_sizes = calloc((size_t)j.strip_count, sizeof *j.chunk_sizes);
    j.crcs = calloc((size_t)j.strip_count, sizeof *j.crcs);
    j.adlers = calloc((size_t)j.strip_count, sizeof *j.adlers);
    j.errors = calloc((size_t)j.strip_count, sizeof *j.errors);
    int buffers_ready = 1;
    for (int t = 0; t < thread_total; t++) {
        workers[t].j = &j;
        workers[t].rows = malloc(2 * (4 + j.row_bytes));
        if (!workers[t].rows) buffers_ready = 0;
    }
    if (!j.chunk_offsets || !j.chunk_capacities || !j.chunk_sizes || !j.crcs || !j.adlers || !j.errors ||
        !buffers_ready) {
        fail(errbuf, errlen, "out of memory for a %dx%d PNG", width, height);
        goto done;
    }
    // The file's layout (see the top of this file): signature, IHDR, the caller's chunks and
    // bKGD; each strip's room: the chunk's length and type, the zlib header, the data (deflate's
    // bound for any settings, which covers the sync flush's empty stored block), the Adler-32
    // and the CRC; IEND.
    size_t lead = sizeof signature + 25 + header_chunks_length + 18;
    size_t offset = lead;
    for (int s = 0; s < j.strip_count; s++) {
        int first_row = s * j.strip_rows;
        size_t strip_rows = (size_t)(first_row + j.strip_rows < height ? j.strip_rows : height - first_row);
        j.chunk_offsets[s] = offset;
        j.chunk_capacities[s] = 8 + 2 + zng_deflateBound(NULL, (unsigned long)(strip_rows * j.row_bytes)) + 16 + 4 + 4;
        offset += j.chunk_capacities[s];
    }
    offset += 12;
    size_t filtered_length = (size_t)(j.window_rows + j.strip_rows) * j.row_bytes;
    j.file = malloc(offset);
    for (int t = 0; t < thread_total; t++) {
        workers[t].filtered = mc_scratch_alloc(filtered_length);
        if (!workers[t].filtered) buffers_ready = 0;
    }
    if (!j.file || !buffers_ready) {
        fail(errbuf, errlen, "out of memory for a %dx%d PNG", width, height);
        goto done;
    }
    if (pthread_mutex_init(&j.lock, NULL) != 0) {
        fail(errbuf, errlen, "cannot create a mutex");
        goto done;
    }
    run_workers(workers, thread_total, parallel);
    pthread_mutex_destroy(&j.lock);
    if (j.not_opaque) {
        result = NOT_OPAQUE;
        goto done;
    }
    for (int s = 0; s < j.strip_count; s++) {
        if (j.errors[s] != 0) {
            fail(errbuf, errlen, "zlib: %s", zlib_message(j.errors[s]));
            goto done;
        }
    }

    uint8_t *p = j.file;
    memcpy(p, signature, sizeof signature);
    p += sizeof signature;
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;                          // bit depth
    ihdr[9] = j.channels == 4 ? 6 : 2;    // colour type: RGBA or RGB
    ihdr[10] = ihdr[11] = ihdr[12] = 0;   // deflate, adaptive filtering, no interlace
    p = append_chunk(p, "IHDR", ihdr, sizeof ihdr);
    if (header_chunks_length > 0) {
        memcpy(p, header_chunks, header_chunks_length);
        p += header_chunks_length;
    }
    // A white background, as Cairo writes.
    static const uint8_t white[6] = {0, 0xFF, 0, 0xFF, 0, 0xFF};
    p = append_chunk(p, "bKGD", white, sizeof white);
    uint32_t adler = j.adlers[0];
    for (int s = 0; s < j.strip_count; s++) {
        if (s > 0) {
            size_t rows_in_strip = (size_t)((s + 1) * j.strip_rows < height ? j.strip_rows
                                                                            : height - s * j.strip_rows);
            adler = zng_adler32_combine(adler, j.adlers[s], (z_off64_t)(rows_in_strip * j.row_bytes));
        }
        // Each chunk moves down (or stays): it starts no earlier than the end of the one before.
        memmove(p, j.file + j.chunk_offsets[s], j.chunk_sizes[s]);
        p += j.chunk_sizes[s];
        uint32_t crc = j.crcs[s];
        if (s == j.strip_count - 1) {
            put32(p, adler);
            crc = libdeflate_crc32(crc, p, 4);
            p += 4;
        }
        put32(p, crc);
        p += 4;
    }
    p = append_chunk(p, "IEND", NULL, 0);
    *out = j.file;
    *out_length = (size_t)(p - j.file);
    j.file = NULL;
    result = 0;

done:
    free(j.file);
    free(j.chunk_offsets);
    free(j.chunk_capacities);
    free(j.chunk_sizes);
    free(j.crcs);
    free(j.adlers);
    free(j.errors);
    for (int t = 0; t < thread_total; t++) {
        // A stream flushed but not finished ends with Z_DATA_ERROR: expected, nothing lost.
        if (workers[t].z_ready) zng_deflateEnd(&workers[t].z);
        free(workers[t].rows);
        mc_scratch_free(workers[t].filtered);
        mc_scratch_free(workers[t].trial);
    }
    return result;
}

/// Writes `image` (checked): as RGB when a sample of its rows is opaque, again as RGBA when a
/// row turns out not to be.
static int encode(const image_source *image, int level, int tries_run_length, int threads, mc_parallel_for parallel,
                  const uint8_t *header_chunks, size_t header_chunks_length, uint8_t **out, size_t *out_length,
                  char *errbuf, size_t errlen) {
    int channels = sampled_rows_opaque(image) ? 3 : 4;
    int result = encode_image(image, level, channels, tries_run_length, threads, parallel, header_chunks, header_chunks_length,
                              out, out_length, errbuf, errlen);
    if (result != NOT_OPAQUE) return result;
    return encode_image(image, level, 4, tries_run_length, threads, parallel, header_chunks, header_chunks_length, out,
                        out_length, errbuf, errlen);
}

/// 1 when the arguments common to both entry points are sound; else 0 with a message.
static int arguments_valid(const uint8_t *pixels, int width, int height, int stride, int level,
                           const uint8_t *header_chunks, size_t header_chunks_length, char *errbuf, size_t errlen) {
    if (!pixels || width <= 0 || height <= 0 || width > (1 << 24) || stride / 4 < width || level < 0 || level > 9 ||
        (header_chunks_length > 0 && !header_chunks)) {
        fail(errbuf, errlen, "invalid arguments (%dx%d, stride %d, level %d, %zu bytes of header chunks at %p)", width,
             height, stride, level, header_chunks_length, (const void *)header_chunks);
        return 0;
    }
    return 1;
}

int mc_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride, int level,
                         int tries_run_length, int threads, mc_parallel_for parallel, const uint8_t *header_chunks, size_t header_chunks_length,
                         uint8_t **out, size_t *out_length, char *errbuf, size_t errlen) {
    *out = NULL;
    *out_length = 0;
    if (!arguments_valid(pixels, width, height, stride, level, header_chunks, header_chunks_length, errbuf, errlen))
        return -1;
    image_source image = {pixels, width, height, stride};
    return encode(&image, level, tries_run_length, threads, parallel, header_chunks, header_chunks_length, out, out_length,
                  errbuf, errlen);
}

void mc_png_free(uint8_t *buffer) { free(buffer); }
