import ARChildProcess
import ARReport
import ARTestSupport
import ARVideoExport
import Foundation
import Testing

/// `render --video` with an ffmpeg that stops reading, and after a run killed mid-video.
@Suite struct VideoStallTests {
  /// The built `arsim` beside the test executable.
  static func arsim() throws -> String {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arsim").path
    try #require(FileManager.default.fileExists(atPath: path), "build arsim first: \(path)")
    return path
  }

  /// An "ffmpeg" that says one line and then never reads its input (its `sleep` ends it
  /// after 30 s whatever happens).
  static func stalledFFmpeg(in folder: String) throws -> String {
    let path = folder + "/ffmpeg"
    try "#!/bin/sh\necho 'fake ffmpeg: stopped reading' >&2\nexec sleep 30\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  @Test("--video with an ffmpeg that stops reading: 73 within the timeout, its words, PNGs whole")
  func stalledFFmpeg() throws {
    let folder = TemporaryFolder("video-stall").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try WatchCommandTests.smallScene(in: folder)
    var environment = ProcessInfo.processInfo.environment
    environment["ARSIM_FFMPEG"] = try Self.stalledFFmpeg(in: folder)
    let start = ContinuousClock.now
    // 41 frames of 96×72 I420 (10 368 bytes each): the 64 KiB pipe is full after 6.
    let (termination, _, errorLines) = try ChildProcess.run(
      try Self.arsim(),
      [
        "render", scene, "--frames", "0..40", "--out", folder + "/out", "--video",
        folder + "/run.mp4", "--video-timeout", "1",
      ], timeoutSeconds: 60, environment: environment)
    let text = errorLines.joined(separator: "\n")
    #expect(termination.exitStatus == 73, "\(text)")
    #expect(ContinuousClock.now - start < .seconds(25), "the stall was not cut at 1 s")
    #expect(text.contains("did not accept input within 1.0 s"), "\(text)")
    #expect(text.contains("fake ffmpeg: stopped reading"), "\(text)")
    let run = try RunFolder.load(folder + "/out")
    #expect(run.frames == Array(0...40))
    #expect(FileManager.default.fileExists(atPath: folder + "/out/run.json"))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(!left.contains { $0.hasPrefix("run.mp4") }, "\(left)")
  }

  @Test("--video-timeout takes seconds and needs --video")
  func timeoutOption() throws {
    let folder = TemporaryFolder("video-timeout-option").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try WatchCommandTests.smallScene(in: folder)
    for (arguments, message) in [
      (["--video", folder + "/a.mp4", "--video-timeout", "0"], "seconds from 0.1 to 86400"),
      (["--video", folder + "/a.mp4", "--video-timeout", "soon"], "seconds from 0.1 to 86400"),
      (["--video-timeout", "5"], "--video-timeout needs --video OUT.mp4"),
    ] {
      let (code, text) = WatchCommandTests.run(
        ["render", scene, "--frames", "0..1", "--out", folder + "/out"] + arguments)
      #expect(code == 64, "\(text)")
      #expect(text.contains(message), "\(text)")
    }
  }

  @Test("a killed run's OUT.mp4.arsim-tmp-PID is removed and reported; a live one's is kept")
  func staleTemporaryRemoved() throws {
    let folder = TemporaryFolder("video-stale").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scene = try WatchCommandTests.smallScene(in: folder)
    // A process id that has ended: a child that ran and was reaped.
    let ended = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 0"])
    _ = try ended.finish(timeoutSeconds: 10)
    let stale = folder + "/run.mp4.arsim-tmp-\(ended.pid)"
    // A running process's (this test's parent); the encoder's own name is this process's.
    let live = folder + "/run.mp4.arsim-tmp-\(getppid())"
    for path in [stale, live] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data([0, 0, 0, 24])))
    }
    let (code, text) = WatchCommandTests.run([
      "render", scene, "--frames", "0..3", "--out", folder + "/out", "--video", folder + "/run.mp4",
    ])
    #expect(code == 0, "\(text)")
    #expect(text.contains("removed \(stale), left by an interrupted run"), "\(text)")
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(try MediaTestSupport.probe(folder + "/run.mp4")["nb_read_frames"] as? String == "4")
    // `arsim video` of the same frames removes one too (a newcomer found it never did).
    #expect(FileManager.default.createFile(atPath: stale, contents: Data([0, 0, 0, 24])))
    let (videoCode, videoText) = WatchCommandTests.run([
      "video", folder + "/out", folder + "/run.mp4",
    ])
    #expect(videoCode == 0, "\(videoText)")
    #expect(videoText.contains("arsim video: removed \(stale), left by an interrupted run"))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
  }

  /// An "ffmpeg" that writes its process id to `pid`, copies its input into the output file it
  /// is given (its last argument) and then, like a real one finishing a long file, stays 30 s.
  static func slowFFmpeg(in folder: String) throws -> String {
    let path = folder + "/ffmpeg"
    try """
    #!/bin/sh
    echo $$ > \(folder)/pid
    for out; do :; done
    cat > "$out"
    exec sleep 30

    """.write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  @Test(
    "SIGINT or SIGTERM during render --video kills ffmpeg and removes its temporary file",
    arguments: [SIGINT, SIGTERM])
  func interruptedVideo(signal: Int32) throws {
    let folder = TemporaryFolder("video-interrupt").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The small scene's 10 s at 1000 frames/s: far more frames than it renders before the
    // signal, so only the signal ends it in time.
    let scene = try WatchCommandTests.smallScene(in: folder)
    let text = try String(contentsOfFile: scene, encoding: .utf8)
    let fast = text.replacingOccurrences(of: "\"fps\": 30", with: "\"fps\": 1000")
      .replacingOccurrences(
        of: "\"duration\": 10.0", with: "\"duration\": 10.0, \"arFrameRate\": 1000")
    try #require(fast.contains("\"fps\": 1000") && fast.contains("\"arFrameRate\": 1000"))
    try fast.write(toFile: scene, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Self.arsim())
    process.arguments = ["render", scene, "--out", folder + "/out", "--video", folder + "/run.mp4"]
    var environment = ProcessInfo.processInfo.environment
    environment["ARSIM_FFMPEG"] = try Self.slowFFmpeg(in: folder)
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    func temporaries() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
        $0.hasPrefix("run.mp4.arsim-tmp-")
      }
    }
    // Until ffmpeg has started and written into its temporary file (at most 60 s).
    let deadline = Date(timeIntervalSinceNow: 60)
    var ffmpeg: pid_t = 0
    while process.isRunning, Date() < deadline {
      let text = (try? String(contentsOfFile: folder + "/pid", encoding: .utf8)) ?? ""
      ffmpeg = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      let size = temporaries().first.flatMap {
        try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int
      }
      if ffmpeg > 0, (size ?? 0) > 0 { break }
      usleep(20_000)
    }
    try #require(ffmpeg > 0 && !temporaries().isEmpty, "ffmpeg did not start within 60 s")
    // The fake ffmpeg is a child of arsim; it is gone only if arsim killed it.
    defer { kill(ffmpeg, SIGKILL) }
    kill(process.processIdentifier, signal)
    let end = Date(timeIntervalSinceNow: 20)
    while process.isRunning, Date() < end { usleep(20_000) }
    try #require(!process.isRunning, "arsim did not end within 20 s of signal \(signal)")
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    // Killed, so gone (or a zombie until whatever adopted it reaps it) within seconds, long
    // before its 30 s sleep would end.
    func runs(_ pid: pid_t) -> Bool {
      guard kill(pid, 0) == 0 else { return false }
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }
    let gone = Date(timeIntervalSinceNow: 10)
    while runs(ffmpeg), Date() < gone { usleep(20_000) }
    #expect(!runs(ffmpeg), "ffmpeg \(ffmpeg) still runs")
    #expect(temporaries().isEmpty, "\(temporaries())")
    #expect(!FileManager.default.fileExists(atPath: folder + "/run.mp4"))
  }
}
