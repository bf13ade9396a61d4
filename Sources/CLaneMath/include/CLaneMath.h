// Lane-wise square roots for the rasterizer's Float lanes (Sources/ARRasterizer), one vector
// instruction where the processor has one. Swift's `Float.squareRoot()` compiles here to a
// scalar square root per lane behind a branch to libm's `sqrtf` (its errno path) for negative
// inputs; `__builtin_elementwise_sqrt` is the IEEE 754 square root without errno. The square
// root is correctly rounded, so every build and processor gets the bits `sqrtf` gives.
#ifndef ARSIM_CLANEMATH_H
#define ARSIM_CLANEMATH_H

#include "Prefetch.h"  // cache hints for the opaque pass
#include "StreamStore.h"  // the frame rows' stores past the caches

#ifdef __cplusplus
extern "C" {
#endif

typedef float arsim_float8 __attribute__((ext_vector_type(8)));
typedef float arsim_float16 __attribute__((ext_vector_type(16)));

/// Replaces x[0] … x[7] by their square roots (NaN for negative lanes, +∞ for +∞).
static inline void arsim_square_roots8(float *x) {
  arsim_float8 lanes;
  __builtin_memcpy(&lanes, x, sizeof lanes);
  lanes = __builtin_elementwise_sqrt(lanes);
  __builtin_memcpy(x, &lanes, sizeof lanes);
}

/// Replaces x[0] … x[15] by their square roots (NaN for negative lanes, +∞ for +∞).
static inline void arsim_square_roots16(float *x) {
  arsim_float16 lanes;
  __builtin_memcpy(&lanes, x, sizeof lanes);
  lanes = __builtin_elementwise_sqrt(lanes);
  __builtin_memcpy(x, &lanes, sizeof lanes);
}

#ifdef __cplusplus
}
#endif

#endif
