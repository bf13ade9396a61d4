import ARFormats
import ARRender
import ARSession
import ARSupport
import Dispatch
import Foundation

/// Encodes frames on worker threads while the scene thread renders the next ones, and commits
/// them strictly in submission order (DESIGN §1: the bytes and the write order do not depend on
/// the threads).
///
/// At most `maxInFlight` submitted frames are not yet committed: `submit` blocks until one is,
/// which bounds memory (each frame holds its RGBA image) whatever the track length. With
/// `maxInFlight` 0 every frame is encoded and committed inside `submit` (sequential run).
///
/// The frame loop's PNG sink: `frame_NNNNN.png` (+ depth) with their trace and events lines.
final class FramePipeline: FrameSink, @unchecked Sendable {
  private let writer: FrameWriter
  private let maxInFlight: Int
  private let progress: (@Sendable (Int) -> Void)?
  private let condition = NSCondition()
  private let group = DispatchGroup()
  private let queue = DispatchQueue(label: "arsim.encode", attributes: .concurrent)
  private var inFlight = 0
  private var submitted = 0
  private var committed = 0
  /// A thread is committing frames (outside the lock); others leave theirs in `done`.
  private var committing = false
  /// Staged frames waiting for their commit: the frame, its temporary files, the timing so far
  /// and when staging ended.
  private var done:
    [Int: (OutputFrame, Result<StagedFrame, any Error>, FrameTiming, ContinuousClock.Instant)] =
      [:]
  private var failure: (any Error)?
  private var timings: [FrameTiming] = []

  /// - Parameters:
  ///   - maxInFlight: frames encoded concurrently (0 = sequential, on the caller's thread).
  ///   - progress: called after each commit with the number of frames committed (under the
  ///     pipeline's lock, in order).
  init(writer: FrameWriter, maxInFlight: Int, progress: (@Sendable (Int) -> Void)?) {
    self.writer = writer
    self.maxInFlight = max(0, maxInFlight)
    self.progress = progress
  }

  /// Hands a rendered frame over; blocks while `maxInFlight` frames are pending.
  /// - Throws: the first encoding or writing error of an earlier frame.
  func submit(_ job: OutputFrame) throws {
    let clock = ContinuousClock()
    let waitStart = clock.now
    condition.lock()
    while maxInFlight > 0, inFlight >= maxInFlight, failure == nil { condition.wait() }
    if let failure {
      condition.unlock()
      throw failure
    }
    inFlight += 1
    let sequence = submitted
    submitted += 1
    condition.unlock()
    let handedOver = clock.now
    let submitWait = handedOver - waitStart
    if maxInFlight == 0 {
      process(sequence, job, submitWait: submitWait, handedOver: handedOver)
      condition.lock()
      defer { condition.unlock() }
      if let failure { throw failure }
    } else {
      // The closure holds the job through a box it empties, so the image's memory goes with
      // the encoding, not with the closure's release, which a busy machine can delay past the
      // next frame's render (one more 11 MB frame alive at 1920×1440).
      let pending = PendingJob(job)
      queue.async(group: group) {
        if let job = pending.take() {
          self.process(sequence, job, submitWait: submitWait, handedOver: handedOver)
        }
      }
    }
  }

  /// Waits for every submitted frame to be committed and returns the timings in frame order.
  /// - Throws: the first encoding or writing error.
  func finish() throws -> [FrameTiming] {
    group.wait()
    condition.lock()
    defer { condition.unlock() }
    if let failure { throw failure }
    return timings
  }

  private func process(
    _ sequence: Int, _ job: consuming OutputFrame, submitWait: Duration,
    handedOver: ContinuousClock.Instant
  ) {
    let clock = ContinuousClock()
    let start = clock.now
    // Encoded and written to temporary files here, several frames at once; only the lines and
    // renames wait for the frame's turn (a photographic frame's 2.7 MB write no longer holds
    // up the other frames' commits).
    let result = Result { try writer.stage(job) }
    let staged = clock.now
    // Staged: the pixels are no longer needed while the frame waits for its turn to commit.
    job.rendered = RenderedFrame(image: Image(width: 0, height: 0), depth: nil)
    let timing = FrameTiming(
      frame: job.frame, sceneUpdate: job.sceneUpdate, render: job.render,
      encode: (try? result.get())?.encoding ?? staged - start, write: .zero,
      traceLine: job.traceLineTime, submitWait: submitWait, encodeQueueWait: start - handedOver)
    condition.lock()
    defer { condition.unlock() }
    done[sequence] = (job, result, timing, staged)
    // One thread commits at a time, in order, outside the lock: a long commit (B2's 3.8 MB
    // trace lines) then blocks neither the scene thread's hand-over nor the other encoders.
    // A frame encoded meanwhile is picked up by the committing thread's loop.
    guard !committing else { return }
    committing = true
    while let (next, stagedFrame, pending, stagedAt) = done.removeValue(forKey: committed) {
      var timing = pending
      var published = false
      if failure == nil {
        condition.unlock()
        let writeStart = clock.now
        var error: (any Error)?
        var writing = Duration.zero
        do {
          let staged = try stagedFrame.get()
          writing = staged.writing
          try writer.commit(next, staged)
        } catch let caught {
          error = caught
        }
        let written = clock.now
        condition.lock()
        if let error {
          failure = error
        } else {
          timing.write = writing + (written - writeStart)
          timing.commitWait = writeStart - stagedAt
          published = true
        }
      } else if case .success(let staged) = stagedFrame {
        // Not committed after an earlier frame failed: its temporary files go.
        writer.discard(staged)
      }
      committed += 1
      inFlight -= 1
      if published {
        timings.append(timing)
        progress?(timings.count)
      }
      condition.broadcast()
    }
    committing = false
    condition.broadcast()
  }
}

/// A frame handed to an encoder thread, taken out exactly once.
private final class PendingJob: @unchecked Sendable {
  private var job: OutputFrame?

  init(_ job: OutputFrame) { self.job = job }

  /// The job, once; afterwards the box no longer holds it.
  func take() -> OutputFrame? {
    defer { job = nil }
    return job
  }
}
