import ARMath
import ARReplay
import ARSimCLI
import ARTestSupport
import Testing

/// Surface-mode spheres with ARKit's plane lifecycle (planes[].updates, disappearsAt): they stay
/// where they were placed when the plane they rest on shrinks and then is removed.
@Suite struct PlaneLifecycleSurfaceTests {
  @Test("the desk shrinks at 1 s and disappears at 1.5 s: every sphere keeps its world position")
  func spheresStayWhenThePlaneChanges() throws {
    let fixture = try ReplayFixture()
    defer { fixture.remove() }
    // A camera 1.4 m up looking 60° down along −Z at a desk 0.7 m high.
    let pose = RigidTransform(
      rotation: Quaternion(axis: .unitX, angleRadians: -1.05), translation: Vector3(0, 1.4, 0))
    try fixture.writeTrack("track.json", [(0, pose), (5, pose)])
    try fixture.write(
      "strokes.jsonl",
      """
      {"t":0.1,"data":"touch-start"}
      {"t":0.2,"data":"[(-40.0, 10.0), (0.0, 0.0), (40.0, -10.0)]"}

      """)
    try fixture.write(
      "scene.json",
      """
      {"name": "lifecycle", "track": {"path": "track.json"}, "output": {"width": 64, "height": 48, "fps": 10},
       "duration": 2.0,
       "planes": [{"id": "desk", "position": [0, 0.7, -0.4], "extent": [2, 2],
                   "updates": [{"t": 1.0, "center": [5, 0, 5], "extent": [0.1, 0.1]}],
                   "disappearsAt": 1.5}],
       "remoteAssist": {"strokes": "strokes.jsonl", "mode": "surface", "helper": {"view": [844, 390]}}}
      """)
    let scene = try ReplayScene.load(path: fixture.directory + "/scene.json", registry: .builtIn)
    _ = try Replay(scene: scene).run(ReplayOptions(outputDirectory: fixture.directory + "/out"))
    let trace = try fixture.jsonLines("trace.jsonl")
    var first: [String: [Double]] = [:]
    var frames = 0
    for line in trace {
      let spheres = (line["nodes"] as? [[String: Any]] ?? []).filter { $0["strokePoint"] != nil }
      // All three are placed by 0.25 s (delivered at 0.2 s, one per tick).
      guard (line["t"] as? Double ?? 0) >= 0.5 else { continue }
      #expect(spheres.count == 3)
      frames += 1
      for sphere in spheres {
        let name = try #require(sphere["name"] as? String)
        let m = try #require(sphere["worldTransform"] as? [Double])
        #expect(sphere["plane"] as? String == "desk")
        #expect(abs(m[13] - (0.7 + 0.01875)) < 1e-6)
        if let seen = first[name] { #expect(seen == m) } else { first[name] = m }
      }
    }
    #expect(frames == 16)  // τ = 0.5…2.0 s, across the update (1 s) and the removal (1.5 s)
    let events = try fixture.jsonLines("events.jsonl").compactMap { $0["event"] as? String }
    #expect(events.contains("plane-removed"))
  }
}
