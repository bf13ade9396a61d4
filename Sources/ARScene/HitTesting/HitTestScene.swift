import ARMath

/// What a hit test can find in a replayed scene: plane anchors, a point cloud and an estimated
/// floor, none of which the recorded tracks carry (DESIGN §6).
///
/// Searching follows ARKit's `hitTest(_:types:)` (SourceApps.md §1 fact 8, §7.8):
/// - results come grouped by type in the order the types were requested (a type listed twice is
///   searched once);
/// - within an existing-plane type, one result per plane hit, nearest first (ties keep the
///   order of `planes`);
/// - `estimatedHorizontalPlane` gives at most one result and none at all when any
///   existing-plane type in the same search hit;
/// - `featurePoint` gives at most one result.
///
/// Geometry never throws: a ray parallel to a surface or a surface behind the camera simply
/// gives no result.
public struct HitTestScene: Hashable, Sendable {
  /// Detected planes (searched by the `existingPlane…` types).
  public var planes: [PlaneAnchor]
  /// Feature points, world frame, metres (searched by `featurePoint`).
  public var pointCloud: [Vector3]
  /// Height (world Y, metres) of the horizontal plane `estimatedHorizontalPlane` finds; `nil` =
  /// none.
  public var estimatedFloorY: Double?
  /// How far (output pixels) a cloud point's projection may lie from the searched pixel.
  public var featurePointRadiusPixels: Double

  /// Creates a scene. The default feature-point radius, 8 px, is ARSim's choice (ARKit does
  /// not publish one).
  public init(
    planes: [PlaneAnchor] = [], pointCloud: [Vector3] = [], estimatedFloorY: Double? = nil,
    featurePointRadiusPixels: Double = 8
  ) {
    self.planes = planes
    self.pointCloud = pointCloud
    self.estimatedFloorY = estimatedFloorY
    self.featurePointRadiusPixels = featurePointRadiusPixels
  }

  /// Searches the scene along the ray through output pixel (u, v) of `camera`.
  ///
  /// - Parameters:
  ///   - u, v: output-image pixel, top-left origin, pixel centres at integers (DESIGN §3).
  ///   - types: the search types in the order results should come.
  ///   - camera: the viewport camera (output intrinsics, `worldFromCamera`).
  /// - Returns: results as described on the type; distances in metres from the camera centre.
  /// - Complexity: O(planes · boundary vertices + cloud points) per requested type.
  public func hitTest(u: Double, v: Double, types: [HitTestType], camera: Camera)
    -> [HitTestResult]
  {
    let ray = camera.worldRay(u: u, v: v)  // world frame, unit direction
    var searched = Set<HitTestType>()
    var results: [HitTestResult] = []
    var existingPlaneHit = false
    var estimatedPosition: Int?
    for type in types where searched.insert(type).inserted {
      switch type {
      case .existingPlaneUsingGeometry, .existingPlaneUsingExtent, .existingPlane:
        let hits = planeHits(ray: ray, type: type)
        existingPlaneHit = existingPlaneHit || !hits.isEmpty
        results += hits
      case .estimatedHorizontalPlane:
        if let hit = estimatedPlaneHit(ray: ray) {
          estimatedPosition = results.count
          results.append(hit)
        }
      case .featurePoint:
        if let hit = featurePointHit(u: u, v: v, ray: ray, camera: camera) { results.append(hit) }
      }
    }
    if existingPlaneHit, let index = estimatedPosition { results.remove(at: index) }
    return results
  }

  /// Existing-plane hits of one type, nearest first (stable for equal distances).
  func planeHits(ray: Ray, type: HitTestType) -> [HitTestResult] {
    var hits: [(index: Int, result: HitTestResult)] = []
    for (index, anchor) in planes.enumerated() {
      guard let hit = anchor.intersection(with: ray) else { continue }
      switch type {
      case .existingPlaneUsingExtent:
        guard anchor.extentContains(localPoint: hit.localPoint) else { continue }
      case .existingPlaneUsingGeometry:
        guard anchor.geometryContains(localPoint: hit.localPoint) else { continue }
      default:
        break
      }
      let worldFromHit = Matrix4(
        rotation: anchor.worldFromAnchor.rotation.rotationMatrix, translation: hit.worldPoint)
      hits.append(
        (
          index,
          HitTestResult(
            type: type, distance: hit.distance, worldTransform: worldFromHit, anchor: anchor)
        ))
    }
    hits.sort { ($0.result.distance, $0.index) < ($1.result.distance, $1.index) }
    return hits.map(\.result)
  }

  /// The estimated horizontal floor `y = estimatedFloorY` (either side), identity rotation.
  func estimatedPlaneHit(ray: Ray) -> HitTestResult? {
    guard let floorY = estimatedFloorY, abs(ray.direction.y) > 1e-12 else { return nil }
    let parameter = (floorY - ray.origin.y) / ray.direction.y
    guard parameter > 0, parameter.isFinite else { return nil }
    let point = ray.point(at: parameter)
    return HitTestResult(
      type: .estimatedHorizontalPlane, distance: parameter * ray.direction.length,
      worldTransform: Matrix4(translation: point), anchor: nil)
  }

  /// The cloud point in front of the camera whose projection is nearest (u, v) within the
  /// radius (ties: nearer depth, then lower index); the result lies at the point's orthogonal
  /// projection onto the ray, identity rotation.
  func featurePointHit(u: Double, v: Double, ray: Ray, camera: Camera) -> HitTestResult? {
    var best: (pixelDistance: Double, depth: Double, point: Vector3)?
    for point in pointCloud {
      guard let projected = camera.project(world: point) else { continue }
      let du = projected.u - u
      let dv = projected.v - v
      let pixelDistance = (du * du + dv * dv).squareRoot()
      guard pixelDistance <= featurePointRadiusPixels else { continue }
      if let current = best,
        (current.pixelDistance, current.depth) <= (pixelDistance, projected.depth)
      {
        continue
      }
      best = (pixelDistance, projected.depth, point)
    }
    guard let best else { return nil }
    let unit = ray.direction.normalized ?? ray.direction
    let parameter = (best.point - ray.origin).dot(unit)  // metres along the ray
    guard parameter > 0 else { return nil }
    return HitTestResult(
      type: .featurePoint, distance: parameter,
      worldTransform: Matrix4(translation: ray.origin + unit * parameter), anchor: nil)
  }
}
