import ARMath
import ARRender
import ARReplay
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

@testable import ARCollaboration

/// The fixture scene replayed end to end: three participants, their folders, messages.jsonl.
@Suite("Collaborative replay", .serialized)
struct CollaborationReplayTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__").path
  static let scenePath = fixtures + "/collab-test.json"

  /// Renders the fixture into a fresh folder.
  static func render(threads: Int = 2, only: Set<String>? = nil, frames: ClosedRange<Int>? = nil)
    throws -> String
  {
    let scene = try ReplayScene.load(path: scenePath, registry: .builtIn)
    let directory = TemporaryFolder("collab").path
    _ = try MultiViewReplay(scene: scene).run(
      ReplayOptions(outputDirectory: directory, frameRange: frames, threads: threads), only: only)
    return directory
  }

  /// One full run shared by the read-only tests.
  static let full: Result<String, any Error> = Result { try render() }

  static func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  static func numbers(_ value: Any?) throws -> [Double] {
    try #require(value as? [Any]).map { try #require(($0 as? NSNumber)?.doubleValue) }
  }

  /// A node's world translation in a trace line.
  static func translation(of name: String, in line: [String: Any]) throws -> Vector3? {
    let nodes = try #require(line["nodes"] as? [[String: Any]])
    guard let node = nodes.first(where: { $0["name"] as? String == name }) else { return nil }
    let m = try numbers(node["worldTransform"])
    return Vector3(m[12], m[13], m[14])
  }

  // MARK: Independent model of what B shows of A

  /// CSS/Core Animation `ease` (Bézier (0.25, 0.1), (0.25, 1)) inverted by dense sampling.
  static func ease(_ x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let n = 100_000
    var previous = (x: 0.0, y: 0.0)
    for i in 1...n {
      let s = Double(i) / Double(n)
      let r = 1 - s
      let px = 3 * r * r * s * 0.25 + 3 * r * s * s * 0.25 + s * s * s
      let py = 3 * r * r * s * 0.1 + 3 * r * s * s * 1.0 + s * s * s
      if px >= x { return previous.y + (x - previous.x) / (px - previous.x) * (py - previous.y) }
      previous = (px, py)
    }
    return 1
  }

  /// Where a view shows a peer (in its collabBase space) at τ `t`: the peer's `k`-th update
  /// (`sent(k)`, sent at 0.3·k s) arrives `latency` s later; the first (k = `firstUpdate`)
  /// creates the sphere there, each later one stops the running animation and starts a 0.4 s
  /// ease move from where the sphere is shown then (the app's `move(to:duration: 0.4)`).
  static func shownPeer(
    at t: Double, firstUpdate: Int, latency: Double, sent: (Int) throws -> Vector3
  ) throws -> Vector3? {
    var created = false
    var moveFrom = Vector3.zero
    var moveTo = Vector3.zero
    var moveStart = 0.0
    var k = firstUpdate
    while 0.3 * Double(k) + latency <= t + 1e-9 {
      let arrival = 0.3 * Double(k) + latency
      let target = try sent(k)
      if created {
        moveFrom = moveFrom + (moveTo - moveFrom) * ease((arrival - moveStart) / 0.4)
      } else {
        moveFrom = target
        created = true
      }
      moveTo = target
      moveStart = arrival
      k += 1
    }
    guard created else { return nil }
    return moveFrom + (moveTo - moveFrom) * ease((t - moveStart) / 0.4)
  }

  @Test(
    "B's frames show A's sphere where A's camera was, 50 ms late, through the cut-short 0.4 s moves"
  )
  func peerSphereWhereTheCameraWas() throws {
    let directory = try Self.full.get()
    let traceA = try Self.lines(directory + "/A/trace.jsonl")
    let traceB = try Self.lines(directory + "/B/trace.jsonl")
    // A's collabBase: the desk plane's centre + 0.05 m up, no rotation. B's: its floor plane
    // turned 1.5708 rad about +Y, + 0.05 m up.
    let baseA = Vector3(0.35, 0.73 + 0.05, -0.65)
    let yaw = Quaternion(axis: .unitY, angleRadians: 1.5708)
    let baseB = Vector3(-0.3, -0.6 + 0.05, -2.0)
    // A's camera (its own trace, frame 3k is τ = 0.3k, the k-th timer fire) in A's base space,
    // as Float (the payload's type).
    func sent(_ k: Int) throws -> Vector3 {
      let m = try Self.numbers(traceA[3 * k]["worldFromCamera"])
      let p = Vector3(m[12], m[13], m[14]) - baseA
      return Vector3(Double(Float(p.x)), Double(Float(p.y)), Double(Float(p.z)))
    }
    // B joined at 0.5 s: the first update it gets is A's at 0.6 s (k = 2), arriving at 0.65 s.
    func shown(at t: Double) throws -> Vector3? {
      try Self.shownPeer(at: t, firstUpdate: 2, latency: 0.05, sent: sent)
    }

    var checkedPositions = 0
    var checkedPixels = 0
    for line in traceB {
      let frame = try #require(line["frame"] as? Int)
      let t = Double(frame) / 10
      guard t < 4 else { break }  // C (another colour) joins at 4 s
      let expectedLocal = try shown(at: t)
      let traced = try Self.translation(of: "A", in: line)
      guard let expectedLocal else {
        #expect(traced == nil, "frame \(frame): A shown before its first update arrived")
        continue
      }
      let expected = baseB + yaw.act(expectedLocal)
      let actual = try #require(traced, "frame \(frame): no A in B's trace")
      #expect((actual - expected).length < 2e-5, "frame \(frame): \(actual) vs \(expected)")
      checkedPositions += 1

      // Project through B's trace camera and look at the pixels.
      let w = try Self.numbers(line["worldFromCamera"])
      let worldFromCamera = Matrix4(columnMajor: w)
      let c = RigidTransform(matrix: worldFromCamera).inverse.transformPoint(expected)
      let k = try #require(line["intrinsics"] as? [String: Any])
      let fx = try #require((k["fx"] as? NSNumber)?.doubleValue)
      let fy = try #require((k["fy"] as? NSNumber)?.doubleValue)
      let cx = try #require((k["cx"] as? NSNumber)?.doubleValue)
      let cy = try #require((k["cy"] as? NSNumber)?.doubleValue)
      guard c.z < -0.5 else { continue }
      let u = fx * c.x / -c.z + cx
      let v = cy - fy * c.y / -c.z
      let radius = fy * 0.15 / -c.z
      let image = try Image(contentsOfPNG: directory + String(format: "/B/frame_%05d.png", frame))
      guard u > 1, v > 1, u < Double(image.width - 2), v < Double(image.height - 2), radius > 2
      else { continue }
      // Only A's sphere has red in this scene (black background, cyan floor, blue models).
      let centre = image[Int(u.rounded()), Int(v.rounded())]
      #expect(centre.r > 10 && centre.r > centre.b, "frame \(frame): \(centre) at (\(u), \(v))")
      for du in [-1.6 * radius, 1.6 * radius] {
        let x = Int((u + du).rounded())
        if x >= 0, x < image.width {
          #expect(image[x, Int(v.rounded())].r == 0, "frame \(frame): red beyond the sphere")
        }
      }
      checkedPixels += 1
    }
    #expect(checkedPositions > 20)
    #expect(checkedPixels > 5)
  }

  /// World from a view's collabBase, from its trace (the floor plane node is turned −90° about X
  /// inside it).
  static func baseFromWorld(_ line: [String: Any]) throws -> RigidTransform {
    let nodes = try #require(line["nodes"] as? [[String: Any]])
    let floor = try #require(nodes.first { $0["name"] as? String == "collabBase" })
    let m = Matrix4(columnMajor: try numbers(floor["worldTransform"]))
    let unturn = RigidTransform(
      rotation: Quaternion(axis: .unitX, angleRadians: .pi / 2), translation: .zero)
    return (RigidTransform(matrix: m) * unturn).inverse
  }

  @Test("a model A adds sits at the same place relative to every collabBase, the late joiner's too")
  func modelsAgree() throws {
    let directory = try Self.full.get()
    // 5.5 s: the tree's path ended at 3.5 s, the last update (unselect, 4.5 s) has settled.
    var places: [String: Vector3] = [:]
    for view in ["A", "B", "C"] {
      let line = try Self.lines(directory + "/\(view)/trace.jsonl")[55]
      let world = try #require(try Self.translation(of: "tree", in: line), "\(view): no tree")
      places[view] = try Self.baseFromWorld(line).transformPoint(world)
    }
    let a = try #require(places["A"])
    #expect((a - Vector3(-0.2, 0.15, -0.2)).length < 1e-6)
    for view in ["B", "C"] {
      let p = try #require(places[view])
      #expect((p - a).length < 1e-5, "\(view): \(p) vs A's \(a)")
    }
  }

  @Test("the late joiner gets every model through multiCollabModels from the most senior member")
  func lateJoiner() throws {
    let directory = try Self.full.get()
    let messages = try Self.lines(directory + "/messages.jsonl")
    let multi = messages.filter { $0["type"] as? String == "multiCollabModels" }
    // One to B when it joined (nothing yet), one to C: both from A, the most senior.
    #expect(multi.map { $0["from"] as? String } == ["A", "A"])
    #expect(multi.map { $0["peer"] as? String } == ["B", "C"])
    let toC = try #require(multi.last)
    let payload = try #require(toC["payload"] as? String)
    let models = try RTMPayloadCoding.decode([ModelData].self, from: Array(payload.utf8))
    #expect(models.map(\.id) == ["tree", "rock"])
    #expect(models.first?.owner == "A")
    let events = try Self.lines(directory + "/C/events.jsonl")
    let received = try #require(events.first { $0["event"] as? String == "received-models" })
    #expect(received["from"] as? String == "A")
    #expect(received["models"] as? [String] == ["tree", "rock"])
    // Seniority as the app stores it.
    let joined = try #require(events.first { $0["event"] as? String == "joined" })
    #expect(joined["moreSeniorMembers"] as? [String] == ["A", "B"])
  }

  @Test("B leaves: its peer sphere disappears from A's and C's views")
  func leaving() throws {
    let directory = try Self.full.get()
    for view in ["A", "C"] {
      let trace = try Self.lines(directory + "/\(view)/trace.jsonl")
      #expect(try Self.translation(of: "B", in: trace[50]) != nil, "\(view) shows B at 5 s")
      #expect(try Self.translation(of: "B", in: trace[60]) == nil, "\(view) still shows B at 6 s")
      let events = try Self.lines(directory + "/\(view)/events.jsonl")
      #expect(
        events.contains { $0["event"] as? String == "peer-removed" && $0["peer"] as? String == "B" }
      )
    }
  }

  @Test("hostile log lines and payloads become warnings naming the line; the replay goes on")
  func hostileLog() throws {
    let directory = try Self.full.get()
    let events = try Self.lines(directory + "/C/events.jsonl")
    let warnings = events.filter { $0["event"] as? String == "warning" }
    // Lines 1 and 6 are unreadable (not JSON; neither channel nor peer): reader warnings.
    let texts = warnings.compactMap { $0["message"] as? String }
    #expect(texts.contains { $0.contains("hostile-log.jsonl:1:") })
    #expect(texts.contains { $0.contains("hostile-log.jsonl:6:") })
    // Lines 2, 3, 4, 5, 7, 8: undecodable payloads and the unknown type, each with its line.
    let lines = Set(warnings.compactMap { $0["line"] as? Int })
    #expect(lines == [2, 3, 4, 5, 7, 8])
    #expect(texts.contains { $0.contains("unknown message type 'teleport'") })
    #expect(texts.contains { $0.contains("isFree") })  // line 4: ModelData without isFree
    // The replay went on to the last frame.
    #expect(try Self.lines(directory + "/C/trace.jsonl").count == 61)
  }

  @Test("same bytes: two runs, 1 and 2 threads, one participant alone, a frame range")
  func determinism() throws {
    let first = try Self.full.get()
    let second = try Self.render(threads: 1)
    defer { try? FileManager.default.removeItem(atPath: second) }
    func files(_ root: String) throws -> [String: [UInt8]] {
      var out: [String: [UInt8]] = [:]
      for view in ["A", "B", "C"] {
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + view)
        where name != "run.json" && name != ".arsim-lock" {
          out[view + "/" + name] = Array(
            try Data(contentsOf: URL(fileURLWithPath: root + "/" + view + "/" + name)))
        }
      }
      out["messages.jsonl"] = Array(
        try Data(contentsOf: URL(fileURLWithPath: root + "/messages.jsonl")))
      return out
    }
    let a = try files(first)
    let b = try files(second)
    #expect(a.count == 3 * (61 + 2) + 1)
    #expect(a == b)

    let alone = try Self.render(only: ["B"], frames: 20...25)
    defer { try? FileManager.default.removeItem(atPath: alone) }
    for frame in 20...25 {
      let name = String(format: "B/frame_%05d.png", frame)
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: alone + "/" + name)))
      #expect(bytes == a[name], "\(name)")
    }
    #expect(!FileManager.default.fileExists(atPath: alone + "/A"))
  }
}
