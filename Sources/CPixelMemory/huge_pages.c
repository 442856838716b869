// Huge pages for large pixel buffers: one page fault per 2 MiB instead of one per 4 KiB where
// huge pages are cheap to fill, and released buffers reused.

#define _GNU_SOURCE
#include "pixel_memory.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <time.h>

enum { HUGE_PAGE = 2 << 20 };

// Whether huge pages pay off is measured once per process, by a probe: a few huge pages mapped
// and touched one after another, each timed. Where the host takes back memory the guest frees
// (free page reporting on a virtual machine), a huge page first touched after an idle moment is
// the host's to supply again and costs several times the 512 small pages it replaces; right
// after another process freed it, it costs a fraction of them. The first huge page can be quick
// while the next ones are not (it may come from a block of memory the host was not told of), so
// the probe maps PROBE_PAGES of them at once and touches them in turn, stopping at the first slow
// one. It runs on another core when there is one, so that no render waits on a slow huge page;
// until it answers, large mappings get small pages. Once it has, the next large mappings are
// carved from its region (the touched pages first), so that what it touched is not wasted.
enum { PROBE_NOT_STARTED, PROBE_RUNNING, PROBE_QUICK, PROBE_SLOW, PROBE_KINDS };

// The probe's state and the generation of the patience it is measured against, in one word:
// generation * PROBE_KINDS + state. Setting the patience starts a new generation, and a probe
// of an older one no longer records its answer.
static _Atomic unsigned probe_word = PROBE_NOT_STARTED;
static _Atomic long long patience_ns = MC_HUGE_PAGE_PATIENCE_NS;
enum { PROBE_PAGES = 4 };
// What is left of the region of the answered probe, for the next large mappings; guarded by
// probe_lock.
static uint8_t *reserve_next, *reserve_end;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t probe_answered = PTHREAD_COND_INITIALIZER;

static long long monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// `rounded` bytes (a multiple of the huge page size), 2 MiB-aligned, zero; NULL on failure.
static uint8_t *map_aligned(size_t rounded) {
    // Mapped with a huge page to spare, then trimmed to a 2 MiB-aligned start.
    uint8_t *mapping = mmap(NULL, rounded + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return NULL;
    uint8_t *start = (uint8_t *)(((uintptr_t)mapping + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > mapping) munmap(mapping, (size_t)(start - mapping));
    size_t tail = (size_t)(mapping + rounded + HUGE_PAGE - (start + rounded));
    if (tail > 0) munmap(start + rounded, tail);
    return start;
}

/// Records the answer of the probe of `generation`, unless the patience was set since, and
/// keeps its region (`length` bytes at `region`, NULL when it could not be mapped) for the next
/// large mappings; a region not kept is unmapped.
static void record_answer(unsigned generation, int state, uint8_t *region, size_t length) {
    pthread_mutex_lock(&probe_lock);
    unsigned running = generation * PROBE_KINDS + PROBE_RUNNING;
    int recorded = atomic_compare_exchange_strong(&probe_word, &running, generation * PROBE_KINDS + state);
    if (recorded && region) {
        // An earlier probe's region: what no mapping was carved from goes.
        if (reserve_end > reserve_next) munmap(reserve_next, (size_t)(reserve_end - reserve_next));
        reserve_next = region;
        reserve_end = region + length;
        region = NULL;
    }
    pthread_cond_broadcast(&probe_answered);
    pthread_mutex_unlock(&probe_lock);
    if (region) munmap(region, length);
}

/// `rounded` bytes (a multiple of the huge page size) from the answered probe's region, the
/// part it touched first; NULL when less is left.
static uint8_t *take_reserved(size_t rounded) {
    pthread_mutex_lock(&probe_lock);
    uint8_t *slice = NULL;
    if ((size_t)(reserve_end - reserve_next) >= rounded) {
        slice = reserve_next;
        reserve_next += rounded;
    }
    pthread_mutex_unlock(&probe_lock);
    return slice;
}

/// Maps PROBE_PAGES huge pages at once and times the first touch of each in turn, until one is
/// slower than the patience (the pages after it then get small pages) or all were quick.
static void probe(unsigned generation) {
    int state = PROBE_SLOW;
    size_t length = (size_t)PROBE_PAGES * HUGE_PAGE;
    uint8_t *region = map_aligned(length);
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    if (region) {
        // Refused by a kernel without transparent huge pages: the pages are then small ones,
        // and their touches quick.
        madvise(region, length, MADV_HUGEPAGE);
        long long patience = atomic_load(&patience_ns);
        state = PROBE_QUICK;
        for (size_t offset = 0; offset < length; offset += HUGE_PAGE) {
            long long began = monotonic_ns();
            *(volatile uint8_t *)(region + offset) = 0;
            if (monotonic_ns() - began > patience) {
                state = PROBE_SLOW;
                if (offset + HUGE_PAGE < length)
                    madvise(region + offset + HUGE_PAGE, length - offset - HUGE_PAGE, MADV_NOHUGEPAGE);
                break;
            }
        }
    }
#endif
    record_answer(generation, state, region, length);
}

static void *probe_thread(void *generation) {
    probe((unsigned)(uintptr_t)generation);
    return NULL;
}

/// Claims the probe of the current generation when none was started: its generation, or -1.
static long long claim_probe(void) {
    unsigned word = atomic_load(&probe_word);
    if (word % PROBE_KINDS != PROBE_NOT_STARTED) return -1;
    unsigned generation = word / PROBE_KINDS;
    if (!atomic_compare_exchange_strong(&probe_word, &word, generation * PROBE_KINDS + PROBE_RUNNING)) return -1;
    return generation;
}

/// Starts a thread for the probe on a core other than the calling thread's; 0 when there is
/// no other core or no thread could be started.
static int start_probe_thread(unsigned generation) {
#ifdef __linux__
    cpu_set_t cores;
    if (sched_getaffinity(0, sizeof cores, &cores) != 0) return 0;
    int here = sched_getcpu();
    if (here >= 0 && here < CPU_SETSIZE) CPU_CLR(here, &cores);
    // A new thread waits on its creator's core until the scheduler moves it; told where it may
    // run, it starts on an idle core at once.
    if (CPU_COUNT(&cores) == 0) return 0;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return 0;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 << 10);
    pthread_attr_setaffinity_np(&attributes, sizeof cores, &cores);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, probe_thread, (void *)(uintptr_t)generation) == 0;
    pthread_attr_destroy(&attributes);
    return started;
#else
    (void)generation;
    return 0;
#endif
}

