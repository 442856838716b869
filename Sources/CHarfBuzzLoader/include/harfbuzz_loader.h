// HarfBuzz alone, loaded with dlopen when a plain line of text is first set (see
// Sources/MapComposeCore/Compose/Text/PlainTextLine.swift): shaping a line in one font needs
// neither Pango nor the libraries Pango brings, so a map whose text is all plain never maps
// them. The types are HarfBuzz's public structures as its stable ABI lays them out, under names
// of their own (HarfBuzzLoaderLayoutTests checks each against HarfBuzz's headers); every call
// goes through the loaded library.
#ifndef MAPCOMPOSE_HARFBUZZ_LOADER_H
#define MAPCOMPOSE_HARFBUZZ_LOADER_H

#include <fontconfig/fontconfig.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// HarfBuzz's objects, used through pointers only.
typedef struct mc_hb_blob mc_hb_blob;
typedef struct mc_hb_face mc_hb_face;
typedef struct mc_hb_font mc_hb_font;
typedef struct mc_hb_buffer mc_hb_buffer;
typedef const struct mc_hb_language_impl *mc_hb_language;

/// hb_glyph_info_t: a glyph id (after shaping) and the cluster it belongs to.
typedef struct {
    uint32_t codepoint;
    uint32_t mask;
    uint32_t cluster;
    uint32_t var1, var2;
} mc_hb_glyph_info;

/// hb_glyph_position_t: a glyph's advance and offsets, in the font's scale.
typedef struct {
    int32_t x_advance, y_advance;
    int32_t x_offset, y_offset;
    uint32_t var;
} mc_hb_glyph_position;

/// hb_font_extents_t: the font's ascender, descender and line gap, in the font's scale.
typedef struct {
    int32_t ascender, descender, line_gap;
    int32_t reserved9, reserved8, reserved7, reserved6, reserved5, reserved4, reserved3, reserved2, reserved1;
} mc_hb_font_extents;

#define MC_HB_DIRECTION_LTR 4
#define MC_HB_BUFFER_FLAG_BOT 1
#define MC_HB_BUFFER_FLAG_EOT 2
#define MC_HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS 1
/// HB_SCRIPT_LATIN and HB_SCRIPT_COMMON, ISO 15924 tags as HarfBuzz spells them.
#define MC_HB_SCRIPT_LATIN 0x4C61746EU
#define MC_HB_SCRIPT_COMMON 0x5A797979U

/// Loads HarfBuzz (once; thread-safe): 0 when it is ready, else -1 with why in `errbuf`.
int mc_harfbuzz_load(char *errbuf, size_t errlen);

mc_hb_blob *mc_hb_blob_create_from_file(const char *file_name);
void mc_hb_blob_destroy(mc_hb_blob *blob);
unsigned int mc_hb_blob_get_length(mc_hb_blob *blob);
mc_hb_face *mc_hb_face_create(mc_hb_blob *blob, unsigned int index);
void mc_hb_face_destroy(mc_hb_face *face);
unsigned int mc_hb_ot_var_get_axis_count(mc_hb_face *face);
mc_hb_font *mc_hb_font_create(mc_hb_face *face);
void mc_hb_font_destroy(mc_hb_font *font);
void mc_hb_font_set_scale(mc_hb_font *font, int x_scale, int y_scale);
void mc_hb_font_set_ptem(mc_hb_font *font, float ptem);
void mc_hb_font_get_h_extents(mc_hb_font *font, mc_hb_font_extents *extents);
mc_hb_language mc_hb_language_from_string(const char *text, int length);
mc_hb_buffer *mc_hb_buffer_create(void);
void mc_hb_buffer_destroy(mc_hb_buffer *buffer);
void mc_hb_buffer_set_direction(mc_hb_buffer *buffer, int direction);
void mc_hb_buffer_set_script(mc_hb_buffer *buffer, uint32_t script);
void mc_hb_buffer_set_language(mc_hb_buffer *buffer, mc_hb_language language);
void mc_hb_buffer_set_cluster_level(mc_hb_buffer *buffer, int cluster_level);
void mc_hb_buffer_set_flags(mc_hb_buffer *buffer, unsigned int flags);
void mc_hb_buffer_add_utf8(mc_hb_buffer *buffer, const char *text, int text_length, unsigned int item_offset,
                           int item_length);
void mc_hb_shape(mc_hb_font *font, mc_hb_buffer *buffer, const void *features, unsigned int num_features);
unsigned int mc_hb_buffer_get_length(mc_hb_buffer *buffer);
mc_hb_glyph_info *mc_hb_buffer_get_glyph_infos(mc_hb_buffer *buffer, unsigned int *length);
mc_hb_glyph_position *mc_hb_buffer_get_glyph_positions(mc_hb_buffer *buffer, unsigned int *length);

// Cairo's FreeType font functions, as <cairo/cairo-ft.h> declares them (that header needs
// FreeType's include path); they are Cairo's own, linked with it.
struct _cairo_font_face;
struct _cairo_font_options;

/// cairo_ft_font_face_create_for_pattern: a Cairo font face for the font `pattern` names (a
/// pattern fontconfig matched), loaded when first used.
struct _cairo_font_face *cairo_ft_font_face_create_for_pattern(FcPattern *pattern);
/// cairo_ft_font_options_substitute: adds `options`' anti-aliasing and hinting to `pattern`
/// where the pattern has none, as Pango Cairo does before fontconfig's default substitutions.
void cairo_ft_font_options_substitute(const struct _cairo_font_options *options, FcPattern *pattern);

#ifdef __cplusplus
}
#endif

#endif
