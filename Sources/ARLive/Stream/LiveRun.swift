import ARFormats
import ARReplay
import ARSession
import ARSupport
import Foundation

/// A replay that takes part live (Documentation/Live.md): `arsim stream` (frames to a
/// broadcast receiver, no PNG) or `arsim render --strokes-port` (PNG files), at wall-clock pace,
/// optionally with stroke messages arriving on a loopback port.
public struct LiveRun {
  /// Options of one live run.
  public struct Options: Sendable {
    /// Output folder.
    public var outputDirectory: String
    /// Frames to produce (nil: all).
    public var frameRange: ClosedRange<Int>?
    /// Render threads (0: all cores).
    public var threads = 0
    /// Keep the scene's pace in wall-clock time (false: as fast as possible).
    public var isPaced = true
    /// The strokes port (nil: the scene's stroke log, if any).
    public var strokesEndpoint: LoopbackEndpoint?
    /// The session a run on the strokes port adds when the scene has none taking live messages:
    /// its scene-file key and configuration (the command line gives the registry's
    /// `liveMessageDefault`); nil: the live strokes feed nothing.
    public var liveMessageDefault: (key: String, configuration: any LiveMessageConfiguration)?
    /// Stream payload format.
    public var pixelFormat: PixelFormat = .i420
    /// Time limit of each frame's send.
    public var sendTimeout: Duration = .seconds(5)
    /// Raised → the run stops (Ctrl-C).
    public var stop: StopSignal = .interrupt
    /// Wait for another run's lock on the output folder instead of failing (75), as `render`.
    public var waitsForLock = false
    /// Told `waiting for pid N's lock on DIR` once when the run has to wait for the lock.
    public var lockWaitNotice: (@Sendable (String) -> Void)?
    /// Fields `run.json` gets after `warnings`, as `ReplayOptions.runFields` (the command
    /// line's `sceneHash`, `sceneInputs`, `shard` and `overlays`, which every render writes).
    public var runFields: [(String, JSONValue)] = []

    /// Creates options.
    public init(outputDirectory: String) { self.outputDirectory = outputDirectory }
  }

  /// What a live run did.
  public struct Summary: Sendable {
    /// The frame loop's summary (nil when it did not finish).
    public var replay: ReplaySummary?
    /// Frames sent (stream) or written (render).
    public var framesOut = 0
    /// Frames dropped under back-pressure, by sequence.
    public var dropped: [UInt64] = []
    /// Frames taken for sending but not sent because the stream broke (`FrameStreamer.unsent`).
    public var unsent: [UInt64] = []
    /// Tick-to-wire latencies of the sent frames, milliseconds.
    public var tickToWire: [Double] = []
    /// Stroke latencies, milliseconds: arrival to the first frame showing a sphere of the message
    /// leaving the socket (render: handed to the PNG writer).
    public var strokeLatency: [Double] = []
    /// Messages received on the strokes port.
    public var strokesReceived = 0
    /// Strokes-port messages that arrived after the last tick: read, never delivered.
    public var strokesUndelivered = 0
    /// Strokes-port messages dropped because `LiveStrokeInbox.capacity` already waited.
    public var strokesOverflowed = 0
    /// Where the received strokes were recorded.
    public var strokeLogPath: String?
    /// The sender's final state changes (stream).
    public var transitions: [BroadcastTransition] = []
    /// Why the run ended early, if it did.
    public var failure: (any Error)?
  }

  /// The scene.
  public var scene: ReplayScene
  /// The options.
  public var options: Options

  /// Creates a run.
  public init(scene: ReplayScene, options: Options) {
    self.scene = scene
    self.options = options
  }

