// Huge pages made ready ahead of time: a render knows the size of its map from its arguments,
// long before it draws, and the kernel takes milliseconds to clear the map's pages (about 5 ms
// of CPU for a 2048x2048 map here). One thread maps and faults them in while the render reads
// its style on another core; the map's mc_huge_buffer_create then takes them.

#include "image_codecs.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { SMALL_PAGE = 4096 };

/// One preparation: its thread, the length asked for, and the memory its thread made ready
/// (NULL if it could not be had), read only after the thread is joined. A preparation given up
/// while its thread runs (`abandoned`) is released by that thread, which stops early.
typedef struct {
    pthread_t thread;
    size_t length;
    void *start;
    int finished, abandoned;  // under `lock`
} preparation;

// The preparation waiting to be taken, if any; one at a time.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static preparation *waiting;

enum { HUGE_PAGE = 2 << 20 };

static int is_abandoned(preparation *p) {
    pthread_mutex_lock(&lock);
    int abandoned = p->abandoned;
    pthread_mutex_unlock(&lock);
    return abandoned;
}

/// Maps the pages and writes a zero to each, which faults each in, cleared by the kernel; stops
/// at the next huge page once the preparation is abandoned, and then releases it.
static void *fault_in(void *argument) {
    preparation *p = argument;
    uint8_t *start = mc_huge_pages_map(p->length);
    size_t mapped = mc_huge_pages_length(p->length);
    if (start) {
        for (size_t offset = 0; offset < mapped; offset += SMALL_PAGE) {
            if (offset % HUGE_PAGE == 0 && is_abandoned(p)) break;
            ((volatile uint8_t *)start)[offset] = 0;
        }
    }
    pthread_mutex_lock(&lock);
    p->start = start;
    p->finished = 1;
    int abandoned = p->abandoned;
    pthread_mutex_unlock(&lock);
    if (abandoned) {
        if (start) munmap(start, mapped);
        free(p);
    }
    return NULL;
}

void mc_huge_pages_prepare(size_t length) {
    if (length == 0) return;
    pthread_mutex_lock(&lock);
    if (!waiting) {
        preparation *p = malloc(sizeof *p);
        if (p) {
            p->length = length;
            p->start = NULL;
            p->finished = 0;
            p->abandoned = 0;
            if (pthread_create(&p->thread, NULL, fault_in, p) == 0) {
                waiting = p;
            } else {
                free(p);
            }
        }
    }
    pthread_mutex_unlock(&lock);
}

/// Takes the waiting preparation if it is of `length` and waits for its thread, outside the
/// lock; NULL when there is none to take.
static preparation *claim(size_t length) {
    pthread_mutex_lock(&lock);
    preparation *p = waiting && waiting->length == length ? waiting : NULL;
    if (p) waiting = NULL;
    pthread_mutex_unlock(&lock);
    if (p) pthread_join(p->thread, NULL);
    return p;
}

void *mc_huge_pages_take_prepared(size_t length) {
    preparation *p = claim(length);
    if (!p) return NULL;
    void *start = p->start;
    free(p);
    return start;
}

int mc_huge_pages_prepared_pending(void) {
    pthread_mutex_lock(&lock);
    int pending = waiting != NULL;
    pthread_mutex_unlock(&lock);
    return pending;
}

void mc_huge_pages_discard_prepared(size_t length) {
    pthread_mutex_lock(&lock);
    preparation *p = waiting && (length == 0 || waiting->length == length) ? waiting : NULL;
    if (p) waiting = NULL;
    int finished = p && p->finished;
    // A thread still at work stops and releases the preparation itself: nothing waits for it.
    if (p && !finished) {
        p->abandoned = 1;
        pthread_detach(p->thread);
    }
    pthread_mutex_unlock(&lock);
    if (!finished) return;
    pthread_join(p->thread, NULL);
    if (p->start) munmap(p->start, mc_huge_pages_length(p->length));
    free(p);
}
