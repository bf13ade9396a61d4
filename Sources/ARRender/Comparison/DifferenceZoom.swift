/// A close-up of where two images differ, so a 24 × 15 px difference in a 1920 × 1440 frame is
/// visible in a report: the difference's bounding box plus a margin, cropped from each image
/// and enlarged by an integer factor with nearest-neighbour sampling (every source pixel
/// becomes a `factor × factor` block, nothing is blended, so single-pixel changes stay exact).
public struct DifferenceZoom: Hashable, Sendable {
  /// The cropped rectangle in the full images (inclusive pixel coordinates, v down).
  public var crop: PixelBoundingBox
  /// The enlargement: each cropped pixel is `factor × factor` output pixels.
  public var factor: Int

  /// The crop around `box` (grown by `margin` pixels on each side, clamped to the
  /// `width` × `height` image) and the largest integer factor, from 1 to `maximumFactor`,
  /// that keeps the longer side of the enlarged crop within `targetSide` pixels.
  public init(
    box: PixelBoundingBox, width: Int, height: Int, margin: Int = 8, targetSide: Int = 480,
    maximumFactor: Int = 32
  ) {
    let minU = max(0, box.minU - margin)
    let minV = max(0, box.minV - margin)
    let maxU = min(width - 1, box.maxU + margin)
    let maxV = min(height - 1, box.maxV + margin)
    crop = PixelBoundingBox(minU: minU, minV: minV, maxU: maxU, maxV: maxV)
    let side = max(maxU - minU + 1, maxV - minV + 1)
    factor = max(1, min(maximumFactor, targetSide / side))
  }

  /// `image`'s crop enlarged by `factor` (nearest neighbour).
  public func apply(to image: Image) -> Image {
    let cropWidth = crop.maxU - crop.minU + 1
    let cropHeight = crop.maxV - crop.minV + 1
    var out = Image(width: cropWidth * factor, height: cropHeight * factor)
    for v in 0..<out.height {
      let sourceRow = (crop.minV + v / factor) * image.width
      for u in 0..<out.width {
        let source = (sourceRow + crop.minU + u / factor) * 4
        let target = (v * out.width + u) * 4
        for channel in 0..<4 { out.pixels[target + channel] = image.pixels[source + channel] }
      }
    }
    return out
  }
}
