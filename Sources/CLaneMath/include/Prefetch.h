// A hint to the processor to bring memory into the caches before a loop reaches it: the
// rasterizer's opaque pass reads the next primitives' records (an environment of 100 000
// triangles prepares 41 MB of them a frame, far beyond the caches, and each band visits its
// own in order). A hint only: it changes no value, and an address past the data is harmless.
#ifndef ARSIM_PREFETCH_H
#define ARSIM_PREFETCH_H

#ifdef __cplusplus
extern "C" {
#endif

/// Asks for the cache line holding `address` (for reading, kept in all cache levels).
static inline void arsim_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#ifdef __cplusplus
}
#endif

#endif
