// The deflate the PNG writer uses, under zlib-ng's names: zlib-ng when its header is on the
// include path (pkg-config found zlib-ng.pc, see Sources/CZlibNG), zlib otherwise.
#ifndef MC_DEFLATE_BACKEND_H
#define MC_DEFLATE_BACKEND_H

#if __has_include(<zlib-ng.h>)
#include <zlib-ng.h>
#define MC_DEFLATE_NAME "zlib-ng"
#else
#define ZLIB_CONST
#include <zlib.h>
#define MC_DEFLATE_NAME "zlib"
typedef z_stream zng_stream;
#define zng_deflateInit2 deflateInit2
#define zng_deflateReset deflateReset
#define zng_deflateParams deflateParams
#define zng_deflateSetDictionary deflateSetDictionary
#define zng_deflateBound deflateBound
#define zng_deflate deflate
#define zng_deflateEnd deflateEnd
#define zng_zError zError
#define zng_adler32_combine(a, b, length) adler32_combine((a), (b), (z_off_t)(length))
#endif

#endif
