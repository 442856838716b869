// libwebp loaded with dlopen when the first WebP is read or written (see webp_library.h).

#include "webp_library.h"

MC_LIBRARY_LOADER(MC_WEBP_FUNCTIONS, mc_webp_load, "libwebp.so.7", "reading or writing WebP", "libwebp7")
