/// A kind of surface a hit test searches for, with ARKit's names
/// (`ARHitTestResult.ResultType`).
///
/// A search takes an ordered list of types: results come grouped in the order the types were
/// requested (ARKit: "the number and order of results … depends on the search types you specify
/// and the order you specify them in"). `estimatedVerticalPlane` is not modelled.
public enum HitTestType: String, Hashable, Sendable, CaseIterable {
  /// A detected plane, hit inside its convex boundary polygon (`PlaneAnchor.boundary`; the extent
  /// rectangle when the anchor has no polygon), as ARKit's `existingPlaneUsingGeometry`.
  case existingPlaneUsingGeometry
  /// A detected plane, hit inside `center ± extent/2` in the anchor's XZ plane, as ARKit's
  /// `existingPlaneUsingExtent`.
  case existingPlaneUsingExtent
  /// A detected plane taken as infinite ("without considering the plane's size"), as ARKit's
  /// `existingPlane`.
  case existingPlane
  /// The scene's estimated horizontal floor (`HitTestScene.estimatedFloorY`): at most one
  /// result, suppressed when any existing-plane type hit, as ARKit's `estimatedHorizontalPlane`.
  case estimatedHorizontalPlane
  /// The scene point-cloud point whose projection is nearest the pixel within
  /// `HitTestScene.featurePointRadiusPixels`, as ARKit's `featurePoint`.
  case featurePoint

  /// Whether the type searches the detected plane anchors.
  public var isExistingPlane: Bool {
    switch self {
    case .existingPlaneUsingGeometry, .existingPlaneUsingExtent, .existingPlane: true
    case .estimatedHorizontalPlane, .featurePoint: false
    }
  }
}
