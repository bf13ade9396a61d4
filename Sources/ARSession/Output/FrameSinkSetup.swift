import ARRenderCore

/// What a sink is told when a run makes it: where the run writes, which frames, and what of
/// the scene a sink may need (its sessions' configurations, so that an app's own sink finds its
/// kind's, and the run's way of writing an image file).
public struct FrameSinkSetup: Sendable {
  /// The run's output folder (a sink writing files puts them here, or in a subfolder).
  public var outputDirectory: String
  /// Frames this run writes.
  public var frames: ClosedRange<Int>
  /// The scene's name.
  public var sceneName: String
  /// The configurations of the scene's sessions (this view's), in session order: a kind's
  /// sink finds its own with `as?` inside the kind's module.
  public var sessions: [any SessionConfiguration]
  /// Writes an image file as the run writes its frames (the scene's PNG preset, atomically).
  public var imageWriter: FrameImageWriter

  /// Creates a setup.
  public init(
    outputDirectory: String, frames: ClosedRange<Int>, sceneName: String,
    sessions: [any SessionConfiguration], imageWriter: FrameImageWriter
  ) {
    self.outputDirectory = outputDirectory
    self.frames = frames
    self.sceneName = sceneName
    self.sessions = sessions
    self.imageWriter = imageWriter
  }
}

/// Writes an `Image` to a file as the run writes its frames: the frame loop provides it (PNG
/// with the scene's preset, written atomically), so a sink outside the rendering layers writes
/// the same bytes as the frame files.
public struct FrameImageWriter: Sendable {
  private let body: @Sendable (Image, String) throws -> Void

  /// Creates a writer from `write(image, path)`.
  public init(_ write: @escaping @Sendable (Image, String) throws -> Void) { body = write }

  /// Writes `image` at `path`.
  /// - Throws: what the run's writer throws (`InputError` `.cannotCreate` for a file that cannot
  ///   be written).
  public func write(_ image: Image, to path: String) throws { try body(image, path) }
}
