/// How a surface is shaded, as SceneKit's `SCNMaterial.LightingModel`.
public enum LightingModel: String, Hashable, Sendable, CaseIterable {
  /// Unlit: colour = diffuse (SceneKit `.constant`).
  case constant
  /// Diffuse only: ambient + Σ max(0, N·L) (SceneKit `.lambert`).
  case lambert
  /// Diffuse + specular · max(0, N·H)^shininess (SceneKit `.blinn`, the default).
  case blinn
}

/// Surface appearance, after SceneKit's `SCNMaterial`.
public struct Material: Hashable, Sendable {
  /// Diffuse colour (sRGB encoded, 0…1); multiplied by `diffuseTexture` when one is set.
  public var diffuse: Color
  /// Optional diffuse image (for a video screen); sampled bilinearly.
  public var diffuseTexture: Texture?
  /// Specular colour for `.blinn`. SceneKit's default is black; ARSim's stroke spheres state
  /// their own.
  public var specular: Color
  /// Blinn exponent (SceneKit's `shininess`, default 1.0).
  public var shininess: Double
  /// The lighting model.
  public var lightingModel: LightingModel
  /// Whether back faces are drawn (SceneKit's `isDoubleSided`, default false).
  public var isDoubleSided: Bool
  /// Opacity of the material, 0 (invisible) … 1 (opaque), as SceneKit's `transparency`.
  public var transparency: Double

  /// Creates a material; the defaults are SceneKit's (white blinn, black specular, shininess 1).
  public init(
    diffuse: Color = .white, diffuseTexture: Texture? = nil, specular: Color = .black,
    shininess: Double = 1, lightingModel: LightingModel = .blinn, isDoubleSided: Bool = false,
    transparency: Double = 1
  ) {
    self.diffuse = diffuse
    self.diffuseTexture = diffuseTexture
    self.specular = specular
    self.shininess = shininess
    self.lightingModel = lightingModel
    self.isDoubleSided = isDoubleSided
    self.transparency = transparency
  }
}
