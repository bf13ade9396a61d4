import ARRender
import ARFormats
import ARReplay
import ARSupport

/// The app side of a live stream (`arsim receive`): listen on loopback, accept one broadcast
/// sender, check its token, answer with this side's, then read frames until the sender ends the
/// stream, writing `received.jsonl` (one line per frame) and, unless disabled, each frame as
/// `frame_<sequence>.png` (Documentation/Live.md, "Receiver").
public struct FrameReceiver {
  /// Options of one receiver run.
  public struct Options: Sendable {
    /// The listening address (port 0: the system picks one; `listening` reports it).
    public var endpoint: LoopbackEndpoint
    /// The handshake.
    public var acceptor: BroadcastAcceptor
    /// Output folder (created; never deleted).
    public var outputDirectory: String
    /// Write each frame as PNG (false: only check and count).
    public var writesPNG: Bool = true
    /// Wait for another run's lock on the output folder instead of failing (75).
    public var waitsForLock = false
    /// Told `waiting for pid N's lock on DIR` once when the receiver has to wait for the lock.
    public var lockWaitNotice: (@Sendable (String) -> Void)?
    /// Longest wait for the next frame's bytes once connected.
    public var idleTimeout: Duration = .seconds(10)
    /// Raised → the receiver stops, keeping what it wrote.
    public var stop: StopSignal = .interrupt

    /// Creates options.
    public init(endpoint: LoopbackEndpoint, acceptor: BroadcastAcceptor, outputDirectory: String) {
      self.endpoint = endpoint
      self.acceptor = acceptor
      self.outputDirectory = outputDirectory
    }
  }

  /// What a run received.
  public struct Summary: Sendable {
    /// Frames received whole.
    public var frames = 0
    /// Sequence gaps: (first missing sequence, count missing).
    public var gaps: [(first: UInt64, count: UInt64)] = []
    /// Frames whose sequence was not above the previous one (repeats not counted).
    public var outOfOrder = 0
    /// Frames whose sequence had arrived already: logged, never written over the first one's
    /// file (`duplicates` in receive.json), in arrival order.
    public var duplicates: [UInt64] = []
    /// Header and payload bytes received.
    public var bytes = 0
    /// The frame files this run wrote (`frame_NNNNN.png`): others in the folder are an
    /// earlier run's.
    public var files: Set<String> = []
    /// Seconds from the handshake's end to the last frame.
    public var seconds = 0.0
    /// nil when the sender ended the stream cleanly between frames; else why it ended.
    public var failure: LiveError?
    /// Frames missing in the gaps (the gaps are disjoint ranges of UInt64: no overflow).
    public var missing: UInt64 { gaps.reduce(0) { $0 + $1.count } }
  }

  /// The options.
  public let options: Options

  /// Creates a receiver.
  public init(options: Options) { self.options = options }

  /// Checks the output folder, takes its lock, listens, accepts, runs the handshake and reads
  /// the stream. `receive.json` is written on every way out once the folder is locked: the end
  /// of the stream, a stream that broke, and a failure before it (port in use, no sender,
  /// rejected token, Ctrl-C), each with its reason; after an output failure that leaves no
  /// room for it (a full disk), the thrown error's reason says it could not be written.
  /// - Parameter listening: called once the port is bound (with the actual port), before any
  ///   wait.
  /// - Returns: the summary; a stream that broke (sender closed mid-frame, reset, bad header,
  ///   idle timeout, Ctrl-C) still returns, with `failure` set.
  /// - Throws: `InputError` `.cannotCreate` (73) when the output folder cannot be made or
  ///   written, before listening, and for output failures later; `.temporaryFailure` (75) when
  ///   another run holds the folder's lock (as `render`, `OutputFolder.lock(waiting:)`);
  ///   `LiveError` for failures before the stream (port in use, no sender, rejected token).
  public func run(listening: (LoopbackEndpoint) -> Void = { _ in }) throws -> Summary {
    try FileIO.createDirectory(options.outputDirectory)
    let folder = try OutputFolder(options.outputDirectory)
    // One writer per folder: a second receiver would interleave its lines with this one's.
    let lock = try folder.lock(waiting: options.waitsForLock, notice: options.lockWaitNotice)
    defer { lock.release() }
    FileIO.removeStaleTemporaryFiles(in: options.outputDirectory)
    // An earlier run's summary goes first, so no receive.json describes other frames.
    try folder.checkReplaceable("receive.json")
    try folder.remove("receive.json")
    let log = try AppendFile(options.outputDirectory + "/received.jsonl", truncating: true)
    var summary = Summary()
    do {
      let listener = try TCPListener(endpoint: options.endpoint, stop: options.stop)
      listening(listener.endpoint)
      let connection = try options.acceptor.accept(on: listener)
      try receive(from: connection, into: log, summary: &summary)
    } catch let error as LiveError {
      summary.failure = error
      try writeSummary(summary)
      throw error
    } catch {
      // An output failure (disk full, a frame name taken by a folder): said, then thrown.
      summary.failure = LiveError(.system, "\(error)")
      do {
        try writeSummary(summary)
      } catch let unwritten {
        // A full disk often has no room for the summary either: the error says so.
        let note = "; receive.json could not be written either (\(unwritten))"
        guard var located = error as? InputError else {
          throw InputError(
            .cannotCreate, InputLocation(file: options.outputDirectory), "\(error)" + note)
        }
        located.reason += note
        throw located
      }
      throw error
    }
    try writeSummary(summary)
    return summary
  }

