#include "RunLengthDeflate.h"

#include "CPNGWriter.h"
#include <CPUFeatures.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// MARK: bits (RFC 1951 §3.1.1: least significant bit first; Huffman codes bit-reversed)

static inline void put_bits(arsim_bit_writer *w, uint64_t code, unsigned length) {
  w->bits |= code << w->count;
  w->count += length;
  memcpy(w->next, &w->bits, 8);
  w->next += w->count >> 3;
  w->bits = (w->count & ~7u) == 64 ? 0 : w->bits >> (w->count & ~7u);
  w->count &= 7;
}

/// Pads to a byte boundary with zero bits.
static inline void align_to_byte(arsim_bit_writer *w) {
  if (w->count) {
    memcpy(w->next, &w->bits, 8);
    w->next += 1;
  }
  w->bits = 0;
  w->count = 0;
}

/// The low `length` bits (1…15) of `code` in reverse order.
static uint32_t reverse_bits(uint32_t code, unsigned length) {
#if defined(__has_builtin) && __has_builtin(__builtin_bitreverse32)
  return __builtin_bitreverse32(code) >> (32 - length);
#else
  uint32_t reversed = 0;
  for (unsigned i = 0; i < length; ++i) reversed |= ((code >> i) & 1u) << (length - 1 - i);
  return reversed;
#endif
}

// MARK: length symbols (RFC 1951 §3.2.5)

static const uint16_t lengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                        31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t lengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                        2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
/// For a run of length L (3…258): its length symbol minus 257.
static uint8_t lengthSymbol[259];
static pthread_once_t tablesOnce = PTHREAD_ONCE_INIT;

static void make_tables(void) {
  for (int s = 0; s < 29; ++s) {
    int end = s == 28 ? 259 : lengthBase[s + 1];
    if (s == 27) end = 258;  // 227…257; 258 has a symbol of its own
    for (int length = lengthBase[s]; length < end; ++length) lengthSymbol[length] = (uint8_t)s;
  }
}

// MARK: Huffman code lengths, limited (two-queue Huffman, then JPEG Annex K.3's adjustment)

/// Sorts `count` keys (≤ 288) in increasing order: least significant byte first, one counting
/// pass per byte up to the largest key's highest (qsort with a comparison call per step was
/// ≈ 7 µs per Huffman block, 2.5 % of a B1 frame's encode).
static void sort_keys(uint64_t *keys, int count) {
  uint64_t largest = 0;
  for (int k = 0; k < count; ++k) largest |= keys[k];
  uint64_t spare[288];
  uint64_t *from = keys, *to = spare;
  for (unsigned shift = 0; shift < 64 && (largest >> shift) != 0; shift += 8) {
    unsigned start[256] = {0};
    for (int k = 0; k < count; ++k) ++start[(from[k] >> shift) & 255];
    unsigned sum = 0;
    for (int b = 0; b < 256; ++b) {
      unsigned n = start[b];
      start[b] = sum;
      sum += n;
    }
    for (int k = 0; k < count; ++k) to[start[(from[k] >> shift) & 255]++] = from[k];
    uint64_t *swap = from;
    from = to;
    to = swap;
  }
  if (from != keys) memcpy(keys, from, (size_t)count * sizeof keys[0]);
}