  /// Takes the output folder's lock (so a refused run binds, connects and writes nothing),
  /// binds the strokes port (when asked), then calls `ready` with it, connects `sender` (when
  /// streaming), and replays.
  /// - Returns: the summary; a run that failed or was interrupted after it started returns
  ///   with `failure` set (its folder has the frames and lines so far and the received strokes,
  ///   no run.json).
  /// - Throws: `InputError` `.temporaryFailure` (75) when another run holds the folder's
  ///   lock, before any port is bound or connected; `LiveError` for a strokes port in use or a failed handshake (the folder's
  ///   `events.jsonl` then holds the sender's states); `InputError` `.usage`, before any
  ///   port is bound or connected, when `strokes-received.jsonl` or a file the replay writes
  ///   (`Replay.checkOutputsSpareInputs`) would overwrite one of the scene's inputs;
  ///   `LocatedError`s from the replay's setup.
  public func run(sender: BroadcastSender?, ready: (LoopbackEndpoint?) -> Void = { _ in })
    throws -> Summary
  {
    // Before any socket: `events.jsonl` is written even when the connection fails, and the
    // frames of a run without a sender.
    try Replay(scene: scene).checkOutputsSpareInputs(
      directory: options.outputDirectory,
      frames: sender == nil ? try scene.frames(options.frameRange) : nil)
    let recordedStrokes = options.outputDirectory + "/strokes-received.jsonl"
    if options.strokesEndpoint != nil, let output = FileIO.identity(of: recordedStrokes),
      let input = scene.inputPaths.first(where: { FileIO.identity(of: $0) == output })
    {
      throw InputError(
        .usage, InputLocation(file: recordedStrokes),
        "would overwrite the input \(InputText.quotedPath(input)); choose another output folder")
    }
    let directory = options.outputDirectory
    try FileIO.createDirectory(directory)
    // One writer per folder, checked before any peer hears of this run.
    let lock = try OutputFolder(directory).lock(
      waiting: options.waitsForLock, notice: options.lockWaitNotice)
    defer { lock.release() }
    let strokes = try options.strokesEndpoint.map { e throws(LiveError) in
      try LiveStrokes(endpoint: e)
    }
    defer { strokes?.listener.close() }
    ready(strokes?.listener.endpoint)
    var summary = Summary()
    var connection: TCPConnection?
    if let sender {
      do {
        connection = try sender.connect()
      } catch {
        summary.transitions = sender.transitions
        try? FileIO.writeAtomically(
          Array(
            Self.stateEvents(sender.transitions, frame: 0, t: 0).map { $0.text + "\n" }.joined()
              .utf8),
          to: directory + "/events.jsonl")
        throw error
      }
    }
    let pacer = LivePacer(isPaced: options.isPaced, stop: options.stop)
    strokes?.inbox.begin(at: pacer.start)
    var liveScene = scene
    if let strokes {
      Self.attach(strokes, pacer: pacer, to: &liveScene, fallback: options.liveMessageDefault)
    }

    let streamer = connection.map {
      FrameStreamer(connection: $0, capacity: 2, sendTimeout: options.sendTimeout)
    }
    let schedule = scene.schedule
    let holder = SinkHolder()
    var replayOptions = ReplayOptions(
      outputDirectory: directory, frameRange: options.frameRange, threads: options.threads)
    replayOptions.writesFrames = streamer == nil
    replayOptions.heldLock = lock
    replayOptions.runFields = options.runFields
    let format = options.pixelFormat
    let leading =
      sender.map {
        Self.stateEvents($0.transitions, frame: options.frameRange?.lowerBound ?? 0, t: 0)
      } ?? []
    replayOptions.frameSinks = { @Sendable setup in
      if let streamer {
        let sink = try StreamFrameSink(
          streamer: streamer, format: format, pacer: pacer, schedule: schedule,
          directory: setup.outputDirectory, leadingEvents: leading)
        holder.stream = sink
        return [sink]
      }
      let sink = HandoverClockSink(schedule: schedule, stop: pacer.stop)
      holder.handover = sink
      return [sink]
    }
    let isPaced = options.isPaced
    replayOptions.finalRunFields = { @Sendable in
      [
        (
          "live",
          Self.report(
            holder: holder, streamer: streamer, strokes: strokes, paced: isPaced, format: format
          ).json
        )
      ]
    }
    do {
      summary.replay = try Replay(scene: liveScene).run(replayOptions)
    } catch {
      summary.failure = error
      if let sender, let stream = holder.stream {
        let live = error as? LiveError ?? LiveError(.system, "\(error)")
        sender.fail(live)
        // The frame whose send broke, else (a failure before any send) the last one made.
        let frame =
          streamer?.unsent.first.map { Int(clamping: $0) } ?? stream.records.last?.frame ?? 0
        try? stream.appendEvents(
          Self.stateEvents(
            Array(sender.transitions.suffix(1)), frame: frame, t: schedule.time(ofFrame: frame)))
      }
    }
    if let sender { summary.transitions = sender.transitions }
    let report = Self.report(
      holder: holder, streamer: streamer, strokes: strokes, paced: isPaced, format: format)
    summary.framesOut = report.framesOut
    summary.dropped = streamer?.dropped ?? []
    summary.unsent = streamer?.unsent ?? []
    summary.tickToWire = report.tickToWire
    summary.strokeLatency = report.strokeLatency
    if let strokes {
      let log = strokes.inbox.strokeLog
      summary.strokesReceived = log.messages.count
      // Finished already when run.json was written, unless the run failed before it.
      summary.strokesUndelivered = strokes.inbox.finish()
      summary.strokesOverflowed = strokes.inbox.overflowed
      let path = recordedStrokes
      try FileIO.writeAtomically(Array(log.jsonLines.utf8), to: path)
      summary.strokeLogPath = path
    }
    return summary
  }

