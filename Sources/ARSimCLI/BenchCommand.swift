import ARCameraImages
import ARFormats
import ARRender
import ARReplay
import ARSession
import ARSupport
import Foundation

/// `arsim bench [B1|B2|B3|B4|B5|B6|S1 …] [--frames N] [--threads N] [--supersampling N] [--png fast|small]
/// [--sequential] [--instruction-set automatic|baseline|avx2|avx512] [--size WxH] [--spheres N]
/// [--track FILE] [--out DIR] [--participants N]`:
/// runs the benchmark scenes (Documentation/Performance.md; none named: B1, B2, B3 and S1) and
/// prints the processor, per-stage medians,
/// frames/s, the load check, threads, the rasterizer build and peak memory.
enum BenchCommand {
  static func run(_ arguments: [String], output: CommandOutput) throws -> ExitCode {
    if arguments.first == "live" {
      return try LiveBenchCommand.run(Array(arguments.dropFirst()), output: output)
    }
    let args = try Arguments(
      arguments,
      valueOptions: [
        "--frames", "--threads", "--supersampling", "--png", "--track", "--out",
        "--instruction-set", "--size", "--spheres", "--participants",
      ],
      flagOptions: ["--sequential"])
    var scenes: [BenchScene] = []
    var strokeLog = args.positionals.isEmpty
    var collaboration = false
    for name in args.positionals {
      if name.uppercased() == "S1" {
        strokeLog = true
        continue
      }
      if name.uppercased() == "B4" {
        collaboration = true
        continue
      }
      guard let scene = BenchScene(rawValue: name.uppercased()) else {
        throw UsageError(
          "unknown benchmark \(InputText.quoted(name)) (B1, B2, B3, B4, B5, B6, S1; or bench live first)"
            + didYouMean(name, among: ["live"]))
      }
      scenes.append(scene)
    }
    if scenes.isEmpty, args.positionals.isEmpty {
      scenes = BenchScene.allCases.filter(\.runsByDefault)
    }
    let participants =
      try args.integer("--participants", in: 2...64) ?? CollaborationBench.defaultParticipants
    if args.value("--participants") != nil, !collaboration {
      throw UsageError("--participants is B4's option: name B4 too")
    }
    // B4 and S1 have sizes and loads of their own: with only them named, these options would
    // be ignored without a word.
    let sizing = ["--size", "--spheres"].filter { args.value($0) != nil }
    if !sizing.isEmpty, scenes.isEmpty {
      throw UsageError(
        "\(sizing.joined(separator: " and ")) set B1, B2, B3, B5 and B6's size and load: name "
          + "one of them too (B4 and S1 keep their own)")
    }
    var settings = BenchSettings(folder: args.value("--out") ?? "")
    settings.frames = try args.integer("--frames", in: 1...100_000) ?? 300
    settings.threads = try args.integer("--threads", in: 0...1024) ?? 0
    settings.supersampling = try args.integer("--supersampling", in: 1...8) ?? 1
    settings.png = args.value("--png") ?? "fast"
    guard ["fast", "small"].contains(settings.png) else {
      throw UsageError("--png \(InputText.quoted(settings.png)): expected fast or small")
    }
    if let text = args.value("--size") {
      settings.size = try parseSize(text)
    }
    settings.sphereCount = try args.integer("--spheres", in: 1...1_000_000)
    if let name = args.value("--instruction-set") {
      // Case-insensitive, like the scene names (`AVX2`, `b3`).
      guard let instructionSet = InstructionSet(rawValue: name.lowercased()) else {
        throw UsageError(
          "--instruction-set \(InputText.quoted(name)): expected automatic, baseline, avx2 or avx512"
        )
      }
      settings.instructionSet = instructionSet
    }
    if let track = args.value("--track") {
      // As --size: S1 replays a stroke log, no camera, so the track would be ignored.
      guard !scenes.isEmpty || collaboration else {
        throw UsageError(
          "--track sets the camera track of B1…B6: name one of them too (S1 has no camera)")
      }
      settings.trackPath = track
    } else if !scenes.isEmpty || collaboration {
      try checkDefaultTrack(settings.trackPath)
    }
    settings.pipelined = !args.has("--sequential")
    var cleanup: InterruptCleanup?
    if args.value("--out") == nil, !scenes.isEmpty || collaboration {
      // A fixed name under /tmp would let another local user plant links or files there.
      settings.folder = try makePrivateFolder()
      // Ctrl-C or SIGTERM removes it too (a full run writes about 1.8 GB there).
      cleanup = InterruptCleanup(removing: settings.folder)
      output.print(
        "bench: writing into \(settings.folder) (removed afterwards; --out DIR keeps it)")
    }
    defer {
      if let cleanup {
        cleanup.finish()
        try? FileManager.default.removeItem(atPath: settings.folder)
      }
    }
    if !sizing.isEmpty, collaboration || strokeLog {
      output.print(
        "bench: \(sizing.joined(separator: " and ")) apply to \(scenes.map(\.rawValue).joined(separator: ", ")), "
          + "not to \([collaboration ? "B4" : nil, strokeLog ? "S1" : nil].compactMap { $0 }.joined(separator: " or "))"
      )
    }
    output.print(
      ProcessorDescription.current().line(
        cores: Renderer.coreCount,
        rasterizer: Renderer(options: RenderOptions(instructionSet: settings.instructionSet))
          .instructionSet,
        pngFilter: PNGEncoder.filterInstructionSet))
    for scene in scenes {
      let r = try Bench.run(scene, settings: settings)
      let (width, height) = settings.size ?? scene.size
      output.print(
        "\(scene.rawValue) \(width)×\(height), \(r.frames) frames, supersampling "
          + "\(settings.supersampling), png \(scene.writesFrames ? settings.png : "none"), "
          + "\(settings.pipelined ? "pipelined" : "sequential")")
      output.print(
        "  load: spheres in view mean \(formatted(r.meanSpheresInView, 1)) "
          + "(min \(r.minSpheresInView)), projected radius mean "
          + "\(formatted(r.meanProjectedRadius, 1)) px (min \(formatted(r.minProjectedRadius, 1)))")
      output.print(
        "  median ms/frame: "
          + r.medianMilliseconds.map { "\($0.0) \(formatted($0.1, 2))" }.joined(separator: ", "))
      if scene.writesFrames {
        output.print(
          "  median ms/frame waits: "
            + r.medianWaitMilliseconds.map { "\($0.0) \(formatted($0.1, 2))" }.joined(
              separator: ", "))
      }
      if let images = r.cameraImages { printCameraImages(images, frames: r.frames, output: output) }
      output.print(
        "  CPU: \(formatted(r.cpuSeconds * 1000 / Double(max(r.frames, 1)), 1)) ms/frame, "
          + "\(formatted(r.cpuSeconds / max(r.totalSeconds, 1e-9), 2)) of \(Renderer.coreCount) "
          + "cores busy on average")
      output.print(
        "  end to end: \(formatted(r.framesPerSecond, 1)) frames/s "
          + "(\(formatted(r.totalSeconds, 2)) s); threads: render \(r.renderThreads), "
          + "encoders \(scene.writesFrames ? String(r.encoderThreads) : "none"); "
          + "instructions \(r.instructionSet.rawValue)"
          + (scene.writesFrames ? "; mean PNG \(formatted(r.meanPNGBytes / 1024, 0)) KiB" : ""))
      output.print(
        "  peak resident memory so far: \(formatted(Double(r.peakResidentBytes) / 1_048_576, 1)) MiB"
      )
    }
    if collaboration {
      let r = try CollaborationBench.run(settings: settings, participants: participants)
      output.print(
        "B4 collaboration 1280×720, \(r.participants) participants × \(r.frames) frames against "
          + "single views of the same content, \(settings.pipelined ? "pipelined" : "sequential")")
      output.print(
        "  per participant-view frame \(formatted(r.perViewFrameMilliseconds, 2)) ms "
          + "(\(r.participants) views \(formatted(r.multiViewSeconds, 2)) s); single-view scenes "
          + "\(formatted(r.perFrameMilliseconds, 2)) ms/frame (\(r.participants) runs "
          + "\(formatted(r.singleViewSeconds, 2)) s); ratio \(formatted(r.ratio, 3)) (target ≤ 1.2)"
      )
      output.print(
        "  CPU per participant-view frame \(formatted(r.cpuPerViewFrameMilliseconds, 2)) ms "
          + "(user + system \(formatted(r.multiViewCPUSeconds, 2)) s); single-view scenes "
          + "\(formatted(r.cpuPerFrameMilliseconds, 2)) ms/frame "
          + "(\(formatted(r.singleViewCPUSeconds, 2)) s); instructions \(r.instructionSet.rawValue)"
      )
      output.print(
        "  peak resident memory so far: \(formatted(Double(Bench.peakResidentBytes()) / 1_048_576, 1)) MiB"
      )
    }
    if strokeLog {
      let r = StrokeLogBench.run()
      output.print(
        "S1 stroke log: \(r.messages) touch-end messages within 2 s, \(r.ticks) AR ticks, "
          + "no rendering")
      output.print(
        "  \(formatted(r.seconds, 2)) s, \(formatted(Double(r.messages) / max(r.seconds, 1e-9), 0)) "
          + "messages/s; rate check \(formatted(r.rateCheckOperationsPerMessage, 2)) "
          + "operations/message; \(r.warnings) rate warning(s)")
    }
    return .ok
  }

