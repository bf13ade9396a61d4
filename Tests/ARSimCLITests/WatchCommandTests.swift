import ARChildProcess
import ARRender
import ARReport
import ARSimCLI
import ARTestSupport
import ARVideoExport
import Foundation
import Testing

/// `arsim video`, `arsim report` and `render --video --report` in-process, checked with
/// ffprobe/ffmpeg and the files they write.
@Suite struct WatchCommandTests {
  /// `arsim ARGUMENTS` in process: its exit code, and its standard output and error as one
  /// text (the checks look for words in either).
  static func run(_ arguments: [String]) -> (Int32, String) {
    let (status, captured) = runCommand(arguments)
    return (status, captured.standardOutput + captured.standardError)
  }

  /// Tolerance for a rendered frame, directly against its PNG: MAE ≤ 3 levels, PSNR ≥ 28 dB.
  /// At 96×72 the blue stroke spheres are 2–4 px wide, so 4:2:0 chroma (one colour per 2×2
  /// block) mixes them with the tan background: that, not the codec, dominates (measured MAE
  /// 2.16, 30.1 dB). The luma, kept at full resolution, is held tighter: Y′ against the BT.709
  /// luma computed here from the PNG, PSNR ≥ 40 dB.
  @Test("arsim video: the run's frames as an MP4 whose frame 150 matches frame_00150.png")
  func videoOfFolder() throws {
    let folder = try RenderedRun.folder.get()
    let out = TemporaryFolder("video-cli").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let (code, text) = Self.run(["video", folder, out + "/house.mp4"])
    #expect(code == 0, "\(text)")
    let stream = try MediaTestSupport.probe(out + "/house.mp4")
    #expect(stream["nb_read_frames"] as? String == "301")
    #expect(stream["width"] as? Int == 96 && stream["height"] as? Int == 72)
    #expect(stream["r_frame_rate"] as? String == "30/1")
    let png = try Image(contentsOfPNG: folder + "/frame_00150.png")
    let decoded = try MediaTestSupport.decodeFrame(
      out + "/house.mp4", index: 150, width: 96, height: 72)
    let measured = MediaTestSupport.error(png, decoded)
    print(
      "video: rendered frame 150 at 96×72: MAE \(measured.meanAbsolute), PSNR \(measured.psnr) dB")
    #expect(measured.meanAbsolute <= 3 && measured.psnr >= 28, "\(measured)")
    let luma = try MediaTestSupport.decodeLuma(
      out + "/house.mp4", index: 150, width: 96, height: 72)
    let lumaPSNR = MediaTestSupport.lumaPSNR(png, luma)
    print("video: rendered frame 150 luma PSNR \(lumaPSNR) dB")
    #expect(lumaPSNR >= 40)
  }

  @Test("arsim video on a folder of participant views writes one video per view")
  func participantViews() throws {
    let folder = TemporaryFolder("video-views").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (view, count) in [("alice", 3), ("bob", 5)] {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + view, withIntermediateDirectories: true)
      for frame in 0..<count {
        try Image(width: 33, height: 17, fill: (UInt8(frame * 40), 90, 200, 255))
          .writePNG(to: folder + "/\(view)/" + RunFolder.frameName(frame))
      }
    }
    try "{\"fps\": 10}".write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
    let (code, text) = Self.run(["video", folder, folder + "/call.mp4"])
    #expect(code == 0, "\(text)")
    for (view, count) in [("alice", 3), ("bob", 5)] {
      let stream = try MediaTestSupport.probe(folder + "/call-\(view).mp4")
      #expect(stream["nb_read_frames"] as? String == String(count))
      #expect(stream["width"] as? Int == 34 && stream["height"] as? Int == 18)
      #expect(stream["r_frame_rate"] as? String == "10/1")
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/call.mp4"))
  }

  /// The built `arsim` beside the test executable, run with an environment of its own
  /// (setting ARSIM_FFMPEG in this process would race with the tests that encode).
  @Test("arsim video: missing ffmpeg exits 69 naming the package; frames stay untouched")
  func missingFFmpeg() throws {
    let folder = try RenderedRun.folder.get()
    let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/frame_00010.png"))
    let arsim = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    try #require(FileManager.default.fileExists(atPath: arsim), "build arsim first: \(arsim)")
    var environment = ProcessInfo.processInfo.environment
    environment["ARSIM_FFMPEG"] = "/nonexistent/ffmpeg"
    let (termination, _, errorLines) = try ChildProcess.run(
      arsim, ["video", folder, "/tmp/arsim-never.mp4"], environment: environment)
    let text = errorLines.joined(separator: "\n")
    #expect(termination.exitStatus == 69)
    #expect(text.contains("Debian package 'ffmpeg'"), "\(text)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/frame_00010.png")) == before)
    #expect(!FileManager.default.fileExists(atPath: "/tmp/arsim-never.mp4"))
  }