/// Code lengths (0 for unused symbols) of an optimal prefix code over `count` symbols whose
/// longest code is at most `limit` bits. At least two symbols get a code (a used one and, if
/// only one is used, the next symbol), so every code is complete.
static void code_lengths(const uint32_t *frequency, int count, unsigned limit, uint8_t *lengths) {
  // Frequency above the symbol (9 bits): sorted by frequency, equal ones by symbol.
  uint64_t used[288];
  int m = 0;
  for (int s = 0; s < count; ++s) {
    lengths[s] = 0;
    if (frequency[s]) used[m++] = (uint64_t)frequency[s] << 9 | (uint64_t)s;
  }
  if (m < 2) {
    int first = m ? (int)(used[0] & 511) : 0;
    lengths[first] = 1;
    lengths[first + 1 < count ? first + 1 : first - 1] = 1;
    return;
  }
  sort_keys(used, m);
  // Leaves 0…m−1 in increasing weight, internal nodes m… in the order they are made (also
  // increasing weight), so the two lightest are always at the heads of the two queues.
  uint64_t weight[2 * 288];
  int parent[2 * 288];
  for (int k = 0; k < m; ++k) weight[k] = used[k] >> 9;
  int leaf = 0, inner = m, next = m;
  for (int k = 0; k < m - 1; ++k) {
    int pick[2];
    for (int j = 0; j < 2; ++j) {
      if (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) {
        pick[j] = leaf++;
      } else {
        pick[j] = inner++;
      }
    }
    weight[next] = weight[pick[0]] + weight[pick[1]];
    parent[pick[0]] = parent[pick[1]] = next;
    ++next;
  }
  unsigned depth[2 * 288];
  depth[next - 1] = 0;
  unsigned lengthCount[290] = {0};
  unsigned longest = 0;
  for (int node = next - 2; node >= 0; --node) {
    depth[node] = depth[parent[node]] + 1;
    if (node < m) {
      ++lengthCount[depth[node]];
      if (depth[node] > longest) longest = depth[node];
    }
  }
  // Too long: move pairs of the deepest leaves up (JPEG's adjust_bits), keeping Kraft's sum 1.
  for (unsigned i = longest; i > limit; --i) {
    while (lengthCount[i] > 0) {
      unsigned j = i - 2;
      while (lengthCount[j] == 0) --j;
      lengthCount[i] -= 2;
      lengthCount[i - 1] += 1;
      lengthCount[j + 1] += 2;
      lengthCount[j] -= 1;
    }
  }
  // The longest codes to the rarest symbols.
  int k = 0;
  for (unsigned length = longest < limit ? longest : limit; length >= 1; --length) {
    for (unsigned c = 0; c < lengthCount[length]; ++c) lengths[used[k++] & 511] = (uint8_t)length;
  }
}

/// Canonical codes (RFC 1951 §3.2.2), bit-reversed for writing.
static void canonical_codes(const uint8_t *lengths, int count, uint32_t *codes) {
  unsigned lengthCount[16] = {0};
  for (int s = 0; s < count; ++s) ++lengthCount[lengths[s]];
  lengthCount[0] = 0;
  uint32_t next[16], code = 0;
  for (int bits = 1; bits < 16; ++bits) {
    code = (code + lengthCount[bits - 1]) << 1;
    next[bits] = code;
  }
  for (int s = 0; s < count; ++s) {
    codes[s] = lengths[s] ? reverse_bits(next[lengths[s]]++, lengths[s]) : 0;
  }
}

// MARK: runs: where a byte equals the one three back

#if !defined(__x86_64__)
/// Bit i of masks[i / 64] set when row[i] == row[i − d] (d ≤ i < n); bits from n on clear.
static void equal_masks_scalar(const uint8_t *row, size_t n, size_t d, uint64_t *masks) {
  size_t words = (n + 63) / 64;
  memset(masks, 0, words * 8);
  for (size_t i = d; i < n; ++i) {
    if (row[i] == row[i - d]) masks[i >> 6] |= 1ull << (i & 63);
  }
}
#endif

#if defined(__x86_64__)
/// The mask word of the row's first 64 bytes, compared one by one: a vector load there would
/// read before the row.
static uint64_t first_equal_mask(const uint8_t *row, size_t n, size_t d) {
  uint64_t first = 0;
  for (size_t i = d; i < n && i < 64; ++i) {
    if (row[i] == row[i - d]) first |= 1ull << i;
  }
  return first;
}
#endif

#if defined(__x86_64__)
/// SSE2 (every x86-64 processor): 16 compares per instruction. Loads run up to 63 bytes past n,
/// into the strip's slack; those bits are cleared.
static void equal_masks_sse2(const uint8_t *row, size_t n, size_t d, uint64_t *masks) {
  size_t words = (n + 63) / 64;
  masks[0] = first_equal_mask(row, n, d);
  for (size_t w = 1; w < words; ++w) {
    const uint8_t *p = row + 64 * w;
    uint64_t bits = 0;
    for (int k = 0; k < 4; ++k) {
      __m128i a = _mm_loadu_si128((const __m128i *)(p + 16 * k));
      __m128i b = _mm_loadu_si128((const __m128i *)(p + 16 * k - d));
      bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) << (16 * k);
    }
    masks[w] = bits;
  }
  if (n & 63) masks[words - 1] &= (1ull << (n & 63)) - 1;
}
#endif

