import ARRender
import ARReplay
import ARSession
import ARTestSupport
import Foundation
import Testing

/// With a `tracking` section a dropped or interrupted tick shows the last delivered frame: its
/// camera pose and its recorded camera image, as ARSCNView keeps drawing the last frame it got.
@Suite struct TrackingCameraImageTests {
  /// Eight images 0.1 s apart (image k red 10 + 30k), a still track, eight frames at 10 fps
  /// (AR ticks at 60 Hz: frame f is tick 6f), a frame dropped at 0.2 s (tick 12) and an
  /// interruption from 0.35 s (tick 21) to 0.55 s (tick 33) with `Self.dropAndInterruption`.
  func run(tracking: String?, frames: ClosedRange<Int>? = nil) throws -> (
    out: String, folder: TemporaryFolder
  ) {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(
      atPath: folder.path + "/images", withIntermediateDirectories: true)
    var lines = ""
    for k in 0..<8 {
      try Image(width: 8, height: 6, fill: (UInt8(10 + 30 * k), 100, 0, 255)).writePNG(
        to: folder.path + "/images/\(k).png")
      lines += "0.\(k) \(k).png\n"
    }
    _ = folder.write(lines, to: "times.txt")
    _ = folder.write(
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 1, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#,
      to: "track.json")
    let section = tracking.map { "\"tracking\": \($0)," } ?? ""
    let path = folder.write(
      """
      {"name": "recording-tracking", "track": {"path": "track.json"}, "output": {"fps": 10},
       "frames": 8, \(section)
       "background": {"color": [0, 1, 0], "recording": {"list": "times.txt", "folder": "images",
         "lens": {"fx": 8, "fy": 8, "cx": 3.5, "cy": 2.5, "width": 8, "height": 6}}}}
      """, to: "scene.json")
    let out = folder.path + "/out"
    var options = ReplayOptions(outputDirectory: out)
    options.frameRange = frames
    _ = try Replay(scene: ReplayScene.load(path: path, registry: SessionRegistry())).run(options)
    return (out, folder)
  }

  static let dropAndInterruption =
    #"{"frames": {"drops": [0.2]}, "interruptions": [{"start": 0.35, "end": 0.55, "relocalizing": 0.1}]}"#

  func red(_ out: String, _ frame: Int) throws -> Int {
    let image = try Image(contentsOfPNG: out + String(format: "/frame_%05d.png", frame))
    return Int(image.pixels[((3 * image.width) + 4) * 4])
  }

  func lines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }

  @Test("a dropped tick and an interruption keep the last delivered frame's camera image")
  func keptImage() throws {
    let (out, folder) = try run(tracking: Self.dropAndInterruption)
    defer { folder.remove() }
    // Frame 2 (tick 12) is dropped: tick 11 (τ 0.183) was delivered last, image 1 (0.1 s).
    // Frames 4 and 5 (ticks 24, 30) are interrupted: tick 20 (τ 0.333) last, image 3.
    let shown = [0, 1, 1, 3, 3, 3, 6, 7]
    #expect(try (0..<8).map { try red(out, $0) } == shown.map { 10 + 30 * $0 })
    let trace = try lines(out + "/trace.jsonl").map { $0["tracking"] as? [String: Any] ?? [:] }
    #expect(
      trace.map { $0["frame"] as? String } == [
        "delivered", "delivered", "dropped", "delivered", "interrupted", "interrupted",
        "delivered", "delivered",
      ])
    #expect(trace.map { $0["shownTick"] as? Int } == [0, 6, 11, 18, 20, 20, 36, 42])
    let times = trace.map { ($0["captureTime"] as? NSNumber)?.doubleValue ?? -1 }
    #expect(abs(times[2] - 11.0 / 60) < 1e-12 && abs(times[4] - 20.0 / 60) < 1e-12)
    let events = try lines(out + "/events.jsonl")
    let dropped = try #require(events.first { $0["event"] as? String == "camera-frame-dropped" })
    #expect(dropped["frame"] as? Int == 2)
    #expect(dropped["shownTick"] as? Int == 11)
    let interrupted = try #require(
      events.first { $0["event"] as? String == "session-interrupted" })
    #expect(interrupted["frame"] as? Int == 4)
    #expect(interrupted["shownTick"] as? Int == 20)
    #expect(abs(((interrupted["captureTime"] as? NSNumber)?.doubleValue ?? -1) - 20.0 / 60) < 1e-12)
  }

  @Test("a range (--frames, a shard) shows each frame's image as the whole run does")
  func ranges() throws {
    // The frames before a range pick images too (the one shown last), so the tracker's capture
    // times are needed from frame 0: a range from frame 2 trapped on them.
    let shown = [0, 1, 1, 3, 3, 3, 6, 7]
    for range in [2...7, 3...4, 5...5, 0...3] {
      let (out, folder) = try run(tracking: Self.dropAndInterruption, frames: range)
      defer { folder.remove() }
      #expect(
        try range.map { try red(out, $0) } == range.map { 10 + 30 * shown[$0] }, "\(range)")
    }
  }

  @Test("without a tracking section every frame shows its own time's image, as before")
  func untracked() throws {
    let (out, folder) = try run(tracking: nil)
    defer { folder.remove() }
    #expect(try (0..<8).map { try red(out, $0) } == (0..<8).map { 10 + 30 * $0 })
    #expect(try lines(out + "/trace.jsonl").allSatisfy { $0["tracking"] == nil })
  }

  @Test("a tracking section without error, drops or jitter shows the same frames as none")
  func zeroError() throws {
    let (plain, plainFolder) = try run(tracking: nil)
    defer { plainFolder.remove() }
    let (tracked, trackedFolder) = try run(tracking: #"{"seed": 5, "error": {"scale": 0}}"#)
    defer { trackedFolder.remove() }
    for frame in 0..<8 {
      let name = String(format: "/frame_%05d.png", frame)
      #expect(
        FileManager.default.contents(atPath: plain + name)
          == FileManager.default.contents(atPath: tracked + name), "frame \(frame)")
    }
  }
}
