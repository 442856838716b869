// libjpeg loaded with dlopen when the first JPEG is read or written (see jpeg_library.h).

#include "jpeg_library.h"

MC_LIBRARY_LOADER(MC_JPEG_FUNCTIONS, mc_jpeg_load, "libjpeg.so.62", "reading or writing JPEG", "libjpeg62-turbo")
