// Taking memory prepared by mc_huge_pages_prepare (prepared_huge_pages.c), for huge_pages.c.
#pragma once

#include <stddef.h>

/// A preparation taken by an image: its thread may still be at work (faulting in pages, which
/// writes nothing), so the image ends it when it releases the memory.
typedef struct mc_preparation mc_preparation;

/// Takes the waiting preparation when an image of `length` bytes fits it (at least the length
/// prepared, at most its room): sets `start` and the `mapped` length to unmap, and returns the
/// preparation to end with mc_huge_pages_preparation_end before the memory is unmapped. NULL when
/// there is none to take (or it could not be had).
mc_preparation *mc_huge_pages_take_prepared(size_t length, void **start, size_t *mapped);

/// Waits for a taken preparation's thread (long done by then) and frees it.
void mc_huge_pages_preparation_end(mc_preparation *p);
