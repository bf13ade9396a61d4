/// The pixel loop behind `ImageComparison.compare` (pixelmatch 7's `pixelmatch()` body).
struct DifferenceScan {
  let expected: Image
  let actual: Image
  let mode: ImageComparison.Mode
  let style: ImageComparison.DiffStyle
  let drawsDiff: Bool

  init(
    expected: Image, actual: Image, mode: ImageComparison.Mode,
    style: ImageComparison.DiffStyle, drawsDiff: Bool
  ) {
    self.expected = expected
    self.actual = actual
    self.mode = mode
    self.style = style
    self.drawsDiff = drawsDiff
  }

  mutating func run() -> ImageDifference {
    let width = expected.width
    let height = expected.height
    var diff = drawsDiff ? [UInt8](repeating: 0, count: width * height * 4) : []
    var differing = 0
    var antiAliased = 0
    var maxDelta = 0
    var minU = Int.max
    var minV = Int.max
    var maxU = -1
    var maxV = -1
    let (perceptual, maxYIQ, includeAA): (Bool, Double, Bool)
    switch mode {
    case .exact: (perceptual, maxYIQ, includeAA) = (false, 0, true)
    case .perceptual(let threshold, let include):
      // 35215 is the largest possible YIQ distance (black vs white), pixelmatch's constant.
      (perceptual, maxYIQ, includeAA) = (true, 35215 * threshold * threshold, include)
    }
    let style = style
    let drawsDiff = drawsDiff
    expected.pixels.withUnsafeBytes { a8 in
      actual.pixels.withUnsafeBytes { b8 in
        diff.withUnsafeMutableBufferPointer { out in
          let pixels = PixelPair(a8: a8, b8: b8, width: width, height: height)
          var grey = GreyCache(alpha: style.alpha)
          for v in 0..<height {
            let row = v * width
            var u = 0
            while u < width {
              let i = row + u
              if a8.pixel(i) == b8.pixel(i) {
                if drawsDiff { grey.draw(a8, i, out) }
                u += 1
                continue
              }
              let k = i * 4
              var channelDelta = 0
              for c in 0..<4 {
                channelDelta = max(channelDelta, abs(Int(a8[k + c]) - Int(b8[k + c])))
              }
              maxDelta = max(maxDelta, channelDelta)
              var counted = true
              var isAA = false
              if perceptual {
                let delta = colorDelta(a8, b8, k, k, yOnly: false)
                if abs(delta) > maxYIQ {
                  isAA =
                    pixels.antialiased(first: true, u, v)
                    || pixels.antialiased(first: false, u, v)
                  counted = includeAA || !isAA
                } else {
                  counted = false
                }
              }
              if counted {
                differing += 1
                minU = min(minU, u)
                maxU = max(maxU, u)
                minV = min(minV, v)
                maxV = max(maxV, v)
                if drawsDiff { drawPixel(out, i, style.differenceColor) }
              } else if isAA {
                antiAliased += 1
                if drawsDiff { drawPixel(out, i, style.antiAliasedColor) }
              } else if drawsDiff {
                grey.draw(a8, i, out)
              }
              u += 1
            }
          }
        }
      }
    }
    let box =
      differing > 0 ? PixelBoundingBox(minU: minU, minV: minV, maxU: maxU, maxV: maxV) : nil
    return ImageDifference(
      differingPixelCount: differing, antiAliasedPixelCount: antiAliased,
      pixelCount: width * height, boundingBox: box, maxChannelDelta: maxDelta,
      diffImage: drawsDiff ? Image(width: width, height: height, pixels: diff) : nil)
  }
}

/// Both images' bytes and 32-bit pixels, for the anti-aliasing detector.
private struct PixelPair {
  let a8: UnsafeRawBufferPointer
  let b8: UnsafeRawBufferPointer
  let width: Int
  let height: Int

  /// pixelmatch's `antialiased(img, x1, y1, width, height, a32, b32)`: whether pixel (u, v) of
  /// the first (or second) image looks like an anti-aliased edge pixel: at most 2 equal
  /// neighbours, both a darker and a brighter neighbour, and the darkest or the brightest
  /// neighbour having 3+ equal neighbours in both images.
  func antialiased(first: Bool, _ u1: Int, _ v1: Int) -> Bool {
    let image = first ? a8 : b8
    let u0 = max(u1 - 1, 0)
    let v0 = max(v1 - 1, 0)
    let u2 = min(u1 + 1, width - 1)
    let v2 = min(v1 + 1, height - 1)
    let position = (v1 * width + u1) * 4
    var zeroes = (u1 == u0 || u1 == u2 || v1 == v0 || v1 == v2) ? 1 : 0
    var minimum = 0.0
    var maximum = 0.0
    var minU = 0
    var minV = 0
    var maxU = 0
    var maxV = 0
    // pixelmatch iterates x outer, y inner; the order decides ties between equal extremes.
    for u in u0...u2 {
      for v in v0...v2 {
        if u == u1 && v == v1 { continue }
        let delta = colorDelta(image, image, position, (v * width + u) * 4, yOnly: true)
        if delta == 0 {
          zeroes += 1
          if zeroes > 2 { return false }
        } else if delta < minimum {
          minimum = delta
          minU = u
          minV = v
        } else if delta > maximum {
          maximum = delta
          maxU = u
          maxV = v
        }
      }
    }
    if minimum == 0 || maximum == 0 { return false }
    return (hasManySiblings(a8, minU, minV) && hasManySiblings(b8, minU, minV))
      || (hasManySiblings(a8, maxU, maxV) && hasManySiblings(b8, maxU, maxV))
  }

