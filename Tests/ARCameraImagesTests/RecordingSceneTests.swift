import ARCameraImages
import ARRender
import ARReplay
import ARSession
import ARSupport
import ARTestSupport
import Foundation
import Testing

/// `background.recording` end to end: a scene file, its list and images, a run's frames and
/// events.
@Suite struct RecordingSceneTests {
  /// A 1 s still track, 8×6 output at 10 frames/s, and a times file of `lines`.
  func scene(in folder: TemporaryFolder, lines: String, frames: Int = 6, extra: String = "")
    -> String
  {
    _ = folder.write(
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 1, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#,
      to: "track.json")
    _ = folder.write(lines, to: "times.txt")
    return folder.write(
      """
      {"name": "recording", "track": {"path": "track.json"}, "output": {"fps": 10},
       "frames": \(frames),
       "background": {"color": [0, 1, 0], "recording": {"list": "times.txt", "folder": "images",
         "lens": {"fx": 8, "fy": 8, "cx": 3.5, "cy": 2.5, "width": 8, "height": 6}\(extra)}}}
      """, to: "scene.json")
  }

  /// The scene's `images` folder.
  func makeImagesFolder(_ folder: TemporaryFolder) throws {
    try FileManager.default.createDirectory(
      atPath: folder.path + "/images", withIntermediateDirectories: true)
  }

  /// `images/red.png` (8×6, red 200) and `images/truncated.png`, its first half.
  func writeRedAndTruncated(in folder: TemporaryFolder) throws {
    try write((200, 0, 0), width: 8, height: 6, to: folder.path + "/images/red.png")
    let red = try FileIO.read(folder.path + "/images/red.png")
    _ = folder.write(Array(red.prefix(red.count / 2)), to: "images/truncated.png")
  }

  func write(_ color: (UInt8, UInt8, UInt8), width: Int, height: Int, to path: String) throws {
    try Image(width: width, height: height, fill: (color.0, color.1, color.2, 255)).writePNG(
      to: path)
  }

  func events(_ folder: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }

  func pixel(_ folder: String, _ frame: Int) throws -> [UInt8] {
    let image = try Image(contentsOfPNG: folder + String(format: "/frame_%05d.png", frame))
    return Array(image.pixels[((3 * image.width) + 4) * 4..<((3 * image.width) + 4) * 4 + 3])
  }

