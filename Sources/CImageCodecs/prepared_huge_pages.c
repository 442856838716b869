// Huge pages made ready ahead of time: a render knows the size of its map from its arguments,
// long before it draws, and the kernel takes milliseconds to clear the pages of a large image
// (about 5 ms of CPU for a 2048x2048 map here). One thread maps and faults them in while the
// render reads its style on another core; the render's first large image then takes them. That
// is the map, or the slab its tiles are decoded into, which is larger (the map may be a view of
// it): the mapping leaves room for it (`room`), and only the map's length is faulted in.
//
// The pages are faulted in with MADV_POPULATE_WRITE, which writes nothing: an image may take
// them while the thread is still at work, and the thread stops at its next huge page. Where the
// kernel lacks it (before Linux 5.14), the thread writes a zero to each page instead, and an
// image taking them waits for the thread to finish.

#include "image_codecs.h"
#include "prepared_huge_pages.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { SMALL_PAGE = 4096, HUGE_PAGE = 2 << 20 };

/// One preparation: its thread, the length to fault in and the room mapped, and the memory its
/// thread mapped (NULL until then, or if it could not be had). Once given up (`abandoned`) or
/// taken (`taken`), its thread stops at the next huge page; it releases an abandoned one itself.
struct mc_preparation {
    pthread_t thread;
    size_t length, room;
    void *start;
    int populates;            // faults in without writing: may be taken while at work
    int finished, abandoned, taken;  // under `lock`
    int joined;               // by the image that took it
};

// The preparation waiting to be taken, if any; one at a time.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mc_preparation *waiting;

static int stops(mc_preparation *p) {
    pthread_mutex_lock(&lock);
    int stop = p->abandoned || p->taken;
    pthread_mutex_unlock(&lock);
    return stop;
}

/// Faults in one huge page's worth of small pages by writing a zero to each.
static void write_zeros(uint8_t *chunk, size_t length) {
    for (size_t offset = 0; offset < length; offset += SMALL_PAGE) ((volatile uint8_t *)chunk)[offset] = 0;
}

/// Maps the room, faults in the first `length` bytes a huge page at a time (cleared by the
/// kernel) until done or stopped, and releases the memory if the preparation was given up.
static void *fault_in(void *argument) {
    mc_preparation *p = argument;
    uint8_t *start = mc_huge_pages_map(p->room);
    size_t length = mc_huge_pages_length(p->length);
    // An empty range tells whether the kernel knows the advice, without faulting anything.
    int populates = start && madvise(start, 0, MADV_POPULATE_WRITE) == 0;
    pthread_mutex_lock(&lock);
    p->start = start;
    p->populates = populates;
    pthread_mutex_unlock(&lock);
    for (size_t offset = 0; start && offset < length && !stops(p); offset += HUGE_PAGE) {
        size_t chunk = length - offset < HUGE_PAGE ? length - offset : HUGE_PAGE;
        if (!populates) {
            write_zeros(start + offset, chunk);
        } else if (madvise(start + offset, chunk, MADV_POPULATE_WRITE) != 0 && errno != EINTR) {
            break;  // out of memory, say: the image faults the rest in as it is drawn
        }
    }
    pthread_mutex_lock(&lock);
    p->finished = 1;
    int abandoned = p->abandoned;
    pthread_mutex_unlock(&lock);
    if (abandoned) {
        if (start) munmap(start, mc_huge_pages_length(p->room));
        free(p);
    }
    return NULL;
}

void mc_huge_pages_prepare(size_t length, size_t room) {
    if (length == 0) return;
    if (room < length) room = length;
    pthread_mutex_lock(&lock);
    if (!waiting) {
        mc_preparation *p = calloc(1, sizeof *p);
        if (p) {
            p->length = length;
            p->room = room;
            if (pthread_create(&p->thread, NULL, fault_in, p) == 0) {
                waiting = p;
            } else {
                free(p);
            }
        }
    }
    pthread_mutex_unlock(&lock);
}

mc_preparation *mc_huge_pages_take_prepared(size_t length, void **start, size_t *mapped) {
    pthread_mutex_lock(&lock);
    mc_preparation *p = waiting && waiting->length <= length && length <= waiting->room ? waiting : NULL;
    int waits = 0;
    if (p) {
        waiting = NULL;
        p->taken = 1;
        // Still mapping, or writing zeros: wait for the thread. Populating: take it as it is.
        waits = !p->finished && (!p->start || !p->populates);
    }
    pthread_mutex_unlock(&lock);
    if (!p) return NULL;
    if (waits) {
        pthread_join(p->thread, NULL);
        p->joined = 1;
    }
    if (!p->start) {
        mc_huge_pages_preparation_end(p);
        return NULL;
    }
    *start = p->start;
    *mapped = mc_huge_pages_length(p->room);
    return p;
}

void mc_huge_pages_preparation_end(mc_preparation *p) {
    if (!p) return;
    if (!p->joined) pthread_join(p->thread, NULL);
    free(p);
}

int mc_huge_pages_prepared_pending(void) {
    pthread_mutex_lock(&lock);
    int pending = waiting != NULL;
    pthread_mutex_unlock(&lock);
    return pending;
}

void mc_huge_pages_discard_prepared(size_t length) {
    pthread_mutex_lock(&lock);
    mc_preparation *p = waiting && (length == 0 || waiting->length == length) ? waiting : NULL;
    if (p) waiting = NULL;
    int finished = p && p->finished;
    // A thread still at work stops and releases the preparation itself: nothing waits for it.
    if (p && !finished) {
        p->abandoned = 1;
        pthread_detach(p->thread);
    }
    pthread_mutex_unlock(&lock);
    if (!p || !finished) return;
    pthread_join(p->thread, NULL);
    if (p->start) munmap(p->start, mc_huge_pages_length(p->room));
    free(p);
}
