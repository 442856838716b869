// Memory for pixels: huge pages for large images, a pool of tile-sized buffers sharing huge
// pages (huge_pages.c, pooled_buffers.c).
#ifndef MAPCOMPOSE_PIXEL_MEMORY_H
#define MAPCOMPOSE_PIXEL_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Asks the kernel to back the whole 2 MiB pages inside `buffer` (`length` bytes, not yet
/// touched) with huge pages, so that filling a large image takes a few page faults instead of
/// thousands, once the probe found huge pages quick to fill (see mc_huge_pages_start_probe);
/// nothing until then and where it found them slow. Only a hint: nothing changes where huge
/// pages are unavailable.
void mc_advise_huge_pages(void *buffer, size_t length);

/// `length` bytes rounded up to whole 2 MiB pages, zero, 2 MiB-aligned, on huge pages once the
/// probe found them quick and on small pages until then and where it found them slow;
/// released with munmap. NULL when the memory cannot be had.
void *mc_huge_pages_map(size_t length);

/// Starts the probe that decides whether huge pages are asked for in this process, unless it
/// was started since the patience was last set: a few huge pages are mapped and the first touch
/// of each timed, until one is slow, on another core than the caller's when there is one (on
/// the caller's otherwise); the next large mappings are carved from them. Where a virtual
/// machine's host takes back freed memory, a huge page touched after an idle moment can cost
/// several times the small pages it replaces. The first large mapping starts the probe when
/// nobody did; a program starts it early so that it has answered by then.
void mc_huge_pages_start_probe(void);

/// Probes on the calling thread, whether or not a probe ran before, and returns
/// mc_huge_pages_advised().
int mc_huge_pages_probe_now(void);

/// Waits until no probe is under way.
void mc_huge_pages_await_probe(void);

/// How long the first touch of each of the probe's huge pages may take by default: a little
/// longer than the 512 small pages it replaces take to fill.
#define MC_HUGE_PAGE_PATIENCE_NS 1000000LL

/// Sets how long the first touch of each of the probe's huge pages may take (nanoseconds;
/// negative: no time at all) and forgets the probe's answer: the next large mapping probes
/// again.
void mc_huge_pages_set_patience(long long nanoseconds);

/// 1 once the probe found huge pages quick, 0 before it answered and where it found one slow.
int mc_huge_pages_advised(void);

/// `length` rounded up to whole 2 MiB pages: what mc_huge_pages_map maps.
size_t mc_huge_pages_length(size_t length);

/// Zeroed memory for a large image, 2 MiB-aligned and backed by huge pages where the kernel
/// allows (see mc_advise_huge_pages).
typedef struct mc_huge_buffer mc_huge_buffer;

/// A buffer of at least `length` bytes, all zero: a released one of at most twice the size
/// when there is one, else a new mapping; NULL when the memory cannot be had.
mc_huge_buffer *mc_huge_buffer_create(size_t length);

/// As mc_huge_buffer_create, but a reused buffer keeps its earlier user's bytes: for a caller
/// that writes every byte before it reads one.
mc_huge_buffer *mc_huge_buffer_create_unzeroed(size_t length);

/// The buffer's first byte.
void *mc_huge_buffer_bytes(const mc_huge_buffer *buffer);

/// Releases a buffer from mc_huge_buffer_create: it is kept (at most 64 MiB of them) for a later
/// mc_huge_buffer_create of a size it holds, else unmapped. Takes `void *` so that it can serve
/// as a Cairo user-data destroy function. Thread-safe, as is mc_huge_buffer_create.
void mc_huge_buffer_destroy(void *buffer);

/// Bytes of released huge buffers kept for reuse.
size_t mc_huge_buffer_spare_bytes(void);

/// Unmaps the released huge buffers kept for reuse.
void mc_huge_buffer_drop_spares(void);

/// The sizes the pool of tile-sized buffers serves (pooled_buffers.c).
enum { MC_POOLED_BUFFER_MIN = 64 << 10, MC_POOLED_BUFFER_MAX = 2 << 20 };

/// Zeroed memory for a tile-sized image (MC_POOLED_BUFFER_MIN…MAX bytes), several to a huge
/// page and reused once released. Thread-safe.
typedef struct mc_pooled_buffer mc_pooled_buffer;

/// A buffer of at least `length` bytes, all zero; NULL for a length outside the pool's range or
/// when the memory cannot be had.
mc_pooled_buffer *mc_pooled_buffer_create(size_t length);

/// As mc_pooled_buffer_create, but a reused buffer keeps its earlier user's bytes: for a caller
/// that writes every byte before it reads one.
mc_pooled_buffer *mc_pooled_buffer_create_unzeroed(size_t length);

/// The buffer's first byte (64 KiB-aligned).
void *mc_pooled_buffer_bytes(const mc_pooled_buffer *buffer);

/// Returns a buffer from mc_pooled_buffer_create to the pool. Takes `void *` so that it can
/// serve as a Cairo user-data destroy function.
void mc_pooled_buffer_destroy(void *buffer);

/// Working memory (`length` bytes, all zero, 64-byte aligned) released with mc_scratch_free:
/// from the pool when it fits one of its buffers (so a fault per 2 MiB at most, and memory that
/// an earlier user released), else from aligned_alloc, zeroed. NULL when the memory cannot be had.
void *mc_scratch_alloc(size_t length);

/// Releases memory from mc_scratch_alloc; NULL is ignored.
void mc_scratch_free(void *memory);

#ifdef __cplusplus
}
#endif

#endif
