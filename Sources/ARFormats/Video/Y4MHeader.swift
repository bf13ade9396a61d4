import ARSupport

/// The YUV4MPEG2 colour spaces (`C` field) ARSim reads: 8-bit 4:2:0 in any chroma siting, and
/// luma only.
///
/// All 4:2:0 variants share the I420 byte layout (Y plane, then Cb, then Cr, each chroma plane
/// ⌈W/2⌉ × ⌈H/2⌉); they differ only in where the chroma samples sit, which ARSim ignores: each
/// chroma sample covers its 2 × 2 luma block (nearest upsampling, as the app's Metal kernel).
public enum Y4MColorSpace: String, Hashable, Sendable, CaseIterable {
  /// 4:2:0, chroma centred between luma samples (JPEG/MPEG-1). The default when `C` is absent.
  case c420jpeg = "420jpeg"
  /// 4:2:0, PAL-DV siting.
  case c420paldv = "420paldv"
  /// 4:2:0, MPEG-2 siting (chroma co-sited horizontally).
  case c420mpeg2 = "420mpeg2"
  /// 4:2:0, co-sited.
  case c420 = "420"
  /// Luma only (shown grey).
  case mono

  /// Whether the frames carry Cb and Cr planes.
  public var hasChroma: Bool { self != .mono }
}

/// The YCbCr quantisation range.
public enum YCbCrRange: String, Hashable, Sendable, CaseIterable {
  /// Y, Cb, Cr use 0…255 (JPEG/JFIF, ARKit's `capturedImage`).
  case full
  /// Y uses 16…235 and Cb, Cr use 16…240 ("video range", BT.601 studio swing).
  case limited
}

/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W<w> H<h> F<n>:<d> [I<i>] [A<n>:<d>] [C<cs>]
/// [X<ext>]…` ended by `\n`.
///
/// Fields (after the mjpegtools `yuv4mpeg.h` description and FFmpeg's `yuv4mpegdec.c`):
/// - `W`, `H`: frame size in pixels, required, > 0.
/// - `F`: frame rate `num:den`, required (ARSim needs it for timing).
/// - `I`: interlacing; only `p` (progressive) is read; absent = progressive.
/// - `A`: pixel aspect `num:den` (`0:0` = unknown); recorded, not used.
/// - `C`: colour space, one of `Y4MColorSpace`; absent = `420jpeg`.
/// - `XCOLORRANGE=FULL|LIMITED` (FFmpeg's extension); absent = limited.
/// Other `X` extensions and unknown tags are kept in `otherFields` and ignored.
public struct Y4MHeader: Hashable, Sendable {
  /// Frame width in pixels.
  public var width: Int
  /// Frame height in pixels.
  public var height: Int
  /// The frame rate.
  public var frameRate: FrameRate
  /// Pixel aspect ratio as written (`0:0` when unknown or absent).
  public var pixelAspect: (numerator: Int, denominator: Int) {
    get { (pixelAspectNumerator, pixelAspectDenominator) }
    set { (pixelAspectNumerator, pixelAspectDenominator) = newValue }
  }
  private var pixelAspectNumerator = 0
  private var pixelAspectDenominator = 0
  /// The colour space.
  public var colorSpace: Y4MColorSpace
  /// The quantisation range.
  public var range: YCbCrRange
  /// Header tokens ARSim does not interpret (e.g. `XYSCSS=420JPEG`), in file order.
  public var otherFields: [String]

  /// Creates a header.
  public init(
    width: Int, height: Int, frameRate: FrameRate, colorSpace: Y4MColorSpace = .c420jpeg,
    range: YCbCrRange = .limited, otherFields: [String] = []
  ) {
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.colorSpace = colorSpace
    self.range = range
    self.otherFields = otherFields
  }

  /// Chroma plane width: ⌈W/2⌉ (0 for mono).
  public var chromaWidth: Int { colorSpace.hasChroma ? (width + 1) / 2 : 0 }
  /// Chroma plane height: ⌈H/2⌉ (0 for mono).
  public var chromaHeight: Int { colorSpace.hasChroma ? (height + 1) / 2 : 0 }
  /// Bytes of planes per frame: W·H + 2·⌈W/2⌉·⌈H/2⌉ (W·H for mono).
  public var frameByteCount: Int { width * height + 2 * chromaWidth * chromaHeight }

  /// A canonical header line for these fields (no trailing newline), e.g. for writing test files.
  public var line: String {
    var s = "YUV4MPEG2 W\(width) H\(height) F\(frameRate) Ip A\(pixelAspectNumerator):"
    s += "\(pixelAspectDenominator) C\(colorSpace.rawValue)"
    if range == .full { s += " XCOLORRANGE=FULL" }
    for field in otherFields { s += " \(field)" }
    return s
  }

