import ARRender
@testable import ARReport
import ARTestSupport
import Foundation
import Testing

@Suite struct ReplayReportTests {
  /// Event lines of `folder`'s events.jsonl counted by name, read here independently.
  static func eventCounts(_ folder: String) throws -> [String: Int] {
    let text = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8)
    var counts: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      counts[object?["event"] as? String ?? "?", default: 0] += 1
    }
    return counts
  }

  static func occurrences(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test("a bundled scene's report has its lanes, markers, stroke roots and frame links")
  func bundledScene() throws {
    let folder = try RenderedRun.folder.get()
    let summary = try ReplayReport().write(directory: folder)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    let counts = try Self.eventCounts(folder)
    #expect(counts["touch-start"] == 5 && counts["undo"] == 1)
    #expect(html.contains("touch-start (\(counts["touch-start"] ?? -1))"))
    #expect(html.contains("undo (\(counts["undo"] ?? -1))"))
    #expect(html.contains("dropped points (\(counts["dropped-point"] ?? -1))"))
    let total = counts.values.reduce(0, +)
    #expect(Self.occurrences("<circle class=\"event\"", in: html) == total)
    // Five stroke roots on the map; the undone one (stroke 4) faded.
    #expect(Self.occurrences("class=\"item stroke-root", in: html) == 5)
    #expect(Self.occurrences("class=\"item stroke-root gone\"", in: html) == 1)
    #expect(html.contains("<polyline class=\"camera-path\""))
    // 301 frames: 60 thumbnails evenly sampled, first and last included, each a link that
    // names an existing frame file.
    #expect(summary.thumbnails == 60)
    #expect(html.contains("href=\"frame_00000.png\"") && html.contains("href=\"frame_00300.png\""))
    let links = html.components(separatedBy: "href=\"frame_").dropFirst().map {
      "frame_" + $0.prefix(while: { $0 != "\"" })
    }
    #expect(!links.isEmpty)
    for link in Set(links) { #expect(FileManager.default.fileExists(atPath: folder + "/" + link)) }
    // Timings copied from run.json.
    #expect(html.contains("<td>render</td>"))
    // One inline script block besides the error hook, nothing fetched from elsewhere.
    #expect(!html.contains("http://") && !html.contains("https://"))
  }

  @Test("text from the files is escaped: no markup from a scene name, event or folder gets in")
  func escaping() throws {
    let folder = TemporaryFolder("report-xss").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&"
    let run: [String: Any] = [
      "scene": hostile, "fps": 30, "frameCount": 2, "warnings": [hostile],
      "timing": ["totalSeconds": 1.0, "renderSeconds": 0.5],
    ]
    try JSONSerialization.data(withJSONObject: run).write(
      to: URL(fileURLWithPath: folder + "/run.json"))
    let event: [String: Any] = ["t": 0.5, "frame": 1, "event": hostile, "message": hostile]
    let line = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
    try (line + "\n{not json\n").write(
      toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
    let trace =
      "{\"frame\":0,\"t\":0,\"worldFromCamera\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"
      + "\"models\":[{\"id\":\"\(hostile.replacingOccurrences(of: "\"", with: "\\\""))\","
      + "\"translation\":[1,0,1]}]}\n"
    try trace.write(toFile: folder + "/trace.jsonl", atomically: true, encoding: .utf8)
    try Image(width: 4, height: 4).writePNG(to: folder + "/frame_00000.png")
    let summary = try ReplayReport().write(directory: folder)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    #expect(!html.contains("<script>alert"))
    #expect(!html.contains("<img src=x"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(Self.occurrences("<script>", in: html) == 2)  // the error hook and the page script
    // The bad line is noted, not fatal; the model is on the map.
    #expect(html.contains("events.jsonl: 1 line not a JSON object, skipped (first: line 2)"))
    #expect(summary.notes == ["events.jsonl: 1 line not a JSON object, skipped (first: line 2)"])
    #expect(Self.occurrences("class=\"item model", in: html) == 1)
  }

  @Test(
    "τ, frame counts and positions past any real run (hand-edited files) give a page, not a trap or a hang"
  )
  func extremeValues() throws {
    let folder = TemporaryFolder("report-extreme").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // 10³⁰⁸ frames at 10⁻³ frames/s: a duration past Double's range.
    let run: [String: Any] = ["scene": "extreme", "fps": 1e-3, "frameCount": 1e308]
    try JSONSerialization.data(withJSONObject: run).write(
      to: URL(fileURLWithPath: folder + "/run.json"))
    let events = [
      #"{"t":1e20,"frame":5,"event":"warning","reason":"x"}"#,
      #"{"t":-1e20,"frame":6,"event":"warning","reason":"y"}"#,
    ]
    try (events.joined(separator: "\n") + "\n").write(
      toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
    // A camera 10¹⁷ m from the origin: a 5 cm grid step no longer moves the coordinate.
    let trace =
      #"{"frame":0,"t":0,"worldFromCamera":[1,0,0,0,0,1,0,0,0,0,1,0,1e17,0,1e17,1]}"# + "\n"
    try trace.write(toFile: folder + "/trace.jsonl", atomically: true, encoding: .utf8)
    try Image(width: 4, height: 4).writePNG(to: folder + "/frame_00000.png")
    let summary = try ReplayReport().write(directory: folder)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    #expect(html.contains("τ 1e+20 s"))
    #expect(Self.occurrences("class=\"grid\"", in: html) <= 2 * ReportMap.maximumGridLines + 20)
    #expect(HTMLText.number(1e20) == "1e+20")
    #expect(HTMLText.number(-2.5, 2) == "-2.50")
    #expect(HTMLText.number(4_611_686_018_427.387_9, 3) == "4611686018427.388")
  }

  /// 10 000 frames of 640×480 noise (hard links to one file: only sampled frames are read),
  /// 4 000 events, a 10 000-line trace: the worst case for thumbnail size.
  @Test("a 10 000-frame run gives a page under 3 MB with sampled thumbnails")
  func largeRun() throws {
    let folder = TemporaryFolder("report-large").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var noise = Image(width: 640, height: 480)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for i in 0..<noise.pixels.count where i % 4 != 3 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      noise.pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    try noise.writePNG(to: folder + "/frame_00000.png")
    for frame in 1..<10_000 {
      #expect(link(folder + "/frame_00000.png", folder + "/" + RunFolder.frameName(frame)) == 0)
    }
    let names = [
      "touch-start", "undo", "color", "dropped-point", "warning", "client-new-measurement",
    ]
    var events = ""
    for i in 0..<4000 {
      events +=
        "{\"t\":\(Double(i) * 0.0833),\"frame\":\(i * 10 / 4),\"event\":\"\(names[i % names.count])\",\"message\":\"m\(i)\"}\n"
    }
    try events.write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
    var trace = ""
    for frame in 0..<10_000 {
      let angle = Double(frame) / 1000
      trace +=
        "{\"frame\":\(frame),\"t\":\(Double(frame) / 30),\"worldFromCamera\":[1,0,0,0,0,1,0,0,0,0,1,0,"
        + "\(cos(angle)),1.5,\(sin(angle)),1],\"remoteAssist\":{\"roots\":[{\"stroke\":\(frame / 500),"
        + "\"worldTransform\":[1,0,0,0,0,1,0,0,0,0,1,0,\(cos(angle) * 0.5),1,\(sin(angle) * 0.5),1]}]}}\n"
    }
    try trace.write(toFile: folder + "/trace.jsonl", atomically: true, encoding: .utf8)
    let run =
      "{\"scene\":\"large\",\"fps\":30,\"frameCount\":10000,\"timing\":{\"totalSeconds\":300}}"
    try run.write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)

    let summary = try ReplayReport().write(directory: folder)
    print("report: 10 000 frames → \(summary.bytes) bytes, \(summary.thumbnails) thumbnails")
    #expect(summary.bytes < 3_000_000)
    #expect(summary.events == 4000)
    #expect((10...60).contains(summary.thumbnails))
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    #expect(html.contains("The first 2000 of 4000 events"))
    #expect(html.contains("href=\"frame_00000.png\"") && html.contains("href=\"frame_09999.png\""))
    #expect(Self.occurrences("class=\"item stroke-root", in: html) == 20)
  }

  @Test("a folder with nothing of a run gets no page (66); DIR/ reports as DIR")
  func emptyFolderAndTrailingSlash() throws {
    let empty = TemporaryFolder("report-empty").path
    defer { try? FileManager.default.removeItem(atPath: empty) }
    let error = #expect(throws: InputError.self) { try ReplayReport().write(directory: empty) }
    #expect(error?.kind == .missingInput)
    #expect(error?.reason.contains("not an arsim output folder") == true)
    #expect(!FileManager.default.fileExists(atPath: empty + "/report.html"))
    let folder = try RenderedRun.folder.get()
    let summary = try ReplayReport().write(directory: folder + "//")
    #expect(summary.path == folder + "/report.html")
  }

  @Test("progressive order visits every index once, ends first")
  func progressive() {
    for count in [0, 1, 2, 3, 7, 60] {
      let order = ReportThumbnails.progressiveOrder(count)
      #expect(order.sorted() == Array(0..<count))
      if count > 2 { #expect(Array(order.prefix(3)) == [0, count - 1, (count - 1) / 2]) }
    }
  }
}

@Suite struct ReplayReportHelperViewTests {
  /// `--helper-view` writes `helper/frame_NNNNN.png` only; a `--frames 100..102` run into a
  /// folder of an earlier full run leaves the earlier helper frames there.
  @Test("a frames-only view takes the run's framesWritten and fps, and has no missing-file notes")
  func helperView() throws {
    let folder = TemporaryFolder("report-helper").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "{\"scene\":\"h\",\"fps\":30,\"framesWritten\":[100,101,102]}".write(
      toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      atPath: folder + "/helper", withIntermediateDirectories: true)
    for frame in [0, 1, 2, 100, 101, 102] {
      try Image(width: 8, height: 6).writePNG(to: folder + "/" + RunFolder.frameName(frame))
      try Image(width: 8, height: 6).writePNG(to: folder + "/helper/" + RunFolder.frameName(frame))
    }
    let main = try RunFolder.load(folder)
    #expect(main.views == ["helper"])
    let helper = try RunFolder.loadView("helper", of: main)
    #expect(helper.frames == [100, 101, 102])
    #expect(helper.earlierRunFrameCount == 3)
    #expect(helper.framesPerSecond == 30)
    #expect(!helper.notes.contains { $0.contains("missing") }, "\(helper.notes)")
    let summary = try ReplayReport().write(directory: folder)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    #expect(html.contains("href=\"helper/frame_00100.png\""))
    #expect(!html.contains("href=\"helper/frame_00000.png\""))
    #expect(
      !summary.notes.contains { $0.hasPrefix("helper") && $0.contains("missing") },
      "\(summary.notes)")
    #expect(summary.notes.contains { $0.hasPrefix("helper: frame files: 3 written by earlier") })
  }
}