  /// Reads frames until the sender ends the stream or it breaks (`summary.failure`).
  /// - Throws: `InputError` for output failures.
  private func receive(
    from connection: TCPConnection, into log: AppendFile, summary: inout Summary
  ) throws {
    let start = ContinuousClock.now
    var previous: UInt64?
    var seen = Set<UInt64>()
    while true {
      let headerBytes: [UInt8]
      do {
        headerBytes = try connection.receive(
          exactly: FrameHeader.length, timeout: options.idleTimeout)
      } catch {
        if error.failure == .closed, error.bytesTransferred == 0 { break }  // clean end
        // The frame after the highest so far, unless that was the last sequence number.
        let next = previous.flatMap { $0 == .max ? nil : $0 + 1 }
        summary.failure = Self.midFrame(error, sequence: next, part: "header")
        break
      }
      let payload: [UInt8]
      let header: FrameHeader
      // The header as sent: a longer one (40…4096 bytes, Live.md) counts whole in `bytes`.
      var headerLength = FrameHeader.length
      // Known once the header is read: a payload cut short names its frame.
      var sequence: UInt64?
      do {
        let parsed: FrameHeader
        (parsed, headerLength) = try FrameHeader.parse(headerBytes)
        header = parsed
        sequence = parsed.sequence
        if headerLength > FrameHeader.length {
          _ = try connection.receive(
            exactly: headerLength - FrameHeader.length, timeout: options.idleTimeout)
        }
        payload = try connection.receive(
          exactly: header.payloadLength, timeout: options.idleTimeout)
      } catch {
        summary.failure =
          error.failure == .protocolViolation
          ? error : Self.midFrame(error, sequence: sequence, part: "payload")
        break
      }
      let arrival = (ContinuousClock.now - start).seconds
      var fields: [(String, JSONValue)] = [
        ("sequence", .unsigned(header.sequence)),
        ("presentationTime", .number(Double(header.presentationMicroseconds) / 1e6)),
        ("arrivalTime", .number(arrival)),
        ("bytes", .integer(headerLength + payload.count)),
        ("width", .integer(header.width)), ("height", .integer(header.height)),
        ("pixelFormat", .string(header.pixelFormat.rawValue)),
      ]
      // A repeated sequence names a frame that arrived already: the first one's file stays.
      let isDuplicate = !seen.insert(header.sequence).inserted
      if isDuplicate {
        summary.duplicates.append(header.sequence)
        fields.append(("duplicate", .bool(true)))
      } else if let gap = Self.gap(after: previous, at: header.sequence) {
        summary.gaps.append(gap)
        fields.append(("missingBefore", .unsigned(gap.count)))
      } else if let previous, header.sequence <= previous {
        summary.outOfOrder += 1
        fields.append(("outOfOrder", .bool(true)))
      }
      if options.writesPNG, !isDuplicate {
        let name = FrameFileName.name(header.sequence)
        let image = WireFrame.image(header: header, payload: payload)
        try FileIO.writeAtomically(
          try image.pngData(options: .fast), to: options.outputDirectory + "/" + name)
        fields.append(("file", .string(name)))
        summary.files.insert(name)
      }
      try log.append(JSONValue.object(fields).text + "\n")
      summary.frames += 1
      summary.bytes += headerLength + payload.count
      summary.seconds = arrival
      previous = max(previous ?? 0, header.sequence)
    }
  }

  /// The sequence numbers skipped between the highest so far (`previous`) and `sequence`:
  /// nil when `sequence` follows it directly, is not above it, or is the first frame. Any two
  /// 64-bit values are accepted (no arithmetic can overflow: `sequence` > `previous` + 1).
  public static func gap(after previous: UInt64?, at sequence: UInt64) -> (
    first: UInt64, count: UInt64
  )? {
    guard let previous, sequence > previous, sequence - previous > 1 else { return nil }
    return (previous + 1, sequence - previous - 1)
  }

  private static func midFrame(_ error: LiveError, sequence: UInt64?, part: String) -> LiveError {
    guard error.failure == .closed else { return error }
    let which = sequence.map { "frame \($0)" } ?? "a frame"
    return LiveError(
      .closed,
      "the sender closed the connection in the middle of \(which) (\(part): \(error.detail))")
  }

  private func writeSummary(_ s: Summary) throws {
    let json = JSONValue.object([
      ("frames", .integer(s.frames)),
      ("missing", .unsigned(s.missing)),
      (
        "gaps",
        .array(
          s.gaps.map {
            .object([
              ("first", .unsigned($0.first)), ("count", .unsigned($0.count)),
            ])
          })
      ),
      ("outOfOrder", .integer(s.outOfOrder)),
      ("duplicates", .integer(s.duplicates.count)),
      ("bytes", .integer(s.bytes)),
      ("seconds", .number(s.seconds)),
      ("framesPerSecond", .number(s.seconds > 0 ? Double(max(0, s.frames - 1)) / s.seconds : 0)),
      ("end", .string(s.failure.map { $0.failure.rawValue } ?? "end of stream")),
      ("detail", s.failure.map { .string($0.detail) } ?? .null),
    ])
    try FileIO.writeAtomically(
      Array((json.text + "\n").utf8), to: options.outputDirectory + "/receive.json")
  }
}
