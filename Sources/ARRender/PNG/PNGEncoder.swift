import CPNG

/// PNG encoding settings and the encoder itself (libpng through the `CPNG` shim).
///
/// The defaults favour speed for rendered frames: the UP filter with zlib level 1. On a
/// 1920×1440 rendered-like frame (gradient + 300 shaded discs) UP/1 encoded as fast as SUB/1
/// or NONE/1 and 25 % smaller than SUB/1; level 6 is 10–15 % smaller and about 2.5× slower
/// (table in Documentation/Goldens.md).
/// Decoding the output always gives back the input pixels exactly (PNG is lossless), except
/// that `.rgb8` drops the alpha channel.
public struct PNGEncoder: Hashable, Sendable {
  /// The pixel layout written into the file.
  public enum PixelFormat: Hashable, Sendable {
    /// RGB 8 bits per channel if every pixel is opaque (alpha 255), else RGBA: lossless and
    /// as small as the image allows.
    case automatic
    /// 8-bit RGB (PNG colour type 2); the alpha channel is dropped.
    case rgb8
    /// 8-bit RGBA (PNG colour type 6), not premultiplied.
    case rgba8
  }

  /// The PNG row filter (PNG specification §9); `adaptive` lets libpng choose per row.
  public enum Filter: Hashable, Sendable {
    /// No filter (type 0).
    case none
    /// Difference with the pixel to the left (type 1).
    case sub
    /// Difference with the pixel above (type 2).
    case up
    /// Paeth predictor (type 4).
    case paeth
    /// libpng's heuristic over all five filters, per row (slowest, usually smallest).
    case adaptive
  }

  /// The zlib compression strategy (`deflateInit2`'s `strategy`, zlib.h).
  public enum Strategy: Int32, Hashable, Sendable {
    /// `Z_DEFAULT_STRATEGY`.
    case `default` = 0
    /// `Z_FILTERED`: favours Huffman coding for filtered data.
    case filtered = 1
    /// `Z_HUFFMAN_ONLY`: no string matching.
    case huffmanOnly = 2
    /// `Z_RLE`: matches of distance one only (fast, good on flat areas).
    case runLength = 3
    /// `Z_FIXED`: fixed Huffman codes.
    case fixed = 4
  }

  /// The layout written; default `.automatic`.
  public var pixelFormat: PixelFormat
  /// zlib level 0 (store) … 9 (smallest); default 1.
  public var compressionLevel: Int
  /// The row filter; default `.up`.
  public var filter: Filter
  /// The zlib strategy; default `.default`.
  public var strategy: Strategy

  /// Creates settings. Precondition: `compressionLevel` in 0…9 (trap).
  public init(
    pixelFormat: PixelFormat = .automatic, compressionLevel: Int = 1, filter: Filter = .up,
    strategy: Strategy = .default
  ) {
    precondition((0...9).contains(compressionLevel), "zlib level must be in 0…9")
    self.pixelFormat = pixelFormat
    self.compressionLevel = compressionLevel
    self.filter = filter
    self.strategy = strategy
  }

  /// Encodes an RGBA8 image.
  /// - Parameter file: the name used in error messages.
  /// - Throws: `PNGError.encodingFailed` for an empty image or a libpng failure.
  /// - Complexity: O(width · height).
  public func encode(_ image: Image, file: String = "<memory>") throws -> [UInt8] {
    let format: arsim_png_format
    switch pixelFormat {
    case .rgb8: format = ARSIM_PNG_RGBX8
    case .rgba8: format = ARSIM_PNG_RGBA8
    case .automatic: format = image.isOpaque ? ARSIM_PNG_RGBX8 : ARSIM_PNG_RGBA8
    }
    return try image.pixels.withUnsafeBytes { buffer in
      try Self.encode(
        buffer.baseAddress, width: image.width, height: image.height, format: format,
        level: compressionLevel, filter: filter, strategy: strategy, file: file)
    }
  }

  /// Encodes a depth map as 16-bit grayscale (big-endian in the file, as PNG requires).
  /// - Throws: `PNGError.encodingFailed` for an empty map or a libpng failure.
  public func encode(_ depth: DepthImage, file: String = "<memory>") throws -> [UInt8] {
    try depth.millimetres.withUnsafeBytes { buffer in
      try Self.encode(
        buffer.baseAddress, width: depth.width, height: depth.height, format: ARSIM_PNG_GRAY16,
        level: compressionLevel, filter: filter, strategy: strategy, file: file)
    }
  }

  private static func encode(
    _ pixels: UnsafeRawPointer?, width: Int, height: Int, format: arsim_png_format, level: Int,
    filter: Filter, strategy: Strategy, file: String
  ) throws -> [UInt8] {
    guard let pixels, width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max)
    else {
      throw PNGError.encodingFailed(
        InputLocation(file: file), message: "cannot encode a \(width)×\(height) image")
    }
    let cFilter: arsim_png_filter
    switch filter {
    case .none: cFilter = ARSIM_PNG_FILTER_NONE
    case .sub: cFilter = ARSIM_PNG_FILTER_SUB
    case .up: cFilter = ARSIM_PNG_FILTER_UP
    case .paeth: cFilter = ARSIM_PNG_FILTER_PAETH
    case .adaptive: cFilter = ARSIM_PNG_FILTER_ADAPTIVE
    }
    var out: UnsafeMutablePointer<UInt8>? = nil
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { error in
      arsim_png_encode(
        pixels, UInt32(width), UInt32(height), format, Int32(level), cFilter, strategy.rawValue,
        &out, &length, error.baseAddress, error.count)
    }
    defer { arsim_png_free(out) }
    guard status == 0, let out else {
      throw PNGError.encodingFailed(InputLocation(file: file), message: decodeCString(message))
    }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }
}

/// The text of a NUL-terminated C buffer (invalid UTF-8 repaired).
func decodeCString(_ buffer: [CChar]) -> String {
  let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  return String(decoding: bytes, as: UTF8.self)
}

extension Image {
  /// Whether every pixel's alpha is 255.
  /// - Complexity: O(width · height).
  public var isOpaque: Bool {
    pixels.withUnsafeBytes { bytes in
      // AND of all pixels, eight bytes (two pixels) at a time: the alpha bytes of the result
      // are 255 only if every alpha is (no early exit, so the loop vectorizes).
      let words = bytes.count / 8
      var all = UInt64.max
      for w in 0..<words {
        all &= bytes.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)
      }
      let alphas = UInt64(0xFF00_0000_FF00_0000).littleEndian
      var opaque = all & alphas == alphas
      var i = words * 8 + 3
      while i < bytes.count {
        opaque = opaque && bytes[i] == 255
        i += 4
      }
      return opaque
    }
  }
}
