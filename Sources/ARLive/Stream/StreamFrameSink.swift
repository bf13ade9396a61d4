import ARReplay
import ARSession
import ARSupport
import Foundation

/// The frame loop's sink for `arsim stream`: waits for each frame's wall-clock time, converts
/// it to the wire format and offers it to the `FrameStreamer` (dropped, not converted, when
/// two frames are already held), and appends the frame's `events.jsonl` and `trace.jsonl`
/// lines (the PNG writer that would do it does not run when streaming).
public final class StreamFrameSink: FrameSink, @unchecked Sendable {  // scene thread only
  /// What happened to one output frame.
  public struct Record: Sendable {
    /// The output frame index.
    public var frame: Int
    /// The AR tick the frame shows.
    public var tick: Int
    /// The end of the frame's AR tick (its render start).
    public var tickEnd: ContinuousClock.Instant
    /// Whether it went to the streamer (false: dropped).
    public var offered: Bool
    /// The loop's times.
    public var sceneUpdate: Duration
    /// The loop's render time.
    public var render: Duration
  }

  private let streamer: FrameStreamer
  private let format: PixelFormat
  private let pacer: LivePacer
  private let schedule: FrameSchedule
  private let events: AppendFile
  private let trace: AppendFile
  private var leadingEventLines: String
  /// Every submitted frame, in order.
  public private(set) var records: [Record] = []

  /// Creates a sink writing its lines into `directory`'s `events.jsonl` and `trace.jsonl`
  /// (appended: the frame loop has just emptied them); `leadingEvents` go before the first
  /// frame's events (the handshake's state changes).
  /// - Throws: `InputError` `.cannotCreate`.
  public init(
    streamer: FrameStreamer, format: PixelFormat, pacer: LivePacer, schedule: FrameSchedule,
    directory: String, leadingEvents: [JSONValue]
  ) throws {
    self.streamer = streamer
    self.format = format
    self.pacer = pacer
    self.schedule = schedule
    events = try AppendFile(directory + "/events.jsonl", truncating: false)
    trace = try AppendFile(directory + "/trace.jsonl", truncating: false)
    leadingEventLines = leadingEvents.map { $0.text + "\n" }.joined()
  }

  /// Appends event lines (a failure after the last frame).
  public func appendEvents(_ lines: [JSONValue]) throws {
    try events.append(lines.map { $0.text + "\n" }.joined())
  }

  /// Waits for the frame's wall-clock time, then sends or drops it and appends its lines.
  /// - Throws: `LiveError` `.interrupted` (Ctrl-C) or the error that ended the stream;
  ///   `InputError` `.cannotCreate` for the line files.
  public func submit(_ frame: OutputFrame) throws {
    let microseconds = ReplayTime.microseconds(frame.t)
    try pacer.wait(untilMicroseconds: microseconds)
    let tickEnd = ContinuousClock.now - frame.render
    var lines = leadingEventLines + frame.eventLines
    leadingEventLines = ""
    var offered = false
    if streamer.hasRoom {
      // Converted on the sending thread, beside the next frame's render.
      let image = frame.rendered.image
      let format = format
      let sequence = UInt64(frame.frame)
      offered = try streamer.offer(sequence: sequence) {
        WireFrame.encode(
          image, format: format, sequence: sequence, presentationMicroseconds: microseconds)
      }
    } else {
      streamer.recordDrop(sequence: UInt64(frame.frame))
    }
    if !offered {
      lines +=
        JSONValue.object([
          ("t", .number(frame.t)), ("frame", .integer(frame.frame)),
          ("event", "frame-dropped"), ("sequence", .integer(frame.frame)),
          ("reason", "a send is in flight and one frame waits (at most two are held)"),
        ]).text + "\n"
    }
    records.append(
      Record(
        frame: frame.frame, tick: schedule.tick(forFrame: frame.frame), tickEnd: tickEnd,
        offered: offered, sceneUpdate: frame.sceneUpdate, render: frame.render))
    try events.append(lines)
    try trace.append(frame.traceLine)
  }

  /// Waits for the held frames to leave and ends the stream; the timings of the frames sent
  /// (encode: conversion, write: from offer to the last byte in the kernel).
  /// - Throws: the `LiveError` that ended the stream.
  public func finish() throws -> [FrameTiming] {
    let sent = try streamer.finish()
    let byFrame = Dictionary(uniqueKeysWithValues: records.map { ($0.frame, $0) })
    return sent.compactMap { s in
      guard let r = byFrame[Int(s.sequence)] else { return nil }
      return FrameTiming(
        frame: r.frame, sceneUpdate: r.sceneUpdate, render: r.render, encode: s.encode,
        write: s.sent - s.offered - s.encode)
    }
  }
}

/// The sink of `arsim render --strokes-port`: records when each frame was handed over (after
/// the PNG writer), for the stroke latency.
public final class HandoverClockSink: FrameSink, @unchecked Sendable {  // scene thread only
  /// (frame, AR tick, instant handed over), in order.
  public private(set) var handovers: [(frame: Int, tick: Int, at: ContinuousClock.Instant)] = []
  private let schedule: FrameSchedule
  private let stop: StopSignal

  /// Creates a sink; a raised `stop` (Ctrl-C) ends the run at the next frame.
  public init(schedule: FrameSchedule, stop: StopSignal) {
    self.schedule = schedule
    self.stop = stop
  }

  /// Records the frame's hand-over instant.
  /// - Throws: `LiveError` `.interrupted` once `stop` is raised, after recording the frame:
  ///   the PNG writer before this sink has written it, so the count says what is on disk.
  public func submit(_ frame: OutputFrame) throws {
    handovers.append((frame.frame, schedule.tick(forFrame: frame.frame), .now))
    if stop.isRequested { throw LiveError(.interrupted, "after frame \(frame.frame)") }
  }

  /// No timings of its own (the PNG writer's are the run's).
  public func finish() throws -> [FrameTiming] { [] }
}
