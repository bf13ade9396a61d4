import ARCameraImages
import ARMath
import ARRenderCore
import ARScene
import ARSupport
import Foundation

extension BenchScene {
  /// The scene file's `background.recording` member (with its leading comma) for B6, empty
  /// for the others: a times file over one distinct JPEG per output frame, made in `folder`
  /// (Documentation/Performance.md, "B6"). The images are the default capture camera's size
  /// (1920×1440) whatever `--size` says, and their lens is that camera, so each is resampled
  /// onto the output as a recording is.
  /// - Throws: `InputError` from writing the images.
  func cameraImagesMember(folder: String, frames: Int, firstTime: Double) throws -> String {
    guard self == .b6 else { return "" }
    let capture = CameraIntrinsics.defaultCapture
    let times = try BenchCameraImages.make(
      in: folder, frames: frames, width: capture.width, height: capture.height,
      firstTime: firstTime, fps: 30)
    return #", "recording": {"list": "# + JSONValue.string(times).text + #", "format": "times"}"#
  }
}

/// B6's recorded camera images: one distinct JPEG per output frame (so no decoded image is
/// reused), with photograph-like content, written once into the bench folder with a times file.
///
/// Each frame is a crop of a larger generated "world" (coloured low-frequency fields, detail
/// down to 4 px, a few hundred hard-edged patches as objects give) that pans along a
/// Lissajous path, with an exposure drift and per-pixel sensor noise (±3 levels, seeded by the
/// frame), then libjpeg-turbo quality 90, 4:2:0. The noise and the fine detail make the frames
/// cost what a camera's do to decode and to deflate; a flat synthetic image would not.
enum BenchCameraImages {
  /// The folder inside the bench folder.
  static let folderName = "B6-images"
  /// The times file's name in that folder.
  static let timesName = "times.txt"
  /// Bumped when the content changes, so an old folder is made again.
  static let version = 1

  /// Makes (or keeps, when a previous run made the same) `frames` JPEGs of `width`×`height`,
  /// image i at `firstTime + i / fps` on the pose clock, and returns the times file's path.
  /// - Throws: `InputError` from writing the files.
  static func make(
    in benchFolder: String, frames: Int, width: Int, height: Int, firstTime: Double, fps: Double
  ) throws -> String {
    let folder = benchFolder + "/" + folderName
    let timesPath = folder + "/" + timesName
    let stamp = "B6 images v\(version) \(width)x\(height) \(frames) frames from \(firstTime)\n"
    let stampPath = folder + "/made.txt"
    if let made = try? FileIO.read(stampPath, maximumBytes: 4096), made == Array(stamp.utf8),
      FileIO.exists(timesPath)
    {
      return timesPath
    }
    try FileIO.createDirectory(folder)
    let world = PhotographLikeWorld(width: width, height: height)
    let failure = FailureBox()
    DispatchQueue.concurrentPerform(iterations: frames) { index in
      guard failure.error == nil else { return }
      do {
        let jpeg = try JPEGEncoder.encode(world.frame(index), quality: 90)
        try FileIO.writeAtomically(jpeg, to: folder + "/" + name(index))
      } catch {
        failure.set(error)
      }
    }
    if let error = failure.error { throw error }
    var times = "# seconds filename (arsim bench B6)\n"
    for index in 0..<frames {
      times += String(format: "%.9f ", firstTime + Double(index) / fps) + name(index) + "\n"
    }
    try FileIO.writeAtomically(Array(times.utf8), to: timesPath)
    try FileIO.writeAtomically(Array(stamp.utf8), to: stampPath)
    return timesPath
  }

  static func name(_ index: Int) -> String { String(format: "image_%05d.jpg", index) }
}

/// The first error of a parallel loop.
private final class FailureBox: @unchecked Sendable {
  private let lock = NSLock()
  private var first: (any Error)?
  var error: (any Error)? { lock.withLock { first } }
  func set(_ error: any Error) { lock.withLock { if first == nil { first = error } } }
}

