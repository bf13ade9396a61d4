import ARMath
import ARSupport
import Foundation

/// One Quick, Draw! drawing (Google's NDJSON, CC BY 4.0): strokes of points on the player's
/// canvas (pixels, y down), with per-point times in milliseconds for the raw format.
public struct QuickDrawDrawing: Hashable, Sendable {
  /// One point: canvas pixels (y down) and, for raw drawings, milliseconds from the first point.
  public struct Point: Hashable, Sendable {
    /// Canvas x (pixels).
    public var x: Double
    /// Canvas y (pixels, down).
    public var y: Double
    /// Milliseconds from the drawing's first point (raw format only).
    public var milliseconds: Double?
  }

  /// The category (`word`), e.g. "cat".
  public var word: String
  /// Strokes in drawing order; each has at least one point.
  public var strokes: [[Point]]
  /// Whether points carry times (the raw format).
  public var hasTimes: Bool { strokes.first?.first?.milliseconds != nil }
  /// Total number of points.
  public var pointCount: Int { strokes.reduce(0) { $0 + $1.count } }

  /// The largest coordinate magnitude accepted, in canvas pixels (real drawings stay within a
  /// few thousand; far beyond, the fit-to-view arithmetic would overflow).
  public static let maximumCoordinate = 1e6
  /// The latest point time accepted, in milliseconds from the first point (about 11 days).
  public static let maximumMilliseconds = 1e9

  /// Reads drawing `index` (0-based line among non-blank lines) of an NDJSON file.
  /// - Throws: `InputError` `.missingInput` for an unreadable file; `.badData` naming file,
  ///   line and field for invalid JSON, ragged x/y/t arrays, non-finite numbers, coordinates
  ///   beyond `maximumCoordinate`, times that decrease, are negative or exceed
  ///   `maximumMilliseconds`, an empty drawing, or an index past the end.
  public static func read(path: String, index: Int) throws -> QuickDrawDrawing {
    let bytes = try FileIO.read(path)
    var seen = 0
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      if seen == index { return try parse(Data(line), file: path, line: lineNumber) }
      seen += 1
    }
    throw InputError(
      .badData, InputLocation(file: path, field: "drawing"),
      "drawing \(index) requested, the file has \(seen) (indices start at 0)")
  }

  /// Parses one NDJSON line.
  /// - Throws: as `read(path:index:)`.
  public static func parse(_ line: Data, file: String, line lineNumber: Int) throws
    -> QuickDrawDrawing
  {
    struct Raw: Decodable {
      var word: String?
      var drawing: [[[Double]]]
    }
    let raw: Raw
    do {
      raw = try JSONDecoder().decode(Raw.self, from: line)
    } catch let error as DecodingError {
      throw JSONDecoding.locatedError(error, bytes: Array(line), file: file, line: lineNumber)
    }
    var strokes: [[Point]] = []
    for (s, stroke) in raw.drawing.enumerated() {
      let field = "drawing[\(s)]"
      let location = InputLocation(file: file, line: lineNumber, field: field)
      guard stroke.count == 2 || stroke.count == 3 else {
        throw InputError(.badData, location, "expected [x], [y] and optionally [t] arrays")
      }
      let n = stroke[0].count
      guard n > 0, stroke.allSatisfy({ $0.count == n }) else {
        throw InputError(.badData, location, "x, y (and t) arrays must be non-empty and equal")
      }
      guard stroke.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
        throw InputError(.badData, location, "non-finite number")
      }
      if s > 0, (stroke.count == 3) != (raw.drawing[0].count == 3) {
        throw InputError(.badData, location, "strokes mix timed and untimed points")
      }
      guard stroke[0].allSatisfy({ abs($0) <= maximumCoordinate }),
        stroke[1].allSatisfy({ abs($0) <= maximumCoordinate })
      else {
        throw InputError(
          .badData, location, "a coordinate is beyond ±\(maximumCoordinate) canvas pixels")
      }
      if stroke.count == 3 {
        var previous = strokes.last?.last?.milliseconds ?? 0
        for (i, ms) in stroke[2].enumerated() {
          guard ms >= previous, ms <= maximumMilliseconds else {
            throw InputError(
              .badData, InputLocation(file: file, line: lineNumber, field: field + "[2][\(i)]"),
              "time \(ms) ms is not in \(previous)…\(maximumMilliseconds) ms (times must not"
                + " decrease)")
          }
          previous = ms
        }
      }
      strokes.append(
        (0..<n).map { i in
          Point(
            x: stroke[0][i], y: stroke[1][i], milliseconds: stroke.count == 3 ? stroke[2][i] : nil)
        })
    }
    guard !strokes.isEmpty else {
      throw InputError(
        .badData, InputLocation(file: file, line: lineNumber, field: "drawing"), "no strokes")
    }
    return QuickDrawDrawing(word: raw.word ?? "", strokes: strokes)
  }
}