#if defined(__x86_64__)
/// equal_masks_sse2 with 32 compares per instruction (AVX2).
__attribute__((target("avx2"))) static void equal_masks_avx2(const uint8_t *row, size_t n,
                                                             size_t d, uint64_t *masks) {
  size_t words = (n + 63) / 64;
  masks[0] = first_equal_mask(row, n, d);
  for (size_t w = 1; w < words; ++w) {
    const uint8_t *p = row + 64 * w;
    __m256i a0 = _mm256_loadu_si256((const __m256i *)p);
    __m256i b0 = _mm256_loadu_si256((const __m256i *)(p - d));
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(p + 32));
    __m256i b1 = _mm256_loadu_si256((const __m256i *)(p + 32 - d));
    uint64_t low = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a0, b0));
    uint64_t high = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a1, b1));
    masks[w] = low | high << 32;
  }
  if (n & 63) masks[words - 1] &= (1ull << (n & 63)) - 1;
}
#endif

static int body_path(void);

/// The end of the run starting at p: the first index ≥ p whose bit is clear in `equal` (bits
/// from n on are clear, and a word of zeros follows the row's: always found, at most n).
/// Without a branch on whether the run ends in its own word or the next: 15–20 % of a B1
/// frame's runs end in a later word than they start, unpredictably, and the loop that branch
/// entered held the walk's most sampled instructions (perf). Only runs ending two or more words
/// on (4–6 %) still loop.
static inline size_t run_end(const uint64_t *equal, size_t p) {
  const size_t k = p >> 6;
  const uint64_t w = ~equal[k] & (~0ull << (p & 63)), following = ~equal[k + 1];
  if (__builtin_expect((w | following) == 0, 0)) {
    size_t m = k + 2;
    uint64_t x;
    while (!(x = ~equal[m])) ++m;
    return m * 64 + (size_t)__builtin_ctzll(x);
  }
  // (The top bit keeps the count defined for a zero word, whose count is not taken.)
  const uint64_t top = 1ull << 63;
  const size_t here = (size_t)__builtin_ctzll(w | top);
  const size_t there = 64 + (size_t)__builtin_ctzll(following | top);
  return k * 64 + (w ? here : there);
}

// MARK: the block

size_t arsim_rle_pending_bound(const arsim_rle_work *work) {
  // A token is at most 15 + 5 + 1 bits; the header at most 5 + 5 + 4 + 19 · 3 + 290 · 14 bits;
  // 8 bytes for the writer's whole-word stores.
  return work->tokenCount * 3 + 600 + 8;
}

int arsim_rle_reserve(arsim_rle_work *work, size_t rowLength, size_t bytes) {
  // A token per byte at most (the filter type byte is a literal), and 64 of slack for
  // copy_literals_avx2.
  size_t tokens = bytes + 64;
  if (work->tokenCapacity < tokens) {
    free(work->tokens);
    work->tokens = (uint16_t *)malloc(tokens * sizeof(uint16_t));
    work->tokenCapacity = work->tokens ? tokens : 0;
  }
  size_t words = rowLength / 64 + 2;
  if (work->maskCapacity < 2 * words) {
    free(work->masks);
    work->masks = (uint64_t *)malloc(2 * words * sizeof(uint64_t));
    work->maskCapacity = work->masks ? 2 * words : 0;
  }
  work->tokenCount = 0;
  work->inputBytes = 0;
  return work->tokens != NULL && work->masks != NULL;
}

void arsim_rle_free(arsim_rle_work *work) {
  free(work->tokens);
  free(work->masks);
  memset(work, 0, sizeof *work);
}

