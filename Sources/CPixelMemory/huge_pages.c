// Huge pages for large pixel buffers: one page fault per 2 MiB instead of one per 4 KiB.

#include "pixel_memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2 << 20 };

void mc_advise_huge_pages(void *buffer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t start = ((uintptr_t)buffer + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(uintptr_t)(HUGE_PAGE - 1);
    // A hint: where the kernel cannot or will not, the buffer simply keeps small pages.
    if (buffer && end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)length;
#endif
}

struct mc_huge_buffer {
    void *bytes;
    size_t length;   // of the mapping, a multiple of the huge page size
};

size_t mc_huge_pages_length(size_t length) { return (length + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

void *mc_huge_pages_map(size_t length) {
    if (length == 0 || length > SIZE_MAX - 2 * (size_t)HUGE_PAGE) return NULL;
    size_t rounded = mc_huge_pages_length(length);
    // Mapped with a huge page to spare, then trimmed to a 2 MiB-aligned start.
    uint8_t *mapping = mmap(NULL, rounded + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return NULL;
    uint8_t *start = (uint8_t *)(((uintptr_t)mapping + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > mapping) munmap(mapping, (size_t)(start - mapping));
    size_t tail = (size_t)(mapping + rounded + HUGE_PAGE - (start + rounded));
    if (tail > 0) munmap(start + rounded, tail);
    mc_advise_huge_pages(start, rounded);
    return start;
}

mc_huge_buffer *mc_huge_buffer_create(size_t length) {
    mc_huge_buffer *buffer = malloc(sizeof *buffer);
    if (!buffer) return NULL;
    buffer->bytes = mc_huge_pages_map(length);
    buffer->length = mc_huge_pages_length(length);
    if (!buffer->bytes) {
        free(buffer);
        return NULL;
    }
    return buffer;
}

void *mc_huge_buffer_bytes(const mc_huge_buffer *buffer) { return buffer->bytes; }

void mc_huge_buffer_destroy(void *buffer) {
    mc_huge_buffer *owned = buffer;
    if (!owned) return;
    munmap(owned->bytes, owned->length);
    free(owned);
}
