// Huge pages made ready ahead of time: a render knows the size of its map from its arguments,
// long before it draws, and the kernel takes milliseconds to clear the map's pages (about 5 ms
// of CPU for a 2048x2048 map here). One thread maps and faults them in while the render reads
// its style on another core; the map's mc_huge_buffer_create then takes them.

#include "image_codecs.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

enum { SMALL_PAGE = 4096 };

// The one preparation there can be at a time: its thread, the length asked for and, once the
// thread is joined, the memory (NULL if it could not be had). Guarded by `lock`.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t preparer;
static int preparing;
static size_t prepared_length;
static void *prepared_start;

/// Maps the pages and writes a zero to each, which faults each in, cleared by the kernel.
static void *fault_in(void *unused) {
    (void)unused;
    uint8_t *start = mc_huge_pages_map(prepared_length);
    if (start) {
        size_t mapped = mc_huge_pages_length(prepared_length);
        for (size_t offset = 0; offset < mapped; offset += SMALL_PAGE) ((volatile uint8_t *)start)[offset] = 0;
    }
    prepared_start = start;
    return NULL;
}

void mc_huge_pages_prepare(size_t length) {
    pthread_mutex_lock(&lock);
    if (!preparing && length > 0) {
        prepared_length = length;
        preparing = pthread_create(&preparer, NULL, fault_in, NULL) == 0;
    }
    pthread_mutex_unlock(&lock);
}

void *mc_huge_pages_take_prepared(size_t length) {
    void *start = NULL;
    pthread_mutex_lock(&lock);
    if (preparing && length == prepared_length) {
        pthread_join(preparer, NULL);
        preparing = 0;
        start = prepared_start;
    }
    pthread_mutex_unlock(&lock);
    return start;
}

int mc_huge_pages_prepared_pending(void) {
    pthread_mutex_lock(&lock);
    int pending = preparing;
    pthread_mutex_unlock(&lock);
    return pending;
}

void mc_huge_pages_discard_prepared(void) {
    pthread_mutex_lock(&lock);
    if (preparing) {
        pthread_join(preparer, NULL);
        preparing = 0;
        if (prepared_start) munmap(prepared_start, mc_huge_pages_length(prepared_length));
    }
    pthread_mutex_unlock(&lock);
}
