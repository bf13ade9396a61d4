import ARRenderCore
import ARScene
import ARSupport
import Foundation

/// Something the feed reports with a frame: an event name and its fields (`events.jsonl`).
public struct CameraImageNotice: Sendable {
  /// `camera-image-missing` or `warning`.
  public var name: String
  /// Fields after `t`, `frame` and `event`, in order.
  public var fields: [(String, JSONValue)]

  init(_ name: String, _ fields: [(String, JSONValue)]) {
    self.name = name
    self.fields = fields
  }
}

/// One output frame's camera image: resampled onto the output camera, or nil when no image is
/// taken yet; with what happened on the way.
public struct RecordedFrame: Sendable {
  /// The output frame.
  public var frame: Int
  /// The image, output-sized; nil = none yet (the background colour shows).
  public var image: Image?
  /// Events for this frame.
  public var notices: [CameraImageNotice]
}

/// What decoding ahead cost (bench B6's camera-image line).
public struct CameraImageTimings: Sendable {
  /// Per decoded image: reading and decoding it (the video source: reading ffmpeg's frame),
  /// on the decoder thread.
  public var decode: [Duration] = []
  /// Per decoded image: undistorting and resampling it onto the output camera.
  public var resample: [Duration] = []
  /// Per output frame: how long the frame loop waited in `next()` for its image (zero while
  /// decoding keeps ahead).
  public var frameLoopWait: [Duration] = []
  /// The most frames that were decoded and waiting in the queue at once (≤ its capacity).
  public var mostQueued = 0
  /// The queue's capacity, frames.
  public var capacity = 0
}

/// Decodes and resamples the camera image of each output frame on a thread of its own, ahead
/// of the frame loop, through a bounded queue (`capacity` frames), so decoding overlaps
/// rendering and memory stays flat however long the run.
///
/// Timing rule: output frame i shows the latest image whose time is at or before
/// `queryTimes(i)` (the frame's time on the recording's clock, the clock offset included),
/// within `tolerance` seconds. An image shown by consecutive frames is decoded once.
public final class RecordedBackgroundFeed: @unchecked Sendable {
  /// Frames decoded ahead at most.
  public static let defaultCapacity = 3
  /// Equal times within this many seconds count as "at" (1 µs, TUM's stamp resolution).
  public static let tolerance = 1e-6

  private let condition = NSCondition()
  private var queue: [Result<RecordedFrame, any Error>] = []
  private var cancelled = false
  private var finished = false
  private let capacity: Int
  private let done = DispatchSemaphore(value: 0)
  private let source: any RecordedImageSource
  private var statistics = CameraImageTimings()

  /// Starts decoding.
  /// - Parameters:
  ///   - source: the images.
  ///   - lens: their lens (declared size).
  ///   - output: the output camera; `viewport`: how the capture is shown.
  ///   - fill: RGBA where a ray misses the recorded image.
  ///   - frames: the output frames wanted, in order.
  ///   - queryTime: frame → time on the recording's clock.
  public init(
    source: any RecordedImageSource, lens: CameraLens, output: CameraIntrinsics,
    viewport: Viewport, fill: SIMD4<UInt8>, frames: ClosedRange<Int>,
    queryTime: @escaping @Sendable (Int) -> Double, capacity: Int = defaultCapacity
  ) {
    self.source = source
    self.capacity = max(1, capacity)
    statistics.capacity = self.capacity
    let thread = Thread { [self] in
      produce(
        lens: lens, output: output, viewport: viewport, fill: fill, frames: frames,
        queryTime: queryTime)
      done.signal()
    }
    thread.name = "camera images"
    thread.start()
  }

  deinit { cancel() }

  /// What decoding cost so far.
  public var timings: CameraImageTimings {
    condition.lock()
    defer { condition.unlock() }
    return statistics
  }

  /// The next frame's image, in frame order; blocks until it is decoded.
  /// - Throws: what ended the source (a video decoder failing mid-way).
  public func next() throws -> RecordedFrame {
    let clock = ContinuousClock()
    let start = clock.now
    condition.lock()
    while queue.isEmpty && !finished { condition.wait() }
    statistics.frameLoopWait.append(clock.now - start)
    guard !queue.isEmpty else {
      condition.unlock()
      throw CameraImageFailure(reason: "no more camera images")
    }
    let result = queue.removeFirst()
    condition.broadcast()
    condition.unlock()
    return try result.get()
  }

  /// Stops the decoder thread and waits for it (at most 10 s), then ends the source.
  /// - Throws: the source's `finish()` error.
  public func cancel() {
    condition.lock()
    let already = cancelled
    cancelled = true
    condition.broadcast()
    condition.unlock()
    if !already { _ = done.wait(timeout: .now() + 10) }
  }

  /// Ends the feed after the last frame: stops the thread and finishes the source.
  /// - Throws: the source's failure.
  public func finish() throws {
    cancel()
    try source.finish()
  }

