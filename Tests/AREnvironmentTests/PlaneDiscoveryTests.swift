import ARMath
import ARScene
import ARSession
import ARSupport
import Foundation
import Testing

@testable import AREnvironment

/// Plane discovery against values worked out by hand: pinhole footprints of cameras looking
/// straight down (a 640 × 480 image with fx = fy = 500 and the principal point at the centre
/// sees |Δx| < 0.64·h and |Δz| < 0.48·h at height h), 0.1 m cells, scans every 0.15 s.
@Suite("Plane discovery")
struct PlaneDiscoveryTests {
  static let intrinsics = CameraIntrinsics(
    fx: 500, fy: 500, cx: 319.5, cy: 239.5, width: 640, height: 480)

  func environment(_ spec: String) throws -> Environment {
    let decoded = try JSONDecoder().decode(EnvironmentSpec.self, from: Data(spec.utf8))
    return try Environment.load(decoded, section: SceneSection(sceneFilePath: "/tmp/scene.json"))
  }

  /// A camera at `position` looking straight down (image up = world −Z).
  func downward(_ position: Vector3) -> Camera {
    Camera(
      intrinsics: Self.intrinsics,
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: -Double.pi / 2), translation: position))
  }

  /// A camera at `position` looking straight up.
  func upward(_ position: Vector3) -> Camera {
    Camera(
      intrinsics: Self.intrinsics,
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: Double.pi / 2), translation: position))
  }

  /// Discovery fed 60 Hz frames for `seconds`, the camera chosen by τ.
  func discover(
    _ environment: Environment, seconds: Double, camera: (Double) -> Camera
  ) -> [PlaneAnchorTimeline] {
    let settings = PlaneDiscoverySettings()
    var discovery = PlaneDiscovery(
      surfaces: EnvironmentSurface.find(
        in: environment, alignments: environment.planeDetection, settings: settings),
      settings: settings)
    for tick in 0..<Int(seconds * 60) {
      let t = Double(tick) / 60
      discovery.observe(PlaneObservation(t: t, camera: camera(t)))
    }
    return discovery.timelines { "discovered-\($0 + 1)" }
  }

  static let room = """
    {"planeDetection": ["horizontal", "vertical"], "primitives": [
      {"name": "floor", "plane": {"width": 4, "height": 4}, "eulerAngles": [-1.5707963267948966, 0, 0]},
      {"name": "table", "box": {"width": 1.0, "height": 0.04, "length": 0.6}, "position": [0, 0.72, -1.5]}
    ]}
    """

  @Test("No plane before its surface was in view; the table is found whole, inside its top")
  func table() throws {
    let room = try environment(Self.room)
    // Looking up at nothing until τ = 1 s, then down at the table from 1 m above its top.
    let timelines = discover(room, seconds: 2) { t in
      t < 1 ? self.upward(Vector3(0, 1.74, -1.5)) : self.downward(Vector3(0, 1.74, -1.5))
    }
    // Scans at 0, 0.15, …: the first ones looking down are 1.05, 1.2, …, 1.65 s; a cell is
    // seen at its fifth.
    #expect(timelines.allSatisfy { $0.appearsAt == 1.65 })
    for t in stride(from: 0.0, to: 1.65, by: 1.0 / 60) { #expect(timelines.anchors(at: t).isEmpty) }
    let table = try #require(timelines.first { $0.initial.classification == .table })
    let anchor = try #require(table.anchor(at: 2))
    // The whole 1.0 × 0.6 top (|Δx| ≤ 0.5 < 0.64 m, |Δz| ≤ 0.3 < 0.48 m) at y = 0.74.
    let centre = anchor.worldFromAnchor.transformPoint(anchor.center)
    #expect(centre.distance(to: Vector3(0, 0.74, -1.5)) < 1e-9)
    #expect(abs(anchor.extent.x - 1.0) < 1e-9 && abs(anchor.extent.z - 0.6) < 1e-9)
    #expect(anchor.alignment == .horizontal)
    #expect(table.updates.isEmpty)
    // The floor, 1.74 m below: cells whose centres are within 1.1136 m (x) and 0.8352 m (z)
    // of (0, −1.5): x centres −1.05…1.05, z centres −2.25…−0.75 of which the floor (z ≥ −2)
    // has −1.95…−0.75: [−1.1, 1.1] × [−2.0, −0.7], inside the 4 × 4 floor.
    let floor = try #require(timelines.first { $0.initial.classification == .floor })
    let f = try #require(floor.anchor(at: 2))
    let floorCentre = f.worldFromAnchor.transformPoint(f.center)
    #expect(floorCentre.distance(to: Vector3(0, 0, -1.35)) < 1e-9)
    #expect(abs(f.extent.x - 2.2) < 1e-9 && abs(f.extent.z - 1.3) < 1e-9)
    #expect(timelines.count == 2)
  }

  static let strip = """
    {"planeDetection": ["horizontal"], "primitives": [
      {"name": "bench", "plane": {"width": 4, "height": 0.6}, "eulerAngles": [-1.5707963267948966, 0, 0]}
    ]}
    """

  @Test("Two patches of one surface: added apart, merged when the part between is seen")
  func merge() throws {
    let strip = try environment(Self.strip)
    // Over x = −1 at 0.4 m (sees |Δx| < 0.256, |Δz| < 0.192), over x = +1, then over x = 0
    // at 1.2 m (|Δx| < 0.768, the whole width).
    let timelines = discover(strip, seconds: 3) { t in
      t < 1
        ? self.downward(Vector3(-1, 0.4, 0))
        : t < 2 ? self.downward(Vector3(1, 0.4, 0)) : self.downward(Vector3(0, 1.2, 0))
    }
    #expect(timelines.count == 2)
    let first = timelines[0]
    let second = timelines[1]
    #expect(first.appearsAt == 0.6 && second.appearsAt == 1.65)
    // Patch A: cells with centres −1.25…−0.75 (x) and −0.15…0.15 (z): [−1.3, −0.7] × [−0.2, 0.2].
    let a = first.initial
    #expect(a.worldFromAnchor.translation.distance(to: Vector3(-1, 0, 0)) < 1e-9)
    #expect(abs(a.extent.x - 0.6) < 1e-9 && abs(a.extent.z - 0.4) < 1e-9)
    #expect(second.initial.worldFromAnchor.translation.distance(to: Vector3(1, 0, 0)) < 1e-9)
    // Scans over x = 0 at 2.1, 2.25, …, 2.7 s: at 2.7 the cells −0.75…0.75 join both patches.
    #expect(second.removedAt == 2.7 && second.mergedInto == "discovered-1")
    #expect(first.removedAt == nil)
    let merged = try #require(first.anchor(at: 2.7))
    let centre = merged.worldFromAnchor.transformPoint(merged.center)
    #expect(centre.distance(to: Vector3(0, 0, 0)) < 1e-9)
    #expect(abs(merged.extent.x - 2.6) < 1e-9 && abs(merged.extent.z - 0.6) < 1e-9)
    #expect(first.anchor(at: 2.69)?.extent.x == a.extent.x)
    // Events in order: A added, B added, A grows and B goes in the same tick.
    #expect(first.updates.map(\.t) == [2.7])
  }

  @Test("Classification by the rule (height above the lowest floor) and by the key")
  func classification() throws {
    let room = try environment(
      """
      {"planeDetection": ["horizontal", "vertical"], "primitives": [
        {"plane": {"width": 4, "height": 4}, "position": [0, 0.2, 0], "eulerAngles": [-1.5707963267948966, 0, 0]},
        {"plane": {"width": 1, "height": 1}, "position": [0, 0.65, 0], "eulerAngles": [-1.5707963267948966, 0, 0]},
        {"plane": {"width": 1, "height": 1}, "position": [0, 0.95, 0], "eulerAngles": [-1.5707963267948966, 0, 0]},
        {"plane": {"width": 1, "height": 1}, "position": [0, 2.1, 0], "eulerAngles": [-1.5707963267948966, 0, 0]},
        {"plane": {"width": 4, "height": 4}, "position": [0, 2.6, 0], "eulerAngles": [1.5707963267948966, 0, 0]},
        {"plane": {"width": 4, "height": 2}, "position": [0, 1.2, -2]},
        {"plane": {"width": 1, "height": 2}, "position": [2, 1.2, 0], "eulerAngles": [0, -1.5707963267948966, 0], "classification": "door"},
        {"plane": {"width": 1, "height": 1}, "position": [0, 1.1, 0], "eulerAngles": [-1.5707963267948966, 0, 0], "classification": "table"}
      ]}
      """)
    let surfaces = EnvironmentSurface.find(in: room, alignments: [.horizontal, .vertical])
    // Heights above the floor at 0.2 m: 0.45 seat, 0.75 table, 1.9 nothing (up), 2.4 ceiling
    // (facing down), the wall, the door by its key, 0.9 a table by its key (the rule says
    // table too; 1.1 − 0.2 = 0.9 < 1.2).
    #expect(
      surfaces.map(\.classification) == [
        .floor, .seat, .table, .none, .ceiling, .wall, .door, .table,
      ])
    #expect(
      surfaces.map(\.alignment) == [
        .horizontal, .horizontal, .horizontal, .horizontal, .horizontal, .vertical, .vertical,
        .horizontal,
      ])
  }

  @Test("Bad input: unknown classification, unknown or repeated alignment, nothing to detect")
  func badInput() throws {
    func reason(_ spec: String) -> (field: String?, reason: String)? {
      do {
        _ = try environment(spec)
      } catch let error as InputError {
        return (error.location.field, error.reason)
      } catch {}
      return nil
    }
    let unknown = reason(
      #"{"primitives": [{"plane": {"width": 1, "height": 1}, "classification": "sofa"}]}"#)
    #expect(unknown?.field == "environment.primitives[0].classification")
    #expect(unknown?.reason.contains("sofa") == true)
    let alignment = reason(
      #"{"planeDetection": ["diagonal"], "primitives": [{"plane": {"width": 1, "height": 1}}]}"#)
    #expect(alignment?.field == "environment.planeDetection[0]")
    let twice = reason(
      #"{"planeDetection": ["vertical", "vertical"], "primitives": [{"plane": {"width": 1, "height": 1}}]}"#
    )
    #expect(twice?.field == "environment.planeDetection[1]")
    let empty = reason(#"{"planeDetection": ["horizontal"]}"#)
    #expect(empty?.field == "environment.planeDetection")
  }

  @Test("A surface seen through an estimate is placed where the estimate puts it")
  func estimatedWorld() throws {
    let room = try environment(Self.room)
    // The estimated world: turned 0.05 rad about +Y, then moved by (0.1, 0, −0.2).
    let angle = 0.05
    let estimatedFromTrue = RigidTransform(
      rotation: Quaternion(axis: .unitY, angleRadians: angle),
      translation: Vector3(0.1, 0, -0.2))
    let settings = PlaneDiscoverySettings()
    var discovery = PlaneDiscovery(
      surfaces: EnvironmentSurface.find(in: room, alignments: [.horizontal], settings: settings),
      settings: settings)
    for tick in 0..<60 {
      discovery.observe(
        PlaneObservation(
          t: Double(tick) / 60, camera: downward(Vector3(0, 1.74, -1.5)),
          estimatedFromTrue: estimatedFromTrue))
    }
    let table = try #require(
      discovery.timelines { "p\($0)" }.first { $0.initial.classification == .table })
    // The table top's centre (0, 0.74, −1.5) turned about Y: x = −1.5·sin θ, z = −1.5·cos θ.
    let expected = Vector3(-1.5 * sin(angle) + 0.1, 0.74, -1.5 * cos(angle) - 0.2)
    let anchor = table.initial
    #expect(anchor.worldFromAnchor.transformPoint(anchor.center).distance(to: expected) < 1e-9)
    // Its axes turned with it; the extent is the true one.
    let x = anchor.worldFromAnchor.transformDirection(.unitX)
    #expect(x.distance(to: Vector3(cos(angle), 0, -sin(angle))) < 1e-9)
    #expect(abs(anchor.extent.x - 1.0) < 1e-9 && abs(anchor.extent.z - 0.6) < 1e-9)
  }

  @Test("A huge surface is scanned in larger cells, at most the limit's count")
  func hugeSurface() throws {
    let floor = try environment(
      #"{"planeDetection": ["horizontal"], "primitives": [{"plane": {"width": 2000, "height": 2000}, "eulerAngles": [-1.5707963267948966, 0, 0]}]}"#
    )
    let surfaces = EnvironmentSurface.find(in: floor, alignments: [.horizontal])
    let surface = try #require(surfaces.first)
    // 2 km square: 2 m cells, 1000 × 1000.
    #expect(surface.columns * surface.rows <= 1_000_000)
    #expect(abs(surface.cellSize - 2) < 1e-6)
    #expect(surface.onSurface.allSatisfy { $0 })
  }

  @Test("A long, narrow surface keeps the cell limit too: one row of wider cells")
  func narrowSurface() throws {
    // 100 km × 0.5 m: cells of √(50 000 m² / 10⁶) = 0.22 m, as the area alone gives, come
    // 447 214 × 3 = 1.34 M; wider cells give two rows within the limit.
    let strip = try environment(
      #"{"planeDetection": ["horizontal"], "primitives": [{"plane": {"width": 100000, "height": 0.5}, "eulerAngles": [-1.5707963267948966, 0, 0]}]}"#
    )
    let surface = try #require(EnvironmentSurface.find(in: strip, alignments: [.horizontal]).first)
    #expect(surface.rows == 2)
    #expect(surface.columns * surface.rows <= 1_000_000)
    #expect(surface.columns * surface.rows > 500_000)
    #expect(surface.cellSize > 0.25 && surface.cellSize < 0.3)
    // 100 km × 0.2 m: by the area 0.14 m cells, 707 107 × 2; one row of wider ones.
    let thin = try environment(
      #"{"planeDetection": ["horizontal"], "primitives": [{"plane": {"width": 100000, "height": 0.2}, "eulerAngles": [-1.5707963267948966, 0, 0]}]}"#
    )
    let row = try #require(EnvironmentSurface.find(in: thin, alignments: [.horizontal]).first)
    #expect(row.rows == 1)
    #expect(row.columns <= 1_000_000 && row.columns > 400_000)
  }
}
