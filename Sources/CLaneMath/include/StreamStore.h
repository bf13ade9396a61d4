// Stores that bypass the caches for the rendered frame's rows: each row is written once and
// read next by the PNG encoder's thread, a frame later; an ordinary store first reads the line
// it fills from memory (read for ownership), 11 MB a B1 frame.
#ifndef ARSIM_STREAM_STORE_H
#define ARSIM_STREAM_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Copies `bytes` from `source` to `destination` with non-temporal stores where
/// `destination` is 16-byte aligned (else memcpy). Call arsim_stream_fence before another
/// thread reads the destination.
static inline void arsim_stream_copy(void *destination, const void *source, size_t bytes) {
#if defined(__x86_64__)
  if (((uintptr_t)destination & 15) == 0) {
    uint8_t *to = (uint8_t *)destination;
    const uint8_t *from = (const uint8_t *)source;
    size_t k = 0;
    for (; k + 64 <= bytes; k += 64) {
      __m128i a = _mm_loadu_si128((const __m128i *)(from + k));
      __m128i b = _mm_loadu_si128((const __m128i *)(from + k + 16));
      __m128i c = _mm_loadu_si128((const __m128i *)(from + k + 32));
      __m128i d = _mm_loadu_si128((const __m128i *)(from + k + 48));
      _mm_stream_si128((__m128i *)(to + k), a);
      _mm_stream_si128((__m128i *)(to + k + 16), b);
      _mm_stream_si128((__m128i *)(to + k + 32), c);
      _mm_stream_si128((__m128i *)(to + k + 48), d);
    }
    for (; k + 16 <= bytes; k += 16) {
      _mm_stream_si128((__m128i *)(to + k), _mm_loadu_si128((const __m128i *)(from + k)));
    }
    memcpy(to + k, from + k, bytes - k);
    return;
  }
#endif
  memcpy(destination, source, bytes);
}

/// Orders the non-temporal stores before it before every later store (x86 `sfence`).
static inline void arsim_stream_fence(void) {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

#ifdef __cplusplus
}
#endif

#endif
