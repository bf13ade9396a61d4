import Testing

/// Scene JSON (`arsim render`): every malformed scene gives its exit code and names the file,
/// the line and the field.
@Suite struct SceneFileCatalogTests {
  static let render = ["render", "$D/scene.json", "--out", "$D/out"]

  static let cases: [CatalogCase] = [
    CatalogCase(
      "empty file", files: ["scene.json": ""], render, code: Exit.badData,
      mentions: ["$D/scene.json:1:", "empty"]),
    CatalogCase(
      "truncated in the middle of an object",
      files: ["scene.json": "{\"name\": \"tiny\",\n \"track\": {\"path\": \"track.txt\""], render,
      code: Exit.badData, mentions: ["scene.json:2:", "field 'track.path'", "ends"]),
    CatalogCase(
      "a number field holding a string",
      files: ["scene.json": tinyScene("\"start\": \"soon\""), "track.txt": tinyTrack], render,
      code: Exit.badData, mentions: ["scene.json:5:", "field 'start'", "expected a number"]),
    CatalogCase(
      "NaN is not JSON",
      files: ["scene.json": tinyScene("\"start\": NaN"), "track.txt": tinyTrack], render,
      code: Exit.badData, mentions: ["scene.json:5:", "field 'start'", "column 11"]),
    CatalogCase(
      "a number too large for a Double",
      files: ["scene.json": tinyScene("\"start\": 1e400"), "track.txt": tinyTrack], render,
      code: Exit.badData, mentions: ["scene.json:5:", "field 'start'", "out of range"]),
    CatalogCase(
      "a non-zero number too small for a Double (it rounds to 0)",
      files: ["scene.json": tinyScene("\"start\": 1e-400"), "track.txt": tinyTrack], render,
      code: Exit.badData, mentions: ["scene.json:5:", "field 'start'", "too small"]),
    CatalogCase(
      "an output size too large to render",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"width\": 16", with: "\"width\": 99999"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData, mentions: ["scene.json:3:", "field 'output.width'", "16384"]),
    CatalogCase(
      "an output over 64 Mi pixels, which compare and video could not read back",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"width\": 16, \"height\": 12", with: "\"width\": 16384, \"height\": 4097"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:3:", "field 'output'", "over 64 Mi pixels"]),
    CatalogCase(
      "a duration whose frame count overflows an integer (crashed before)",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"duration\": 0.5", with: "\"duration\": 1e20"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:4:", "field 'duration'", "10000000 frames"]),
    CatalogCase(
      "a start past the track's end with a duration (the duration was blamed)",
      files: ["scene.json": tinyScene("\"start\": 1e20"), "track.txt": tinyTrack], render,
      code: Exit.badData,
      mentions: ["scene.json:5:", "field 'start'", "past the end of the track"]),
    CatalogCase(
      "a key given twice in one object (Foundation would keep one silently)",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"fps\": 10}", with: "\"fps\": 10, \"width\": 32}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:3:", "field 'output.width'", "column 51", "appears twice"]),
    CatalogCase(
      "a fractional output width",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"width\": 16", with: "\"width\": 16.5"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:3:", "field 'output.width'", "expected an integer"]),
    CatalogCase(
      "a frame count beyond any integer",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"duration\": 0.5", with: "\"frames\": 1e30"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:4:", "field 'frames'", "expected an integer"]),
    CatalogCase(
      "a negative tracking seed",
      files: ["scene.json": tinyScene("\"tracking\": {\"seed\": -1}"), "track.txt": tinyTrack],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.seed'", "0 to 2^64-1, found -1"]),
    CatalogCase(
      "a fractional tracking seed",
      files: ["scene.json": tinyScene("\"tracking\": {\"seed\": 1.5}"), "track.txt": tinyTrack],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.seed'", "found 1.5"]),
    CatalogCase(
      "a tracking seed of 2^64",
      files: [
        "scene.json": tinyScene("\"tracking\": {\"seed\": 18446744073709551616}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.seed'", "found 18446744073709551616"]),
    CatalogCase(
      "a fractional minimumPoints",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"insufficientFeatures\": {\"minimumPoints\": 1.5}}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: [
        "scene.json:5:", "field 'tracking.insufficientFeatures.minimumPoints'", "found 1.5",
      ]),
    CatalogCase(
      "a model that is not a model names the scene field and line that named it",
      files: [
        "scene.json": tinyScene("\"environment\": {\"models\": [{\"path\": \"cat.jsonl\"}]}"),
        "track.txt": tinyTrack, "cat.jsonl": "{}\n",
      ], render, code: Exit.badData,
      mentions: [
        "cat.jsonl: ", "(named by $D/scene.json:5: field 'environment.models[0].path')",
      ]),
    CatalogCase(
      "a missing images folder says why and which scene named it",
      files: [
        "scene.json": tinyScene("\"background\": {\"images\": \"nope\"}"), "track.txt": tinyTrack,
      ],
      render, code: Exit.missingInput,
      mentions: [
        "nope: cannot list the folder: No such file or directory",
        "(named by $D/scene.json:5: field 'background.images')",
      ]),
    CatalogCase(
      "measure switch times out of order",
      files: [
        "scene.json": tinyScene("\"measure\": {\"switchTimes\": [2, 1]}"), "track.txt": tinyTrack,
      ],
      render, code: Exit.badData, mentions: ["scene.json:5:", "field 'measure.switchTimes'"]),
    CatalogCase(
      "measure switch time before the start",
      files: [
        "scene.json": tinyScene("\"measure\": {\"switchTimes\": [-2, 1]}"), "track.txt": tinyTrack,
      ],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'measure.switchTimes'", "switchTimes[0] must be ≥ 0 s"]),
    CatalogCase(
      "plane detection without an environment",
      files: [
        "scene.json": tinyScene("\"planeDetection\": [\"horizontal\"]"), "track.txt": tinyTrack,
      ],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'planeDetection'", "needs an environment section"]),
    CatalogCase(
      "plane detection in an environment with no surfaces",
      files: [
        "scene.json": tinyScene("\"environment\": {\"planeDetection\": [\"vertical\"]}"),
        "track.txt": tinyTrack,
      ],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'environment.planeDetection'", "models or primitives"]),
    CatalogCase(
      "--debug with an unknown value",
      files: ["scene.json": tinyScene(), "track.txt": tinyTrack],
      render + ["--debug", "normals"], code: Exit.usage, mentions: ["--debug", "'normals'"]),
    CatalogCase(
      "--debug feature-points without an environment",
      files: ["scene.json": tinyScene(), "track.txt": tinyTrack],
      render + ["--debug", "feature-points"], code: Exit.usage,
      mentions: ["--debug feature-points", "environment"]),
    CatalogCase(
      "an unknown plane classification",
      files: [
        "scene.json": tinyScene(
          "\"environment\": {\"primitives\": [{\"plane\": {\"width\": 1, \"height\": 1}, "
            + "\"classification\": \"sofa\"}]}"),
        "track.txt": tinyTrack,
      ],
      render, code: Exit.badData,
      mentions: [
        "scene.json:5:", "field 'environment.primitives[0].classification'", "'sofa'", "table",
      ]),
    CatalogCase(
      "a TUM track given as the scene", files: ["scene.json": tinyTrack], render,
      code: Exit.badData, mentions: ["scene.json:1:", "invalid JSON"]),
    CatalogCase(
      "binary garbage", binary: ["scene.json": [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10]], render,
      code: Exit.badData, mentions: ["scene.json:1:", "byte 0"]),
    CatalogCase(
      "invalid UTF-8 inside a string",
      binary: ["scene.json": Array("{\"name\": \"ti".utf8) + [0xC3, 0x28] + Array("ny\"}".utf8)],
      render, code: Exit.badData, mentions: ["scene.json:1:", "field 'name'", "UTF-8"]),
    CatalogCase(
      "an unpaired high surrogate in a string",
      files: ["scene.json": tinyScene("\"comment\": \"\\ud800\""), "track.txt": tinyTrack],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'comment'", "unpaired UTF-16 surrogate \\ud800"]),
    CatalogCase(
      "an unpaired low surrogate in a string",
      files: ["scene.json": tinyScene("\"comment\": \"x\\uDC01y\""), "track.txt": tinyTrack],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'comment'", "unpaired UTF-16 surrogate \\uDC01"]),
    CatalogCase(
      "a single 20 MB line", render, code: Exit.badData, mentions: ["scene.json:1:", "byte 0"],
      twentyMegabyte: ["scene.json"]),
    CatalogCase(
      "nested 100 000 deep",
      files: [
        "scene.json": "{\"name\": " + String(repeating: "[", count: 100_000)
          + String(repeating: "]", count: 100_000) + "}"
      ], render, code: Exit.badData, mentions: ["scene.json:1:", "deeper than 512"]),
    CatalogCase(
      "missing scene file", ["render", "$D/none.json"], code: Exit.missingInput,
      mentions: ["$D/none.json"]),
    CatalogCase(
      "missing track file", files: ["scene.json": tinyScene()], render, code: Exit.missingInput,
      mentions: ["$D/track.txt", "field 'track.path'", "scene.json"]),
    CatalogCase(
      "missing stroke log",
      files: [
        "scene.json": tinyScene("\"remoteAssist\": {\"strokes\": \"s.jsonl\"}"),
        "track.txt": tinyTrack,
      ],
      render, code: Exit.missingInput, mentions: ["$D/s.jsonl", "field 'remoteAssist.strokes'"]),
    CatalogCase(
      "missing displayer video",
      files: [
        "scene.json": tinyScene(
          "\"displayers\": {\"taps\": [], \"videos\": [{\"path\": \"v.y4m\"}]}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.missingInput,
      mentions: ["$D/v.y4m", "field 'displayers.videos[0].path'"]),
    CatalogCase(
      "missing KITTI times file",
      files: [
        "scene.json": tinyScene().replacingOccurrences(
          of: "\"format\": \"tum\"", with: "\"format\": \"kitti\", \"times\": \"times.txt\""),
        "track.txt": "1 0 0 0 0 1 0 0 0 0 1 0\n",
      ], render, code: Exit.missingInput, mentions: ["$D/times.txt", "field 'track.times'"]),
    CatalogCase(
      "missing background image folder",
      files: [
        "scene.json": tinyScene("\"background\": {\"images\": \"bg\"}"), "track.txt": tinyTrack,
      ],
      render, code: Exit.missingInput, mentions: ["$D/bg", "field 'background.images'"]),
    CatalogCase(
      "missing required field", files: ["scene.json": "{\"name\": \"tiny\"}"], render,
      code: Exit.badData, mentions: ["scene.json", "field 'track'", "missing (required)"]),
    CatalogCase(
      "missing required nested field",
      files: ["scene.json": "{\"name\": \"tiny\",\n \"track\": {\"format\": \"tum\"}}"], render,
      code: Exit.badData, mentions: ["scene.json:2:", "field 'track.path'", "missing"]),
    CatalogCase(
      "an output name escaping the output folder",
      files: [
        "scene.json": tinyScene().replacingOccurrences(of: "\"tiny\"", with: "\"../../x\""),
        "track.txt": tinyTrack,
      ], ["render", "$D/scene.json"], code: Exit.badData,
      mentions: ["scene.json:1:", "field 'name'"]),
    CatalogCase(
      "a track error inside a scene names the track file and line",
      files: ["scene.json": tinyScene(), "track.txt": "0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0\n"],
      render, code: Exit.badData, mentions: ["$D/track.txt:2:", "field 'qw'"]),
    // The tracking section (Documentation/Tracking.md): the bad-input list.
    CatalogCase(
      "a negative tracking seed (named no field or line before)",
      files: ["scene.json": tinyScene("\"tracking\": {\"seed\": -1}"), "track.txt": tinyTrack],
      render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.seed'", "0 to 2^64-1", "found -1"]),
    CatalogCase(
      "a fractional feature-point count (named no field or line before)",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"insufficientFeatures\": {\"minimumPoints\": 2.5}}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: [
        "scene.json:5:", "field 'tracking.insufficientFeatures.minimumPoints'",
        "expected an integer from 0 to 2^64-1", "found 2.5",
      ]),
    CatalogCase(
      "a negative feature-point count, with the message a fraction gets (a newcomer's finding: "
        + "the fraction's message invited negative counts)",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"insufficientFeatures\": {\"minimumPoints\": -1}}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: [
        "scene.json:5:", "field 'tracking.insufficientFeatures.minimumPoints'",
        "expected an integer from 0 to 2^64-1", "found -1",
      ]),
    CatalogCase(
      "a dropped frame at τ = 0, which always arrives (was silently ignored)",
      files: [
        "scene.json": tinyScene("\"tracking\": {\"frames\": {\"drops\": [0]}}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.frames.drops[0]'", "after τ = 0"]),
    CatalogCase(
      "an interruption starting 0.1 µs after τ = 0, which is τ = 0 in whole microseconds "
        + "(exit 70 before: tick 0's capture time fell before the track)",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"interruptions\": [{\"start\": 1e-7, \"end\": 0.3}]}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.interruptions[0].start'", "after τ = 0"]),
    CatalogCase(
      "a negative noise σ",
      files: [
        "scene.json": tinyScene("\"tracking\": {\"error\": {\"noise\": {\"position\": -0.1}}}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.error.noise.position'", "≥ 0"]),
    CatalogCase(
      "a relocalisation after the replay",
      files: [
        "scene.json": tinyScene("\"tracking\": {\"relocalizations\": [{\"t\": 3}]}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.relocalizations[0].t'", "outside the replay"]),
    CatalogCase(
      "a negative measure.tracking time, checked as tracking.states' (was accepted)",
      files: [
        "scene.json": tinyScene(
          "\"measure\": {\"switchTimes\": [0.1], \"tracking\": [{\"t\": -1, \"state\": \"normal\"}]}"
        ),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: [
        "scene.json:5:", "field 'measure.tracking[0].t'",
        "-1.0 s is outside the replay's time 0…0.5 s",
      ]),
    CatalogCase(
      "a measure.tracking time after the replay, with a tracking section (was accepted)",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"seed\": 1},\n \"measure\": {\"switchTimes\": [0.1],\n  \"tracking\": "
            + "[{\"t\": 0, \"state\": \"normal\"}, {\"t\": 5, \"state\": \"normal\"}]}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: [
        "scene.json:7:", "field 'measure.tracking[1].t'",
        "5.0 s is outside the replay's time 0…0.5 s",
      ]),
    CatalogCase(
      "a state keyframe with an unknown reason",
      files: [
        "scene.json": tinyScene(
          "\"tracking\": {\"states\": [{\"t\": 0, \"state\": \"limited(sleepy)\"}]}"),
        "track.txt": tinyTrack,
      ], render, code: Exit.badData,
      mentions: ["scene.json:5:", "field 'tracking.states[0].state'", "not a tracking state"]),
    CatalogCase(
      "render without a scene", ["render"], code: Exit.usage, mentions: ["SCENE.json"]),
    CatalogCase(
      "a malformed frame range",
      files: ["scene.json": tinyScene(), "track.txt": tinyTrack],
      ["render", "$D/scene.json", "--frames", "5..2"], code: Exit.usage, mentions: ["--frames"]),
    CatalogCase(
      "a frame range past the scene",
      files: ["scene.json": tinyScene(), "track.txt": tinyTrack],
      ["render", "$D/scene.json", "--out", "$D/out", "--frames", "0..99"], code: Exit.usage,
      mentions: ["--frames", "0..5"]),
  ]

  @Test("malformed scene files fail with their exit code, file, line and field", arguments: cases)
  func catalogue(_ entry: CatalogCase) throws { try entry.check() }

  @Test("an unknown scene field is a warning naming it; the render succeeds")
  func unknownField() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("scene.json", tinyScene("\"outptu\": {\"fps\": 5}"))
    try folder.write("track.txt", tinyTrack)
    let outcome = runArsim(["render", folder.path + "/scene.json", "--out", folder.path + "/out"])
    #expect(outcome.code == Exit.ok)
    #expect(outcome.standardError.contains("scene.json:5: field 'outptu' is not a scene field"))
  }

  @Test("a surrogate pair in a string is a character: the unknown-field warning still comes")
  func surrogatePair() throws {
    // JSONSerialization, which the unknown-field check reads with, refuses a lone surrogate
    // the decoder accepts; a lone one is now an error, a pair must keep working.
    let folder = try CatalogFolder()
    defer { folder.remove() }
    try folder.write("scene.json", tinyScene("\"comment\": \"\\ud83d\\ude00\", \"outptu\": 1"))
    try folder.write("track.txt", tinyTrack)
    let outcome = runArsim(["render", folder.path + "/scene.json", "--out", folder.path + "/out"])
    #expect(outcome.code == Exit.ok)
    #expect(outcome.standardError.contains("field 'outptu' is not a scene field"))
  }
}
