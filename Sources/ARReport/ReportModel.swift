import ARSupport
import Foundation

/// The kinds of events the timeline draws in lanes of their own (issue 20's list); any
/// other event name goes to `other`.
enum EventCategory: String, CaseIterable {
  case touchStart = "touch-start"
  case undo
  case color
  case droppedPoint = "dropped points"
  case warning = "warnings"
  case measurement = "measurements"
  case displayer = "displayers"
  case participant = "participants"
  case model = "models"
  case messageLost = "messages lost"
  /// The tracker's events (Documentation/Tracking.md): state changes, dropped frames,
  /// interruptions, relocalisations.
  case tracking
  case other

  /// The category of an event named `name` (events.jsonl's `event` field).
  init(eventName name: String) {
    let lower = name.lowercased()
    switch lower {
    case "touch-start": self = .touchStart
    case "undo": self = .undo
    case "color", "colour": self = .color
    case "dropped-point": self = .droppedPoint
    case "warning": self = .warning
    case "client-new-measurement": self = .measurement
    case "tracking-state", "camera-frame-dropped", "session-interrupted",
      "session-interruption-ended", "relocalized":
      self = .tracking
    default:
      if lower.hasPrefix("displayer") {
        self = .displayer
      } else if lower.hasPrefix("model-") || lower.hasSuffix("-models")
        || ["selected", "unselected"].contains(lower)
      {
        self = .model
      } else if lower.contains("lost") || lower.contains("dropped-message")
        || lower == "message-failed"
      {
        self = .messageLost
      } else if lower.contains("join") || lower.contains("leave") || lower.contains("left")
        || lower.hasPrefix("participant") || lower.hasPrefix("peer-")
      {
        self = .participant
      } else if lower.contains("warning") {
        self = .warning
      } else {
        self = .other
      }
    }
  }

  /// The lane's colour on the page.
  var color: String {
    switch self {
    case .touchStart: "#1f77b4"
    case .undo: "#d62728"
    case .color: "#9467bd"
    case .droppedPoint: "#8c564b"
    case .warning: "#ff7f0e"
    case .measurement: "#2ca02c"
    case .displayer: "#17becf"
    case .participant: "#e377c2"
    case .model: "#ff9896"
    case .messageLost: "#7f7f7f"
    case .tracking: "#393b79"
    case .other: "#bcbd22"
    }
  }
}

/// One event line, for the timeline and the table.
struct ReportEvent {
  var t: Double
  var frame: Int
  var name: String
  var category: EventCategory
  /// The view (participant) folder it came from; empty for the main folder.
  var view: String
  /// The other fields as `key: value` text (long values shortened).
  var details: String

  init(t: Double, frame: Int, name: String, view: String, details: String) {
    self.t = t
    self.frame = frame
    self.name = name
    self.view = view
    self.details = details
    category = EventCategory(eventName: name)
  }

  /// `message-lost` events from a collaborative run's `messages.jsonl` (Collaboration.md):
  /// one per delivery with a `dropped` reason, in the receiver's view, and `message-failed`
  /// for a send that failed, in the sender's; at the send τ, frame ⌊τ · fps⌋.
  static func messageLosses(_ messages: [[String: Any]], fps: Double, views: Set<String>)
    -> [ReportEvent]
  {
    var out: [ReportEvent] = []
    for message in messages {
      guard let t = (message["t"] as? NSNumber)?.doubleValue, t.isFinite else { continue }
      // Clamped to ±2⁶²: a τ no run reaches still gets a frame number, not a trap.
      let frame = fps > 0 ? Int(max(-0x1p62, min(0x1p62, (t * fps + 1e-9).rounded(.down)))) : 0
      let type = message["type"] as? String ?? "?"
      let from = message["from"] as? String ?? "?"
      if let failed = message["failed"] {
        out.append(
          ReportEvent(
            t: t, frame: frame, name: "message-failed", view: views.contains(from) ? from : "",
            details: "type: \(type), from: \(from), reason: " + text(failed)))
      }
      for delivery in message["deliveries"] as? [[String: Any]] ?? [] {
        guard let reason = delivery["dropped"] else { continue }
        let to = delivery["to"] as? String ?? "?"
        out.append(
          ReportEvent(
            t: t, frame: frame, name: "message-lost", view: views.contains(to) ? to : "",
            details: "type: \(type), from: \(from), to: \(to), reason: " + text(reason)
              + ", attempts: " + text(delivery["attempts"] as Any)))
      }
    }
    return out
  }

