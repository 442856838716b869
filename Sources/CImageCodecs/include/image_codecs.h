#ifndef MAPCOMPOSE_IMAGE_CODECS_H
#define MAPCOMPOSE_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size of a JPEG image as stated by its header.
typedef struct {
    int width;
    int height;
} mc_jpeg_info;

/// Reads only the JPEG header. Returns 0 on success; otherwise writes a message to errbuf.
int mc_jpeg_read_info(const uint8_t *data, size_t length, mc_jpeg_info *info,
                      char *errbuf, size_t errlen);

/// Decodes a JPEG into a caller-owned buffer in Cairo's ARGB32 layout (opaque pixels).
/// The buffer must hold height rows of `stride` bytes for the size mc_jpeg_read_info returned.
/// Any libjpeg warning (e.g. truncated data) is treated as failure. Returns 0 on success.
int mc_jpeg_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels,
                          int width, int height, int stride, char *errbuf, size_t errlen);

/// Encodes Cairo ARGB32 pixels (alpha ignored: flatten first) as baseline JPEG.
/// Fails when the output would exceed max_length bytes (0: no limit).
/// On success *out holds a buffer to release with mc_jpeg_free. Returns 0 on success;
/// on failure nothing stays allocated and *out is NULL.
int mc_jpeg_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                          int quality, size_t max_length, uint8_t **out, size_t *out_length,
                          char *errbuf, size_t errlen);

/// Releases a buffer returned by mc_jpeg_encode_argb32.
void mc_jpeg_free(uint8_t *buffer);

/// Encodes Cairo ARGB32 (premultiplied) pixels as WebP, lossy at `quality` (0…100) or
/// lossless. On success *out holds a buffer to release with mc_webp_free. Returns 0 on success.
int mc_webp_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                          int quality, int lossless, uint8_t **out, size_t *out_length,
                          char *errbuf, size_t errlen);

/// Releases a buffer returned by mc_webp_encode_argb32.
void mc_webp_free(uint8_t *buffer);

/// Reads a WebP's size from its header. Returns 0 on success.
int mc_webp_read_info(const uint8_t *data, size_t length, int *width, int *height);

/// Decodes a WebP into a caller-owned buffer in Cairo's ARGB32 layout (premultiplied), sized
/// as mc_webp_read_info said. Returns 0 on success.
int mc_webp_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels,
                          int width, int height, int stride);

/// Decodes a PNG into straight 8-bit RGBA bytes (R, G, B, A per pixel, rows packed), any
/// colour type and depth expanded, no gamma applied, into a caller-owned buffer of
/// width*height*4 bytes for the size the file's IHDR states (read it first). Returns 0 on
/// success; on failure writes a message to errbuf (the buffer may be partly written).
int mc_png_decode_rgba(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                       char *errbuf, size_t errlen);

/// Decodes a PNG into a caller-owned buffer in Cairo's ARGB32 layout (premultiplied exactly
/// as Cairo's own PNG reader does), height rows of `stride` bytes for the size the file's IHDR
/// states (read it first). Returns 0 on success; on failure writes a message to errbuf.
int mc_png_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                         int stride, char *errbuf, size_t errlen);

/// Runs `task(context, index)` for every index in 0 ..< `count`, possibly several at once on
/// other threads, and returns when all are done: the caller's CPU pool.
typedef void (*mc_parallel_for)(void (*task)(void *context, int index), void *context, int count);

/// Encodes Cairo ARGB32 (premultiplied) pixels as PNG: un-premultiplied as Cairo's own writer
/// does, 8-bit RGB when every pixel is opaque and RGBA otherwise (guessed from every eighth
/// row, each row checked as it is written, written again as RGBA when one is not), each row
/// with the filter of least absolute sum, deflated (zlib-ng, or zlib without it) at `level`
/// (0…9) in row strips by `workers` workers (at least 1), run through `parallel` (NULL: one
/// after another on the calling thread). With `tries_run_length`, each large strip is
/// run-length coded instead (the Z_RLE strategy) when a sample of its rows compresses within
/// 2 % as well that way. `header_chunks` (`header_chunks_length` bytes of whole chunks, e.g.
/// tEXt, or NULL and 0) go right after IHDR. The file does not depend on `workers`. On success
/// *out holds a buffer to release with mc_png_free. Returns 0 on success; on failure writes a
/// message to errbuf, nothing stays allocated and *out is NULL.
int mc_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride, int level,
                         int tries_run_length, int workers, mc_parallel_for parallel,
                         const uint8_t *header_chunks, size_t header_chunks_length, uint8_t **out,
                         size_t *out_length, char *errbuf, size_t errlen);

