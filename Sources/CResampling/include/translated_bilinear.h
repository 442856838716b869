// Bilinear resampling of an image moved by a fraction of a pixel at scale 1, as pixman does it,
// in SSE2 or AVX2 (translated_bilinear.c).
#ifndef MAPCOMPOSE_TRANSLATED_BILINEAR_H
#define MAPCOMPOSE_TRANSLATED_BILINEAR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
