// Pango (with HarfBuzz, fribidi, GLib and GObject), loaded with dlopen when text is first set
// rather than at start-up: a process that draws no text never maps the seventeen libraries
// Pango brings. The types are Pango's public structures as its stable ABI lays them out, under
// names of their own (PangoLoaderLayoutTests checks each against Pango's headers); every call
// goes through the loaded library. fontconfig, which Cairo loads anyway, is linked directly.
#ifndef MAPCOMPOSE_PANGO_LOADER_H
#define MAPCOMPOSE_PANGO_LOADER_H

#include <fontconfig/fontconfig.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Cairo's types, as <cairo/cairo.h> declares them.
struct _cairo;
struct _cairo_font_options;

// Pango's objects, used through pointers only.
typedef struct mc_pango_font_map mc_pango_font_map;
typedef struct mc_pango_context mc_pango_context;
typedef struct mc_pango_layout mc_pango_layout;
typedef struct mc_pango_layout_iter mc_pango_layout_iter;
typedef struct mc_pango_font mc_pango_font;
typedef struct mc_pango_font_description mc_pango_font_description;
typedef struct mc_pango_attr_list mc_pango_attr_list;
typedef struct mc_pango_attribute mc_pango_attribute;

/// PangoRectangle, in Pango units.
typedef struct {
    int32_t x, y, width, height;
} mc_pango_rectangle;

/// PangoGlyphGeometry: the advance and offsets of a glyph, in Pango units.
typedef struct {
    int32_t width, x_offset, y_offset;
} mc_pango_glyph_geometry;

/// PangoGlyphInfo: a glyph id, its geometry and its visual attributes (PangoGlyphVisAttr, a
/// word of bit fields).
typedef struct {
    uint32_t glyph;
    mc_pango_glyph_geometry geometry;
    uint32_t attr;
} mc_pango_glyph_info;

/// PangoGlyphString: the glyphs of a run and, for each, the byte offset of its cluster.
typedef struct {
    int32_t num_glyphs;
    mc_pango_glyph_info *glyphs;
    int32_t *log_clusters;
    int32_t space;
} mc_pango_glyph_string;

/// PangoAnalysis: how an item is shaped (its font and bidi level among the rest).
typedef struct {
    void *shape_engine;
    void *lang_engine;
    mc_pango_font *font;
    uint8_t level;
    uint8_t gravity;
    uint8_t flags;
    uint8_t script;
    void *language;
    void *extra_attrs;
} mc_pango_analysis;

/// PangoItem: a stretch of text shaped in one font, script and direction.
typedef struct {
    int32_t offset, length, num_chars;
    mc_pango_analysis analysis;
} mc_pango_item;

/// PangoGlyphItem, which is PangoLayoutRun: an item and its glyphs.
typedef struct {
    mc_pango_item *item;
    mc_pango_glyph_string *glyphs;
    int32_t y_offset;
    int32_t start_x_offset;
    int32_t end_x_offset;
} mc_pango_layout_run;

#define MC_PANGO_SCALE 1024
#define MC_PANGO_WRAP_WORD 0
#define MC_PANGO_ALIGN_LEFT 0
#define MC_PANGO_ALIGN_CENTER 1
#define MC_PANGO_ALIGN_RIGHT 2
#define MC_PANGO_DIRECTION_RTL 1
#define MC_PANGO_WEIGHT_NORMAL 400
#define MC_PANGO_WEIGHT_BOLD 700
#define MC_PANGO_GRAVITY_SOUTH 0
#define MC_PANGO_GRAVITY_EAST 1

/// Loads Pango once (thread-safe): 0 when it is ready, else -1 with a message naming the
/// library and the Debian package that has it.
int mc_pango_load(char *errbuf, size_t errlen);

// The calls below may be made only once mc_pango_load returned 0. Each is the Pango, GLib or
// GObject function of the same name without the "mc_" prefix.

void mc_g_object_unref(void *object);
void mc_g_free(void *memory);

