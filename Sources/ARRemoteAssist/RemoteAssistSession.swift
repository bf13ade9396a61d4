import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// The on-site side of AR Remote Support: turns received stroke messages into spheres in front
/// of the camera (DESIGN §5; SourceApps.md §2).
///
/// Each tick: deliver the messages with `t ≤ τ` in file order, then pop at most
/// `pointsPerFrame` queued points, each becoming a `Sphere(radius: 0.015)` at
/// `(−x/1000, −y/1000, 0)` under a stroke root. A root sits 1 m along the camera's −Z from its
/// position when `touch-start` arrived, with uniform scale 1.25 and a gimbal-locked
/// `LookAtConstraint` on the point of view, so strokes read upright and unmirrored.
///
/// The `screen` and `surface` modes place points by the helper's screen model instead
/// (`HelperScreen`, `StrokePlacement`; Documentation/StrokeLog.md).
///
/// Modelling note: the app creates spheres on a second main-queue hop, one frame later; ARSim
/// creates them in the tick the point is popped.
public final class RemoteAssistSession: Session {
  /// Receiver options.
  public struct Configuration: Hashable, Sendable {
    /// Faithful (default), corrected, screen or surface.
    public var mode: RemoteAssistMode = .faithful
    /// The helper's screen and the delays (`screen` and `surface` modes map touches through it;
    /// its data latency delays every mode's messages).
    public var helper = HelperScreen()
    /// Points popped per AR tick (1 in the 2019 app, 3 in the 2021+ app).
    public var pointsPerFrame: Int = 1
    /// Sphere radius in root-local metres (0.015 in the app).
    public var sphereRadius: Double = 0.015
    /// Root distance in front of the camera, metres (1 in the app).
    public var rootDistance: Double = 1
    /// Uniform root scale (1.25 in the app).
    public var rootScale: Double = 1.25
    /// The line colour before any `color:` message (systemBlue).
    public var initialColor: Color = .systemBlue
    /// The stroke spheres' specular colour; SceneKit's default is black, ARSim states a soft
    /// highlight so spheres read as round.
    public var specular: Color = Color(red: 0.35, green: 0.35, blue: 0.35)
    /// The stroke spheres' Blinn shininess.
    public var shininess: Double = 24

    /// Creates a configuration with the app's defaults.
    public init(mode: RemoteAssistMode = .faithful, pointsPerFrame: Int = 1) {
      self.mode = mode
      self.pointsPerFrame = pointsPerFrame
    }
  }

  /// The largest message the data stream carries (Agora: 1 KB per packet).
  public static let maximumMessageBytes = 1024
  /// The data stream's message rate limit (Agora: 30 packets/s).
  public static let maximumMessagesPerSecond = 30

  /// The configuration.
  public let configuration: Configuration
  private let messages: any MessageSource<StrokeMessage>
  /// Messages delivered so far (the next one's index in events).
  private var nextMessage = 0
  private var queue: [QueuedPoint] = []
  private var queueHead = 0
  private var lineColor: Color
  /// Stroke roots, oldest first (the app's `touchRoots`).
  public private(set) var roots: [Node] = []
  /// `surface` mode: where each stroke's sheet would sit (world), by stroke index, for points
  /// that hit no surface.
  var sheetCentres: [Int: Vector3] = [:]
  private var strokeCount = 0
  var sphereCount = 0
  /// The delivery index (0 = the first message the source delivered) of each point that became
  /// a sphere during the latest `update`, in placement order (live latency measurement).
  public private(set) var placedMessageIndices: [Int] = []
  /// Deliveries of the last second (the rate check).
  private(set) var recentDeliveries = MessageRateWindow()

  /// The work the rate check did so far: array elements appended, dropped or moved by its
  /// sliding window (at most three per message; `arsim bench S1` prints it per message).
  public var rateCheckOperations: Int { recentDeliveries.elementOperations }

  /// Creates a session replaying `messages` (in file order, each due at its `t`).
  public convenience init(
    messages: [StrokeMessage], configuration: Configuration = Configuration()
  ) {
    self.init(
      source: MessageList(messages) { ReplayTime.microseconds($0.t) }, configuration: configuration)
  }

  /// Creates a session receiving what `source` delivers (a stroke log, a socket, a simulated
  /// transport); the message's `t` is not consulted again (the source decides when it is due).
  public init(
    source: any MessageSource<StrokeMessage>, configuration: Configuration = Configuration()
  ) {
    self.messages = source
    self.configuration = configuration
    self.lineColor = configuration.initialColor
  }

  /// Number of points waiting to become spheres.
  public var queuedPointCount: Int { queue.count - queueHead }

  /// The current line colour.
  public var currentColor: Color { lineColor }

