import ARMath
import ARScene
import Foundation

/// A large flat surface of an environment that plane discovery can find: coplanar triangles
/// (normal and offset within `PlaneDiscoverySettings`' tolerances) in a grid of square cells.
///
/// The surface frame has +Y along the surface's snapped normal (world ±Y for horizontal
/// surfaces, as ARKit's gravity-aligned horizontal anchors; the normal's horizontal direction
/// for vertical ones), +X along world X (horizontal) or world up × normal (vertical), and its
/// origin on the plane at the point nearest the world origin. Cell (i, j) covers surface
/// coordinates a ∈ [aMin + i·s, aMin + (i+1)·s], b ∈ [bMin + j·s, …] (a along +X, b along +Z),
/// the last row and column clipped to the surface's bounds.
public struct EnvironmentSurface: Sendable {
  /// Horizontal or vertical.
  public var alignment: PlaneAnchor.Alignment
  /// From the rule or the part's `classification` key.
  public var classification: PlaneAnchor.Classification
  /// World from surface frame.
  public var worldFromSurface: RigidTransform
  /// Lower bounds of the surface's triangles in surface coordinates (a, b), metres.
  public var minimum: (a: Double, b: Double)
  /// Upper bounds, metres.
  public var maximum: (a: Double, b: Double)
  /// Cell side, metres.
  public var cellSize: Double
  /// Cells along a.
  public var columns: Int
  /// Cells along b.
  public var rows: Int
  /// Per cell (index i + j·columns): whether its centre lies on one of the triangles.
  public var onSurface: [Bool]
  /// The triangles' total area, square metres.
  public var area: Double
  /// The environment part (scene order) of the surface's first triangle.
  public var part: Int

  /// The surface normal (world).
  public var normal: Vector3 { worldFromSurface.transformDirection(.unitY) }

  /// The clipped square of cell `index` in surface coordinates.
  public func cellBounds(_ index: Int) -> (a: ClosedRange<Double>, b: ClosedRange<Double>) {
    let i = index % columns
    let j = index / columns
    let a0 = minimum.a + Double(i) * cellSize
    let b0 = minimum.b + Double(j) * cellSize
    return (
      a0...min(a0 + cellSize, maximum.a), b0...min(b0 + cellSize, maximum.b)
    )
  }

  /// The world point at surface coordinates (a, b).
  public func worldPoint(a: Double, b: Double) -> Vector3 {
    worldFromSurface.transformPoint(Vector3(a, 0, b))
  }

  /// The world centre of cell `index` (of its clipped square).
  public func cellCentre(_ index: Int) -> Vector3 {
    let bounds = cellBounds(index)
    return worldPoint(
      a: (bounds.a.lowerBound + bounds.a.upperBound) / 2,
      b: (bounds.b.lowerBound + bounds.b.upperBound) / 2)
  }
}

