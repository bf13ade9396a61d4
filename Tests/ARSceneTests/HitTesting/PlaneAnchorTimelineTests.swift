import ARMath
import ARScene
import Testing

/// ARKit's plane lifecycle: an anchor's state at a tick is its latest update, nothing between.
@Suite("plane anchor timelines")
struct PlaneAnchorTimelineTests {
  static let floor = PlaneAnchor(
    identifier: "floor", worldFromAnchor: .identity, extent: Vector3(1, 0, 1))

  static let timeline = PlaneAnchorTimeline(
    initial: floor, appearsAt: 0.5,
    updates: [
      .init(t: 1, center: Vector3(0.5, 0, 0), extent: Vector3(2, 0, 1)),
      .init(
        t: 2, center: Vector3(0.5, 0, 0.5), extent: Vector3(2, 0, 2),
        boundary: [Vector3(-0.5, 0, -0.5), Vector3(1.5, 0, -0.5), Vector3(0.5, 0, 1.5)]),
    ],
    removedAt: 3)

  @Test("versions step at each time, inclusive; none before appearing or from the removal")
  func versions() {
    let t = Self.timeline
    #expect(t.version(at: 0.49) == nil)
    #expect(t.version(at: 0.5) == 0)
    #expect(t.version(at: 0.99) == 0)
    #expect(t.version(at: 1) == 1)
    #expect(t.version(at: 1.999) == 1)
    #expect(t.version(at: 2) == 2)
    #expect(t.version(at: 2.999) == 2)
    #expect(t.version(at: 3) == nil)
  }

  @Test("the state holds each update's values exactly, no interpolation")
  func states() {
    let t = Self.timeline
    #expect(t.anchor(at: 0.75) == Self.floor)
    let halfway = t.anchor(at: 1.5)
    #expect(halfway?.extent == Vector3(2, 0, 1))  // not between (1, 1) and (2, 2)
    #expect(halfway?.center == Vector3(0.5, 0, 0))
    #expect(halfway?.boundary == nil)
    #expect(t.anchor(at: 2.5)?.boundary?.count == 3)
    #expect(t.anchor(at: 2.5)?.identifier == "floor")
    #expect([t].anchors(at: 3).isEmpty)
  }

  @Test("hit-tests see the current extent: a point outside the first extent hits after the growth")
  func hitTestFollowsUpdates() {
    // Camera 1 m above (0.9, 0, 0) looking down: inside the grown extent x ∈ [−0.5, 1.5] only.
    let camera = Camera(
      intrinsics: CameraIntrinsics(fx: 100, fy: 100, cx: 4.5, cy: 4.5, width: 10, height: 10),
      worldFromCamera: RigidTransform(
        rotation: Quaternion(axis: .unitX, angleRadians: -.pi / 2),
        translation: Vector3(0.9, 1, 0)))
    func hits(_ t: Double) -> Int {
      HitTestScene(planes: [Self.timeline].anchors(at: t)).hitTest(
        u: 4.5, v: 4.5, types: [.existingPlaneUsingExtent], camera: camera
      ).count
    }
    #expect(hits(0.75) == 0)  // extent x ∈ [−0.5, 0.5]
    #expect(hits(1.5) == 1)
    #expect(hits(3) == 0)  // removed
  }
}