  private func push(_ item: Result<RecordedFrame, any Error>) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while queue.count >= capacity && !cancelled { condition.wait() }
    guard !cancelled else { return false }
    queue.append(item)
    statistics.mostQueued = max(statistics.mostQueued, queue.count)
    condition.broadcast()
    return true
  }

  private func record(decode: Duration, resample: Duration) {
    condition.lock()
    statistics.decode.append(decode)
    statistics.resample.append(resample)
    condition.unlock()
  }

  private func produce(
    lens: CameraLens, output: CameraIntrinsics, viewport: Viewport, fill: SIMD4<UInt8>,
    frames: ClosedRange<Int>, queryTime: (Int) -> Double
  ) {
    defer {
      condition.lock()
      finished = true
      condition.broadcast()
      condition.unlock()
    }
    let times = source.times
    var resamplers: [SIMD2<Int>: CameraImageResampler] = [:]
    var shownIndex: Int?  // the image decoded last (kept when a later one fails)
    var shown: Image?
    var decodedUpTo = -1  // images before this were tried already
    var inGap = false
    var warnedSizes: Set<SIMD2<Int>> = []
    var blindSizes: [SIMD2<Int>] = []  // sizes whose resampler sees nothing, not yet warned of
    let clock = ContinuousClock()
    /// Decodes image `index` and resamples it onto the output camera.
    func decode(_ index: Int) throws -> (Image, size: SIMD2<Int>) {
      let start = clock.now
      let (image, knownOpaque) = try source.imageKnowingOpacity(at: index)
      let decoded = clock.now
      let size = SIMD2(image.width, image.height)
      if resamplers[size] == nil {
        let declared = SIMD2(lens.intrinsics.width, lens.intrinsics.height)
        let sized = size == declared ? lens : lens.scaled(toWidth: size.x, height: size.y)
        let resampler = CameraImageResampler(
          lens: sized, output: output, viewport: viewport, fill: fill)
        resamplers[size] = resampler
        if !resampler.seesImage { blindSizes.append(size) }
      }
      let resampled = resamplers[size]?.resample(image, knownOpaque: knownOpaque) ?? image
      record(decode: decoded - start, resample: clock.now - decoded)
      return (resampled, size)
    }
    // A run of frames A…B (`--frames`) starts where a whole run is at frame A: the image the
    // frames before A picked last is decoded first (walking back past unreadable ones, as a
    // whole run would have kept an earlier one), so frame A shows what it shows in a whole run
    // even when its image is older than the range, and the images of frames before A give no
    // warnings. A video's source never skips an image (its failures end the run), so its
    // images are still asked for in increasing order.
    if frames.lowerBound > 0 {
      var picks: [Int] = []
      for frame in 0..<frames.lowerBound {
        if let pick = Self.index(in: times, atOrBefore: queryTime(frame)), pick != picks.last {
          picks.append(pick)
        }
      }
      decodedUpTo = picks.last ?? -1
      for pick in picks.reversed() {
        do {
          let decoded = try decode(pick)
          shown = decoded.0
          shownIndex = pick
          // A whole run warned of this size before A (as `warnedSizes`).
          if decoded.size != SIMD2(lens.intrinsics.width, lens.intrinsics.height) {
            warnedSizes.insert(decoded.size)
          }
          blindSizes.removeAll { $0 == decoded.size }
          break
        } catch is CameraImageFailure {
          continue
        } catch {
          _ = push(.failure(error))
          return
        }
      }
      // A whole run is in its gap at frame A when no image before A could be shown: its
      // camera-image-missing event went out at frame 0, not again here.
      inGap = shown == nil
    }
    for frame in frames {
      var notices: [CameraImageNotice] = []
      let query = queryTime(frame)
      let wanted = Self.index(in: times, atOrBefore: query)
      do {
        if let wanted, wanted > decodedUpTo {
          decodedUpTo = wanted
          do {
            let (image, size) = try decode(wanted)
            let declared = SIMD2(lens.intrinsics.width, lens.intrinsics.height)
            if size != declared, !warnedSizes.contains(size) {
              warnedSizes.insert(size)
              notices.append(
                warning(
                  "camera image is \(size.x)×\(size.y) pixels but the lens is for "
                    + "\(declared.x)×\(declared.y); resampled with the intrinsics scaled",
                  index: wanted))
            }
            shown = image
            shownIndex = wanted
            if blindSizes.contains(size) {
              blindSizes.removeAll { $0 == size }
              notices.append(
                warning(
                  "through recording.lens no output pixel sees the \(size.x)×\(size.y) camera "
                    + "image (its centre or distortion lies far off?): frames show the fill "
                    + "colour", index: wanted))
            }
          } catch let failure as CameraImageFailure {
            notices.append(
              warning(
                failure.reason
                  + (shownIndex == nil ? "; no image yet" : "; the previous image is kept"),
                index: wanted))
          }
        }
        if shown == nil {
          if !inGap {
            notices.append(
              CameraImageNotice(
                "camera-image-missing",
                [
                  ("reason", .string("no camera image at or before this frame's time")),
                  ("recordingTime", .number(query)),
                ]))
          }
          inGap = true
        } else {
          inGap = false
        }
        guard push(.success(RecordedFrame(frame: frame, image: shown, notices: notices)))
        else { return }
      } catch {
        _ = push(.failure(error))
        return
      }
    }
  }

  private func warning(_ reason: String, index: Int) -> CameraImageNotice {
    var fields: [(String, JSONValue)] = [
      ("reason", .string(reason)), ("file", .string(source.name(of: index))),
    ]
    if let line = source.line(of: index) { fields.append(("line", .integer(line))) }
    return CameraImageNotice("warning", fields)
  }

  /// The latest index whose time is at or before `time` (within `tolerance`), nil if none.
  public static func index(in times: [Double], atOrBefore time: Double) -> Int? {
    let limit = time + tolerance
    var low = 0
    var high = times.count
    while low < high {
      let middle = (low + high) / 2
      if times[middle] <= limit { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }
}
