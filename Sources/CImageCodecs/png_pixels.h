// Pixel conversions shared by the PNG decoders: straight 8-bit RGBA to Cairo's ARGB32.
#ifndef MAPCOMPOSE_PNG_PIXELS_H
#define MAPCOMPOSE_PNG_PIXELS_H

#include <stdint.h>
#include <string.h>

/// Cairo's premultiplication of one channel (cairo-png.c), rounding exactly as it does.
static inline uint32_t mc_multiply_alpha(uint32_t alpha, uint32_t color) {
    uint32_t temp = alpha * color + 0x80;
    return (temp + (temp >> 8)) >> 8;
}

/// One straight R, G, B, A pixel as a premultiplied native-endian 0xAARRGGBB word, as Cairo's
/// PNG reader makes it (fully transparent pixels become 0).
static inline uint32_t mc_premultiplied_word(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
    if (a == 0) return 0;
    if (a != 0xFF) {
        r = mc_multiply_alpha(a, r);
        g = mc_multiply_alpha(a, g);
        b = mc_multiply_alpha(a, b);
    }
    return a << 24 | r << 16 | g << 8 | b;
}

/// Rewrites `count` straight R, G, B, A pixels in place as premultiplied ARGB32 words.
static inline void mc_premultiply_row(uint8_t *row, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = row + i * 4;
        uint32_t word = mc_premultiplied_word(p[0], p[1], p[2], p[3]);
        memcpy(p, &word, 4);
    }
}

#endif
