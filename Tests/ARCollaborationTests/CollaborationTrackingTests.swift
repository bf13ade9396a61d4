import ARMath
import ARReplay
import ARSimCLI
import Foundation
import Testing

@testable import ARCollaboration

/// CollaboratAR's `updatePositions()` sends `arView.cameraTransform` (seed 002, "Sending User
/// Position"): with a `tracking` section that is the tracker's estimate, so the other views
/// show the peer where its estimate said.
@Suite("Collaboration under tracking error", .serialized)
struct CollaborationTrackingTests {
  static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Scenes/Inputs").standardized.path
  /// The constant error: travelled distances 1.25 times their length, then 0.1, −0.05, 0.2 m.
  static let scale = 0.25
  static let offset = Vector3(0.1, -0.05, 0.2)
  static let baseA = Vector3(0.35, 0.73 + 0.05, -0.65)
  static let baseB = Vector3(-0.3, -0.6 + 0.05, -2.0)

  /// The constant error, a frame dropped at 0.6 s (A's second update).
  static let constantError = """
    {
      "error": {"scale": \(scale)},
      "relocalizations": [{"t": 0, "residual": {"position": [\(offset.x), \(offset.y), \(offset.z)]}}],
      "frames": {"drops": [0.6]}
    }
    """

  static func sceneText(tracking: String?) -> String {
    let section = tracking.map { "\"tracking\": \($0)," } ?? ""
    return """
      {
        "name": "collab-tracking",
        "output": {"width": 72, "height": 128, "fps": 10},
        "duration": 2.5,
        "background": {"color": [0, 0, 0]},
        \(section)
        "collaboration": {
          "network": {"latency": 0.05},
          "participants": [
            {
              "id": "A",
              "track": {"path": "\(inputs)/tum_fr1_xyz_groundtruth.txt", "format": "tum"},
              "output": {"width": 96, "height": 72},
              "color": [0.95, 0.3, 0.2],
              "anchor": {"plane": {"position": [0.35, 0.73, -0.65], "extent": [1.6, 1.0]}}
            },
            {
              "id": "B",
              "track": {"path": "\(inputs)/arkit_datalogger_camera_pose.txt", "format": "arkit"},
              "viewport": "portrait",
              "join": 0.5,
              "anchor": {"plane": {"position": [-0.3, -0.6, -2.0], "eulerAngles": [0, 1.5708, 0], "extent": [1.2, 1.2]}}
            }
          ]
        }
      }
      """
  }

  /// Renders the scene into a fresh folder and returns it.
  static func render(tracking: String?) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("arsim-collab-tracking-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/scene.json"
    try sceneText(tracking: tracking).write(toFile: path, atomically: true, encoding: .utf8)
    let scene = try ReplayScene.load(path: path, registry: .builtIn)
    _ = try MultiViewReplay(scene: scene).run(
      ReplayOptions(outputDirectory: directory + "/out", threads: 2))
    return directory + "/out"
  }

  static let tracked: Result<String, any Error> = Result { try render(tracking: constantError) }

  static func matrix(_ line: [String: Any], _ key: String) throws -> Matrix4 {
    Matrix4(columnMajor: try CollaborationReplayTests.numbers(line[key]))
  }

  /// A's estimate at trace frame `frame`, by hand from its true camera: scaled about the τ = 0
  /// position, then offset.
  static func estimate(_ traceA: [[String: Any]], frame: Int) throws -> Vector3 {
    let p0 = try matrix(traceA[0], "worldFromCameraTrue").translation
    let p = try matrix(traceA[frame], "worldFromCameraTrue").translation
    return p0 + (p - p0) * (1 + scale) + offset
  }

