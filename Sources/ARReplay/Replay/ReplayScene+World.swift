import ARFormats
import ARMath
import ARRender
import ARScene
import ARSession
import ARSupport

extension ReplayScene {
  /// Builds a fresh node graph for a run: lights and static nodes under a world root.
  func makeWorld() -> Node {
    let world = Node(name: "world")
    for (i, spec) in lights.enumerated() {
      let node = Node(name: "light-\(i)")
      let color = spec.color.map { Color(red: $0[0], green: $0[1], blue: $0[2]) } ?? .white
      node.light = Light(
        kind: Light.Kind(rawValue: spec.type) ?? .directional, color: color,
        intensity: spec.intensity ?? 1)
      if let e = spec.eulerAngles { node.eulerAngles = Vector3(e[0], e[1], e[2]) }
      world.addChildNode(node)
    }
    for spec in nodes { world.addChildNode(Self.makeNode(spec)) }
    return world
  }

  static func makeNode(_ spec: SceneFile.NodeSpec) -> Node {
    let node = Node(name: spec.name)
    if let p = spec.position { node.position = Vector3(p[0], p[1], p[2]) }
    if let e = spec.eulerAngles { node.eulerAngles = Vector3(e[0], e[1], e[2]) }
    if let s = spec.scale { node.scale = Vector3(s[0], s[1], s[2]) }
    node.opacity = spec.opacity ?? 1
    node.isHidden = spec.hidden ?? false
    if let g = spec.geometry {
      var material = Material()
      if let m = spec.material {
        if let d = m.diffuse {
          material.diffuse = Color(
            red: d[0], green: d[1], blue: d[2], alpha: d.count == 4 ? d[3] : 1)
        }
        if let s = m.specular { material.specular = Color(red: s[0], green: s[1], blue: s[2]) }
        if let s = m.shininess { material.shininess = s }
        if let l = m.lightingModel.flatMap(LightingModel.init(rawValue:)) {
          material.lightingModel = l
        }
        material.isDoubleSided = m.doubleSided ?? false
        material.transparency = m.transparency ?? 1
      }
      if let s = g.sphere {
        node.geometry = .sphere(radius: s.radius, material: material)
      } else if let b = g.box {
        node.geometry = .box(width: b.width, height: b.height, length: b.length, material: material)
      } else if let p = g.plane {
        node.geometry = .plane(width: p.width, height: p.height, material: material)
      }
    }
    if let b = spec.billboard.flatMap(BillboardConstraint.FreeAxes.init(rawValue:)) {
      node.constraints = [.billboard(BillboardConstraint(freeAxes: b))]
    }
    for child in spec.children ?? [] { node.addChildNode(makeNode(child)) }
    return node
  }

  /// The capture camera's pose at replay time τ (seconds), in ARKit frames.
  /// - Throws: `TrackQueryError` when τ falls outside the track and clamping is off.
  func worldFromCaptureCamera(at t: Double) throws -> RigidTransform {
    let first = track.poses.first?.timeSeconds ?? 0
    return try track.pose(at: first + start + t, clamp: clampTrack)
  }

  /// The viewport camera (ARSCNView's `pointOfView`) at replay time τ (seconds, any τ: the
  /// track is interpolated): output intrinsics, the capture pose rolled for the viewport.
  /// - Throws: `InputError` when track time first pose + start + τ is outside the track and
  ///   the scene does not clamp.
  public func viewportCamera(at t: Double) throws -> Camera {
    let capture = try worldFromCaptureCamera(at: t)
    let rolled =
      capture * RigidTransform(rotation: viewport.captureFromViewport, translation: .zero)
    return Camera(intrinsics: outputIntrinsics, worldFromCamera: rolled, near: near, far: far)
  }
}