/// A generated scene larger than one frame, from which each frame crops its view.
struct PhotographLikeWorld: Sendable {
  let width: Int
  let height: Int
  let worldWidth: Int
  let worldHeight: Int
  /// RGB, 3 bytes a pixel.
  let rgb: [UInt8]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    let worldWidth = width + width / 4 + 2
    let worldHeight = height + height / 4 + 2
    self.worldWidth = worldWidth
    self.worldHeight = worldHeight
    var random = SplitMix64(seed: 0xB6)
    func grid(_ period: Int) -> (values: [Float], columns: Int) {
      let columns = worldWidth / period + 2
      let rows = worldHeight / period + 2
      return (
        (0..<(columns * rows)).map { _ in Float(random.next() >> 40) / Float(1 << 24) }, columns
      )
    }
    // Colour: two low-frequency fields per channel; detail: four octaves of luminance.
    let colourPeriods = [max(worldWidth / 5, 2), max(worldWidth / 12, 2)]
    let detailPeriods = [64, 24, 9, 4].map { max(1, min($0, worldWidth / 4)) }
    let colour = (0..<3).map { _ in colourPeriods.map { ($0, grid($0)) } }
    let detail = detailPeriods.map { ($0, grid($0)) }
    func sample(_ g: (values: [Float], columns: Int), _ period: Int, _ x: Int, _ y: Int) -> Float {
      let fx = Float(x % period) / Float(period)
      let fy = Float(y % period) / Float(period)
      let i = (y / period) * g.columns + x / period
      let top = g.values[i] + (g.values[i + 1] - g.values[i]) * fx
      let bottom =
        g.values[i + g.columns] + (g.values[i + g.columns + 1] - g.values[i + g.columns]) * fx
      return top + (bottom - top) * fy
    }
    // Objects: hard-edged patches that tint what is under them.
    var patches: [(x0: Int, y0: Int, x1: Int, y1: Int, tint: SIMD3<Float>)] = []
    for _ in 0..<300 {
      let w = 8 + Int(random.next() % UInt64(max(worldWidth / 8, 9)))
      let h = 8 + Int(random.next() % UInt64(max(worldHeight / 8, 9)))
      let x0 = Int(random.next() % UInt64(worldWidth))
      let y0 = Int(random.next() % UInt64(worldHeight))
      let tint = SIMD3<Float>(
        0.6 + Float(random.next() >> 40) / Float(1 << 24) * 0.8,
        0.6 + Float(random.next() >> 40) / Float(1 << 24) * 0.8,
        0.6 + Float(random.next() >> 40) / Float(1 << 24) * 0.8)
      patches.append((x0, y0, min(x0 + w, worldWidth), min(y0 + h, worldHeight), tint))
    }
    var rgb = [UInt8](repeating: 0, count: worldWidth * worldHeight * 3)
    let amplitudes: [Float] = [0.5, 0.3, 0.15, 0.08]
    for y in 0..<worldHeight {
      for x in 0..<worldWidth {
        var luminance: Float = 0.55
        for (octave, (period, g)) in detail.enumerated() {
          luminance += (sample(g, period, x, y) - 0.5) * amplitudes[octave]
        }
        for c in 0..<3 {
          let base =
            0.25 + 0.5 * sample(colour[c][0].1, colour[c][0].0, x, y) + 0.25
            * sample(colour[c][1].1, colour[c][1].0, x, y)
          let value = base * luminance * 255 * 1.4
          rgb[(y * worldWidth + x) * 3 + c] = UInt8(min(max(value, 0), 255))
        }
      }
    }
    for p in patches {
      for y in p.y0..<p.y1 {
        for x in p.x0..<p.x1 {
          let o = (y * worldWidth + x) * 3
          for c in 0..<3 {
            rgb[o + c] = UInt8(min(Float(rgb[o + c]) * p.tint[c], 255))
          }
        }
      }
    }
    self.rgb = rgb
  }

  /// Frame `index`: the view panned along the world, exposure drifting, sensor noise.
  func frame(_ index: Int) -> Image {
    let t = Double(index)
    let spareX = worldWidth - width - 1
    let spareY = worldHeight - height - 1
    let ox = Int((Double(spareX) * (0.5 + 0.5 * sin(t * 0.037))).rounded())
    let oy = Int((Double(spareY) * (0.5 + 0.5 * sin(t * 0.023 + 1))).rounded())
    let gain = Int32((256 * (1 + 0.06 * sin(t * 0.11))).rounded())
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    var state = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 | 1
    rgb.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { destination in
        for y in 0..<height {
          var s = ((y + oy) * worldWidth + ox) * 3
          var d = y * width * 4
          for _ in 0..<width {
            // xorshift64: three noise values of −3…3 from one draw.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            for c in 0..<3 {
              let noise = Int32(truncatingIfNeeded: (state >> (UInt64(c) * 8)) & 0xFF) % 7 - 3
              let value = (Int32(source[s + c]) * gain) >> 8 + noise
              destination[d + c] = UInt8(clamping: value)
            }
            s += 3
            d += 4
          }
        }
      }
    }
    // The buffer is width · height · 4 bytes by construction: the fallback is never taken.
    return Image(width: width, height: height, pixels: pixels)
      ?? Image(width: width, height: height)
  }
}
