// Antialiased coverage of stroked polylines in an 8-bit mask (line_coverage.c): each piece of
// a line is a band with flat, square or round ends, its edges ramped over a pixel as a box
// filter sees them; pieces meet in round joins.
#ifndef MAPCOMPOSE_LINE_COVERAGE_H
#define MAPCOMPOSE_LINE_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How a line's ends (and its dashes' ends) are drawn.
typedef enum { MC_CAP_BUTT = 0, MC_CAP_ROUND = 1, MC_CAP_SQUARE = 2 } mc_line_cap;

/// An 8-bit coverage mask: `width` × `height` pixels, rows `stride` bytes apart; its pixel
/// (0, 0) covers the square from (`origin_x`, `origin_y`) to one pixel beyond in the lines'
/// coordinates (whole numbers). `touched_*` bound the pixels drawn so far (columns and rows
/// `touched_x0` ≤ x < `touched_x1`, `touched_y0` ≤ y < `touched_y1`; empty while x0 ≥ x1):
/// set them to 0 for a new mask.
typedef struct {
    uint8_t *data;
    int stride, width, height;
    int origin_x, origin_y;
    int touched_x0, touched_y0, touched_x1, touched_y1;
} mc_coverage_mask;

/// Which ends of a line are not capped: cut where they end (no ramp; the line goes on in
/// another piece drawn in the same mask, as where a line is cut at a tile's edge), or joined to
/// each other (a closed ring, its last point its first: a round join where the last segment
/// meets the first; not with dashes).
typedef enum { MC_ENDS_CAPPED = 0, MC_START_OPEN = 1, MC_END_OPEN = 2, MC_CLOSED = 4 } mc_line_ends;

/// Sets every pixel of `mask` to 0 and its touched bounds to none, writing each byte: freshly
/// mapped memory is then written once, not first read (mapping the shared zero page) and then
/// written (a copy and a flush of every core's TLB), as drawing on it would.
void mc_coverage_mask_clear(mc_coverage_mask *mask);

/// Raises each pixel of `mask` to the coverage of the polyline `points` (`count` points as x, y
/// pairs), `half_width` either side of it, with `cap` at its ends and round joins; with
/// `dash_count` > 0, only its dashes: `dashes` holds the lengths on and off in turn, from the
/// line's first point, and each dash gets the cap. Covered pixels read 255; the edges ramp
/// linearly over a pixel, as much of the pixel as a box filter across the edge covers. With a
/// `blur` (pixels, MapLibre's `line-blur`), the sides and round ends ramp instead from none half
/// a pixel outside the edge, linearly over `blur` + 1 pixels inward, as MapLibre's line shader
/// fades them.
/// Returns 0, or -1 for bad arguments (nothing drawn): a coordinate that is not a number or lies
/// beyond ±1e15, a width or dash that is not a positive number, a blur that is negative or not a number.
int mc_line_coverage_add(mc_coverage_mask *mask, const double *points, size_t count, double half_width, double blur,
                         mc_line_cap cap, int ends, const double *dashes, int dash_count);

#ifdef __cplusplus
}
#endif

#endif
