import ARChildProcess
import ARRenderCore
import ARSupport
import Foundation

/// Why a video's frames could not be decoded. `arsim` exits 69 when a tool is missing or
/// failed (not the video: ffprobe said nothing, crashed or could not be run) and 73 when
/// ffmpeg failed while decoding (frames written before stay complete).
public enum CameraVideoError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No `ffmpeg`/`ffprobe` on `PATH` (or at `ARSIM_FFMPEG`/`ARSIM_FFPROBE`).
  case toolNotFound(String)
  /// `tool` (the executable at `executable`) failed on `video` without a word about the file:
  /// it exited non-zero with nothing on standard error, was killed by a signal, could not be
  /// started or did not answer in time (`reason`).
  case toolFailed(tool: String, executable: String, video: String, reason: String)
  /// ffmpeg failed on `video` while decoding; `lastLines` are its last lines of standard error.
  case failed(video: String, reason: String, lastLines: [String])

  /// A terminal message naming the video, and the tool and the package to install.
  public var description: String {
    switch self {
    case .toolNotFound(let tool):
      return "\(tool) not found (PATH, or ARSIM_\(tool.uppercased())); install the Debian "
        + "package 'ffmpeg' (apt-get install ffmpeg, or Scripts/install-dependencies)"
    case .toolFailed(let tool, let executable, let video, let reason):
      return "\(tool) (\(InputText.escaped(executable))) failed on \(InputText.escaped(video)): "
        + "\(reason); the tool failed, not the video: check ARSIM_\(tool.uppercased()) or "
        + "reinstall the Debian package 'ffmpeg'"
    case .failed(let video, let reason, let lines):
      return "\(InputText.escaped(video)): \(reason)"
        + (lines.isEmpty ? "" : "; it said:\n" + lines.map { "  " + $0 }.joined(separator: "\n"))
    }
  }
}

/// What ffprobe found in a video, before any frame is decoded: the scene loader probes it so
/// that a video ffmpeg cannot deliver is refused before a run touches its output folder.
public struct VideoProbe: Hashable, Sendable {
  /// The video file.
  public let path: String
  /// Frame size, pixels.
  public let width: Int
  /// Frame size, pixels.
  public let height: Int
  /// Presentation times in seconds, counted from the first frame ffmpeg delivers (0), one per
  /// frame it delivers (`VideoFrameSource.presentationTimes(_:)`).
  public let times: [Double]
  /// The ffmpeg executable found when probing, which decodes the frames.
  public let ffmpeg: String
}

/// A video's frames as recorded camera images: ffprobe lists the presentation times
/// (`probe(_:environment:)`), ffmpeg decodes the first video stream to RGBA over a pipe
/// (`-f rawvideo`, one frame per decoded picture, `-fps_mode passthrough`, no autorotation:
/// the frames as stored, which the lens describes). Times count from the first frame ffmpeg
/// delivers (its time is 0). Every wait is bounded (`ChildProcess.readTimeoutSeconds`, 60 s).
public final class VideoFrameSource: RecordedImageSource, @unchecked Sendable {
  /// Presentation times in seconds from the first frame, one per frame ffmpeg delivers.
  public let times: [Double]
  /// The video file.
  public let path: String
  /// Frame size.
  public let width: Int
  /// Frame size.
  public let height: Int
  private let ffmpeg: ChildProcess
  private var nextFrame = 0

