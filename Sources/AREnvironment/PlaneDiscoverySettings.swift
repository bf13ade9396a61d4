/// The thresholds of plane discovery (Documentation/Environments.md, "Plane discovery", gives
/// each with its source). Lengths in metres, angles in radians, times in seconds.
///
/// ARKit documents what it reports (anchors added when "analysis of captured video images
/// detects an area that appears to be a flat surface", grown as more is seen, merged) but not
/// its thresholds; Unity XR Simulation, which discovers planes in simulated environments,
/// documents the same kinds of settings (its "Environment Scan Params" and "Plane Finding
/// Params"). The values here are ARSim's, named after those settings.
public struct PlaneDiscoverySettings: Hashable, Sendable {
  /// A surface is horizontal when its normal is within this angle of world ±Y.
  public var horizontalTolerance = 10.0 * Double.pi / 180
  /// A surface is vertical when its normal is within this angle of the horizontal plane.
  public var verticalTolerance = 10.0 * Double.pi / 180
  /// Triangles belong to one surface when their normals differ by at most this angle…
  public var coplanarAngle = 2.0 * Double.pi / 180
  /// …and their planes' offsets by at most this (XR Simulation's "Cross Layer Merge Distance":
  /// planes whose elevation differs by at most this much are one).
  public var coplanarDistance = 0.01
  /// Side of the square cells a surface is scanned in.
  public var cellSize = 0.1
  /// At most this many cells per surface: a larger surface gets larger cells (a 100 m × 100 m
  /// floor 0.1 m ones, a 1 km one 1 m ones), so memory and scan time stay bounded.
  public var maximumCellsPerSurface = 1_000_000
  /// Seconds between scans (XR Simulation's "Min Time Until Rescan"); a scan runs on the first
  /// delivered camera frame this long after the previous one.
  public var scanInterval = 0.15
  /// A cell is in range at distances from the camera centre of at least this (XR Simulation's
  /// "Minimum Hit Distance")…
  public var minimumDistance = 0.05
  /// …and at most this ("Maximum Hit Distance").
  public var maximumDistance = 3.0
  /// A cell is seen only from the surface's front side, at most this angle from its normal
  /// (a tracker finds no features on a surface seen edge-on).
  public var maximumViewAngle = 75.0 * Double.pi / 180
  /// A cell counts as seen once it was in view, in front, in range at this many scans (0.6 s
  /// of looking at the default interval: features need several views to be triangulated).
  public var scansToSee = 5
  /// A patch becomes a plane anchor once its seen extent is at least this along both sides
  /// (XR Simulation's "Min Side Length": planes with a shorter side are ignored).
  public var minimumSideLength = 0.2
  /// A surface is a candidate only when its own extent reaches `minimumSideLength` along both
  /// sides and its area this (square metres).
  public var minimumArea = 0.04

  /// The classification rule's heights above the lowest upward horizontal surface: below
  /// `floorHeight` a floor, below `seatHeight` nothing, below `tableHeight` a seat, below
  /// `maximumTableHeight` a table (ARKit's "table, desk, bar"), above that nothing; downward
  /// surfaces at or above `ceilingHeight` are ceilings. Typical furniture: seats 0.40–0.50 m,
  /// desks 0.72–0.76 m, bars about 1.05 m.
  public var floorHeight = 0.1
  /// See `floorHeight`.
  public var seatHeight = 0.3
  /// See `floorHeight`.
  public var tableHeight = 0.6
  /// See `floorHeight`.
  public var maximumTableHeight = 1.2
  /// See `floorHeight`.
  public var ceilingHeight = 1.8

  /// The documented defaults.
  public init() {}
}
