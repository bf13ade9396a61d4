import ARRender
import Foundation

/// Small PNG copies of sampled frames for the contact sheet, inlined as base64.
enum ReportThumbnails {
  struct Thumbnail {
    var frame: Int
    var width: Int
    var height: Int
    /// `data:image/png;base64,…`, or nil when the frame could not be read.
    var dataURL: String?
  }

  /// The frames to show: all when there are at most `maximumCount`, else `maximumCount`
  /// evenly spaced ones, the first and the last included.
  static func sample(_ frames: [Int], maximumCount: Int) -> [Int] {
    guard frames.count > maximumCount, maximumCount > 1 else { return frames }
    return (0..<maximumCount).map { frames[$0 * (frames.count - 1) / (maximumCount - 1)] }
  }

  /// A thumbnail of `path` no wider than `maximumWidth` and no taller than `maximumHeight`
  /// (box-filtered: each thumbnail pixel is the mean of the frame pixels it covers).
  static func make(
    path: String, frame: Int, maximumWidth: Int, maximumHeight: Int
  ) -> Thumbnail {
    guard let image = try? Image(contentsOfPNG: path), image.width > 0, image.height > 0 else {
      return Thumbnail(frame: frame, width: maximumWidth, height: maximumHeight, dataURL: nil)
    }
    let scale = min(
      1, Double(maximumWidth) / Double(image.width), Double(maximumHeight) / Double(image.height))
    let width = max(1, Int((Double(image.width) * scale).rounded()))
    let height = max(1, Int((Double(image.height) * scale).rounded()))
    let small = downscale(image, width: width, height: height)
    guard let png = try? small.pngData(options: .small) else {
      return Thumbnail(frame: frame, width: width, height: height, dataURL: nil)
    }
    return Thumbnail(
      frame: frame, width: width, height: height,
      dataURL: "data:image/png;base64," + Data(png).base64EncodedString())
  }

  /// Box filter: output pixel (i, j) averages source columns ⌊i·W/w⌋ ..< ⌊(i+1)·W/w⌋ and the
  /// rows likewise (at least one each).
  static func downscale(_ image: Image, width: Int, height: Int) -> Image {
    var out = Image(width: width, height: height)
    for j in 0..<height {
      let v0 = j * image.height / height
      let v1 = max(v0 + 1, (j + 1) * image.height / height)
      for i in 0..<width {
        let u0 = i * image.width / width
        let u1 = max(u0 + 1, (i + 1) * image.width / width)
        var sum = (0, 0, 0, 0)
        for v in v0..<v1 {
          for u in u0..<u1 {
            let k = (v * image.width + u) * 4
            sum.0 += Int(image.pixels[k])
            sum.1 += Int(image.pixels[k + 1])
            sum.2 += Int(image.pixels[k + 2])
            sum.3 += Int(image.pixels[k + 3])
          }
        }
        let n = (v1 - v0) * (u1 - u0)
        out[i, j] = (
          UInt8((sum.0 + n / 2) / n), UInt8((sum.1 + n / 2) / n), UInt8((sum.2 + n / 2) / n),
          UInt8((sum.3 + n / 2) / n)
        )
      }
    }
    return out
  }
}
