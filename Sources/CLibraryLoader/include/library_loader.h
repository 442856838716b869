// System libraries loaded with dlopen when first needed rather than linked, so a process that
// never needs one never maps it (and the libraries it brings): the shared step of
// CPangoLoader, CLibXML2Loader and the JPEG and WebP codecs of CImageCodecs.
#ifndef MAPCOMPOSE_LIBRARY_LOADER_H
#define MAPCOMPOSE_LIBRARY_LOADER_H

#include <pthread.h>
#include <stddef.h>

/// Opens `file` (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves `names[0..<count]` into `slots`
/// (symbols of the library and of those it depends on): 0 when all are found; else -1 with
/// `error` saying which was missing, that `purpose` needs the library, and which Debian
/// `package` has it.
int mc_library_load(const char *file, const char *purpose, const char *package, const char *const *names,
                    void **slots, size_t count, char *error, size_t errlen);

/// How a loader's one load went: run `load` with `pthread_once(&state.once, load)`, which sets
/// `loaded`, or `error` to why not.
typedef struct {
    pthread_once_t once;
    int loaded;
    char error[512];
} mc_library_state;

/// 0 when `state`'s library loaded; else -1 with its error copied into `errbuf`.
int mc_library_outcome(const mc_library_state *state, char *errbuf, size_t errlen);

// A loader lists the functions it calls as an X-macro, FUNCTIONS(FN, PROC): FN(return type,
// name, parameters, arguments) for those that return a value, PROC(name, parameters, arguments)
// for the rest. MC_LIBRARY_TABLE(FUNCTIONS) declares an index per function
// (mc_library_index_<name>), their names (mc_library_names) and the slots they are resolved into
// (mc_library_slots, mc_library_function_count of them); MC_LIBRARY_WRAPPERS(FUNCTIONS) defines
// mc_<name> for each, calling it through its slot.
#define MC_LIBRARY_INDEX_FN(type, name, parameters, arguments) mc_library_index_##name,
#define MC_LIBRARY_INDEX_PROC(name, parameters, arguments) mc_library_index_##name,
#define MC_LIBRARY_NAME_FN(type, name, parameters, arguments) #name,
#define MC_LIBRARY_NAME_PROC(name, parameters, arguments) #name,
#define MC_LIBRARY_TABLE(FUNCTIONS)                                                                    \
    enum { FUNCTIONS(MC_LIBRARY_INDEX_FN, MC_LIBRARY_INDEX_PROC) mc_library_function_count };         \
    static const char *const mc_library_names[] = {FUNCTIONS(MC_LIBRARY_NAME_FN, MC_LIBRARY_NAME_PROC)}; \
    static void *mc_library_slots[mc_library_function_count];

#define MC_LIBRARY_WRAP_FN(type, name, parameters, arguments) \
    type mc_##name parameters { return ((type(*) parameters)mc_library_slots[mc_library_index_##name]) arguments; }
#define MC_LIBRARY_WRAP_PROC(name, parameters, arguments) \
    void mc_##name parameters { ((void(*) parameters)mc_library_slots[mc_library_index_##name]) arguments; }
#define MC_LIBRARY_WRAPPERS(FUNCTIONS) FUNCTIONS(MC_LIBRARY_WRAP_FN, MC_LIBRARY_WRAP_PROC)

// MC_LIBRARY_LOADER(FUNCTIONS, load_name, file, purpose, package) defines a whole loader whose
// one step is loading `file` (see mc_library_load): the table, its state,
// `int load_name(char *errbuf, size_t errlen)`, which loads the library once (thread-safe) and
// returns 0 when it is ready, else -1 with why, and the wrappers.
#define MC_LIBRARY_LOADER(FUNCTIONS, load_name, file, purpose, package)                                        \
    MC_LIBRARY_TABLE(FUNCTIONS)                                                                                \
    static mc_library_state mc_library_loader_state = {.once = PTHREAD_ONCE_INIT};                            \
    static void mc_library_loader_load(void) {                                                                 \
        mc_library_loader_state.loaded =                                                                       \
            mc_library_load(file, purpose, package, mc_library_names, mc_library_slots, mc_library_function_count, \
                            mc_library_loader_state.error, sizeof mc_library_loader_state.error) == 0;          \
    }                                                                                                          \
    int load_name(char *errbuf, size_t errlen) {                                                               \
        pthread_once(&mc_library_loader_state.once, mc_library_loader_load);                                   \
        return mc_library_outcome(&mc_library_loader_state, errbuf, errlen);                                   \
    }                                                                                                          \
    MC_LIBRARY_WRAPPERS(FUNCTIONS)

// MC_LIBRARY_DECLARATIONS(FUNCTIONS) declares the wrappers, for a header.
#define MC_LIBRARY_DECLARE_FN(type, name, parameters, arguments) type mc_##name parameters;
#define MC_LIBRARY_DECLARE_PROC(name, parameters, arguments) void mc_##name parameters;
#define MC_LIBRARY_DECLARATIONS(FUNCTIONS) FUNCTIONS(MC_LIBRARY_DECLARE_FN, MC_LIBRARY_DECLARE_PROC)

#endif
