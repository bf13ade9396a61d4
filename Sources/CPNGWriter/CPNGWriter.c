#include "CPNGWriter.h"

#include "RunLengthDeflate.h"

#include <CPUFeatures.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static void set_error(char *error, size_t capacity, const char *message) {
  if (error && capacity > 0) snprintf(error, capacity, "%s", message);
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

uint32_t arsim_pngw_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
  return crc32_gzip_refl(crc, bytes, (uint64_t)length);
}

// MARK: reused buffers

/// What an encode reuses: allocating them per frame cost page faults and, with munmap, TLB
/// shoot-downs between the cores (≈ 2 ms of kernel time per B1 frame). A small pool, not
/// per-thread storage: Dispatch hands encodes to ever new worker threads over a long run, and
/// per-thread buffers grew the peak memory with the track length.
typedef struct encoder_buffers {
  struct isal_zstream stream;
  uint8_t *level, *strip, *rows, *out;
  size_t levelCapacity, stripCapacity, rowsCapacity, outCapacity;
  arsim_rle_work runLength;
  struct encoder_buffers *next;
} encoder_buffers;

static pthread_mutex_t poolLock = PTHREAD_MUTEX_INITIALIZER;
static encoder_buffers *pool = NULL;
static int pooled = 0;
enum { poolLimit = 4 };  // sets kept when idle: the encodes a 2-core run overlaps, and spare

static void free_buffers(encoder_buffers *b) {
  free(b->level);
  free(b->strip);
  free(b->rows);
  free(b->out);
  arsim_rle_free(&b->runLength);
  free(b);
}

static encoder_buffers *take_buffers(void) {
  pthread_mutex_lock(&poolLock);
  encoder_buffers *b = pool;
  if (b) {
    pool = b->next;
    --pooled;
  }
  pthread_mutex_unlock(&poolLock);
  return b ? b : (encoder_buffers *)calloc(1, sizeof(encoder_buffers));
}

static void give_back(encoder_buffers *b) {
  pthread_mutex_lock(&poolLock);
  if (pooled < poolLimit) {
    b->next = pool;
    pool = b;
    ++pooled;
    b = NULL;
  }
  pthread_mutex_unlock(&poolLock);
  if (b) free_buffers(b);
}

/// Makes *buffer hold at least `size` bytes (contents not kept); 0 when out of memory.
static int ensure(uint8_t **buffer, size_t *capacity, size_t size) {
  if (*capacity >= size && *buffer) return 1;
  free(*buffer);
  *buffer = (uint8_t *)malloc(size);
  *capacity = *buffer ? size : 0;
  return *buffer != NULL;
}

// MARK: UP filter of RGBX rows (the frames' layout), fused with the 4 → 3 byte packing

// Each returns the AND of the row's alpha bytes (255 when the row is opaque): the encoder's
// automatic layout learns whether to write RGB without a pass of its own over the frame.
static uint8_t up_rgbx_scalar(const uint8_t *cur, const uint8_t *above, size_t from, size_t width,
                              uint8_t *out) {
  uint8_t alpha = 255;
  for (size_t x = from; x < width; ++x) {
    for (int c = 0; c < 3; ++c) {
      out[3 * x + c] = (uint8_t)(cur[4 * x + c] - (above ? above[4 * x + c] : 0));
    }
    alpha &= cur[4 * x + 3];
  }
  return alpha;
}

/// The AND of the alpha bytes (bytes 3, 7, 11, 15) of a 128-bit AND of pixels.
static uint8_t alpha_and(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return (uint8_t)((a & b & c & d) >> 24);
}

#if defined(__x86_64__)
__attribute__((target("ssse3"))) static uint8_t up_rgbx_ssse3(const uint8_t *cur,
                                                              const uint8_t *above, size_t width,
                                                              uint8_t *out) {
  const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m128i zero = _mm_setzero_si128();
  __m128i all = _mm_set1_epi8(-1);
  size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    __m128i c = _mm_loadu_si128((const __m128i *)(cur + 4 * x));
    __m128i a = above ? _mm_loadu_si128((const __m128i *)(above + 4 * x)) : zero;
    all = _mm_and_si128(all, c);
    // 16 bytes stored, 12 kept: the next store (or the caller's slack) covers the rest.
    _mm_storeu_si128((__m128i *)(out + 3 * x), _mm_shuffle_epi8(_mm_sub_epi8(c, a), pack));
  }
  uint8_t alpha = alpha_and((uint32_t)_mm_cvtsi128_si32(all),
                            (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(all, 4)),
                            (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(all, 8)),
                            (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(all, 12)));
  return alpha & up_rgbx_scalar(cur, above, x, width, out);
}

