// JPEG decode/encode for mapcompose. Every entry point owns its setjmp: libjpeg errors
// longjmp back into the same C frame, never across Swift frames. libjpeg is loaded on first use
// (jpeg_library.h): each entry point loads it before any other call.
#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jpeg_library.h"

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int warnings;
} mc_error_manager;

static void mc_error_exit(j_common_ptr cinfo) {
    mc_error_manager *err = (mc_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

// Ends the current entry point with `message`, like a libjpeg error.
static void mc_fail(j_common_ptr cinfo, const char *message) {
    mc_error_manager *err = (mc_error_manager *)cinfo->err;
    snprintf(err->message, sizeof err->message, "%s", message);
    longjmp(err->jump, 1);
}

static void mc_emit_message(j_common_ptr cinfo, int level) {
    mc_error_manager *err = (mc_error_manager *)cinfo->err;
    if (level < 0) {
        if (err->warnings == 0) {
            (*cinfo->err->format_message)(cinfo, err->message);
        }
        err->warnings++;
    }
}

static void mc_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

static void mc_install_errors(mc_error_manager *err) {
    mc_jpeg_std_error(&err->base);
    err->base.error_exit = mc_error_exit;
    err->base.emit_message = mc_emit_message;
    err->base.output_message = mc_output_message;
    err->message[0] = '\0';
    err->warnings = 0;
}

static void mc_copy_message(const char *message, char *errbuf, size_t errlen) {
    if (errbuf == NULL || errlen == 0) {
        return;
    }
    snprintf(errbuf, errlen, "%s", message);
}

int mc_jpeg_read_info(const uint8_t *data, size_t length, mc_jpeg_info *info,
                      char *errbuf, size_t errlen) {
    if (mc_jpeg_load(errbuf, errlen) != 0) return 1;
    struct jpeg_decompress_struct cinfo;
    mc_error_manager err;
    mc_install_errors(&err);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        mc_copy_message(err.message, errbuf, errlen);
        mc_jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    mc_jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    mc_jpeg_mem_src(&cinfo, data, (unsigned long)length);
    mc_jpeg_read_header(&cinfo, TRUE);
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    mc_jpeg_destroy_decompress(&cinfo);
    return 0;
}

int mc_jpeg_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels,
                          int width, int height, int stride, char *errbuf, size_t errlen) {
    if (mc_jpeg_load(errbuf, errlen) != 0) return 1;
    struct jpeg_decompress_struct cinfo;
    mc_error_manager err;
    JSAMPLE *volatile row = NULL;
    mc_install_errors(&err);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        mc_copy_message(err.message, errbuf, errlen);
        free(row);
        mc_jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    mc_jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    mc_jpeg_mem_src(&cinfo, data, (unsigned long)length);
    mc_jpeg_read_header(&cinfo, TRUE);
    if ((int)cinfo.image_width != width || (int)cinfo.image_height != height) {
        mc_fail((j_common_ptr)&cinfo, "JPEG size changed between header reads");
    }
    cinfo.out_color_space = JCS_RGB;
    mc_jpeg_start_decompress(&cinfo);
    row = malloc((size_t)cinfo.output_width * 3);
    if (row == NULL) {
        mc_fail((j_common_ptr)&cinfo, "out of memory");
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        int y = (int)cinfo.output_scanline;
        JSAMPROW rows[1] = { row };
        mc_jpeg_read_scanlines(&cinfo, rows, 1);
        uint32_t *out = (uint32_t *)(pixels + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) {
            uint32_t r = row[x * 3], g = row[x * 3 + 1], b = row[x * 3 + 2];
            out[x] = 0xFF000000u | (r << 16) | (g << 8) | b;
        }
    }
    mc_jpeg_finish_decompress(&cinfo);
    free(row);
    row = NULL;
    mc_jpeg_destroy_decompress(&cinfo);
    if (err.warnings > 0) {
        mc_copy_message(err.message, errbuf, errlen);
        return 2;
    }
    return 0;
}

// Growing output buffer for the encoder. libjpeg's own jpeg_mem_dest frees and replaces its
// buffer as it grows but stores the current one in *outbuffer only when compression ends, so
// after an error the caller holds a pointer that may already be freed and cannot reach the
// live one. This manager always holds the current buffer; the encoder frees it on error.
typedef struct {
    struct jpeg_destination_mgr base;
    JOCTET *buffer;
    size_t capacity;
    size_t limit; // 0: no limit
} mc_memory_destination;

static void mc_destination_init(j_compress_ptr cinfo) {
    mc_memory_destination *dest = (mc_memory_destination *)cinfo->dest;
    dest->base.next_output_byte = dest->buffer;
    dest->base.free_in_buffer = dest->capacity;
}

static boolean mc_destination_grow(j_compress_ptr cinfo) {
    mc_memory_destination *dest = (mc_memory_destination *)cinfo->dest;
    // libjpeg calls this only when the buffer is full.
    size_t used = dest->capacity;
    if (dest->limit != 0 && used >= dest->limit) {
        mc_fail((j_common_ptr)cinfo, "JPEG output exceeds the limit of bytes given");
    }
    size_t next = used * 2;
    if (dest->limit != 0 && next > dest->limit) {
        next = dest->limit;
    }
    JOCTET *grown = realloc(dest->buffer, next);
    if (grown == NULL) {
        mc_fail((j_common_ptr)cinfo, "out of memory");
    }
    dest->buffer = grown;
    dest->capacity = next;
    dest->base.next_output_byte = grown + used;
    dest->base.free_in_buffer = next - used;
    return TRUE;
}

static void mc_destination_term(j_compress_ptr cinfo) {
    (void)cinfo;
}

static void mc_destination_release(mc_memory_destination *dest) {
    if (dest != NULL) {
        free(dest->buffer);
        free(dest);
    }
}

int mc_jpeg_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                          int quality, size_t max_length, uint8_t **out, size_t *out_length,
                          char *errbuf, size_t errlen) {
    struct jpeg_compress_struct cinfo;
    mc_error_manager err;
    // Set after setjmp, read after longjmp: volatile locals; what they point to is heap memory.
    mc_memory_destination *volatile dest = NULL;
    JSAMPLE *volatile row = NULL;
    *out = NULL;
    *out_length = 0;
    if (mc_jpeg_load(errbuf, errlen) != 0) return 1;
    mc_install_errors(&err);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        mc_copy_message(err.message, errbuf, errlen);
        free(row);
        mc_jpeg_destroy_compress(&cinfo);
        mc_destination_release(dest);
        return 1;
    }
    mc_jpeg_CreateCompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    dest = calloc(1, sizeof(mc_memory_destination));
    if (dest == NULL) {
        mc_fail((j_common_ptr)&cinfo, "out of memory");
    }
    dest->limit = max_length;
    dest->capacity = max_length != 0 && max_length < 16384 ? max_length : 16384;
    dest->buffer = malloc(dest->capacity);
    if (dest->buffer == NULL) {
        mc_fail((j_common_ptr)&cinfo, "out of memory");
    }
    dest->base.init_destination = mc_destination_init;
    dest->base.empty_output_buffer = mc_destination_grow;
    dest->base.term_destination = mc_destination_term;
    cinfo.dest = &dest->base;
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    mc_jpeg_set_defaults(&cinfo);
    mc_jpeg_set_quality(&cinfo, quality, TRUE);
    mc_jpeg_start_compress(&cinfo, TRUE);
    row = malloc((size_t)width * 3);
    if (row == NULL) {
        mc_fail((j_common_ptr)&cinfo, "out of memory");
    }
    while (cinfo.next_scanline < cinfo.image_height) {
        const uint32_t *in = (const uint32_t *)(pixels + (size_t)cinfo.next_scanline * (size_t)stride);
        for (int x = 0; x < width; x++) {
            row[x * 3] = (JSAMPLE)((in[x] >> 16) & 0xFF);
            row[x * 3 + 1] = (JSAMPLE)((in[x] >> 8) & 0xFF);
            row[x * 3 + 2] = (JSAMPLE)(in[x] & 0xFF);
        }
        JSAMPROW rows[1] = { row };
        mc_jpeg_write_scanlines(&cinfo, rows, 1);
    }
    mc_jpeg_finish_compress(&cinfo);
    free(row);
    row = NULL;
    mc_jpeg_destroy_compress(&cinfo);
    *out_length = dest->capacity - dest->base.free_in_buffer;
    *out = dest->buffer;
    dest->buffer = NULL;
    mc_destination_release(dest);
    return 0;
}

void mc_jpeg_free(uint8_t *buffer) {
    free(buffer);
}
