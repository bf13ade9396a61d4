import ARScene

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A material flattened for shading: colours as vectors of sRGB-encoded values.
struct ShadingMaterial: Sendable {
  var diffuse: SIMD3<Double>
  var specular: SIMD3<Double>
  var shininess: Double
  var lightingModel: LightingModel
  /// Index into `PreparedFrame.textures`, or −1 (kept out of this struct so that reading a
  /// material in the shading loop copies no reference).
  var textureIndex: Int = -1
  /// Effective opacity in (0, 1].
  var opacity: Double
  /// `shininess` when it is a whole number in 0…128 (then `x^shininess` is computed by
  /// repeated squaring instead of `pow`), else −1.
  var wholeShininess: Int
  /// Set by `PreparedFrame` once `textureIndex` is known: whether every sample shades to
  /// `uniform` (`uniformColor`), so the shading call can be skipped.
  var isUniform = false
  var uniform = SIMD3<Double>(0, 0, 0)
  /// Whether `ShadingLights.shadeSpheres` shades it: lambert, or blinn with whole-number
  /// shininess.
  var isFastSphere: Bool

  init(_ material: Material, opacity: Double) {
    diffuse = SIMD3(material.diffuse.red, material.diffuse.green, material.diffuse.blue)
    specular = SIMD3(material.specular.red, material.specular.green, material.specular.blue)
    shininess = material.shininess
    lightingModel = material.lightingModel
    self.opacity = opacity
    wholeShininess =
      shininess >= 0 && shininess <= 128 && shininess.rounded(.towardZero) == shininess
      ? Int(shininess) : -1
    isFastSphere =
      lightingModel == .lambert || (lightingModel == .blinn && wholeShininess >= 0)
  }

  /// The shaded colour when it does not depend on the sample (constant lighting without a
  /// texture): the clamped diffuse colour; `nil` otherwise.
  var uniformColor: SIMD3<Double>? {
    guard lightingModel == .constant, textureIndex < 0 else { return nil }
    return diffuse.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
  }
}

/// `x^n` for whole n ≥ 0 by repeated squaring (left to right over n's bits); equals
/// `pow(x, Double(n))` to within a few units in the last place (Documentation/Performance.md:
/// no output byte of the benchmark frames changes).
@inline(__always) func wholePower(_ x: Double, _ n: Int) -> Double {
  guard n > 0 else { return 1 }
  var result = x
  var bit = (Int.bitWidth - 1) - n.leadingZeroBitCount - 1
  while bit >= 0 {
    result *= result
    if n & (1 << bit) != 0 { result *= x }
    bit -= 1
  }
  return result
}

/// The lights of a frame in camera space.
///
/// Shading works on sRGB-encoded values directly (DESIGN §3 deviation from SceneKit's linear
/// lighting). With N the unit surface normal, V the unit direction to the eye, Lᵢ the unit
/// direction to light i with colour × intensity Cᵢ, A the summed ambient colour, and
/// D = diffuse (× the bilinear texture sample when there is a texture):
/// - constant: D
/// - lambert: D ⊙ (A + Σ max(0, N·Lᵢ) Cᵢ)
/// - blinn: lambert + S ⊙ Σ max(0, N·Hᵢ)^shininess Cᵢ, Hᵢ = normalize(Lᵢ + V)
///
/// Each channel is clamped to 0…1 afterwards.
struct ShadingLights: Sendable {
  /// Unit camera-space directions towards each directional light.
  var towardLights: [SIMD3<Double>]
  var colors: [SIMD3<Double>]
  var ambient: SIMD3<Double>

  /// The shaded, clamped colour.
  @inline(__always) func shade(
    _ material: ShadingMaterial, texture: Texture?, normal n: SIMD3<Double>,
    view: SIMD3<Double>, uv: SIMD2<Double>
  ) -> SIMD3<Double> {
    var base = material.diffuse
    if let texture { base *= ShadingLights.sample(texture, uv: uv) }
    var color: SIMD3<Double>
    switch material.lightingModel {
    case .constant:
      color = base
    case .lambert, .blinn:
      var diffuseLight = ambient
      var specularLight = SIMD3<Double>(0, 0, 0)
      let blinn = material.lightingModel == .blinn
      for i in towardLights.indices {
        let l = towardLights[i]
        diffuseLight += colors[i] * max(0, (n * l).sum())
        if blinn {
          let halfway = l + view
          let length = (halfway * halfway).sum().squareRoot()
          if length > 0 {
            let nh = max(0, (n * halfway).sum() / length)
            let power =
              material.wholeShininess >= 0
              ? wholePower(nh, material.wholeShininess) : pow(nh, material.shininess)
            specularLight += colors[i] * power
          }
        }
      }
      color = base * diffuseLight
      if blinn { color += material.specular * specularLight }
    }
    return color.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
  }

  /// Bilinear sample of `texture` at uv (0…1 over the whole image, (0, 0) the top-left corner
  /// of the top-left texel), clamp-to-edge; RGB in 0…1 (alpha ignored).
  static func sample(_ texture: Texture, uv: SIMD2<Double>) -> SIMD3<Double> {
    sampleRGB(
      pixels: texture.pixels, width: texture.width, height: texture.height,
      x: uv.x * Double(texture.width) - 0.5, y: uv.y * Double(texture.height) - 0.5)
  }