mc_pango_font_map *mc_pango_cairo_font_map_new(void);
mc_pango_context *mc_pango_font_map_create_context(mc_pango_font_map *font_map);
void mc_pango_cairo_context_set_font_options(mc_pango_context *context, const struct _cairo_font_options *options);
/// `gravity` a PangoGravity: MC_PANGO_GRAVITY_EAST for text set top to bottom.
void mc_pango_context_set_base_gravity(mc_pango_context *context, int gravity);

mc_pango_font_description *mc_pango_font_description_new(void);
void mc_pango_font_description_free(mc_pango_font_description *description);
void mc_pango_font_description_set_family(mc_pango_font_description *description, const char *family);
void mc_pango_font_description_set_weight(mc_pango_font_description *description, int weight);
void mc_pango_font_description_set_absolute_size(mc_pango_font_description *description, double size);
char *mc_pango_font_description_to_string(const mc_pango_font_description *description);
mc_pango_font_description *mc_pango_font_describe_with_absolute_size(mc_pango_font *font);

mc_pango_attr_list *mc_pango_attr_list_new(void);
void mc_pango_attr_list_unref(mc_pango_attr_list *list);
void mc_pango_attr_list_insert(mc_pango_attr_list *list, mc_pango_attribute *attribute);
mc_pango_attribute *mc_pango_attr_letter_spacing_new(int letter_spacing);
mc_pango_attribute *mc_pango_attr_line_height_new_absolute(int height);

mc_pango_layout *mc_pango_layout_new(mc_pango_context *context);
void mc_pango_layout_set_font_description(mc_pango_layout *layout, const mc_pango_font_description *description);
void mc_pango_layout_set_width(mc_pango_layout *layout, int width);
void mc_pango_layout_set_wrap(mc_pango_layout *layout, int wrap);
void mc_pango_layout_set_alignment(mc_pango_layout *layout, int alignment);
void mc_pango_layout_set_single_paragraph_mode(mc_pango_layout *layout, int setting);
void mc_pango_layout_set_attributes(mc_pango_layout *layout, mc_pango_attr_list *attributes);
void mc_pango_layout_set_text(mc_pango_layout *layout, const char *text, int length);
void mc_pango_layout_get_extents(mc_pango_layout *layout, mc_pango_rectangle *ink, mc_pango_rectangle *logical);
int mc_pango_layout_get_baseline(mc_pango_layout *layout);
int mc_pango_layout_get_line_count(mc_pango_layout *layout);
int mc_pango_layout_get_unknown_glyphs_count(mc_pango_layout *layout);
/// The direction (a PangoDirection) of the paragraph holding the byte at `index`.
int mc_pango_layout_get_direction(mc_pango_layout *layout, int index);
void mc_pango_layout_index_to_pos(mc_pango_layout *layout, int index, mc_pango_rectangle *position);

mc_pango_layout_iter *mc_pango_layout_get_iter(mc_pango_layout *layout);
void mc_pango_layout_iter_free(mc_pango_layout_iter *iterator);
mc_pango_layout_run *mc_pango_layout_iter_get_run_readonly(mc_pango_layout_iter *iterator);
void mc_pango_layout_iter_get_run_extents(mc_pango_layout_iter *iterator, mc_pango_rectangle *ink,
                                          mc_pango_rectangle *logical);
int mc_pango_layout_iter_next_run(mc_pango_layout_iter *iterator);

void mc_pango_cairo_layout_path(struct _cairo *cr, mc_pango_layout *layout);
void mc_pango_cairo_show_layout(struct _cairo *cr, mc_pango_layout *layout);
void mc_pango_cairo_glyph_string_path(struct _cairo *cr, mc_pango_font *font, mc_pango_glyph_string *glyphs);
void mc_pango_cairo_show_glyph_string(struct _cairo *cr, mc_pango_font *font, mc_pango_glyph_string *glyphs);

#ifdef __cplusplus
}
#endif

#endif
