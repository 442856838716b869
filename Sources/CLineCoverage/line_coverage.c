#include "line_coverage.h"

#include <math.h>
#include <string.h>

/// How each end of a piece of a line is drawn: a cap (flat, square or round, its edge ramped
/// like the sides), or open, where the line goes on round a corner (cut at the end, no ramp: the
/// next piece and the join between them cover what lies beyond).
typedef enum { END_FLAT, END_SQUARE, END_ROUND, END_OPEN } end_kind;

static inline double clamp01(double v) { return v <= 0 ? 0 : v >= 1 ? 1 : v; }

/// Coverage of a pixel whose centre lies `d` from the middle of a band `hw` either side of it:
/// the overlap of the pixel's extent across the band with the band; with a `blur` (pixels),
/// MapLibre's blurred edge instead: falling linearly over `blur` + 1 pixels to none half a
/// pixel outside the band, so a band narrower than that ramp never reaches full coverage.
static inline double across(double d, double hw, double blur) {
    if (blur > 0) return clamp01((hw + 0.5 - d) / (blur + 1));
    double top = d + 0.5 < hw ? d + 0.5 : hw;
    double bottom = d - 0.5 > -hw ? d - 0.5 : -hw;
    double c = top - bottom;
    return c <= 0 ? 0 : c >= 1 ? 1 : c;
}

/// The x range [lo, hi] where `k * x + c` lies within [min, max]; false when none.
static inline int solve(double k, double c, double min, double max, double *lo, double *hi) {
    if (fabs(k) < 1e-12) {
        if (c < min || c > max) return 0;
        *lo = -INFINITY;
        *hi = INFINITY;
        return 1;
    }
    double a = (min - c) / k, b = (max - c) / k;
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
    return 1;
}

/// Raises pixel `col` of the row `out` to `coverage`.
static inline void raise_pixel(uint8_t *out, int col, double coverage) {
    uint8_t value = (uint8_t)(coverage * 255 + 0.5);
    if (value > out[col]) out[col] = value;
}

/// Widens the mask's touched bounds to columns `first`…`last` of `row`.
static void touch(mc_coverage_mask *mask, int first, int last, int row) {
    if (mask->touched_x0 >= mask->touched_x1) {
        mask->touched_x0 = first;
        mask->touched_x1 = last + 1;
        mask->touched_y0 = row;
        mask->touched_y1 = row + 1;
        return;
    }
    if (first < mask->touched_x0) mask->touched_x0 = first;
    if (last + 1 > mask->touched_x1) mask->touched_x1 = last + 1;
    if (row < mask->touched_y0) mask->touched_y0 = row;
    if (row + 1 > mask->touched_y1) mask->touched_y1 = row + 1;
}