  @Test("gap, corrupt, missing and resized images: what each frame shows and the events")
  func badImages() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    try writeRedAndTruncated(in: folder)
    try write((0, 0, 200), width: 16, height: 12, to: folder.path + "/images/blue.png")
    let path = scene(
      in: folder, lines: "0.1 red.png\n0.2 truncated.png\n0.3 gone.png\n0.4 blue.png\n")
    let loaded = try ReplayScene.load(path: path, registry: SessionRegistry())
    let out = folder.path + "/out"
    _ = try Replay(scene: loaded).run(ReplayOptions(outputDirectory: out))
    // Frame 0 (τ = 0) comes before the first image: the background colour.
    #expect(try pixel(out, 0) == [0, 255, 0])
    #expect(try pixel(out, 1) == [200, 0, 0])
    #expect(try pixel(out, 2) == [200, 0, 0])  // truncated: the previous image
    #expect(try pixel(out, 3) == [200, 0, 0])  // missing file: the previous image
    #expect(try pixel(out, 4) == [0, 0, 200])  // 16×12 resampled onto 8×6
    let lines = try events(out)
    #expect(lines.map { $0["frame"] as? Int } == [0, 2, 3, 4])
    #expect(
      lines.map { $0["event"] as? String } == [
        "camera-image-missing", "warning", "warning", "warning",
      ])
    #expect((lines[1]["line"] as? Int) == 2)
    #expect((lines[1]["reason"] as? String)?.contains("invalid PNG") == true)
    #expect((lines[2]["line"] as? Int) == 3)
    #expect((lines[3]["reason"] as? String)?.contains("16×12") == true)
  }

  @Test("a range that starts inside the gap before the first readable image: no event again")
  func rangeInGap() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    try writeRedAndTruncated(in: folder)
    // Frames 0…2 have only the truncated image: the whole run's gap starts at frame 0.
    let path = scene(in: folder, lines: "0 truncated.png\n0.35 red.png\n")
    let whole = folder.path + "/whole"
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(
      ReplayOptions(outputDirectory: whole))
    #expect(
      try events(whole).map { "\($0["frame"] ?? "") \($0["event"] ?? "")" } == [
        "0 warning", "0 camera-image-missing",
      ])
    var options = ReplayOptions(outputDirectory: folder.path + "/range")
    options.frameRange = 2...5
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(options)
    // Frame 2 is still in that gap, frame 4 shows red, as in the whole run; no event is written.
    #expect(try pixel(folder.path + "/range", 2) == [0, 255, 0])
    #expect(try pixel(folder.path + "/range", 4) == [200, 0, 0])
    #expect(try events(folder.path + "/range").isEmpty)
  }

  @Test("a lens through which no output pixel sees the image warns once, at its first image")
  func blindLens() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    try write((200, 0, 0), width: 8, height: 6, to: folder.path + "/images/red.png")
    try write((0, 0, 200), width: 8, height: 6, to: folder.path + "/images/blue.png")
    let path = scene(in: folder, lines: "0.1 red.png\n0.3 blue.png\n")
    // k1 = 10¹⁰: every pixel centre lies off the axis, so every ray leaves the image.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    _ = folder.write(
      text.replacingOccurrences(
        of: #""height": 6}"#,
        with:
          #""height": 6, "distortion": {"model": "radialTangential", "coefficients": [1e10, 0, 0, 0]}}"#
      ), to: "scene.json")
    let out = folder.path + "/out"
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(
      ReplayOptions(outputDirectory: out))
    let lines = try events(out)
    #expect(
      lines.map { "\($0["frame"] ?? "") \($0["event"] ?? "")" } == [
        "0 camera-image-missing", "1 warning",
      ])
    #expect(
      lines.last?["reason"] as? String
        == "through recording.lens no output pixel sees the 8×6 camera image (its centre or "
        + "distortion lies far off?): frames show the fill colour")
    // The fill is the scene's background colour.
    #expect(try pixel(out, 4) == [0, 255, 0])
  }

  @Test("recording.folder that is missing or a file is refused at load (66), naming the field")
  func folderChecked() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    let path = scene(in: folder, lines: "0 a.png\n")
    for (make, reason) in [(false, "no such folder"), (true, "not a folder")] {
      if make { _ = folder.write("not a folder", to: "images") }
      #expect {
        try ReplayScene.load(path: path, registry: SessionRegistry())
      } throws: { error in
        let error = error as? InputError
        return error?.kind == .missingInput
          && error?.location.field == "background.recording.folder"
          && error?.location.file == folder.path + "/images" && error?.reason == reason
      }
    }
  }

  @Test("the frame at an image's exact time shows it; the one before shows the previous")
  func boundaries() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    try write((10, 0, 0), width: 8, height: 6, to: folder.path + "/images/a.png")
    try write((20, 0, 0), width: 8, height: 6, to: folder.path + "/images/b.png")
    // τ = 0.3 is frame 3's time exactly; with offset 0.05 frame 2 (τ 0.2) asks for 0.25.
    let path = scene(in: folder, lines: "0 a.png\n0.3 b.png\n", frames: 5)
    let out = folder.path + "/out"
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(
      ReplayOptions(outputDirectory: out))
    #expect(try (0..<5).map { try pixel(out, $0)[0] } == [10, 10, 10, 20, 20])
    let shifted = scene(
      in: folder, lines: "0 a.png\n0.3 b.png\n", frames: 5, extra: #", "offset": 0.1"#)
    _ = try Replay(scene: ReplayScene.load(path: shifted, registry: SessionRegistry())).run(
      ReplayOptions(outputDirectory: out))
    #expect(try (0..<5).map { try pixel(out, $0)[0] } == [10, 10, 20, 20, 20])
  }

  @Test("recording.offset beyond ±4e9 s is refused naming the field; 4e9 loads")
  func offsetLimit() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    try write((10, 0, 0), width: 8, height: 6, to: folder.path + "/images/a.png")
    for offset in ["1e300", "-4.1e9"] {
      let path = scene(in: folder, lines: "0 a.png\n", extra: #", "offset": \#(offset)"#)
      #expect {
        try ReplayScene.load(path: path, registry: SessionRegistry())
      } throws: { error in
        let error = error as? InputError
        return error?.location.field == "background.recording.offset"
          && error?.reason.contains("-4e9 to 4e9") == true
      }
    }
    let path = scene(in: folder, lines: "0 a.png\n", extra: #", "offset": 4e9"#)
    _ = try ReplayScene.load(path: path, registry: SessionRegistry())
  }

  @Test("a times file naming a file outside the folder is refused when the scene loads")
  func outside() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    let path = scene(in: folder, lines: "0 ../scene.json\n")
    #expect {
      try ReplayScene.load(path: path, registry: SessionRegistry())
    } throws: { error in
      let error = error as? InputError
      return error?.location.line == 1 && error?.reason.contains("refused") == true
    }
  }

  @Test("lines out of order or repeated: warnings naming the line in the scene's warnings")
  func repaired() throws {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    try makeImagesFolder(folder)
    let path = scene(in: folder, lines: "0.2 b.png\n0.1 a.png\n0.1 c.png\n")
    let loaded = try ReplayScene.load(path: path, registry: SessionRegistry())
    #expect(
      loaded.warnings.contains {
        $0.hasSuffix("times.txt:2: time 0.1 is before line 1's 0.2; sorted in")
      })
    #expect(
      loaded.warnings.contains {
        $0.hasSuffix("times.txt:3: time 0.1 repeats line 2's; line 3 ignored")
      })
  }
}
