import CPNG

extension Image {
  /// The image as PNG bytes.
  /// - Throws: `PNGError.encodingFailed` for an empty image.
  /// - Complexity: O(width · height).
  public func pngData(options: PNGEncoder = PNGEncoder()) throws -> [UInt8] {
    try options.encode(self)
  }

  /// Decodes any PNG libpng reads into RGBA8: palette and grayscale are expanded, `tRNS`
  /// becomes alpha, images without alpha get 255, 16-bit channels are reduced by rounding
  /// v·255/65535 (`png_set_scale_16`), Adam7 is de-interlaced. No gamma or colour-profile
  /// conversion is applied (the stored values are taken as sRGB).
  /// - Parameter file: the name used in error messages.
  /// - Throws: `PNGError.decodingFailed` with libpng's message for corrupt or truncated data,
  ///   or saying that the image is empty or over `PNGDecodeLimits` (64 Mi pixels).
  public init(pngData: [UInt8], file: String = "<memory>") throws {
    let (bytes, width, height) = try decodePNG(pngData, gray16: false, file: file)
    guard let image = Image(width: width, height: height, pixels: bytes) else {
      throw PNGError.decodingFailed(InputLocation(file: file), message: "unexpected pixel count")
    }
    self = image
  }

  /// Reads and decodes a PNG file.
  /// - Throws: `InputError` `.missingInput` when the file cannot be opened,
  ///   `PNGError.decodingFailed` when it is not a valid PNG.
  public init(contentsOfPNG path: String) throws {
    try self.init(pngData: FileIO.read(path), file: path)
  }

  /// Encodes and writes the image atomically (`FileIO.writeAtomically`).
  /// - Throws: `PNGError.encodingFailed`, or `InputError` `.cannotCreate` for the write.
  public func writePNG(to path: String, options: PNGEncoder = PNGEncoder()) throws {
    try FileIO.writeAtomically(options.encode(self, file: path), to: path)
  }
}

extension DepthImage {
  /// The depth map as a 16-bit grayscale PNG (millimetres, big-endian in the file).
  /// - Throws: `PNGError.encodingFailed` for an empty map.
  public func pngData(options: PNGEncoder = PNGEncoder()) throws -> [UInt8] {
    try options.encode(self)
  }

  /// Decodes a PNG into 16-bit values: 16-bit grayscale is taken as is; 8-bit gray is widened
  /// (v·257); colour images are converted with libpng's default `rgb_to_gray` weights; alpha
  /// is dropped.
  /// - Throws: `PNGError.decodingFailed` with libpng's message.
  public init(pngData: [UInt8], file: String = "<memory>") throws {
    let (bytes, width, height) = try decodePNG(pngData, gray16: true, file: file)
    var values = [UInt16](repeating: 0, count: width * height)
    values.withUnsafeMutableBytes { destination in
      bytes.withUnsafeBytes { source in
        destination.copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[0..<destination.count]))
      }
    }
    guard let depth = DepthImage(width: width, height: height, millimetres: values) else {
      throw PNGError.decodingFailed(InputLocation(file: file), message: "unexpected pixel count")
    }
    self = depth
  }
}

/// The largest PNG ARSim decodes: 16384 px a side (libpng's user limit) and 64 Mi pixels
/// (256 MiB as RGBA8, the recorded camera images' limit), so a small file that declares a huge
/// image (a 780 KB PNG of 16384 × 16384 zeros would need 1 GiB, twice over) is refused from
/// its header before anything is allocated.
public enum PNGDecodeLimits {
  /// Pixels per side (`ImageLimits`, which the scene's output sizes keep to as well).
  public static let maximumSide = ImageLimits.maximumSide
  /// Pixels in all (64 Mi).
  public static let maximumPixels = ImageLimits.maximumPixels

  /// Why the PNG `data` declares an empty image or one over the limits (its `IHDR`, bytes
  /// 16–23 as the PNG specification places it), or nil.
  static func problem(_ data: [UInt8]) -> String? {
    guard data.count >= 24, data[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
    let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
    return ImageLimits.sizeProblem(width, height)
  }

  /// Checks the first 24 bytes of the PNG file at `path` (signature, `IHDR`, size), so that a
  /// folder of images is refused at load for what its headers already show, before any frame.
  /// - Throws: `InputError` `.missingInput` when the file cannot be opened or is not a regular
  ///   file, `.badData` naming the file when it does not start as a PNG or declares an empty
  ///   image or one over the limits. Damage after the header is found when it is decoded.
  public static func checkHeader(ofFile path: String) throws {
    let header = try FileIO.read(path, prefix: 24)
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let reason: String?
    if !header.starts(with: signature) {
      reason = "not a PNG file (no PNG signature)"
    } else if header.count < 24 || !header[12..<16].elementsEqual(Array("IHDR".utf8)) {
      reason = "truncated or damaged header (no IHDR chunk first)"
    } else {
      reason = problem(header)
    }
    if let reason {
      throw InputError(.badData, InputLocation(file: path), "invalid PNG: " + reason)
    }
  }
}

/// Runs the shim's decoder; returns the raw output bytes (RGBA8 or host-endian UInt16).
/// - Throws: `PNGError.decodingFailed` for an empty image or one over `PNGDecodeLimits`, before
///   decoding.
private func decodePNG(_ data: [UInt8], gray16: Bool, file: String) throws -> (
  [UInt8], Int, Int
) {
  if let problem = PNGDecodeLimits.problem(data) {
    throw PNGError.decodingFailed(InputLocation(file: file), message: problem)
  }
  var out: UnsafeMutablePointer<UInt8>? = nil
  var width: UInt32 = 0
  var height: UInt32 = 0
  var message = [CChar](repeating: 0, count: 256)
  let status = data.withUnsafeBufferPointer { input in
    message.withUnsafeMutableBufferPointer { error in
      arsim_png_decode(
        input.baseAddress, input.count, gray16 ? 1 : 0, &out, &width, &height,
        error.baseAddress, error.count)
    }
  }
  defer { arsim_png_free(out) }
  guard status == 0, let out else {
    let text = decodeCString(message)
    throw PNGError.decodingFailed(
      InputLocation(file: file), message: text.isEmpty ? "unknown libpng error" : text)
  }
  let count = Int(width) * Int(height) * (gray16 ? 2 : 4)
  return (Array(UnsafeBufferPointer(start: out, count: count)), Int(width), Int(height))
}
