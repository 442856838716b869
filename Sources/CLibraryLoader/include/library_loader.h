// System libraries loaded with dlopen when first needed rather than linked, so a process that
// never needs one never maps it (and the libraries it brings): the shared step of
// CPangoLoader and CLibXML2Loader.
#ifndef MAPCOMPOSE_LIBRARY_LOADER_H
#define MAPCOMPOSE_LIBRARY_LOADER_H

#include <stddef.h>

/// Opens `file` (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves `names[0..<count]` into `slots`
/// (symbols of the library and of those it depends on): 0 when all are found; else -1 with
/// `error` saying which was missing, that `purpose` needs the library, and which Debian
/// `package` has it.
int mc_library_load(const char *file, const char *purpose, const char *package, const char *const *names,
                    void **slots, size_t count, char *error, size_t errlen);

#endif
