import ARChildProcess
import ARRender
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How `VideoEncoder` asks ffmpeg to encode.
public struct VideoEncoderSettings: Hashable, Sendable {
  /// The frame rate written into the video (the scene's output rate).
  public var frameRate: VideoFrameRate
  /// x264's constant rate factor, 0 (lossless) … 51; 18 looks visually lossless for renders.
  public var constantRateFactor: Int = 18
  /// x264's speed/size preset (`ultrafast` … `veryslow`).
  public var preset: String = "medium"
  /// More ffmpeg output options, inserted before the output file (tests use it to make ffmpeg
  /// fail for real).
  public var extraOutputArguments: [String] = []
  /// Seconds ffmpeg may go without accepting a byte of a frame (its pipe full) before the
  /// encode fails; `render --video-timeout` sets it (Documentation/Watching.md).
  public var inputTimeoutSeconds: Double = VideoEncoderSettings.defaultTimeoutSeconds
  /// Seconds ffmpeg may take to finish after the last frame (5 × the input timeout).
  public var finishTimeoutSeconds: Double = 5 * VideoEncoderSettings.defaultTimeoutSeconds

  /// The default input timeout, seconds (60).
  public static let defaultTimeoutSeconds: Double = 60

  /// Settings for `frameRate` with the defaults above.
  public init(frameRate: VideoFrameRate) { self.frameRate = frameRate }
}

/// Encodes frames into an MP4 (H.264, `yuv420p`) through an `ffmpeg` child process.
///
/// Frames go to ffmpeg's standard input as raw I420 (`YCbCr709.planes(of:)`: ARSim converts,
/// so the matrix and range are exactly the tags), no temporary frame files. The video gets:
/// - codec H.264 (libx264), `yuv420p`, the frame rate of `settings`, one frame per `append`;
/// - colour tags BT.709 primaries, transfer and matrix, limited range, chroma sited at the
///   centre of each 2×2 block;
/// - `+faststart` (the index before the media, so browsers play while downloading);
/// - the size of the frames rounded up to even (odd sizes padded, see `YCbCr709`).
///
/// ffmpeg writes a temporary file beside the output (`OUT.arsim-tmp-PID`), renamed onto the
/// output only when ffmpeg succeeded — exit status 0, no error line on its standard error, and
/// a file whose MP4 boxes are whole (`MP4Structure`) — so a failed encode never leaves a
/// partial video under the final name. ffmpeg is found through `ARSIM_FFMPEG` or `PATH`.
public final class VideoEncoder: @unchecked Sendable {
  /// The video file.
  public let outputPath: String
  /// The settings.
  public let settings: VideoEncoderSettings
  private let ffmpeg: String
  private let target: String
  private let temporary: String
  private var child: ChildProcess? {
    get { childLock.withLock { storedChild } }
    set { childLock.withLock { storedChild = newValue } }
  }
  private var storedChild: ChildProcess?
  /// `abandon()` may read the child from a signal's cleanup thread.
  private let childLock = NSLock()
  private var size: (width: Int, height: Int)?
  private var finished = false

  /// Frames appended so far.
  public private(set) var frameCount = 0

  /// Prepares a video at `outputPath`; ffmpeg starts with the first frame (its size fixes the
  /// video's).
  /// - Parameter environment: where `ARSIM_FFMPEG` and `PATH` are read.
  /// - Throws: `VideoEncoderError.ffmpegNotFound`, or `.cannotCreate` when the output is not
  ///   a place a regular file can be written.
  public init(
    outputPath: String, settings: VideoEncoderSettings, environment: [String: String]
  ) throws(VideoEncoderError) {
    self.outputPath = outputPath
    self.settings = settings
    guard
      let ffmpeg = ExecutableLocator.find(
        "ffmpeg", environment: environment, overrideVariable: "ARSIM_FFMPEG")
    else {
      let searched =
        environment["ARSIM_FFMPEG"].map { "ARSIM_FFMPEG=\($0) is not an executable" }
        ?? "searched PATH=\(environment["PATH"] ?? "")"
      throw .ffmpegNotFound(searched: searched)
    }
    self.ffmpeg = ffmpeg
    do {
      target = try FileIO.destination(for: outputPath)
    } catch {
      throw .cannotCreate(output: outputPath, reason: Self.reason(error))
    }
    temporary = target + FileIO.temporarySuffix + String(getpid())
  }

  /// An output failure's reason without its path (the error names the video once).
  private static func reason(_ error: any Error) -> String {
    (error as? InputError)?.reason ?? "\(error)"
  }

  deinit { cancel() }

  /// The ffmpeg arguments for frames of `width`×`height` (padded to even).
  func arguments(width: Int, height: Int) -> [String] {
    let tags = [
      "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709",
      "-color_trc", "bt709",
    ]
    return ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
      + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s:v", "\(width)x\(height)"]
      + ["-framerate", settings.frameRate.description] + tags + ["-i", "pipe:0"]
      + ["-c:v", "libx264", "-preset", settings.preset, "-crf", "\(settings.constantRateFactor)"]
      + ["-pix_fmt", "yuv420p"] + tags + ["-chroma_sample_location", "center"]
      + ["-movflags", "+faststart"] + settings.extraOutputArguments + ["-f", "mp4", temporary]
  }

