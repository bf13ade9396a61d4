#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Compares an expected image with an actual one, exactly or perceptually, and draws a diff.
///
/// The perceptual mode is a port of pixelmatch 7 (mapbox/pixelmatch `index.js`): a per-pixel
/// YIQ colour distance (Kotsarenko & Ramos 2010) against `maxDelta = 35215 · threshold²`, and
/// the anti-aliasing detector of Vyšniauskas 2009 (`antialiased` / `hasManySiblings`).
/// Semi-transparent pixels are blended over white before the distance (pixelmatch ≤ 7.1;
/// 7.2's checkerboard background is not used). Whether a result passes is the caller's policy:
/// see `Tolerance`.
public struct ImageComparison: Hashable, Sendable {
  /// How two pixels are judged different.
  public enum Mode: Hashable, Sendable {
    /// Any byte (R, G, B or A) differs.
    case exact
    /// pixelmatch's YIQ distance above `35215 · threshold²` (threshold 0…1, pixelmatch's
    /// default 0.1); pixels detected as anti-aliasing are reported but not counted unless
    /// `includeAntiAliased`.
    case perceptual(threshold: Double = 0.1, includeAntiAliased: Bool = false)
  }

  /// How many differing pixels are acceptable.
  public enum Tolerance: Hashable, Sendable {
    /// At most this many differing pixels.
    case pixels(Int)
    /// At most this fraction (0…1) of all pixels.
    case fraction(Double)
  }

  /// The colours and fade of the diff image, pixelmatch's defaults.
  public struct DiffStyle: Hashable, Sendable {
    /// Opacity of the expected image's grey copy over white (pixelmatch `alpha`, 0.1).
    public var alpha: Double = 0.1
    /// Colour of counted differences (pixelmatch `diffColor`, red).
    public var differenceColor: (UInt8, UInt8, UInt8) = (255, 0, 0)
    /// Colour of anti-aliased pixels (pixelmatch `aaColor`, yellow).
    public var antiAliasedColor: (UInt8, UInt8, UInt8) = (255, 255, 0)

    /// pixelmatch's defaults.
    public init() {}

    /// Exact equality of every component.
    public static func == (a: DiffStyle, b: DiffStyle) -> Bool {
      a.alpha == b.alpha && a.differenceColor == b.differenceColor
        && a.antiAliasedColor == b.antiAliasedColor
    }

    /// Hashes every component.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(alpha)
      hasher.combine(differenceColor.0)
      hasher.combine(differenceColor.1)
      hasher.combine(differenceColor.2)
      hasher.combine(antiAliasedColor.0)
      hasher.combine(antiAliasedColor.1)
      hasher.combine(antiAliasedColor.2)
    }
  }

  /// The pixel test.
  public var mode: Mode
  /// The diff image's look.
  public var diffStyle: DiffStyle

  /// Creates a comparison; default exact.
  public init(mode: Mode = .exact, diffStyle: DiffStyle = DiffStyle()) {
    self.mode = mode
    self.diffStyle = diffStyle
  }

  /// Compares `actual` against `expected`.
  ///
  /// - Parameter makeDiffImage: also draw a diff image (the expected image as faded grey,
  ///   differing pixels in `differenceColor`, anti-aliased ones in `antiAliasedColor`).
  /// - Returns: `.sizeMismatch` when the sizes differ, else the measured difference.
  /// - Complexity: O(width · height); identical 32-bit pixels cost one comparison each.
  public func compare(expected: Image, actual: Image, makeDiffImage: Bool = false)
    -> ImageComparisonResult
  {
    guard expected.width == actual.width, expected.height == actual.height else {
      return .sizeMismatch(
        expected: PixelSize(width: expected.width, height: expected.height),
        actual: PixelSize(width: actual.width, height: actual.height))
    }
    if !makeDiffImage && bytesEqual(expected.pixels, actual.pixels) {
      // Fast path (pixelmatch's "identical" scan): shared or equal storage, nothing to draw.
      return .compared(
        ImageDifference(
          differingPixelCount: 0, antiAliasedPixelCount: 0,
          pixelCount: expected.width * expected.height, boundingBox: nil, maxChannelDelta: 0))
    }
    var scan = DifferenceScan(
      expected: expected, actual: actual, mode: mode, style: diffStyle, drawsDiff: makeDiffImage)
    return .compared(scan.run())
  }
}

/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
  /// `WxH`.
  public var description: String { "\(width)×\(height)" }
}

