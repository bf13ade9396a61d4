// A deflate encoder (RFC 1951) for filtered PNG rows in the style of fpnge: no hash table and no
// match search. Each byte is a literal or part of a run that repeats the pixel to its left (one
// distance: 3 bytes back in RGB), found with vector compares; about every MiB of rows is one
// dynamic-Huffman block with code lengths built from that block's own counts.
// Rendered frames are mostly zeros after the UP filter (83 % of a B1 frame's bytes), so runs
// carry most of the image and the literals left are the shaded content.
#ifndef ARSIM_RUN_LENGTH_DEFLATE_H
#define ARSIM_RUN_LENGTH_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/// Bits not yet written, and where the next byte goes. The output needs 8 bytes of room past
/// the last byte written (whole 64-bit stores).
typedef struct {
  uint8_t *next;
  uint64_t bits;
  unsigned count;
} arsim_bit_writer;

/// Work memory of one encode: the tokens of the block being gathered and the row's run masks.
typedef struct {
  uint16_t *tokens;
  size_t tokenCapacity, tokenCount, inputBytes;
  uint64_t *masks;
  size_t maskCapacity;
} arsim_rle_work;

/// Makes `work` large enough for blocks of up to `bytes` bytes of rows of `rowLength` bytes;
/// 0 when out of memory. Clears the block being gathered.
int arsim_rle_reserve(arsim_rle_work *work, size_t rowLength, size_t bytes);

/// Adds `count` filtered rows of `rowLength` bytes each (the first byte of a row is its filter
/// type; runs stay inside a row) to the block: each byte a literal or part of a run repeating
/// the bytes `distance` (1…4: the bytes per pixel) back. The block's bytes must stay within
/// the size given to arsim_rle_reserve. The rows must be followed by 64 readable bytes.
void arsim_rle_add_rows(arsim_rle_work *work, const uint8_t *rows, size_t rowLength,
                        size_t count, unsigned distance);

/// The most bytes arsim_rle_flush_block can write for the block gathered so far (8 bytes of
/// room for whole 64-bit stores included).
size_t arsim_rle_pending_bound(const arsim_rle_work *work);

/// Writes the block gathered as one dynamic-Huffman block (code lengths from its own counts),
/// the last of the stream when `final` (then byte-aligned), and starts a new one.
void arsim_rle_flush_block(arsim_rle_work *work, unsigned distance, int final,
                           arsim_bit_writer *out);

void arsim_rle_free(arsim_rle_work *work);

#endif
