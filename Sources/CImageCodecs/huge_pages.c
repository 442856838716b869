// Huge pages for large pixel buffers: one page fault per 2 MiB instead of one per 4 KiB.

#include "image_codecs.h"

#include <stdint.h>
#include <sys/mman.h>

void mc_advise_huge_pages(void *buffer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(huge - 1);
    // A hint: where the kernel cannot or will not, the buffer simply keeps small pages.
    if (buffer && end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)length;
#endif
}