  init?(_ line: [String: Any], view: String) {
    guard let t = (line["t"] as? NSNumber)?.doubleValue, t.isFinite,
      let frame = (line["frame"] as? NSNumber)?.intValue,
      let name = line["event"] as? String
    else { return nil }
    self.t = t
    self.frame = frame
    self.name = name
    self.view = view
    category = EventCategory(eventName: name)
    details = line.keys.sorted().filter { !["t", "frame", "event"].contains($0) }.map {
      key in "\(key): " + Self.text(line[key] as Any)
    }.joined(separator: ", ")
  }

  /// Compact text of a JSON value: numbers with 3 decimals, arrays of numbers in brackets,
  /// strings as they are; at most 160 characters.
  static func text(_ value: Any) -> String {
    let full: String
    switch value {
    case let s as String: full = s
    case let n as NSNumber:
      let x = n.doubleValue
      full = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : HTMLText.number(x)
    case let a as [Any]: full = "[" + a.prefix(16).map { text($0) }.joined(separator: ", ") + "]"
    case let o as [String: Any]:
      full =
        "{" + o.keys.sorted().map { "\($0): " + text(o[$0] as Any) }.joined(separator: ", ") + "}"
    default: full = "null"
    }
    return full.count > 160 ? String(full.prefix(157)) + "…" : full
  }
}

/// A camera position at one output frame (world metres, ARKit axes), with its heading.
struct CameraSample {
  var frame: Int
  var t: Double
  var x: Double
  var y: Double
  var z: Double
  /// The camera's forward direction (−Z column of `worldFromCamera`), x and z.
  var forwardX: Double
  var forwardZ: Double
}

/// Placed content found in the trace's session fields: where and when it was seen.
struct MapItem {
  /// `stroke root`, `displayer`, `model`, `peer`, `plane`, … (from the trace field's key).
  var kind: String
  /// Its label (stroke number, index, id, name).
  var label: String
  var view: String
  var x: Double
  var z: Double
  var firstFrame: Int
  var lastFrame: Int
}

/// A plane anchor rectangle from the scene file (metres; `yaw` radians about +Y).
struct MapPlane {
  var id: String
  var x: Double
  var z: Double
  var width: Double
  var depth: Double
  var yaw: Double
  var vertical: Bool
}

/// Extracts camera paths and placed content from trace lines.
enum TraceReading {
  static let reservedKeys: Set<String> = ["frame", "t", "worldFromCamera", "intrinsics", "nodes"]

  /// The camera samples of every trace line that has a `worldFromCamera`.
  static func cameraPath(_ trace: [[String: Any]]) -> [CameraSample] {
    trace.compactMap { line in
      guard let frame = (line["frame"] as? NSNumber)?.intValue,
        let m = numbers(line["worldFromCamera"]), m.count == 16
      else { return nil }
      let t = (line["t"] as? NSNumber)?.doubleValue ?? 0
      return CameraSample(
        frame: frame, t: t, x: m[12], y: m[13], z: m[14], forwardX: -m[8], forwardZ: -m[10])
    }
  }

  /// Whether the map draws a trace node: a plane (`kind` `plane`, or `plane` in its name).
  static func isMapNode(_ node: [String: Any]) -> Bool {
    (node["name"] as? String ?? "").lowercased().contains("plane")
      || node["kind"] as? String == "plane"
  }

  /// Content with a position in the session fields, keyed by kind and label, first and last
  /// frame seen; and plane nodes (named `…plane…` or of kind `plane`) from the lines that
  /// still hold `nodes` (RunFolder keeps about 200).
  static func items(_ trace: [[String: Any]], view: String) -> [MapItem] {
    var found: [String: MapItem] = [:]
    var order: [String] = []
    func note(kind: String, label: String, position: [Double], frame: Int) {
      let key = kind + "\u{0}" + label
      if var item = found[key] {
        item.lastFrame = max(item.lastFrame, frame)
        item.x = position[0]
        item.z = position[2]
        found[key] = item
      } else {
        found[key] = MapItem(
          kind: kind, label: label, view: view, x: position[0], z: position[2], firstFrame: frame,
          lastFrame: frame)
        order.append(key)
      }
    }
    for line in trace {
      guard let frame = (line["frame"] as? NSNumber)?.intValue else { continue }
      for key in line.keys.sorted() where !reservedKeys.contains(key) {
        walk(line[key] as Any, kind: key, depth: 0) { kind, label, position in
          note(kind: kind, label: label, position: position, frame: frame)
        }
      }
      // RunFolder keeps `nodes` on sampled lines only (nodeSampleStep).
      guard let nodes = line["nodes"] as? [[String: Any]] else { continue }
      for node in nodes where isMapNode(node) {
        guard let m = numbers(node["worldTransform"]), m.count == 16 else { continue }
        let name = node["name"] as? String ?? ""
        note(kind: "plane node", label: name, position: [m[12], m[13], m[14]], frame: frame)
      }
    }
    return order.compactMap { found[$0] }
  }