/// The piece from a to b, `hw` either side, with its ends drawn as `start` and `end` say.
static void add_piece(mc_coverage_mask *mask, double ax, double ay, double bx, double by, double hw, double blur,
                      end_kind start, end_kind end) {
    // Nothing of a piece wholly above or below the mask's rows is drawn.
    double top = (ay < by ? ay : by) - hw - 1 - mask->origin_y, bottom = (ay > by ? ay : by) + hw + 1 - mask->origin_y;
    if (bottom < 0 || top > mask->height) return;
    double dx = bx - ax, dy = by - ay;
    double length = sqrt(dx * dx + dy * dy);
    double tx = 1, ty = 0;
    if (length > 1e-12) {
        tx = dx / length;
        ty = dy / length;
    } else if (start != END_ROUND && start != END_SQUARE) {
        return;
    }
    double nx = -ty, ny = tx;
    // Along the piece: where its ends lie, and how far past them anything is drawn.
    double e0 = start == END_SQUARE ? -hw : 0, e1 = end == END_SQUARE ? length + hw : length;
    double lo = start == END_ROUND ? -hw - 0.5 : start == END_OPEN ? 0 : e0 - 0.5;
    double hi = end == END_ROUND ? length + hw + 0.5 : end == END_OPEN ? length : e1 + 0.5;
    double reach = hw + 0.5;
    // Rows the piece touches: its corners, in mask coordinates.
    double ymin = INFINITY, ymax = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double u = (i & 1) ? hi : lo, v = (i & 2) ? reach : -reach;
        double y = ay + ty * u + ny * v - mask->origin_y;
        if (y < ymin) ymin = y;
        if (y > ymax) ymax = y;
    }
    // Clamped as doubles: far coordinates would not fit an int.
    if (ymin < 0) ymin = 0;
    if (ymax > mask->height) ymax = mask->height;
    if (!(ymin < ymax)) return;
    int row0 = (int)floor(ymin), row1 = (int)ceil(ymax);
    double ox = ax - mask->origin_x, oy = ay - mask->origin_y;
    for (int row = row0; row < row1; row++) {
        double cy = row + 0.5 - oy;
        // u = tx * cx + ty * cy and v = nx * cx + ny * cy, with cx the pixel centre's x less ox.
        double l1, h1, l2, h2;
        if (!solve(tx, ty * cy, lo, hi, &l1, &h1) || !solve(nx, ny * cy, -reach, reach, &l2, &h2)) continue;
        double xl = (l1 > l2 ? l1 : l2) + ox, xh = (h1 < h2 ? h1 : h2) + ox;
        if (xl > xh) continue;
        double first = ceil(xl - 0.5), last = floor(xh - 0.5);
        if (first < 0) first = 0;
        if (last > mask->width - 1) last = mask->width - 1;
        if (first > last) continue;
        touch(mask, (int)first, (int)last, row);
        uint8_t *out = mask->data + (size_t)row * (size_t)mask->stride;
        for (int col = (int)first; col <= (int)last; col++) {
            double cx = col + 0.5 - ox;
            double u = tx * cx + ty * cy, v = nx * cx + ny * cy;
            double coverage;
            if (u < lo || u > hi) continue;
            if (u < 0 && start == END_ROUND) {
                coverage = across(sqrt(cx * cx + cy * cy), hw, blur);
            } else if (u > length && end == END_ROUND) {
                double px = cx - dx, py = cy - dy;
                coverage = across(sqrt(px * px + py * py), hw, blur);
            } else {
                coverage = across(fabs(v), hw, blur);
                if (start == END_FLAT || start == END_SQUARE) coverage *= clamp01(u - e0 + 0.5);
                if (end == END_FLAT || end == END_SQUARE) coverage *= clamp01(e1 - u + 0.5);
            }
            raise_pixel(out, col, coverage);
        }
    }
}

/// The round join at (vx, vy) between a piece going along (t1x, t1y) and the next going along
/// (t2x, t2y): the part of the disc `hw` round the corner that lies past the end of the one and
/// before the start of the other (on the outer side of the turn; empty for a straight line).
static void add_join(mc_coverage_mask *mask, double vx, double vy, double t1x, double t1y, double t2x, double t2y,
                     double hw, double blur) {
    double reach = hw + 0.5;
    double ox = vx - mask->origin_x, oy = vy - mask->origin_y;
    if (oy + reach < 0 || oy - reach > mask->height || ox + reach < 0 || ox - reach > mask->width) return;
    int row0 = (int)floor(fmax(0, oy - reach)), row1 = (int)ceil(fmin(mask->height, oy + reach));
    int col0 = (int)floor(fmax(0, ox - reach)), col1 = (int)ceil(fmin(mask->width, ox + reach));
    for (int row = row0; row < row1; row++) {
        double cy = row + 0.5 - oy;
        uint8_t *out = mask->data + (size_t)row * (size_t)mask->stride;
        int drawn = 0;
        for (int col = col0; col < col1; col++) {
            double cx = col + 0.5 - ox;
            if (cx * t1x + cy * t1y <= 0 || cx * t2x + cy * t2y >= 0) continue;
            double coverage = across(sqrt(cx * cx + cy * cy), hw, blur);
            if (coverage <= 0) continue;
            raise_pixel(out, col, coverage);
            if (!drawn) touch(mask, col, col1 - 1, row);
            drawn = 1;
        }
    }
}