extension EnvironmentSurface {
  /// The candidate surfaces of `environment` for the alignments in `alignments`, in the order
  /// of their first triangles; deterministic (triangles are visited in order, each joining the
  /// first earlier surface it is coplanar with).
  /// - Complexity: grouping looks only at the surfaces whose plane offsets are within a few
  ///   `coplanarDistance` of the triangle's (`OffsetBuckets`): O(triangles) for distinct
  ///   levels, plus the cells each triangle covers.
  public static func find(
    in environment: Environment, alignments: Set<PlaneAnchor.Alignment>,
    settings: PlaneDiscoverySettings = PlaneDiscoverySettings()
  ) -> [EnvironmentSurface] {
    guard !alignments.isEmpty else { return [] }
    let positions = environment.geometry.positions
    let triangleCount = positions.count / 3
    var partOf = [Int](repeating: 0, count: triangleCount)
    for (p, part) in environment.parts.enumerated() {
      for t in part.triangles where t < triangleCount { partOf[t] = p }
    }
    struct Group {
      var alignment: PlaneAnchor.Alignment
      var normal: Vector3
      var offset: Double
      /// The first triangle's own plane (unit normal on the side of `normal`, and offset).
      var planeNormal: Vector3
      var planeOffset: Double
      var triangles: [Int] = []
      var area = 0.0
    }
    var groups: [Group] = []
    var offsetBuckets = OffsetBuckets(width: settings.coplanarDistance)
    var planeBuckets = OffsetBuckets(width: settings.coplanarDistance)
    let horizontalCos = cos(settings.horizontalTolerance)
    let verticalSin = sin(settings.verticalTolerance)
    let coplanarCos = cos(settings.coplanarAngle)
    for t in 0..<triangleCount {
      let p0 = vector(positions[3 * t])
      let e1 = vector(positions[3 * t + 1]) - p0
      let e2 = vector(positions[3 * t + 2]) - p0
      let cross = e1.cross(e2)
      guard let n = cross.normalized else { continue }
      let snapped: Vector3
      let alignment: PlaneAnchor.Alignment
      if abs(n.y) >= horizontalCos {
        alignment = .horizontal
        snapped = Vector3(0, n.y > 0 ? 1 : -1, 0)
      } else if abs(n.y) <= verticalSin, let h = Vector3(n.x, 0, n.z).normalized {
        alignment = .vertical
        snapped = h
      } else {
        continue
      }
      guard alignments.contains(alignment) else { continue }
      let centroid = (p0 * 3 + e1 + e2) / 3
      let offset = snapped.dot(centroid)
      let area = cross.length / 2
      // The triangle's own plane: a tilted flat surface (within the alignment's tolerance) has
      // one plane but triangles at different heights along the gravity-aligned normal.
      let planeNormal = n.dot(snapped) < 0 ? -n : n
      let planeOffset = planeNormal.dot(centroid)
      // Joins a surface at its height (a bumpy floor or rug: one level within
      // `coplanarDistance`) or in its plane (a tilted flat surface).
      @inline(__always) func joins(_ g: Int) -> Bool {
        guard groups[g].alignment == alignment, groups[g].normal.dot(snapped) >= coplanarCos
        else { return false }
        return abs(groups[g].offset - offset) <= settings.coplanarDistance
          || (groups[g].planeNormal.dot(planeNormal) >= coplanarCos
            && abs(groups[g].planeOffset - planeOffset) <= settings.coplanarDistance)
      }
      // The first group it joins, as a scan of all groups in order would find it.
      let bucket = offsetBuckets.bucket(offset)
      let planeBucket = planeBuckets.bucket(planeOffset)
      var first: Int?
      for g in offsetBuckets.candidates(near: bucket, alignment: alignment, count: groups.count)
        + planeBuckets.candidates(near: planeBucket, alignment: alignment, count: groups.count)
      where g < (first ?? .max) && joins(g) {
        first = g
      }
      if let g = first {
        groups[g].triangles.append(t)
        groups[g].area += area
      } else {
        offsetBuckets.insert(groups.count, bucket: bucket, alignment: alignment)
        planeBuckets.insert(groups.count, bucket: planeBucket, alignment: alignment)
        groups.append(
          Group(
            alignment: alignment, normal: snapped, offset: offset, planeNormal: planeNormal,
            planeOffset: planeOffset, triangles: [t], area: area))
      }
    }

    var surfaces: [EnvironmentSurface] = []
    var overrides: [PlaneAnchor.Classification?] = []
    for group in groups where group.area >= settings.minimumArea {
      let y = group.normal
      let x =
        group.alignment == .horizontal
        ? Vector3.unitX : (Vector3.unitY.cross(y).normalized ?? .unitX)
      let z = x.cross(y)
      let frame = RigidTransform(
        rotation: Quaternion(rotationMatrix: Matrix3(x, y, z)), translation: y * group.offset)
      // Surface coordinates of a world point: its components along the frame's X and Z.
      func coordinates(_ p: Vector3) -> (Double, Double) { (p.dot(x), p.dot(z)) }
      var low = (a: Double.infinity, b: Double.infinity)
      var high = (a: -Double.infinity, b: -Double.infinity)
      var corners: [[(Double, Double)]] = []
      for t in group.triangles {
        let c = (0..<3).map { coordinates(vector(positions[3 * t + $0])) }
        for (a, b) in c {
          low = (min(low.a, a), min(low.b, b))
          high = (max(high.a, a), max(high.b, b))
        }
        corners.append(c)
      }
      let side = settings.minimumSideLength
      guard high.a - low.a >= side - 1e-9, high.b - low.b >= side - 1e-9 else { continue }
      let boundsArea = (high.a - low.a) * (high.b - low.b)
      let most = Double(max(1, settings.maximumCellsPerSurface))
      var s = max(settings.cellSize, (boundsArea / most).squareRoot() * (1 + 1e-9))
      func count(_ length: Double) -> Double { max(1, (length / s - 1e-9).rounded(.up)) }
      // A long, narrow surface has one row of cells whatever its area says: widen the cells
      // until the count holds (each step 5 % wider; the count reaches 1 × 1 at the latest).
      while count(high.a - low.a) * count(high.b - low.b) > most { s *= 1.05 }
      let columns = Int(count(high.a - low.a))
      let rows = Int(count(high.b - low.b))
      var surface = EnvironmentSurface(
        alignment: group.alignment, classification: .none, worldFromSurface: frame,
        minimum: low, maximum: high, cellSize: s, columns: columns, rows: rows,
        onSurface: [Bool](repeating: false, count: columns * rows), area: group.area,
        part: partOf[group.triangles[0]])
      for c in corners {
        let aRange = (c.map(\.0).min() ?? 0, c.map(\.0).max() ?? 0)
        let bRange = (c.map(\.1).min() ?? 0, c.map(\.1).max() ?? 0)
        let i0 = max(0, Int(((aRange.0 - low.a) / s).rounded(.down)))
        let i1 = min(columns - 1, Int(((aRange.1 - low.a) / s).rounded(.down)))
        let j0 = max(0, Int(((bRange.0 - low.b) / s).rounded(.down)))
        let j1 = min(rows - 1, Int(((bRange.1 - low.b) / s).rounded(.down)))
        guard i0 <= i1, j0 <= j1 else { continue }
        for j in j0...j1 {
          for i in i0...i1 where !surface.onSurface[i + j * columns] {
            let bounds = surface.cellBounds(i + j * columns)
            let a = (bounds.a.lowerBound + bounds.a.upperBound) / 2
            let b = (bounds.b.lowerBound + bounds.b.upperBound) / 2
            if contains(c, a, b) { surface.onSurface[i + j * columns] = true }
          }
        }
      }
      // The part whose `classification` key decides: the first, in scene order, of the
      // surface's triangles' parts that has one.
      let override = Set(group.triangles.map { partOf[$0] }).sorted().lazy
        .compactMap { environment.parts[$0].classification }.first
      overrides.append(override)
      surfaces.append(surface)
    }
    // The rule needs the lowest upward horizontal surface.
    let floorY = surfaces.filter { $0.alignment == .horizontal && $0.normal.y > 0 }
      .map { $0.worldFromSurface.translation.y }.min()
    for i in surfaces.indices {
      surfaces[i].classification =
        overrides[i] ?? rule(surfaces[i], floorY: floorY, settings: settings)
    }
    return surfaces
  }