  /// Encodes one frame (its alpha is ignored).
  /// - Throws: `.frameSizeChanged` when its size differs from the first frame's,
  ///   `.invalidSettings` for an empty first frame, `.process` / `.ffmpegFailed` when ffmpeg
  ///   cannot start or stops reading (with its last lines).
  public func append(_ image: Image) throws(VideoEncoderError) {
    if let size {
      guard size == (image.width, image.height) else {
        throw .frameSizeChanged(
          output: outputPath, frame: frameCount, expected: "\(size.width)×\(size.height)",
          actual: "\(image.width)×\(image.height)")
      }
    } else {
      guard image.width > 0, image.height > 0 else {
        throw .invalidSettings(output: outputPath, reason: "frames are empty (0 pixels)")
      }
      size = (image.width, image.height)
      unlink(temporary)
      do {
        child = try ChildProcess(
          executable: ffmpeg,
          arguments: arguments(
            width: YCbCr709.paddedWidth(image.width), height: YCbCr709.paddedHeight(image.height)
          ))
      } catch {
        throw .process(output: outputPath, reason: error.description, lastLines: [])
      }
      child?.writeTimeoutSeconds = settings.inputTimeoutSeconds
    }
    guard let child else { throw .cannotCreate(output: outputPath, reason: "encoder finished") }
    do {
      try child.write(YCbCr709.planes(of: image))
    } catch {
      // A stalled ffmpeg is stopped; one that stopped reading has exited or is about to: its
      // own words say why.
      guard case .timedOut = error else { throw failure(child, fallback: error.description) }
      kill(child.pid, SIGKILL)
      finished = true
      _ = try? child.finish(timeoutSeconds: 5)
      unlink(temporary)
      throw .process(
        output: outputPath, reason: error.description, lastLines: child.lastErrorLines(8))
    }
    frameCount += 1
  }

  /// Waits for ffmpeg to finish and publishes the video under `outputPath`.
  /// - Throws: `.ffmpegFailed` with ffmpeg's last lines (also when it exited 0 but wrote an
  ///   error line or an incomplete MP4), `.process` on a timeout,
  ///   `.cannotCreate` when the rename fails, `.invalidSettings` when no frame was appended.
  public func finish() throws(VideoEncoderError) {
    guard !finished else { return }
    finished = true
    guard let child else {
      throw .invalidSettings(output: outputPath, reason: "no frames to encode")
    }
    let termination: ChildProcess.Termination
    do {
      termination = try child.finish(timeoutSeconds: settings.finishTimeoutSeconds)
    } catch {
      unlink(temporary)
      throw .process(
        output: outputPath, reason: error.description, lastLines: child.lastErrorLines(8))
    }
    guard termination.succeeded else {
      unlink(temporary)
      throw .ffmpegFailed(
        output: outputPath, status: Self.describe(termination), lastLines: child.lastErrorLines(8))
    }
    // ffmpeg exits 0 after "Error writing trailer" (a full disk): its word is not enough.
    // At `-loglevel error` any error line is a failure, and the file must be a whole MP4.
    let lines = child.lastErrorLines(8)
    let problem =
      lines.contains(where: { $0.lowercased().contains("error") })
      ? "ffmpeg reported an error" : MP4Structure.problem(temporary)
    if let problem {
      unlink(temporary)
      throw .ffmpegFailed(
        output: outputPath, status: "exit status 0, but \(problem)", lastLines: lines)
    }
    do {
      try FileIO.commit(temporary, to: target, named: outputPath)
    } catch {
      throw .cannotCreate(output: outputPath, reason: Self.reason(error))
    }
  }

  /// For a cleanup as the process ends on a signal (`arsim render --video`, `arsim video`):
  /// kills ffmpeg if it runs (a killed run's ffmpeg would otherwise go on encoding what it had
  /// into the temporary file) and removes the temporary file, without waiting for ffmpeg.
  /// Safe to call from another thread than the one appending; the encoder is unusable after.
  public func abandon() {
    if let child { kill(child.pid, SIGKILL) }
    unlink(temporary)
  }

  /// Stops ffmpeg (if running) and removes its temporary file; the output is not written.
  public func cancel() {
    guard !finished else { return }
    finished = true
    if let child {
      kill(child.pid, SIGKILL)
      _ = try? child.finish(timeoutSeconds: 5)
    }
    unlink(temporary)
  }

  /// Removes `OUT.arsim-tmp-PID` files beside `outputPath` that a killed run left (their
  /// process is gone; a running encode's file is kept) and returns their paths, so the
  /// caller can say so. The video's folder is not locked as a run's folder is, hence the
  /// process check instead of `FileIO.removeStaleTemporaryFiles(in:)`.
  public static func removeStaleTemporaryFiles(of outputPath: String) -> [String] {
    let slash = outputPath.lastIndex(of: "/")
    let folder = slash.map { String(outputPath[..<$0]) } ?? "."
    let name = slash.map { String(outputPath[outputPath.index(after: $0)...]) } ?? outputPath
    let prefix = name + FileIO.temporarySuffix
    guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return [] }
    defer { closedir(directory) }
    var removed: [String] = []
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard entryName.hasPrefix(prefix), let pid = pid_t(entryName.dropFirst(prefix.count)),
        pid > 0, kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let path = (slash == nil ? "" : folder + "/") + entryName
      if unlink(path) == 0 { removed.append(path) }
    }
    return removed.sorted()
  }

  /// ffmpeg's own failure once it has exited (up to 10 s), else `fallback`.
  private func failure(_ child: ChildProcess, fallback: String) -> VideoEncoderError {
    finished = true
    defer { unlink(temporary) }
    guard let termination = try? child.finish(timeoutSeconds: 10), !termination.succeeded else {
      return .process(output: outputPath, reason: fallback, lastLines: child.lastErrorLines(8))
    }
    return .ffmpegFailed(
      output: outputPath, status: Self.describe(termination), lastLines: child.lastErrorLines(8))
  }

  private static func describe(_ termination: ChildProcess.Termination) -> String {
    if let status = termination.exitStatus { return "exit status \(status)" }
    return "signal \(termination.signal ?? 0)"
  }
}
