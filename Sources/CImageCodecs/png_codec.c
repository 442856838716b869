// PNG decoding to 8-bit RGBA, straight (for comparisons that must see the file's own channel
// values) or premultiplied as Cairo's ARGB32: the common files through the fast path
// (png_fast.c), everything else through libpng, which expands every colour type and bit depth
// to R, G, B, A bytes (16-bit samples keep their high byte, as Cairo and most image libraries
// do), with no gamma conversion.
#include "image_codecs.h"
#include "png_fast.h"
#include "png_pixels.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} mc_png_source;

typedef struct {
    jmp_buf jump;
    char *errbuf;
    size_t errlen;
} mc_png_failure;

static void mc_png_read(png_structp png, png_bytep out, png_size_t count) {
    mc_png_source *source = (mc_png_source *)png_get_io_ptr(png);
    if (count > source->length - source->offset) {
        png_error(png, "data ends early");
    }
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static void mc_png_error(png_structp png, png_const_charp message) {
    mc_png_failure *failure = (mc_png_failure *)png_get_error_ptr(png);
    if (failure->errbuf && failure->errlen > 0) snprintf(failure->errbuf, failure->errlen, "%s", message);
    longjmp(failure->jump, 1);
}

static void mc_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// True when every chunk up to IEND (or the end of the data) lies inside the data. libpng
/// allocates, and zeroes, the length a chunk claims before reading it: a 70-byte file whose
/// text chunk claimed 128 MiB took 128 MiB. A chunk running past the end fails as libpng would
/// fail later, reading it.
static int mc_png_chunks_fit(const uint8_t *data, size_t length) {
    size_t pos = 8;
    while (pos < length) {
        if (length - pos < 12) return 0;
        uint32_t chunk_length = mc_be32(data + pos);
        if (chunk_length > length - pos - 12) return 0;
        if (memcmp(data + pos + 4, "IEND", 4) == 0) return 1;
        pos += 12 + (size_t)chunk_length;
    }
    return 1;
}

/// Sets libpng's transforms that expand every colour type and depth to 8-bit straight RGBA
/// (16-bit samples keep their high byte, no gamma), and checks the row size they give.
static void mc_png_expand_to_rgba(png_structp png, png_infop info) {
    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)png_get_image_width(png, info) * 4) {
        png_error(png, "unexpected row size after expansion");
    }
}

/// Checks the signature and that every chunk lies inside the data, then makes libpng's
/// read and info structs reading from `source`, reporting to `failure`; 0 on success.
static int mc_png_open_libpng(mc_png_source *source, mc_png_failure *failure, png_structp *png_out,
                              png_infop *info_out) {
    if (source->length < 8 || png_sig_cmp(source->data, 0, 8) != 0) {
        if (failure->errbuf && failure->errlen > 0) snprintf(failure->errbuf, failure->errlen, "not a PNG file");
        return 1;
    }
    if (!mc_png_chunks_fit(source->data, source->length)) {
        if (failure->errbuf && failure->errlen > 0) snprintf(failure->errbuf, failure->errlen, "data ends early");
        return 1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, failure, mc_png_error, mc_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        if (png) png_destroy_read_struct(&png, NULL, NULL);
        if (failure->errbuf && failure->errlen > 0) snprintf(failure->errbuf, failure->errlen, "out of memory");
        return 1;
    }
    png_set_read_fn(png, source, mc_png_read);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
#ifdef PNG_IGNORE_ADLER32
    // Every chunk's CRC still guards the compressed data; zlib's Adler-32 over the inflated
    // pixels would check the same bytes again at a tenth of the decoding time.
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    *png_out = png;
    *info_out = info;
    return 0;
}

