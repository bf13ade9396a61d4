import ARFormats
import ARRender
import ARSession
import ARSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes one output frame so that a kill at any moment leaves no partial file under a final
/// name and every published PNG has its trace line: PNG bytes go to a temporary file, the
/// events and trace lines are appended (unbuffered), then the PNG is renamed into place.
///
/// Encoding (`encode`) is pure and may run on any thread, for several frames at once; `commit`
/// must be called in frame order, one frame at a time (`FramePipeline` does both).
struct FrameWriter: @unchecked Sendable {  // LineFiles: only `commit` touches them, serially
  let directory: String
  let folder: OutputFolder
  let png: PNGEncoder
  let events: LineFile
  let trace: LineFile

  /// `frame_00012.png` (`FrameFileName`).
  static func frameName(_ frame: Int) -> String { FrameFileName.name(frame) }

  /// `depth_00012.png` (`FrameFileName`).
  static func depthName(_ frame: Int) -> String { FrameFileName.name(frame, kind: .depth) }

  /// The PNG bytes of a frame's image and (when rendered) depth map.
  /// - Throws: `PNGError.encodingFailed`.
  func encode(_ job: OutputFrame) throws -> EncodedFrame {
    let path = directory + "/" + Self.frameName(job.frame)
    let bytes = try png.encode(job.rendered.image, file: path)
    let depthPath = directory + "/" + Self.depthName(job.frame)
    let depthBytes = try job.rendered.depth.map { try png.encode($0, file: depthPath) }
    return EncodedFrame(image: bytes, depth: depthBytes)
  }

  /// Publishes an encoded frame: temporary files, events and trace lines, then the renames.
  /// When any step fails, the frame's lines are cut off the line files again, its temporary
  /// files and an already published depth map removed, so every published frame still has its
  /// lines and no line names an unpublished frame.
  /// - Throws: `InputError` `.cannotCreate`.
  func commit(_ job: OutputFrame, _ encoded: EncodedFrame) throws {
    // A link, folder or special file under a frame's name is refused by the commits, after
    // the lines went out, so the rollback below is what keeps the invariant.
    let path = Self.frameName(job.frame)
    let depthPath = encoded.depth.map { _ in Self.depthName(job.frame) }
    let eventsLength = events.length
    let traceLength = trace.length
    var temporaries: [String] = []
    var publishedDepth: String?
    do {
      temporaries.append(try folder.writeTemporary(encoded.image, for: path))
      if let depth = encoded.depth, let depthPath {
        temporaries.append(try folder.writeTemporary(depth, for: depthPath))
      }
      try events.append(job.eventLines)
      try trace.append(job.traceLine)
      if let depthPath {
        try folder.commit(temporaries[1], to: depthPath)
        publishedDepth = depthPath
      }
      try folder.commit(temporaries[0], to: path)
    } catch {
      for temporary in temporaries { try? folder.remove(temporary) }
      if let publishedDepth { try? folder.remove(publishedDepth) }
      try events.truncate(to: eventsLength)
      try trace.truncate(to: traceLength)
      throw error
    }
  }
}

/// The PNG bytes of one frame.
struct EncodedFrame: Sendable {
  var image: [UInt8]
  var depth: [UInt8]?
}
