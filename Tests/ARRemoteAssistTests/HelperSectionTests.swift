import ARReplay
import ARSimCLI
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// The scene file's `remoteAssist.helper` section: checks, defaults and the data latency.
@Suite struct HelperSectionTests {
  private func scene(_ helper: String, mode: String = "surface", network: String? = nil) -> String {
    """
    {"name": "helper", "track": {"path": "track.json"}, "output": {"width": 64, "height": 48, "fps": 10},
     "duration": 1.0,
     "remoteAssist": {"strokes": "strokes.jsonl", "mode": "\(mode)", "helper": \(helper)\(network.map { ", \"network\": \($0)" } ?? "")}}
    """
  }

  private func load(_ helper: String, mode: String = "surface", network: String? = nil) throws
    -> (
      ReplayFixture, ReplayScene
    )
  {
    let fixture = try ReplayFixture()
    try fixture.writeTrack("track.json", [(0, .identity), (5, .identity)])
    try fixture.write("strokes.jsonl", "{\"t\":0.2,\"data\":\"touch-start\"}\n")
    try fixture.write("scene.json", scene(helper, mode: mode, network: network))
    do {
      return (
        fixture, try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
      )
    } catch {
      fixture.remove()
      throw error
    }
  }

  @Test(
    "bad values name the field",
    arguments: [
      ("{\"view\": [390]}", "remoteAssist.helper.view"),
      ("{\"view\": [0, 844]}", "remoteAssist.helper.view"),
      ("{\"video\": \"stretch\"}", "remoteAssist.helper.video"),
      ("{\"videoLatency\": -0.1}", "remoteAssist.helper.videoLatency"),
      ("{\"dataLatency\": 61}", "remoteAssist.helper.dataLatency"),
      ("{\"pointInterval\": 2}", "remoteAssist.helper.pointInterval"),
    ])
  func badValues(_ helper: String, _ field: String) throws {
    let error = #expect(throws: InputError.self) { _ = try self.load(helper) }
    #expect(error?.kind == .badData)
    #expect(error?.location.field == field)
    #expect(error?.location.file.hasSuffix("scene.json") == true)
  }

  @Test(
    "bad network values name the field",
    arguments: [
      ("{\"loss\": 1.5}", "remoteAssist.network.loss"),
      ("{\"latency\": -1}", "remoteAssist.network.latency"),
      ("{\"retransmissionInterval\": 0}", "remoteAssist.network.retransmissionInterval"),
      ("{\"seed\": -2}", "remoteAssist.network.seed"),
    ])
  func badNetwork(_ network: String, _ field: String) throws {
    let error = #expect(throws: InputError.self) {
      _ = try self.load("{}", network: network)
    }
    #expect(error?.location.field == field)
  }

  @Test("a network section and the helper's dataLatency together are refused")
  func networkAndLatency() throws {
    let error = #expect(throws: InputError.self) {
      _ = try self.load("{\"dataLatency\": 0.1}", network: "{\"latency\": 0.1}")
    }
    #expect(error?.location.field == "remoteAssist.helper.dataLatency")
  }

  @Test("an unknown helper key is a warning; the mode names accept screen and surface")
  func unknownKey() throws {
    let (fixture, loaded) = try load("{\"veiw\": [1, 2]}", mode: "screen")
    defer { fixture.remove() }
    #expect(loaded.warnings.contains { $0.contains("remoteAssist.helper.veiw") })
  }

  @Test("the data latency delays delivery: touch-start sent at 0.2 s arrives at 0.5 s")
  func dataLatency() throws {
    let (fixture, loaded) = try load("{\"dataLatency\": 0.3, \"view\": [844, 390]}")
    defer { fixture.remove() }
    _ = try Replay(scene: loaded).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let events = try fixture.jsonLines("events.jsonl").filter {
      $0["event"] as? String == "touch-start"
    }
    #expect(events.count == 1)
    #expect(events.first?["t"] as? Double == 0.5)
  }

  @Test("a frame seen before the track starts: one warning per message, this tick's camera used")
  func seenBeforeTrack() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.writeTrack("track.json", [(0, .identity), (5, .identity)])
    try fixture.write(
      "strokes.jsonl",
      """
      {"t":0.1,"data":"touch-start"}
      {"t":0.2,"data":"[(0.0, 0.0), (10.0, 10.0)]"}

      """)
    try fixture.write("scene.json", scene("{\"videoLatency\": 0.5}", mode: "screen"))
    let loaded = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    _ = try Replay(scene: loaded).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let warnings = try fixture.jsonLines("events.jsonl").filter {
      ($0["reason"] as? String)?.contains("outside the camera track") == true
    }
    #expect(warnings.count == 1)
    let last = try #require(try fixture.jsonLines("trace.jsonl").last)
    let spheres = (last["nodes"] as? [[String: Any]] ?? []).filter { $0["strokePoint"] != nil }
    #expect(spheres.count == 2)
  }
}