  /// Delivers the messages due by this tick (t ≤ τ, integer µs), then turns up to `pointsPerFrame` queued points into spheres.
  public func update(_ context: inout TickContext) {
    placedMessageIndices.removeAll(keepingCapacity: true)
    // Compared in integer microseconds so τ = k/60 and a log's decimal times agree exactly.
    if let stream = messages as? DataStreamSource {
      for notice in stream.notices(dueBy: context.microseconds) {
        context.emit(notice.name, notice.fields)
      }
    }
    while let message = messages.nextMessage(dueBy: context.microseconds) {
      deliver(message, index: nextMessage, context: &context)
      nextMessage += 1
    }
    for _ in 0..<max(0, configuration.pointsPerFrame) {
      guard queueHead < queue.count else { break }
      let item = queue[queueHead]
      queueHead += 1
      place(item, context: &context)
    }
    if queueHead > 4096, queueHead * 2 > queue.count {
      queue.removeFirst(queueHead)
      queueHead = 0
    }
  }

  /// `remoteAssist`: stroke count, queued points, line colour and each stroke root's world transform (16 numbers, column-major, metres).
  public func traceFields() -> [(String, JSONValue)] {
    [
      (
        "remoteAssist",
        .object([
          ("strokes", .integer(roots.count)), ("queuedPoints", .integer(queuedPointCount)),
          ("color", .numbers(lineColor.components)),
          (
            "roots",
            .array(
              roots.map { root in
                .object([
                  ("stroke", .integer(root.strokeIndex ?? -1)),
                  ("worldTransform", .numbers(root.worldTransform.columnMajorElements)),
                ])
              })
          ),
        ])
      )
    ]
  }

  // MARK: Delivery

  private func deliver(_ message: StrokeMessage, index: Int, context: inout TickContext) {
    let source: [(String, JSONValue)] = [
      ("line", .integer(message.line)), ("message", .string(Self.excerpt(message))),
    ]
    throttleCheck(context: &context, source: source)
    guard message.data.count <= Self.maximumMessageBytes else {
      context.emit(
        "warning",
        [("reason", "message over 1 KB: the data stream would refuse it; ignored")] + source)
      return
    }
    guard message.data.allSatisfy({ $0 < 0x80 }) else {
      context.emit(
        "warning", [("reason", "non-ASCII bytes: the app's ASCII decoding fails; ignored")] + source
      )
      return
    }
    let text = message.text
    switch RemoteAssistMessage.classify(text, mode: configuration.mode) {
    case .touchStart:
      startStroke(context: &context)
    case .touchEnd:
      break
    case .undo:
      undo(context: &context, source: source)
    case .color(let components, let reason):
      guard let c = components else {
        context.emit("warning", [("reason", .string("bad color: \(reason ?? "")"))] + source)
        return
      }
      if c.contains(where: { $0 < 0 || $0 > 1 }) {
        context.emit(
          "warning", [("reason", "color component outside 0…1 (extended sRGB); clamped")] + source)
      }
      let clamped = c.map { min(1, max(0, $0)) }
      lineColor = Color(red: clamped[0], green: clamped[1], blue: clamped[2], alpha: clamped[3])
      context.emit("color", [("rgba", .numbers(clamped))])
    case .points(let parsed, let dropped, let parsedIndices):
      var points = Array(zip(parsed, parsedIndices))
      if configuration.mode.correctsApp,
        let far = parsed.first(where: { !Self.isWithinView($0) })
      {
        let count = parsed.count { !Self.isWithinView($0) }
        points.removeAll { !Self.isWithinView($0.0) }
        let reason =
          "point (\(far.x), \(far.y)) is beyond ±\(Self.maximumPointCoordinate) points from the"
          + " view centre"
        context.emit("warning", [("reason", .string(reason))] + source)
        context.emit(
          "dropped-point", [("count", .integer(count)), ("reason", .string(reason))] + source)
      }
      if points.isEmpty, let what = RemoteAssistMessage.nonBatchDescription(text) {
        let reason = "\(what): the app's parser finds no point in it and ignores the message"
        context.emit(
          configuration.mode.correctsApp ? "warning" : "ignored-message",
          [("reason", .string(reason))] + source)
        return
      }
      if dropped > 0 {
        let reason: String
        if configuration.mode.correctsApp {
          reason = "malformed point text"
        } else if dropped <= 2 {
          reason = "the app's parser drops the first and last point of each batch"
        } else {
          reason =
            "the app's parser drops the first and last point of each batch; "
            + "\(dropped - 2) more pieces did not parse"
        }
        if configuration.mode.correctsApp {
          context.emit("warning", [("reason", .string(reason))] + source)
        }
        context.emit(
          "dropped-point", [("count", .integer(dropped)), ("reason", .string(reason))] + source)
      }
      let root = configuration.mode.correctsApp ? roots.last : nil
      if configuration.mode.correctsApp, root == nil, !points.isEmpty {
        context.emit(
          "dropped-point",
          [("count", .integer(points.count)), ("reason", "no stroke root (no touch-start yet)")]
            + source)
        return
      }
      let pieces = parsed.count + dropped
      var warnedSeen = false
      for (p, pointIndex) in points {
        var item = QueuedPoint(
          point: p, root: root, color: lineColor, message: index, line: message.line,
          pointIndex: pointIndex)
        if configuration.mode.usesHelperScreen {
          let drawn = configuration.helper.drawTime(
            sendTime: message.t, pointIndex: pointIndex, pointCount: pieces)
          let seen = seenCamera(
            drawTime: drawn, warned: &warnedSeen, context: &context,
            source: source)
          guard
            let touched = touchedPixel(
              p, pointIndex: pointIndex, camera: seen, context: &context, source: source)
          else { continue }
          item.touched = touched
        }
        queue.append(item)
      }
    }
  }

