import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// Warnings are counted where they are seen: the console's summary line and run.json
/// (`warningEvents`, `warningCount`, `firstWarning`), not only in events.jsonl.
@Suite("run warnings counted in run.json and the console")
struct RunWarningsTests {
  static func scene(extra: String = "") -> String {
    """
    {"name": "warned", "track": {"path": "track.json", "format": "json"},
     "output": {"width": 16, "height": 12, "fps": 10}, "duration": 0.4\(extra),
     "remoteAssist": {"strokes": "strokes.jsonl", "mode": "corrected"}}
    """
  }

  /// Runs `arsim render` in-process; returns the exit code, standard error and run.json.
  func render(_ fixture: ReplayFixture) throws -> (Int32, String, [String: Any]) {
    let captured = CapturedOutput()
    let code = ARSimCLI.run(
      arguments: [
        "render", fixture.directory + "/scene.json", "--out", fixture.directory + "/out",
      ],
      output: captured.output)
    let data = try Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/out/run.json"))
    let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    return (code, captured.standardError, json)
  }

  @Test("three warning events: counted, the first quoted with its stroke-log line")
  func warningEvents() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    // Lines 1–3 warn (undo without a stroke, a 2-component colour, a colour outside 0…1).
    try fixture.write(
      "strokes.jsonl",
      """
      {"t": 0.1, "data": "undo"}
      {"t": 0.15, "data": "color: [0.5, 1.0]"}
      {"t": 0.2, "data": "color: [2.0, 0.0, 0.0, 1.0]"}
      {"t": 0.25, "data": "touch-start"}

      """)
    try fixture.write("scene.json", Self.scene())
    let (code, message, run) = try render(fixture)
    #expect(code == 0, "\(message)")
    let events = try fixture.jsonLines("events.jsonl").filter {
      $0["event"] as? String == "warning"
    }
    #expect(events.count == 3)
    #expect(run["warningEvents"] as? Int == 3)
    #expect(run["warningCount"] as? Int == 3)
    let first = run["firstWarning"] as? String ?? ""
    #expect(first.hasPrefix("frame 1: "), "\(first)")  // τ = 0.1 s is frame 1 at 10 frames/s
    #expect(first.hasSuffix("(line 1)"), "\(first)")
    #expect(
      message.contains("; 3 warnings (3 in events.jsonl), the first: frame 1: "), "\(message)")
  }

  @Test("a load warning comes first; a clean run says nothing and writes 0 and null")
  func loadWarningAndCleanRun() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    try fixture.write("strokes.jsonl", "{\"t\": 0.1, \"data\": \"undo\"}\n")
    try fixture.write("scene.json", Self.scene(extra: ", \"colour\": 1"))
    let (_, message, run) = try render(fixture)
    #expect(run["warningEvents"] as? Int == 1)
    #expect(run["warningCount"] as? Int == 2)
    #expect(
      (run["firstWarning"] as? String)?.contains("field 'colour' is not a scene field") == true)
    #expect(message.contains("; 2 warnings (1 in events.jsonl), the first: "), "\(message)")

    try fixture.write("strokes.jsonl", "{\"t\": 0.1, \"data\": \"touch-start\"}\n")
    try fixture.write("scene.json", Self.scene())
    let (_, clean, cleanRun) = try render(fixture)
    #expect(cleanRun["warningCount"] as? Int == 0)
    #expect(cleanRun["firstWarning"] is NSNull)
    #expect(!clean.contains("warning"), "\(clean)")
  }

  @Test("a floor too large to scan in cells the camera can see is named in a warning")
  func surfaceTooLargeToScan() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    try fixture.writeTrack("track.json", [(0, .identity), (2, .identity)])
    try fixture.write("strokes.jsonl", "")
    // 1 000 m: 1 m cells (10⁶ at most), found as usual; 5 000 m: 5 m cells, past the 3 m range.
    for (side, warned) in [(1000, false), (5000, true)] {
      let floor =
        #", "environment": {"planeDetection": ["horizontal"], "primitives": [{"name": "floor", "#
        + #""plane": {"width": \#(side), "height": \#(side)}, "position": [0, -1, 0], "#
        + #""eulerAngles": [-1.5707963267948966, 0, 0]}]}"#
      try fixture.write("scene.json", Self.scene(extra: floor))
      let (code, message, run) = try render(fixture)
      #expect(code == 0, "\(message)")
      let warnings = run["warnings"] as? [String] ?? []
      if warned {
        #expect(
          warnings == [
            "environment: a 5000 m × 5000 m surface of 'floor' is scanned in 5.0 m cells (at most "
              + "1000000 per surface), larger than the 3.0 m range a cell is seen within; it may "
              + "never be discovered as a plane"
          ], "\(warnings)")
      } else {
        #expect(warnings.isEmpty, "\(warnings)")
      }
    }
  }
}
