/// A sphere centred on its node's origin, as `SCNSphere`.
public struct Sphere: Hashable, Sendable {
  /// Radius in node-local units (metres before scale).
  public var radius: Double
  /// Creates a sphere.
  public init(radius: Double) { self.radius = radius }
}

/// An axis-aligned box centred on its node's origin, as `SCNBox` (no chamfer).
public struct Box: Hashable, Sendable {
  /// Extent along local X (metres before scale).
  public var width: Double
  /// Extent along local Y.
  public var height: Double
  /// Extent along local Z.
  public var length: Double
  /// Creates a box.
  public init(width: Double, height: Double, length: Double) {
    self.width = width
    self.height = height
    self.length = length
  }
}

/// A rectangle in the node's local XY plane, centred, facing +Z, as `SCNPlane`.
///
/// Texture coordinates: (0, 0) at the top-left corner seen from +Z (local (−w/2, +h/2)),
/// (1, 1) at the bottom-right, so a texture reads upright from the front.
public struct Plane: Hashable, Sendable {
  /// Extent along local X.
  public var width: Double
  /// Extent along local Y.
  public var height: Double
  /// Creates a plane.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// The shape of a geometry.
public enum Shape: Hashable, Sendable {
  /// An analytic sphere (rasterized exactly, never tessellated).
  case sphere(Sphere)
  /// A box of 12 triangles.
  case box(Box)
  /// A rectangle of 2 triangles.
  case plane(Plane)
}

/// A shape with its material, as an `SCNGeometry` with its `firstMaterial`.
public struct Geometry: Hashable, Sendable {
  /// The shape.
  public var shape: Shape
  /// The material.
  public var material: Material

  /// Creates a geometry.
  public init(_ shape: Shape, material: Material = Material()) {
    self.shape = shape
    self.material = material
  }

  /// A sphere geometry.
  public static func sphere(radius: Double, material: Material = Material()) -> Geometry {
    Geometry(.sphere(Sphere(radius: radius)), material: material)
  }

  /// A box geometry.
  public static func box(
    width: Double, height: Double, length: Double, material: Material = Material()
  ) -> Geometry {
    Geometry(.box(Box(width: width, height: height, length: length)), material: material)
  }

  /// A plane geometry.
  public static func plane(width: Double, height: Double, material: Material = Material())
    -> Geometry
  {
    Geometry(.plane(Plane(width: width, height: height)), material: material)
  }
}
