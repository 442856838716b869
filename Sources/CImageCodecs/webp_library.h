// libwebp (libwebp.so.7), loaded with dlopen when the first WebP is read or written rather than
// at start-up, so a process that meets no WebP never maps it. Its types are those of libwebp's
// headers; every call goes through the loaded library, as mc_ followed by the function's name.
#ifndef MAPCOMPOSE_WEBP_LIBRARY_H
#define MAPCOMPOSE_WEBP_LIBRARY_H

#include <stddef.h>
#include <stdint.h>
#include "library_loader.h"

#define MC_WEBP_FUNCTIONS(FN, PROC)                                                                           \
    FN(int, WebPGetInfo, (const uint8_t *data, size_t size, int *width, int *height), (data, size, width, height)) \
    FN(uint8_t *, WebPDecodeBGRAInto, (const uint8_t *data, size_t size, uint8_t *out, size_t capacity, int stride), \
       (data, size, out, capacity, stride))                                                                   \
    FN(size_t, WebPEncodeRGBA, (const uint8_t *rgba, int width, int height, int stride, float quality, uint8_t **out), \
       (rgba, width, height, stride, quality, out))                                                           \
    FN(size_t, WebPEncodeLosslessRGBA, (const uint8_t *rgba, int width, int height, int stride, uint8_t **out), \
       (rgba, width, height, stride, out))                                                                    \
    PROC(WebPFree, (void *memory), (memory))

/// Loads libwebp once (thread-safe): 0 when it is ready, else -1 with a message naming the
/// library and the Debian package that has it. The calls below may be made only after a 0.
int mc_webp_load(char *errbuf, size_t errlen);

MC_LIBRARY_DECLARATIONS(MC_WEBP_FUNCTIONS)

#endif
