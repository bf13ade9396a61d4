import CFreeType
import Foundation

/// A font file opened with FreeType, rendering glyphs at pixel sizes on demand.
///
/// Glyphs are rendered unhinted with FreeType's anti-aliasing (8-bit coverage) and cached per
/// (character, pixel size). A face may be shared between threads: FreeType calls are
/// serialised by a lock (FreeType faces are not thread-safe), and cached glyphs are values.
public final class FontFace: @unchecked Sendable {
  /// The font file.
  public let path: String
  /// The family name inside the file, e.g. `DejaVu Sans`.
  public let familyName: String
  /// The font's own version string (OpenType name ID 5), e.g. `Version 2.37`; empty if absent.
  public let fontVersion: String
  /// The FreeType library version that renders it, e.g. `2.12.1`.
  public let freeTypeVersion: String

  private let lock = NSLock()
  private var library: FT_Library?
  private var face: FT_Face?
  private var hasKerning: Bool
  private var sizeInPixels = 0
  private var glyphs: [GlyphKey: Glyph] = [:]
  private var metrics: [Int: LineMetrics] = [:]

  private struct GlyphKey: Hashable {
    var scalar: UInt32
    var pixelSize: Int
  }

  /// Opens the font file at `path` (face 0).
  /// - Throws: `TextError.freeType` when FreeType cannot start, `.unreadableFont` when the
  ///   file is missing or not a font FreeType reads.
  public init(path: String) throws(TextError) {
    self.path = path
    var library: FT_Library?
    let initError = FT_Init_FreeType(&library)
    guard initError == 0, let library else {
      throw .freeType(operation: "initialisation", code: initError)
    }
    var face: FT_Face?
    let openError = FT_New_Face(library, path, 0, &face)
    guard openError == 0, let face else {
      FT_Done_FreeType(library)
      throw .unreadableFont(path: path, code: openError)
    }
    self.library = library
    self.face = face
    hasKerning = arsim_ft_has_kerning(face) != 0
    familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
    fontVersion = Self.nameEntry(face, id: UInt16(TT_NAME_ID_VERSION_STRING))
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    FT_Library_Version(library, &major, &minor, &patch)
    freeTypeVersion = "\(major).\(minor).\(patch)"
  }

  deinit {
    if let face { FT_Done_Face(face) }
    if let library { FT_Done_FreeType(library) }
  }

  /// Vertical metrics at `pixelSize` (the em size in pixels).
  /// - Throws: `TextError.freeType` when FreeType cannot set the size.
  public func lineMetrics(pixelSize: Int) throws(TextError) -> LineMetrics {
    lock.lock()
    defer { lock.unlock() }
    if let known = metrics[pixelSize] { return known }
    try setSize(pixelSize)
    guard let size = face?.pointee.size?.pointee.metrics else {
      throw .freeType(operation: "size metrics", code: -1)
    }
    // 26.6 fixed point, rounded outwards to whole pixels.
    let value = LineMetrics(
      ascender: (Int(size.ascender) + 63) >> 6, descender: (-Int(size.descender) + 63) >> 6,
      lineHeight: (Int(size.height) + 63) >> 6)
    metrics[pixelSize] = value
    return value
  }