/// Where the walk is in a dash pattern: which dash or gap, how much of it is left, whether it is a dash.
typedef struct {
    int index, on;
    double left;
} dash_state;

/// Moves `state` on by `distance` along the pattern without drawing: whole periods at once (two
/// passes of an odd pattern, whose dashes and gaps swap each pass), then a step per dash or gap.
static void advance(dash_state *state, double distance, const double *dashes, int count, double total) {
    if (distance < state->left) {
        state->left -= distance;
        return;
    }
    distance -= state->left;
    state->index = (state->index + 1) % count;
    state->left = dashes[state->index];
    state->on = !state->on;
    distance = fmod(distance, (count % 2 ? 2 : 1) * total);
    while (distance >= state->left) {
        distance -= state->left;
        state->index = (state->index + 1) % count;
        state->left = dashes[state->index];
        state->on = !state->on;
    }
    state->left -= distance;
}

/// The join where a closed ring's last segment (along (tx, ty)) meets its first, at the first
/// segment's start.
static void close_ring(mc_coverage_mask *mask, const double *points, size_t first, double tx, double ty, double hw,
                       double blur) {
    double ax = points[2 * first], ay = points[2 * first + 1];
    double dx = points[2 * first + 2] - ax, dy = points[2 * first + 3] - ay;
    double length = sqrt(dx * dx + dy * dy);
    if (length > 0) add_join(mask, ax, ay, tx, ty, dx / length, dy / length, hw, blur);
}

void mc_coverage_mask_clear(mc_coverage_mask *mask) {
    if (!mask || !mask->data || mask->stride <= 0 || mask->height <= 0) return;
    memset(mask->data, 0, (size_t)mask->stride * (size_t)mask->height);
    mask->touched_x0 = mask->touched_y0 = mask->touched_x1 = mask->touched_y1 = 0;
}

