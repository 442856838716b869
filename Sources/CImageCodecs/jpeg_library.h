// libjpeg (libjpeg-turbo's libjpeg.so.62), loaded with dlopen when the first JPEG is read or
// written rather than at start-up, so a process that meets no JPEG never maps it. Its types are
// those of jpeglib.h; every call goes through the loaded library, as mc_ followed by the
// function's name (jpeg_create_decompress and jpeg_create_compress are macros of
// jpeg_CreateDecompress and jpeg_CreateCompress).
#ifndef MAPCOMPOSE_JPEG_LIBRARY_H
#define MAPCOMPOSE_JPEG_LIBRARY_H

#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include "library_loader.h"

#define MC_JPEG_FUNCTIONS(FN, PROC)                                                                         \
    FN(struct jpeg_error_mgr *, jpeg_std_error, (struct jpeg_error_mgr * err), (err))                     \
    PROC(jpeg_CreateDecompress, (j_decompress_ptr cinfo, int version, size_t size), (cinfo, version, size)) \
    PROC(jpeg_destroy_decompress, (j_decompress_ptr cinfo), (cinfo))                                        \
    PROC(jpeg_mem_src, (j_decompress_ptr cinfo, const unsigned char *buffer, unsigned long size),          \
         (cinfo, buffer, size))                                                                             \
    FN(int, jpeg_read_header, (j_decompress_ptr cinfo, boolean image), (cinfo, image))                      \
    FN(boolean, jpeg_start_decompress, (j_decompress_ptr cinfo), (cinfo))                                   \
    FN(JDIMENSION, jpeg_read_scanlines, (j_decompress_ptr cinfo, JSAMPARRAY rows, JDIMENSION count),        \
       (cinfo, rows, count))                                                                                \
    FN(boolean, jpeg_finish_decompress, (j_decompress_ptr cinfo), (cinfo))                                  \
    PROC(jpeg_CreateCompress, (j_compress_ptr cinfo, int version, size_t size), (cinfo, version, size))     \
    PROC(jpeg_destroy_compress, (j_compress_ptr cinfo), (cinfo))                                            \
    PROC(jpeg_set_defaults, (j_compress_ptr cinfo), (cinfo))                                                \
    PROC(jpeg_set_quality, (j_compress_ptr cinfo, int quality, boolean baseline), (cinfo, quality, baseline)) \
    PROC(jpeg_start_compress, (j_compress_ptr cinfo, boolean tables), (cinfo, tables))                      \
    FN(JDIMENSION, jpeg_write_scanlines, (j_compress_ptr cinfo, JSAMPARRAY rows, JDIMENSION count),         \
       (cinfo, rows, count))                                                                                \
    PROC(jpeg_finish_compress, (j_compress_ptr cinfo), (cinfo))

/// Loads libjpeg once (thread-safe): 0 when it is ready, else -1 with a message naming the
/// library and the Debian package that has it. The calls below may be made only after a 0.
int mc_jpeg_load(char *errbuf, size_t errlen);

MC_LIBRARY_DECLARATIONS(MC_JPEG_FUNCTIONS)

#endif
