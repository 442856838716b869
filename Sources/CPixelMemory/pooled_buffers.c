// Pixel buffers for tile-sized images and coverage masks (64 KiB to 2 MiB), carved from 2 MiB
// huge-page chunks and reused when released; and scratch memory of those sizes (the PNG
// writer's rows and deflate state) from the same pool.
//
// A decoded 256-px tile is 256 KiB: on its own mapping it costs 64 page faults to fill, and a
// render of 25 tiles spends more time in those faults than in decoding. Eight such tiles share
// one huge page here (one fault), and a released buffer goes back to a free list of its size
// for the next image of that size. Chunks are never unmapped: the pool holds at most what was
// in use at once, which the tile store's byte budget bounds (and, for masks and scratch
// memory, a few buffers per core).

#include "pixel_memory.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 2 << 20, GRAIN = 64 << 10, CLASSES = CHUNK / GRAIN };

struct mc_pooled_buffer {
    void *bytes;
    size_t slot;                     // bytes reserved: the length rounded up to GRAIN
    struct mc_pooled_buffer *next;   // on a free list
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_pooled_buffer *free_lists[CLASSES + 1];  // by slot / GRAIN
static uint8_t *chunk_next, *chunk_end;            // unused rest of the newest chunk

static mc_pooled_buffer *take(size_t length, int *reused);

mc_pooled_buffer *mc_pooled_buffer_create(size_t length) {
    int reused = 0;
    mc_pooled_buffer *buffer = take(length, &reused);
    // A reused buffer holds the last image's pixels: new images start transparent.
    if (buffer && reused) memset(buffer->bytes, 0, buffer->slot);
    return buffer;
}

mc_pooled_buffer *mc_pooled_buffer_create_unzeroed(size_t length) {
    int reused = 0;
    return take(length, &reused);
}

/// A buffer for `length` bytes: a released one of its size (`*reused` set), else a new slot
/// of a huge-page chunk, zero. NULL outside the pool's range or when no memory can be had.
static mc_pooled_buffer *take(size_t length, int *reused) {
    if (length < (size_t)MC_POOLED_BUFFER_MIN || length > (size_t)MC_POOLED_BUFFER_MAX) return NULL;
    size_t slot = (length + GRAIN - 1) / GRAIN * GRAIN;
    pthread_mutex_lock(&pool_lock);
    mc_pooled_buffer *buffer = free_lists[slot / GRAIN];
    if (buffer) {
        free_lists[slot / GRAIN] = buffer->next;
        pthread_mutex_unlock(&pool_lock);
        buffer->next = NULL;
        *reused = 1;
        return buffer;
    }
    buffer = malloc(sizeof *buffer);
    if (buffer && (size_t)(chunk_end - chunk_next) < slot) {
        // A new chunk; what was left of the last one (less than this slot) stays unused.
        uint8_t *chunk = mc_huge_pages_map(CHUNK);
        if (chunk) {
            chunk_next = chunk;
            chunk_end = chunk + CHUNK;
        } else {
            free(buffer);
            buffer = NULL;
        }
    }
    if (buffer) {
        // Fresh memory from the kernel: already zero.
        buffer->bytes = chunk_next;
        buffer->slot = slot;
        buffer->next = NULL;
        chunk_next += slot;
    }
    pthread_mutex_unlock(&pool_lock);
    return buffer;
}

void *mc_pooled_buffer_bytes(const mc_pooled_buffer *buffer) { return buffer->bytes; }

void mc_pooled_buffer_destroy(void *buffer) {
    mc_pooled_buffer *released = buffer;
    if (!released) return;
    pthread_mutex_lock(&pool_lock);
    released->next = free_lists[released->slot / GRAIN];
    free_lists[released->slot / GRAIN] = released;
    pthread_mutex_unlock(&pool_lock);
}

// Scratch memory starts with a header naming the pooled buffer it lies in (NULL: memory from
// aligned_alloc, zeroed here).
enum { SCRATCH_HEADER = 64 };

void *mc_scratch_alloc(size_t length) {
    if (length > SIZE_MAX - SCRATCH_HEADER) return NULL;
    size_t total = length + SCRATCH_HEADER;
    mc_pooled_buffer *pooled = total >= (size_t)MC_POOLED_BUFFER_MIN && total <= (size_t)MC_POOLED_BUFFER_MAX
                                   ? mc_pooled_buffer_create(total)
                                   : NULL;
    uint8_t *base = pooled ? pooled->bytes : aligned_alloc(SCRATCH_HEADER, (total + SCRATCH_HEADER - 1) / SCRATCH_HEADER * SCRATCH_HEADER);
    if (!base) return NULL;
    if (!pooled) memset(base, 0, total);
    memcpy(base, &pooled, sizeof pooled);
    return base + SCRATCH_HEADER;
}

void mc_scratch_free(void *memory) {
    if (!memory) return;
    uint8_t *base = (uint8_t *)memory - SCRATCH_HEADER;
    mc_pooled_buffer *pooled;
    memcpy(&pooled, base, sizeof pooled);
    if (pooled) {
        mc_pooled_buffer_destroy(pooled);
    } else {
        free(base);
    }
}
