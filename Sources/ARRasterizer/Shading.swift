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
  /// Index into `PreparedFrame.mipTextures` (environment materials), or −1.
  var mipTextureIndex: Int = -1
  /// Effective opacity in (0, 1].
  var opacity: Double
  /// `shininess` when it is a whole number in 0…128 (then `x^shininess` is computed by
  /// repeated squaring instead of `pow`), else −1.
  var wholeShininess: Int
  /// Set by `PreparedFrame` once `textureIndex` is known: whether every sample shades to
  /// `uniform` (`uniformColor`), so the shading call can be skipped.
  var isUniform = false
  var uniform = SIMD3<Double>(0, 0, 0)
  /// Whether `ShadingLights.shadeSphere` shades it: lambert, or blinn with whole-number
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
    guard lightingModel == .constant, textureIndex < 0, mipTextureIndex < 0 else { return nil }
    return diffuse.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
  }
}

/// Values `wholePower` works on: a number or lanes of numbers, multiplied component-wise.
protocol WholePowerOperand {
  static func * (a: Self, b: Self) -> Self
  /// The multiplicative identity.
  static var one: Self { get }
}

extension Double: WholePowerOperand {
  static var one: Double { 1 }
}

extension SIMD8: WholePowerOperand where Scalar: BinaryFloatingPoint {
  static var one: SIMD8<Scalar> { SIMD8(repeating: 1) }
}

extension SIMD16: WholePowerOperand where Scalar: BinaryFloatingPoint {
  static var one: SIMD16<Scalar> { SIMD16(repeating: 1) }
}

