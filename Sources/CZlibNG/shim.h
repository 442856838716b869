#include <zlib-ng.h>