  private func throttleCheck(context: inout TickContext, source: [(String, JSONValue)]) {
    if recentDeliveries.record(context.microseconds) == Self.maximumMessagesPerSecond + 1 {
      context.emit(
        "warning",
        [("reason", "more than 30 messages in one second: over the data stream's rate limit")]
          + source)
    }
  }

  private func startStroke(context: inout TickContext) {
    let pointOfView = context.pointOfView.worldTransform
    let forward = pointOfView.transformDirection(Vector3(0, 0, -1)).normalized ?? Vector3(0, 0, -1)
    let sheetCentre = pointOfView.translation + forward * configuration.rootDistance
    let root = Node(name: "stroke-\(strokeCount)")
    if configuration.mode == .surface {
      // World-anchored: spheres keep their world positions whatever the camera or planes do.
      sheetCentres[strokeCount] = sheetCentre
    } else {
      root.position = sheetCentre
      root.scale = Vector3(
        configuration.rootScale, configuration.rootScale, configuration.rootScale)
      root.constraints = [
        .lookAt(LookAtConstraint(target: context.pointOfView, isGimbalLockEnabled: true))
      ]
    }
    root.strokeIndex = strokeCount
    strokeCount += 1
    context.root.addChildNode(root)
    roots.append(root)
    context.emit(
      "touch-start",
      [("stroke", .integer(root.strokeIndex ?? 0)), ("position", .numbers(sheetCentre.array))])
  }

  private func undo(context: inout TickContext, source: [(String, JSONValue)]) {
    guard let last = roots.popLast() else {
      context.emit(
        "warning", [("reason", "undo with no stroke (the app would crash); ignored")] + source)
      return
    }
    last.isHidden = true
    last.removeFromParentNode()
    context.emit("undo", [("stroke", .integer(last.strokeIndex ?? -1))])
    if configuration.mode.correctsApp {
      let orphaned = queue[queueHead...].filter { $0.root === last }.count
      if orphaned > 0 {
        queue = Array(queue[queueHead...].filter { $0.root !== last })
        queueHead = 0
        context.emit(
          "dropped-point",
          [("count", .integer(orphaned)), ("reason", "their stroke was undone")] + source)
      }
    }
  }

  // MARK: Placement

  private func place(_ item: QueuedPoint, context: inout TickContext) {
    let root: Node?
    let color: Color
    if configuration.mode.correctsApp {
      root = item.root
      color = item.color
    } else {
      root = roots.last
      color = lineColor
    }
    guard let root else {
      context.emit(
        "dropped-point",
        [
          ("count", 1), ("reason", "no stroke root when popped (the app discards it)"),
          ("point", .numbers([item.point.x, item.point.y])),
        ])
      return
    }
    switch configuration.mode {
    case .faithful, .corrected:
      let sphere = makeSphere(item, color: color, radius: configuration.sphereRadius, root: root)
      sphere.position = Self.appPosition(item.point)
    case .screen:
      placeOnSheet(item, color: color, root: root, context: &context)
    case .surface:
      placeOnSurface(item, color: color, root: root, context: &context)
    }
  }

  /// A stroke sphere of `radius` (root-local metres) under `root`, named and tagged with its
  /// helper point.
  func makeSphere(_ item: QueuedPoint, color: Color, radius: Double, root: Node) -> Node {
    let material = Material(
      diffuse: color, specular: configuration.specular, shininess: configuration.shininess,
      lightingModel: .blinn)
    let sphere = Node(
      name: "point-\(sphereCount)", geometry: .sphere(radius: radius, material: material))
    sphere.strokeIndex = root.strokeIndex
    sphere.strokePoint = StrokePointOrigin(messageLine: item.line, pointIndex: item.pointIndex)
    sphereCount += 1
    placedMessageIndices.append(item.message)
    root.addChildNode(sphere)
    return sphere
  }

  /// The app's child position `(−x/1000, −y/1000, 0)` (root-local metres).
  static func appPosition(_ point: Vector2) -> Vector3 {
    Vector3(-point.x / 1000, -point.y / 1000, 0)
  }

  /// The largest helper-point coordinate corrected mode accepts, in UIKit points from the view
  /// centre (10⁶ points place a sphere 1.25 km from its root; real views are under 1500 points
  /// wide). Farther points are dropped with a warning, as ARSim bounds camera positions (10⁶ m)
  /// and Quick, Draw! coordinates (10⁶ px) instead of rendering them wrong.
  public static let maximumPointCoordinate = 1e6

  static func isWithinView(_ point: Vector2) -> Bool {
    abs(point.x) <= maximumPointCoordinate && abs(point.y) <= maximumPointCoordinate
  }

  static func excerpt(_ message: StrokeMessage) -> String {
    let text = message.text
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}
