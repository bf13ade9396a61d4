import ARMath
import ARScene

/// How texture coordinates outside 0…1 read a texture, as glTF's sampler `wrapS`/`wrapT`.
public enum TextureWrap: String, Hashable, Sendable, CaseIterable {
  /// The texture tiles (glTF `REPEAT`, the default).
  case `repeat`
  /// Coordinates are clamped to the edge texels (glTF `CLAMP_TO_EDGE`).
  case clamp
  /// The texture tiles, every other copy mirrored (glTF `MIRRORED_REPEAT`).
  case mirroredRepeat
}

/// A texture with its mip chain, sampled trilinearly (Documentation/Environments.md,
/// "Texture filter").
///
/// Level 0 is the image; level k + 1 has ⌈w/2⌉ × ⌈h/2⌉ texels, each the mean of the 2 × 2
/// texels of level k below it (edge texels repeated where a size is odd), down to 1 × 1.
/// Values are averaged as stored (sRGB encoded), as ARSim shades in sRGB values (DESIGN §3).
public struct MipmappedTexture: Hashable, Sendable {
  /// Wrap along u (texture x).
  public var wrapU: TextureWrap
  /// Wrap along v (texture y).
  public var wrapV: TextureWrap
  /// The levels' RGBA8 texels in one array, level 0 first (what the shading loop reads by
  /// pointer), and per level its width, height and byte offset into `texels`.
  public let texels: [UInt8]
  /// Per level (largest first): its width and height in texels and its byte offset into
  /// `texels`.
  public let layout: [SIMD3<Int>]

  /// Builds the chain of `base`.
  /// - Complexity: O(texels) (the chain adds a third).
  public init(_ base: Texture, wrapU: TextureWrap = .repeat, wrapV: TextureWrap = .repeat) {
    var levels = [base]
    var current = base
    while current.width > 1 || current.height > 1 {
      let width = (current.width + 1) / 2
      let height = (current.height + 1) / 2
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      let source = current.pixels
      let sourceWidth = current.width
      let sourceHeight = current.height
      for y in 0..<height {
        let y0 = 2 * y
        let y1 = min(2 * y + 1, sourceHeight - 1)
        for x in 0..<width {
          let x0 = 2 * x
          let x1 = min(2 * x + 1, sourceWidth - 1)
          for channel in 0..<4 {
            let sum =
              Int(source[(y0 * sourceWidth + x0) * 4 + channel])
              + Int(source[(y0 * sourceWidth + x1) * 4 + channel])
              + Int(source[(y1 * sourceWidth + x0) * 4 + channel])
              + Int(source[(y1 * sourceWidth + x1) * 4 + channel])
            pixels[(y * width + x) * 4 + channel] = UInt8((sum + 2) / 4)
          }
        }
      }
      guard let next = Texture(width: width, height: height, pixels: pixels) else { break }
      levels.append(next)
      current = next
    }
    // The texels are kept once, in `texels`; `levels` rebuilds a level when asked.
    texels = levels.flatMap(\.pixels)
    var offset = 0
    layout = levels.map { level in
      defer { offset += level.pixels.count }
      return SIMD3(level.width, level.height, offset)
    }
    self.wrapU = wrapU
    self.wrapV = wrapV
  }

  /// The levels, largest first (copies of `texels`' parts); never empty.
  public var levels: [Texture] {
    layout.compactMap { shape in
      Texture(
        width: shape.x, height: shape.y,
        pixels: Array(texels[shape.z..<(shape.z + shape.x * shape.y * 4)]))
    }
  }
}

/// The look of environment triangles: a base colour times an optional base-colour texture
/// (glTF's `baseColorFactor` × `baseColorTexture`).
public struct EnvironmentMaterial: Hashable, Sendable {
  /// Base colour, sRGB encoded 0…1 (alpha ignored: the camera image is opaque).
  public var baseColor: Color
  /// Base-colour texture, multiplied by `baseColor`.
  public var texture: MipmappedTexture?

  /// Creates a material.
  public init(baseColor: Color = .white, texture: MipmappedTexture? = nil) {
    self.baseColor = baseColor
    self.texture = texture
  }
}

/// The environment the camera sees (Documentation/Environments.md): world-space triangles
/// drawn before the virtual content as the camera image, with their materials.
///
/// Shapes: `positions` and `uvs` hold three entries per triangle (counter-clockwise seen from
/// the front, though both sides are drawn), `materialIndices` one per triangle into
/// `materials`. World frame: ARKit's (metres, +Y up). A reference type: one copy is shared by
/// every frame's `RenderList`.
public final class EnvironmentGeometry: Sendable {
  /// Triangle corners, world metres, three per triangle.
  public let positions: [SIMD3<Double>]
  /// Texture coordinates of the corners ((0, 0) the top-left of the texture), three per
  /// triangle.
  public let uvs: [SIMD2<Double>]
  /// Per triangle, its index into `materials`.
  public let materialIndices: [Int32]
  /// The materials.
  public let materials: [EnvironmentMaterial]
  /// World-space bounding boxes of runs of `chunkSize` consecutive triangles (the last run
  /// may be shorter): per chunk its minimum and maximum corner, two entries. A frame skips a
  /// chunk whose box is outside the view (`PreparedFrame.prepareEnvironment`); built once.
  public let chunkBounds: [SIMD3<Double>]
  /// Triangles per entry of `chunkBounds`: models list neighbouring triangles together (a
  /// heightfield row by row), so small runs have small boxes.
  public static let chunkSize = 64
  /// Whether the scene's lights shade the environment (lambert with the triangle's normal);
  /// false: unlit, the baked colour a camera records.
  public let isLit: Bool
  /// Whether the environment hides virtual content behind it (RealityKit's scene-
  /// understanding occlusion); false: virtual content is drawn over it whatever its depth.
  public let occludes: Bool

  /// Creates an environment; `nil` when the shapes disagree (counts, material indices).
  public init?(
    positions: [SIMD3<Double>], uvs: [SIMD2<Double>], materialIndices: [Int32],
    materials: [EnvironmentMaterial], isLit: Bool = false, occludes: Bool = false
  ) {
    guard positions.count == uvs.count, positions.count == 3 * materialIndices.count,
      materialIndices.allSatisfy({ $0 >= 0 && Int($0) < materials.count })
    else { return nil }
    self.positions = positions
    var bounds: [SIMD3<Double>] = []
    let chunkCorners = 3 * Self.chunkSize
    bounds.reserveCapacity(2 * (positions.count + chunkCorners - 1) / chunkCorners)
    for start in stride(from: 0, to: positions.count, by: chunkCorners) {
      var low = positions[start]
      var high = low
      for p in positions[start..<min(start + chunkCorners, positions.count)] {
        low = pointwiseMin(low, p)
        high = pointwiseMax(high, p)
      }
      bounds.append(low)
      bounds.append(high)
    }
    chunkBounds = bounds
    self.uvs = uvs
    self.materialIndices = materialIndices
    self.materials = materials
    self.isLit = isLit
    self.occludes = occludes
  }

  /// Number of triangles.
  public var triangleCount: Int { materialIndices.count }
}