/// The Adler-32 sums (RFC 1950 §8.2) of the bytes so far, each below 65521.
typedef struct {
  uint32_t s1, s2;
} adler_sums;

enum { adlerBase = 65521 };

/// The sums after `count` more bytes (plain loop: short pieces only).
static void adler_add(adler_sums *sums, const uint8_t *bytes, size_t count) {
  uint64_t s1 = sums->s1, s2 = sums->s2;
  for (size_t i = 0; i < count; ++i) {
    s1 += bytes[i];
    s2 += s1;
  }
  sums->s1 = (uint32_t)(s1 % adlerBase);
  sums->s2 = (uint32_t)(s2 % adlerBase);
}

static inline __attribute__((always_inline, target("avx2"))) uint8_t
up_rgbx_avx2_body(const uint8_t *cur, const uint8_t *above, size_t width, uint8_t *out,
                  adler_sums *sums) {
  // Per 128-bit lane: 4 pixels → 12 bytes in the low three dwords; then dwords 0,1,2,4,5,6.
  const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const __m256i gather = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
  const __m256i zero = _mm256_setzero_si256();
  // Adler-32 of each stored vector's 24 bytes: a byte j places from the end of its block adds
  // j + 1 times itself to s2, and each block adds 24 × (the bytes before it); the last 8 bytes
  // of a store (not kept) weigh 0 and their sum of absolute differences lands in lane 3 only.
  const __m256i weights = _mm256_setr_epi8(24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
                                           10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i all = _mm256_set1_epi8(-1);
  __m256i s1 = zero, before = zero, s2 = zero;  // 64-bit, 64-bit and 32-bit lanes
  size_t x = 0;
  for (; x + 8 <= width; x += 8) {
    __m256i c = _mm256_loadu_si256((const __m256i *)(cur + 4 * x));
    __m256i a = above ? _mm256_loadu_si256((const __m256i *)(above + 4 * x)) : zero;
    all = _mm256_and_si256(all, c);
    __m256i d = _mm256_shuffle_epi8(_mm256_sub_epi8(c, a), pack);
    d = _mm256_permutevar8x32_epi32(d, gather);
    _mm256_storeu_si256((__m256i *)(out + 3 * x), d);
    if (sums) {
      before = _mm256_add_epi64(before, s1);
      s1 = _mm256_add_epi64(s1, _mm256_sad_epu8(d, zero));
      s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_maddubs_epi16(d, weights), ones));
    }
  }
  if (sums) {
    // One row at most (≤ 2^31 pixels wide would overflow; rows here are far shorter): the
    // lanes hold ≤ 24 · 255 · width/8 (s1), its sum over blocks (before) and s2's parts.
    uint64_t lane1[4], laneBefore[4];
    uint32_t lane2[8];
    _mm256_storeu_si256((__m256i *)lane1, s1);
    _mm256_storeu_si256((__m256i *)laneBefore, before);
    _mm256_storeu_si256((__m256i *)lane2, s2);
    uint64_t rowS1 = lane1[0] + lane1[1] + lane1[2];
    uint64_t rowS2 = 24 * (laneBefore[0] + laneBefore[1] + laneBefore[2]);
    for (int k = 0; k < 8; ++k) rowS2 += lane2[k];
    const uint64_t n = 3 * (uint64_t)x;
    sums->s2 = (uint32_t)((sums->s2 + (n % adlerBase) * sums->s1 + rowS2) % adlerBase);
    sums->s1 = (uint32_t)((sums->s1 + rowS1) % adlerBase);
  }
  __m128i half = _mm_and_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
  uint8_t alpha = alpha_and((uint32_t)_mm_cvtsi128_si32(half),
                            (uint32_t)_mm_extract_epi32(half, 1),
                            (uint32_t)_mm_extract_epi32(half, 2),
                            (uint32_t)_mm_extract_epi32(half, 3));
  alpha &= up_rgbx_scalar(cur, above, x, width, out);
  if (sums) adler_add(sums, out + 3 * x, 3 * (width - x));
  return alpha;
}

