import ARFormats
import ARMath
import ARSession
import ARSupport

/// A message of the remote-assist protocol as the receiver classifies it (DESIGN §5; source:
/// AR Remote Support, ARSupportBroadcasterViewController at 63259b1).
public enum RemoteAssistMessage: Hashable, Sendable {
  /// `touch-start`: a new stroke root 1 m in front of the camera.
  case touchStart
  /// `touch-end`: a no-op on the receiver.
  case touchEnd
  /// `undo`: remove the newest root.
  case undo
  /// `color: [r, g, b, a]`: the line colour for spheres made from now on; `nil` when the text
  /// did not parse (the reason says why).
  case color(components: [Double]?, reason: String?)
  /// Anything else: a batch of helper points (UIKit points from the view centre, y down).
  /// `dropped` counts the pieces that failed to parse; `indices` gives each parsed point's
  /// 0-based position among the message's pieces (dropped pieces counted), so a sphere can name
  /// the point it came from.
  case points([Vector2], dropped: Int, indices: [Int])

  /// Classifies text exactly as the app's `switch`: `contains("color:")` first, then the exact
  /// strings `undo`, `touch-start`, `touch-end`; everything else is points, parsed by `mode`.
  public static func classify(_ text: String, mode: RemoteAssistMode) -> RemoteAssistMessage {
    if text.contains("color:") { return parseColor(text) }
    switch text {
    case "undo": return .undo
    case "touch-start": return .touchStart
    case "touch-end": return .touchEnd
    default:
      switch mode {
      case .faithful: return parsePointsFaithfully(text)
      case .corrected, .screen, .surface: return parsePointsStrictly(text)
      }
    }
  }

  /// What `text`, classified as points, really is when it is not shaped like Darwin's
  /// `[CGPoint]` text `[(x, y), …]` (nil when it is): a quoted command word, a point array as
  /// swift-corelibs-foundation prints it on Linux (`[Foundation.CGPoint(x: 1.0, y: 2.0)]`), an
  /// empty array, or other text. The app's parser finds no point in any of them, so it draws
  /// nothing for such a message.
  public static func nonBatchDescription(_ text: String) -> String? {
    let trimmed = text.trimmingWhitespace
    if trimmed.hasPrefix("[("), trimmed.hasSuffix(")]") { return nil }
    if trimmed == "[]" { return "an empty point array" }
    if trimmed.hasPrefix("[Foundation.CGPoint(") || trimmed.hasPrefix("[CGPoint(") {
      return "a point array in the Linux Foundation format (CGPoint(x: …, y: …)), not "
        + "Darwin's [(x, y), …]"
    }
    let unquoted = trimmed.dropFirst().dropLast()
    if trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"",
      ["touch-start", "touch-end", "undo"].contains(String(unquoted))
    {
      return "the command word \(unquoted) inside quotes (the app compares the exact text)"
    }
    return "text that is neither a command word nor a point array"
  }

  /// The app's parser: split on `"), ("`, then each piece on `", "`, and parse both halves as
  /// `Double`. The first piece keeps `[(` and the last keeps `)]`, so both fail: the first and
  /// last point of every batch are dropped (SourceApps.md §2.9).
  static func parsePointsFaithfully(_ text: String) -> RemoteAssistMessage {
    var points: [Vector2] = []
    var indices: [Int] = []
    var dropped = 0
    for (index, piece) in text.split(separator: "), (", omittingEmptySubsequences: false)
      .enumerated()
    {
      let halves = piece.split(separator: ", ", omittingEmptySubsequences: false)
      if halves.count == 2, let x = Double(halves[0]), let y = Double(halves[1]), x.isFinite,
        y.isFinite
      {
        points.append(Vector2(x, y))
        indices.append(index)
      } else {
        dropped += 1
      }
    }
    return .points(points, dropped: dropped, indices: indices)
  }

  /// A strict parser of Darwin's `[CGPoint]` text `[(x, y), (x, y)]` that keeps every point; any
  /// malformed piece is counted as dropped (and reported by the session).
  static func parsePointsStrictly(_ text: String) -> RemoteAssistMessage {
    let trimmed = text.trimmingWhitespace
    guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else {
      return .points([], dropped: 1, indices: [])
    }
    let body = trimmed.dropFirst().dropLast().trimmingWhitespace
    if body.isEmpty { return .points([], dropped: 0, indices: []) }
    var points: [Vector2] = []
    var indices: [Int] = []
    var dropped = 0
    // Pieces are "(x, y)" separated by ", " — split on ")" boundaries.
    for (index, piece) in body.split(separator: ")", omittingEmptySubsequences: true).enumerated() {
      var p = Substring(piece).trimmingWhitespace
      if p.hasPrefix(",") { p = p.dropFirst().trimmingWhitespace }
      guard p.hasPrefix("(") else {
        dropped += 1
        continue
      }
      let numbers = p.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
      if numbers.count == 2, let x = Double(numbers[0].trimmingWhitespace),
        let y = Double(numbers[1].trimmingWhitespace), x.isFinite, y.isFinite
      {
        points.append(Vector2(x, y))
        indices.append(index)
      } else {
        dropped += 1
      }
    }
    return .points(points, dropped: dropped, indices: indices)
  }

  /// The app's colour parse: take the text after `color: [` up to `]`, split on `", "`, parse
  /// each as a number; fewer than 4 components (a grey-space colour) would crash the app and is
  /// rejected here.
  static func parseColor(_ text: String) -> RemoteAssistMessage {
    guard let open = text.range(of: "color: [") else {
      return .color(components: nil, reason: "expected 'color: [r, g, b, a]'")
    }
    let after = text[open.upperBound...]
    guard let close = after.firstIndex(of: "]") else {
      return .color(components: nil, reason: "missing ']'")
    }
    let pieces = after[..<close].split(separator: ", ", omittingEmptySubsequences: false)
    var values: [Double] = []
    for piece in pieces {
      guard let v = Double(piece.trimmingWhitespace), v.isFinite else {
        return .color(
          components: nil, reason: "component \(InputText.quoted(piece)) is not a number")
      }
      values.append(v)
    }
    guard values.count >= 4 else {
      return .color(
        components: nil, reason: "\(values.count) components, need 4 (the app would crash)")
    }
    return .color(components: Array(values.prefix(4)), reason: nil)
  }
}

/// How the receiver treats the app's quirks (DESIGN §5).
public enum RemoteAssistMode: String, Hashable, Sendable, CaseIterable {
  /// The app exactly: first/last point of each batch dropped, late binding of root and colour,
  /// points with no root discarded.
  case faithful
  /// Every point parsed and bound to the stroke and colour current when its message arrived;
  /// every rejected message is a warning event.
  case corrected
  /// As `corrected`, and each point placed on the app's sheet 1 m ahead where the ray through
  /// the pixel the helper touched (in the frame it saw, τ_seen) crosses it.
  case screen
  /// As `corrected`, and each point's ray cast against the planes: the sphere rests on the
  /// surface hit, world-anchored (`screen` placement when nothing is hit).
  case surface

  /// Whether the app's parser and binding quirks are fixed (every mode but `faithful`).
  public var correctsApp: Bool { self != .faithful }

  /// Whether points are placed by the helper's screen model (`screen`, `surface`).
  public var usesHelperScreen: Bool { self == .screen || self == .surface }
}

extension StringProtocol {
  var trimmingWhitespace: Substring {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
    return s
  }
}