/// An axis-aligned pixel rectangle with inclusive bounds (image coordinates, u right, v down).
public struct PixelBoundingBox: Hashable, Sendable, CustomStringConvertible {
  /// Leftmost column.
  public var minU: Int
  /// Top row.
  public var minV: Int
  /// Rightmost column (inclusive).
  public var maxU: Int
  /// Bottom row (inclusive).
  public var maxV: Int
  /// Creates a box.
  public init(minU: Int, minV: Int, maxU: Int, maxV: Int) {
    self.minU = minU
    self.minV = minV
    self.maxU = maxU
    self.maxV = maxV
  }
  /// `(minU, minV)–(maxU, maxV), W×H px`.
  public var description: String {
    "(\(minU), \(minV))–(\(maxU), \(maxV)), \(maxU - minU + 1)×\(maxV - minV + 1) px"
  }
}

/// The outcome of `ImageComparison.compare`.
public enum ImageComparisonResult: Hashable, Sendable {
  /// The images have different sizes; nothing else was compared.
  case sizeMismatch(expected: PixelSize, actual: PixelSize)
  /// Same size; the measured difference.
  case compared(ImageDifference)

  /// Whether the result is within `tolerance` (a size mismatch never is).
  public func isWithin(_ tolerance: ImageComparison.Tolerance) -> Bool {
    guard case .compared(let difference) = self else { return false }
    return difference.isWithin(tolerance)
  }

  /// The difference, or `nil` for a size mismatch.
  public var difference: ImageDifference? {
    if case .compared(let difference) = self { return difference }
    return nil
  }
}

/// What differs between two same-size images.
public struct ImageDifference: Hashable, Sendable, CustomStringConvertible {
  /// Pixels counted as different (anti-aliased ones excluded in perceptual mode by default).
  public var differingPixelCount: Int
  /// Pixels detected as anti-aliasing and not counted (always 0 in exact mode).
  public var antiAliasedPixelCount: Int
  /// width · height.
  public var pixelCount: Int
  /// Bounding box of the counted differing pixels; `nil` when there are none.
  public var boundingBox: PixelBoundingBox?
  /// The largest |expected − actual| of any channel (R, G, B, A) over all pixels, 0…255.
  public var maxChannelDelta: Int
  /// The diff image, when asked for.
  public var diffImage: Image?

  /// Creates a difference record.
  public init(
    differingPixelCount: Int, antiAliasedPixelCount: Int, pixelCount: Int,
    boundingBox: PixelBoundingBox?, maxChannelDelta: Int, diffImage: Image? = nil
  ) {
    self.differingPixelCount = differingPixelCount
    self.antiAliasedPixelCount = antiAliasedPixelCount
    self.pixelCount = pixelCount
    self.boundingBox = boundingBox
    self.maxChannelDelta = maxChannelDelta
    self.diffImage = diffImage
  }

  /// differingPixelCount / pixelCount (0 for an empty image).
  public var differingFraction: Double {
    pixelCount == 0 ? 0 : Double(differingPixelCount) / Double(pixelCount)
  }

  /// Whether the count is within `tolerance`.
  public func isWithin(_ tolerance: ImageComparison.Tolerance) -> Bool {
    switch tolerance {
    case .pixels(let limit): differingPixelCount <= limit
    case .fraction(let limit): differingFraction <= limit
    }
  }

  /// One line: count, share, anti-aliased count, box, max delta.
  public var description: String {
    let percent = formatPercent(differingFraction)
    var text = "\(differingPixelCount) of \(pixelCount) pixels differ (\(percent))"
    if antiAliasedPixelCount > 0 { text += ", \(antiAliasedPixelCount) anti-aliased ignored" }
    if let boundingBox { text += ", bounding box \(boundingBox)" }
    text += ", max channel delta \(maxChannelDelta)"
    return text
  }
}

/// Whether two byte arrays are equal (`memcmp`).
func bytesEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  return a.withUnsafeBytes { x in
    b.withUnsafeBytes { y in
      guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
      return memcmp(p, q, x.count) == 0
    }
  }
}

/// `12.3456%` with 4 decimals, without Foundation.
func formatPercent(_ fraction: Double) -> String {
  let scaled = (fraction * 100 * 10000).rounded()
  guard scaled.isFinite, abs(scaled) < 1e15 else { return "\(fraction * 100)%" }
  let value = Int(scaled)
  let whole = value / 10000
  let decimals = String(value % 10000)
  return "\(whole).\(String(repeating: "0", count: 4 - decimals.count))\(decimals)%"
}
