import ARSupport

/// Why a video could not be written. The frames (PNG files) are never touched by the encoder.
public enum VideoEncoderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No `ffmpeg` executable on `PATH` (or at `ARSIM_FFMPEG`): `searched` says where.
  case ffmpegNotFound(searched: String)
  /// ffmpeg ended with a failure; `lastLines` are the last lines of its standard error.
  case ffmpegFailed(output: String, status: String, lastLines: [String])
  /// ffmpeg could not be started, stopped reading, or did not finish in time.
  case process(output: String, reason: String, lastLines: [String])
  /// A frame's size differs from the video's first frame.
  case frameSizeChanged(output: String, frame: Int, expected: String, actual: String)
  /// The settings cannot be encoded (e.g. an empty frame).
  case invalidSettings(output: String, reason: String)
  /// The output file cannot be created or published.
  case cannotCreate(output: String, reason: String)

  /// A terminal message naming the output, and for ffmpeg's failures its last lines.
  public var description: String {
    switch self {
    case .ffmpegNotFound(let searched):
      return "ffmpeg not found (\(searched)); install the Debian package 'ffmpeg' "
        + "(apt-get install ffmpeg, or Scripts/install-dependencies) or set ARSIM_FFMPEG"
    case .ffmpegFailed(let output, let status, let lines):
      return "\(InputText.escaped(output)): ffmpeg failed (\(status))" + Self.quoted(lines)
    case .process(let output, let reason, let lines):
      return "\(InputText.escaped(output)): \(reason)" + Self.quoted(lines)
    case .frameSizeChanged(let output, let frame, let expected, let actual):
      return
        "\(InputText.escaped(output)): frame \(frame) is \(actual), the video's frames are \(expected)"
    case .invalidSettings(let output, let reason):
      return "\(InputText.escaped(output)): \(reason)"
    case .cannotCreate(let output, let reason):
      return "\(InputText.escaped(output)): cannot create the video: \(reason)"
    }
  }

  private static func quoted(_ lines: [String]) -> String {
    lines.isEmpty ? "" : "; ffmpeg said:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
  }
}
