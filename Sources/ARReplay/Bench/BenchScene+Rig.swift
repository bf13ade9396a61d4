import ARScene
import ARSession

extension BenchScene {
  /// This benchmark's stroke rig (its spheres and displayer riding with the camera, laid out
  /// for output intrinsics `intrinsics`) as a scene session, so another run (the live stream
  /// bench) carries the same load: append it to a scene's `sessions`.
  public func rigSession(intrinsics: CameraIntrinsics) -> SceneSession {
    SceneSession(
      key: "benchRig", configuration: RigConfiguration(layout: layout(intrinsics: intrinsics)))
  }
}

/// Makes a fresh `BenchRigSession` for each run.
private struct RigConfiguration: SessionConfiguration {
  let layout: BenchLayout

  func makeSession(_ setup: SessionSetup) throws -> any Session {
    BenchRigSession(layout: layout)
  }
}
