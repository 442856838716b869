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

/// Reads a WebP's size from its header. Returns 0 on success; otherwise writes a message to
/// errbuf.
int mc_webp_read_info(const uint8_t *data, size_t length, int *width, int *height, char *errbuf, size_t errlen);

/// Decodes a WebP into a caller-owned buffer in Cairo's ARGB32 layout (premultiplied), sized
/// as mc_webp_read_info said. Returns 0 on success; otherwise writes a message to errbuf.
int mc_webp_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels,
                          int width, int height, int stride, char *errbuf, size_t errlen);

/// Decodes a PNG into straight 8-bit RGBA bytes (R, G, B, A per pixel, rows packed), any
/// colour type and depth expanded, no gamma applied, into a caller-owned buffer of
/// width*height*4 bytes for the size the file's IHDR states (read it first). Returns 0 on
/// success; on failure writes a message to errbuf (the buffer may be partly written).
int mc_png_decode_rgba(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                       char *errbuf, size_t errlen);

/// A PNG being decoded a few rows at a time, as straight 8-bit RGBA like mc_png_decode_rgba,
/// so that a large image need never be whole in memory.
typedef struct mc_png_rows mc_png_rows;

/// Starts reading the PNG in `data` (which must outlive the reader), whose IHDR states
/// `width` x `height` (read it first). Returns NULL on failure with a message in errbuf, or
/// NULL with *interlaced set for an Adam7 image, whose passes need the whole image.
mc_png_rows *mc_png_rows_open(const uint8_t *data, size_t length, int width, int height, int *interlaced,
                              char *errbuf, size_t errlen);

/// Decodes the next `count` rows into `out` (count*width*4 bytes). Returns 0 on success; on
/// failure writes a message to errbuf, and every later call fails.
int mc_png_rows_read(mc_png_rows *rows, uint8_t *out, int count, char *errbuf, size_t errlen);

/// Releases the reader (NULL is allowed).
void mc_png_rows_close(mc_png_rows *rows);

/// An opaque 8-bit RGB PNG written a few rows at a time (libpng, zlib `level` 0…9), its
/// bytes kept in a buffer the caller takes and clears as it goes.
typedef struct mc_png_row_writer mc_png_row_writer;

/// Starts the file: signature and header. Returns NULL on failure with a message in errbuf.
mc_png_row_writer *mc_png_row_writer_open(int width, int height, int level, char *errbuf, size_t errlen);

/// Compresses the next `count` rows, given as R, G, B, A bytes (A ignored); after the last
/// row the file is complete. Returns 0 on success; on failure writes a message to errbuf and
/// every later call fails.
int mc_png_row_writer_write(mc_png_row_writer *writer, const uint8_t *rows, int count, char *errbuf, size_t errlen);

/// The bytes written since the last clear.
const uint8_t *mc_png_row_writer_bytes(const mc_png_row_writer *writer, size_t *length);

/// Forgets the bytes written so far (after the caller has taken them).
void mc_png_row_writer_clear(mc_png_row_writer *writer);

/// Releases the writer (NULL is allowed).
void mc_png_row_writer_close(mc_png_row_writer *writer);

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

/// Filters one row of `n` bytes with the PNG filter (None, Sub, Up, Average, Paeth) whose
/// output has the least sum of absolute values as signed bytes (libpng's heuristic; ties go to
/// the lower filter type), as the PNG writer does. `row` and `prior` (the row above, zeros for
/// the first row) must each be preceded by `bpp` (1…8) zero bytes. Writes the filter type and
/// the `n` filtered bytes to `out`. With `vectorized` the AVX2 loop is used where the processor
/// has it; the result is the same either way.
void mc_png_filter_row(const uint8_t *row, const uint8_t *prior, size_t n, int bpp, int vectorized,
                       uint8_t *out);

/// Filters a row whose bytes are those of the row above it (`row`), into `out` as
/// `mc_png_filter_row` would, without looking at more than the row: Up turns it into zeros,
/// which no other filter beats, and the heuristic picks None first only for a row of zeros.
void mc_png_filter_repeated_row(const uint8_t *row, size_t n, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
