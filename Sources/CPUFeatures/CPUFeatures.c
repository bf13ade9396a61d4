#include "CPUFeatures.h"

#if defined(__x86_64__)
#include <cpuid.h>

bool arsim_cpu_supports_avx2_fma(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned int fma = 1u << 12, osxsave = 1u << 27, avx = 1u << 28;
  if ((ecx & (fma | osxsave | avx)) != (fma | osxsave | avx)) return false;
  // XCR0 bits 1 and 2: the OS saves SSE and AVX (YMM) state on context switches.
  unsigned int xcr0Low, xcr0High;
  __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
  if ((xcr0Low & 6u) != 6u) return false;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (ebx & (1u << 5)) != 0;  // AVX2
}
#else
bool arsim_cpu_supports_avx2_fma(void) { return false; }
#endif
