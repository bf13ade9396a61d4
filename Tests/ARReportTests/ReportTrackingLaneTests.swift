import ARRender
import ARReplay
import ARSession
import ARSimCLI
import ARTestSupport
import Foundation
import Testing

@testable import ARReport

/// The report's tracking lane for a run whose tracker changes state, drops a frame, is
/// interrupted and relocalises: what each marker says, in order, against values worked out
/// by hand from the scene (Documentation/Tracking.md's rules).
@Suite struct ReportTrackingLaneTests {
  /// A still 3 s track, 16×12 at 10 fps (AR ticks at 60 Hz: frame f holds ticks 6f − 5 … 6f).
  static let scene = """
    {"name": "tracking-lane", "track": {"path": "track.json"},
     "output": {"width": 16, "height": 12, "fps": 10}, "frames": 21,
     "intrinsics": {"fx": 16, "fy": 16, "cx": 7.5, "cy": 5.5, "width": 16, "height": 12},
     "tracking": {
       "initializing": 0.3,
       "states": [{"t": 1.0, "state": "limited(insufficientFeatures)"}, {"t": 1.3, "state": "auto"}],
       "frames": {"drops": [0.5]},
       "interruptions": [{"start": 1.5, "end": 1.7, "relocalizing": 0.1}]
     }}
    """

  /// (frame, τ, event, the report's detail text) of every tracking event, by hand.
  static let expected: [(Int, Double, String, String)] = [
    (0, 0, "tracking-state", "reason: initializing, state: limited"),
    (3, 0.3, "tracking-state", "reason: null, state: normal"),  // tick 18
    (5, 0.5, "camera-frame-dropped", "captureTime: 0.483, shownTick: 29"),  // tick 30
    (10, 1.0, "tracking-state", "reason: insufficientFeatures, state: limited"),  // tick 60
    (13, 1.3, "tracking-state", "reason: null, state: normal"),  // tick 78: back to the rules
    (15, 1.5, "session-interrupted", "captureTime: 1.483, shownTick: 89"),  // tick 90
    // Tick 102: the interruption ends, limited(relocalizing) until 1.8 s (the state first).
    (17, 1.7, "tracking-state", "reason: relocalizing, state: limited"),
    (17, 1.7, "session-interruption-ended", ""),
    // Tick 108: relocalised (no drift configured: no jump), normal again.
    (18, 1.8, "tracking-state", "reason: null, state: normal"),
    (18, 1.8, "relocalized", "jump: [0, 0, 0]"),
  ]

  @Test(
    "the tracking lane has one marker per tracking event, each naming its frame, event and fields")
  func laneContent() throws {
    let folder = TemporaryFolder("report-tracking").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 3, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#
      .write(toFile: folder + "/track.json", atomically: true, encoding: .utf8)
    try Self.scene.write(toFile: folder + "/scene.json", atomically: true, encoding: .utf8)
    let out = folder + "/out"
    _ = try Replay(scene: ReplayScene.load(path: folder + "/scene.json", registry: .builtIn))
      .run(ReplayOptions(outputDirectory: out))

    // events.jsonl, read here: the run raised exactly these events.
    let lines = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8)
      .split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
    #expect(lines.map { $0["event"] as? String } == Self.expected.map { $0.2 })
    #expect(lines.map { $0["frame"] as? Int } == Self.expected.map { $0.0 })

    let summary = try ReplayReport().write(directory: out)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    let lane = try #require(
      html.components(separatedBy: "<g class=\"lane\" data-category=\"tracking\">").dropFirst()
        .first?.components(separatedBy: "</g>").first)
    #expect(lane.contains(">tracking (\(Self.expected.count))</text>"))
    let titles = lane.components(separatedBy: "<title>").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    let wanted = Self.expected.map { frame, t, name, details in
      HTMLText.escape(
        "τ \(String(format: "%.3f", t)) s · frame \(frame) · \(name)"
          + (details.isEmpty ? "" : " · \(details)"))
    }
    #expect(titles == wanted)
    // Markers in time order along the lane: x = 160 + τ / 2 s · 820 (the run lasts 2 s).
    let xs = lane.components(separatedBy: "cx=\"").dropFirst().compactMap {
      Double($0.prefix { $0 != "\"" })
    }
    #expect(xs == Self.expected.map { ((160 + $0.1 / 2 * 820) * 10).rounded() / 10 })
    // No tracking event in another lane.
    #expect(!html.contains("data-category=\"other\""))
  }
}
