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
    /// Why the frame could not be read (the PNG reader's message), when it could not.
    var problem: String?
  }

  /// The frames to show: all when there are at most `maximumCount`, else `maximumCount`
  /// evenly spaced ones, the first and the last included.
  static func sample(_ frames: [Int], maximumCount: Int) -> [Int] {
    guard frames.count > maximumCount, maximumCount > 1 else { return frames }
    return (0..<maximumCount).map { frames[$0 * (frames.count - 1) / (maximumCount - 1)] }
  }

  /// `indices` reordered coarse to fine (first, last, middle, quarters, …), so that any
  /// prefix of the result is spread evenly over the run: thumbnails are made in this order
  /// until the byte budget is spent.
  static func progressiveOrder(_ count: Int) -> [Int] {
    guard count > 2 else { return Array(0..<count) }
    var order = [0, count - 1]
    var seen = Set(order)
    var parts = 2
    while order.count < count {
      for k in stride(from: 1, to: parts, by: 2) {
        let index = k * (count - 1) / parts
        if seen.insert(index).inserted { order.append(index) }
      }
      parts *= 2
      if parts > 4 * count {
        order += (0..<count).filter { seen.insert($0).inserted }
      }
    }
    return order
  }

  /// Thumbnails of the sampled `frames` made coarse to fine until their data URLs reach
  /// `byteBudget` bytes, returned in frame order: a run of noisy 1920×1440 frames then shows
  /// fewer, still evenly spread thumbnails instead of a page of tens of megabytes.
  static func sheet(
    frames: [Int], path: (Int) -> String, maximumWidth: Int, maximumHeight: Int, byteBudget: Int
  ) -> [Thumbnail] {
    var made: [Thumbnail] = []
    var bytes = 0
    for index in progressiveOrder(frames.count) {
      guard bytes < byteBudget else { break }
      let thumbnail = make(
        path: path(frames[index]), frame: frames[index], maximumWidth: maximumWidth,
        maximumHeight: maximumHeight)
      bytes += thumbnail.dataURL?.utf8.count ?? 0
      made.append(thumbnail)
    }
    return made.sorted { $0.frame < $1.frame }
  }

  /// A thumbnail of `path` no wider than `maximumWidth` and no taller than `maximumHeight`
  /// (box-filtered: each thumbnail pixel is the mean of the frame pixels it covers).
  static func make(
    path: String, frame: Int, maximumWidth: Int, maximumHeight: Int
  ) -> Thumbnail {
    let image: Image
    do {
      image = try Image(contentsOfPNG: path)
    } catch {
      return Thumbnail(
        frame: frame, width: maximumWidth, height: maximumHeight, dataURL: nil,
        problem: (error as? any LocatedError)?.reason ?? "\(error)")
    }
    guard image.width > 0, image.height > 0 else {
      return Thumbnail(
        frame: frame, width: maximumWidth, height: maximumHeight, dataURL: nil,
        problem: "an empty image")
    }
    let scale = min(
      1, Double(maximumWidth) / Double(image.width), Double(maximumHeight) / Double(image.height))
    let width = max(1, Int((Double(image.width) * scale).rounded()))
    let height = max(1, Int((Double(image.height) * scale).rounded()))
    let small = downscale(image, width: width, height: height)
    guard let png = try? small.pngData(options: .small) else {
      return Thumbnail(
        frame: frame, width: width, height: height, dataURL: nil,
        problem: "its thumbnail could not be encoded")
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
