import ARFormats
import ARMath
import ARSupport

/// The helper side of AR Remote Support: turns a drawing into the exact messages the app sends
/// (DESIGN §5 "Sender simulation"; SourceApps.md §2.3–2.4).
///
/// Mapping: the drawing's bounding-box centre goes to the view centre and it is scaled to fit
/// `fitFraction` (60 %) of the shorter side of the helper's view (default 390 × 844 points), unless
/// `pointsPerCanvasPixel` is given. Times: raw drawings keep their per-point times (ms → s) from
/// `start`; simplified drawings emit one point per 1/60 s with 0.3 s between strokes. Each
/// stroke sends `touch-start`, batches of 10 points as Darwin's `[CGPoint]` text, the remainder
/// on lift, then `touch-end`. `speed` divides every time after `start`.
public struct HelperSimulation: Hashable, Sendable {
  /// The helper's view size in UIKit points (width, height).
  public var viewSize: Vector2 = Vector2(390, 844)
  /// Share of the shorter view side the drawing's larger bounding-box side fills.
  public var fitFraction: Double = 0.6
  /// Explicit scale (view points per canvas pixel); overrides `fitFraction`.
  public var pointsPerCanvasPixel: Double?
  /// Replay time τ of the drawing's first point, seconds.
  public var start: Double = 0
  /// Drawing speed factor: 2 draws twice as fast (all times from `start` divided by 2).
  public var speed: Double = 1
  /// Points per message (the app sends every 10).
  public var batchSize: Int = 10
  /// Point interval for drawings without times (seconds).
  public var untimedInterval: Double = 1.0 / 60.0
  /// Gap between strokes for drawings without times (seconds).
  public var untimedStrokeGap: Double = 0.3

  /// Creates a simulation with the defaults of DESIGN §5.
  public init() {}

  /// The helper-view points of every stroke (from the view centre, y down), in drawing order.
  public func viewPoints(_ drawing: QuickDrawDrawing) -> [[Vector2]] {
    let all = drawing.strokes.joined()
    let xs = all.map(\.x)
    let ys = all.map(\.y)
    let minX = xs.min() ?? 0
    let maxX = xs.max() ?? 0
    let minY = ys.min() ?? 0
    let maxY = ys.max() ?? 0
    let centre = Vector2((minX + maxX) / 2, (minY + maxY) / 2)
    let side = max(maxX - minX, maxY - minY)
    let scale =
      pointsPerCanvasPixel
      ?? (side > 0 ? fitFraction * min(viewSize.x, viewSize.y) / side : 1)
    return drawing.strokes.map { stroke in
      stroke.map { Vector2(($0.x - centre.x) * scale, ($0.y - centre.y) * scale) }
    }
  }

  /// The messages a helper drawing `drawing` sends, in send order.
  public func messages(for drawing: QuickDrawDrawing) -> [StrokeMessage] {
    let strokes = viewPoints(drawing)
    var out: [StrokeMessage] = []
    var clock = start
    let firstMilliseconds = drawing.strokes.first?.first?.milliseconds ?? 0
    for (s, stroke) in strokes.enumerated() {
      let times: [Double] = drawing.strokes[s].enumerated().map { i, p in
        if let ms = p.milliseconds { return start + (ms - firstMilliseconds) / 1000 / speed }
        return clock + Double(i) * untimedInterval / speed
      }
      out.append(StrokeMessage(t: times[0], text: "touch-start"))
      var batch: [Vector2] = []
      for (i, point) in stroke.enumerated() {
        batch.append(point)
        if batch.count == batchSize {
          out.append(StrokeMessage(t: times[i], text: Self.pointsText(batch)))
          batch.removeAll()
        }
      }
      let last = times[times.count - 1]
      if !batch.isEmpty { out.append(StrokeMessage(t: last, text: Self.pointsText(batch))) }
      out.append(StrokeMessage(t: last, text: "touch-end"))
      clock = last + untimedStrokeGap / speed
    }
    return out
  }

  /// Darwin's `[CGPoint].description`: `[(x, y), (x, y)]` with Swift's shortest round-trip
  /// `Double` text (`40.0`, `-12.5`). (On Linux `CGPoint`'s description differs, so it is
  /// built by hand.)
  public static func pointsText(_ points: [Vector2]) -> String {
    "[" + points.map { "(\($0.x), \($0.y))" }.joined(separator: ", ") + "]"
  }

  /// `color: [r, g, b, a]` as the app sends it (`[CGFloat].description`).
  public static func colorText(_ c: [Double]) -> String {
    "color: [" + c.map { "\($0)" }.joined(separator: ", ") + "]"
  }
}
