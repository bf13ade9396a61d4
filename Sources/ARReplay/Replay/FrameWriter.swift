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
/// Staging (`stage`: encoding and the temporary files) touches no final name and may run on
/// any thread, for several frames at once; `commit` (lines and renames) must be called in frame
/// order, one frame at a time, and `discard` for a staged frame that is not committed
/// (`FramePipeline` does all three).
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

  /// Encodes a frame's image and (when rendered) depth map and writes each to its temporary
  /// file (`OutputFolder.writeTemporary`) straight from the encoder's buffers, with no copy of
  /// the PNG bytes. Nothing appears under a final name; on failure no temporary is left.
  /// - Throws: `PNGError.encodingFailed`, `InputError` `.cannotCreate`.
  func stage(_ job: OutputFrame) throws -> StagedFrame {
    let clock = ContinuousClock()
    let start = clock.now
    var encoding = Duration.zero
    let name = Self.frameName(job.frame)
    let image = try png.encode(job.rendered.image, file: directory + "/" + name) { bytes in
      encoding += clock.now - start
      return try folder.writeTemporary(bytes, for: name)
    }
    var depth: String?
    if let map = job.rendered.depth {
      let depthName = Self.depthName(job.frame)
      let depthStart = clock.now
      do {
        depth = try png.encode(map, file: directory + "/" + depthName) { bytes in
          encoding += clock.now - depthStart
          return try folder.writeTemporary(bytes, for: depthName)
        }
      } catch {
        try? folder.remove(image)
        throw error
      }
    }
    let staging = clock.now - start
    return StagedFrame(
      image: image, depth: depth, encoding: encoding, writing: staging - encoding)
  }

  /// Publishes a staged frame: events and trace lines, then the renames. When any step fails,
  /// the frame's lines are cut off the line files again, its temporary files and an already
  /// published depth map removed, so every published frame still has its lines and no line
  /// names an unpublished frame.
  /// - Throws: `InputError` `.cannotCreate`.
  func commit(_ job: OutputFrame, _ staged: StagedFrame) throws {
    // A link, folder or special file under a frame's name is refused by the commits, after
    // the lines went out, so the rollback below is what keeps the invariant.
    let path = Self.frameName(job.frame)
    let depthPath = staged.depth.map { _ in Self.depthName(job.frame) }
    let eventsLength = events.length
    let traceLength = trace.length
    var publishedDepth: String?
    do {
      try events.append(job.eventLines)
      try trace.append(job.traceLine)
      if let depth = staged.depth, let depthPath {
        try folder.commit(depth, to: depthPath)
        publishedDepth = depthPath
      }
      try folder.commit(staged.image, to: path)
    } catch {
      discard(staged)
      if let publishedDepth { try? folder.remove(publishedDepth) }
      try events.truncate(to: eventsLength)
      try trace.truncate(to: traceLength)
      throw error
    }
  }

  /// Removes a staged frame's temporary files (a frame not committed after an earlier one
  /// failed; a commit that failed). Temporaries already renamed or removed are skipped.
  func discard(_ staged: StagedFrame) {
    for temporary in [staged.image] + (staged.depth.map { [$0] } ?? []) {
      try? folder.remove(temporary)
    }
  }
}

/// A frame's PNG files written under temporary names (`FrameWriter.stage`), not yet published.
struct StagedFrame: Sendable {
  /// The image's temporary file in the output folder.
  var image: String
  /// The depth map's temporary file, when rendered.
  var depth: String?
  /// Time spent encoding (image and depth map).
  var encoding: Duration
  /// Time spent writing the temporary files.
  var writing: Duration
}