/// `x^n` for whole n ≥ 0 by repeated squaring (left to right over n's bits), lane-wise for
/// SIMD values; equals `pow(x, Double(n))` to within a few units in the last place
/// (Documentation/Performance.md: no output byte of the benchmark frames changes).
@inline(__always) func wholePower<T: WholePowerOperand>(_ x: T, _ n: Int) -> T {
  guard n > 0 else { return .one }
  // The stroke and bench materials' shininess 24 (0b11000) spelled out: the same multiplications
  // in the same order as the loop below, without its per-bit test and branch.
  if n == 24 {
    let cube = x * x * x
    let sixth = cube * cube
    let twelfth = sixth * sixth
    return twelfth * twelfth
  }
  var result = x
  var bit = (Int.bitWidth - 1) - n.leadingZeroBitCount - 1
  while bit >= 0 {
    result = result * result
    if n & (1 << bit) != 0 { result = result * x }
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
  /// The same lights in Float, for `shadeSphere`.
  var sphereLights: [SphereLight]

  init(towardLights: [SIMD3<Double>], colors: [SIMD3<Double>], ambient: SIMD3<Double>) {
    self.towardLights = towardLights
    self.colors = colors
    self.ambient = ambient
    sphereLights = zip(towardLights, colors).map {
      SphereLight(toward: SIMD3<Float>($0), color: SIMD3<Float>($1))
    }
  }

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
    return ShadingLights.clampedToUnit(color)
  }

  /// `c.clamped(lowerBound: 0, upperBound: 1)` written out lane by lane with the same
  /// `minimum`/`maximum` calls in the same order (so the same bits, NaN and −0 included): the
  /// generic SIMD form is an out-of-line call in the per-sample paths.
  @inline(__always) static func clampedToUnit(_ c: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(
      Double.minimum(1, Double.maximum(0, c.x)), Double.minimum(1, Double.maximum(0, c.y)),
      Double.minimum(1, Double.maximum(0, c.z)))
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

/// One sample row's constants for `ShadingLights.shadeSphere` on one uniform-scale sphere, each
/// in all lanes: built once per run of samples, so that the loop over the run keeps them in
/// registers (as scalars and a `SIMD3` centre the compiler shuffled lanes between them on every
/// step).
struct SphereSamples {
  /// The camera-space ray's y (the ray is `(dx, dy, −1)`), and `dy² + 1`.
  var dy: FloatLanes
  var dySquaredPlusOne: FloatLanes
  /// Camera-space sphere centre and 1 / radius.
  var centreX: FloatLanes
  var centreY: FloatLanes
  var centreZ: FloatLanes
  var inverseRadius: FloatLanes

  /// The constants of ray y `dy` and a sphere of `centre` and `inverseRadius`.
  @inline(__always) init(dy: Float, centre: SIMD3<Float>, inverseRadius: Float) {
    self.dy = FloatLanes(repeating: dy)
    dySquaredPlusOne = FloatLanes(repeating: dy * dy + 1)
    centreX = FloatLanes(repeating: centre.x)
    centreY = FloatLanes(repeating: centre.y)
    centreZ = FloatLanes(repeating: centre.z)
    self.inverseRadius = FloatLanes(repeating: inverseRadius)
  }
}

/// A directional light in Float for `ShadingLights.shadeSphere`: unit camera-space direction
/// towards it, colour × intensity.
struct SphereLight: Sendable {
  var toward: SIMD3<Float>
  var color: SIMD3<Float>
}

/// Colours 0…1 of up to `laneCount` samples, one vector per channel.
struct ColorLanes {
  var red: FloatLanes
  var green: FloatLanes
  var blue: FloatLanes
}

extension ShadingLights {
  /// Lambert or blinn shading (no texture, whole-number shininess `exponent`, `blinn` or
  /// lambert) of up to `laneCount` samples of one sphere with `material`, lane by lane, so a sample's
  /// colour does not depend on its neighbours. The normal `(t·d − centre) / radius` faces the
  /// viewer (flipped when seen from inside); the view vector is `−d / |d|`. Returns the clamped
  /// colour `D ⊙ diffuse (+ S ⊙ specular)`, NaN → 0 as in the resolve.
  ///
  /// Precision: in Float, as a GPU's fragment shader. t·d − centre cancels (both about a metre,
  /// their difference a centimetre), which leaves the normal a relative error near 10⁻⁶;
  /// against `shade(_:…)` in Double a few pixels per frame move by one 8-bit level
  /// (Documentation/Performance.md), and a vector instruction holds twice the lanes.
  ///
  /// `lights` are `sphereLights` (a `CollectionOfOne` for the common single light lets the
  /// compiler keep its values in registers across calls).
  @inline(__always) func shadeSphere<Lights: Collection<SphereLight>>(
    dx: FloatLanes, depth t: FloatLanes, _ samples: SphereSamples, material: ShadingMaterial,
    blinn: Bool, exponent: Int, lights: Lights
  ) -> ColorLanes {
    let dy = samples.dy
    let outsideX = (dx * t - samples.centreX) * samples.inverseRadius
    let outsideY = (dy * t - samples.centreY) * samples.inverseRadius
    let outsideZ = (-t - samples.centreZ) * samples.inverseRadius
    // N·V < 0 ⇔ N·d > 0: seen from inside.
    let inside = outsideX * dx + outsideY * dy - outsideZ .> 0
    // The normal N is `outside` negated where inside. N is never formed: each dot product with
    // it is taken with `outside` and its sign bit flipped where inside (what `-x` does), the
    // same bits as summing the negated terms (rounding to nearest is symmetric: (−a)·b + (−c)·e
    // = −(a·b + c·e), and (−a) / b = −(a / b)) except for the sign of an exact zero and of a NaN,
    // which the `max(0, ·)` selects and the final clamp to 0…1 turn into the same +0. This takes
    // the flip off the dot products' chain: they run beside the inside test.
    let flip = unsafeBitCast(inside, to: UInt32Lanes.self) & 0x8000_0000
    // |d|; the view vector V = −d / |d| is never formed: for the halfway vector,
    // L + V = (|d| L − d) / |d|, so N·H = N·g / |g| with g = |d| L − d (one square root and one
    // division per light, no division for V).
    let length = (dx * dx + samples.dySquaredPlusOne).squareRoot()
    var diffuse = ColorLanes(
      red: FloatLanes(repeating: Float(ambient.x)), green: FloatLanes(repeating: Float(ambient.y)),
      blue: FloatLanes(repeating: Float(ambient.z)))
    var specular = ColorLanes(red: .zero, green: .zero, blue: .zero)
    // Whether `specular` still holds its zeros: the first light's terms are stored, not added
    // to +0 (which differs from them only in an exact zero's sign, which the clamp erases).
    var firstSpecular = true
    for light in lights {
      let l = light.toward
      let c = light.color
      // max(0, x) with NaN → 0.
      let nl = FloatLanes(
        bitPattern: (outsideX * l.x + outsideY * l.y + outsideZ * l.z).bitPattern ^ flip)
      let lit = select(nl .>= 0, nl, .zero)
      diffuse.red += c.x * lit
      diffuse.green += c.y * lit
      diffuse.blue += c.z * lit
      guard blinn else { continue }
      let gx = length * l.x - dx
      let gy = length * l.y - dy
      let gz = length * l.z + 1
      let gLength = (gx * gx + gy * gy + gz * gz).squareRoot()
      let cosine = FloatLanes(
        bitPattern: ((outsideX * gx + outsideY * gy + outsideZ * gz) / gLength).bitPattern ^ flip)
      // No halfway vector (|g| = 0: the light straight behind the eye) adds nothing.
      let power = select(
        gLength .> 0, select(cosine .>= 0, wholePower(cosine, exponent), .zero), .zero)
      if firstSpecular {
        specular = ColorLanes(red: c.x * power, green: c.y * power, blue: c.z * power)
        firstSpecular = false
      } else {
        specular.red += c.x * power
        specular.green += c.y * power
        specular.blue += c.z * power
      }
    }
    return ColorLanes(
      red: shadedChannel(material.diffuse.x, diffuse.red, material.specular.x, specular.red, blinn),
      green: shadedChannel(
        material.diffuse.y, diffuse.green, material.specular.y, specular.green, blinn),
      blue: shadedChannel(
        material.diffuse.z, diffuse.blue, material.specular.z, specular.blue, blinn))
  }
}

/// One clamped colour channel of `shadeSphere`: `diffuseColor · diffuseLight` (+
/// `specularColor · specularLight` when `blinn`), clamped to 0…1 with NaN → 0. A file-level
/// function: nested in `shadeSphere`, it was not inlined once the lanes were sixteen wide.
@_transparent private func shadedChannel(
  _ diffuseColor: Double, _ diffuseLight: FloatLanes, _ specularColor: Double,
  _ specularLight: FloatLanes, _ blinn: Bool
) -> FloatLanes {
  var color = Float(diffuseColor) * diffuseLight
  if blinn { color += Float(specularColor) * specularLight }
  return select(color .> 1, FloatLanes(repeating: 1), select(color .> 0, color, .zero))
}
