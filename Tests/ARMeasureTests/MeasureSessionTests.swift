import ARMath
import ARScene
import ARSupport
import Testing

@testable import ARMeasure
@testable import ARSession

/// A scripted sweep at 60 Hz: a 101×81 camera (fx = fy = 100, principal point (50, 40), so the
/// centre pixel ((W−1)/2, (H−1)/2) = (50, 40) looks along the optical axis) 1.5 m above the
/// floor y = 0, looking straight down, moving at (0.6, 0, 0.3) m/s from (−0.5, 1.5, 0.2).
/// The centre therefore hits (−0.5 + 0.01·k, 0, 0.2 + 0.005·k) at tick k, and two hits n ticks
/// apart are 0.005·n·√5 m apart.
private struct Sweep {
  let root = Node(name: "root")
  let pointOfView = Node(name: "pov")
  let planes: [PlaneAnchor]
  var events: [Event] = []

  init(planes: [PlaneAnchor]) { self.planes = planes }

  static let intrinsics = CameraIntrinsics(fx: 100, fy: 100, cx: 50, cy: 40, width: 101, height: 81)

  static func floor(center: Vector3 = .zero, extent: Vector3 = Vector3(4, 0, 4)) -> PlaneAnchor {
    PlaneAnchor(identifier: "floor", worldFromAnchor: .identity, center: center, extent: extent)
  }

  static func hit(tick k: Int) -> Vector3 {
    Vector3(-0.5 + 0.6 * Double(k) / 60, 0, 0.2 + 0.3 * Double(k) / 60)
  }

  mutating func run(_ session: Session, ticks: ClosedRange<Int>) {
    for k in ticks { tick(session, k) }
  }

  mutating func tick(_ session: Session, _ k: Int) {
    let t = Double(k) / 60
    let p = Self.hit(tick: k)
    let camera = Camera(
      intrinsics: Self.intrinsics,
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2),
        translation: Vector3(p.x, 1.5, p.z)))
    var context = TickContext(
      tick: k, t: t, microseconds: Int64((t * 1e6).rounded()), camera: camera,
      pointOfView: pointOfView, root: root, planes: planes)
    session.update(&context)
    events += context.events
  }
}

private let root5 = 5.0.squareRoot()

