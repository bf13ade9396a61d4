// glibc's malloc settings for the arsim process (no-op elsewhere).
#ifndef ARSIM_CMALLOC_H
#define ARSIM_CMALLOC_H

#ifdef __cplusplus
extern "C" {
#endif

/// Keeps large freed blocks mapped for reuse: allocations below 32 MiB come from the heap (not
/// their own mmap), and up to 256 MiB of free heap top stays mapped (M_MMAP_THRESHOLD,
/// M_TRIM_THRESHOLD). Frames are allocated and freed every frame on different threads; with the
/// defaults their pages went back to the kernel and faulted in again.
void arsim_malloc_keep_freed_blocks(void);

#ifdef __cplusplus
}
#endif

#endif
