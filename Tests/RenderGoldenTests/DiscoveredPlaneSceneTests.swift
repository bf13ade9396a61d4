import ARMath
import ARReplay
import ARScene
import ARSimCLI
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
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("arsim-discovery-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
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
}
