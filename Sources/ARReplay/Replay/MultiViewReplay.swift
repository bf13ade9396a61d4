import ARFormats
import ARRender
import ARScene
import ARSession
import ARSupport
import Foundation

/// A replay of a scene with several views (Documentation/Design.md §2.2, "Several views"): the
/// frame loop runs once per view into `DIR/<view>/` (frames, trace, events, that view's
/// run.json), then the files the views share (a collaborative scene's `messages.jsonl`) and
/// one `DIR/run.json` for the whole run are written. The views' frame loops run at the same
/// time, one thread each, so that their sessions can share work (one collaborative simulation
/// per tick for every view, `MultiViewConfiguration.makeRun`). Every view runs the same scene
/// logic from τ = 0, so a view rendered alone, or a frame range, gives the same bytes as in a
/// full run.
public struct MultiViewReplay {
  /// The scene (its `multiView` is not nil).
  public let scene: ReplayScene

  /// Creates the replay.
  /// - Precondition: `scene.multiView != nil`.
  public init(scene: ReplayScene) {
    precondition(scene.multiView != nil, "MultiViewReplay needs a scene with several views")
    self.scene = scene
  }

  /// What a run did, per view in output order.
  public struct Summary: Sendable {
    /// (view name, its run's summary).
    public var views: [(name: String, summary: ReplaySummary)]
    /// Total wall-clock seconds.
    public var totalSeconds: Double
    /// The scene's load warnings (every view's run counts them too).
    public var sceneWarnings: [String] = []

    /// `warning` events of all views.
    public var warningEventCount: Int { views.map(\.summary.warningEventCount).reduce(0, +) }
    /// Warnings of the whole run: the scene's load warnings once plus every view's events.
    public var warningCount: Int { sceneWarnings.count + warningEventCount }
    /// The first of them: a load warning, else the first view's (in output order) first event
    /// as `view V: frame F: reason (line N)`; nil when there was none.
    public var firstWarning: String? {
      if let first = sceneWarnings.first { return first }
      for view in views {
        if let event = view.summary.firstWarningEvent { return "view \(view.name): \(event)" }
      }
      return nil
    }
  }

  /// Renders the views named in `only` (all when nil), each with `options` but into its own
  /// folder under `options.outputDirectory`.
  /// - Throws: `.usage` for an unknown view name; whatever `Replay.run` throws.
  public func run(_ options: ReplayOptions, only: Set<String>? = nil) throws -> Summary {
    let clock = ContinuousClock()
    let start = clock.now
    guard let (_, configuration) = scene.multiView else { preconditionFailure() }
    let names = configuration.views.map(\.name)
    if let only {
      for name in only.sorted() where !names.contains(name) {
        throw InputError(
          .usage, InputLocation(file: scene.sceneFilePath),
          "--participant \(InputText.quoted(name)): no such participant (the scene has "
            + "\(names.joined(separator: ", ")))")
      }
    }
    // A --frames outside the scene is refused before the folder is made or its run.json goes.
    _ = try scene.frames(options.frameRange)
    try FileIO.createDirectory(options.outputDirectory)
    // The shared files (run.json, messages.jsonl) have one writer too; each view's folder
    // is locked by its own run.
    let lock = try OutputFolder(options.outputDirectory).lock(
      waiting: options.waitsForLock, notice: options.lockWaitNotice)
    defer { lock.release() }
    let runJSONPath = options.outputDirectory + "/run.json"
    if FileIO.exists(runJSONPath) {
      // An interrupted multi-view folder never keeps a run.json that describes another run.
      try? FileManager.default.removeItem(atPath: runJSONPath)
    }
    let indices = names.indices.filter { only?.contains(names[$0]) ?? true }
    let run = configuration.makeRun(views: indices, sceneViewport: scene.viewport)
    // Every view's scene first: a track that does not cover the replay fails before any frame.
    let viewScenes = try indices.map { try scene.scene(forView: $0, session: run.view($0)) }
    let summaries = try Self.runTogether(
      viewScenes, indices: indices, names: names, run: run, options: options)
    let results = zip(indices, summaries).map { (name: names[$0], summary: $1) }
    let lastFrame = summaries.map { $0.framesWritten.last ?? -1 }.max() ?? -1
    let schedule = scene.schedule
    let lastTick = lastFrame >= 0 ? schedule.tick(forFrame: lastFrame) : -1
    let tickTimes = lastTick >= 0 ? (0...lastTick).map { schedule.time(ofTick: $0) } : []
    for output in try run.sharedOutputs(tickTimes: tickTimes) {
      try FileIO.writeAtomically(output.bytes, to: options.outputDirectory + "/" + output.name)
    }
    let total = Self.seconds(clock.now - start)
    let summary = Summary(views: results, totalSeconds: total, sceneWarnings: scene.warnings)
    try writeRunJSON(summary, options: options, ticks: tickTimes.count)
    return summary
  }

