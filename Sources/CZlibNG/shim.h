// zlib-ng, when pkg-config finds zlib-ng.pc (its include and library flags then reach the
// targets that depend on this one). Without it the PNG writer deflates with zlib.
#if __has_include(<zlib-ng.h>)
#include <zlib-ng.h>
#endif