  /// The classification rule (PlaneDiscoverySettings.floorHeight): vertical surfaces are
  /// walls; upward horizontal ones floor, seat or table by their height above the lowest
  /// upward one; downward ones ceilings from `ceilingHeight` above it.
  static func rule(
    _ surface: EnvironmentSurface, floorY: Double?, settings: PlaneDiscoverySettings
  ) -> PlaneAnchor.Classification {
    guard surface.alignment == .horizontal else { return .wall }
    guard let floorY else { return .none }
    let height = surface.worldFromSurface.translation.y - floorY
    if surface.normal.y < 0 { return height >= settings.ceilingHeight ? .ceiling : .none }
    switch height {
    case ..<settings.floorHeight: return .floor
    case ..<settings.seatHeight: return .none
    case ..<settings.tableHeight: return .seat
    case ..<settings.maximumTableHeight: return .table
    default: return .none
    }
  }

  static func vector(_ p: SIMD3<Double>) -> Vector3 { Vector3(p.x, p.y, p.z) }

  /// Whether (a, b) lies in the 2D triangle `c` (edges included, either winding).
  static func contains(_ c: [(Double, Double)], _ a: Double, _ b: Double) -> Bool {
    func edge(_ p: (Double, Double), _ q: (Double, Double)) -> Double {
      (q.0 - p.0) * (b - p.1) - (q.1 - p.1) * (a - p.0)
    }
    let d0 = edge(c[0], c[1])
    let d1 = edge(c[1], c[2])
    let d2 = edge(c[2], c[0])
    let eps = 1e-12
    return (d0 >= -eps && d1 >= -eps && d2 >= -eps) || (d0 <= eps && d1 <= eps && d2 <= eps)
  }
}

/// Candidate surfaces by alignment and plane offset, so that grouping a triangle looks only at
/// the surfaces it can be coplanar with: a scan of every surface made grouping quadratic (a model
/// of 100 000 triangles on as many levels took 16 s; the triangle limit, hours).
///
/// A surface is filed under ⌊offset / width⌋ (width: `coplanarDistance`); one within `width`
/// of a triangle's offset is filed at most two buckets from the triangle's (rounding of the
/// quotients included), so `candidates` holds every surface a full scan would accept. Offsets
/// whose bucket is not a safe integer (non-finite, beyond 2⁵² widths, or no positive finite
/// width) go to one overflow list that every search also reads, and a triangle whose own
/// bucket is not safe is compared with every surface, as before.
struct OffsetBuckets {
  private let width: Double
  private var buckets: [Key: [Int]] = [:]
  private var overflow: [Int] = []

  private struct Key: Hashable {
    var alignment: PlaneAnchor.Alignment
    var bucket: Int
  }

  init(width: Double) { self.width = width }

  /// The bucket of a plane offset; nil where it is not a safe integer.
  func bucket(_ offset: Double) -> Int? {
    guard width > 0, width.isFinite else { return nil }
    let quotient = (offset / width).rounded(.down)
    guard quotient.isFinite, quotient.magnitude < 0x1p52 else { return nil }
    return Int(quotient)
  }

  /// Files surface `index` (the next, ascending) under `bucket`.
  mutating func insert(_ index: Int, bucket: Int?, alignment: PlaneAnchor.Alignment) {
    guard let bucket else {
      overflow.append(index)
      return
    }
    buckets[Key(alignment: alignment, bucket: bucket), default: []].append(index)
  }

  /// Every surface index (of `count`) a triangle in `bucket` may join, in no set order.
  func candidates(near bucket: Int?, alignment: PlaneAnchor.Alignment, count: Int) -> [Int] {
    guard let bucket else { return Array(0..<count) }
    var found = overflow
    for b in (bucket - 2)...(bucket + 2) {
      found += buckets[Key(alignment: alignment, bucket: b)] ?? []
    }
    return found
  }
}