  /// Runs the frame loop of every view at once, one thread each (the run's sessions may wait
  /// for one another), and returns their summaries in view order. Progress is reported for
  /// all views together (frames written over the frames of every view).
  /// - Throws: the first failed view's error, in view order, once every view has ended.
  private static func runTogether(
    _ scenes: [ReplayScene], indices: [Int], names: [String], run: any MultiViewRun,
    options: ReplayOptions
  ) throws -> [ReplaySummary] {
    let progress = options.progress.map { ProgressTotal(views: scenes.count, report: $0) }
    let outcomes = ViewOutcomes(count: scenes.count)
    @Sendable func runView(_ k: Int) {
      var viewOptions = options
      viewOptions.outputDirectory = options.outputDirectory + "/" + names[indices[k]]
      if let progress { viewOptions.progress = { @Sendable in progress.update(view: k, $0) } }
      let result = Result { try Replay(scene: scenes[k]).run(viewOptions) }
      run.viewFinished(indices[k])
      outcomes.set(k, result)
    }
    if scenes.count == 1 {
      runView(0)
    } else {
      let done = DispatchGroup()
      for k in scenes.indices {
        done.enter()
        // Threads of their own, not the dispatch pool's: a view may wait for the others, and
        // the renderer's and encoders' work goes to the pool.
        let thread = Thread {
          runView(k)
          done.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
      }
      done.wait()
    }
    return try outcomes.all()
  }

  private func writeRunJSON(_ summary: Summary, options: ReplayOptions, ticks: Int) throws {
    var json = JSONValue.object([
      ("scene", .string(scene.name)),
      ("sceneFile", .string(scene.sceneFilePath)),
      ("arsimVersion", .string(Replay.version)),
      ("frameCount", .integer(scene.schedule.frameCount)),
      ("fps", .number(scene.schedule.fps)),
      ("arFrameRate", .number(scene.schedule.arFrameRate)),
      ("ticks", .integer(ticks)),
      (
        "views",
        .array(
          summary.views.map { view in
            .object([
              ("name", .string(view.name)),
              ("framesWritten", .array(view.summary.framesWritten.map { .integer($0) })),
              ("events", .integer(view.summary.eventCount)),
            ])
          })
      ),
      ("warnings", .array(scene.warnings.map { .string($0) })),
      ("warningEvents", .integer(summary.warningEventCount)),
      ("warningCount", .integer(summary.warningCount)),
      ("firstWarning", summary.firstWarning.map { .string($0) } ?? .null),
      ("timing", .object([("totalSeconds", .number(summary.totalSeconds))])),
    ])
    // The command line's fields (scene hash, shard), before the timing as in a view's run.json.
    if case .object(var pairs) = json, let timing = pairs.firstIndex(where: { $0.0 == "timing" }) {
      pairs.insert(contentsOf: options.runFields, at: timing)
      json = .object(pairs)
    }
    try FileIO.writeAtomically(
      Array((json.text + "\n").utf8), to: options.outputDirectory + "/run.json")
  }

  private static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}

/// The views' results, set from their threads.
private final class ViewOutcomes: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<ReplaySummary, any Error>?]

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func set(_ k: Int, _ result: Result<ReplaySummary, any Error>) {
    lock.withLock { results[k] = result }
  }

  /// Every summary in view order, or the first error in view order.
  func all() throws -> [ReplaySummary] {
    try lock.withLock { results }.map { result in
      guard let result else { preconditionFailure("a view did not report") }
      return try result.get()
    }
  }
}

/// One progress report for several views' runs: frames written and frames to write summed
/// over the views, reported one at a time.
private final class ProgressTotal: @unchecked Sendable {
  private let lock = NSLock()
  private let report: @Sendable (ReplayProgress) -> Void
  private var latest: [ReplayProgress?]

  init(views: Int, report: @escaping @Sendable (ReplayProgress) -> Void) {
    self.report = report
    latest = Array(repeating: nil, count: views)
  }

  func update(view k: Int, _ progress: ReplayProgress) {
    lock.withLock {
      latest[k] = progress
      let known = latest.compactMap { $0 }
      // Until every view has reported, the total counts the others' frames as this one's.
      let total = known.map(\.framesTotal).reduce(0, +) / known.count * latest.count
      report(
        ReplayProgress(
          framesDone: known.map(\.framesDone).reduce(0, +), framesTotal: total,
          elapsedSeconds: known.map(\.elapsedSeconds).max() ?? 0))
    }
  }
}
