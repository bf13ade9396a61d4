/// The names of an output folder's frame files (DESIGN §1): `frame_NNNNN.png` for image `N`
/// (at least five digits, zero-padded; `frame_123456.png` past 99 999) and `depth_NNNNN.png`
/// for its depth map. Every writer and reader of frame files (the frame loop, the helper view,
/// the receiver, merge, video, report) formats and parses names here.
public enum FrameFileName {
  /// The kind of a frame file.
  public enum Kind: String, Sendable, CaseIterable {
    /// The rendered image, `frame_NNNNN.png`.
    case frame
    /// The 16-bit depth map, `depth_NNNNN.png`.
    case depth
  }

  /// `frame_NNNNN.png` (or `depth_…`) for `index`; a negative index keeps its sign after the
  /// prefix (never written by ARSim, but formatted without a trap).
  public static func name(_ index: Int, kind: Kind = .frame) -> String {
    name(digits: String(index), kind: kind)
  }

  /// As `name(_:kind:)` for an unsigned index (a wire sequence number up to 2⁶⁴−1).
  public static func name(_ index: UInt64, kind: Kind = .frame) -> String {
    name(digits: String(index), kind: kind)
  }

  private static func name(digits: String, kind: Kind) -> String {
    kind.rawValue + "_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
  }

  /// The index and kind of a frame file name as `name(_:kind:)` writes it (`frame_00042.png`
  /// → 42, `.frame`); nil for any other name (`frame_42.png`, `frame_+0042.png`,
  /// `frame_000042.png`, an index beyond `Int`).
  public static func parse(_ name: String) -> (index: Int, kind: Kind)? {
    guard name.hasSuffix(".png") else { return nil }
    for kind in Kind.allCases where name.hasPrefix(kind.rawValue + "_") {
      let digits = name.dropFirst(kind.rawValue.count + 1).dropLast(".png".count)
      guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits),
        name == Self.name(index, kind: kind)
      else { return nil }
      return (index, kind)
    }
    return nil
  }
}
