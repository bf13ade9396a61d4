import ARRender

/// Writes one output frame so that a kill at any moment leaves no partial file under a final
/// name and every published PNG has its trace line: PNG bytes go to a temporary file, the
/// events and trace lines are appended (unbuffered), then the PNG is renamed into place.
struct FrameWriter {
  let directory: String
  let png: PNGEncoder
  let events: LineFile
  let trace: LineFile

  /// `frame_00012.png`.
  static func frameName(_ frame: Int) -> String {
    let digits = String(frame)
    return "frame_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
  }

  /// `depth_00012.png`.
  static func depthName(_ frame: Int) -> String {
    "depth_" + frameName(frame).dropFirst("frame_".count)
  }

  func write(frame: Int, rendered: RenderedFrame, traceLine: String, eventLines: String) throws
    -> (encode: Duration, write: Duration)
  {
    let clock = ContinuousClock()
    let encodeStart = clock.now
    let path = directory + "/" + Self.frameName(frame)
    let bytes = try png.encode(rendered.image, file: path)
    let depthPath = directory + "/" + Self.depthName(frame)
    let depthBytes = try rendered.depth.map { try png.encode($0, file: depthPath) }
    let encode = clock.now - encodeStart
    let writeStart = clock.now
    let temporary = try FileIO.writeTemporary(bytes, for: path)
    let depthTemporary = try depthBytes.map { try FileIO.writeTemporary($0, for: depthPath) }
    try events.append(eventLines)
    try trace.append(traceLine)
    if let depthTemporary { try FileIO.commit(depthTemporary, to: depthPath) }
    try FileIO.commit(temporary, to: path)
    return (encode, clock.now - writeStart)
  }
}
