// FreeType through pkg-config (freetype2). Its headers are named by macros, which Swift cannot
// follow, and its load flags are macro expressions Swift does not import: both are here.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SFNT_NAMES_H
#include FT_TRUETYPE_IDS_H

/// Load flags for text glyphs: rendered to an 8-bit coverage bitmap, unhinted (outlines as
/// designed, so glyph images change least between FreeType versions), no embedded bitmaps.
static inline FT_Int32 arsim_ft_glyph_load_flags(void) {
  return FT_LOAD_RENDER | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP;
}

/// The face's glyph slot's bitmap (FT_Face's fields are reachable from Swift, but this keeps
/// the pointer chasing in one place).
static inline const FT_Bitmap *arsim_ft_slot_bitmap(FT_Face face) { return &face->glyph->bitmap; }

/// Whether the face has a kerning table FT_Get_Kerning reads (FT_HAS_KERNING).
static inline int arsim_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }
