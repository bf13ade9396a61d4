import ARCameraImages
import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport
import Foundation

/// Options for one `arsim render` run.
public struct ReplayOptions: Sendable {
  /// Output folder (created if missing; never deleted).
  public var outputDirectory: String
  /// Inclusive range of output frames to write (nil = all). Scene logic still runs from τ = 0,
  /// so the frames are byte-identical to the same frames of a full run.
  public var frameRange: ClosedRange<Int>?
  /// Render threads (0 = all cores).
  public var threads: Int
  /// Called after each written frame (progress display), in frame order, possibly on an
  /// encoder thread.
  public var progress: (@Sendable (ReplayProgress) -> Void)?
  /// Encode and write frame i on other threads while frame i + 1 renders (default true). The
  /// files written are byte-identical either way.
  public var pipelined: Bool
  /// Write frame PNGs, events and trace lines (default true); `false` renders only (the
  /// `arsim bench` B3 case) and writes just run.json.
  public var writesFrames: Bool
  /// Which build of the rasterizer runs (default `.automatic`); the bytes are the same.
  public var instructionSet: InstructionSet = .automatic
  /// When another process holds the output folder's lock (`OutputFolder.lock(waiting:)`),
  /// wait for it (true) or fail at once with exit 75 (false, the default).
  public var waitsForLock = false
  /// Told `waiting for pid N's lock on DIR` once when the run has to wait for the lock.
  public var lockWaitNotice: (@Sendable (String) -> Void)?
  /// The output folder's lock when the caller took it already (a live run locks the folder
  /// before it binds or connects, so a refused run never touches the folder or a peer); nil:
  /// the run takes it.
  public var heldLock: OutputFolderLock?
  /// Fields `run.json` gets after `warnings` (the command line's `sceneHash`, `sceneInputs`
  /// and `shard`), in order.
  public var runFields: [(String, JSONValue)] = []
  /// Extra sessions run after the scene's own each tick (the bench's stroke rig).
  var extraSessions: (@Sendable () -> [any Session])?
  /// Sinks that get every written frame after the PNG files (a socket stream, a video
  /// encoder), made once per run, in order; the PNG sink's timings are the run's. Default none.
  public var frameSinks: (@Sendable (FrameSinkSetup) throws -> [any FrameSink])?
  /// Draws the sessions' on-screen text over each frame after rasterizing, before any sink
  /// (the HUD). Default none: frames are the rasterizer's bytes.
  public var overlay: (any FrameOverlay)?
  /// `--debug feature-points`: the feature points of each frame drawn as yellow dots over it,
  /// as ARSCNView's `showFeaturePoints` debug option.
  public var drawsFeaturePoints = false
  /// Extra top-level run.json fields asked for once the sinks have finished (a live stream's
  /// counts), after all others. Default none.
  public var finalRunFields: (@Sendable () -> [(String, JSONValue)])?

  /// Creates options.
  public init(
    outputDirectory: String, frameRange: ClosedRange<Int>? = nil, threads: Int = 0,
    progress: (@Sendable (ReplayProgress) -> Void)? = nil
  ) {
    self.outputDirectory = outputDirectory
    self.frameRange = frameRange
    self.threads = threads
    self.progress = progress
    pipelined = true
    writesFrames = true
  }
}

/// Progress of a run.
public struct ReplayProgress: Sendable {
  /// Frames written so far.
  public var framesDone: Int
  /// Frames this run will write.
  public var framesTotal: Int
  /// Seconds since the run started.
  public var elapsedSeconds: Double
}

/// What a run did.
public struct ReplaySummary: Sendable {
  /// Output frame indices written, ascending.
  public var framesWritten: [Int]
  /// Seconds spent per stage over the whole run.
  public var stageSeconds: [(String, Double)]
  /// Total wall-clock seconds.
  public var totalSeconds: Double
  /// Events raised (all ticks up to the last written frame).
  public var eventCount: Int
  /// Stage times of each written frame, in frame order.
  public var frameTimings: [FrameTiming]
  /// Render threads used.
  public var renderThreads: Int
  /// Frames encoded at once on encoder threads (0 = sequential).
  public var encoderThreads: Int
  /// The rasterizer build that ran (`Renderer.instructionSet`).
  public var instructionSet: InstructionSet
  /// `warning` events raised (all ticks up to the last written frame, like `eventCount`).
  public var warningEventCount = 0
  /// The first `warning` event, as `frame F: reason (line N)`; nil when there was none.
  public var firstWarningEvent: String?
  /// Warnings of the whole run: the scene's load warnings plus the warning events.
  public var warningCount = 0
  /// The first of them (a load warning before any event); nil when there was none.
  public var firstWarning: String?
  /// Recorded camera images: decode, resample and frame-loop wait times; nil without
  /// `background.recording`.
  public var cameraImages: CameraImageTimings?
  /// Events of the recorded camera images, counted in `eventCount` too. Unlike the others
  /// they are raised only for the frames a run renders (a range decodes no image of the
  /// frames before it), so a merge of shards sums them.
  public var cameraImageEventCount = 0
  /// The `warning` events among `cameraImageEventCount` (in `warningEventCount` too).
  public var cameraImageWarningCount = 0
}

/// The frame loop (DESIGN §1): AR ticks drive sessions and constraints; output frames are
/// rendered, encoded and written with their trace and events lines.
public struct Replay {
  /// The scene.
  public let scene: ReplayScene

  /// Creates a replay of a loaded scene.
  public init(scene: ReplayScene) { self.scene = scene }

  /// The ARSim version written to run.json.
  public static let version = "0.1.0"

  /// Runs the replay and writes `frame_NNNNN.png` (+ `depth_NNNNN.png`), `events.jsonl`,
  /// `trace.jsonl` and `run.json` into the output folder.
  /// - Throws: `LocatedError`s for unreadable inputs met during the run (background images,
  ///   track times out of range) and `.cannotCreate` for output failures. Frames already
  ///   written stay valid.
  public func run(_ options: ReplayOptions) throws -> ReplaySummary {
    let schedule = scene.schedule
    let range = try scene.frames(options.frameRange)
    let directory = options.outputDirectory
    try checkOutputsSpareInputs(directory: directory, frames: options.writesFrames ? range : nil)
    try FileIO.createDirectory(directory)
    let folder = try OutputFolder(directory)
    // One writer per folder: a second run would interleave its lines with this one's.
    let lock =
      try options.heldLock
      ?? folder.lock(waiting: options.waitsForLock, notice: options.lockWaitNotice)
    defer { if options.heldLock == nil { lock.release() } }
    FileIO.removeStaleTemporaryFiles(in: directory)
    // The files replaced before the first frame are all checked before the first is touched:
    // a link or folder at trace.jsonl was refused after events.jsonl was emptied and run.json
    // removed. (A frame's name is checked when that frame is committed, as a frame that
    // cannot be committed ends the run with the lines so far.)
    for name in ["run.json", "events.jsonl", "trace.jsonl"] { try folder.checkReplaceable(name) }
    // A run.json describes the frames of a finished run: an earlier run's goes before the line
    // files are truncated, so an interrupted folder never has one describing other frames.
    do {
      try folder.remove("run.json")
    } catch let error as InputError {
      throw InputError(
        error.kind, error.location, "cannot remove the previous run's file: " + error.reason)
    }
    let events = try LineFile(truncating: "events.jsonl", in: folder)
    let trace = try LineFile(truncating: "trace.jsonl", in: folder)

    let clock = ContinuousClock()
    let runStart = clock.now
    var stage: [String: Duration] = [
      "sceneUpdate": .zero, "render": .zero, "encode": .zero, "write": .zero,
    ]

    var state = try ReplayState(scene: scene)
    state.keepsFeaturePoints = state.keepsFeaturePoints || options.drawsFeaturePoints
    if let extra = options.extraSessions { state.sessions += extra() }
    let renderThreads = options.threads > 0 ? options.threads : Renderer.coreCount
    let renderer = Renderer(
      options: RenderOptions(
        threads: renderThreads, supersampling: scene.supersampling,
        background: .solid(.black), writesDepth: scene.writesDepth,
        instructionSet: options.instructionSet))
    let writer = FrameWriter(
      directory: directory, folder: folder, png: scene.png, events: events, trace: trace)
    // Every core may encode a frame while the scene thread renders the next one.
    let encoderThreads = options.pipelined ? max(2, Renderer.coreCount) : 0
    let total = range.count
    let progress = options.progress
    let pipeline = FramePipeline(
      writer: writer, maxInFlight: encoderThreads,
      progress: progress.map { report in
        { @Sendable done in
          report(
            ReplayProgress(
              framesDone: done, framesTotal: total,
              elapsedSeconds: Self.seconds(ContinuousClock().now - runStart)))
        }
      })
    var sinks: [any FrameSink] = options.writesFrames ? [pipeline] : []
    if let makeSinks = options.frameSinks {
      sinks += try makeSinks(
        FrameSinkSetup(
          outputDirectory: directory, frames: range, sceneName: scene.name,
          sessions: scene.sessions.map(\.configuration), imageWriter: scene.imageWriter))
    }
    var renderOnlyTimings: [FrameTiming] = []
    // The render list's walk records the geometry nodes' world transforms for the trace line.
    var geometryNodes: [VisitedGeometryNode] = []
    // One buffer for every frame's trace line (B2's are 3.8 MB), freed when the run ends.
    var traceBytes = TraceLineBytes()
    defer { traceBytes.deallocate() }
    var eventCount = 0
    var warningEventCount = 0
    var cameraImageEventCount = 0
    var cameraImageWarningCount = 0
    var firstWarningEvent: String?
    let backgrounds = try FrameBackgrounds(scene: scene, frames: range)

    do {
      for frame in 0...range.upperBound {
        let target = schedule.tick(forFrame: frame)
        let updateStart = clock.now
        var frameEvents: [Event] = []
        while state.nextTick <= target {
          frameEvents += try state.advance()
        }
        eventCount += frameEvents.count
        for event in frameEvents where event.name == "warning" {
          warningEventCount += 1
          if firstWarningEvent == nil { firstWarningEvent = Self.describe(event, frame: frame) }
        }
        let sceneUpdate = clock.now - updateStart
        stage["sceneUpdate", default: .zero] += sceneUpdate
        guard range.contains(frame) else { continue }

        let (background, backgroundEvents) = try backgrounds.next(frame)
        frameEvents += backgroundEvents
        eventCount += backgroundEvents.count
        cameraImageEventCount += backgroundEvents.count
        for event in backgroundEvents where event.name == "warning" {
          warningEventCount += 1
          cameraImageWarningCount += 1
          if firstWarningEvent == nil { firstWarningEvent = Self.describe(event, frame: frame) }
        }
        let renderStart = clock.now
        var frameRenderer = renderer
        frameRenderer.options.background = background
        let camera = state.camera
        geometryNodes.removeAll(keepingCapacity: true)
        var list = RenderList(root: state.world, visitedGeometry: &geometryNodes)
        list.environment = scene.environment?.geometry
        list.environmentWorldFromCamera = state.traceTrueCamera?.worldFromCamera
        var rendered = frameRenderer.render(list, camera: camera)
        if options.drawsFeaturePoints {
          FeaturePointDots.draw(state.featurePointsInView, camera: camera, on: &rendered.image)
        }
        let t = schedule.time(ofFrame: frame)
        if let overlay = options.overlay {
          overlay.draw(
            state.sessions.flatMap { $0.overlayText() } + state.trackingOverlayText,
            on: &rendered, frame: frame, t: t)
        }
        let render = clock.now - renderStart
        stage["render", default: .zero] += render

        guard !sinks.isEmpty else {
          renderOnlyTimings.append(
            FrameTiming(
              frame: frame, sceneUpdate: sceneUpdate, render: render, encode: .zero,
              write: .zero))
          options.progress?(
            ReplayProgress(
              framesDone: renderOnlyTimings.count, framesTotal: total,
              elapsedSeconds: Self.seconds(clock.now - runStart)))
          continue
        }
        let traceStart = clock.now
        TraceLine.write(
          frame: frame, t: t, camera: camera, trueCamera: state.traceTrueCamera,
          geometryNodes: geometryNodes,
          sessionFields: state.tracking.traceFields + state.sessions.flatMap { $0.traceFields() },
          into: &traceBytes)
        let traceText = traceBytes.text
        let eventText = frameEvents.map { $0.json(frame: frame).text + "\n" }.joined()
        var output = OutputFrame(
          frame: frame, t: t, rendered: rendered, traceLine: traceText, eventLines: eventText,
          sceneUpdate: sceneUpdate, render: render)
        output.traceLineTime = clock.now - traceStart
        for sink in sinks { try sink.submit(output) }
      }
      try backgrounds.finish()
    } catch {
      // Frames handed over before the failure are still published.
      backgrounds.cancel()
      for sink in sinks { _ = try? sink.finish() }
      throw error
    }
    var sinkTimings: [[FrameTiming]] = []
    for sink in sinks { sinkTimings.append(try sink.finish()) }
    let timings = sinkTimings.first ?? renderOnlyTimings
    for timing in timings {
      stage["encode", default: .zero] += timing.encode
      stage["write", default: .zero] += timing.write
    }
    let written = sinks.isEmpty ? [] : timings.map(\.frame)

    let totalSeconds = Self.seconds(clock.now - runStart)
    let stages = ["sceneUpdate", "render", "encode", "write"].map {
      ($0, Self.seconds(stage[$0] ?? .zero))
    }
    var summary = ReplaySummary(
      framesWritten: written, stageSeconds: stages, totalSeconds: totalSeconds,
      eventCount: eventCount, frameTimings: timings, renderThreads: renderThreads,
      encoderThreads: encoderThreads, instructionSet: renderer.instructionSet)
    summary.warningEventCount = warningEventCount
    summary.firstWarningEvent = firstWarningEvent
    summary.warningCount = scene.warnings.count + warningEventCount
    summary.firstWarning = scene.warnings.first ?? firstWarningEvent
    summary.cameraImages = backgrounds.cameraImageTimings
    summary.cameraImageEventCount = cameraImageEventCount
    summary.cameraImageWarningCount = cameraImageWarningCount
    try writeRunJSON(summary, options: options, folder: folder)
    return summary
  }

  /// Refuses to run when a file this run would write in `directory` (events, trace, run.json,
  /// the frames and depth maps of `frames`) is one of the scene's inputs, compared by file
  /// identity (device and inode), so `DIR/./events.jsonl`, links and hard links are caught.
  /// `frames` nil: no frames are written (a `stream` run sends them instead). `run` checks
  /// it; a live run (`LiveRun`) checks it before it binds a port or connects, since it writes
  /// `events.jsonl` even when the connection fails.
  /// - Throws: `InputError` `.usage` naming the output and the input, before anything is
  ///   written.
  public func checkOutputsSpareInputs(directory: String, frames: ClosedRange<Int>?) throws {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return  // no folder yet: nothing in it can be an input
    }
    var inputs: [FileIdentity: String] = [:]
    for input in scene.inputPaths.reversed() {
      if let identity = FileIO.identity(of: input) { inputs[identity] = input }
    }
    for name in names.sorted() {
      guard isOutputName(name, frames: frames) else { continue }
      let output = directory + "/" + name
      if let identity = FileIO.identity(of: output), let input = inputs[identity] {
        throw InputError(
          .usage, InputLocation(file: output),
          "would overwrite the input \(InputText.quotedPath(input)); choose another output folder")
      }
    }
  }

  /// Whether this run writes a file called `name` into its output folder.
  private func isOutputName(_ name: String, frames: ClosedRange<Int>?) -> Bool {
    if ["events.jsonl", "trace.jsonl", "run.json"].contains(name) { return true }
    guard let frames, let (frame, kind) = FrameFileName.parse(name), frames.contains(frame) else {
      return false
    }
    return kind == .frame || scene.writesDepth
  }

  private func writeRunJSON(
    _ summary: ReplaySummary, options: ReplayOptions, folder: OutputFolder
  ) throws {
    let k = scene.outputIntrinsics
    let perFrame = summary.framesWritten.isEmpty ? 0 : 1 / Double(summary.framesWritten.count)
    var fields: [(String, JSONValue)] = [
      ("scene", .string(scene.name)),
      ("sceneFile", .string(scene.sceneFilePath)),
      ("arsimVersion", .string(Self.version)),
      ("framesWritten", .array(summary.framesWritten.map { .integer($0) })),
      ("frameCount", .integer(scene.schedule.frameCount)),
      ("fps", .number(scene.schedule.fps)),
      ("arFrameRate", .number(scene.schedule.arFrameRate)),
      ("width", .integer(k.width)), ("height", .integer(k.height)),
      ("viewport", .string(scene.viewport.rawValue)),
      (
        "threads",
        .integer(
          summary.renderThreads)
      ),
      ("supersampling", .integer(scene.supersampling)),
      ("events", .integer(summary.eventCount)),
      ("warnings", .array(scene.warnings.map { .string($0) })),
      ("warningEvents", .integer(summary.warningEventCount)),
      ("warningCount", .integer(summary.warningCount)),
      ("firstWarning", summary.firstWarning.map { .string($0) } ?? .null),
    ]
    // With recorded images: their events of the frames written (a merge sums them, Scaling.md).
    if summary.cameraImages != nil {
      fields += [
        ("cameraImageEvents", .integer(summary.cameraImageEventCount)),
        ("cameraImageWarnings", .integer(summary.cameraImageWarningCount)),
      ]
    }
    fields += [
      (
        "timing",
        .object(
          [("totalSeconds", .number(summary.totalSeconds))]
            + summary.stageSeconds.map { ($0.0 + "Seconds", JSONValue.number($0.1)) }
            + summary.stageSeconds.map {
              ($0.0 + "MillisecondsPerFrame", JSONValue.number($0.1 * 1000 * perFrame))
            })
      )
    ]
    var json = JSONValue.object(fields)
    // The caller's fields (scene hash, shard) go before the timing.
    if case .object(var pairs) = json, let timing = pairs.firstIndex(where: { $0.0 == "timing" }) {
      pairs.insert(contentsOf: options.runFields, at: timing)
      json = .object(pairs)
    }
    if case .object(let fields) = json, let extra = options.finalRunFields?() {
      json = .object(fields + extra)
    }
    try folder.writeAtomically(Array((json.text + "\n").utf8), name: "run.json")
  }

  /// `frame 12: reason (line 7)` for a warning event: its description (`Event.summary`),
  /// quoted to at most 200 characters, and the input line it names, if any.
  static func describe(_ event: Event, frame: Int) -> String {
    var text = "frame \(frame): "
    if let reason = event.summary {
      text += reason.count > 200 ? String(reason.prefix(200)) + "…" : reason
    } else {
      text += "warning"
    }
    if case .integer(let line)? = event.fields.first(where: { $0.0 == "line" })?.1 {
      text += " (line \(line))"
    }
    return text
  }

  static func seconds(_ d: Duration) -> Double {
    let (s, attoseconds) = d.components
    return Double(s) + Double(attoseconds) * 1e-18
  }
}
