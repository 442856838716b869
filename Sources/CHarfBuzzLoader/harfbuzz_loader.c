// HarfBuzz loaded with dlopen when a plain line of text is first set (see harfbuzz_loader.h).

#include "harfbuzz_loader.h"

#include "library_loader.h"

#include <pthread.h>

// Every function called through the loaded library, once: FN(return type, name, parameters,
// arguments) for those that return a value, PROC(name, parameters, arguments) for the rest.
#define MC_HARFBUZZ_FUNCTIONS(FN, PROC)                                                                      \
    FN(mc_hb_blob *, hb_blob_create_from_file, (const char *file_name), (file_name))                        \
    PROC(hb_blob_destroy, (mc_hb_blob * blob), (blob))                                                      \
    FN(unsigned int, hb_blob_get_length, (mc_hb_blob * blob), (blob))                                       \
    FN(mc_hb_face *, hb_face_create, (mc_hb_blob * blob, unsigned int index), (blob, index))                \
    PROC(hb_face_destroy, (mc_hb_face * face), (face))                                                      \
    FN(unsigned int, hb_ot_var_get_axis_count, (mc_hb_face * face), (face))                                 \
    FN(mc_hb_font *, hb_font_create, (mc_hb_face * face), (face))                                           \
    PROC(hb_font_destroy, (mc_hb_font * font), (font))                                                      \
    PROC(hb_font_set_scale, (mc_hb_font * font, int x_scale, int y_scale), (font, x_scale, y_scale))        \
    PROC(hb_font_set_ptem, (mc_hb_font * font, float ptem), (font, ptem))                                   \
    PROC(hb_font_get_h_extents, (mc_hb_font * font, mc_hb_font_extents * extents), (font, extents))         \
    FN(mc_hb_language, hb_language_from_string, (const char *text, int length), (text, length))            \
    FN(mc_hb_buffer *, hb_buffer_create, (void), ())                                                        \
    PROC(hb_buffer_destroy, (mc_hb_buffer * buffer), (buffer))                                              \
    PROC(hb_buffer_set_direction, (mc_hb_buffer * buffer, int direction), (buffer, direction))              \
    PROC(hb_buffer_set_script, (mc_hb_buffer * buffer, uint32_t script), (buffer, script))                  \
    PROC(hb_buffer_set_language, (mc_hb_buffer * buffer, mc_hb_language language), (buffer, language))     \
    PROC(hb_buffer_set_cluster_level, (mc_hb_buffer * buffer, int cluster_level), (buffer, cluster_level))  \
    PROC(hb_buffer_set_flags, (mc_hb_buffer * buffer, unsigned int flags), (buffer, flags))                 \
    PROC(hb_buffer_add_utf8,                                                                                \
         (mc_hb_buffer * buffer, const char *text, int text_length, unsigned int item_offset, int item_length), \
         (buffer, text, text_length, item_offset, item_length))                                             \
    PROC(hb_shape, (mc_hb_font * font, mc_hb_buffer * buffer, const void *features, unsigned int num_features), \
         (font, buffer, features, num_features))                                                            \
    FN(unsigned int, hb_buffer_get_length, (mc_hb_buffer * buffer), (buffer))                               \
    FN(mc_hb_glyph_info *, hb_buffer_get_glyph_infos, (mc_hb_buffer * buffer, unsigned int *length),        \
       (buffer, length))                                                                                    \
    FN(mc_hb_glyph_position *, hb_buffer_get_glyph_positions, (mc_hb_buffer * buffer, unsigned int *length), \
       (buffer, length))

MC_LIBRARY_LOADER(MC_HARFBUZZ_FUNCTIONS, mc_harfbuzz_load, "libharfbuzz.so.0", "text", "libharfbuzz0b")
