import Testing

/// Quick, Draw! NDJSON read by `arsim strokes from-quickdraw`.
@Suite struct QuickDrawCatalogTests {
  static let command = ["strokes", "from-quickdraw", "$D/q.ndjson", "--drawing", "1"]
  static let first = "{\"word\": \"cat\", \"drawing\": [[[0, 10], [0, 10]]]}\n"

  static let cases: [CatalogCase] = [
    CatalogCase(
      "empty file", files: ["q.ndjson": ""], command, code: Exit.badData,
      mentions: ["$D/q.ndjson", "field 'drawing'", "has 0"]),
    CatalogCase(
      "truncated last line", files: ["q.ndjson": first + "{\"word\": \"cat\", \"drawing\": [[[0,"],
      command, code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0][0][1]'"]),
    CatalogCase(
      "ragged x and y", files: ["q.ndjson": first + "{\"drawing\": [[[0, 1, 2], [0, 1]]]}\n"],
      command, code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0]'", "equal"]),
    CatalogCase(
      "non-numeric", files: ["q.ndjson": first + "{\"drawing\": [[[0, \"1\"], [0, 1]]]}\n"],
      command, code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0][0][1]'"]),
    CatalogCase(
      "NaN", files: ["q.ndjson": first + "{\"drawing\": [[[0, NaN], [0, 1]]]}\n"], command,
      code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0][0][1]'"]),
    CatalogCase(
      "a coordinate of 1e300",
      files: ["q.ndjson": first + "{\"drawing\": [[[0, 1e300], [0, 1]]]}\n"], command,
      code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0]'", "beyond"]),
    CatalogCase(
      "times going back",
      files: ["q.ndjson": first + "{\"drawing\": [[[0, 1, 2], [0, 1, 2], [0, 50, 10]]]}\n"],
      command, code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing[0][2][2]'"]),
    CatalogCase(
      "binary garbage", binary: ["q.ndjson": Array(first.utf8) + [0x00, 0xFF, 0x0A]], command,
      code: Exit.badData, mentions: ["q.ndjson:2:", "column 1"]),
    CatalogCase(
      "invalid UTF-8 in the word",
      binary: [
        "q.ndjson": Array(first.utf8) + Array("{\"word\": \"c".utf8) + [0xFF] + Array("\"}\n".utf8)
      ],
      command, code: Exit.badData, mentions: ["q.ndjson:2:", "field 'word'", "UTF-8"]),
    CatalogCase(
      "a single 20 MB line", ["strokes", "from-quickdraw", "$D/q.ndjson", "--drawing", "0"],
      code: Exit.badData, mentions: ["q.ndjson:1:", "column 1"], twentyMegabyte: ["q.ndjson"]),
    CatalogCase(
      "missing required drawing", files: ["q.ndjson": first + "{\"word\": \"cat\"}\n"], command,
      code: Exit.badData, mentions: ["q.ndjson:2:", "field 'drawing'", "missing"]),
    CatalogCase(
      "missing file", command, code: Exit.missingInput, mentions: ["$D/q.ndjson"]),
    CatalogCase(
      "no --drawing", ["strokes", "from-quickdraw", "$D/q.ndjson"], code: Exit.usage,
      mentions: ["--drawing"]),
  ]

  @Test(
    "malformed Quick, Draw! files fail with their exit code, file, line and field", arguments: cases
  )
  func catalogue(_ entry: CatalogCase) throws { try entry.check() }
}
