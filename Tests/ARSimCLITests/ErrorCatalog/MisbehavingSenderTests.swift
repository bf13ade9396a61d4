import Foundation
import Testing

/// A misbehaving helper's stroke messages through a full `arsim render` of a tiny scene: the
/// replay finishes, every frame is written, and each bad message is a `warning` event in
/// events.jsonl.
@Suite struct MisbehavingSenderTests {
  /// JSON-string-escaped message texts, each with the number of warnings it must raise.
  static let badMessages: [(data: String, warnings: Int)] = [
    ("[" + Array(repeating: "(1.0, 2.0)", count: 10_000).joined(separator: ", ") + "]", 1),
    ("touch-start\\u00e9", 1),
    ("color: [0.5, 1.0]", 1),
    ("color: [2.0, -1.0, 0.0, 1.0]", 1),
    ("[(1.0, 2.0), (abc, 4.0), (5.0, 6.0)", 0),
  ]

  static func log() -> String {
    var lines = ["{\"t\": 0, \"data\": \"touch-start\"}"]
    for (i, message) in badMessages.enumerated() {
      lines.append("{\"t\": \(0.1 + 0.01 * Double(i)), \"data\": \"\(message.data)\"}")
    }
    // Out of time order, then a burst of 40 messages within one second (over 30/s).
    lines.append("{\"t\": 0.05, \"data\": \"touch-end\"}")
    for k in 0..<40 { lines.append("{\"t\": \(0.2 + 0.01 * Double(k)), \"data\": \"touch-end\"}") }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(
    "bad messages become warning events and the render completes",
    arguments: ["faithful", "corrected"])
  func render(mode: String) throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("track.txt", tinyTrack)
    try folder.write("s.jsonl", Self.log())
    try folder.write(
      "scene.json", tinyScene("\"remoteAssist\": {\"strokes\": \"s.jsonl\", \"mode\": \"\(mode)\"}")
    )
    let outcome = runArsim(["render", folder.path + "/scene.json", "--out", folder.path + "/out"])
    #expect(outcome.code == Exit.ok, "\(outcome.standardError)")
    #expect(outcome.standardError.contains("s.jsonl:7: t 0.05 is earlier"))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out")
    #expect(files.filter { $0.hasPrefix("frame_") }.count == 6)
    let events = try String(contentsOfFile: folder.path + "/out/events.jsonl", encoding: .utf8)
    let lines = events.split(separator: "\n")
    let warnings = lines.filter { $0.contains("\"event\":\"warning\"") }
    // 4 rejected messages, the rate warning; the malformed point text: a warning in corrected
    // mode, silently dropped points (dropped-point events) in faithful mode.
    #expect(warnings.count >= 5, "\(events)")
    #expect(warnings.contains { $0.contains("rate") })
    #expect(warnings.contains { $0.contains("non-ASCII") })
    for line in lines {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
    }
  }
}