  /// Replaces the scene's first session that takes live messages by one fed from the strokes
  /// port (the scene's options kept, its recorded log not read), or adds `fallback` (the first
  /// registered kind's default, `SessionRegistry.liveMessageDefault`) so fed.
  static func attach(
    _ strokes: LiveStrokes, pacer: LivePacer, to scene: inout ReplayScene,
    fallback: (key: String, configuration: any LiveMessageConfiguration)?
  ) {
    if let index = scene.sessions.firstIndex(where: {
      $0.configuration.liveMessageConfiguration != nil
    }), let base = scene.sessions[index].configuration.liveMessageConfiguration {
      scene.sessions[index] = SceneSession(
        key: scene.sessions[index].key,
        configuration: LiveFedConfiguration(base: base, strokes: strokes, pacer: pacer))
    } else if let fallback {
      scene.sessions.append(
        SceneSession(
          key: fallback.key,
          configuration: LiveFedConfiguration(
            base: fallback.configuration, strokes: strokes, pacer: pacer)))
    }
  }

  /// `broadcast-state` events of `transitions`.
  static func stateEvents(_ transitions: [BroadcastTransition], frame: Int, t: Double)
    -> [JSONValue]
  {
    transitions.map { transition in
      var fields: [(String, JSONValue)] = [
        ("t", .number(t)), ("frame", .integer(frame)), ("event", "broadcast-state"),
        ("state", .string(transition.state.rawValue)), ("wallTime", .number(transition.wallTime)),
        ("elapsed", .number(transition.elapsedSeconds)),
      ]
      if let failure = transition.failure {
        fields += [
          ("reason", .string(failure.rawValue)), ("detail", .string(transition.detail ?? "")),
        ]
      }
      return .object(fields)
    }
  }

  /// The sinks a run made (set on the scene thread when the loop makes them).
  final class SinkHolder: @unchecked Sendable {
    var stream: StreamFrameSink?
    var handover: HandoverClockSink?
  }

  struct Report {
    var framesOut = 0
    var tickToWire: [Double] = []
    var strokeLatency: [Double] = []
    var json: JSONValue = .null
  }

  static func report(
    holder: SinkHolder, streamer: FrameStreamer?, strokes: LiveStrokes?, paced: Bool,
    format: PixelFormat
  ) -> Report {
    var report = Report()
    // (AR tick, instant the frame left) of every frame out, in frame order.
    var out: [(tick: Int, at: ContinuousClock.Instant)] = []
    var bytes = 0
    if let stream = holder.stream, let streamer {
      let sent = streamer.sent
      bytes = sent.reduce(0) { $0 + $1.bytes }
      let byFrame = Dictionary(uniqueKeysWithValues: stream.records.map { ($0.frame, $0) })
      for s in sent {
        guard let r = byFrame[Int(s.sequence)] else { continue }
        out.append((r.tick, s.sent))
        report.tickToWire.append((s.sent - r.tickEnd).milliseconds)
      }
    } else if let handover = holder.handover {
      out = handover.handovers.map { ($0.tick, $0.at) }
    }
    report.framesOut = out.count
    if let strokes {
      for (index, delivery) in strokes.inbox.delivered.enumerated() {
        guard let tick = strokes.firstSphereTick(ofMessage: index),
          let shown = out.first(where: { $0.tick >= tick })
        else { continue }
        report.strokeLatency.append((shown.at - delivery.arrived).milliseconds)
      }
    }
    let dropped = streamer?.dropped ?? []
    let unsent = streamer?.unsent ?? []
    var fields: [(String, JSONValue)] = [
      ("paced", .bool(paced)),
      ("framesOut", .integer(out.count)),
    ]
    if streamer != nil {
      fields += [
        ("framesSent", .integer(out.count)), ("framesDropped", .integer(dropped.count)),
        ("droppedSequences", .array(dropped.prefix(1000).map { .integer(Int(clamping: $0)) })),
        ("framesUnsent", .integer(unsent.count)),
        ("unsentSequences", .array(unsent.map { .integer(Int(clamping: $0)) })),
        ("bytesSent", .integer(bytes)), ("pixelFormat", .string(format.rawValue)),
        ("tickToWire", percentiles(report.tickToWire)),
      ]
    }
    if let strokes {
      fields += [
        ("strokesReceived", .integer(strokes.inbox.delivered.count)),
        ("strokesOverflowed", .integer(strokes.inbox.overflowed)),
        ("strokesUndelivered", .integer(strokes.inbox.finish())),
        ("strokeLatency", percentiles(report.strokeLatency)),
      ]
    }
    report.json = .object(fields)
    return report
  }

  /// `{"count", "medianMilliseconds", "p99Milliseconds", "maxMilliseconds"}` (nearest rank).
  static func percentiles(_ values: [Double]) -> JSONValue {
    let sorted = values.sorted()
    func rank(_ q: Double) -> JSONValue {
      guard !sorted.isEmpty else { return .null }
      let index = Int((q * Double(sorted.count)).rounded(.up)) - 1
      return .number((sorted[max(0, min(sorted.count - 1, index))] * 1000).rounded() / 1000)
    }
    return .object([
      ("count", .integer(sorted.count)), ("medianMilliseconds", rank(0.5)),
      ("p99Milliseconds", rank(0.99)), ("maxMilliseconds", rank(1)),
    ])
  }
}

extension Duration {
  /// The duration in milliseconds.
  var milliseconds: Double { seconds * 1000 }
}