  /// Visits objects holding a `worldTransform` (16 numbers) or a `position` / `translation`
  /// (3 numbers), and 3-number arrays named `start` / `current` (the measuring tool's ends).
  private static func walk(
    _ value: Any, kind: String, depth: Int, visit: (String, String, [Double]) -> Void
  ) {
    guard depth < 6 else { return }
    if let array = value as? [Any] {
      for (index, element) in array.prefix(10_000).enumerated() {
        walk(element, kind: kind, depth: depth + 1) { k, label, p in
          visit(k, label.isEmpty ? String(index) : label, p)
        }
      }
      return
    }
    guard let object = value as? [String: Any] else { return }
    let label =
      ["stroke", "index", "id", "name", "rtmID", "participant", "anchor"].lazy
      .compactMap { object[$0].map { ReportEvent.text($0) } }.first ?? ""
    if let m = numbers(object["worldTransform"]), m.count == 16 {
      visit(singular(kind), label, [m[12], m[13], m[14]])
    } else if let p = numbers(object["position"] ?? object["translation"]), p.count == 3 {
      visit(singular(kind), label, p)
    }
    for key in object.keys.sorted() {
      guard let child = object[key] else { continue }
      if ["start", "current"].contains(key), let p = numbers(child), p.count == 3 {
        visit(kind + " " + key, "", p)
      } else if child is [Any] || child is [String: Any], key != "worldTransform" {
        walk(child, kind: key == "roots" ? "stroke root" : key, depth: depth + 1, visit: visit)
      }
    }
  }

  /// `displayers` → `displayer`, `peers` → `peer`; other names as they are.
  private static func singular(_ kind: String) -> String {
    kind.hasSuffix("s") && kind.count > 3 ? String(kind.dropLast()) : kind
  }

  static func numbers(_ value: Any?) -> [Double]? {
    guard let array = value as? [Any] else { return nil }
    var out: [Double] = []
    out.reserveCapacity(array.count)
    for element in array {
      guard let n = element as? NSNumber else { return nil }
      let x = n.doubleValue
      guard x.isFinite else { return nil }
      out.append(x)
    }
    return out
  }

  /// Plane anchors from the scene file `run.json` names (`sceneFile`), tried as given and
  /// relative to the folder's parent; empty when unreadable (the map then shows the plane
  /// nodes from the trace only).
  static func scenePlanes(sceneFile: String?, folder: String) -> [MapPlane] {
    guard let sceneFile, !sceneFile.isEmpty else { return [] }
    let candidates =
      [sceneFile] + (FileIO.parentFolder(of: folder).map { [$0 + "/" + sceneFile] } ?? [])
    guard
      let data = candidates.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first,
      data.count < 64 << 20,
      let scene = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let planes = scene["planes"] as? [[String: Any]]
    else { return [] }
    return planes.prefix(1000).enumerated().compactMap { index, plane in
      guard let position = numbers(plane["position"]), position.count == 3 else { return nil }
      let extent = numbers(plane["extent"]) ?? [0, 0]
      let center = numbers(plane["center"]) ?? [0, 0, 0]
      let euler = numbers(plane["eulerAngles"]) ?? [0, 0, 0]
      guard extent.count == 2, center.count == 3, euler.count == 3 else { return nil }
      let yaw = euler[1]
      // The centre offset is in the anchor's frame: rotate it by the yaw.
      let cx = center[0] * cos(yaw) + center[2] * sin(yaw)
      let cz = -center[0] * sin(yaw) + center[2] * cos(yaw)
      return MapPlane(
        id: plane["id"] as? String ?? "plane \(index)", x: position[0] + cx, z: position[2] + cz,
        width: extent[0], depth: extent[1], yaw: yaw,
        vertical: (plane["alignment"] as? String) == "vertical" || abs(euler[0]) > 0.7)
    }
  }
}