/// tokens[0..<count] = bytes widened; may write up to 15 tokens past them and read up to 15
/// bytes past the last.
static inline void copy_literals(const uint8_t *bytes, size_t count, uint16_t *tokens) {
#if defined(__x86_64__)
  const __m128i zero = _mm_setzero_si128();
  for (size_t k = 0; k < count; k += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(bytes + k));
    _mm_storeu_si128((__m128i *)(tokens + k), _mm_unpacklo_epi8(v, zero));
    _mm_storeu_si128((__m128i *)(tokens + k + 8), _mm_unpackhi_epi8(v, zero));
  }
#else
  for (size_t k = 0; k < count; ++k) tokens[k] = bytes[k];
#endif
}

#if defined(__x86_64__)
/// copy_literals 64 at a time (AVX2): one pass for most stretches, whose length varies too
/// much for the 16-byte loop's exit to be predicted. May write up to 63 tokens past them and
/// read up to 63 bytes past the last.
__attribute__((target("avx2"))) static inline void copy_literals_avx2(const uint8_t *bytes,
                                                                     size_t count,
                                                                     uint16_t *tokens) {
  for (size_t k = 0; k < count; k += 64) {
    for (int j = 0; j < 64; j += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(bytes + k + j));
      _mm256_storeu_si256((__m256i *)(tokens + k + j), _mm256_cvtepu8_epi16(v));
    }
  }
}
#endif

typedef void (*masks_function)(const uint8_t *row, size_t n, size_t d, uint64_t *masks);
typedef void (*copy_function)(const uint8_t *bytes, size_t count, uint16_t *tokens);

/// Tokens: 0…255 a literal byte, 256 + (L − 3) a run of L bytes (3…258) at distance d.
/// (Inlined with constant `find` and `copy` into each processor's variant.)
static inline __attribute__((always_inline)) size_t tokenize_with(
    const uint8_t *strip, size_t rowLength, size_t rows, size_t d, uint16_t *tokens,
    uint64_t *masks, masks_function find, copy_function copy) {
  size_t t = 0;
  const size_t n = rowLength - 1, words = (n + 63) / 64;
  uint64_t *equal = masks, *starts = masks + words + 1;
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t *row = strip + r * rowLength;
    tokens[t++] = row[0];
    const uint8_t *b = row + 1;
    find(b, n, d, equal);
    // A run starts where a stretch of ≥ 3 repeating bytes starts: bytes i, i+1 and i+2 repeat
    // and byte i−1 does not. (Any later start inside the stretch is part of its run.) Each
    // run's start is found from the masks alone, not from where the run before ended, so the
    // walk below is not one long chain of dependent loads.
    equal[words] = 0;
    uint64_t before = 0;
    for (size_t k = 0; k < words; ++k) {
      uint64_t e = equal[k], following = equal[k + 1];
      starts[k] = e & (e >> 1 | following << 63) & (e >> 2 | following << 62) &
                  ~(e << 1 | before >> 63);
      before = e;
    }
    size_t i = 0;
    for (size_t k = 0; k < words; ++k) {
      for (uint64_t pending = starts[k]; pending; pending &= pending - 1) {
        const size_t p = 64 * k + (size_t)__builtin_ctzll(pending);
        // Literals are counted later, in flush_block (a count per literal here was a chain of
        // stores to the same few counters), and copied 16 or 64 at a time: a loop that ended
        // at the exact byte mispredicted its exit on most stretches.
        copy(b + i, p - i, tokens + t);
        t += p - i;
        const size_t end = run_end(equal, p);
        size_t length = end - p;
        while (length > 258) {
          size_t piece = length - 258 >= 3 ? 258 : length - 3;
          tokens[t++] = (uint16_t)(256 + piece - 3);
          length -= piece;
        }
        tokens[t++] = (uint16_t)(256 + length - 3);
        i = end;
      }
    }
    copy(b + i, n - i, tokens + t);
    t += n - i;
  }
  return t;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static size_t tokenize_avx2(const uint8_t *strip,
                                                            size_t rowLength, size_t rows,
                                                            size_t d, uint16_t *tokens,
                                                            uint64_t *masks) {
  return tokenize_with(strip, rowLength, rows, d, tokens, masks, equal_masks_avx2,
                       copy_literals_avx2);
}
#endif