  /// B6's camera-image line: images decoded for the frames, the decoder thread's median
  /// decode and resample times, how long the frame loop waited for its image, the deepest
  /// queue (Documentation/Performance.md, "B6").
  static func printCameraImages(_ c: CameraImageTimings, frames: Int, output: CommandOutput) {
    func milliseconds(_ d: Duration) -> Double {
      Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
    }
    func median(_ values: [Duration]) -> Double {
      let sorted = values.map(milliseconds).sorted()
      guard !sorted.isEmpty else { return 0 }
      let n = sorted.count
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    let maximumWait = c.frameLoopWait.map(milliseconds).max() ?? 0
    output.print(
      "  camera images: \(c.decode.count) decoded for \(frames) frames; median ms/image: decode "
        + "\(formatted(median(c.decode), 2)), resample \(formatted(median(c.resample), 2)) "
        + "(decoder thread); frame loop waited median \(formatted(median(c.frameLoopWait), 2)) "
        + "ms, max \(formatted(maximumWait, 2)) ms; queue held at most \(c.mostQueued) of "
        + "\(c.capacity)")
  }

  /// `WxH` (or `W×H`) with both in 1…16384.
  /// - Throws: `UsageError` naming the option.
  static func parseSize(_ text: String) throws -> (width: Int, height: Int) {
    let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (1...16384).contains(width), (1...16384).contains(height)
    else {
      throw UsageError(
        "--size \(InputText.quoted(text)): expected WIDTHxHEIGHT, each 1…16384 (e.g. 1280x720)")
    }
    // The scene file's own limit, said here: the scene the bench writes would name its
    // temporary path.
    guard width * height <= ImageLimits.maximumPixels else {
      throw UsageError(
        "--size \(InputText.quoted(text)): \(width * height) pixels, over the limit of "
          + "\(ImageLimits.maximumPixels >> 20) Mi pixels an image")
    }
    return (width, height)
  }

  /// A new folder only this user can enter (`mkdtemp`, mode 0700) in `$TMPDIR` or `/tmp`.
  /// - Throws: `InputError` `.cannotCreate`.
  static func makePrivateFolder() throws -> String {
    var base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1, base.hasSuffix("/") { base.removeLast() }
    var template = Array((base + "/arsim-bench-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw InputError(
        .cannotCreate, InputLocation(file: base + "/arsim-bench-XXXXXX"),
        String(cString: strerror(errno)))
    }
    return String(cString: made)
  }

  /// Checks that the default track (a path relative to the current folder) exists.
  /// - Throws: `InputError` `.missingInput` (exit 66) saying to run from the repository root or
  ///   pass `--track`.
  static func checkDefaultTrack(_ path: String) throws {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    throw InputError(
      .missingInput, InputLocation(file: path),
      "the default track is looked up from the current folder: run arsim bench from the "
        + "repository root, or pass --track FILE (an ARKit data-logger camera_pose.txt)")
  }
}