  /// Bilinear RGB in 0…1 at continuous texel position (x, y) (texel centres at integers),
  /// clamped to the edges; non-finite positions read texel (0, 0).
  static func sampleRGB(pixels: [UInt8], width: Int, height: Int, x: Double, y: Double) -> SIMD3<
    Double
  > {
    let xc = x.isFinite ? min(max(x, 0), Double(width - 1)) : 0
    let yc = y.isFinite ? min(max(y, 0), Double(height - 1)) : 0
    let x0 = Int(xc.rounded(.down))
    let y0 = Int(yc.rounded(.down))
    let x1 = min(x0 + 1, width - 1)
    let y1 = min(y0 + 1, height - 1)
    let wx = xc - Double(x0)
    let wy = yc - Double(y0)
    func texel(_ x: Int, _ y: Int) -> SIMD3<Double> {
      let i = (y * width + x) * 4
      return SIMD3(Double(pixels[i]), Double(pixels[i + 1]), Double(pixels[i + 2]))
    }
    let top = texel(x0, y0) * (1 - wx) + texel(x1, y0) * wx
    let bottom = texel(x0, y1) * (1 - wx) + texel(x1, y1) * wx
    return (top * (1 - wy) + bottom * wy) / 255
  }
}

/// `x^n` lane-wise for whole n ≥ 0, the same steps as `wholePower`.
@inline(__always) func wholePower(_ x: SIMD2<Double>, _ n: Int) -> SIMD2<Double> {
  guard n > 0 else { return SIMD2(repeating: 1) }
  var result = x
  var bit = (Int.bitWidth - 1) - n.leadingZeroBitCount - 1
  while bit >= 0 {
    result *= result
    if n & (1 << bit) != 0 { result *= x }
    bit -= 1
  }
  return result
}

extension ShadingLights {
  /// Lambert or blinn shading (no texture, whole-number shininess) of two samples of
  /// uniform-scale spheres at once, lane by lane (both lanes may be the same sample).
  ///
  /// Camera space: the lane's ray direction is `d = (dx, dy, −1)` and its depth t, so the hit
  /// is `t·d`; the sphere has centre `(cx, cy, cz)` and `1 / radius` `inverseRadius`. The
  /// normal `(t·d − centre) / radius` faces the viewer (flipped when seen from inside); the
  /// view vector is `−d / |d|`. Returns the clamped colours of lane 0 and lane 1.
  @inline(__always) func shadeSpheres(
    _ material0: ShadingMaterial, _ material1: ShadingMaterial, dx: SIMD2<Double>, dy: Double,
    depth t: SIMD2<Double>, cx: SIMD2<Double>, cy: SIMD2<Double>, cz: SIMD2<Double>,
    inverseRadius: SIMD2<Double>
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    let inverseLength = 1 / (dx * dx + SIMD2(repeating: dy * dy + 1)).squareRoot()
    let vx = -dx * inverseLength
    let vy = -dy * inverseLength
    let vz = inverseLength
    var nx = (dx * t - cx) * inverseRadius
    var ny = (dy * t - cy) * inverseRadius
    var nz = (-t - cz) * inverseRadius
    let nv = nx * vx + ny * vy + nz * vz
    let flip = SIMD2<Double>(nv[0] < 0 ? -1 : 1, nv[1] < 0 ? -1 : 1)
    nx *= flip
    ny *= flip
    nz *= flip
    var diffuse0 = ambient
    var diffuse1 = ambient
    var specular0 = SIMD3<Double>(0, 0, 0)
    var specular1 = SIMD3<Double>(0, 0, 0)
    let blinn = material0.lightingModel == .blinn
    let exponent = material0.wholeShininess
    for i in towardLights.indices {
      let l = towardLights[i]
      let c = colors[i]
      let nl = nx * l.x + ny * l.y + nz * l.z
      diffuse0 += c * max(0, nl[0])
      diffuse1 += c * max(0, nl[1])
      guard blinn else { continue }
      let hx = vx + l.x
      let hy = vy + l.y
      let hz = vz + l.z
      let length = (hx * hx + hy * hy + hz * hz).squareRoot()
      var nh = (nx * hx + ny * hy + nz * hz) / length
      nh = SIMD2(max(0, nh[0]), max(0, nh[1]))
      let power = wholePower(nh, exponent)
      if length[0] > 0 { specular0 += c * power[0] }
      if length[1] > 0 { specular1 += c * power[1] }
    }
    var color0 = material0.diffuse * diffuse0
    var color1 = material1.diffuse * diffuse1
    if blinn {
      color0 += material0.specular * specular0
      color1 += material1.specular * specular1
    }
    return (clamp(color0), clamp(color1))
  }

  /// Each channel clamped to 0…1 (scalar: the SIMD clamp is an out-of-line call).
  @inline(__always) func clamp(_ c: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1))
  }
}
