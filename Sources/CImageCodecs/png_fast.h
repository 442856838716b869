// The fast PNG decoding path (png_fast.c), tried before libpng.
#ifndef MAPCOMPOSE_PNG_FAST_H
#define MAPCOMPOSE_PNG_FAST_H

#include <stddef.h>
#include <stdint.h>

/// The big-endian 32-bit number at `p` (PNG chunk lengths and CRCs).
static inline uint32_t mc_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// Decodes the common PNGs — 8-bit gray, gray+alpha, RGB, RGBA or palette (with tRNS), not
/// interlaced, every critical chunk's CRC correct — in one pass: the whole zlib stream
/// inflated by libdeflate, each row unfiltered and converted while it is in cache. Writes
/// `height` rows of `stride` bytes: straight R, G, B, A bytes, or with `premultiply` Cairo's
/// premultiplied ARGB32 words. Returns 0 when done; 1 when the file is anything else or
/// anything looks wrong (the caller then lets libpng decode it or say what is wrong; the
/// pixels may be partly written).
int mc_png_fast_decode(const uint8_t *data, size_t length, uint8_t *pixels, int width, int height,
                       size_t stride, int premultiply);

#endif