__attribute__((target("avx2"))) static uint8_t up_rgbx_avx2(const uint8_t *cur,
                                                            const uint8_t *above, size_t width,
                                                            uint8_t *out) {
  return up_rgbx_avx2_body(cur, above, width, out, NULL);
}

/// up_rgbx_avx2 that also adds the row's filtered bytes to the Adler-32 sums: one pass over
/// the row, not a second one (ISA-L's) over the strip.
__attribute__((target("avx2"))) static uint8_t up_rgbx_avx2_adler(const uint8_t *cur,
                                                                  const uint8_t *above,
                                                                  size_t width, uint8_t *out,
                                                                  adler_sums *sums) {
  return up_rgbx_avx2_body(cur, above, width, out, sums);
}

/// up_rgbx_avx2_body 16 pixels at a time (AVX-512 BW, VBMI, VNNI), about 10 % less encode time
/// per B1 frame on Zen 5: one `vpermb` packs 64 bytes of RGBX to 48 of RGB and zeroes the other
/// 16 (`vpshufb` + `vpermd` on AVX2), and `vpdpbusd` multiplies by the weights and adds in one
/// instruction (`vpmaddubsw` + `vpmaddwd`). The same bytes and sums as the other paths.
static inline __attribute__((always_inline,
                             target("avx512f,avx512bw,avx512vbmi,avx512vnni"))) uint8_t
up_rgbx_avx512_body(const uint8_t *cur, const uint8_t *above, size_t width, uint8_t *out,
                    adler_sums *sums) {
  // Output byte k < 48 is byte 4 · (k / 3) + k mod 3 of the 16 pixels.
  static const uint8_t order[64] = {
      0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18, 20,
      21, 22, 24, 25, 26, 28, 29, 30, 32, 33, 34, 36, 37, 38, 40, 41,
      42, 44, 45, 46, 48, 49, 50, 52, 53, 54, 56, 57, 58, 60, 61, 62,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  };
  const __m512i pack = _mm512_loadu_si512(order);
  const __mmask64 kept = (1ull << 48) - 1;
  // As in the AVX2 filter, with blocks of 48 bytes: byte j of a block adds 48 − j times itself
  // to s2; the 16 zeroed bytes weigh 0.
  static const uint8_t weight[64] = {
      48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33,
      32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
      16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  };
  const __m512i weights = _mm512_loadu_si512(weight);
  const __m512i zero = _mm512_setzero_si512();
  __m512i all = _mm512_set1_epi8(-1);
  __m512i s1 = zero, before = zero, s2 = zero;  // 64-bit, 64-bit and 32-bit lanes
  size_t x = 0;
  for (; x + 16 <= width; x += 16) {
    __m512i c = _mm512_loadu_si512(cur + 4 * x);
    __m512i a = above ? _mm512_loadu_si512(above + 4 * x) : zero;
    all = _mm512_and_si512(all, c);
    __m512i d = _mm512_maskz_permutexvar_epi8(kept, pack, _mm512_sub_epi8(c, a));
    // 64 bytes stored, 48 kept: the next store, the tail or the caller's slack covers the rest.
    _mm512_storeu_si512(out + 3 * x, d);
    if (sums) {
      before = _mm512_add_epi64(before, s1);
      s1 = _mm512_add_epi64(s1, _mm512_sad_epu8(d, zero));
      // Unsigned bytes by signed weights, four per 32-bit lane; a lane holds ≤ 4 · 255 · 48 per
      // block, so below 2^32 for rows up to 2^20 pixels (the caller's limit), read unsigned.
      s2 = _mm512_dpbusd_epi32(s2, d, weights);
    }
  }
  if (sums) {
    uint32_t parts[16];
    _mm512_storeu_si512(parts, s2);
    uint64_t rowS2 = 48 * (uint64_t)_mm512_reduce_add_epi64(before);
    for (int k = 0; k < 16; ++k) rowS2 += parts[k];
    const uint64_t rowS1 = (uint64_t)_mm512_reduce_add_epi64(s1);
    const uint64_t n = 3 * (uint64_t)x;
    sums->s2 = (uint32_t)((sums->s2 + (n % adlerBase) * sums->s1 + rowS2) % adlerBase);
    sums->s1 = (uint32_t)((sums->s1 + rowS1) % adlerBase);
  }
  uint8_t alpha = (uint8_t)((uint32_t)_mm512_reduce_and_epi32(all) >> 24);
  alpha &= up_rgbx_scalar(cur, above, x, width, out);
  if (sums) adler_add(sums, out + 3 * x, 3 * (width - x));
  return alpha;
}

