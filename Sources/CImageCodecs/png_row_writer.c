// An opaque PNG written a few rows at a time through libpng, its bytes collected in a buffer
// that the caller empties as it goes: for images too large to hold whole (a diff image).
#include "image_codecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mc_png_row_writer {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char *errbuf;
    size_t errlen;
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int out_of_memory;
    int width;
    int height;
    int next_row;
    int failed;
};

static void mc_row_writer_error(png_structp png, png_const_charp message) {
    mc_png_row_writer *writer = (mc_png_row_writer *)png_get_error_ptr(png);
    if (writer->errbuf && writer->errlen > 0) snprintf(writer->errbuf, writer->errlen, "%s", message);
    longjmp(writer->jump, 1);
}

static void mc_row_writer_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void mc_row_writer_write(png_structp png, png_bytep data, png_size_t count) {
    mc_png_row_writer *writer = (mc_png_row_writer *)png_get_io_ptr(png);
    if (writer->length + count > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 65536;
        while (capacity < writer->length + count) capacity *= 2;
        uint8_t *grown = realloc(writer->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->bytes + writer->length, data, count);
    writer->length += count;
}

static void mc_row_writer_flush(png_structp png) { (void)png; }

mc_png_row_writer *mc_png_row_writer_open(int width, int height, int level, char *errbuf, size_t errlen) {
    mc_png_row_writer *volatile writer = calloc(1, sizeof(mc_png_row_writer));
    if (!writer) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    writer->errbuf = errbuf;
    writer->errlen = errlen;
    writer->width = width;
    writer->height = height;
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, mc_row_writer_error, mc_row_writer_warning);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (!writer->info) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, "out of memory");
        mc_png_row_writer_close(writer);
        return NULL;
    }
    if (setjmp(writer->jump)) {
        mc_png_row_writer_close(writer);
        return NULL;
    }
    png_set_write_fn(writer->png, writer, mc_row_writer_write, mc_row_writer_flush);
    png_set_IHDR(writer->png, writer->info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(writer->png, level);
    png_write_info(writer->png, writer->info);
    // Rows come as R, G, B, A bytes; the fourth byte is left out.
    png_set_filler(writer->png, 0, PNG_FILLER_AFTER);
    return writer;
}

int mc_png_row_writer_write(mc_png_row_writer *writer, const uint8_t *rows, int count, char *errbuf, size_t errlen) {
    writer->errbuf = errbuf;
    writer->errlen = errlen;
    if (writer->failed || count < 0 || count > writer->height - writer->next_row) {
        if (errbuf && errlen > 0) snprintf(errbuf, errlen, writer->failed ? "an earlier row failed" : "past the last row");
        return 1;
    }
    if (setjmp(writer->jump)) {
        writer->failed = 1;
        return 1;
    }
    size_t stride = (size_t)writer->width * 4;
    for (int i = 0; i < count; i++) {
        png_write_row(writer->png, (png_const_bytep)(rows + (size_t)i * stride));
        writer->next_row++;
    }
    if (writer->next_row == writer->height) png_write_end(writer->png, NULL);
    return 0;
}

const uint8_t *mc_png_row_writer_bytes(const mc_png_row_writer *writer, size_t *length) {
    *length = writer->length;
    return writer->bytes;
}

void mc_png_row_writer_clear(mc_png_row_writer *writer) { writer->length = 0; }

void mc_png_row_writer_close(mc_png_row_writer *writer) {
    if (!writer) return;
    if (writer->png) png_destroy_write_struct(&writer->png, writer->info ? &writer->info : NULL);
    free(writer->bytes);
    free(writer);
}
