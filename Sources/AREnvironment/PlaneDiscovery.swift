import ARMath
import ARScene
import Foundation

/// A camera frame plane discovery looks at: the true camera that captured it and how the
/// tracker's world maps the true one at that moment.
public struct PlaneObservation: Sendable {
  /// τ of the AR tick that delivered the frame, seconds (changes apply from this tick).
  public var t: Double
  /// The true camera (capture intrinsics, true pose at the capture time): what it sees.
  public var camera: Camera
  /// Estimated world from true world at the frame (`estimate · truth⁻¹`, identity without a
  /// tracking section): a surface seen then is placed where the tracker believes it is.
  public var estimatedFromTrue: RigidTransform

  /// Creates an observation.
  public init(
    t: Double, camera: Camera,
    estimatedFromTrue: RigidTransform = RigidTransform(rotation: .identity, translation: .zero)
  ) {
    self.t = t
    self.camera = camera
    self.estimatedFromTrue = estimatedFromTrue
  }
}

/// Plane discovery over an environment's surfaces (Documentation/Environments.md, "Plane
/// discovery"), fed the delivered camera frames in τ order; `timelines` gives the discovered
/// anchors as `PlaneAnchorTimeline`s, the form hand-keyed planes take, so the frame loop, the
/// events and hit-testing treat both alike.
///
/// Every `scanInterval` the cells of each surface that are in the image, in front of the
/// camera, within the distance range and seen from the front at most `maximumViewAngle` from
/// the normal count one scan; after `scansToSee` a cell is seen. Seen cells that touch
/// (8-neighbours) form patches; a patch whose extent reaches `minimumSideLength` along both
/// sides becomes an anchor (`plane-added`); a growing patch updates its anchor's centre and
/// extent (`plane-updated`; the anchor's transform stays, as ARKit's); when patches with
/// anchors touch, the earliest anchor takes the union and the others are removed, merged
/// into it. Deterministic: surfaces, cells and patches are visited in index order; no
/// threads.
public struct PlaneDiscovery {
  /// The surfaces searched.
  public let surfaces: [EnvironmentSurface]
  /// The thresholds.
  public let settings: PlaneDiscoverySettings
  private var scansInView: [[UInt8]]
  private var seen: [[Bool]]
  private var owner: [[Int32]]
  private var anchors: [Record] = []
  private var lastScan: Int64?

  private struct Record {
    var surface: Int
    var appearsAt: Double
    /// World (estimated) from anchor.
    var worldFromAnchor: RigidTransform
    /// The anchor origin in surface coordinates.
    var origin: (a: Double, b: Double)
    var initialExtent: Vector3
    var center: Vector3
    var extent: Vector3
    var updates: [PlaneAnchorTimeline.Update] = []
    var removedAt: Double?
    var mergedInto: Int?
  }

  /// Discovery over `surfaces` (`EnvironmentSurface.find`).
  public init(surfaces: [EnvironmentSurface], settings: PlaneDiscoverySettings) {
    self.surfaces = surfaces
    self.settings = settings
    scansInView = surfaces.map { [UInt8](repeating: 0, count: $0.onSurface.count) }
    seen = surfaces.map { [Bool](repeating: false, count: $0.onSurface.count) }
    owner = surfaces.map { [Int32](repeating: -1, count: $0.onSurface.count) }
  }

  /// Looks at one delivered frame (call in τ order); it is scanned when `scanInterval` passed
  /// since the previous scan (the first frame is always scanned).
  public mutating func observe(_ observation: PlaneObservation) {
    let now = Int64((observation.t * 1e6).rounded())
    if let lastScan, now - lastScan < Int64((settings.scanInterval * 1e6).rounded()) { return }
    lastScan = now
    let camera = observation.camera
    let eye = camera.worldFromCamera.translation
    let k = camera.intrinsics
    let cosView = cos(settings.maximumViewAngle)
    let needed = UInt8(clamping: max(1, settings.scansToSee))
    for s in surfaces.indices {
      let surface = surfaces[s]
      let normal = surface.normal
      // The camera behind the plane sees none of it.
      guard normal.dot(eye - surface.worldFromSurface.translation) > 0 else { continue }
      var changed = false
      for cell in surface.onSurface.indices where surface.onSurface[cell] && !seen[s][cell] {
        let p = surface.cellCentre(cell)
        let toEye = eye - p
        let distance = toEye.length
        guard distance >= settings.minimumDistance, distance <= settings.maximumDistance,
          normal.dot(toEye) >= cosView * distance,
          let (u, v, depth) = camera.project(world: p), depth > 0,
          u >= -0.5, v >= -0.5, u < Double(k.width) - 0.5, v < Double(k.height) - 0.5
        else { continue }
        scansInView[s][cell] += 1
        if scansInView[s][cell] >= needed {
          seen[s][cell] = true
          changed = true
        }
      }
      if changed { updatePatches(surface: s, observation: observation) }
    }
  }