  /// The glyph for `scalar` at `pixelSize`; a character the font lacks gives its `.notdef`
  /// glyph (an empty box in DejaVu), as text views do.
  /// - Throws: `TextError.freeType` when FreeType cannot size or render the glyph.
  public func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) throws(TextError) -> Glyph {
    let key = GlyphKey(scalar: scalar.value, pixelSize: pixelSize)
    lock.lock()
    defer { lock.unlock() }
    if let cached = glyphs[key] { return cached }
    try setSize(pixelSize)
    guard let face else { throw .freeType(operation: "glyph rendering", code: -1) }
    let error = FT_Load_Char(face, FT_ULong(scalar.value), arsim_ft_glyph_load_flags())
    guard error == 0, let slot = face.pointee.glyph else {
      throw .freeType(operation: "rendering U+\(String(scalar.value, radix: 16))", code: error)
    }
    let bitmap = arsim_ft_slot_bitmap(face).pointee
    let width = Int(bitmap.width)
    let rows = Int(bitmap.rows)
    var coverage = [UInt8](repeating: 0, count: width * rows)
    if let buffer = bitmap.buffer, width > 0 {
      let pitch = Int(bitmap.pitch)
      for row in 0..<rows {
        // A negative pitch stores rows bottom first.
        let source = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
        for column in 0..<width { coverage[row * width + column] = buffer[source + column] }
      }
    }
    let glyph = Glyph(
      width: width, height: rows, left: Int(slot.pointee.bitmap_left),
      top: Int(slot.pointee.bitmap_top), advance: Int(slot.pointee.advance.x), coverage: coverage)
    glyphs[key] = glyph
    return glyph
  }

  /// The kerning adjustment between two characters at `pixelSize`, in 1/64 pixel (0 when the
  /// font has no kerning table).
  /// - Throws: `TextError.freeType` when FreeType cannot set the size.
  public func kerning(_ left: Unicode.Scalar, _ right: Unicode.Scalar, pixelSize: Int)
    throws(TextError) -> Int
  {
    guard hasKerning else { return 0 }
    lock.lock()
    defer { lock.unlock() }
    try setSize(pixelSize)
    guard let face else { return 0 }
    let leftIndex = FT_Get_Char_Index(face, FT_ULong(left.value))
    let rightIndex = FT_Get_Char_Index(face, FT_ULong(right.value))
    var vector = FT_Vector()
    let error = FT_Get_Kerning(
      face, leftIndex, rightIndex, FT_UInt(FT_KERNING_UNFITTED.rawValue), &vector)
    return error == 0 ? Int(vector.x) : 0
  }

  /// Sets the face's size; the caller holds the lock.
  private func setSize(_ pixelSize: Int) throws(TextError) {
    guard pixelSize != sizeInPixels else { return }
    guard let face, pixelSize > 0, pixelSize <= 4096 else {
      throw .freeType(operation: "sizing to \(pixelSize) px", code: -1)
    }
    let error = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
    guard error == 0 else { throw .freeType(operation: "sizing to \(pixelSize) px", code: error) }
    sizeInPixels = pixelSize
  }

  /// An OpenType name-table entry: Windows Unicode (UTF-16BE) preferred, else Mac Roman.
  private static func nameEntry(_ face: FT_Face, id: UInt16) -> String {
    var fallback = ""
    for index in 0..<FT_Get_Sfnt_Name_Count(face) {
      var name = FT_SfntName()
      guard FT_Get_Sfnt_Name(face, index, &name) == 0, name.name_id == id,
        let bytes = name.string
      else { continue }
      let data = UnsafeBufferPointer(start: bytes, count: Int(name.string_len))
      if name.platform_id == UInt16(TT_PLATFORM_MICROSOFT) {
        var units: [UInt16] = []
        for i in stride(from: 0, to: data.count - 1, by: 2) {
          units.append(UInt16(data[i]) << 8 | UInt16(data[i + 1]))
        }
        return String(decoding: units, as: UTF16.self)
      }
      if name.platform_id == UInt16(TT_PLATFORM_MACINTOSH), fallback.isEmpty {
        fallback = String(decoding: data, as: UTF8.self)
      }
    }
    return fallback
  }
}

/// A font's vertical metrics at one pixel size, in whole pixels (rounded up).
public struct LineMetrics: Hashable, Sendable {
  /// Height of the tallest glyphs above the baseline.
  public var ascender: Int
  /// Depth of the lowest glyphs below the baseline (positive).
  public var descender: Int
  /// Baseline-to-baseline distance the font recommends.
  public var lineHeight: Int
}