static size_t tokenize(const uint8_t *strip, size_t rowLength, size_t rows, size_t d,
                       uint16_t *tokens, uint64_t *masks) {
#if defined(__x86_64__)
  if (body_path() == 2) return tokenize_avx2(strip, rowLength, rows, d, tokens, masks);
  return tokenize_with(strip, rowLength, rows, d, tokens, masks, equal_masks_sse2, copy_literals);
#else
  return tokenize_with(strip, rowLength, rows, d, tokens, masks, equal_masks_scalar,
                       copy_literals);
#endif
}

// MARK: the body's bits

/// 0: the first encoder's body (two tokens per store), kept as the tests' reference; 1: three
/// tokens per store (every processor); 2: the same with BMI2's shifts, and the tokenizer with
/// AVX2 (x86-64-v3). The same bits on every path.
static int bodyPath = -1;

static int best_body_path(void) {
#if defined(__x86_64__)
  return arsim_cpu_supports_x86_64_v3() ? 2 : 1;
#else
  return 1;
#endif
}

static int body_path(void) {
  int path = __atomic_load_n(&bodyPath, __ATOMIC_RELAXED);
  if (path < 0) {
    path = best_body_path();
    __atomic_store_n(&bodyPath, path, __ATOMIC_RELAXED);
  }
  return path;
}

int arsim_rle_set_body_path(int path) {
  int best = best_body_path();
  if (path < 0 || path > best) path = best;
  __atomic_store_n(&bodyPath, path, __ATOMIC_RELAXED);
  return path;
}

/// Writes tokens[0..<6k] (k as large as `count` allows) three per 64-bit store and returns 6k.
/// Three tokens in a row take at most 57 bits (below), so with the ≤ 7 bits left over from the
/// store before they fit in the word, up to all 64 of its bits (hence the shift in two halves).
/// A literal's code is ≤ 15 bits and a run's ≤ 21 (15 + 5 extra + 1 for the distance); a run is
/// followed by a literal (the byte that ends it cannot start another run, and a row starts with
/// its filter byte) except where a run over 258 bytes is split, whose pieces are 258 (16 bits:
/// symbol 285 has no extra bits) but for the last, or the last two when the rest would fall
/// below 3 (the last is then 3: 16 bits). So no two 21-bit runs are adjacent: at most 21 + 15
/// + 21. With `shortCodes` (every token's bits ≤ 18, as in all 40 blocks of five B1 frames) three
/// take ≤ 54 bits, the word never fills (≤ 61 bits), and one shift by the bytes stored does.
static inline __attribute__((always_inline)) size_t write_tokens_three(
    const uint16_t *tokens, size_t count, const uint32_t *code, const uint8_t *length,
    arsim_bit_writer *out, const int shortCodes) {
  uint64_t bits = out->bits;
  uint64_t used = out->count;
  uint8_t *next = out->next;
  const uint16_t *p = tokens, *end = tokens + (count - count % 6);
  for (; p < end; p += 6) {
    for (int k = 0; k < 6; k += 3) {
      // The three joined first, off the chain through the bit count.
      const uint64_t first = length[p[k]], second = length[p[k + 1]];
      const uint64_t three = (uint64_t)code[p[k]] | (uint64_t)code[p[k + 1]] << first |
                             (uint64_t)code[p[k + 2]] << (first + second);
      bits |= three << used;
      used += first + second + length[p[k + 2]];
      memcpy(next, &bits, 8);
      next += used >> 3;
      if (shortCodes) {
        bits >>= used & ~7u;
      } else {
        const uint64_t half = (used & ~7u) >> 1;
        bits = bits >> half >> half;
      }
      used &= 7;
    }
  }
  out->bits = bits;
  out->count = (unsigned)used;
  out->next = next;
  return (size_t)(p - tokens);
}

static size_t write_tokens_plain(const uint16_t *tokens, size_t count, const uint32_t *code,
                                 const uint8_t *length, arsim_bit_writer *out, int shortCodes) {
  return shortCodes ? write_tokens_three(tokens, count, code, length, out, 1)
                    : write_tokens_three(tokens, count, code, length, out, 0);
}