  /// The seen patches of surface `s` (8-connected seen cells), each as its cells in index
  /// order, patches ordered by their first cell.
  private func patches(_ s: Int) -> [[Int]] {
    let surface = surfaces[s]
    var label = [Bool](repeating: false, count: seen[s].count)
    var result: [[Int]] = []
    for start in seen[s].indices where seen[s][start] && !label[start] {
      var stack = [start]
      var cells: [Int] = []
      label[start] = true
      while let cell = stack.popLast() {
        cells.append(cell)
        let i = cell % surface.columns
        let j = cell / surface.columns
        for dj in -1...1 {
          for di in -1...1 where di != 0 || dj != 0 {
            let ni = i + di
            let nj = j + dj
            guard ni >= 0, nj >= 0, ni < surface.columns, nj < surface.rows else { continue }
            let n = ni + nj * surface.columns
            if seen[s][n], !label[n] {
              label[n] = true
              stack.append(n)
            }
          }
        }
      }
      result.append(cells.sorted())
    }
    return result
  }

  private mutating func updatePatches(surface s: Int, observation: PlaneObservation) {
    let surface = surfaces[s]
    let t = observation.t
    for cells in patches(s) {
      var low = (a: Double.infinity, b: Double.infinity)
      var high = (a: -Double.infinity, b: -Double.infinity)
      for cell in cells {
        let bounds = surface.cellBounds(cell)
        low = (min(low.a, bounds.a.lowerBound), min(low.b, bounds.b.lowerBound))
        high = (max(high.a, bounds.a.upperBound), max(high.b, bounds.b.upperBound))
      }
      let owners = Set(cells.map { owner[s][$0] }.filter { $0 >= 0 }).sorted()
      if let survivor = owners.first.map(Int.init) {
        for other in owners.dropFirst().map(Int.init) {
          anchors[other].removedAt = t
          anchors[other].mergedInto = survivor
        }
        var record = anchors[survivor]
        let center = Vector3(
          (low.a + high.a) / 2 - record.origin.a, 0, (low.b + high.b) / 2 - record.origin.b)
        let extent = Vector3(high.a - low.a, 0, high.b - low.b)
        if center != record.center || extent != record.extent {
          record.center = center
          record.extent = extent
          record.updates.append(.init(t: t, center: center, extent: extent))
        }
        anchors[survivor] = record
        for cell in cells { owner[s][cell] = Int32(survivor) }
      } else {
        let side = settings.minimumSideLength - 1e-9
        guard high.a - low.a >= side, high.b - low.b >= side else { continue }
        let origin = (a: (low.a + high.a) / 2, b: (low.b + high.b) / 2)
        let trueWorldFromAnchor =
          surface.worldFromSurface
          * RigidTransform(rotation: .identity, translation: Vector3(origin.a, 0, origin.b))
        anchors.append(
          Record(
            surface: s, appearsAt: t,
            worldFromAnchor: observation.estimatedFromTrue * trueWorldFromAnchor,
            origin: origin, initialExtent: Vector3(high.a - low.a, 0, high.b - low.b),
            center: .zero, extent: Vector3(high.a - low.a, 0, high.b - low.b)))
        for cell in cells { owner[s][cell] = Int32(anchors.count - 1) }
      }
    }
  }

  /// The discovered anchors in the order they were added, identified by `identifier(k)` for
  /// the k-th (0-based); a merged anchor names its survivor's identifier.
  public func timelines(identifier: (Int) -> String) -> [PlaneAnchorTimeline] {
    anchors.enumerated().map { k, record in
      let surface = surfaces[record.surface]
      let anchor = PlaneAnchor(
        identifier: identifier(k), worldFromAnchor: record.worldFromAnchor, center: .zero,
        extent: record.initialExtent,
        alignment: surface.alignment, classification: surface.classification)
      return PlaneAnchorTimeline(
        initial: anchor, appearsAt: record.appearsAt, updates: record.updates,
        removedAt: record.removedAt, mergedInto: record.mergedInto.map(identifier))
    }
  }
}
