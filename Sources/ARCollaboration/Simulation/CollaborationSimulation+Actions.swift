import ARMath
import ARSession
import ARSupport

extension CollaborationSimulation {
  /// The scene's actions due by this tick, in order.
  func runActions() {
    while nextAction < scene.actions.count {
      let action = scene.actions[nextAction]
      guard ReplayTime.microseconds(action.seconds) <= microseconds else { break }
      nextAction += 1
      guard let i = index(of: action.participant) else { continue }
      perform(action, by: i)
    }
  }

  private func skip(_ action: ModelAction, _ i: Int, _ reason: String) {
    emit(
      i, "warning",
      [
        ("message", .string("action \(action.index) skipped: \(reason)")),
        ("model", .string(action.model)),
      ])
  }

  private func perform(_ action: ModelAction, by i: Int) {
    guard states[i].phase == .room else {
      skip(action, i, "\(scene.participants[i].id) is not in the room")
      return
    }
    let existing = states[i].modelIndex(action.model)
    switch action.kind {
    case .add(let usdz, let placement):
      guard existing == nil else { return skip(action, i, "the model exists already") }
      let transform: EntityTransform
      switch placement {
      case .collabBase(let given): transform = given
      case .screenCenter:
        guard let hit = screenCenterHit(i) else {
          return skip(action, i, "the screen centre does not hit the collabBase plane")
        }
        transform = hit
      }
      let model = CollabModel(
        id: action.model, usdz: usdz, owner: scene.participants[i].id,
        transform: AnimatedTransform(transform))
      states[i].models.append(model)
      emit(i, "model-added", [("model", .string(action.model)), ("owner", .string(model.owner))])
      // Sent at once on creation.
      send(from: i, to: .channel(scene.room.channelID), .singleCollabModel, modelData(model, at: i))
    case .select:
      guard existing != nil else { return skip(action, i, "no such model") }
      states[i].selected = action.model
      emit(i, "selected", [("model", .string(action.model))])
    case .move(let path):
      guard existing != nil else { return skip(action, i, "no such model") }
      states[i].paths[action.model] = path
    case .unselect:
      guard let m = existing else { return skip(action, i, "no such model") }
      if states[i].selected == action.model { states[i].selected = nil }
      emit(i, "unselected", [("model", .string(action.model))])
      send(
        from: i, to: .channel(scene.room.channelID), .singleCollabModel,
        modelData(states[i].models[m], at: i))
    case .remove:
      guard let m = existing else { return skip(action, i, "no such model") }
      let data = modelData(states[i].models[m], at: i)
      states[i].models.remove(at: m)
      states[i].paths[action.model] = nil
      if states[i].selected == action.model { states[i].selected = nil }
      emit(i, "model-removed", [("model", .string(action.model)), ("by", .string(data.owner))])
      send(from: i, to: .channel(scene.room.channelID), .removeCollabModel, data)
    }
  }

  /// Where participant `i`'s camera −Z ray meets the `collabBase` floor (y = 0 in its space):
  /// translation there, no rotation, scale one.
  private func screenCenterHit(_ i: Int) -> EntityTransform? {
    guard i < cameras.count, let camera = cameras[i],
      let baseFromWorld = states[i].worldFromBase.rigidInverse
    else { return nil }
    let origin = baseFromWorld.transformPoint(camera.translation)
    let direction = baseFromWorld.transformDirection(camera.transformDirection(Vector3(0, 0, -1)))
    guard direction.y < -1e-9 else { return nil }
    let s = -origin.y / direction.y
    guard s > 0, s.isFinite else { return nil }
    let p = origin + direction * s
    return EntityTransform(translation: SIMD3(Float(p.x), 0, Float(p.z)))
  }

  /// Models moved along a path by participant `i` follow it exactly in its own view.
  func followPaths(_ i: Int) {
    for (id, path) in states[i].paths.sorted(by: { $0.key < $1.key }) {
      guard let m = states[i].modelIndex(id), let first = path.first, let last = path.last else {
        continue
      }
      let now = ReplayTime.seconds(microseconds)
      guard now >= first.seconds else { continue }
      var value = last.transform
      if now < last.seconds {
        for (a, b) in zip(path, path.dropFirst()) where now >= a.seconds && now < b.seconds {
          let f = (now - a.seconds) / (b.seconds - a.seconds)
          value = AnimatedTransform.interpolate(a.transform, b.transform, f)
          break
        }
      } else {
        states[i].paths[id] = nil
      }
      states[i].models[m].transform = AnimatedTransform(value)
    }
  }

  /// The 0.3 s timer: `peerUpdate` (camera in `collabBase` space, scale one), plus the
  /// selected model's `singleCollabModel`. A tick late by more than an interval fires once
  /// (Foundation's `Timer` skips missed fires).
  func fireTimer(_ i: Int) {
    guard states[i].phase == .room, microseconds >= states[i].nextTimerMicroseconds else { return }
    let interval = Self.updateIntervalMicroseconds
    let late = (microseconds - states[i].nextTimerMicroseconds) / interval
    states[i].nextTimerMicroseconds += (late + 1) * interval
    let room = NetworkDestination.channel(scene.room.channelID)
    if i < cameras.count, let camera = cameras[i],
      let baseFromWorld = states[i].worldFromBase.rigidInverse
    {
      let local = EntityTransform(rigid: baseFromWorld * camera)
      let peer = PeerData(
        rtmID: scene.participants[i].id, transform: local, colorVector: states[i].color)
      send(from: i, to: room, .peerUpdate, peer)
    }
    if let selected = states[i].selected, let m = states[i].modelIndex(selected) {
      send(from: i, to: room, .singleCollabModel, modelData(states[i].models[m], at: i))
    }
  }
}

extension Matrix4 {
  /// The inverse of a rigid transform (rotation + translation), nil when not finite.
  var rigidInverse: Matrix4? {
    guard isFinite else { return nil }
    return RigidTransform(matrix: self).inverse.matrix
  }
}
