import ARRender
import ARRenderCore
import ARSupport
import CTurboJPEG

/// Decodes recorded camera images, PNG through libpng and JPEG through libjpeg-turbo, into
/// RGBA8 `Image`s (sRGB as stored; no colour-profile conversion). The format is told by the
/// file's first bytes, not its name.
public enum CameraImageDecoder {
  /// The largest image accepted: 16384 pixels a side (libpng's limit in ARSim's decoder) and
  /// 64 Mi pixels in all (256 MiB of RGBA), checked from the header before any pixel is decoded.
  public static let maximumSide = ImageLimits.maximumSide
  /// See `maximumSide`.
  public static let maximumPixels = ImageLimits.maximumPixels
  /// The longest image file read (256 MiB).
  public static let maximumFileBytes = 256 << 20

  /// Reads and decodes the image at `path`.
  /// - Throws: `InputError` `.missingInput` when the file cannot be read; `.badData` naming the
  ///   file for a file that is neither PNG nor JPEG, a corrupt or truncated one (libjpeg-turbo's
  ///   or libpng's message), or one over the size limits.
  public static func decode(contentsOf path: String) throws -> Image {
    try decode(FileIO.read(path, maximumBytes: maximumFileBytes), file: path)
  }

  /// Reads and decodes the image at `path` as `decode(contentsOf:)` does, and tells whether
  /// every alpha byte is known to be 255 without looking: true for a JPEG (decoded to RGBA
  /// with alpha 255), false for a PNG (it may have alpha).
  /// - Throws: as `decode(contentsOf:)`.
  public static func decodeKnowingOpacity(contentsOf path: String) throws -> (
    image: Image, knownOpaque: Bool
  ) {
    let bytes = try FileIO.read(path, maximumBytes: maximumFileBytes)
    return (try decode(bytes, file: path), isJPEG(bytes))
  }

  /// Decodes PNG or JPEG bytes; `file` names them in errors.
  /// - Throws: as `decode(contentsOf:)`.
  public static func decode(_ bytes: [UInt8], file: String) throws -> Image {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      if bytes.count >= 24 {
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        try checkSize(width: width, height: height, file: file)
      }
      return try Image(pngData: bytes, file: file)
    }
    if isJPEG(bytes) { return try decodeJPEG(bytes, file: file) }
    throw InputError(
      .badData, InputLocation(file: file), "not a PNG or JPEG image (unknown first bytes)")
  }

  /// Whether `bytes` start as a JPEG file does (SOI, then a marker).
  static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }

  static func checkSize(width: Int, height: Int, file: String) throws {
    if let problem = ImageLimits.sizeProblem(width, height) {
      throw InputError(.badData, InputLocation(file: file), problem)
    }
  }

  static func decodeJPEG(_ bytes: [UInt8], file: String) throws -> Image {
    guard let handle = tjInitDecompress() else {
      throw InputError(.badData, InputLocation(file: file), "cannot start libjpeg-turbo")
    }
    defer { tjDestroy(handle) }
    func failure(_ what: String) -> InputError {
      let message = String(cString: tjGetErrorStr2(handle))
      return InputError(.badData, InputLocation(file: file), "invalid JPEG (\(what)): \(message)")
    }
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    let header = bytes.withUnsafeBufferPointer {
      tjDecompressHeader3(
        handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
    }
    guard header == 0 else { throw failure("header") }
    // A header libjpeg-turbo accepts without a frame (SOF) gives no size, not an error.
    guard width > 0, height > 0 else {
      throw InputError(.badData, InputLocation(file: file), "invalid JPEG (header): no image size")
    }
    try checkSize(width: Int(width), height: Int(height), file: file)
    // Not filled first: libjpeg-turbo writes every byte, and on a failure the buffer is dropped.
    // A warning (truncated data, a corrupt segment) also fails: the pixels would be partly grey.
    var status: Int32 = -1
    let pixels = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * 4) {
      destination, count in
      status = bytes.withUnsafeBufferPointer { source in
        tjDecompress2(
          handle, source.baseAddress, UInt(source.count), destination.baseAddress, width, 0,
          height, Int32(TJPF_RGBA.rawValue), 0)
      }
      count = destination.count
    }
    guard status == 0 else { throw failure("data") }
    guard let image = Image(width: Int(width), height: Int(height), pixels: pixels) else {
      throw failure("size")
    }
    return image
  }
}