__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vnni"))) static uint8_t up_rgbx_avx512(
    const uint8_t *cur, const uint8_t *above, size_t width, uint8_t *out) {
  return up_rgbx_avx512_body(cur, above, width, out, NULL);
}

__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vnni"))) static uint8_t
up_rgbx_avx512_adler(const uint8_t *cur, const uint8_t *above, size_t width, uint8_t *out,
                     adler_sums *sums) {
  return up_rgbx_avx512_body(cur, above, width, out, sums);
}

static int has_ssse3(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  return (c & bit_SSSE3) != 0;
}
#endif

static int best_path(void) {
#if defined(__x86_64__)
  static int cached = -1;
  int path = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (path < 0) {
    path = arsim_cpu_supports_avx512_vbmi_vnni() ? 3
           : arsim_cpu_supports_x86_64_v3()       ? 2
           : has_ssse3()                          ? 1
                                                  : 0;
    __atomic_store_n(&cached, path, __ATOMIC_RELAXED);
  }
  return path;
#else
  return 0;
#endif
}

/// The path encodes take (arsim_pngw_set_filter_path), −1 for best_path().
static int filterPath = -1;

static int filter_path(void) {
  int path = __atomic_load_n(&filterPath, __ATOMIC_RELAXED);
  return path < 0 ? best_path() : path;
}

int arsim_pngw_set_filter_path(int path) {
  int best = best_path();
  if (path < 0 || path > best) path = best;
  __atomic_store_n(&filterPath, path, __ATOMIC_RELAXED);
  return path;
}

/// The UP filter on `path` (already checked); returns the AND of the row's alpha bytes.
static uint8_t up_rgbx(const uint8_t *current, const uint8_t *above, size_t width, uint8_t *out,
                       int path) {
  switch (path) {
#if defined(__x86_64__)
    case 3: return up_rgbx_avx512(current, above, width, out);
    case 2: return up_rgbx_avx2(current, above, width, out);
    case 1: return up_rgbx_ssse3(current, above, width, out);
#endif
    default: return up_rgbx_scalar(current, above, 0, width, out);
  }
}

int arsim_pngw_up_rgbx(const uint8_t *current, const uint8_t *above, size_t width,
                       uint8_t *out, int path) {
  return arsim_pngw_up_rgbx_alpha(current, above, width, out, path, NULL);
}

int arsim_pngw_up_rgbx_alpha(const uint8_t *current, const uint8_t *above, size_t width,
                             uint8_t *out, int path, uint8_t *alpha) {
  int best = best_path();
  if (path < 0 || path > best) path = best;
  uint8_t all = up_rgbx(current, above, width, out, path);
  if (alpha) *alpha = all;
  return path;
}

// MARK: general rows: pack to the file's byte layout, then filter

/// The row as the file stores it before filtering (PNG §7.2): RGB, RGBA or big-endian gray.
static void pack_row(const uint8_t *src, size_t width, arsim_pngw_format format, uint8_t *dst) {
  switch (format) {
    case ARSIM_PNGW_RGB8: memcpy(dst, src, width * 3); break;
    case ARSIM_PNGW_RGBA8:
    case ARSIM_PNGW_RGBA8_AUTOMATIC:  // not reached: resolved before rows are packed
      memcpy(dst, src, width * 4);
      break;
    case ARSIM_PNGW_RGBX8:
      for (size_t x = 0; x < width; ++x) {
        dst[3 * x] = src[4 * x];
        dst[3 * x + 1] = src[4 * x + 1];
        dst[3 * x + 2] = src[4 * x + 2];
      }
      break;
    case ARSIM_PNGW_GRAY16: {
      const uint16_t *values = (const uint16_t *)src;
      for (size_t x = 0; x < width; ++x) {
        dst[2 * x] = (uint8_t)(values[x] >> 8);
        dst[2 * x + 1] = (uint8_t)values[x];
      }
      break;
    }
  }
}