#if defined(__x86_64__)
__attribute__((target("bmi,bmi2"))) static size_t write_tokens_bmi2(
    const uint16_t *tokens, size_t count, const uint32_t *code, const uint8_t *length,
    arsim_bit_writer *out, int shortCodes) {
  return shortCodes ? write_tokens_three(tokens, count, code, length, out, 1)
                    : write_tokens_three(tokens, count, code, length, out, 0);
}
#endif

/// The order the code-length code's lengths are written in (RFC 1951 §3.2.7).
static const uint8_t codeLengthOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                            11, 4,  12, 3, 13, 2, 14, 1, 15};

void arsim_rle_add_rows(arsim_rle_work *work, const uint8_t *rows, size_t rowLength,
                        size_t count, unsigned distance) {
  work->tokenCount +=
      tokenize(rows, rowLength, count, distance, work->tokens + work->tokenCount, work->masks);
  work->inputBytes += rowLength * count;
}

void arsim_rle_flush_block(arsim_rle_work *work, unsigned distance, int final,
                           arsim_bit_writer *out) {
  pthread_once(&tablesOnce, make_tables);
  const size_t count = work->tokenCount;
  // Four tables, so that equal tokens in a row do not wait on each other's increments (eight
  // measured the same).
  enum { tables = 4 };
  uint32_t partial[tables][512];
  memset(partial, 0, sizeof partial);
  const uint16_t *tokens = work->tokens;
  size_t k = 0;
  for (; k + tables <= count; k += tables) {
    for (int j = 0; j < tables; ++j) ++partial[j][tokens[k + j]];
  }
  for (; k < count; ++k) ++partial[0][tokens[k]];
  uint32_t tokenCount[512];
  for (int token = 0; token < 512; ++token) {
    uint32_t sum = 0;
    for (int j = 0; j < tables; ++j) sum += partial[j][token];
    tokenCount[token] = sum;
  }

  // Literal/length alphabet counts; the one distance used, 1…4, is code distance − 1.
  uint32_t frequency[286] = {0};
  for (int v = 0; v < 256; ++v) frequency[v] = tokenCount[v];
  frequency[256] = 1;  // end of block
  for (int length = 3; length <= 258; ++length) {
    frequency[257 + lengthSymbol[length]] += tokenCount[256 + length - 3];
  }
  uint8_t lengths[286 + 4];
  code_lengths(frequency, 286, 15, lengths);
  uint32_t codes[286];
  canonical_codes(lengths, 286, codes);
  // Two distance codes of one bit each (a complete code), the used one and code 0 (or 1):
  // canonically the lower symbol is bit 0.
  const int usedCode = (int)distance - 1, other = usedCode == 0 ? 1 : 0;
  const int distanceCodes = (usedCode > other ? usedCode : other) + 1;
  uint8_t *distanceLengths = lengths + 286;
  memset(distanceLengths, 0, 4);
  distanceLengths[usedCode] = 1;
  distanceLengths[other] = 1;
  const uint32_t distanceCode = usedCode > other ? 1 : 0;

  int literalCodes = 286;
  while (literalCodes > 257 && lengths[literalCodes - 1] == 0) --literalCodes;

  // The code lengths, run-length coded with symbols 16 (repeat), 17 and 18 (zeros).
  uint8_t all[286 + 4];
  memcpy(all, lengths, (size_t)literalCodes);
  memcpy(all + literalCodes, distanceLengths, (size_t)distanceCodes);
  const int allCount = literalCodes + distanceCodes;
  uint8_t rleSymbol[290], rleExtra[290];
  int rleCount = 0;
  uint32_t codeLengthFrequency[19] = {0};
  for (int i = 0; i < allCount;) {
    int run = 1;
    while (i + run < allCount && all[i + run] == all[i]) ++run;
    int taken;
    if (all[i] == 0 && run >= 11) {
      taken = run > 138 ? 138 : run;
      rleSymbol[rleCount] = 18;
      rleExtra[rleCount++] = (uint8_t)(taken - 11);
    } else if (all[i] == 0 && run >= 3) {
      taken = run;
      rleSymbol[rleCount] = 17;
      rleExtra[rleCount++] = (uint8_t)(taken - 3);
    } else if (run >= 4) {
      // The length once, then repeats of it (3…6 each).
      rleSymbol[rleCount] = all[i];
      rleExtra[rleCount++] = 0;
      ++codeLengthFrequency[all[i]];
      taken = 1 + (run - 1 > 6 ? 6 : run - 1);
      rleSymbol[rleCount] = 16;
      rleExtra[rleCount++] = (uint8_t)(taken - 1 - 3);
    } else {
      taken = 1;
      rleSymbol[rleCount] = all[i];
      rleExtra[rleCount++] = 0;
    }
    ++codeLengthFrequency[rleSymbol[rleCount - 1]];
    i += taken;
  }
  // (The repeat case counted its literal length above; the loop's last line counts the 16.)
  static const uint8_t rleExtraBits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, 2, 3, 7};
  uint8_t codeLengthLengths[19];
  code_lengths(codeLengthFrequency, 19, 7, codeLengthLengths);
  uint32_t codeLengthCodes[19];
  canonical_codes(codeLengthLengths, 19, codeLengthCodes);
  int codeLengthCount = 19;
  while (codeLengthCount > 4 && codeLengthLengths[codeLengthOrder[codeLengthCount - 1]] == 0) {
    --codeLengthCount;
  }

  // Every token's bits in one table entry: a run is its length code, extra bits and distance.
  uint32_t tokenCode[512];
  uint8_t tokenLength[512];
  for (int v = 0; v < 256; ++v) {
    tokenCode[v] = codes[v];
    tokenLength[v] = lengths[v];
  }
  for (int length = 3; length <= 258; ++length) {
    int s = lengthSymbol[length];
    unsigned bits = lengths[257 + s];
    uint32_t code = codes[257 + s];
    code |= (uint32_t)(length - lengthBase[s]) << bits;
    bits += lengthExtra[s];
    code |= distanceCode << bits;
    bits += 1;
    tokenCode[256 + length - 3] = code;
    tokenLength[256 + length - 3] = (uint8_t)bits;
  }

  put_bits(out, final ? 1 : 0, 1);
  put_bits(out, 2, 2);  // dynamic Huffman codes
  put_bits(out, (uint64_t)(literalCodes - 257), 5);
  put_bits(out, (uint64_t)(distanceCodes - 1), 5);
  put_bits(out, (uint64_t)(codeLengthCount - 4), 4);
  for (int i = 0; i < codeLengthCount; ++i) put_bits(out, codeLengthLengths[codeLengthOrder[i]], 3);
  for (int i = 0; i < rleCount; ++i) {
    uint8_t s = rleSymbol[i];
    put_bits(out, codeLengthCodes[s], codeLengthLengths[s]);
    if (rleExtraBits[s]) put_bits(out, rleExtra[i], rleExtraBits[s]);
  }

  // The body.
  size_t t = 0;
  const int path = body_path();
  unsigned longest = 0;  // bits of the longest token (unused runs' ≤ 6 bits included)
  for (int token = 0; token < 512; ++token) {
    if (tokenLength[token] > longest) longest = tokenLength[token];
  }
  const int shortCodes = longest <= 18;
#if defined(__x86_64__)
  if (path == 2) t = write_tokens_bmi2(tokens, count, tokenCode, tokenLength, out, shortCodes);
#endif
  if (path == 1) t = write_tokens_plain(tokens, count, tokenCode, tokenLength, out, shortCodes);
  uint64_t bits = out->bits;
  unsigned used = out->count;
  uint8_t *next = out->next;
  for (; t + 2 <= count; t += 2) {
    uint16_t a = tokens[t], b = tokens[t + 1];
    bits |= (uint64_t)tokenCode[a] << used;
    used += tokenLength[a];
    bits |= (uint64_t)tokenCode[b] << used;
    used += tokenLength[b];
    memcpy(next, &bits, 8);
    next += used >> 3;
    bits >>= used & ~7u;
    used &= 7;
  }
  out->bits = bits;
  out->count = used;
  out->next = next;
  for (; t < count; ++t) put_bits(out, tokenCode[tokens[t]], tokenLength[tokens[t]]);
  put_bits(out, codes[256], lengths[256]);
  if (final) align_to_byte(out);
  work->tokenCount = 0;
  work->inputBytes = 0;
}
