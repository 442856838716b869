// Pango loaded with dlopen when text is first set (see pango_loader.h).

#include "pango_loader.h"

#include "library_loader.h"

#include <pthread.h>

// Every function called through the loaded library, once: FN(return type, name, parameters,
// arguments) for those that return a value, PROC(name, parameters, arguments) for the rest.
#define MC_PANGO_FUNCTIONS(FN, PROC)                                                                        \
    PROC(g_object_unref, (void *object), (object))                                                          \
    PROC(g_free, (void *memory), (memory))                                                                  \
    FN(mc_pango_font_map *, pango_cairo_font_map_new, (void), ())                                          \
    FN(mc_pango_context *, pango_font_map_create_context, (mc_pango_font_map * font_map), (font_map))      \
    PROC(pango_cairo_context_set_font_options,                                                              \
         (mc_pango_context * context, const struct _cairo_font_options *options), (context, options))       \
    PROC(pango_context_set_base_gravity, (mc_pango_context * context, int gravity), (context, gravity))      \
    FN(mc_pango_font_description *, pango_font_description_new, (void), ())                                \
    PROC(pango_font_description_free, (mc_pango_font_description * description), (description))             \
    PROC(pango_font_description_set_family, (mc_pango_font_description * description, const char *family),  \
         (description, family))                                                                              \
    PROC(pango_font_description_set_weight, (mc_pango_font_description * description, int weight),          \
         (description, weight))                                                                              \
    PROC(pango_font_description_set_absolute_size, (mc_pango_font_description * description, double size),  \
         (description, size))                                                                                \
    FN(char *, pango_font_description_to_string, (const mc_pango_font_description *description),          \
       (description))                                                                                        \
    FN(mc_pango_font_description *, pango_font_describe_with_absolute_size, (mc_pango_font * font), (font)) \
    FN(mc_pango_attr_list *, pango_attr_list_new, (void), ())                                              \
    PROC(pango_attr_list_unref, (mc_pango_attr_list * list), (list))                                        \
    PROC(pango_attr_list_insert, (mc_pango_attr_list * list, mc_pango_attribute *attribute), (list, attribute)) \
    FN(mc_pango_attribute *, pango_attr_letter_spacing_new, (int letter_spacing), (letter_spacing))        \
    FN(mc_pango_attribute *, pango_attr_line_height_new_absolute, (int height), (height))                  \
    FN(mc_pango_layout *, pango_layout_new, (mc_pango_context * context), (context))                       \
    PROC(pango_layout_set_font_description,                                                                 \
         (mc_pango_layout * layout, const mc_pango_font_description *description), (layout, description))   \
    PROC(pango_layout_set_width, (mc_pango_layout * layout, int width), (layout, width))                    \
    PROC(pango_layout_set_wrap, (mc_pango_layout * layout, int wrap), (layout, wrap))                       \
    PROC(pango_layout_set_alignment, (mc_pango_layout * layout, int alignment), (layout, alignment))        \
    PROC(pango_layout_set_single_paragraph_mode, (mc_pango_layout * layout, int setting), (layout, setting)) \
    PROC(pango_layout_set_attributes, (mc_pango_layout * layout, mc_pango_attr_list * attributes),          \
         (layout, attributes))                                                                               \
    PROC(pango_layout_set_text, (mc_pango_layout * layout, const char *text, int length), (layout, text, length)) \
    PROC(pango_layout_get_extents, (mc_pango_layout * layout, mc_pango_rectangle * ink, mc_pango_rectangle * logical), \
         (layout, ink, logical))                                                                             \
    FN(int, pango_layout_get_baseline, (mc_pango_layout * layout), (layout))                               \
    FN(int, pango_layout_get_line_count, (mc_pango_layout * layout), (layout))                             \
    FN(int, pango_layout_get_unknown_glyphs_count, (mc_pango_layout * layout), (layout))                   \
    FN(int, pango_layout_get_direction, (mc_pango_layout * layout, int index), (layout, index))            \
    PROC(pango_layout_index_to_pos, (mc_pango_layout * layout, int index, mc_pango_rectangle *position),    \
         (layout, index, position))                                                                          \
    FN(mc_pango_layout_iter *, pango_layout_get_iter, (mc_pango_layout * layout), (layout))                \
    PROC(pango_layout_iter_free, (mc_pango_layout_iter * iterator), (iterator))                             \
    FN(mc_pango_layout_run *, pango_layout_iter_get_run_readonly, (mc_pango_layout_iter * iterator), (iterator)) \
    PROC(pango_layout_iter_get_run_extents,                                                                 \
         (mc_pango_layout_iter * iterator, mc_pango_rectangle * ink, mc_pango_rectangle * logical),         \
         (iterator, ink, logical))                                                                           \
    FN(int, pango_layout_iter_next_run, (mc_pango_layout_iter * iterator), (iterator))                     \
    PROC(pango_cairo_layout_path, (struct _cairo * cr, mc_pango_layout * layout), (cr, layout))             \
    PROC(pango_cairo_show_layout, (struct _cairo * cr, mc_pango_layout * layout), (cr, layout))             \
    PROC(pango_cairo_glyph_string_path, (struct _cairo * cr, mc_pango_font * font, mc_pango_glyph_string * glyphs), \
         (cr, font, glyphs))                                                                                 \
    PROC(pango_cairo_show_glyph_string, (struct _cairo * cr, mc_pango_font * font, mc_pango_glyph_string * glyphs), \
         (cr, font, glyphs))

// Pango Cairo brings Pango, GLib and GObject, whose symbols dlsym finds through it.
MC_LIBRARY_LOADER(MC_PANGO_FUNCTIONS, mc_pango_load, "libpangocairo-1.0.so.0", "text", "libpangocairo-1.0-0")
