import ARScene

/// What fills output pixels that no opaque surface covers.
///
/// Colours are sRGB encoded, 0…1 (DESIGN §3); the output alpha is always 255.
public enum Background: Hashable, Sendable {
  /// One colour everywhere.
  case solid(Color)
  /// `top` at the top edge of the image (v = −0.5) blending linearly to `bottom` at the bottom
  /// edge (v = height − 0.5), per sample row.
  case verticalGradient(top: Color, bottom: Color)
  /// An image stretched to the output size (each axis scaled independently, pixel centres
  /// aligned), sampled bilinearly with clamp-to-edge; its alpha is ignored.
  case image(Image)
}

/// Settings of a `Renderer`.
public struct RenderOptions: Hashable, Sendable {
  /// Worker threads; 0 means all cores (the online CPU count). The output bytes do not depend
  /// on this value.
  public var threads: Int
  /// N: N×N samples per pixel on a regular grid (box-filter resolve). Values below 1 render as
  /// 1 and values above 16 as 16.
  public var supersampling: Int
  /// What uncovered pixels show.
  public var background: Background
  /// Whether `RenderedFrame.depth` is produced.
  public var writesDepth: Bool
  /// Which build of the rasterizer runs; the output bytes do not depend on this value.
  public var instructionSet: InstructionSet

  /// Creates options; the defaults are all cores, no supersampling, mid-grey, no depth, the
  /// fastest instruction set the processor supports.
  public init(
    threads: Int = 0, supersampling: Int = 1,
    background: Background = .solid(Color(red: 0.5, green: 0.5, blue: 0.5)),
    writesDepth: Bool = false, instructionSet: InstructionSet = .automatic
  ) {
    self.threads = threads
    self.supersampling = supersampling
    self.background = background
    self.writesDepth = writesDepth
    self.instructionSet = instructionSet
  }
}

/// The processor instructions the rasterizer is compiled for (`Renderer.instructionSet`).
/// Each level falls back to the best one below it that the processor runs.
public enum InstructionSet: String, Hashable, Sendable, CaseIterable {
  /// The best level the processor runs.
  case automatic
  /// Any processor of the architecture (x86-64: SSE2).
  case baseline
  /// x86-64-v3: AVX2, FMA, BMI2 (Intel Haswell, 2013, and later; AMD Zen): the eight-lane
  /// Float kernels use 256-bit registers.
  case avx2
  /// x86-64-v4: AVX-512 F, BW, CD, DQ, VL (Intel Skylake-SP, 2017, and later; AMD Zen 4): the
  /// same 256-bit kernels with 32 vector registers instead of 16.
  case avx512
}

/// The result of `Renderer.render(_:camera:)`.
public struct RenderedFrame: Sendable {
  /// The colour image, `camera.intrinsics.width` × `height`, alpha 255 everywhere.
  public var image: Image
  /// Opaque-surface depth in millimetres along the camera's −Z (0 = no surface), when
  /// `RenderOptions.writesDepth` is set; otherwise `nil`.
  public var depth: DepthImage?
  /// The unquantized depth in metres along −Z (0 = no surface), row-major; empty unless depth
  /// was requested (tests).
  package var depthMetres: [Double] = []

  /// Creates a frame.
  public init(image: Image, depth: DepthImage?) {
    self.image = image
    self.depth = depth
  }
}
