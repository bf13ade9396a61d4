import ARFormats
import ARSupport

/// An output image size in pixels as a section writes it (`{"width", "height"}`, both
/// required): integers decoded as `JSONInteger`, so a fraction is reported with line and field.
public struct SizeSpec: Decodable, Sendable {
  /// Width, pixels.
  public var width: JSONInteger
  /// Height, pixels.
  public var height: JSONInteger

  /// The keys of a size object, for unknown-field warnings.
  public static let fields: Set<String> = ["width", "height"]
}

extension SceneSection {
  /// The size `spec` written at `field`, checked.
  /// - Throws: `InputError` naming `field` when a side is outside 1…16384 pixels or the image
  ///   is over 64 Mi pixels (`ImageLimits`).
  public func size(_ spec: SizeSpec, field: String) throws -> (width: Int, height: Int) {
    let width = spec.width.value
    let height = spec.height.value
    guard (1...16384).contains(width), (1...16384).contains(height) else {
      throw error(field, "width and height must be 1…16384 (got \(width)×\(height))")
    }
    guard width * height <= ImageLimits.maximumPixels else {
      throw error(field, ImageLimits.overPixelLimit(width, height))
    }
    return (width, height)
  }
}
