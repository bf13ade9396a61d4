#include "CPUFeatures.h"

#if defined(__x86_64__)
#include <cpuid.h>

/// XCR0, the state components the OS saves on context switches (0 without OSXSAVE).
static unsigned int os_saved_state(unsigned int leaf1_ecx) {
  if ((leaf1_ecx & (1u << 27)) == 0) return 0;  // OSXSAVE
  unsigned int low, high;
  __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return low;
}

bool arsim_cpu_supports_x86_64_v3(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  // x86-64-v2: SSE3 (0), SSSE3 (9), CX16 (13), SSE4.1 (19), SSE4.2 (20), POPCNT (23); v3: FMA
  // (12), MOVBE (22), AVX (28), F16C (29).
  const unsigned int leaf1 = (1u << 0) | (1u << 9) | (1u << 12) | (1u << 13) | (1u << 19) |
                             (1u << 20) | (1u << 22) | (1u << 23) | (1u << 28) | (1u << 29);
  if ((ecx & leaf1) != leaf1) return false;
  if ((os_saved_state(ecx) & 6u) != 6u) return false;  // SSE and YMM state
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned int leaf7 = (1u << 3) | (1u << 5) | (1u << 8);  // BMI1 AVX2 BMI2
  if ((ebx & leaf7) != leaf7) return false;
  if (!__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned int extended = (1u << 0) | (1u << 5);  // LAHF/SAHF (v2), LZCNT (v3)
  return (ecx & extended) == extended;
}

bool arsim_cpu_supports_x86_64_v4(void) {
  if (!arsim_cpu_supports_x86_64_v3()) return false;
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  if ((os_saved_state(ecx) & 0xE6u) != 0xE6u) return false;  // + opmask, ZMM_Hi256, Hi16_ZMM
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  // AVX512F DQ CD BW VL
  const unsigned int leaf7 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
  return (ebx & leaf7) == leaf7;
}

bool arsim_cpu_supports_avx512_vbmi_vnni(void) {
  if (!arsim_cpu_supports_x86_64_v4()) return false;  // also checks the OS saves ZMM state
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned int leaf7 = (1u << 1) | (1u << 11);  // AVX512_VBMI, AVX512_VNNI (ECX)
  return (ecx & leaf7) == leaf7;
}
#else
bool arsim_cpu_supports_x86_64_v3(void) { return false; }
bool arsim_cpu_supports_x86_64_v4(void) { return false; }
bool arsim_cpu_supports_avx512_vbmi_vnni(void) { return false; }
#endif