void mc_huge_pages_start_probe(void) {
    long long generation = claim_probe();
    if (generation < 0) return;
    if (!start_probe_thread((unsigned)generation)) probe((unsigned)generation);
}

int mc_huge_pages_probe_now(void) {
    // Probed here even when another thread's probe is under way: both measure against the
    // same patience, and the first to answer is recorded.
    pthread_mutex_lock(&probe_lock);
    unsigned generation = atomic_load(&probe_word) / PROBE_KINDS;
    atomic_store(&probe_word, generation * PROBE_KINDS + PROBE_RUNNING);
    pthread_mutex_unlock(&probe_lock);
    probe(generation);
    return mc_huge_pages_advised();
}

void mc_huge_pages_await_probe(void) {
    pthread_mutex_lock(&probe_lock);
    while (atomic_load(&probe_word) % PROBE_KINDS == PROBE_RUNNING) pthread_cond_wait(&probe_answered, &probe_lock);
    pthread_mutex_unlock(&probe_lock);
}

void mc_huge_pages_set_patience(long long nanoseconds) {
    pthread_mutex_lock(&probe_lock);
    atomic_store(&patience_ns, nanoseconds);
    unsigned generation = atomic_load(&probe_word) / PROBE_KINDS + 1;
    atomic_store(&probe_word, generation * PROBE_KINDS + PROBE_NOT_STARTED);
    // A probe of the old generation no longer answers: nobody waits for it.
    pthread_cond_broadcast(&probe_answered);
    pthread_mutex_unlock(&probe_lock);
}

int mc_huge_pages_advised(void) { return atomic_load(&probe_word) % PROBE_KINDS == PROBE_QUICK; }

/// Whether large mappings get huge pages now: once the probe found them quick. The first
/// large mapping starts the probe when nobody did.
static int huge_pages_wanted(void) {
    unsigned state = atomic_load_explicit(&probe_word, memory_order_relaxed) % PROBE_KINDS;
    if (state == PROBE_NOT_STARTED) mc_huge_pages_start_probe();
    return atomic_load_explicit(&probe_word, memory_order_relaxed) % PROBE_KINDS == PROBE_QUICK;
}

/// Asks for huge pages on the whole 2 MiB pages inside `buffer` once the probe found them
/// quick; else, with `small_otherwise`, for small pages (for a kernel that gives huge pages
/// unasked), and for nothing without.
static void advise(void *buffer, size_t length, int small_otherwise) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
    uintptr_t start = ((uintptr_t)buffer + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(uintptr_t)(HUGE_PAGE - 1);
    if (!buffer || end <= start) return;
    // A hint: where the kernel cannot or will not, the buffer simply keeps small pages.
    if (huge_pages_wanted()) {
        madvise((void *)start, end - start, MADV_HUGEPAGE);
    } else if (small_otherwise) {
        madvise((void *)start, end - start, MADV_NOHUGEPAGE);
    }
#else
    (void)buffer;
    (void)length;
    (void)small_otherwise;
#endif
}

// Memory from elsewhere (the heap) is left as it is unless huge pages are wanted: asking for
// small pages would only split the heap's mapping.
void mc_advise_huge_pages(void *buffer, size_t length) { advise(buffer, length, 0); }

struct mc_huge_buffer {
    void *bytes;
    size_t length;   // of the mapping, a multiple of the huge page size
    int reused;      // handed out before: its bytes are an earlier user's
};

size_t mc_huge_pages_length(size_t length) { return (length + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

void *mc_huge_pages_map(size_t length) {
    if (length == 0 || length > SIZE_MAX - 2 * (size_t)HUGE_PAGE) return NULL;
    size_t rounded = mc_huge_pages_length(length);
    uint8_t *reserved = take_reserved(rounded);
    if (reserved) return reserved;
    uint8_t *start = map_aligned(rounded);
    if (start) advise(start, rounded, 1);
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