int mc_line_coverage_add(mc_coverage_mask *mask, const double *points, size_t count, double half_width, double blur,
                         mc_line_cap cap, int ends, const double *dashes, int dash_count) {
    if (!mask || !mask->data || mask->width <= 0 || mask->height <= 0 || mask->stride < mask->width || !points
        || !(half_width > 0) || !isfinite(half_width) || !(blur >= 0) || !isfinite(blur) || dash_count < 0
        || (dash_count > 0 && !dashes)) {
        return -1;
    }
    double total = 0;
    for (int i = 0; i < dash_count; i++) {
        if (!(dashes[i] >= 0) || !isfinite(dashes[i])) return -1;
        total += dashes[i];
    }
    // A pattern shorter than a thousandth of a pixel would take a step per thousandth.
    if (dash_count > 0 && !(total >= 1e-3)) return -1;
    // Coordinates beyond a million billion pixels are no map's (and their differences could overflow).
    for (size_t i = 0; i < 2 * count; i++) {
        if (!(fabs(points[i]) <= 1e15)) return -1;
    }
    // Segments of no length are passed over: the first and last of the others carry the caps.
    size_t first = count, last = count;
    for (size_t i = 0; i + 1 < count; i++) {
        if (points[2 * i] != points[2 * i + 2] || points[2 * i + 1] != points[2 * i + 3]) {
            if (first == count) first = i;
            last = i;
        }
    }
    if (first == count) return 0;
    end_kind capped = cap == MC_CAP_ROUND ? END_ROUND : cap == MC_CAP_SQUARE ? END_SQUARE : END_FLAT;
    // Dashes run round a ring from its first point as round an open line.
    int closed = (ends & MC_CLOSED) != 0 && dash_count == 0;
    end_kind line_start = closed || (ends & MC_START_OPEN) ? END_OPEN : capped;
    end_kind line_end = closed || (ends & MC_END_OPEN) ? END_OPEN : capped;
    // Where the walk is in the dashes, and the corner a drawn piece ended at, whose join waits
    // for the next piece.
    dash_state pattern = {0, 1, dash_count > 0 ? dashes[0] : INFINITY};
    int joining = 0;
    double jx = 0, jy = 0, jtx = 0, jty = 0;
    double reach = half_width + 1;
    double left_edge = mask->origin_x - reach, right_edge = mask->origin_x + mask->width + reach;
    double top_edge = mask->origin_y - reach, bottom_edge = mask->origin_y + mask->height + reach;
    for (size_t i = first; i <= last; i++) {
        double ax = points[2 * i], ay = points[2 * i + 1], bx = points[2 * i + 2], by = points[2 * i + 3];
        double dx = bx - ax, dy = by - ay;
        double length = sqrt(dx * dx + dy * dy);
        if (!(length > 0)) continue;
        double tx = dx / length, ty = dy / length;
        int final = i == last;
        // The part of the segment near enough the mask to draw in it (Liang-Barsky), as distances along it.
        double from = 0, to = length;
        const double p[4] = {-tx, tx, -ty, ty};
        const double q[4] = {ax - left_edge, right_edge - ax, ay - top_edge, bottom_edge - ay};
        for (int k = 0; k < 4 && from <= to; k++) {
            if (p[k] == 0) {
                if (q[k] < 0) from = to + 1;
            } else if (p[k] < 0) {
                from = fmax(from, q[k] / p[k]);
            } else {
                to = fmin(to, q[k] / p[k]);
            }
        }
        if (from > to) {
            // Nothing of it drawn: the pattern moves on.
            joining = 0;
            if (dash_count > 0) advance(&pattern, length, dashes, dash_count, total);
            continue;
        }
        if (dash_count == 0) {
            if (joining) add_join(mask, jx, jy, jtx, jty, tx, ty, half_width, blur);
            add_piece(mask, ax, ay, bx, by, half_width, blur, i == first ? line_start : END_OPEN, final ? line_end : END_OPEN);
            joining = !final;
            jx = bx, jy = by, jtx = tx, jty = ty;
            if (final && closed) close_ring(mask, points, first, tx, ty, half_width, blur);
            continue;
        }
        // Far outside the mask the pattern only moves on; dashes are walked from the near part on.
        double at = 0;
        if (from > 0) {
            advance(&pattern, from, dashes, dash_count, total);
            at = from;
            joining = 0;
        }
        double stop = to < length ? to : length;
        while (1) {
            double step = stop - at < pattern.left ? stop - at : pattern.left;
            if (pattern.on) {
                // A dash begins where the walk entered it here; otherwise it goes on from the last
                // segment, round the corner.
                int begins = pattern.left == dashes[pattern.index];
                int finishes = step == pattern.left;
                if (!begins && at == 0 && joining) add_join(mask, jx, jy, jtx, jty, tx, ty, half_width, blur);
                double s = at / length, e = (at + step) / length;
                int reaches_end = at + step >= length;
                int at_start = i == first && at == 0, at_end = final && reaches_end;
                // A dash of no length is a dot where the caps have extent (add_piece draws none for butt caps).
                if (step > 0 || (begins && finishes)) {
                    add_piece(mask, ax + dx * s, ay + dy * s, ax + dx * e, ay + dy * e, half_width, blur,
                              at_start ? line_start : begins ? capped : END_OPEN,
                              at_end && !finishes ? line_end : finishes ? capped : END_OPEN);
                }
                joining = !finishes && reaches_end && !final;
                jx = bx, jy = by, jtx = tx, jty = ty;
            } else {
                joining = 0;
            }
            at += step;
            pattern.left -= step;
            if (pattern.left <= 0) {
                pattern.index = (pattern.index + 1) % dash_count;
                pattern.left = dashes[pattern.index];
                pattern.on = !pattern.on;
                continue;
            }
            if (at >= stop) break;
        }
        if (stop < length) {
            advance(&pattern, length - stop, dashes, dash_count, total);
            joining = 0;
        }
    }
    return 0;
}