static uint8_t paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  if (pa <= pb && pa <= pc) return (uint8_t)a;
  return (uint8_t)(pb <= pc ? b : c);
}

/// Filters `raw` (n bytes, `bpp` bytes per pixel) against `prior` (NULL: zeros) into out.
static void filter_row(int type, const uint8_t *raw, const uint8_t *prior, size_t n, size_t bpp,
                       uint8_t *out) {
  switch (type) {
    case 0: memcpy(out, raw, n); break;
    case 1:
      for (size_t i = 0; i < n; ++i) out[i] = (uint8_t)(raw[i] - (i >= bpp ? raw[i - bpp] : 0));
      break;
    case 2:
      if (prior) {
        for (size_t i = 0; i < n; ++i) out[i] = (uint8_t)(raw[i] - prior[i]);
      } else {
        memcpy(out, raw, n);
      }
      break;
    case 3:  // average (type 3), only for the adaptive choice
      for (size_t i = 0; i < n; ++i) {
        int left = i >= bpp ? raw[i - bpp] : 0, up = prior ? prior[i] : 0;
        out[i] = (uint8_t)(raw[i] - ((left + up) >> 1));
      }
      break;
    case 4:
      for (size_t i = 0; i < n; ++i) {
        int left = i >= bpp ? raw[i - bpp] : 0, up = prior ? prior[i] : 0;
        int upLeft = (prior && i >= bpp) ? prior[i - bpp] : 0;
        out[i] = (uint8_t)(raw[i] - paeth(left, up, upLeft));
      }
      break;
  }
}

static uint64_t signed_sum(const uint8_t *bytes, size_t n) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += (uint64_t)abs((int)(int8_t)bytes[i]);
  return sum;
}

// MARK: the PNG

typedef struct {
  uint8_t *data;
  size_t length;
  size_t capacity;
} output;

static int reserve(output *o, size_t extra) {
  if (o->length + extra <= o->capacity) return 1;
  size_t capacity = o->capacity;
  while (capacity < o->length + extra) capacity *= 2;
  uint8_t *grown = (uint8_t *)realloc(o->data, capacity);
  if (!grown) return 0;
  o->data = grown;
  o->capacity = capacity;
  return 1;
}

/// Appends length, type, data and CRC of one chunk (PNG §5.3).
static void put_chunk(output *o, const char type[4], const uint8_t *data, uint32_t length) {
  uint8_t *p = o->data + o->length;
  put32(p, length);
  memcpy(p + 4, type, 4);
  if (length) memcpy(p + 8, data, length);
  put32(p + 8 + length, arsim_pngw_crc32(0, p + 4, (size_t)length + 4));
  o->length += 12 + (size_t)length;
}

/// Rows per deflate call: about 128 KiB of filtered rows, so they stay in the L2 cache between
/// the filter and the deflater. A constant of the format, so the stream's bytes are too.
static size_t strip_rows(size_t filteredRow) {
  size_t rows = (128u * 1024u) / filteredRow;
  return rows ? rows : 1;
}

/// Status of encode_image when `requireOpaque` and a pixel is not opaque (nothing written).
enum { notOpaque = 2 };

/// Whether every alpha byte of the RGBA pixels is 255 (for the layouts the filter cannot tell).
static int all_opaque(const uint8_t *pixels, size_t count) {
  uint8_t all = 255;
  for (size_t i = 0; i < count; ++i) all &= pixels[4 * i + 3];
  return all == 255;
}

static int encode_image(const void *pixels, uint32_t width, uint32_t height,
                        arsim_pngw_format format, arsim_pngw_deflater deflater, int level,
                        arsim_pngw_filter filter, int requireOpaque, const uint8_t **out,
                        size_t *outLength, void **buffersOut, char *error, size_t errorCapacity);