  /// tum-house-undo at 96×72 with absolute input paths, in `folder`.
  static func smallScene(in folder: String) throws -> String {
    let scenes = Fixtures.repository + "/Scenes"
    let text = try String(contentsOfFile: scenes + "/tum-house-undo.json", encoding: .utf8)
      .replacingOccurrences(of: "\"Inputs/", with: "\"" + scenes + "/Inputs/")
      .replacingOccurrences(
        of: "\"output\": {\"width\": 640, \"height\": 480",
        with: "\"output\": {\"width\": 96, \"height\": 72")
    let path = folder + "/scene.json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("render --hud --video --report: the MP4 holds the run's frames, the report is written")
  func renderWithEverything() throws {
    let folder = TemporaryFolder("render-watch").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try Self.smallScene(in: folder)
    let (code, text) = Self.run([
      "render", scene, "--frames", "10..21", "--out", folder + "/out", "--hud", "--video",
      folder + "/run.mp4", "--report",
    ])
    #expect(code == 0, "\(text)")
    let stream = try MediaTestSupport.probe(folder + "/run.mp4")
    #expect(stream["nb_read_frames"] as? String == "12")
    #expect(stream["width"] as? Int == 96 && stream["height"] as? Int == 72)
    #expect(FileManager.default.fileExists(atPath: folder + "/out/report.html"))
    // The video shows the HUD frames: its 6th frame (frame 15) decodes close to
    // frame_00015.png, corner label included; tolerance as in videoOfFolder.
    let png = try Image(contentsOfPNG: folder + "/out/frame_00015.png")
    let decoded = try MediaTestSupport.decodeFrame(
      folder + "/run.mp4", index: 5, width: 96, height: 72)
    let measured = MediaTestSupport.error(png, decoded)
    #expect(measured.meanAbsolute <= 3 && measured.psnr >= 28, "\(measured)")
  }

  @Test("arsim video and report show the last run's frames, not files an earlier run left")
  func earlierRunFramesLeftOut() throws {
    let folder = TemporaryFolder("watch-earlier-run").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try Self.smallScene(in: folder)
    #expect(Self.run(["render", scene, "--frames", "10..21", "--out", folder + "/out"]).0 == 0)
    #expect(Self.run(["render", scene, "--frames", "10..13", "--out", folder + "/out"]).0 == 0)
    let run = try RunFolder.load(folder + "/out")
    #expect(run.frames == [10, 11, 12, 13])
    #expect(run.earlierRunFrameCount == 8)
    let (code, text) = Self.run(["video", folder + "/out", folder + "/last.mp4"])
    #expect(code == 0, "\(text)")
    #expect(text.contains("holds 8 frame files of earlier runs"), "\(text)")
    #expect(try MediaTestSupport.probe(folder + "/last.mp4")["nb_read_frames"] as? String == "4")
  }

  @Test("render --video where ffmpeg fails: its words, exit 73, every PNG and run.json written")
  func renderVideoFails() throws {
    let folder = TemporaryFolder("render-video-fails").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try Self.smallScene(in: folder)
    // A folder where ffmpeg's temporary output should be: real ffmpeg cannot open it. (A
    // missing output folder is refused before the first frame, so it cannot make ffmpeg fail.)
    let video = folder + "/run.mp4"
    try FileManager.default.createDirectory(
      atPath: video + FileIO.temporarySuffix + String(getpid()), withIntermediateDirectories: false)
    let (code, text) = Self.run([
      "render", scene, "--frames", "0..5", "--out", folder + "/out", "--video", video,
    ])
    #expect(code == 73)
    #expect(text.contains("ffmpeg failed") && text.contains("Is a directory"), "\(text)")
    for frame in 0...5 {
      #expect(
        FileManager.default.fileExists(atPath: folder + "/out/" + RunFolder.frameName(frame)))
    }
    #expect(FileManager.default.fileExists(atPath: folder + "/out/run.json"))
    let trace = try String(contentsOfFile: folder + "/out/trace.jsonl", encoding: .utf8)
    #expect(trace.split(separator: "\n").count == 6)
  }

  @Test(
    "usage mistakes exit 64",
    arguments: [
      ["video"], ["video", "a"], ["video", "a", "b", "c"], ["video", "a", "b", "--crf", "99"],
      ["video", "a", "b", "--preset", "warp"], ["report"], ["report", "a", "b"],
    ])
  func usage(arguments: [String]) {
    #expect(Self.run(arguments).0 == 64)
  }

  @Test("a folder that is not there exits 66")
  func missingFolder() {
    #expect(Self.run(["report", "/nonexistent/run"]).0 == 66)
    #expect(Self.run(["video", "/nonexistent/run", "/tmp/x.mp4"]).0 == 66)
  }
}
