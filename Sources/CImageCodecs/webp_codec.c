// WebP encoding and decoding between libwebp and Cairo's ARGB32 (premultiplied, native
// endian: B, G, R, A bytes on little-endian machines). libwebp is loaded on first use
// (webp_library.h): each entry point loads it before any other call.
#include "image_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>  // WEBP_MAX_DIMENSION
#include "webp_library.h"

static void set_message(char *errbuf, size_t errlen, const char *text) {
    if (errbuf && errlen > 0) snprintf(errbuf, errlen, "%s", text);
}

static uint32_t load_word(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

static void store_word(uint8_t *p, uint32_t w) { memcpy(p, &w, 4); }

int mc_webp_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                          int quality, int lossless, uint8_t **out, size_t *out_length,
                          char *errbuf, size_t errlen) {
    *out = NULL;
    *out_length = 0;
    if (mc_webp_load(errbuf, errlen) != 0) return 1;
    if (width < 1 || height < 1 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        set_message(errbuf, errlen, "image size is outside WebP's 1…16383 pixels a side");
        return 1;
    }
    size_t row = (size_t)width * 4;
    uint8_t *rgba = malloc(row * (size_t)height);
    if (!rgba) {
        set_message(errbuf, errlen, "out of memory");
        return 1;
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *src = pixels + (size_t)y * (size_t)stride;
        uint8_t *dst = rgba + (size_t)y * row;
        for (int x = 0; x < width; x++) {
            uint32_t w = load_word(src + 4 * (size_t)x);
            uint32_t a = w >> 24, r = (w >> 16) & 0xFF, g = (w >> 8) & 0xFF, b = w & 0xFF;
            if (a != 0 && a != 255) {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
            }
            dst[4 * x + 0] = (uint8_t)(r > 255 ? 255 : r);
            dst[4 * x + 1] = (uint8_t)(g > 255 ? 255 : g);
            dst[4 * x + 2] = (uint8_t)(b > 255 ? 255 : b);
            dst[4 * x + 3] = (uint8_t)a;
        }
    }
    uint8_t *encoded = NULL;
    size_t size = lossless ? mc_WebPEncodeLosslessRGBA(rgba, width, height, (int)row, &encoded)
                           : mc_WebPEncodeRGBA(rgba, width, height, (int)row, (float)quality, &encoded);
    free(rgba);
    if (size == 0 || !encoded) {
        if (encoded) mc_WebPFree(encoded);
        set_message(errbuf, errlen, "libwebp could not encode the image");
        return 1;
    }
    *out = encoded;
    *out_length = size;
    return 0;
}

void mc_webp_free(uint8_t *buffer) { mc_WebPFree(buffer); }

int mc_webp_read_info(const uint8_t *data, size_t length, int *width, int *height, char *errbuf, size_t errlen) {
    if (mc_webp_load(errbuf, errlen) != 0) return 1;
    if (mc_WebPGetInfo(data, length, width, height)) return 0;
    set_message(errbuf, errlen, "unreadable header");
    return 1;
}

int mc_webp_decode_argb32(const uint8_t *data, size_t length, uint8_t *pixels,
                          int width, int height, int stride, char *errbuf, size_t errlen) {
    if (mc_webp_load(errbuf, errlen) != 0) return 1;
    if (!mc_WebPDecodeBGRAInto(data, length, pixels, (size_t)stride * (size_t)height, stride)) {
        set_message(errbuf, errlen, "libwebp could not decode the data");
        return 1;
    }
    // libwebp gives straight alpha in B, G, R, A byte order; Cairo wants premultiplied words.
    for (int y = 0; y < height; y++) {
        uint8_t *p = pixels + (size_t)y * (size_t)stride;
        for (int x = 0; x < width; x++) {
            uint8_t *q = p + 4 * (size_t)x;
            uint32_t b = q[0], g = q[1], r = q[2], a = q[3];
            if (a != 255) {
                r = (r * a + 127) / 255;
                g = (g * a + 127) / 255;
                b = (b * a + 127) / 255;
            }
            store_word(q, a << 24 | r << 16 | g << 8 | b);
        }
    }
    return 0;
}
