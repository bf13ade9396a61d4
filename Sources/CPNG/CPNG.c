#include "CPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *error;
  size_t capacity;
} error_sink;

static void on_error(png_structp png, png_const_charp message) {
  error_sink *sink = (error_sink *)png_get_error_ptr(png);
  if (sink && sink->error && sink->capacity > 0) {
    snprintf(sink->error, sink->capacity, "%s", message);
  }
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void set_error(char *error, size_t capacity, const char *message) {
  if (error && capacity > 0) snprintf(error, capacity, "%s", message);
}

typedef struct {
  uint8_t *data;
  size_t length;
  size_t capacity;
  int failed;
} growable;

static void write_to_memory(png_structp png, png_bytep bytes, png_size_t count) {
  growable *buffer = (growable *)png_get_io_ptr(png);
  if (buffer->length + count > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 65536;
    while (capacity < buffer->length + count) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(buffer->data, capacity);
    if (!grown) {
      buffer->failed = 1;
      png_error(png, "out of memory while encoding");
    }
    buffer->data = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->length, bytes, count);
  buffer->length += count;
}

static void flush_nothing(png_structp png) { (void)png; }

int arsim_png_encode(const void *pixels, uint32_t width, uint32_t height, arsim_png_format format,
                     int zlibLevel, arsim_png_filter filter, int zlibStrategy,
                     uint8_t **out, size_t *outLength, char *error, size_t errorCapacity) {
  if (!pixels || !out || !outLength || width == 0 || height == 0) {
    set_error(error, errorCapacity, "invalid arguments to encoder");
    return 1;
  }
  error_sink sink = {error, errorCapacity};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
  if (!png) {
    set_error(error, errorCapacity, "png_create_write_struct failed");
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  growable buffer = {NULL, 0, 0, 0};
  png_bytep *volatile rows = NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    set_error(error, errorCapacity, "png_create_info_struct failed");
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(buffer.data);
    free(rows);
    return 1;
  }
  png_set_write_fn(png, &buffer, write_to_memory, flush_nothing);
  int colorType = PNG_COLOR_TYPE_RGB, bitDepth = 8;
  size_t bytesPerPixel = 3;
  switch (format) {
    case ARSIM_PNG_RGB8: break;
    case ARSIM_PNG_RGBA8: colorType = PNG_COLOR_TYPE_RGB_ALPHA; bytesPerPixel = 4; break;
    case ARSIM_PNG_GRAY16: colorType = PNG_COLOR_TYPE_GRAY; bitDepth = 16; bytesPerPixel = 2; break;
    case ARSIM_PNG_RGBX8: bytesPerPixel = 4; break;
    default: png_error(png, "unknown pixel format");
  }
  png_set_IHDR(png, info, width, height, bitDepth, colorType, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  int filters = PNG_ALL_FILTERS;
  switch (filter) {
    case ARSIM_PNG_FILTER_NONE: filters = PNG_FILTER_NONE; break;
    case ARSIM_PNG_FILTER_SUB: filters = PNG_FILTER_SUB; break;
    case ARSIM_PNG_FILTER_UP: filters = PNG_FILTER_UP; break;
    case ARSIM_PNG_FILTER_PAETH: filters = PNG_FILTER_PAETH; break;
    case ARSIM_PNG_FILTER_ADAPTIVE: filters = PNG_ALL_FILTERS; break;
  }
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
  png_set_compression_level(png, zlibLevel);
  png_set_compression_strategy(png, zlibStrategy);
  png_write_info(png, info);
  if (format == ARSIM_PNG_RGBX8) png_set_filler(png, 0, PNG_FILLER_AFTER);  // strip the 4th byte
  if (bitDepth == 16) {
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) png_set_swap(png);  // host little-endian → PNG big-endian
  }
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (!rows) png_error(png, "out of memory for row pointers");
  size_t stride = (size_t)width * bytesPerPixel;
  for (uint32_t y = 0; y < height; ++y) rows[y] = (png_bytep)pixels + stride * y;
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  *out = buffer.data;
  *outLength = buffer.length;
  return 0;
}

typedef struct {
  const uint8_t *data;
  size_t length;
  size_t offset;
} reader;

static void read_from_memory(png_structp png, png_bytep bytes, png_size_t count) {
  reader *source = (reader *)png_get_io_ptr(png);
  if (count > source->length - source->offset) png_error(png, "unexpected end of file (truncated PNG)");
  memcpy(bytes, source->data + source->offset, count);
  source->offset += count;
}

int arsim_png_decode(const uint8_t *data, size_t length, int wantGray16, uint8_t **out,
                     uint32_t *width, uint32_t *height, char *error, size_t errorCapacity) {
  if (!data || !out || !width || !height) {
    set_error(error, errorCapacity, "invalid arguments to decoder");
    return 1;
  }
  if (length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
    set_error(error, errorCapacity, "not a PNG file (bad signature)");
    return 1;
  }
  error_sink sink = {error, errorCapacity};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
  if (!png) {
    set_error(error, errorCapacity, "png_create_read_struct failed");
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    set_error(error, errorCapacity, "png_create_info_struct failed");
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    free(rows);
    return 1;
  }
  reader source = {data, length, 0};
  png_set_read_fn(png, &source, read_from_memory);
  // Guard against decompression bombs: 16384 px per side and 256 MiB of chunks at most.
  png_set_user_limits(png, 16384, 16384);
  png_set_chunk_malloc_max(png, 256u * 1024u * 1024u);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  int colorType = png_get_color_type(png, info);
  int bitDepth = png_get_bit_depth(png, info);
  size_t bytesPerPixel;
  if (wantGray16) {
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType & PNG_COLOR_MASK_COLOR) png_set_rgb_to_gray_fixed(png, 1, -1, -1);
    if (colorType == PNG_COLOR_TYPE_GRAY && bitDepth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (colorType & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS(png, info, NULL, 0, NULL);
    if (bitDepth < 16) png_set_expand_16(png);
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) png_set_swap(png);
    bytesPerPixel = 2;
  } else {
    png_set_expand(png);  // palette → RGB, gray < 8 bits → 8, tRNS → alpha
    png_set_scale_16(png);  // 16 → 8 by rounding v*255/65535
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);  // no effect when alpha exists
    bytesPerPixel = 4;
  }
  png_set_interlace_handling(png);  // Adam7 passes are combined by libpng
  png_read_update_info(png, info);
  size_t rowBytes = png_get_rowbytes(png, info);
  if (rowBytes != (size_t)w * bytesPerPixel) png_error(png, "unexpected row size after transforms");
  pixels = (uint8_t *)malloc(rowBytes * h);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
  if (!pixels || !rows) png_error(png, "out of memory for the decoded image");
  for (png_uint_32 y = 0; y < h; ++y) rows[y] = pixels + rowBytes * y;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  *out = pixels;
  *width = w;
  *height = h;
  return 0;
}

void arsim_png_free(void *buffer) { free(buffer); }