/// Releases a buffer returned by mc_png_encode_argb32.
void mc_png_free(uint8_t *buffer);

/// Asks the kernel to back the whole 2 MiB pages inside `buffer` (`length` bytes, not yet
/// touched) with huge pages, so that filling a large image takes a few page faults instead of
/// thousands. Only a hint: nothing changes where huge pages are unavailable.
void mc_advise_huge_pages(void *buffer, size_t length);

/// `length` bytes rounded up to whole 2 MiB pages, zero, 2 MiB-aligned and advised as huge
/// pages (see mc_advise_huge_pages); released with munmap. NULL when the memory cannot be had.
void *mc_huge_pages_map(size_t length);

/// `length` rounded up to whole 2 MiB pages: what mc_huge_pages_map maps.
size_t mc_huge_pages_length(size_t length);

/// Zeroed memory for a large image, 2 MiB-aligned and backed by huge pages where the kernel
/// allows (see mc_advise_huge_pages).
typedef struct mc_huge_buffer mc_huge_buffer;

/// A new buffer of at least `length` bytes, all zero; NULL when the memory cannot be had.
mc_huge_buffer *mc_huge_buffer_create(size_t length);

/// The buffer's first byte.
void *mc_huge_buffer_bytes(const mc_huge_buffer *buffer);

/// Releases a buffer from mc_huge_buffer_create. Takes `void *` so that it can serve as a
/// Cairo user-data destroy function.
void mc_huge_buffer_destroy(void *buffer);

/// The sizes the pool of tile-sized buffers serves (pooled_buffers.c).
enum { MC_POOLED_BUFFER_MIN = 64 << 10, MC_POOLED_BUFFER_MAX = 2 << 20 };

/// Zeroed memory for a tile-sized image (MC_POOLED_BUFFER_MIN…MAX bytes), several to a huge
/// page and reused once released. Thread-safe.
typedef struct mc_pooled_buffer mc_pooled_buffer;

/// A buffer of at least `length` bytes, all zero; NULL for a length outside the pool's range or
/// when the memory cannot be had.
mc_pooled_buffer *mc_pooled_buffer_create(size_t length);

/// The buffer's first byte (64 KiB-aligned).
void *mc_pooled_buffer_bytes(const mc_pooled_buffer *buffer);

/// Returns a buffer from mc_pooled_buffer_create to the pool. Takes `void *` so that it can
/// serve as a Cairo user-data destroy function.
void mc_pooled_buffer_destroy(void *buffer);

/// Filters one row of `n` bytes with the PNG filter (None, Sub, Up, Average, Paeth) whose
/// output has the least sum of absolute values as signed bytes (libpng's heuristic; ties go to
/// the lower filter type), as the PNG writer does. `row` and `prior` (the row above, zeros for
/// the first row) must each be preceded by `bpp` (1…8) zero bytes. Writes the filter type and
/// the `n` filtered bytes to `out`. With `vectorized` the AVX2 loop is used where the processor
/// has it; the result is the same either way.
void mc_png_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, int vectorized,
                       uint8_t *out);

/// Paints `source` OVER `target` (premultiplied ARGB32, rows `*_stride` bytes apart), moved
/// by a fraction of a pixel at scale 1, resampled bilinearly as pixman does: target pixel
/// (x, y) blends source pixels (x, y), (x + 1, y), (x, y + 1) and (x + 1, y + 1), the right
/// ones weighted `weight_x` / 128 and the lower ones `weight_y` / 128 (0…127). `source` must
/// hold `width + 1` pixels on each of `height + 1` rows, except that with `last_below` the
/// last target row's lower samples are read from there instead. With `replace` the target's
/// pixels are replaced (what OVER gives on a transparent target). `target` may be `source`
/// itself, with the same stride: each row is read whole before it is written, so the pixels
/// are resampled in place, as long as nothing else writes row `height` (or `last_below`
/// holds a copy of it). Returns 0, or -1 for bad arguments or no memory (nothing painted).
int mc_translated_bilinear_over(const uint8_t *source, size_t source_stride, const uint8_t *last_below,
                                uint8_t *target, size_t target_stride, int width, int height, int weight_x,
                                int weight_y, int replace);

#ifdef __cplusplus
}
#endif

#endif
