import ARTestSupport
import Foundation

/// Test helpers: YUV4MPEG2 files in a temporary folder.
enum Y4MTestFile {
  /// Writes `bytes` to `name` in a fresh temporary directory and returns the path.
  static func write(_ bytes: [UInt8], name: String = "test.y4m") -> String {
    TemporaryFolder("video").write(bytes, to: name)
  }

  /// A 4:2:0 stream whose frame `i` has every Y byte = i mod 256, Cb = 100, Cr = 200, written
  /// one frame at a time (never the whole file in memory).
  static func writeSynthetic(
    width: Int, height: Int, frames: Int, rate: String = "25:1", extra: String = ""
  ) throws -> String {
    let url = URL(fileURLWithPath: TemporaryFolder("video").file("synthetic.y4m"))
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let header = "YUV4MPEG2 W\(width) H\(height) F\(rate) Ip C420jpeg\(extra)\n"
    try handle.write(contentsOf: Data(header.utf8))
    let lumaCount = width * height
    let chroma = ((width + 1) / 2) * ((height + 1) / 2)
    var frame = Array("FRAME\n".utf8)
    frame += [UInt8](repeating: 0, count: lumaCount)
    frame += [UInt8](repeating: 100, count: chroma) + [UInt8](repeating: 200, count: chroma)
    for i in 0..<frames {
      let luma = UInt8(i % 256)
      for k in 6..<(6 + lumaCount) { frame[k] = luma }
      try handle.write(contentsOf: Data(frame))
    }
    return url.path
  }
}
