import ARMath
import ARScene

extension CollaborationSimulation {
  /// The globe placeholder: radius 0.5 model units, scale 1/1.5, 0.5 m above the anchor,
  /// turned π/3 about −Y and spinning about −Y once per 24 s (SourceApps.md §4.3).
  static let globeRadius = 0.5
  static let globeScale = 1 / 1.5
  static let globeHeight = 0.5
  static let globePeriodSeconds = 24.0
  static let globeStartRadians = Double.pi / 3
  /// A room's marker on the globe (the app's `TapSpot` at scale 0.3): a red sphere of 0.03
  /// globe units.
  static let markerRadius = 0.03
  /// Peer spheres: radius 0.15 m (`PeerEntity`).
  static let peerRadius = 0.15
}

extension ParticipantSnapshot {
  /// The participant's nodes at this tick, to add under its view's root: the globe in the
  /// lobby, `collabBase` with the floor, peers and models in the room, nothing otherwise.
  func makeNodes(assets: [String: AssetShape]) -> [Node] {
    switch state.phase {
    case .absent, .left: return []
    case .lobby: return [globe()]
    case .room: return [collabBase(assets: assets)]
    }
  }

  private func globe() -> Node {
    let spin =
      CollaborationSimulation.globeStartRadians + 2 * .pi * t
      / CollaborationSimulation.globePeriodSeconds
    let globe = Node(
      geometry: .sphere(
        radius: CollaborationSimulation.globeRadius,
        material: Material(
          diffuse: Color(red: 0.2, green: 0.45, blue: 0.8), lightingModel: .lambert)
      ))
    globe.name = "globe"
    let anchor = RigidTransform(matrix: state.worldFromGlobeAnchor)
    globe.position = anchor.transformPoint(Vector3(0, CollaborationSimulation.globeHeight, 0))
    globe.orientation = anchor.rotation * Quaternion(axis: Vector3(0, -1, 0), angleRadians: spin)
    globe.scale = Vector3(
      CollaborationSimulation.globeScale, CollaborationSimulation.globeScale,
      CollaborationSimulation.globeScale)
    for room in state.rooms {
      let marker = Node(
        geometry: .sphere(
          radius: CollaborationSimulation.markerRadius,
          material: Material(
            diffuse: Color(red: 1, green: 0.15, blue: 0.1), lightingModel: .lambert)
        ))
      marker.name = "room:" + room.channelID
      marker.position = Vector3(
        Double(room.position.x), Double(room.position.y), Double(room.position.z))
      globe.addChildNode(marker)
    }
    return globe
  }

  private func collabBase(assets: [String: AssetShape]) -> Node {
    let base = Node()
    base.name = "collabBase"
    let rigid = RigidTransform(matrix: state.worldFromBase)
    base.position = rigid.translation
    base.orientation = rigid.rotation
    // The floor: generatePlane(width: 1, depth: 1) lies in XZ facing +Y; ARSim's plane lies in
    // XY facing +Z, so it is turned −90° about X. Unlit cyan, alpha 0.3.
    let floor = Node(
      geometry: .plane(
        width: 1, height: 1,
        material: Material(
          diffuse: Color(red: 0, green: 1, blue: 1, alpha: 0.3), lightingModel: .constant)))
    floor.name = "collabBase"
    floor.orientation = Quaternion(axis: .unitX, angleRadians: -.pi / 2)
    base.addChildNode(floor)
    for peer in state.peers {
      let c = peer.color
      let node = Node(
        geometry: .sphere(
          radius: CollaborationSimulation.peerRadius,
          material: Material(
            diffuse: Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]),
            lightingModel: .lambert)))
      node.name = peer.id
      place(node, peer.transform.value(at: microseconds))
      base.addChildNode(node)
    }
    for model in state.models {
      let asset = assets[model.usdz] ?? .placeholder
      let c = asset.color
      let node = Node(
        geometry: Geometry(
          asset.shape,
          material: Material(
            diffuse: Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]),
            lightingModel: .lambert)))
      node.name = model.id
      place(node, model.transform.value(at: microseconds))
      base.addChildNode(node)
    }
    return base
  }

  private func place(_ node: Node, _ transform: EntityTransform) {
    node.position = Vector3(
      Double(transform.translation.x), Double(transform.translation.y),
      Double(transform.translation.z))
    node.orientation = transform.quaternion
    node.scale = Vector3(
      Double(transform.scale.x), Double(transform.scale.y), Double(transform.scale.z))
  }
}
