import ARRenderCore

/// Where recorded camera images come from: an image list's files or a video's frames.
public protocol RecordedImageSource: AnyObject, Sendable {
  /// Capture times in seconds on the recording's clock, increasing, one per image.
  var times: [Double] { get }
  /// A short name for image `index` in messages (its file, or `video.mp4 frame 12`).
  func name(of index: Int) -> String
  /// The input line naming image `index`, if any.
  func line(of index: Int) -> Int?
  /// Decodes image `index`. Indices are asked for in increasing order.
  /// - Throws: `CameraImageFailure.skipped` for an image that cannot be read (the run warns and
  ///   keeps the previous image), any other error to end the run.
  func image(at index: Int) throws -> Image
  /// Decodes image `index` as `image(at:)` does, and tells whether its every alpha byte is
  /// known to be 255 without looking (a JPEG decodes opaque), so the resampler can hand it
  /// through without checking. The default says not known.
  /// - Throws: as `image(at:)`.
  func imageKnowingOpacity(at index: Int) throws -> (image: Image, knownOpaque: Bool)
  /// Ends decoding (a child process is waited for).
  /// - Throws: when the source failed in a way that ends the run.
  func finish() throws
}

extension RecordedImageSource {
  /// `image(at:)`, opacity not known.
  public func imageKnowingOpacity(at index: Int) throws -> (image: Image, knownOpaque: Bool) {
    (try image(at: index), false)
  }
}

/// An image that could not be read; the run goes on with the previous one.
public struct CameraImageFailure: Error, Sendable {
  /// Why, with the file.
  public var reason: String
  /// Creates a failure.
  public init(reason: String) { self.reason = reason }
}

/// The images of a `CameraImageList`, each decoded from its file (`CameraImageDecoder`).
public final class ImageListSource: RecordedImageSource {
  /// The list.
  public let list: CameraImageList
  /// The entries' times in seconds, in list order.
  public let times: [Double]

  /// A source reading the list's files.
  public init(list: CameraImageList) {
    self.list = list
    times = list.entries.map(\.time)
  }

  /// The entry's file path.
  public func name(of index: Int) -> String { list.entries[index].path }
  /// The entry's line in the list file.
  public func line(of index: Int) -> Int? { list.entries[index].line }

  /// Decodes the entry's file.
  /// - Throws: `CameraImageFailure` when it cannot be read or decoded.
  public func image(at index: Int) throws -> Image {
    try imageKnowingOpacity(at: index).image
  }

  /// Decodes the entry's file; a JPEG is known opaque (`CameraImageDecoder.decodeJPEG`).
  /// - Throws: `CameraImageFailure` when it cannot be read or decoded.
  public func imageKnowingOpacity(at index: Int) throws -> (image: Image, knownOpaque: Bool) {
    do {
      return try CameraImageDecoder.decodeKnowingOpacity(contentsOf: list.entries[index].path)
    } catch {
      throw CameraImageFailure(reason: "\(error)")
    }
  }

  /// Nothing to end: files are read on demand.
  public func finish() throws {}
}
