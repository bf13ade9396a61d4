import ARRenderCore
import ARSupport
import CTurboJPEG

/// Encodes RGBA8 `Image`s as baseline JPEG through libjpeg-turbo (`tjCompress2`), 4:2:0 chroma
/// subsampling as phone cameras write it; alpha is dropped. Used to make recorded-image inputs
/// (bench B6, tests), not by the frame loop.
public enum JPEGEncoder {
  /// The JPEG bytes of `image` at `quality` (1…100, libjpeg's scale).
  /// - Throws: `InputError` `.badData` with libjpeg-turbo's message when it cannot encode.
  public static func encode(_ image: Image, quality: Int = 90) throws -> [UInt8] {
    guard let handle = tjInitCompress() else {
      throw InputError(.badData, InputLocation(file: "JPEG"), "cannot start libjpeg-turbo")
    }
    defer { tjDestroy(handle) }
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = image.pixels.withUnsafeBufferPointer {
      tjCompress2(
        handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height),
        Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue),
        Int32(min(max(quality, 1), 100)), 0)
    }
    defer { tjFree(buffer) }
    guard status == 0, let buffer else {
      throw InputError(
        .badData, InputLocation(file: "JPEG"),
        "cannot encode: " + String(cString: tjGetErrorStr2(handle)))
    }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }
}
