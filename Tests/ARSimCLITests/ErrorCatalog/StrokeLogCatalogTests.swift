import Testing

/// Stroke logs read by `arsim render` through a scene's `remoteAssist.strokes`.
@Suite struct StrokeLogCatalogTests {
  static let render = ["render", "$D/scene.json", "--out", "$D/out"]

  static func files(_ log: String) -> [String: String] {
    [
      "scene.json": tinyScene("\"remoteAssist\": {\"strokes\": \"s.jsonl\"}"),
      "track.txt": tinyTrack, "s.jsonl": log,
    ]
  }

  static func binaryFiles(_ log: [UInt8]) -> [String: [UInt8]] {
    files("").mapValues { Array($0.utf8) }.merging(["s.jsonl": log]) { _, b in b }
  }

  static let start = "{\"t\": 0, \"data\": \"touch-start\"}\n"

  static let cases: [CatalogCase] = [
    CatalogCase(
      "truncated last line", files: files(start + "{\"t\": 0.1, \"da"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "invalid JSON"]),
    CatalogCase(
      "missing required data", files: files(start + "{\"t\": 0.1}\n"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "field 'data'", "missing"]),
    CatalogCase(
      "non-numeric t", files: files(start + "{\"t\": \"soon\", \"data\": \"undo\"}\n"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "field 't'", "expected a number"]),
    CatalogCase(
      "NaN t", files: files(start + "{\"t\": NaN, \"data\": \"undo\"}\n"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "field 't'"]),
    CatalogCase(
      "t beyond Double", files: files(start + "{\"t\": 1e400, \"data\": \"undo\"}\n"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "field 't'", "out of range"]),
    CatalogCase(
      "t below Double's least magnitude",
      files: files(start + "{\"t\": 1e-400, \"data\": \"undo\"}\n"), render,
      code: Exit.badData, mentions: ["s.jsonl:2:", "field 't'", "too small"]),
    CatalogCase(
      "a TUM track given as the log", files: files(tinyTrack), render, code: Exit.badData,
      mentions: ["s.jsonl:1:", "invalid JSON"]),
    CatalogCase(
      "binary garbage", binary: binaryFiles([0x00, 0xFF, 0x7B, 0x0A]), render,
      code: Exit.badData, mentions: ["s.jsonl:1:", "column 1"]),
    CatalogCase(
      "invalid UTF-8 in data",
      binary: binaryFiles(
        Array("{\"t\": 0, \"data\": \"touch".utf8) + [0xE2, 0x28] + Array("\"}\n".utf8)),
      render, code: Exit.badData, mentions: ["s.jsonl:1:", "field 'data'", "UTF-8"]),
    CatalogCase(
      "a single 20 MB line",
      files: files("").filter { $0.key != "s.jsonl" }, render, code: Exit.badData,
      mentions: ["s.jsonl:1:", "limit"], twentyMegabyte: ["s.jsonl"]),
    CatalogCase(
      "unknown fields and times out of order are warnings",
      files: files(
        start
          + "{\"t\": 0.3, \"data\": \"touch-end\", \"from\": \"x\"}\n{\"t\": 0.2, \"data\": \"undo\"}\n"
      ),
      render, code: Exit.ok,
      mentions: ["s.jsonl:2: unknown field 'from'", "s.jsonl:3: t 0.2 is earlier"]),
  ]

  @Test("malformed stroke logs fail with their exit code, file, line and field", arguments: cases)
  func catalogue(_ entry: CatalogCase) throws { try entry.check() }
}
