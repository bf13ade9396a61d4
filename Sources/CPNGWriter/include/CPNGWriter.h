// A PNG writer around ISA-L's deflate (igzip): signature, IHDR, one IDAT, IEND and their
// CRC-32s written here, rows filtered here (SIMD for the UP filter). libpng cannot take another
// deflater, so the container is written by hand (PNG specification, 2nd edition, §5 and §11).
#ifndef ARSIM_CPNGWRITER_H
#define ARSIM_CPNGWRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Pixel layouts the writer takes (the same values as CPNG's arsim_png_format).
typedef enum {
  ARSIM_PNGW_RGB8 = 0,    ///< 3 bytes per pixel in memory, written as RGB (colour type 2).
  ARSIM_PNGW_RGBA8 = 1,   ///< 4 bytes per pixel, written as RGBA (colour type 6).
  ARSIM_PNGW_GRAY16 = 2,  ///< one host-endian uint16 per pixel, written big-endian (type 0).
  ARSIM_PNGW_RGBX8 = 3,   ///< 4 bytes per pixel in memory, written as RGB (4th byte dropped).
  /// RGBA in memory, written as RGB when every alpha is 255, else as RGBA. With the UP filter
  /// the check rides on the filter's reads (no pass of its own); an image found translucent
  /// part way is encoded again as RGBA from the start.
  ARSIM_PNGW_RGBA8_AUTOMATIC = 4,
} arsim_pngw_format;

/// Row filters (PNG §9.2); ADAPTIVE picks per row the filter with the smallest sum of
/// absolute values of the filtered bytes taken as signed (the PNG specification's heuristic, §12.8).
typedef enum {
  ARSIM_PNGW_FILTER_NONE = 0,
  ARSIM_PNGW_FILTER_SUB = 1,
  ARSIM_PNGW_FILTER_UP = 2,
  ARSIM_PNGW_FILTER_PAETH = 3,
  ARSIM_PNGW_FILTER_ADAPTIVE = 4,
} arsim_pngw_filter;

/// The deflate encoder of the image data.
typedef enum {
  /// ISA-L's isal_deflate (igzip) at the given level (0…3).
  ARSIM_PNGW_DEFLATE_ISAL = 0,
  /// ARSim's own run-length + Huffman encoder (RunLengthDeflate.h): runs that repeat the pixel to
  /// the left, one dynamic-Huffman block per strip of rows; the level is not used.
  ARSIM_PNGW_DEFLATE_RUN_LENGTH = 1,
} arsim_pngw_deflater;

/// Encodes `height` rows of `width` pixels (tightly packed, top row first) as a PNG whose image
/// data is one zlib stream in one IDAT chunk, from `deflater` (ISA-L at `level` 0…3, or the
/// run-length encoder).
/// On success returns 0 and sets *out, *outLength and *buffers: the bytes live in a set of work
/// buffers (reused from a small pool) until arsim_pngw_release(*buffers), which must follow.
/// On failure returns non-zero with a NUL-terminated message in `error` (nothing to release).
/// Thread-safe.
int arsim_pngw_encode(const void *pixels, uint32_t width, uint32_t height,
                      arsim_pngw_format format, arsim_pngw_deflater deflater, int level,
                      arsim_pngw_filter filter, const uint8_t **out, size_t *outLength, void **buffers, char *error,
                      size_t errorCapacity);

/// Gives the work buffers of a successful arsim_pngw_encode back to the pool.
void arsim_pngw_release(void *buffers);

/// Which code paths the run-length encoder takes from now on, for every thread: 0 the first
/// encoder's body loop (two tokens per 64-bit store; kept as a reference), 1 three tokens per
/// store (every processor), 2 the same with BMI2 and the tokenizer in AVX2 (x86-64-v3); −1, or
/// a path this processor lacks, the best it runs. The bytes are the same on every path. Returns
/// the path chosen. For tests.
int arsim_rle_set_body_path(int path);

/// The UP filter of one RGBX8 row written as RGB (3·width bytes into `out`, which needs 32
/// bytes of room past them): out = RGB(current) − RGB(above), bytewise mod 256; `above` NULL
/// for the first row. `path`: 0 scalar, 1 SSSE3, 2 AVX2, 3 AVX-512 (BW, VBMI, VNNI), −1 the
/// best this processor runs.
/// Returns the path used (a lower one when the processor lacks the asked one). For tests.
int arsim_pngw_up_rgbx(const uint8_t *current, const uint8_t *above, size_t width,
                       uint8_t *out, int path);

/// arsim_pngw_up_rgbx that also sets *alpha (when not NULL) to the AND of the row's alpha
/// bytes: 255 when every pixel of the row is opaque. For tests.
int arsim_pngw_up_rgbx_alpha(const uint8_t *current, const uint8_t *above, size_t width,
                             uint8_t *out, int path, uint8_t *alpha);

/// Which UP filter path (as arsim_pngw_up_rgbx's `path`) encodes of RGBX rows take from now on,
/// for every thread; with paths 2 and 3 the filter also sums the Adler-32. −1, or a path this
/// processor lacks, the best it runs. The bytes are the same on every path. Returns the path
/// chosen. For tests.
int arsim_pngw_set_filter_path(int path);

/// The PNG CRC-32 (ISO 3309 / ITU-T V.42, as gzip's) of `length` bytes, continuing `crc`
/// (0 to start): ISA-L's crc32_gzip_refl.
uint32_t arsim_pngw_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