int arsim_pngw_encode(const void *pixels, uint32_t width, uint32_t height,
                      arsim_pngw_format format, arsim_pngw_deflater deflater, int level,
                      arsim_pngw_filter filter, const uint8_t **out, size_t *outLength, void **buffersOut,
                      char *error, size_t errorCapacity) {
  if (format != ARSIM_PNGW_RGBA8_AUTOMATIC || !pixels || width == 0 || height == 0) {
    return encode_image(pixels, width, height, format, deflater, level, filter, 0, out,
                        outLength, buffersOut, error, errorCapacity);
  }
  // The UP filter of RGBX rows sees every alpha byte as it goes: encode as RGB and start again
  // as RGBA at the first strip that is not opaque. Other filters ask first.
  if (filter == ARSIM_PNGW_FILTER_UP) {
    int status = encode_image(pixels, width, height, ARSIM_PNGW_RGBX8, deflater, level, filter, 1,
                              out, outLength, buffersOut, error, errorCapacity);
    if (status != notOpaque) return status;
    format = ARSIM_PNGW_RGBA8;
  } else {
    format = all_opaque((const uint8_t *)pixels, (size_t)width * height) ? ARSIM_PNGW_RGBX8
                                                                           : ARSIM_PNGW_RGBA8;
  }
  return encode_image(pixels, width, height, format, deflater, level, filter, 0, out, outLength,
                      buffersOut, error, errorCapacity);
}

