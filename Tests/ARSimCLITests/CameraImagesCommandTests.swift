import ARChildProcess
import ARRender
import ARTestSupport
import Foundation
import Testing

/// `arsim render` over recorded camera images, run as a child process (its own `PATH`, its exit
/// code and standard error as a user sees them): the exit codes and events of
/// Documentation/CameraImages.md, "Bad input during the run".
@Suite struct CameraImagesCommandTests {
  static let environment = ProcessInfo.processInfo.environment

  static func arsim() throws -> String {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    try #require(FileManager.default.fileExists(atPath: path), "build arsim first: \(path)")
    return path
  }

  /// A fresh folder with a 1 s still track; removed by the caller.
  static func folder(_ name: String) throws -> String {
    let path = TemporaryFolder("camera-\(name)").path
    try
      #"{"format": "arsim-track", "version": 1, "poses": [{"t": 0, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}, {"t": 1, "worldFromCamera": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}"#
      .write(toFile: path + "/track.json", atomically: true, encoding: .utf8)
    return path
  }

  /// A scene at 10 frames/s over `recording` (the section's members), green before any image.
  static func scene(in folder: String, frames: Int, recording: String) throws -> String {
    let path = folder + "/scene.json"
    try """
    {"name": "camera-images", "track": {"path": "track.json"}, "output": {"fps": 10},
     "frames": \(frames), "background": {"color": [0, 1, 0], "recording": {\(recording)}}}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// An 8×6 lens and a times file of `lines` over `folder/images`.
  static func listScene(in folder: String, frames: Int, lines: String) throws -> String {
    try FileManager.default.createDirectory(
      atPath: folder + "/images", withIntermediateDirectories: true)
    try lines.write(toFile: folder + "/times.txt", atomically: true, encoding: .utf8)
    return try scene(
      in: folder, frames: frames,
      recording:
        #""list": "times.txt", "folder": "images", "lens": {"fx": 8, "fy": 8, "cx": 3.5, "cy": 2.5, "width": 8, "height": 6}"#
    )
  }

  static func run(_ arguments: [String], environment: [String: String] = environment) throws
    -> (code: Int32?, errors: String)
  {
    let (termination, _, lines) = try ChildProcess.run(
      try arsim(), arguments, timeoutSeconds: 120, environment: environment)
    return (termination.exitStatus, lines.joined(separator: "\n"))
  }

  static func events(_ folder: String) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
  }

  /// RGB of pixel (4, 3) of frame `frame` in `folder`.
  static func pixel(_ folder: String, _ frame: Int) throws -> [UInt8] {
    let image = try Image(contentsOfPNG: folder + String(format: "/frame_%05d.png", frame))
    let o = (3 * image.width + 4) * 4
    return Array(image.pixels[o..<o + 3])
  }

  static func png(_ color: (UInt8, UInt8, UInt8), to path: String) throws {
    try Image(width: 8, height: 6, fill: (color.0, color.1, color.2, 255)).writePNG(to: path)
  }

  /// A 3-frame 32×24 FFV1 video at 10 frames/s, made by the real ffmpeg.
  static func video(in folder: String) throws -> String {
    for i in 0..<3 {
      try Image(width: 32, height: 24, fill: (UInt8(60 * i), 0, 0, 255))
        .writePNG(to: folder + "/v\(i).png")
    }
    let ffmpeg = try #require(ExecutableLocator.find("ffmpeg", environment: environment))
    let video = folder + "/clip.mkv"
    let (termination, _, lines) = try ChildProcess.run(
      ffmpeg,
      [
        "-v", "error", "-y", "-framerate", "10", "-i", folder + "/v%d.png", "-c:v", "ffv1",
        "-pix_fmt", "bgr0", video,
      ])
    #expect(termination.succeeded, "\(lines)")
    return video
  }

  static let videoRecording =
    #""video": "clip.mkv", "lens": {"fx": 32, "fy": 32, "cx": 15.5, "cy": 11.5, "width": 32, "height": 24}"#

  @Test("a video without ffprobe or ffmpeg on PATH: 69 naming the Debian package, no frame")
  func missingFFmpeg() throws {
    let folder = try Self.folder("missing-ffmpeg")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Array("not read".utf8).withUnsafeBufferPointer {
      try Data(buffer: $0).write(to: URL(fileURLWithPath: folder + "/clip.mkv"))
    }
    let scene = try Self.scene(in: folder, frames: 3, recording: Self.videoRecording)
    let bin = folder + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    var environment = Self.environment
    environment["ARSIM_FFMPEG"] = nil
    environment["ARSIM_FFPROBE"] = nil
    environment["PATH"] = bin
    var (code, errors) = try Self.run(
      ["render", scene, "--out", folder + "/out"], environment: environment)
    #expect(code == 69, "\(errors)")
    #expect(errors.contains("ffprobe not found"), "\(errors)")
    #expect(errors.contains("install the Debian package 'ffmpeg'"), "\(errors)")
    // ffprobe there, ffmpeg not.
    let ffprobe = try #require(ExecutableLocator.find("ffprobe", environment: Self.environment))
    try FileManager.default.createSymbolicLink(
      atPath: bin + "/ffprobe", withDestinationPath: ffprobe)
    _ = try Self.video(in: folder)
    (code, errors) = try Self.run(
      ["render", scene, "--out", folder + "/out"], environment: environment)
    #expect(code == 69, "\(errors)")
    #expect(errors.contains("ffmpeg not found"), "\(errors)")
    #expect(errors.contains("install the Debian package 'ffmpeg'"), "\(errors)")
    let written = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []
    #expect(!written.contains { $0.hasPrefix("frame_") }, "\(written)")
  }

  @Test("ffmpeg failing mid-way: 73 with its last lines; the frames before are whole PNGs")
  func ffmpegFailsMidway() throws {
    let folder = try Self.folder("ffmpeg-fails")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Self.video(in: folder)
    let scene = try Self.scene(in: folder, frames: 3, recording: Self.videoRecording)
    // A stand-in ffmpeg on PATH: two frames of level 200, a complaint, exit 1.
    let bin = folder + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try """
    #!/bin/sh
    head -c \(32 * 24 * 4 * 2) /dev/zero | tr '\\000' '\\310'
    echo 'fake ffmpeg: error while decoding frame 2' >&2
    exit 1
    """.write(toFile: bin + "/ffmpeg", atomically: true, encoding: .utf8)
    chmod(bin + "/ffmpeg", 0o755)
    let ffprobe = try #require(ExecutableLocator.find("ffprobe", environment: Self.environment))
    try FileManager.default.createSymbolicLink(
      atPath: bin + "/ffprobe", withDestinationPath: ffprobe)
    var environment = Self.environment
    environment["ARSIM_FFMPEG"] = nil
    environment["ARSIM_FFPROBE"] = nil
    environment["PATH"] = bin + ":/usr/bin:/bin"
    let out = folder + "/out"
    let (code, errors) = try Self.run(["render", scene, "--out", out], environment: environment)
    #expect(code == 73, "\(errors)")
    #expect(errors.contains("fake ffmpeg: error while decoding frame 2"), "\(errors)")
    #expect(try Self.pixel(out, 0) == [200, 200, 200])
    #expect(try Self.pixel(out, 1) == [200, 200, 200])
    let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(written.filter { $0.hasPrefix("frame_") } == ["frame_00000.png", "frame_00001.png"])
    #expect(!written.contains { $0.contains("tmp") }, "\(written)")
  }

  @Test("missing, truncated, corrupt and huge images: exit 0, a warning each, the image before")
  func unreadableImages() throws {
    let folder = try Self.folder("unreadable")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try Self.listScene(
      in: folder, frames: 7,
      lines:
        "0.1 red.png\n0.2 truncated.png\n0.3 gone.png\n0.4 corrupt.jpg\n0.5 huge.png\n0.6 blue.png\n"
    )
    let images = folder + "/images"
    try Self.png((200, 0, 0), to: images + "/red.png")
    try Self.png((0, 0, 200), to: images + "/blue.png")
    let red = try Data(contentsOf: URL(fileURLWithPath: images + "/red.png"))
    try red.prefix(red.count / 2).write(to: URL(fileURLWithPath: images + "/truncated.png"))
    // JPEG's first bytes, then nothing a decoder can read.
    try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: 64)).write(
      to: URL(fileURLWithPath: images + "/corrupt.jpg"))
    // A PNG whose header claims 20 000 × 20 000 pixels (the rest is not there).
    var huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    huge += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0, 0, 0, 0, 0]
    try Data(huge).write(to: URL(fileURLWithPath: images + "/huge.png"))
    let out = folder + "/out"
    let (code, errors) = try Self.run(["render", scene, "--out", out])
    #expect(code == 0, "\(errors)")
    #expect(try Self.pixel(out, 0) == [0, 255, 0])  // before the first image
    #expect(try (1...5).map { try Self.pixel(out, $0) } == Array(repeating: [200, 0, 0], count: 5))
    #expect(try Self.pixel(out, 6) == [0, 0, 200])
    let events = try Self.events(out)
    #expect(
      events.map { $0["event"] as? String } == ["camera-image-missing"]
        + Array(repeating: "warning", count: 4))
    #expect(events.map { $0["frame"] as? Int } == [0, 2, 3, 4, 5])
    #expect(events.dropFirst().map { $0["line"] as? Int } == [2, 3, 4, 5])
    let reasons = events.dropFirst().map { $0["reason"] as? String ?? "" }
    #expect(reasons.allSatisfy { $0.hasSuffix("; the previous image is kept") }, "\(reasons)")
    #expect(reasons[0].contains("invalid PNG"), "\(reasons[0])")
    #expect(reasons[1].contains("gone.png"), "\(reasons[1])")
    #expect(reasons[2].contains("invalid JPEG"), "\(reasons[2])")
    #expect(
      reasons[3].contains("20000×20000 pixels is over the limit (16384 a side, 64 Mi pixels)"),
      "\(reasons[3])")
  }

  @Test("a times file naming a file outside its folder: refused (65) before any frame")
  func outsideFolder() throws {
    let folder = try Self.folder("outside")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try Self.listScene(in: folder, frames: 2, lines: "0 ok.png\n0.1 ../scene.json\n")
    try Self.png((200, 0, 0), to: folder + "/images/ok.png")
    let (code, errors) = try Self.run(["render", scene, "--out", folder + "/out"])
    #expect(code == 65, "\(errors)")
    #expect(errors.contains("times.txt:2"), "\(errors)")
    #expect(errors.contains("leads outside the folder"), "\(errors)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/frame_00000.png"))
  }

  @Test("--frames A..B: frame A shows the image picked before the range, with no event")
  func rangeStartsAfterImage() throws {
    let folder = try Self.folder("range")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Frames 3 and 4 (τ 0.3, 0.4) pick red (0.05): blue (0.15) is unreadable, as a whole run
    // warns at frame 2 and keeps red.
    let scene = try Self.listScene(
      in: folder, frames: 6, lines: "0.05 red.png\n0.15 blue.png\n0.45 green.png\n")
    try Self.png((200, 0, 0), to: folder + "/images/red.png")
    try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: folder + "/images/blue.png"))
    try Self.png((0, 200, 0), to: folder + "/images/green.png")
    let whole = folder + "/whole"
    var (code, errors) = try Self.run(["render", scene, "--out", whole])
    #expect(code == 0, "\(errors)")
    let range = folder + "/range"
    (code, errors) = try Self.run(["render", scene, "--frames", "3..5", "--out", range])
    #expect(code == 0, "\(errors)")
    for frame in 3...5 {
      #expect(try Self.pixel(range, frame) == Self.pixel(whole, frame), "frame \(frame)")
    }
    #expect(try Self.pixel(range, 3) == [200, 0, 0])
    #expect(try Self.pixel(range, 5) == [0, 200, 0])
    #expect(try Self.events(range).isEmpty)
    #expect(try Self.events(whole).map { $0["frame"] as? Int } == [0, 2])
  }
}
