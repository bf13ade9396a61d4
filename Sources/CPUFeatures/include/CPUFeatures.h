#ifndef ARSIM_CPU_FEATURES_H
#define ARSIM_CPU_FEATURES_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the processor and the operating system support AVX2 and FMA (the instruction sets
/// `ARRasterizerAVX2` is compiled for): CPUID leaf 1 (FMA, AVX, OSXSAVE), leaf 7 (AVX2) and
/// XGETBV (the OS saves the YMM registers). Always false on processors other than x86-64.
bool arsim_cpu_supports_avx2_fma(void);

#ifdef __cplusplus
}
#endif

#endif