static int encode_image(const void *pixels, uint32_t width, uint32_t height,
                        arsim_pngw_format format, arsim_pngw_deflater deflater, int level,
                        arsim_pngw_filter filter, int requireOpaque, const uint8_t **out,
                        size_t *outLength, void **buffersOut, char *error, size_t errorCapacity) {
  if (!pixels || !out || !outLength || !buffersOut || width == 0 || height == 0 || width > 0x7fffffffu ||
      height > 0x7fffffffu) {
    set_error(error, errorCapacity, "invalid arguments to encoder");
    return 1;
  }
  if (deflater != ARSIM_PNGW_DEFLATE_ISAL && deflater != ARSIM_PNGW_DEFLATE_RUN_LENGTH) {
    set_error(error, errorCapacity, "unknown deflater");
    return 1;
  }
  const int runLength = deflater == ARSIM_PNGW_DEFLATE_RUN_LENGTH;
  if (runLength) level = 0;  // no level: only the ISA-L level buffer's size reads it
  if (level < 0 || level > 3) {
    set_error(error, errorCapacity, "ISA-L deflate level must be 0…3");
    return 1;
  }
  size_t inBpp, bpp;
  uint8_t colorType, bitDepth = 8;
  switch (format) {
    case ARSIM_PNGW_RGB8: inBpp = 3; bpp = 3; colorType = 2; break;
    case ARSIM_PNGW_RGBA8_AUTOMATIC:  // not reached: arsim_pngw_encode resolves it
    case ARSIM_PNGW_RGBA8: inBpp = 4; bpp = 4; colorType = 6; break;
    case ARSIM_PNGW_RGBX8: inBpp = 4; bpp = 3; colorType = 2; break;
    case ARSIM_PNGW_GRAY16: inBpp = 2; bpp = 2; colorType = 0; bitDepth = 16; break;
    default: set_error(error, errorCapacity, "unknown pixel format"); return 1;
  }
  const size_t rowBytes = (size_t)width * bpp, inRow = (size_t)width * inBpp;
  const size_t filteredRow = rowBytes + 1;
  const size_t stripRows = strip_rows(filteredRow);
  // Rows per Huffman block of the run-length encoder: whole strips up to about 1 MiB (a block's
  // code tables cost ≈ 20 µs to build, and adapt to the rows they cover; a constant, so the
  // bytes depend on the image alone).
  const size_t runLengthBlock = 1u << 20;
  // The SIMD filters store up to 32 bytes past a row; the run finder reads up to 64 past it.
  const size_t slack = 128;
  static const size_t levelBuffers[4] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
                                         ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};

  // Room for the whole stream in one go for any real frame: deflate's stored blocks add 5
  // bytes per 64 KiB; grown below if ever short.
  const size_t total = filteredRow * (size_t)height;
  encoder_buffers *buffers = take_buffers();
  const size_t planned = 8 + 25 + 12 + total + total / 64 + 4096 + 12;
  output o = {NULL, 0, planned};
  int status = 1;
  if (!buffers || !ensure(&buffers->out, &buffers->outCapacity, o.capacity) ||
      !ensure(&buffers->strip, &buffers->stripCapacity, filteredRow * stripRows + slack) ||
      !ensure(&buffers->rows, &buffers->rowsCapacity, 2 * rowBytes + 5 * filteredRow + slack) ||
      !ensure(&buffers->level, &buffers->levelCapacity, levelBuffers[level]) ||
      (runLength && !arsim_rle_reserve(&buffers->runLength, filteredRow,
                                       runLengthBlock + filteredRow * stripRows))) {
    set_error(error, errorCapacity, "out of memory while encoding");
    if (buffers) give_back(buffers);
    return 1;
  }
  o.data = buffers->out;
  // The room ISA-L is offered depends on this image alone, not on what the pooled set held
  // before: ISA-L picks its code path by the output room, and the path shows in the bytes.
  o.capacity = planned;
  uint8_t *strip = buffers->strip, *rows = buffers->rows, *levelBuffer = buffers->level;
  struct isal_zstream *stream = &buffers->stream;
  // Nor may an earlier encode's match history reach this one (ISA-L does not clear all of its
  // level buffer for a new stream): a frame's bytes must not depend on the frames before it.
  memset(levelBuffer, 0, levelBuffers[level]);
  memset(stream, 0, sizeof *stream);

  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  memcpy(o.data, signature, 8);
  o.length = 8;
  uint8_t ihdr[13];
  put32(ihdr, width);
  put32(ihdr + 4, height);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  ihdr[10] = 0;  // deflate
  ihdr[11] = 0;  // adaptive filtering (filter method 0)
  ihdr[12] = 0;  // no interlace
  put_chunk(&o, "IHDR", ihdr, 13);
  const size_t idatStart = o.length;
  o.length += 8;  // length and type, written when the stream is complete

  // The run-length encoder: zlib header (RFC 1950: deflate, 32 KiB window, fastest), blocks as
  // the strips come, the Adler-32 of the filtered bytes at the end.
  arsim_bit_writer writer = {NULL, 0, 0};
  uint32_t adler = 1;
  if (runLength) {
    o.data[o.length++] = 0x78;
    o.data[o.length++] = 0x01;
  }
  isal_deflate_init(stream);
  stream->level = (uint32_t)level;
  stream->level_buf = levelBuffer;
  stream->level_buf_size = (uint32_t)levelBuffers[level];
  stream->gzip_flag = IGZIP_ZLIB;
  stream->flush = NO_FLUSH;

  const uint8_t *source = (const uint8_t *)pixels;
  uint8_t *raw[2] = {rows, rows + rowBytes};
  uint8_t *trials = rows + 2 * rowBytes;
  const int fusedUp = filter == ARSIM_PNGW_FILTER_UP && format == ARSIM_PNGW_RGBX8;
  const int path = filter_path();
  // The run-length encoder's Adler-32 from the AVX2 or AVX-512 filter's registers (a row's sums
  // stay in 32-bit lanes up to 2^20 pixels), else from ISA-L over each strip: the same value.
  const int foldedAdler = runLength && fusedUp && path >= 2 && width <= (1u << 20);
  adler_sums sums = {1, 0};
  for (size_t y0 = 0; y0 < height; y0 += stripRows) {
    size_t count = height - y0 < stripRows ? height - y0 : stripRows;
    uint8_t alpha = 255;
    for (size_t r = 0; r < count; ++r) {
      size_t y = y0 + r;
      uint8_t *f = strip + r * filteredRow;
      const uint8_t *row = source + y * inRow;
      if (foldedAdler) {
#if defined(__x86_64__)
        f[0] = 2;
        adler_add(&sums, f, 1);
        const uint8_t *above = y ? row - inRow : NULL;
        alpha &= path == 3 ? up_rgbx_avx512_adler(row, above, width, f + 1, &sums)
                           : up_rgbx_avx2_adler(row, above, width, f + 1, &sums);
        continue;
#endif
      }
      if (fusedUp) {
        f[0] = 2;
        alpha &= up_rgbx(row, y ? row - inRow : NULL, width, f + 1, path);
        continue;
      }
      uint8_t *current = raw[y & 1];
      const uint8_t *prior = y ? raw[(y - 1) & 1] : NULL;
      pack_row(row, width, format, current);
      int type;
      switch (filter) {
        case ARSIM_PNGW_FILTER_NONE: type = 0; break;
        case ARSIM_PNGW_FILTER_SUB: type = 1; break;
        case ARSIM_PNGW_FILTER_UP: type = 2; break;
        case ARSIM_PNGW_FILTER_PAETH: type = 4; break;
        default: {
          uint64_t best = UINT64_MAX;
          type = 0;
          for (int t = 0; t < 5; ++t) {
            filter_row(t, current, prior, rowBytes, bpp, trials + t * filteredRow);
            uint64_t sum = signed_sum(trials + t * filteredRow, rowBytes);
            if (sum < best) {
              best = sum;
              type = t;
            }
          }
          break;
        }
      }
      f[0] = (uint8_t)type;
      if (filter == ARSIM_PNGW_FILTER_ADAPTIVE) {
        memcpy(f + 1, trials + type * filteredRow, rowBytes);
      } else {
        filter_row(type, current, prior, rowBytes, bpp, f + 1);
      }
    }
    if (requireOpaque && alpha != 255) {
      status = notOpaque;
      goto done;
    }
    if (runLength) {
      if (!foldedAdler) adler = isal_adler32(adler, strip, count * filteredRow);
      arsim_rle_work *work = &buffers->runLength;
      arsim_rle_add_rows(work, strip, filteredRow, count, (unsigned)bpp);
      const int final = y0 + count == height;
      if (final || work->inputBytes >= runLengthBlock) {
        const size_t bound = arsim_rle_pending_bound(work);
        if (o.capacity - o.length < bound + 12 && !reserve(&o, bound + (1u << 20))) {
          set_error(error, errorCapacity, "out of memory while encoding");
          goto done;
        }
        writer.next = o.data + o.length;
        arsim_rle_flush_block(work, (unsigned)bpp, final, &writer);
        o.length = (size_t)(writer.next - o.data);
      }
      continue;
    }
    stream->next_in = strip;
    stream->avail_in = (uint32_t)(count * filteredRow);
    stream->end_of_stream = y0 + count == height;
    for (;;) {
      if (o.capacity - o.length < 4096 + 12) {
        if (!reserve(&o, 1u << 20)) {
          set_error(error, errorCapacity, "out of memory while encoding");
          goto done;
        }
      }
      stream->next_out = o.data + o.length;
      stream->avail_out = (uint32_t)((o.capacity - o.length - 12) > 0x7fffffffu
                                         ? 0x7fffffffu
                                         : o.capacity - o.length - 12);
      uint32_t before = stream->avail_out;
      int result = isal_deflate(stream);
      o.length += before - stream->avail_out;
      if (result != COMP_OK) {
        set_error(error, errorCapacity, "isal_deflate failed");
        goto done;
      }
      if (stream->avail_in == 0 &&
          (!stream->end_of_stream || stream->internal_state.state == ZSTATE_END))
        break;
    }
  }
  if (runLength) {
    if (foldedAdler) adler = sums.s2 << 16 | sums.s1;
    put32(o.data + o.length, adler);
    o.length += 4;
  }
  size_t idatLength = o.length - idatStart - 8;
  if (idatLength > 0x7fffffffu) {
    set_error(error, errorCapacity, "image data over 2 GiB");
    goto done;
  }
  put32(o.data + idatStart, (uint32_t)idatLength);
  memcpy(o.data + idatStart + 4, "IDAT", 4);
  put32(o.data + o.length, arsim_pngw_crc32(0, o.data + idatStart + 4, idatLength + 4));
  o.length += 4;
  if (!reserve(&o, 12)) {
    set_error(error, errorCapacity, "out of memory while encoding");
    goto done;
  }
  put_chunk(&o, "IEND", NULL, 0);
  status = 0;
done:
  // `reserve` may have moved the output: the set keeps whatever it holds now.
  buffers->out = o.data;
  buffers->outCapacity = o.capacity;
  if (status == 0) {
    *out = o.data;
    *outLength = o.length;
    *buffersOut = buffers;  // the bytes stay valid until arsim_pngw_release
  } else {
    give_back(buffers);
  }
  return status;
}

void arsim_pngw_release(void *buffers) {
  if (buffers) give_back((encoder_buffers *)buffers);
}
