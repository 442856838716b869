// libjpeg loaded with dlopen when the first JPEG is read or written (see jpeg_library.h).

#include "jpeg_library.h"

#include <pthread.h>

MC_LIBRARY_TABLE(MC_JPEG_FUNCTIONS)
static mc_library_state state = {.once = PTHREAD_ONCE_INIT};

static void load(void) {
    state.loaded = mc_library_load("libjpeg.so.62", "reading or writing JPEG", "libjpeg62-turbo", mc_library_names,
                                   mc_library_slots, mc_library_function_count, state.error, sizeof state.error) == 0;
}

int mc_jpeg_load(char *errbuf, size_t errlen) {
    pthread_once(&state.once, load);
    return mc_library_outcome(&state, errbuf, errlen);
}

MC_LIBRARY_WRAPPERS(MC_JPEG_FUNCTIONS)
