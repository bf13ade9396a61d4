#ifndef ARSIM_CPU_FEATURES_H
#define ARSIM_CPU_FEATURES_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the processor and the operating system support x86-64-v3, the level
/// `ARRasterizerAVX2` is compiled for (`-target-cpu haswell`): x86-64-v2 (SSE3, SSSE3, SSE4.1,
/// SSE4.2, POPCNT, CMPXCHG16B, LAHF/SAHF) and AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE
/// (CPUID leaves 1, 7 and 0x80000001), with the YMM state saved by the OS (XGETBV). Haswell also
/// has AES, PCLMUL, RDRND and FSGSBASE, which the compiler emits only for their intrinsics (not
/// used). Always false on processors other than x86-64.
bool arsim_cpu_supports_x86_64_v3(void);

/// Whether they also support x86-64-v4, the level of `ARRasterizerAVX512`
/// (`-target-cpu skylake-avx512`): AVX-512 F, BW, CD, DQ and VL, with the opmask and ZMM
/// state saved by the OS.
bool arsim_cpu_supports_x86_64_v4(void);

/// Whether they support x86-64-v4 and also AVX-512 VBMI (`vpermb`) and VNNI (`vpdpbusd`), what
/// `CPNGWriter`'s AVX-512 paths use: AMD Zen 4 and later, Intel Ice Lake and later (Skylake-SP
/// has v4 without them).
bool arsim_cpu_supports_avx512_vbmi_vnni(void);

#ifdef __cplusplus
}
#endif

#endif
