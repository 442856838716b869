// Huge pages for large pixel buffers: one page fault per 2 MiB instead of one per 4 KiB while
// huge pages are cheap to fill, and released buffers reused.

#include "pixel_memory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <time.h>

enum { HUGE_PAGE = 2 << 20 };

// Whether huge pages are still asked for. Where the host takes back memory the guest frees
// (free page reporting on a virtual machine), a huge page first touched after an idle moment is
// the host's to supply again and costs several times the 512 small pages it replaces; right
// after another process freed it, it costs a fraction of them. So the first huge page of each
// mapping is touched at once and timed: one that takes longer than `patience_ns` turns the
// advice off for the rest of the process, and the rest of that mapping gets small pages.
static _Atomic int huge_pages_refused;
static _Atomic long long patience_ns = MC_HUGE_PAGE_PATIENCE_NS;

static long long monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

void mc_huge_pages_set_patience(long long nanoseconds) {
    atomic_store(&patience_ns, nanoseconds);
    atomic_store(&huge_pages_refused, 0);
}

int mc_huge_pages_advised(void) { return !atomic_load(&huge_pages_refused); }

void mc_advise_huge_pages(void *buffer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (atomic_load_explicit(&huge_pages_refused, memory_order_relaxed)) return;
    uintptr_t start = ((uintptr_t)buffer + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(uintptr_t)(HUGE_PAGE - 1);
    // A hint: where the kernel cannot or will not, the buffer simply keeps small pages.
    if (buffer && end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)length;
#endif
}

/// Touches the first 2 MiB of `start` (advised as huge pages, not yet touched) and, when that
/// took longer than the patience, stops advising huge pages and gives the rest of the `length`
/// bytes small pages.
static void time_first_huge_page(uint8_t *start, size_t length) {
#if defined(__linux__) && defined(MADV_NOHUGEPAGE)
    if (atomic_load_explicit(&huge_pages_refused, memory_order_relaxed)) return;
    long long began = monotonic_ns();
    *(volatile uint8_t *)start = 0;
    if (monotonic_ns() - began <= atomic_load_explicit(&patience_ns, memory_order_relaxed)) return;
    atomic_store_explicit(&huge_pages_refused, 1, memory_order_relaxed);
    if (length > HUGE_PAGE) madvise(start + HUGE_PAGE, length - HUGE_PAGE, MADV_NOHUGEPAGE);
#else
    (void)start;
    (void)length;
#endif
}

struct mc_huge_buffer {
    void *bytes;
    size_t length;   // of the mapping, a multiple of the huge page size
    int reused;      // handed out before: its bytes are an earlier user's
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
    time_first_huge_page(start, rounded);
    return start;
}

// Released buffers kept for the next of their size (a render's strips, the mosaics and slabs
// of its layers, the next map of a batch), so that memory already mapped and touched is filled
// again instead of new pages: a new page costs a fault, and on a virtual machine whose host
// takes back free memory it costs far more. At most SPARE_BYTES are kept, in at most
// SPARE_COUNT buffers; beyond that a released buffer is unmapped.
enum { SPARE_COUNT = 16 };
static const size_t SPARE_BYTES = (size_t)64 << 20;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_huge_buffer *spares[SPARE_COUNT];
static int spare_count;
static size_t spare_bytes;

/// The smallest spare of at least `length` bytes and at most twice that, taken off the list;
/// NULL when there is none.
static mc_huge_buffer *take_spare(size_t length) {
    pthread_mutex_lock(&spare_lock);
    int best = -1;
    for (int i = 0; i < spare_count; i++) {
        size_t have = spares[i]->length;
        if (have >= length && have / 2 <= length && (best < 0 || have < spares[best]->length)) best = i;
    }
    mc_huge_buffer *buffer = NULL;
    if (best >= 0) {
        buffer = spares[best];
        spares[best] = spares[--spare_count];
        spare_bytes -= buffer->length;
    }
    pthread_mutex_unlock(&spare_lock);
    return buffer;
}

mc_huge_buffer *mc_huge_buffer_create(size_t length) {
    mc_huge_buffer *buffer = mc_huge_buffer_create_unzeroed(length);
    // A reused buffer holds the last image's pixels: new images start transparent.
    if (buffer && buffer->reused) memset(buffer->bytes, 0, length);
    return buffer;
}

mc_huge_buffer *mc_huge_buffer_create_unzeroed(size_t length) {
    if (length == 0 || length > SIZE_MAX - 2 * (size_t)HUGE_PAGE) return NULL;
    mc_huge_buffer *spare = take_spare(mc_huge_pages_length(length));
    if (spare) {
        spare->reused = 1;
        return spare;
    }
    mc_huge_buffer *buffer = malloc(sizeof *buffer);
    if (!buffer) return NULL;
    buffer->bytes = mc_huge_pages_map(length);
    buffer->length = mc_huge_pages_length(length);
    buffer->reused = 0;
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
    pthread_mutex_lock(&spare_lock);
    int kept = spare_count < SPARE_COUNT && owned->length <= SPARE_BYTES - spare_bytes;
    if (kept) {
        spares[spare_count++] = owned;
        spare_bytes += owned->length;
    }
    pthread_mutex_unlock(&spare_lock);
    if (kept) return;
    munmap(owned->bytes, owned->length);
    free(owned);
}

void mc_huge_buffer_drop_spares(void) {
    pthread_mutex_lock(&spare_lock);
    mc_huge_buffer *dropped[SPARE_COUNT];
    int count = spare_count;
    memcpy(dropped, spares, sizeof(mc_huge_buffer *) * (size_t)count);
    spare_count = 0;
    spare_bytes = 0;
    pthread_mutex_unlock(&spare_lock);
    for (int i = 0; i < count; i++) {
        munmap(dropped[i]->bytes, dropped[i]->length);
        free(dropped[i]);
    }
}

size_t mc_huge_buffer_spare_bytes(void) {
    pthread_mutex_lock(&spare_lock);
    size_t bytes = spare_bytes;
    pthread_mutex_unlock(&spare_lock);
    return bytes;
}
