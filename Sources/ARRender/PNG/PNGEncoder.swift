import CPNG
import CPNGWriter

/// PNG encoding settings and the encoder itself: ARSim's own run-length deflate (the default) or
/// ISA-L's, inside a container written by `CPNGWriter`, or libpng with zlib through the `CPNG`
/// shim.
///
/// The defaults favour speed for rendered frames: the UP filter with the run-length encoder
/// (`Deflater.runLengthHuffman`, in the style of fpnge), several times faster than ISA-L
/// (igzip) level 1 on rendered frames and about as small (Documentation/Performance.md,
/// "Ninth round"). `small` keeps libpng's adaptive filter with zlib level 9 for archives.
/// Decoding the output always gives back the input pixels exactly (PNG is lossless), except
/// that `.rgb8` drops the alpha channel. The run-length encoder's bytes depend on the pixels
/// alone (no processor-specific path changes them); those of the ISA-L path depend on the code
/// path ISA-L picks for the processor (Documentation/Performance.md, "Which bytes are
/// identical where"); the pixels never do.
public struct PNGEncoder: Hashable, Sendable {
  /// The deflate implementation that compresses the filtered rows.
  public enum Deflater: Hashable, Sendable {
    /// ARSim's own encoder (`CPNGWriter/RunLengthDeflate.c`): each filtered byte is a literal
    /// or part of a run repeating the pixel to its left (found with vector compares, no hash
    /// table), one dynamic-Huffman block per ≈ 128 KiB of rows. Rendered frames are mostly
    /// zeros after the UP filter, which runs carry. `compressionLevel` and `strategy` do not
    /// apply.
    case runLengthHuffman
    /// Intel ISA-L's igzip (Debian `libisal-dev`), levels 0…3, in a PNG container written by
    /// ARSim (`CPNGWriter`). `strategy` does not apply.
    case isal
    /// zlib through libpng, levels 0…9, with `strategy`.
    case zlib
  }

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
  /// The deflater; default `.runLengthHuffman`.
  public var deflater: Deflater
  /// Deflate level: zlib 0 (store) … 9 (smallest), ISA-L 0 … 3; default 1.
  public var compressionLevel: Int
  /// The row filter; default `.up`.
  public var filter: Filter
  /// The zlib strategy; default `.default` (zlib only).
  public var strategy: Strategy

  /// Creates settings. Precondition: `compressionLevel` in 0…9 for zlib, 0…3 for ISA-L (trap;
  /// not used by the run-length encoder).
  /// With ISA-L, `.adaptive` picks per row the filter with the smallest sum of absolute signed
  /// bytes (the PNG specification's heuristic), not libpng's weighting.
  public init(
    pixelFormat: PixelFormat = .automatic, deflater: Deflater = .runLengthHuffman,
    compressionLevel: Int = 1,
    filter: Filter = .up, strategy: Strategy = .default
  ) {
    switch deflater {
    case .zlib: precondition((0...9).contains(compressionLevel), "zlib level must be in 0…9")
    case .isal: precondition((0...3).contains(compressionLevel), "ISA-L level must be in 0…3")
    case .runLengthHuffman: break
    }
    self.pixelFormat = pixelFormat
    self.deflater = deflater
    self.compressionLevel = compressionLevel
    self.filter = filter
    self.strategy = strategy
  }

  /// Encodes an RGBA8 image.
  /// - Parameter file: the name used in error messages.
  /// - Throws: `PNGError.encodingFailed` for an empty image or a libpng failure.
  /// - Complexity: O(width · height).
  public func encode(_ image: Image, file: String = "<memory>") throws -> [UInt8] {
    try encode(image, file: file) { Array($0) }
  }

  /// Encodes an RGBA8 image as `encode(_:file:)` does and hands the PNG bytes to `body`
  /// without copying them: they live in the encoder's buffers until `body` returns, so a
  /// caller writing them to a file saves a copy of the whole PNG.
  /// - Parameter file: the name used in error messages.
  /// - Throws: `PNGError.encodingFailed` as `encode(_:file:)`; whatever `body` throws.
  public func encode<Output>(
    _ image: Image, file: String = "<memory>",
    _ body: (UnsafeRawBufferPointer) throws -> Output
  ) throws -> Output {
    let format: arsim_pngw_format
    switch pixelFormat {
    case .rgb8: format = ARSIM_PNGW_RGBX8
    case .rgba8: format = ARSIM_PNGW_RGBA8
    case .automatic:
      // ARSim's container decides while filtering (no pass of its own over the frame).
      format =
        deflater == .zlib
        ? (image.isOpaque ? ARSIM_PNGW_RGBX8 : ARSIM_PNGW_RGBA8) : ARSIM_PNGW_RGBA8_AUTOMATIC
    }
    return try image.pixels.withUnsafeBytes { buffer in
      try encode(
        buffer.baseAddress, width: image.width, height: image.height, format: format, file: file,
        body)
    }
  }

