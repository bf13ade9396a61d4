import ARFormats
import ARRender
import ARScene
import ARSession
import ARSupport
import Foundation

/// A replay of a scene with several views (Documentation/Design.md §2.2, "Several views"): the
/// frame loop runs once per view into `DIR/<view>/` (frames, trace, events, that view's
/// run.json), then the files the views share (a collaborative scene's `messages.jsonl`) and
/// one `DIR/run.json` for the whole run are written. Every view runs the same scene logic from
/// τ = 0, so a view rendered alone, or a frame range, gives the same bytes as in a full run.
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
    try FileIO.createDirectory(options.outputDirectory)
    // The shared files (run.json, messages.jsonl) have one writer too; each view's folder
    // is locked by its own run.
    let lock = try OutputFolder(options.outputDirectory).lock(waiting: options.waitsForLock)
    defer { lock.release() }
    let runJSONPath = options.outputDirectory + "/run.json"
    if FileIO.exists(runJSONPath) {
      // An interrupted multi-view folder never keeps a run.json that describes another run.
      try? FileManager.default.removeItem(atPath: runJSONPath)
    }
    var results: [(name: String, summary: ReplaySummary)] = []
    var lastFrame = -1
    for (index, name) in names.enumerated() where only?.contains(name) ?? true {
      var viewOptions = options
      viewOptions.outputDirectory = options.outputDirectory + "/" + name
      let summary = try Replay(scene: try scene.scene(forView: index)).run(viewOptions)
      results.append((name, summary))
      lastFrame = max(lastFrame, summary.framesWritten.last ?? -1)
    }
    let schedule = scene.schedule
    let lastTick = lastFrame >= 0 ? schedule.tick(forFrame: lastFrame) : -1
    let tickTimes = lastTick >= 0 ? (0...lastTick).map { schedule.time(ofTick: $0) } : []
    for output in try configuration.sharedOutputs(
      tickTimes: tickTimes, sceneViewport: scene.viewport)
    {
      try FileIO.writeAtomically(output.bytes, to: options.outputDirectory + "/" + output.name)
    }
    let total = Self.seconds(clock.now - start)
    let summary = Summary(views: results, totalSeconds: total, sceneWarnings: scene.warnings)
    try writeRunJSON(summary, options: options, ticks: tickTimes.count)
    return summary
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