@Suite struct MeasureSessionTests {
  @Test("a sweep measures the 3-D distance and sends every 13th tick plus once on stop")
  func sweep() throws {
    let session = try MeasureSession(switchTimes: [0.5, 1.5])  // ticks 30 and 90
    var sweep = Sweep(planes: [Sweep.floor()])
    sweep.run(session, ticks: 0...29)
    #expect(session.status == .ready)
    #expect(session.box.isHidden)
    sweep.run(session, ticks: 30...60)
    #expect(session.status == .measuring)
    let start = try #require(session.startPosition)
    #expect(start.isApproximatelyEqual(to: Vector3(-0.2, 0, 0.35), absoluteTolerance: 1e-12))
    // Tick 60: current (0.1, 0, 0.5), distance 0.15·√5.
    #expect(session.distance.isApproximatelyEqual(to: 0.15 * root5, absoluteTolerance: 1e-12))
    #expect(session.box.position.isApproximatelyEqual(to: start, absoluteTolerance: 1e-12))
    // Bar: local +X = (2, 0, 1)/√5, +Y up, +Z = (−1, 0, 2)/√5, centred at the midpoint.
    let expectedBar = Matrix4(
      Vector4(2 / root5, 0, 1 / root5, 0), Vector4(0, 1, 0, 0),
      Vector4(-1 / root5, 0, 2 / root5, 0),
      Vector4(-0.05, 0, 0.425, 1))
    #expect(
      session.bar.worldTransform.isApproximatelyEqual(to: expectedBar, absoluteTolerance: 1e-12))
    #expect(
      session.bar.geometry
        == .box(
          width: session.distance, height: 0.01, length: 0.01,
          material: Material(diffuse: .white, lightingModel: .constant)))
    #expect(session.box.parent === sweep.root)
    #expect(!session.box.isHidden)

    sweep.run(session, ticks: 61...95)
    #expect(session.status == .ready)
    #expect(!session.isMeasuring)
    // Last measured tick 89: 59 ticks after the start.
    #expect(session.distance.isApproximatelyEqual(to: 0.295 * root5, absoluteTolerance: 1e-12))
    #expect(!session.box.isHidden)  // the app leaves the box visible
    #expect(sweep.events.map(\.tick) == [30, 43, 56, 69, 82, 90])
    #expect(
      sweep.events.map { $0.fields.map(\.1) }
        == [
          "0.00 cm", "14.53 cm", "29.07 cm", "43.60 cm", "58.14 cm", "65.96 cm",
        ].map { [.string("private-channel"), .string($0)] })
    #expect(sweep.events.allSatisfy { $0.name == "client-new-measurement" })
    #expect(sweep.events.first?.fields.map(\.0) == ["channel", "data"])
  }

  @Test("leaving the plane extent freezes the distance and the box, and sends nothing")
  func freeze() throws {
    // Extent x ∈ [−0.755, 0.005]: ticks ≤ 50 hit (x ≤ 0), tick 51 (x = 0.01) does not.
    let session = try MeasureSession(switchTimes: [0.5, 1.5])
    var sweep = Sweep(planes: [
      Sweep.floor(center: Vector3(-0.375, 0, 0), extent: Vector3(0.76, 0, 4))
    ])
    sweep.run(session, ticks: 0...50)
    let barAtFifty = session.bar.worldTransform
    sweep.run(session, ticks: 51...70)
    #expect(session.status == .notReady)
    #expect(session.isMeasuring)
    #expect(session.distance.isApproximatelyEqual(to: 0.1 * root5, absoluteTolerance: 1e-12))
    #expect(session.bar.worldTransform == barAtFifty)
    sweep.run(session, ticks: 71...90)
    #expect(sweep.events.map(\.tick) == [30, 43, 90])
    #expect(sweep.events.last?.fields.last?.1 == .string("22.36 cm"))
  }

  @Test("a new measurement reuses the box from zero width and keeps the send throttle")
  func newMeasurement() throws {
    // On at tick 30, off at 60, on again at 66. Sends at 30, 43, 56 leave sendingTime at
    // 933 333 + 200 000 µs, so tick 66 (1 100 000 µs) does not send; tick 69 (1 150 000) does.
    let session = try MeasureSession(switchTimes: [0.5, 1.0, 1.1])
    var sweep = Sweep(planes: [Sweep.floor()])
    sweep.run(session, ticks: 0...65)
    let firstBox = session.box
    sweep.run(session, ticks: 66...66)
    #expect(session.box === firstBox)
    #expect(session.distance == 0)
    #expect(session.bar.position == Vector3(0, 0, 0))
    let start = try #require(session.startPosition)
    #expect(start.isApproximatelyEqual(to: Sweep.hit(tick: 66), absoluteTolerance: 1e-12))
    sweep.run(session, ticks: 67...70)
    #expect(sweep.events.map(\.tick) == [30, 43, 56, 60, 69])
    // The switch applies before the hit test, so tick 59 (29 ticks: 0.145·√5) is the last.
    #expect(sweep.events[3].fields.last?.1 == .string("32.42 cm"))
    #expect(sweep.events[4].fields.last?.1 == .string("3.35 cm"))  // 3 ticks: 0.015·√5
    #expect(session.boxCount(under: sweep.root) == 1)
  }

  @Test("no plane under the centre reads NOT READY and the trace reports it")
  func notReady() throws {
    let session = try MeasureSession(switchTimes: [])
    var sweep = Sweep(planes: [])
    sweep.run(session, ticks: 0...2)
    #expect(session.status == .notReady)
    #expect(sweep.events.isEmpty)
    let trace = JSONValue.object(session.traceFields())
    #expect(
      trace.text
        == #"{"measure":{"status":"NOT READY","measuring":false,"distance":0.0,"text":"0.00 cm","#
        + #""start":null,"current":null}}"#)
  }

  @Test("switch times must be finite, ≥ 0 and must not decrease")
  func invalidSwitchTimes() {
    #expect(throws: MeasureSessionError.negativeSwitchTime(index: 1, seconds: -2)) {
      try MeasureSession(switchTimes: [0, -2, 3])
    }
    #expect(
      MeasureSessionError.negativeSwitchTime(index: 1, seconds: -2).description
        == "switchTimes[1] must be ≥ 0 s (got -2.0)")
    // −0 is τ = 0.
    #expect((try? MeasureSession(switchTimes: [-0.0, 1])) != nil)
    #expect(throws: MeasureSessionError.decreasingSwitchTime(index: 2)) {
      try MeasureSession(switchTimes: [1, 2, 1.5])
    }
    #expect(throws: MeasureSessionError.nonFiniteSwitchTime(index: 0)) {
      try MeasureSession(switchTimes: [.nan])
    }
  }
}

extension MeasureSession {
  /// How many `measure-box` nodes hang under `root`.
  fileprivate func boxCount(under root: Node) -> Int {
    root.childNodes.filter { $0.name == "measure-box" }.count
  }
}