/// libpng's decoding to straight RGBA rows of `stride` bytes; 0 on success.
static int mc_png_decode_libpng(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                                size_t stride, char *errbuf, size_t errlen) {
    mc_png_failure failure;
    failure.errbuf = errbuf;
    failure.errlen = errlen;
    mc_png_source source = {data, length, 0};
    png_structp png;
    png_infop info;
    if (mc_png_open_libpng(&source, &failure, &png, &info) != 0) return 1;
    // Volatile: assigned after setjmp and read after a longjmp back to it.
    png_bytep *volatile rows = NULL;
    if (setjmp(failure.jump)) {
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    if ((int)w != width || (int)h != height) png_error(png, "the header's size changed while reading");
    mc_png_expand_to_rgba(png, info);
    rows = malloc(sizeof(png_bytep) * h);
    if (!rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int mc_png_decode_rgba(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                       char *errbuf, size_t errlen) {
    size_t stride = (size_t)width * 4;
    if (mc_png_fast_decode(data, length, pixels, width, height, stride, 0) == 0) return 0;
    return mc_png_decode_libpng(data, length, pixels, width, height, stride, errbuf, errlen);
}

int mc_png_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                         int stride, char *errbuf, size_t errlen) {
    if (stride < width * 4) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, "row stride too small");
        return 1;
    }
    if (mc_png_fast_decode(data, length, pixels, width, height, (size_t)stride, 1) == 0) return 0;
    if (mc_png_decode_libpng(data, length, pixels, width, height, (size_t)stride, errbuf, errlen) != 0) return 1;
    for (int y = 0; y < height; y++) mc_premultiply_row(pixels + (size_t)y * (size_t)stride, (size_t)width);
    return 0;
}

struct mc_png_rows {
    mc_png_source source;
    mc_png_failure failure;
    png_structp png;
    png_infop info;
    int width;
    int height;
    int next_row;
    int failed;
};

mc_png_rows *mc_png_rows_open(const uint8_t *data, size_t length, int width, int height, int *interlaced,
                              char *errbuf, size_t errlen) {
    *interlaced = 0;
    mc_png_rows *volatile rows = calloc(1, sizeof(mc_png_rows));
    if (!rows) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    rows->source = (mc_png_source){data, length, 0};
    rows->failure.errbuf = errbuf;
    rows->failure.errlen = errlen;
    rows->width = width;
    rows->height = height;
    if (mc_png_open_libpng(&rows->source, &rows->failure, &rows->png, &rows->info) != 0) {
        free(rows);
        return NULL;
    }
    if (setjmp(rows->failure.jump)) {
        mc_png_rows_close(rows);
        return NULL;
    }
    png_read_info(rows->png, rows->info);
    if ((int)png_get_image_width(rows->png, rows->info) != width || (int)png_get_image_height(rows->png, rows->info) != height) {
        png_error(rows->png, "the header's size changed while reading");
    }
    if (png_get_interlace_type(rows->png, rows->info) != PNG_INTERLACE_NONE) {
        // Adam7 passes fill every row several times: such an image is decoded whole.
        *interlaced = 1;
        mc_png_rows_close(rows);
        return NULL;
    }
    mc_png_expand_to_rgba(rows->png, rows->info);
    return rows;
}

int mc_png_rows_read(mc_png_rows *rows, uint8_t *out, int count, char *errbuf, size_t errlen) {
    rows->failure.errbuf = errbuf;
    rows->failure.errlen = errlen;
    if (rows->failed || count < 0 || count > rows->height - rows->next_row) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, rows->failed ? "an earlier row failed" : "past the last row");
        return 1;
    }
    if (setjmp(rows->failure.jump)) {
        rows->failed = 1;
        return 1;
    }
    size_t stride = (size_t)rows->width * 4;
    for (int i = 0; i < count; i++) {
        png_read_row(rows->png, out + (size_t)i * stride, NULL);
        rows->next_row++;
    }
    if (rows->next_row == rows->height) png_read_end(rows->png, NULL);
    return 0;
}

void mc_png_rows_close(mc_png_rows *rows) {
    if (!rows) return;
    if (rows->png) png_destroy_read_struct(&rows->png, &rows->info, NULL);
    free(rows);
}
