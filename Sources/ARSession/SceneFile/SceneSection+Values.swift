import ARMath
import ARScene

/// The checks of the values every scene-file section writes the same way: vectors, colours,
/// times, and poses given as SceneKit's position and Euler angles.
extension SceneSection {
  /// `count` finite numbers.
  /// - Throws: `InputError` naming `field` otherwise.
  public func finiteNumbers(_ values: [Double], count: Int, field: String) throws -> [Double] {
    guard values.count == count, values.allSatisfy(\.isFinite) else {
      throw error(field, "expected \(count) finite numbers")
    }
    return values
  }

  /// A vector `[x, y, z]` of finite numbers (metres, radians or a scale, as the field says).
  /// - Throws: `InputError` naming `field` otherwise.
  public func vector3(_ values: [Double], field: String) throws -> Vector3 {
    let v = try finiteNumbers(values, count: 3, field: field)
    return Vector3(v[0], v[1], v[2])
  }

  /// A colour `[r, g, b]` or `[r, g, b, a]`, sRGB-encoded 0…1 (DESIGN §3), as four components;
  /// a missing alpha is `alpha`.
  /// - Throws: `InputError` naming `field` for another count or a value outside 0…1.
  public func colorComponents(_ values: [Double], field: String, alpha: Double = 1) throws
    -> [Double]
  {
    guard values.count == 3 || values.count == 4,
      values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 })
    else {
      throw error(field, "expected [r, g, b] or [r, g, b, a] with values 0…1")
    }
    return values.count == 4 ? values : values + [alpha]
  }

  /// A colour as `colorComponents(_:field:alpha:)`, as a `Color`.
  /// - Throws: as `colorComponents(_:field:alpha:)`.
  public func color(_ values: [Double], field: String) throws -> Color {
    let c = try colorComponents(values, field: field)
    return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
  }

  /// A time or length that, when given, is finite and at least `minimum`.
  /// - Throws: `InputError` naming `field` otherwise.
  public func finite(_ value: Double?, field: String, minimum: Double = -.infinity) throws {
    if let value, !(value.isFinite && value >= minimum) {
      throw error(field, "\(value) is not a finite number ≥ \(minimum)")
    }
  }

  /// The transform of a SceneKit node at `position` (metres) with `eulerAngles` (pitch, yaw,
  /// roll, radians; DESIGN §3), both checked, the angles' field being `eulerAnglesField`.
  /// - Throws: `InputError` naming the field that is not three finite numbers.
  public func nodeTransform(
    position: [Double], field positionField: String, eulerAngles: [Double]?,
    field eulerAnglesField: String
  ) throws -> Matrix4 {
    let node = Node()
    node.position = try vector3(position, field: positionField)
    if let e = eulerAngles { node.eulerAngles = try vector3(e, field: eulerAnglesField) }
    return node.transform
  }
}
