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
  /// The levels' texels and layout, shared by copies of the texture (the shading loops read
  /// them by pointer: `MipChainStorage`).
  package let storage: MipChainStorage

  /// The levels' RGBA8 texels in one array, level 0 first (a copy of the chain's storage).
  public var texels: [UInt8] { Array(storage.texels) }
  /// Per level (largest first): its width and height in texels and its byte offset into
  /// `texels`.
  public var layout: [SIMD3<Int>] { Array(storage.layout) }
  /// Identifies the chain's storage: two textures with the same identifier share one copy
  /// of the texels (a model listed twice, primitives naming one image).
  public var storageIdentifier: ObjectIdentifier { ObjectIdentifier(storage) }

  /// Builds the chain of `base`.
  /// - Complexity: O(texels) (the chain adds a third); the chain is written into its one
  ///   buffer in place, so building it holds no other copy of the levels.
  public init(_ base: Texture, wrapU: TextureWrap = .repeat, wrapV: TextureWrap = .repeat) {
    var layout = [SIMD3(base.width, base.height, 0)]
    var total = base.width * base.height * 4
    while let last = layout.last, last.x > 1 || last.y > 1 {
      layout.append(SIMD3((last.x + 1) / 2, (last.y + 1) / 2, total))
      total += layout[layout.count - 1].x * layout[layout.count - 1].y * 4
    }
    storage = MipChainStorage(layout: layout, byteCount: total) { texels in
      guard let destination = texels.baseAddress else { return }
      base.pixels.withUnsafeBufferPointer { pixels in
        guard let source = pixels.baseAddress else { return }
        destination.update(from: source, count: min(pixels.count, layout[0].x * layout[0].y * 4))
      }
      for level in layout.indices.dropFirst() {
        let (sourceWidth, sourceHeight) = (layout[level - 1].x, layout[level - 1].y)
        let source = UnsafePointer(destination + layout[level - 1].z)
        let target = destination + layout[level].z
        let width = layout[level].x
        for y in 0..<layout[level].y {
          // Edge texels repeated where a size is odd.
          let row0 = source + 2 * y * sourceWidth * 4
          let row1 = source + min(2 * y + 1, sourceHeight - 1) * sourceWidth * 4
          for x in 0..<width {
            let x0 = 2 * x * 4
            let x1 = min(2 * x + 1, sourceWidth - 1) * 4
            for channel in 0..<4 {
              let sum =
                Int(row0[x0 + channel]) + Int(row0[x1 + channel]) + Int(row1[x0 + channel])
                + Int(row1[x1 + channel])
              target[(y * width + x) * 4 + channel] = UInt8(truncatingIfNeeded: (sum + 2) / 4)
            }
          }
        }
      }
    }
    self.wrapU = wrapU
    self.wrapV = wrapV
  }

  /// The levels, largest first (copies of `texels`' parts); never empty.
  public var levels: [Texture] {
    storage.layout.compactMap { shape in
      Texture(
        width: shape.x, height: shape.y,
        pixels: Array(storage.texels[shape.z..<(shape.z + shape.x * shape.y * 4)]))
    }
  }

  /// Equal wrap modes, layouts and texels.
  public static func == (a: MipmappedTexture, b: MipmappedTexture) -> Bool {
    a.wrapU == b.wrapU && a.wrapV == b.wrapV && a.storage.hasSameContents(as: b.storage)
  }

  /// Hashes the wrap modes, the layout and the texels (what `==` compares).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrapU)
    hasher.combine(wrapV)
    for level in storage.layout { hasher.combine(level) }
    hasher.combine(bytes: UnsafeRawBufferPointer(storage.texels))
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