  /// Probes `path` and starts decoding it (`probe(_:environment:)`, then `open(_:environment:)`).
  /// - Throws: as those two.
  public static func open(
    _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> VideoFrameSource {
    try open(probe(path, environment: environment), environment: environment)
  }

  /// Starts decoding a probed video.
  /// - Throws: `CameraVideoError.toolFailed` (exit 69) when ffmpeg cannot be started.
  public static func open(
    _ probe: VideoProbe, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> VideoFrameSource {
    let process: ChildProcess
    do {
      process = try ChildProcess(
        executable: probe.ffmpeg,
        arguments: [
          "-v", "error", "-nostdin", "-noautorotate", "-i", probe.path, "-map", "0:v:0",
          "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-",
        ], standardOutput: .readByCaller, environment: environment)
    } catch {
      throw CameraVideoError.toolFailed(
        tool: "ffmpeg", executable: probe.ffmpeg, video: probe.path, reason: "\(error)")
    }
    return VideoFrameSource(probe: probe, ffmpeg: process)
  }

  /// Checks `path` with ffprobe: container, size and the frames ffmpeg will deliver. Runs no
  /// ffmpeg and writes nothing.
  /// - Throws: `InputError` `.missingInput` when `path` is not a regular file
  ///   (`FileIO.checkRegularFile(_:)`), `.badData` (exit 65) when ffprobe cannot read the video
  ///   (with its last lines), finds no video stream or frames, or the frame is over the image
  ///   limits; `CameraVideoError.toolNotFound` without ffmpeg/ffprobe, `.toolFailed` (exit 69)
  ///   when ffprobe fails without saying why, is killed, cannot start or times out (60 s).
  public static func probe(
    _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> VideoProbe {
    guard
      let ffprobe = ExecutableLocator.find(
        "ffprobe", environment: environment, overrideVariable: "ARSIM_FFPROBE")
    else { throw CameraVideoError.toolNotFound("ffprobe") }
    guard
      let ffmpeg = ExecutableLocator.find(
        "ffmpeg", environment: environment, overrideVariable: "ARSIM_FFMPEG")
    else { throw CameraVideoError.toolNotFound("ffmpeg") }
    // The input rule before any child starts: ffprobe would block on a FIFO.
    try FileIO.checkRegularFile(path)
    // One probe for the container and the first video stream's size, as `key=value` lines.
    var probed: [Substring: Substring] = [:]
    for line in try run(
      ffprobe, path,
      [
        "-show_entries", "stream=width,height:format=format_name", "-of",
        "default=noprint_wrappers=1",
      ]
    ).split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      probed[line[..<equals]] = line[line.index(after: equals)...]
    }
    // ffprobe opens far more than videos (a text file is its `tty` format, drawn as a picture):
    // only the containers the docs name are recordings.
    let container = String(probed["format_name"] ?? "").trimmingCharacters(in: .whitespaces)
    let names = container.split(separator: ",")
    guard names.contains("mov") || names.contains("mp4") || names.contains("matroska") else {
      throw InputError(
        .badData, InputLocation(file: path),
        "not an MP4, MOV or MKV video (ffprobe reads it as "
          + "\(InputText.quoted(container.isEmpty ? "nothing" : container, limit: 40)))")
    }
    let size = ["width", "height"].compactMap { key in
      probed[Substring(key)].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    guard size.count == 2 else {
      throw InputError(.badData, InputLocation(file: path), "ffprobe found no video stream")
    }
    try CameraImageDecoder.checkSize(width: size[0], height: size[1], file: path)
    let presentation = presentationTimes(
      try run(ffprobe, path, ["-show_entries", "packet=pts_time,flags", "-of", "compact=p=0"]))
    guard let first = presentation.first else {
      throw InputError(.badData, InputLocation(file: path), "ffprobe found no frames")
    }
    return VideoProbe(
      path: path, width: size[0], height: size[1], times: presentation.map { $0 - first },
      ffmpeg: ffmpeg)
  }

  /// The presentation times of the frames ffmpeg delivers, sorted, from ffprobe's packet lines
  /// (`pts_time=0.033333|flags=K__`): a packet flagged `D` (discard: before the start of an
  /// MP4 edit list, as a trimmed `-c copy` file keeps from its keyframe on) is decoded but
  /// never output, and a packet without a time is not counted.
  static func presentationTimes(_ packets: String) -> [Double] {
    packets.split(separator: "\n").compactMap { line -> Double? in
      var fields: [Substring: Substring] = [:]
      for field in line.split(separator: "|") {
        guard let equals = field.firstIndex(of: "=") else { continue }
        fields[field[..<equals]] = field[field.index(after: equals)...]
      }
      guard fields["flags"]?.contains("D") != true,
        let time = fields["pts_time"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
        time.isFinite
      else { return nil }
      return time
    }.sorted()
  }

  private init(probe: VideoProbe, ffmpeg: ChildProcess) {
    path = probe.path
    width = probe.width
    height = probe.height
    times = probe.times
    self.ffmpeg = ffmpeg
  }

  /// ffprobe's standard output for `arguments` on the first video stream of `path`.
  /// - Throws: `InputError` `.badData` quoting ffprobe's last lines when it explains why it
  ///   failed; `CameraVideoError.toolFailed` when it says nothing, is killed, cannot start or
  ///   times out.
  private static func run(_ ffprobe: String, _ path: String, _ arguments: [String]) throws
    -> String
  {
    func toolFailed(_ reason: String) -> CameraVideoError {
      .toolFailed(tool: "ffprobe", executable: ffprobe, video: path, reason: reason)
    }
    let (termination, output, lines): (ChildProcess.Termination, [UInt8], [String])
    do {
      (termination, output, lines) = try ChildProcess.run(
        ffprobe, ["-v", "error", "-select_streams", "v:0"] + arguments + [path],
        timeoutSeconds: 60)
    } catch {
      throw toolFailed(error.description)
    }
    if termination.succeeded { return String(decoding: output, as: UTF8.self) }
    // Its own words about the file make the video bad input (65), quoted; silence, a crash or
    // a shell's "cannot run" status (126, 127) is the tool's failure (69).
    guard let status = termination.exitStatus else {
      throw toolFailed("it was killed by signal \(termination.signal ?? 0)")
    }
    guard let last = lines.last else {
      throw toolFailed("it exited with status \(status) without saying why")
    }
    guard status != 126, status != 127 else {
      throw toolFailed("it could not run (status \(status)): \(InputText.quoted(last))")
    }
    let quoted = lines.suffix(2).map { InputText.quoted(ffprobeReason($0, path: path)) }
    throw InputError(
      .badData, InputLocation(file: path),
      "ffprobe cannot read the video: " + quoted.joined(separator: "; "))
  }

  /// An ffprobe error line without what the message names already or that changes from run to
  /// run, so that the excerpt shows the reason: the path it starts with (`PATH: reason`) and
  /// a component's context (`[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d1c3a0] reason`, an address).
  static func ffprobeReason(_ line: String, path: String) -> Substring {
    var reason = line.hasPrefix(path + ": ") ? line.dropFirst(path.count + 2) : line[...]
    if reason.hasPrefix("["), let close = reason.firstIndex(of: "]"),
      reason[..<close].contains(" @ 0x")
    {
      reason = reason[reason.index(after: close)...].drop { $0 == " " }
    }
    return reason
  }

  /// `video.mp4 frame N`.
  public func name(of index: Int) -> String { "\(InputText.escaped(path)) frame \(index)" }
  /// A video's frames have no input line.
  public func line(of index: Int) -> Int? { nil }

  /// Decodes up to frame `index` (frames before it are read and dropped).
  /// - Throws: `CameraVideoError.failed` with ffmpeg's last lines when it ends or fails before
  ///   the frame: the run ends (73).
  public func image(at index: Int) throws -> Image {
    let count = width * height * 4
    while true {
      let bytes: [UInt8]
      do {
        bytes = try ffmpeg.readOutput(exactly: count)
      } catch {
        throw CameraVideoError.failed(
          video: path, reason: "\(error)", lastLines: ffmpeg.lastErrorLines(8))
      }
      guard bytes.count == count else {
        let ended = try? ffmpeg.finish(timeoutSeconds: 5)
        let status = ended.map { $0.exitStatus.map { "exit \($0)" } ?? "signal \($0.signal ?? 0)" }
        throw CameraVideoError.failed(
          video: path,
          reason: "ffmpeg ended at frame \(nextFrame) of \(times.count) (\(status ?? "no status"))",
          lastLines: ffmpeg.lastErrorLines(8))
      }
      nextFrame += 1
      if nextFrame - 1 == index {
        // The buffer has width · height · 4 bytes, checked above.
        guard let image = Image(width: width, height: height, pixels: bytes) else {
          throw CameraVideoError.failed(
            video: path, reason: "frame \(index) is not \(width)×\(height) RGBA", lastLines: [])
        }
        return image
      }
    }
  }

  /// Waits for ffmpeg when every frame was read; a run that stopped earlier stops it.
  /// - Throws: `CameraVideoError.failed` when ffmpeg failed after the last frame.
  public func finish() throws {
    guard nextFrame >= times.count else { return }  // the child is killed with its handle
    do {
      let ended = try ffmpeg.finish(timeoutSeconds: 60)
      guard ended.succeeded else {
        throw CameraVideoError.failed(
          video: path, reason: "ffmpeg failed", lastLines: ffmpeg.lastErrorLines(8))
      }
    } catch let error as ChildProcessError {
      throw CameraVideoError.failed(
        video: path, reason: error.description, lastLines: ffmpeg.lastErrorLines(8))
    }
  }
}