  /// pixelmatch's `hasManySiblings`: 3+ neighbours (border counts as one) with the same value.
  func hasManySiblings(_ image: UnsafeRawBufferPointer, _ u1: Int, _ v1: Int) -> Bool {
    let u0 = max(u1 - 1, 0)
    let v0 = max(v1 - 1, 0)
    let u2 = min(u1 + 1, width - 1)
    let v2 = min(v1 + 1, height - 1)
    let value = image.pixel(v1 * width + u1)
    var zeroes = (u1 == u0 || u1 == u2 || v1 == v0 || v1 == v2) ? 1 : 0
    for u in u0...u2 {
      for v in v0...v2 {
        if u == u1 && v == v1 { continue }
        if image.pixel(v * width + u) == value { zeroes += 1 }
        if zeroes > 2 { return true }
      }
    }
    return false
  }
}

/// pixelmatch's `colorDelta`: the squared YIQ distance between pixel bytes `k` of `a` and `m`
/// of `b`, negative when the first pixel is brighter (pixelmatch: `y > 0 ? -delta : delta`);
/// with `yOnly`, the signed luma difference Y alone. Alpha < 255 blends over white first:
/// blend(c, α) = 255 + (c − 255)·α/255.
@inline(__always)
func colorDelta(
  _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, _ k: Int, _ m: Int, yOnly: Bool
) -> Double {
  var r1 = Double(a[k])
  var g1 = Double(a[k + 1])
  var b1 = Double(a[k + 2])
  let a1 = Double(a[k + 3])
  var r2 = Double(b[m])
  var g2 = Double(b[m + 1])
  var b2 = Double(b[m + 2])
  let a2 = Double(b[m + 3])
  if r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2 { return 0 }
  if a1 < 255 {
    r1 = 255 + (r1 - 255) * a1 / 255
    g1 = 255 + (g1 - 255) * a1 / 255
    b1 = 255 + (b1 - 255) * a1 / 255
  }
  if a2 < 255 {
    r2 = 255 + (r2 - 255) * a2 / 255
    g2 = 255 + (g2 - 255) * a2 / 255
    b2 = 255 + (b2 - 255) * a2 / 255
  }
  let dr = r1 - r2
  let dg = g1 - g2
  let db = b1 - b2
  let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
  if yOnly { return y }
  let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
  let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
  let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
  return y > 0 ? -delta : delta
}

/// Draws diff-image grey pixels, remembering the last input pixel: rendered frames have long
/// runs of equal pixels, and the Double arithmetic is the diff image's main cost.
private struct GreyCache {
  let alpha: Double
  var lastPixel: UInt32? = nil
  var lastGrey: UInt8 = 0

  init(alpha: Double) { self.alpha = alpha }

  @inline(__always)
  mutating func draw(
    _ image: UnsafeRawBufferPointer, _ i: Int, _ out: UnsafeMutableBufferPointer<UInt8>
  ) {
    let pixel = image.pixel(i)
    if pixel != lastPixel {
      lastPixel = pixel
      lastGrey = greyValue(image, i, alpha)
    }
    let k = i * 4
    out[k] = lastGrey
    out[k + 1] = lastGrey
    out[k + 2] = lastGrey
    out[k + 3] = 255
  }
}

/// pixelmatch's `drawGrayPixel` value: the luma of the expected pixel, faded toward white by
/// `alpha` and the pixel's own alpha (drawn opaque).
@inline(__always)
private func greyValue(_ image: UnsafeRawBufferPointer, _ i: Int, _ alpha: Double) -> UInt8 {
  let k = i * 4
  let luma =
    Double(image[k]) * 0.29889531 + Double(image[k + 1]) * 0.58662247 + Double(image[k + 2])
    * 0.11448223
  let value = 255 + (luma - 255) * alpha * Double(image[k + 3]) / 255
  // Uint8ClampedArray in pixelmatch rounds half to even; values here are within 0…255.
  return UInt8(max(0, min(255, value.rounded(.toNearestOrEven))))
}

@inline(__always)
private func drawPixel(
  _ out: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ color: (UInt8, UInt8, UInt8)
) {
  let k = i * 4
  out[k] = color.0
  out[k + 1] = color.1
  out[k + 2] = color.2
  out[k + 3] = 255
}

extension UnsafeRawBufferPointer {
  /// The 4 bytes of pixel `i` as one 32-bit value (for equality tests only).
  @inline(__always)
  fileprivate func pixel(_ i: Int) -> UInt32 {
    loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
  }
}
