import ARMath
import ARRender
import ARReplay
import ARScene
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// The bundled room scenes discover their planes (environment.planeDetection): checked
/// against the room's own geometry (the desk box: centre (0.35, 0.71, −0.65), 1.6 × 0.04 ×
/// 1.0 m, so its top is y = 0.73 over x ∈ [−0.45, 1.15], z ∈ [−1.15, −0.15]).
@Suite struct DiscoveredPlaneSceneTests {
  func load(_ name: String) throws -> ReplayScene {
    try ReplayScene.load(
      path: SceneGoldenTests.scenesDirectory + "/" + name + ".json", registry: .builtIn)
  }

  @Test("The desk is a discovered table anchor inside the desk top, added before the first stroke")
  func desk() throws {
    let scene = try load("tum-desk-circle-surface-room")
    #expect(scene.planes.allSatisfy { $0.anchor.identifier.hasPrefix("discovered-") })
    #expect(scene.planes.map(\.timeline).anchors(at: 0).isEmpty)
    let desk = try #require(scene.planes.first { $0.anchor.classification == .table }).timeline
    #expect(desk.appearsAt > 0 && desk.appearsAt < 3.0)  // the helper's first touch is at 3.0 s
    for version in [desk.initial] + desk.updates.compactMap({ desk.anchor(at: $0.t) }) {
      let low = version.worldFromAnchor.transformPoint(version.center - version.extent * 0.5)
      let high = version.worldFromAnchor.transformPoint(version.center + version.extent * 0.5)
      #expect(abs(low.y - 0.73) < 1e-9 && abs(high.y - 0.73) < 1e-9)
      #expect(low.x >= -0.45 - 1e-9 && high.x <= 1.15 + 1e-9)
      #expect(low.z >= -1.15 - 1e-9 && high.z <= -0.15 + 1e-9)
    }
  }