@Suite struct ReplayReportCollaborationTests {
  /// A two-view folder as a collaborative render writes it: views A and B with their frames
  /// and events, messages.jsonl with one delivery dropped as lost.
  @Test(
    "participant views: a path and a sheet each, joins and leaves, messages lost from messages.jsonl"
  )
  func views() throws {
    let folder = TemporaryFolder("report-views").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "{\"scene\":\"c\",\"fps\":10,\"frameCount\":3}".write(
      toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    for (index, view) in ["A", "B"].enumerated() {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + view, withIntermediateDirectories: true)
      for frame in 0..<3 {
        try Image(width: 8, height: 6).writePNG(
          to: folder + "/\(view)/" + RunFolder.frameName(frame))
      }
      var trace = ""
      for frame in 0..<3 {
        trace +=
          "{\"frame\":\(frame),\"t\":\(Double(frame) / 10),\"worldFromCamera\":"
          + "[1,0,0,0,0,1,0,0,0,0,1,0,\(index),0,\(frame),1]}\n"
      }
      try trace.write(toFile: folder + "/\(view)/trace.jsonl", atomically: true, encoding: .utf8)
      let events =
        index == 0
        ? "{\"t\":0,\"frame\":0,\"event\":\"joined\"}\n{\"t\":0.1,\"frame\":1,\"event\":\"model-added\",\"id\":\"tree\"}\n"
        : "{\"t\":0.2,\"frame\":2,\"event\":\"left\"}\n"
      try events.write(toFile: folder + "/\(view)/events.jsonl", atomically: true, encoding: .utf8)
    }
    let messages = """
      {"sequence":0,"t":0.15,"from":"A","channel":"room","type":"peerUpdate","bytes":9,"payload":"x","deliveries":[{"to":"B","dropped":"lost","attempts":1}]}
      {"sequence":1,"t":0.16,"from":"A","channel":"room","type":"peerUpdate","bytes":9,"payload":"y","deliveries":[{"to":"B","t":0.2,"attempts":1}]}

      """
    try messages.write(toFile: folder + "/messages.jsonl", atomically: true, encoding: .utf8)
    let summary = try ReplayReport().write(directory: folder)
    let html = try String(contentsOfFile: summary.path, encoding: .utf8)
    #expect(summary.thumbnails == 6)
    #expect(ReplayReportTests.occurrences("<polyline class=\"camera-path\"", in: html) == 2)
    #expect(html.contains("participants (2)"))
    #expect(html.contains("models (1)"))
    #expect(html.contains("messages lost (1)"))
    // The loss is B's (the receiver), at frame ⌊0.15 · 10⌋ = 1, linking B's frame.
    #expect(html.contains("href=\"B/frame_00001.png\""))
    #expect(html.contains("type: peerUpdate, from: A, to: B, reason: lost, attempts: 1"))
    // Events in τ order across the views: joined (A, 0), model-added (A, 0.1), lost (B, 0.15),
    // left (B, 0.2).
    let table = try #require(html.range(of: "<table class=\"events\"")).upperBound
    var positions: [String.Index] = []
    for name in ["joined", "model-added", "message-lost", ">left<"] {
      positions.append(try #require(html.range(of: name, range: table..<html.endIndex)).lowerBound)
    }
    #expect(positions == positions.sorted())
  }
}

/// `run.json` fields of the wrong type and frames it lists that are gone are noted, not taken
/// silently (a newcomer's finding: `{"scene":5,"framesWritten":"abc","fps":-1}` gave a report
/// without a note, and a deleted listed frame went unmentioned).
@Suite struct ReplayReportRunFileTests {
  @Test("wrong types in run.json: each noted and ignored")
  func wrongTypes() throws {
    let folder = TemporaryFolder("report-run-types").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "{\"scene\":5,\"framesWritten\":\"abc\",\"fps\":-1}".write(
      toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    try Image(width: 8, height: 6).writePNG(to: folder + "/" + RunFolder.frameName(0))
    let run = try RunFolder.load(folder)
    #expect(run.framesWritten == nil)
    #expect(run.frames == [0])
    #expect(run.framesPerSecond == nil)
    for note in [
      "run.json: framesWritten is not a list of frame numbers; ignored",
      "run.json: scene is not a string; ignored", "run.json: fps is not a positive number; ignored",
    ] {
      #expect(run.notes.contains(note), "\(run.notes)")
    }
    let mixed = folder + "/mixed"
    try FileManager.default.createDirectory(atPath: mixed, withIntermediateDirectories: true)
    try "{\"framesWritten\":[0,-1,2.5]}".write(
      toFile: mixed + "/run.json", atomically: true, encoding: .utf8)
    #expect(
      try RunFolder.load(mixed).notes.contains(
        "run.json: framesWritten is not a list of frame numbers; ignored"))
  }

  @Test("frames run.json lists whose files are gone: counted, the first named")
  func listedFramesMissing() throws {
    let folder = TemporaryFolder("report-run-missing").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "{\"scene\":\"m\",\"fps\":10,\"framesWritten\":[0,1,5,999]}".write(
      toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    for frame in [0, 1] {
      try Image(width: 8, height: 6).writePNG(to: folder + "/" + RunFolder.frameName(frame))
    }
    let run = try RunFolder.load(folder)
    #expect(run.frames == [0, 1])
    #expect(
      run.notes.contains(
        "frame files: 2 of run.json's framesWritten missing (first: frame_00005.png)"),
      "\(run.notes)")
    let summary = try ReplayReport().write(directory: folder)
    #expect(summary.notes.contains { $0.contains("2 of run.json's framesWritten missing") })
  }
}
