// libwebp loaded with dlopen when the first WebP is read or written (see webp_library.h).

#include "webp_library.h"

#include <pthread.h>

MC_LIBRARY_TABLE(MC_WEBP_FUNCTIONS)
static mc_library_state state = {.once = PTHREAD_ONCE_INIT};

static void load(void) {
    state.loaded = mc_library_load("libwebp.so.7", "reading or writing WebP", "libwebp7", mc_library_names,
                                   mc_library_slots, mc_library_function_count, state.error, sizeof state.error) == 0;
}

int mc_webp_load(char *errbuf, size_t errlen) {
    pthread_once(&state.once, load);
    return mc_library_outcome(&state, errbuf, errlen);
}

MC_LIBRARY_WRAPPERS(MC_WEBP_FUNCTIONS)
