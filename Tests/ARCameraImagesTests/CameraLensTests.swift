import ARCameraImages
import ARRenderCore
import ARScene
import Testing

@Suite struct CameraLensTests {
  @Test("radial-tangential: the hand-computed point (OpenCV's projectPoints gives the same)")
  func radialTangential() {
    let lens = LensDistortion.radialTangential(k1: 0.1, k2: 0.01, p1: 0.001, p2: 0.002, k3: 0.001)
    let (x, y) = lens.distort(x: 0.1, y: 0.2)
    // r² = 0.05, radial = 1.005025125; x′ = 0.1·radial + 2·p1·x·y + p2·(r² + 2x²).
    #expect(abs(x - 0.100_682_512_5) < 1e-12)
    #expect(abs(y - 0.201_215_025) < 1e-12)
  }

  @Test(
    "equidistant: θ = atan 0.5 bent by k1, k2 (cv::fisheye::distortPoints: 0.28429732, 0.37906309)")
  func equidistant() {
    let lens = LensDistortion.equidistant(k1: 0.1, k2: 0.01, k3: 0, k4: 0)
    let (x, y) = lens.distort(x: 0.3, y: 0.4)
    #expect(abs(x - 0.284_297_315_812_737) < 1e-12)
    #expect(abs(y - 0.379_063_087_750_316) < 1e-12)
    #expect(lens.distort(x: 0, y: 0) == (0, 0))
  }

  @Test("scaling a lens to twice the size keeps pixel centres: c′ = (c + 0.5)·2 − 0.5")
  func scaled() {
    let lens = CameraLens(
      intrinsics: CameraIntrinsics(fx: 500, fy: 400, cx: 319.5, cy: 239.5, width: 640, height: 480))
    let k = lens.scaled(toWidth: 1280, height: 960).intrinsics
    #expect(
      k == CameraIntrinsics(fx: 1000, fy: 800, cx: 639.5, cy: 479.5, width: 1280, height: 960))
  }
}

@Suite struct CameraImageResamplerTests {
  /// 4×2 pixels, each its own red level.
  static let source: Image = {
    var image = Image(width: 4, height: 2)
    for i in 0..<8 { image.pixels[i * 4] = UInt8(i * 30) }
    return image
  }()
  static let intrinsics = CameraIntrinsics(fx: 4, fy: 4, cx: 1.5, cy: 0.5, width: 4, height: 2)

  @Test("the same camera without distortion copies every pixel exactly")
  func identity() {
    let resampler = CameraImageResampler(
      lens: CameraLens(intrinsics: Self.intrinsics), output: Self.intrinsics)
    #expect(resampler.resample(Self.source) == Self.source)
  }

  @Test("portrait: capture pixel (u, v) shows at ((H − 1) − v, u), as Viewport documents")
  func portrait() {
    let output = Self.intrinsics.output(viewport: .portrait, width: 2, height: 4)
    let resampler = CameraImageResampler(
      lens: CameraLens(intrinsics: Self.intrinsics), output: output, viewport: .portrait)
    let out = resampler.resample(Self.source)
    for u in 0..<4 {
      for v in 0..<2 {
        #expect(out.pixels[((u) * 2 + (1 - v)) * 4] == Self.source.pixels[(v * 4 + u) * 4])
      }
    }
  }

  @Test("half a pixel to the right is the mean of two neighbours; far outside is the fill")
  func bilinear() {
    // The output camera's principal point half a pixel left: output u sees source u + 0.5.
    var output = Self.intrinsics
    output.cx = 1.0
    let resampler = CameraImageResampler(
      lens: CameraLens(intrinsics: Self.intrinsics), output: output,
      fill: SIMD4(1, 2, 3, 255))
    let out = resampler.resample(Self.source)
    // Row 0 levels 0, 30, 60, 90: (0 + 30)/2 = 15, 45, 75; u = 3 sees 3.5: the edge, 90.
    #expect([0, 1, 2, 3].map { out.pixels[$0 * 4] } == [15, 45, 75, 90])
    output.cx = -10
    let far = CameraImageResampler(
      lens: CameraLens(intrinsics: Self.intrinsics), output: output,
      fill: SIMD4(1, 2, 3, 255)
    ).resample(Self.source)
    #expect(Array(far.pixels[0..<4]) == [1, 2, 3, 255])
  }
}

/// The copy paths of `CameraImageResampler` against its own bilinear table on the same mapping.
@Suite struct CameraImageResamplerCopyTests {
  /// `width`×`height` pixels of seeded bytes in every channel, alpha included (0…255).
  static func noise(width: Int, height: Int, seed: UInt64) -> Image {
    var state = seed
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in pixels.indices {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    return Image(width: width, height: height, pixels: pixels) ?? Image(width: 0, height: 0)
  }

  static let lens = CameraLens(
    intrinsics: CameraIntrinsics(fx: 30, fy: 31, cx: 15.5, cy: 11.25, width: 32, height: 24))

  @Test("the lens equal to the output camera: the table puts each pixel on itself, weight 1")
  func identity() {
    let output = Self.lens.intrinsics
    let copying = CameraImageResampler(lens: Self.lens, output: output)
    let table = CameraImageResampler(lens: Self.lens, output: output, copies: false)
    #expect(copying.path == .passThrough)
    #expect(table.path == .bilinear)
    // Every level in every channel, alpha too: the table (bilinear at exact pixel centres)
    // gives the source's colours and alpha 255, and so does the copy.
    let image = Self.noise(width: 32, height: 24, seed: 7)
    var opaque = image
    for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
    #expect(table.resample(image) == opaque)
    #expect(copying.resample(image) == opaque)
    // An opaque image (a decoded JPEG) is handed through as it is.
    #expect(copying.resample(opaque) == opaque)
  }

  @Test("aspect fill at scale 1 (a crop by whole pixels) copies rows; the same bytes as the table")
  func crop() {
    // A 24×24 output of the 32×24 lens: scale 1, the sides cropped by 4 px each.
    let output = Self.lens.intrinsics.output(viewport: .landscape, width: 24, height: 24)
    let copying = CameraImageResampler(lens: Self.lens, output: output)
    let table = CameraImageResampler(lens: Self.lens, output: output, copies: false)
    #expect(copying.path == .rowCopy)
    let image = Self.noise(width: 32, height: 24, seed: 11)
    let copied = copying.resample(image)
    #expect(copied == table.resample(image))
    // Hand-computed: output (0, 0) is source (4, 0).
    #expect(Array(copied.pixels[0..<3]) == Array(image.pixels[16..<19]))
  }

  @Test("portrait of the same camera: rows are not source runs, so the table interpolates")
  func portraitUsesTheTable() {
    let output = Self.lens.intrinsics.output(viewport: .portrait, width: 24, height: 32)
    let resampler = CameraImageResampler(lens: Self.lens, output: output, viewport: .portrait)
    #expect(resampler.path == .bilinear)
  }

  @Test("distortion, a scale or a sub-pixel shift keep the bilinear table")
  func inexactMappings() {
    var distorted = Self.lens
    distorted.distortion = .radialTangential(k1: 0.01, k2: 0, p1: 0, p2: 0, k3: 0)
    var shifted = Self.lens.intrinsics
    shifted.cx += 0.5
    let cases = [
      CameraImageResampler(lens: distorted, output: Self.lens.intrinsics),
      CameraImageResampler(
        lens: Self.lens,
        output: Self.lens.intrinsics.output(viewport: .landscape, width: 48, height: 36)),
      CameraImageResampler(lens: Self.lens, output: shifted),
    ]
    for resampler in cases { #expect(resampler.path == .bilinear) }
  }
}
