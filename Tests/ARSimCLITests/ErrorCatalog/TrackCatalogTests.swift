import Testing

/// Camera tracks (`arsim track info`), every format: exit code, file, line and column.
@Suite struct TrackCatalogTests {
  static func info(_ name: String, _ format: String? = nil) -> [String] {
    ["track", "info", "$D/" + name] + (format.map { ["--format", $0] } ?? [])
  }

  static let identityJSONPose =
    "{\"t\": 0, \"worldFromCamera\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}"

  static let cases: [CatalogCase] = [
    CatalogCase(
      "TUM: empty file", files: ["t.txt": ""], info("t.txt"), code: Exit.badData,
      mentions: ["$D/t.txt", "no poses"]),
    CatalogCase(
      "TUM: truncated last line", files: ["t.txt": "0 0 0 0 0 0 0 1\n1 0 0 0 0"], info("t.txt"),
      code: Exit.badData, mentions: ["t.txt:2:", "field 'qy'", "found 5"]),
    CatalogCase(
      "TUM: a column too many", files: ["t.txt": "0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1 9\n"],
      info("t.txt"), code: Exit.badData, mentions: ["t.txt:2:", "field 'column 9'"]),
    CatalogCase(
      "TUM: non-numeric", files: ["t.txt": "0 0 0 0 0 0 0 1\n1 0 zero 0 0 0 0 1\n"],
      info("t.txt"), code: Exit.badData, mentions: ["t.txt:2:", "field 'ty'", "not a number"]),
    CatalogCase(
      "TUM: NaN", files: ["t.txt": "0 0 0 0 0 0 0 1\n1 nan 0 0 0 0 0 1\n"], info("t.txt"),
      code: Exit.badData, mentions: ["t.txt:2:", "field 'tx'", "finite"]),
    CatalogCase(
      "TUM: infinity", files: ["t.txt": "0 0 0 0 0 0 0 1\n1 0 0 -inf 0 0 0 1\n"], info("t.txt"),
      code: Exit.badData, mentions: ["t.txt:2:", "field 'tz'", "finite"]),
    CatalogCase(
      "TUM: a number beyond Double", files: ["t.txt": "1e400 0 0 0 0 0 0 1\n"], info("t.txt"),
      code: Exit.badData, mentions: ["t.txt:1:", "field 'timestamp'"]),
    CatalogCase(
      "TUM: a position 1e300 m away", files: ["t.txt": "0 1e300 0 0 0 0 0 1\n"], info("t.txt"),
      code: Exit.badData, mentions: ["t.txt:1:", "field 'position'", "farther"]),
    CatalogCase(
      "TUM: time not increasing", files: ["t.txt": "1 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n"],
      info("t.txt"), code: Exit.badData, mentions: ["t.txt:2:", "field 'timestamp'", "line 1"]),
    CatalogCase(
      "TUM text in a .csv (read as EuRoC)", files: ["t.csv": "0 0 0 0 0 0 0 1\n"], info("t.csv"),
      code: Exit.badData, mentions: ["t.csv:1:", "euroc"]),
    CatalogCase(
      "binary garbage", binary: ["t.txt": [0x00, 0x01, 0xFF, 0xFE, 0x0A, 0x89, 0x50]],
      info("t.txt"), code: Exit.badData, mentions: ["t.txt:1:", "columns"]),
    CatalogCase(
      "invalid UTF-8 in a number",
      binary: ["t.txt": Array("0 0 0 0 0 0 0 1\n1 0 ".utf8) + [0xFF] + Array(" 0 0 0 0 1\n".utf8)],
      info("t.txt"), code: Exit.badData, mentions: ["t.txt:2:", "field 'ty'"]),
    CatalogCase(
      "a single 20 MB line", info("t.txt"), code: Exit.badData,
      mentions: ["t.txt:1:", "longer than"], twentyMegabyte: ["t.txt"]),
    CatalogCase(
      "missing file", info("none.txt"), code: Exit.missingInput, mentions: ["$D/none.txt"]),
    CatalogCase(
      "a folder instead of a file", info(""), code: Exit.missingInput, mentions: ["folder"]),
    CatalogCase(
      "ARKit logger: 12 of 13 columns",
      files: ["a.txt": "0 1 0 0 0 0 1 0 0 0 0 1\n"], info("a.txt", "arkit"), code: Exit.badData,
      mentions: ["a.txt:1:", "field 'tz'"]),
    CatalogCase(
      "ARKit logger: a rotation that is not one",
      files: ["a.txt": "0 1 0 0 0 0 1 0 0 0 0 5 0\n"], info("a.txt", "arkit"), code: Exit.badData,
      mentions: ["a.txt:1:", "field 'r11 … r33'"]),
    CatalogCase(
      "KITTI: times file with fewer times than poses",
      files: ["k.txt": "1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 0 0 1 0 0 0 0 1 0\n", "times.txt": "0.0\n"],
      ["track", "info", "$D/k.txt", "--format", "kitti", "--times", "$D/times.txt"],
      code: Exit.badData, mentions: ["$D/times.txt", "line 2"]),
    CatalogCase(
      "KITTI: missing times file", files: ["k.txt": "1 0 0 0 0 1 0 0 0 0 1 0\n"],
      ["track", "info", "$D/k.txt", "--format", "kitti", "--times", "$D/none.txt"],
      code: Exit.missingInput, mentions: ["$D/none.txt"]),
    CatalogCase(
      "EuRoC: a quaternion far from unit length",
      files: ["e.csv": "#timestamp,...\n1000,0,0,0,2,0,0,0\n"], info("e.csv"), code: Exit.badData,
      mentions: ["e.csv:2:", "field 'q_RS_w q_RS_x q_RS_y q_RS_z'"]),
    CatalogCase(
      "EuRoC: missing sensor.yaml", files: ["e.csv": "1000,0,0,0,1,0,0,0\n"],
      ["track", "info", "$D/e.csv", "--sensor", "$D/none.yaml"], code: Exit.missingInput,
      mentions: ["$D/none.yaml"]),
    CatalogCase(
      "EuRoC: sensor.yaml without T_BS",
      files: ["e.csv": "1000,0,0,0,1,0,0,0\n", "s.yaml": "x: 1\n"],
      ["track", "info", "$D/e.csv", "--sensor", "$D/s.yaml"], code: Exit.badData,
      mentions: ["$D/s.yaml", "field 'T_BS.data'"]),
    CatalogCase(
      "ARKitScenes: truncated last line", files: ["s.traj": "0 0 0 0 0 0 0\n1 0 0 0 0"],
      info("s.traj"), code: Exit.badData, mentions: ["s.traj:2:", "field 'ty'"]),
    CatalogCase(
      "JSON: empty file", files: ["t.json": ""], info("t.json"), code: Exit.badData,
      mentions: ["t.json:1:", "empty"]),
    CatalogCase(
      "JSON: truncated",
      files: [
        "t.json": "{\"format\": \"arsim-track\", \"version\": 1,\n \"poses\": [" + identityJSONPose
          + ","
      ],
      info("t.json"), code: Exit.badData, mentions: ["t.json:2:", "field 'poses[1]'"]),
    CatalogCase(
      "JSON: missing required t",
      files: [
        "t.json":
          "{\"format\": \"arsim-track\", \"version\": 1, \"poses\": [{\"worldFromCamera\": []}]}"
      ],
      info("t.json"), code: Exit.badData, mentions: ["t.json", "field 'poses[0].t'"]),
    CatalogCase(
      "JSON: a matrix number beyond Double",
      files: [
        "t.json": "{\"format\": \"arsim-track\", \"version\": 1, \"poses\": [{\"t\": 1e999}]}"
      ],
      info("t.json"), code: Exit.badData, mentions: ["t.json:1:", "field 'poses[0].t'"]),
    CatalogCase(
      "JSON: times not increasing",
      files: [
        "t.json": "{\"format\": \"arsim-track\", \"version\": 1, \"poses\": [" + identityJSONPose
          + ", " + identityJSONPose + "]}"
      ],
      info("t.json"), code: Exit.badData, mentions: ["t.json", "field 'poses[1].t'"]),
    CatalogCase(
      "JSON: unknown fields are warnings",
      files: [
        "t.json": "{\"format\": \"arsim-track\", \"version\": 1, \"device\": \"x\", \"poses\": ["
          + identityJSONPose + "]}"
      ],
      ["track", "convert", "$D/t.json", "--to", "tum", "$D/out.txt"], code: Exit.ok,
      mentions: ["t.json:1: field 'device' is not a track field"]),
    CatalogCase("track without a subcommand", ["track"], code: Exit.usage, mentions: ["info"]),
    CatalogCase(
      "an unknown format name", info("t.txt", "tum2"), code: Exit.usage, mentions: ["tum2"]),
  ]

  @Test("malformed tracks fail with their exit code, file, line and column", arguments: cases)
  func catalogue(_ entry: CatalogCase) throws { try entry.check() }
}
