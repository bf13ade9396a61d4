import ARMath
import ARScene
import ARSession
import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A measure session configuration error (the scene file's `measure` block).
public enum MeasureSessionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The switch time at `index` is NaN or infinite.
  case nonFiniteSwitchTime(index: Int)
  /// The switch time at `index` is earlier than the one before it.
  case decreasingSwitchTime(index: Int)
  /// The switch time at `index` is before the replay's start (τ < 0), as displayer taps are
  /// refused: a toggle there would apply at the first tick, silently.
  case negativeSwitchTime(index: Int, seconds: Double)

  /// A one-line description for a terminal.
  public var description: String {
    switch self {
    case .nonFiniteSwitchTime(let index):
      "switchTimes[\(index)] is not a finite number of seconds"
    case .decreasingSwitchTime(let index):
      "switchTimes[\(index)] is earlier than switchTimes[\(index - 1)] (times must not decrease)"
    case .negativeSwitchTime(let index, let seconds):
      "switchTimes[\(index)] must be ≥ 0 s (got \(seconds))"
    }
  }
}

/// The measuring tool of the "Measure app with ARKit and Pusher" (SourceApps.md §5), run once per
/// AR tick.
///
/// Each tick, in this order:
/// 1. switch toggles due at this tick (switch time ≤ τ, compared in integer microseconds) are
///    applied in order: *on* starts a new measurement — the one measuring box is reset to zero
///    width and shown, the start point and distance are cleared (the previous box is reused,
///    not removed); *off* stops measuring and emits one `client-new-measurement` event with the
///    current distance (the box stays visible, as in the app);
/// 2. the image centre pixel ((W−1)/2, (H−1)/2) of the viewport camera is hit-tested with
///    `existingPlaneUsingExtent` against `context.planes`, taking the first result;
/// 3. no hit → status `NOT READY`, nothing else changes (box and distance freeze); a hit while
///    not measuring → `READY`; a hit while measuring → `MEASURING`: the first such hit sets the
///    start point and the box position, distance = 3-D distance start → hit, the box is
///    stretched to that length along its local X and yawed (never tilted) by
///    −(atan2(zs − zc, xs − xc) + π) about +Y, so local +X points from start toward the hit
///    horizontally; then an event is sent when τ (µs) > sendingTime, and sendingTime = τ +
///    200 000 µs. sendingTime starts at −∞ and is never reset, as in the app.
///
/// Events: `client-new-measurement` with fields `channel` = `private-channel` and `data` =
/// `"%.2f cm"` of the distance in centimetres (e.g. `"12.35 cm"`). At 60 Hz a continuous
/// measurement sends at ticks 0, 13, 26, … after the switch (the app's strict comparison).
///
/// Nodes: `box` (named `measure-box`, no geometry) is added under `context.root` on the first
/// tick, hidden until the first measurement; its child `bar` (named `measure-bar`) carries a
/// `Box(width: distance, height: 0.01, length: 0.01)` with constant white, single-sided material
/// at (distance/2, 0, 0).
public final class MeasureSession: Session {
  /// The status line of the app's text view.
  public enum Status: String, Hashable, Sendable {
    /// The image centre hits no plane extent.
    case notReady = "NOT READY"
    /// The centre hits a plane and the switch is off.
    case ready = "READY"
    /// The centre hits a plane and the switch is on.
    case measuring = "MEASURING"
  }

  /// The Pusher event name.
  public static let eventName = "client-new-measurement"
  /// The Pusher channel the app triggers on.
  public static let channel = "private-channel"
  /// Minimum time between two throttled sends, in microseconds (the app's 0.2 s).
  public static let sendingIntervalMicroseconds: Int64 = 200_000
  /// The bar's height and length (metres), as the app's 1 cm `SCNBox`.
  public static let barThickness = 0.01

  /// Switch times in integer microseconds of τ: on, off, on, …
  public let switchMicroseconds: [Int64]
  /// The tracking state at the latest tick (`TickContext.trackingState`, which the app stores
  /// in `session(_:cameraDidChangeTrackingState:)`): on-screen text only. The app measures on
  /// whatever the hit-test gives, limited or not, against the estimated camera it is given.
  public private(set) var trackingState: TrackingState?
  /// The parent node of the measuring bar: at the start point, yawed about +Y.
  public let box: Node
  /// The bar itself (child of `box`).
  public let bar: Node

  /// The current status (before the first tick: `NOT READY`).
  public private(set) var status: Status = .notReady
  /// Whether the switch is on.
  public private(set) var isMeasuring = false
  /// The measured 3-D distance in metres (frozen while the centre hits no plane).
  public private(set) var distance = 0.0
  /// The start point of the current measurement (world, metres), once the centre hit a plane.
  public private(set) var startPosition: Vector3?
  /// The latest hit used for the measurement (world, metres).
  public private(set) var currentPosition: Vector3?

  private var nextSwitch = 0
  private var sendingMicroseconds: Int64?  // nil = −∞