  @Test("A sends its estimated pose; the frame loop's estimate is the one sent")
  func sentPoseIsTheEstimate() throws {
    let directory = try Self.tracked.get()
    let traceA = try CollaborationReplayTests.lines(directory + "/A/trace.jsonl")
    let messages = try CollaborationReplayTests.lines(directory + "/messages.jsonl")
    let updates = messages.filter {
      $0["type"] as? String == "peerUpdate" && $0["from"] as? String == "A"
    }
    #expect(updates.count == 8)  // 0.3, 0.6, …, 2.4 s
    // The forced drop at 0.6 s: A's second update is the last delivered frame's estimate.
    #expect((traceA[6]["tracking"] as? [String: Any])?["frame"] as? String == "dropped")
    for (n, update) in updates.enumerated() {
      let frame = 3 * (n + 1)
      let payload = try #require(update["payload"] as? String)
      let peer = try RTMPayloadCoding.decode(PeerData.self, from: Array(payload.utf8))
      let expected = try Self.estimate(traceA, frame: frame) - Self.baseA
      let sent = Vector3(
        Double(peer.translation.x), Double(peer.translation.y), Double(peer.translation.z))
      #expect((sent - expected).length < 1e-6, "update \(n): \(sent) vs \(expected)")
      // The estimate keeps the true orientation (no rotation error configured).
      let trueRotation = Quaternion(
        rotationMatrix: try Self.matrix(traceA[frame], "worldFromCameraTrue").upperLeft3x3)
      let q = peer.rotation
      let dot =
        Double(q.x) * trueRotation.x + Double(q.y) * trueRotation.y + Double(q.z) * trueRotation.z
        + Double(q.w) * trueRotation.w
      #expect(abs(abs(dot) - 1) < 1e-6, "update \(n): rotation")
      // What A's app used for its own view is what it sent.
      let used = try Self.matrix(traceA[frame], "worldFromCamera").translation - Self.baseA
      #expect((used - expected).length < 1e-9, "update \(n): the trace's estimate")
    }
  }

  @Test("B's view shows A's sphere where A's estimate said, not where A was")
  func peerWhereTheEstimateSaid() throws {
    let directory = try Self.tracked.get()
    let traceA = try CollaborationReplayTests.lines(directory + "/A/trace.jsonl")
    let traceB = try CollaborationReplayTests.lines(directory + "/B/trace.jsonl")
    let yaw = Quaternion(axis: .unitY, angleRadians: 1.5708)
    func sent(_ k: Int) throws -> Vector3 {
      let p = try Self.estimate(traceA, frame: 3 * k) - Self.baseA
      return Vector3(Double(Float(p.x)), Double(Float(p.y)), Double(Float(p.z)))
    }
    var checked = 0
    for line in traceB {
      let frame = try #require(line["frame"] as? Int)
      let t = Double(frame) / 10
      let shown = try CollaborationReplayTests.shownPeer(
        at: t, firstUpdate: 2, latency: 0.05, sent: sent)
      let traced = try CollaborationReplayTests.translation(of: "A", in: line)
      guard let shown else {
        #expect(traced == nil, "frame \(frame): A shown before its first update")
        continue
      }
      let expected = Self.baseB + yaw.act(shown)
      let actual = try #require(traced, "frame \(frame): no A in B's trace")
      #expect((actual - expected).length < 2e-5, "frame \(frame): \(actual) vs \(expected)")
      // Far from where the true camera would have put it.
      let truth = try Self.matrix(traceA[3 * (frame / 3)], "worldFromCameraTrue").translation
      #expect((truth - Self.baseA - shown).length > 0.05, "frame \(frame): at the true pose")
      checked += 1
    }
    #expect(checked >= 17)
  }

  @Test("B's view runs its own tracker: its estimate is its true camera under the same error")
  func everyViewTracked() throws {
    let directory = try Self.tracked.get()
    let traceB = try CollaborationReplayTests.lines(directory + "/B/trace.jsonl")
    let p0 = try Self.matrix(traceB[0], "worldFromCameraTrue").translation
    for frame in [0, 6, 10, 20] {
      let truth = try Self.matrix(traceB[frame], "worldFromCameraTrue").translation
      let used = try Self.matrix(traceB[frame], "worldFromCamera").translation
      let expected = p0 + (truth - p0) * (1 + Self.scale) + Self.offset
      #expect((used - expected).length < 1e-9, "frame \(frame)")
    }
  }

  @Test("a tracking section without error gives every view's frames and messages.jsonl unchanged")
  func zeroError() throws {
    let plain = try Self.render(tracking: nil)
    let tracked = try Self.render(tracking: #"{"seed": 9}"#)
    for view in ["A", "B"] {
      for frame in [0, 7, 15, 25] {
        let name = "/\(view)" + String(format: "/frame_%05d.png", frame)
        #expect(
          FileManager.default.contents(atPath: plain + name)
            == FileManager.default.contents(atPath: tracked + name), "\(name)")
      }
    }
    #expect(
      FileManager.default.contents(atPath: plain + "/messages.jsonl")
        == FileManager.default.contents(atPath: tracked + "/messages.jsonl"))
  }
}