  @Test("The measuring app's centre ray hits the discovered desk as it hit the typed one")
  func measureHit() throws {
    let scene = try load("tum-measure-room")
    let t = 3.0
    let camera = try scene.viewportCamera(at: t)
    let anchors = scene.planes.map(\.timeline).anchors(at: t)
    let k = camera.intrinsics
    let hit = try #require(
      HitTestScene(planes: anchors).hitTest(
        u: Double(k.width - 1) / 2, v: Double(k.height - 1) / 2,
        types: [.existingPlaneUsingExtent], camera: camera
      ).first)
    #expect(abs(hit.worldPosition.y - 0.73) < 1e-9)
    #expect(hit.anchor?.classification == .table)
    #expect(hit.anchor?.identifier.hasPrefix("discovered-") == true)
  }

  @Test("Plane events come in order and are the same bytes for 1 and 2 threads")
  func events() throws {
    let scene = try load("tum-measure-room").resized(width: 32, height: 24)
    var outputs: [[UInt8]] = []
    for threads in [1, 2] {
      let temporary = TemporaryFolder("discovery")
      defer { temporary.remove() }
      let directory = temporary.path
      _ = try Replay(scene: scene).run(
        ReplayOptions(outputDirectory: directory, frameRange: 0...50, threads: threads))
      outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/events.jsonl"))))
    }
    #expect(outputs[0] == outputs[1])
    let lines = String(decoding: outputs[0], as: UTF8.self).split(separator: "\n")
    var added = Set<String>()
    var last = -1.0
    var planeEvents = 0
    for line in lines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard let name = object["event"] as? String, name.hasPrefix("plane-") else { continue }
      planeEvents += 1
      let t = try #require(object["t"] as? Double)
      let anchor = try #require(object["anchor"] as? String)
      #expect(t >= last)
      last = t
      if name == "plane-added" {
        #expect(added.insert(anchor).inserted)
        #expect(object["classification"] is String)
      } else {
        #expect(added.contains(anchor))
      }
    }
    #expect(planeEvents >= 4)
  }

  @Test(
    "With a tracking section the desk is placed in the estimated world of the frame it was found in"
  )
  func estimatedWorld() throws {
    // The room scene with drift only (no dropped frames, no jitter: the same frames are seen),
    // its inputs by absolute path from a scene file in a temporary folder.
    let temporary = TemporaryFolder("discovery")
    defer { temporary.remove() }
    let folder = temporary.path
    let text = try String(
      contentsOfFile: SceneGoldenTests.scenesDirectory + "/tum-measure-room.json", encoding: .utf8
    )
    .replacingOccurrences(of: "\"Inputs/", with: "\"\(SceneGoldenTests.scenesDirectory)/Inputs/")
    .replacingOccurrences(
      of: "\"measure\":",
      with:
        #""tracking": {"seed": 3, "error": {"drift": {"position": 0.05, "rotation": 0.02}}}, "measure":"#
    )
    try text.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
    let tracked = try ReplayScene.load(path: folder + "/scene.json", registry: .builtIn)
    let truth = try load("tum-measure-room")
    let desk = try #require(tracked.planes.first { $0.anchor.classification == .table }).timeline
    let trueDesk = try #require(truth.planes.first { $0.anchor.classification == .table }).timeline
    #expect(desk.appearsAt == trueDesk.appearsAt)
    // The trace of the frame showing the tick it was found at gives both cameras.
    let frame = Int((desk.appearsAt * 30).rounded())
    _ = try Replay(scene: tracked.resized(width: 32, height: 24)).run(
      ReplayOptions(outputDirectory: folder + "/out", frameRange: frame...frame, threads: 1))
    let lines = try String(contentsOfFile: folder + "/out/trace.jsonl", encoding: .utf8)
      .split(separator: "\n")
    let line = try #require(
      lines.compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { ($0["frame"] as? Int) == frame })
    let estimate = try #require(line["worldFromCamera"] as? [Double])
    let actual = try #require(line["worldFromCameraTrue"] as? [Double])
    // Column-major 4 × 4: p ↦ M·p.
    func apply(_ m: [Double], _ p: [Double]) -> [Double] {
      var out = [Double](repeating: 0, count: 3)
      for r in 0..<3 {
        var sum: Double = m[12 + r]
        for c in 0..<3 { sum += m[4 * c + r] * p[c] }
        out[r] = sum
      }
      return out
    }
    // The rotation block is orthonormal: its inverse is its transpose.
    func applyInverse(_ m: [Double], _ p: [Double]) -> [Double] {
      var out = [Double](repeating: 0, count: 3)
      for c in 0..<3 {
        var sum: Double = 0
        for r in 0..<3 { sum += m[4 * c + r] * (p[r] - m[12 + r]) }
        out[c] = sum
      }
      return out
    }
    let origin = trueDesk.initial.worldFromAnchor.translation
    let expected = apply(estimate, applyInverse(actual, [origin.x, origin.y, origin.z]))
    let placed = desk.initial.worldFromAnchor.translation
    #expect(Vector3(expected[0], expected[1], expected[2]).distance(to: placed) < 1e-6)
    #expect(placed.distance(to: origin) > 1e-4)  // the drift moved it
  }

  @Test("--debug feature-points draws yellow dots and changes nothing else")
  func featurePointDots() throws {
    let scene = try load("tum-measure-room").resized(width: 64, height: 48)
    var images: [Image] = []
    for draws in [false, true] {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("arsim-dots-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      var options = ReplayOptions(outputDirectory: directory, frameRange: 30...30, threads: 1)
      options.drawsFeaturePoints = draws
      _ = try Replay(scene: scene).run(options)
      images.append(try Image(contentsOfPNG: directory + "/frame_00030.png"))
    }
    var changed = 0
    for i in stride(from: 0, to: images[0].pixels.count, by: 4)
    where images[0].pixels[i..<i + 3] != images[1].pixels[i..<i + 3] {
      changed += 1
      #expect(Array(images[1].pixels[i..<i + 3]) == [255, 220, 0])
    }
    #expect(changed > 0)
  }
}