  /// Creates a session from switch times τ in seconds (on at the first, off at the second, …).
  ///
  /// - Throws: `MeasureSessionError` when a time is not finite or smaller than the previous one
  ///   (equal times are allowed: both toggles apply in the same tick, in order).
  public init(switchTimes: [Double]) throws(MeasureSessionError) {
    var microseconds: [Int64] = []
    for (index, time) in switchTimes.enumerated() {
      guard time.isFinite, abs(time) < 9e12 else {
        throw .nonFiniteSwitchTime(index: index)
      }
      guard time >= 0 else { throw .negativeSwitchTime(index: index, seconds: time) }
      let value = ReplayTime.microseconds(time)
      if let last = microseconds.last, value < last { throw .decreasingSwitchTime(index: index) }
      microseconds.append(value)
    }
    switchMicroseconds = microseconds
    box = Node(name: "measure-box")
    box.isHidden = true
    bar = Node(
      name: "measure-bar",
      geometry: Self.barGeometry(width: Self.barThickness))
    // The app's lazy child box exists from the first switch-on; until then the parent is hidden.
  }

  /// Advances one AR tick (see the type's description for the order of steps).
  public func update(_ context: inout TickContext) {
    if box.parent !== context.root { context.root.addChildNode(box) }
    trackingState = context.trackingState
    while nextSwitch < switchMicroseconds.count,
      switchMicroseconds[nextSwitch] <= context.microseconds
    {
      if nextSwitch % 2 == 0 { beginMeasuring() } else { endMeasuring(&context) }
      nextSwitch += 1
    }

    let intrinsics = context.camera.intrinsics
    let scene = HitTestScene(planes: context.planes)
    let hits = scene.hitTest(
      u: Double(intrinsics.width - 1) / 2, v: Double(intrinsics.height - 1) / 2,
      types: [.existingPlaneUsingExtent], camera: context.camera)
    guard let hit = hits.first else {
      status = .notReady
      return
    }
    guard isMeasuring else {
      status = .ready
      return
    }
    status = .measuring
    let position = hit.worldPosition
    let start = startPosition ?? position
    if startPosition == nil {
      startPosition = position
      box.position = position
    }
    currentPosition = position
    distance = start.distance(to: position)
    resizeBar(to: distance)
    let angle = atan2(start.z - position.z, start.x - position.x)
    box.orientation = Quaternion(axis: .unitY, angleRadians: -(angle + .pi))
    if sendingMicroseconds.map({ context.microseconds > $0 }) ?? true {
      send(&context)
      sendingMicroseconds = context.microseconds + Self.sendingIntervalMicroseconds
    }
  }

  /// `[("measure", {"status", "measuring", "distance" (m), "text", "start", "current"})]`;
  /// `start`/`current` are `[x, y, z]` world metres or `null`.
  public func traceFields() -> [(String, JSONValue)] {
    let start: JSONValue = startPosition.map { .numbers($0.array) } ?? .null
    let current: JSONValue = currentPosition.map { .numbers($0.array) } ?? .null
    return [
      (
        "measure",
        .object([
          ("status", .string(status.rawValue)), ("measuring", .bool(isMeasuring)),
          ("distance", .number(distance)),
          ("text", .string(MeasureText.centimetres(metres: distance))),
          ("start", start), ("current", current),
        ])
      )
    ]
  }

  /// The app's status text view (`setStatusText()`, SourceApps.md §5.2 and the tutorial): the
  /// lines `Status: <status>`, `Tracking: <description>`, `Distance: %.2f cm`.
  public func overlayText() -> [OverlayText] {
    [
      OverlayText(
        source: "measure",
        lines: [
          "Status: " + status.rawValue, "Tracking: " + Self.trackingDescription(trackingState),
          "Distance: " + MeasureText.centimetres(metres: distance),
        ], placement: .top, style: Self.statusTextViewStyle)
    ]
  }

  /// The app's `UITextView` as the tutorial lays it out: pinned to the top, leading and
  /// trailing edges, 90 pt high, white at 50 % opacity, text container insets 20/10/10/0 pt,
  /// UITextView's default 12 pt black text.
  public static let statusTextViewStyle = OverlayText.Style(
    fontSizePoints: 12, textColor: .black, background: Color(red: 1, green: 1, blue: 1, alpha: 0.5),
    fullWidth: true, heightPoints: 90, insetsPoints: (20, 10, 10, 0))

  /// The switch turned on (the app's `mode = .measuring`).
  private func beginMeasuring() {
    isMeasuring = true
    if bar.parent !== box { box.addChildNode(bar) }
    resizeBar(to: 0)
    box.isHidden = false
    startPosition = nil
    currentPosition = nil
    distance = 0
  }

  /// The switch turned off: one immediate send; the box stays visible.
  private func endMeasuring(_ context: inout TickContext) {
    isMeasuring = false
    send(&context)
  }

  private func send(_ context: inout TickContext) {
    context.emit(
      Self.eventName,
      [
        ("channel", .string(Self.channel)),
        ("data", .string(MeasureText.centimetres(metres: distance))),
      ])
  }

  /// The app's `Box.resizeTo(extent:)` from zero extents: width = extent, child at extent/2.
  private func resizeBar(to width: Double) {
    bar.geometry = Self.barGeometry(width: width)
    bar.position = Vector3(width / 2, 0, 0)
  }

  private static func barGeometry(width: Double) -> Geometry {
    .box(
      width: width, height: barThickness, length: barThickness,
      material: Material(diffuse: .white, lightingModel: .constant, isDoubleSided: false))
  }
}