  /// Encodes a depth map as 16-bit grayscale (big-endian in the file, as PNG requires).
  /// - Throws: `PNGError.encodingFailed` for an empty map or a libpng failure.
  public func encode(_ depth: DepthImage, file: String = "<memory>") throws -> [UInt8] {
    try encode(depth, file: file) { Array($0) }
  }

  /// Encodes a depth map as `encode(_:file:)` does and hands the PNG bytes to `body` without
  /// copying them (valid until `body` returns).
  /// - Throws: `PNGError.encodingFailed`; whatever `body` throws.
  public func encode<Output>(
    _ depth: DepthImage, file: String = "<memory>",
    _ body: (UnsafeRawBufferPointer) throws -> Output
  ) throws -> Output {
    try depth.millimetres.withUnsafeBytes { buffer in
      try encode(
        buffer.baseAddress, width: depth.width, height: depth.height, format: ARSIM_PNGW_GRAY16,
        file: file, body)
    }
  }

  private func encode<Output>(
    _ pixels: UnsafeRawPointer?, width: Int, height: Int, format: arsim_pngw_format, file: String,
    _ body: (UnsafeRawBufferPointer) throws -> Output
  ) throws -> Output {
    guard let pixels, width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max)
    else {
      throw PNGError.encodingFailed(
        InputLocation(file: file), message: "cannot encode a \(width)×\(height) image")
    }
    switch deflater {
    case .isal:
      return try encodeWithContainer(
        pixels, width: width, height: height, format: format, deflater: ARSIM_PNGW_DEFLATE_ISAL,
        file: file, body)
    case .runLengthHuffman:
      return try encodeWithContainer(
        pixels, width: width, height: height, format: format,
        deflater: ARSIM_PNGW_DEFLATE_RUN_LENGTH, file: file, body)
    case .zlib:
      return try encodeZlib(
        pixels, width: width, height: height, format: format, file: file, body)
    }
  }

  /// ARSim's container (`CPNGWriter`) around ISA-L or the run-length encoder.
  private func encodeWithContainer<Output>(
    _ pixels: UnsafeRawPointer, width: Int, height: Int, format: arsim_pngw_format,
    deflater: arsim_pngw_deflater, file: String, _ body: (UnsafeRawBufferPointer) throws -> Output
  ) throws -> Output {
    let cFilter: arsim_pngw_filter
    switch filter {
    case .none: cFilter = ARSIM_PNGW_FILTER_NONE
    case .sub: cFilter = ARSIM_PNGW_FILTER_SUB
    case .up: cFilter = ARSIM_PNGW_FILTER_UP
    case .paeth: cFilter = ARSIM_PNGW_FILTER_PAETH
    case .adaptive: cFilter = ARSIM_PNGW_FILTER_ADAPTIVE
    }
    var out: UnsafePointer<UInt8>? = nil
    var length = 0
    var buffers: UnsafeMutableRawPointer? = nil
    var message = [CChar](repeating: 0, count: 256)
    let status = message.withUnsafeMutableBufferPointer { error in
      arsim_pngw_encode(
        pixels, UInt32(width), UInt32(height), format, deflater,
        Int32(compressionLevel), cFilter, &out, &length, &buffers, error.baseAddress,
        error.count)
    }
    // The bytes live in the encoder's pooled buffers until released, after `body`.
    defer { arsim_pngw_release(buffers) }
    guard status == 0, let out else {
      throw PNGError.encodingFailed(InputLocation(file: file), message: decodeCString(message))
    }
    return try body(UnsafeRawBufferPointer(start: out, count: length))
  }

  private func encodeZlib<Output>(
    _ pixels: UnsafeRawPointer, width: Int, height: Int, format: arsim_pngw_format, file: String,
    _ body: (UnsafeRawBufferPointer) throws -> Output
  ) throws -> Output {
    // The layouts libpng's shim shares with CPNGWriter (same values); never the automatic one.
    let format = arsim_png_format(format.rawValue)
    let level = compressionLevel
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
    return try body(UnsafeRawBufferPointer(start: out, count: length))
  }
}

extension PNGEncoder {
  /// The vector extension `CPNGWriter`'s UP filter uses on this processor: `avx512` (BW, VBMI
  /// and VNNI), `avx2`, `ssse3` or `scalar` (the run-length encoder's run finder uses AVX2 or
  /// SSE2).
  public static var filterInstructionSet: String {
    var room = [UInt8](repeating: 0, count: 64)
    let pixel: [UInt8] = [0, 0, 0, 0]
    switch arsim_pngw_up_rgbx(pixel, nil, 0, &room, -1) {
    case 3: return "avx512"
    case 2: return "avx2"
    case 1: return "ssse3"
    default: return "scalar"
    }
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
