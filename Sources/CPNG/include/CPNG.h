// PNG encode/decode shim over libpng. libpng reports errors by longjmp, which Swift cannot
// catch; this shim owns setjmp and returns error codes with a message instead.
#ifndef ARSIM_CPNG_H
#define ARSIM_CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Pixel layouts the encoder writes.
typedef enum {
  ARSIM_PNG_RGB8 = 0,    ///< 3 bytes per pixel, R G B.
  ARSIM_PNG_RGBA8 = 1,   ///< 4 bytes per pixel, R G B A.
  ARSIM_PNG_GRAY16 = 2,  ///< one host-endian uint16 per pixel; written big-endian.
  ARSIM_PNG_RGBX8 = 3,   ///< 4 bytes per pixel in memory (R G B A); written as RGB, A dropped.
} arsim_png_format;

/// Row filter choice for the encoder (libpng PNG_FILTER_* bits).
typedef enum {
  ARSIM_PNG_FILTER_NONE = 0,
  ARSIM_PNG_FILTER_SUB = 1,
  ARSIM_PNG_FILTER_UP = 2,
  ARSIM_PNG_FILTER_PAETH = 3,
  ARSIM_PNG_FILTER_ADAPTIVE = 4,  ///< libpng's default: all filters, heuristic choice per row.
} arsim_png_filter;

/// Encodes `height` rows of `width` pixels (tightly packed, top row first) to PNG bytes.
/// On success returns 0 and sets *out (free with arsim_png_free) and *outLength.
/// On failure returns non-zero and writes a message into `error` (NUL-terminated).
int arsim_png_encode(const void *pixels, uint32_t width, uint32_t height, arsim_png_format format,
                     int zlibLevel, arsim_png_filter filter, int zlibStrategy,
                     uint8_t **out, size_t *outLength, char *error, size_t errorCapacity);

/// Decodes any PNG libpng reads to RGBA8 (wantGray16 = 0) or to host-endian 16-bit gray
/// (wantGray16 = 1; colour images are converted with libpng's rgb_to_gray defaults).
/// 16-bit channels become 8-bit by rounding v*255/65535 (png_set_scale_16); no gamma.
/// On success *out holds width*height*4 bytes (RGBA8) or width*height uint16 (gray16).
int arsim_png_decode(const uint8_t *data, size_t length, int wantGray16, uint8_t **out,
                     uint32_t *width, uint32_t *height, char *error, size_t errorCapacity);

/// Frees a buffer returned by the encoder or decoder.
void arsim_png_free(void *buffer);

#ifdef __cplusplus
}
#endif

#endif
