// Translated bilinear resampling with the caller's buffer (translated_bilinear.c), for the PNG
// writer, which resamples the rows it filters.
#pragma once

#include <stddef.h>
#include <stdint.h>

/// mc_translated_bilinear_over's work, its arguments checked by the caller, with `sums` room for
/// (`width` + 1) * 4 16-bit sums.
void mc_translated_bilinear_rows(const uint8_t *source, size_t source_stride, const uint8_t *last_below,
                                 uint8_t *target, size_t target_stride, int width, int height, int weight_x,
                                 int weight_y, int replace, uint16_t *sums);
