import ARRasterizer
import ARScene
import CPUFeatures

#if canImport(ARRasterizerAVX2)
  import ARRasterizerAVX2
#endif
#if canImport(ARRasterizerAVX512)
  import ARRasterizerAVX512
#endif

/// The software rasterizer: draws a `RenderList` through a `Camera` into an RGBA8 image and an
/// optional depth map.
///
/// Pipeline (Documentation/Rendering.md): prepare primitives in camera space → per band of
/// rows: opaque visibility (depth + primitive id per sample, spheres by exact ray casting,
/// triangles by top-left-rule edge functions) → deferred shading of each visible sample →
/// transparent primitives blended back to front → box-filter resolve to 8 bits. Bands are
/// independent, so the bytes are identical for any thread count, and for any instruction set
/// (`RenderOptions.instructionSet`).
public struct Renderer: Sendable {
  /// The options.
  public var options: RenderOptions

  /// Creates a renderer.
  public init(options: RenderOptions) {
    self.options = options
  }

  /// The instruction set `render` runs: `options.instructionSet`, or the best level below it
  /// that this processor runs; `.automatic` is the best level it runs.
  public var instructionSet: InstructionSet {
    let best = Renderer.bestInstructionSet
    switch options.instructionSet {
    case .baseline: return .baseline
    case .avx2: return best == .baseline ? .baseline : .avx2
    case .automatic, .avx512: return best
    }
  }

  /// Renders `list` seen by `camera`: `camera.intrinsics.width` × `height` pixels, alpha 255.
  ///
  /// Non-finite transforms, zero-size geometry and geometry behind the camera draw nothing; an
  /// empty output size gives an empty image.
  /// - Complexity: O(pixels · N² + Σ primitive screen areas).
  public func render(_ list: RenderList, camera: Camera) -> RenderedFrame {
    Renderer.rasterizer(for: instructionSet).render(list, camera, options, false)
  }

  /// `render` with the same build's one-sample sphere reference paths (translucent spheres
  /// blended one sample at a time, near-plane-cut spheres' depths per sample; tests compare
  /// it with `render`).
  func renderWithSphereReferencePaths(_ list: RenderList, camera: Camera) -> RenderedFrame {
    Renderer.rasterizer(for: instructionSet).render(list, camera, options, true)
  }

  /// The build of the rasterizer for `set` (one this processor runs, as `instructionSet`
  /// resolves it): its entry point (the last argument: the spheres' one-sample reference
  /// paths), and the level that build reports it was compiled for.
  static func rasterizer(for set: InstructionSet) -> (
    compiledFor: InstructionSet,
    render: (RenderList, Camera, RenderOptions, Bool) -> RenderedFrame
  ) {
    #if canImport(ARRasterizerAVX512)
      if set == .avx512 {
        return (ARRasterizerAVX512.Rasterizer.compiledFor, ARRasterizerAVX512.Rasterizer.render)
      }
    #endif
    #if canImport(ARRasterizerAVX2)
      if set == .avx2 {
        return (ARRasterizerAVX2.Rasterizer.compiledFor, ARRasterizerAVX2.Rasterizer.render)
      }
    #endif
    return (ARRasterizer.Rasterizer.compiledFor, ARRasterizer.Rasterizer.render)
  }

  /// The best level this build has and the processor runs (read once).
  static let bestInstructionSet: InstructionSet = {
    #if canImport(ARRasterizerAVX512)
      if arsim_cpu_supports_x86_64_v4() { return .avx512 }
    #endif
    #if canImport(ARRasterizerAVX2)
      if arsim_cpu_supports_x86_64_v3() { return .avx2 }
    #endif
    return .baseline
  }()

  /// The online CPU count (at least 1).
  public static var coreCount: Int { ARRasterizer.Rasterizer.coreCount }

  /// For each output pixel, how many primitives cover its centre, ignoring depth (tests).
  func coverageCounts(_ list: RenderList, camera: Camera) -> [Int] {
    ARRasterizer.Rasterizer.coverageCounts(list, camera: camera)
  }
}