  /// The signature every stream starts with, including its space.
  static let signature: [UInt8] = Array("YUV4MPEG2 ".utf8)
  /// Frame sizes above this many bytes are rejected as implausible (64 Mpx 4:2:0).
  static let maximumFrameBytes = 96 << 20

  /// Parses the header line `bytes` (without its `\n`), which starts at byte 0 of `file`.
  /// - Throws: `Y4MError.badHeader` (signature, missing W/H/F, malformed numbers),
  ///   `Y4MError.unsupported` (interlacing, colour space, colour range), each naming the field
  ///   and its byte offset.
  public static func parse(_ bytes: [UInt8], file: String) throws(Y4MError) -> Y4MHeader {
    guard bytes.starts(with: signature) else {
      throw .badHeader(
        InputLocation(file: file, byteOffset: 0, field: "signature"),
        "the file does not start with 'YUV4MPEG2 '")
    }
    var width: Int?
    var height: Int?
    var rate: FrameRate?
    var aspect = (0, 0)
    var colorSpace = Y4MColorSpace.c420jpeg
    var range = YCbCrRange.limited
    var others: [String] = []
    var offset = signature.count
    for tokenBytes in bytes[signature.count...].split(
      separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    {
      let tokenOffset = offset
      offset += tokenBytes.count + 1
      guard let tag = tokenBytes.first else { continue }
      let value = String(decoding: tokenBytes.dropFirst(), as: UTF8.self)
      let field = String(UnicodeScalar(tag))
      let at = InputLocation(file: file, byteOffset: tokenOffset, field: field)
      switch tag {
      case UInt8(ascii: "W"), UInt8(ascii: "H"):
        guard let n = Int(value), n > 0, n <= 1 << 16 else {
          throw .badHeader(at, "\(InputText.quoted(field + value)) is not a size in 1…65536")
        }
        if tag == UInt8(ascii: "W") { width = n } else { height = n }
      case UInt8(ascii: "F"):
        guard let (n, d) = ratio(value), let r = FrameRate(numerator: n, denominator: d) else {
          throw .badHeader(
            at, "\(InputText.quoted("F" + value)) is not a frame rate num:den with both terms > 0")
        }
        rate = r
      case UInt8(ascii: "I"):
        guard value == "p" else {
          throw .unsupported(
            at,
            "interlacing \(InputText.quoted("I" + value)): only progressive frames ('Ip') are supported"
          )
        }
      case UInt8(ascii: "A"):
        guard let (n, d) = ratio(value), n >= 0, d >= 0, n <= Int64(Int32.max),
          d <= Int64(Int32.max)
        else {
          throw .badHeader(at, "\(InputText.quoted("A" + value)) is not a pixel aspect num:den")
        }
        aspect = (Int(n), Int(d))
      case UInt8(ascii: "C"):
        guard let cs = Y4MColorSpace(rawValue: value) else {
          let known = Y4MColorSpace.allCases.map(\.rawValue).joined(separator: ", ")
          throw .unsupported(at, "colour space 'C\(value)' (supported: \(known))")
        }
        colorSpace = cs
      case UInt8(ascii: "X") where value.hasPrefix("COLORRANGE="):
        switch value.dropFirst("COLORRANGE=".count) {
        case "FULL": range = .full
        case "LIMITED": range = .limited
        default:
          throw .unsupported(
            InputLocation(file: file, byteOffset: tokenOffset, field: "XCOLORRANGE"),
            "colour range 'X\(value)' (supported: FULL, LIMITED)")
        }
      default:
        others.append(String(decoding: tokenBytes, as: UTF8.self))
      }
    }
    let end = InputLocation(file: file, byteOffset: bytes.count)
    func missing(_ f: String, _ what: String) -> Y4MError {
      var l = end
      l.field = f
      return .badHeader(l, "missing \(what) \(InputText.quoted(f))")
    }
    guard let width else { throw missing("W", "width") }
    guard let height else { throw missing("H", "height") }
    guard let rate else { throw missing("F", "frame rate") }
    var header = Y4MHeader(
      width: width, height: height, frameRate: rate, colorSpace: colorSpace, range: range,
      otherFields: others)
    header.pixelAspect = aspect
    guard header.frameByteCount <= maximumFrameBytes else {
      throw .unsupported(
        InputLocation(file: file, byteOffset: 0, field: "W"),
        "frames of \(width)×\(height) are larger than \(maximumFrameBytes) bytes")
    }
    return header
  }

  /// `"n:d"` as two non-negative integers.
  private static func ratio(_ s: String) -> (Int64, Int64)? {
    let parts = s.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n >= 0, d >= 0
    else { return nil }
    return (n, d)
  }
}
