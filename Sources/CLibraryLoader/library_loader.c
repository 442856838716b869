// Loading a system library on first use (see library_loader.h).

#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>

int mc_library_load(const char *file, const char *purpose, const char *package, const char *const *names,
                    void **slots, size_t count, char *error, size_t errlen) {
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, errlen, "%s needs %s (Debian package %s), which cannot be loaded: %s", purpose, file, package,
                 dlerror());
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        slots[i] = dlsym(library, names[i]);
        if (!slots[i]) {
            snprintf(error, errlen, "%s has no %s: %s needs a newer one (Debian package %s)", file, names[i], purpose,
                     package);
            return -1;
        }
    }
    return 0;
}

int mc_library_outcome(const mc_library_state *state, char *errbuf, size_t errlen) {
    if (state->loaded) return 0;
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", state->error);
    return -1;
}
