import ARRasterizer
import ARScene
import CPUFeatures

#if canImport(ARRasterizerAVX2)
  import ARRasterizerAVX2
#endif

/// The software rasterizer: draws a `RenderList` through a `Camera` into an RGBA8 image and an
/// optional depth map.
///
/// Pipeline (Documentation/Rendering.md): prepare primitives in camera space → per band of
/// rows: opaque visibility (depth + primitive id per sample, spheres by exact ray casting,
/// triangles by top-left-rule edge functions) → deferred shading of each visible sample →
/// transparent primitives blended back to front → box-filter resolve to 8 bits. Bands are
/// independent, so the bytes are identical for any thread count, and for either instruction
/// set (`RenderOptions.instructionSet`).
public struct Renderer: Sendable {
  /// The options.
  public var options: RenderOptions

  /// Creates a renderer.
  public init(options: RenderOptions) {
    self.options = options
  }

  /// The instruction set `render` runs: `options.instructionSet` when this processor supports
  /// it, else `.baseline`; `.automatic` resolves to `.avx2` on AVX2 + FMA processors.
  public var instructionSet: InstructionSet {
    switch options.instructionSet {
    case .baseline: return .baseline
    case .automatic, .avx2: return Renderer.supportsAVX2 ? .avx2 : .baseline
    }
  }

  /// Renders `list` seen by `camera`: `camera.intrinsics.width` × `height` pixels, alpha 255.
  ///
  /// Non-finite transforms, zero-size geometry and geometry behind the camera draw nothing; an
  /// empty output size gives an empty image.
  /// - Complexity: O(pixels · N² + Σ primitive screen areas).
  public func render(_ list: RenderList, camera: Camera) -> RenderedFrame {
    #if canImport(ARRasterizerAVX2)
      if instructionSet == .avx2 {
        return ARRasterizerAVX2.Rasterizer.render(list, camera: camera, options: options)
      }
    #endif
    return ARRasterizer.Rasterizer.render(list, camera: camera, options: options)
  }

  /// Whether this build has the AVX2 rasterizer and the processor runs it (read once).
  static let supportsAVX2: Bool = {
    #if canImport(ARRasterizerAVX2)
      return arsim_cpu_supports_avx2_fma()
    #else
      return false
    #endif
  }()

  /// The online CPU count (at least 1).
  public static var coreCount: Int { ARRasterizer.Rasterizer.coreCount }

  /// For each output pixel, how many primitives cover its centre, ignoring depth (tests).
  func coverageCounts(_ list: RenderList, camera: Camera) -> [Int] {
    ARRasterizer.Rasterizer.coverageCounts(list, camera: camera)
  }
}
