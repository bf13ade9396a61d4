import ARFormats
import ARMath
import ARScene
import ARSession
import ARSupport

/// A helper point waiting in the receiver's FIFO.
struct QueuedPoint {
  /// UIKit points from the helper's view centre, y down.
  var point: Vector2
  /// Every mode but faithful: the root and colour current when the point's message arrived.
  var root: Node?
  var color: Color
  /// The message's delivery index.
  var message: Int
  /// The stroke log line of the message and the point's index in it (trace.jsonl).
  var line: Int
  var pointIndex: Int
  /// `screen`/`surface`: the pixel touched in the frame the helper saw, and that frame's camera.
  var touched: TouchedPixel?
}

/// A pixel of the τ_seen frame and the viewport camera of that frame.
struct TouchedPixel {
  var u: Double
  var v: Double
  var camera: Camera

  /// The world ray through the pixel (unit direction, from the τ_seen camera centre).
  var ray: Ray { camera.worldRay(u: u, v: v) }
}

extension RemoteAssistSession {
  // MARK: The helper's screen (delivery)

  /// The viewport camera of the frame the helper saw when drawing a point at `drawTime`
  /// (τ_seen = τ_draw − video latency). Outside the camera track: this tick's camera, and a
  /// warning unless `warned` (then set: one warning per message).
  func seenCamera(
    drawTime: Double, warned: inout Bool, context: inout TickContext,
    source: [(String, JSONValue)]
  ) -> Camera {
    let seen = configuration.helper.seenTime(drawTime: drawTime)
    do {
      return try context.viewportCamera(at: seen)
    } catch {
      if !warned {
        warned = true
        context.emit(
          "warning",
          [
            (
              "reason",
              .string(
                "the frame the helper saw (τ_seen = \(seen) s) is outside the camera track; "
                  + "this tick's camera is used")
            )
          ] + source)
      }
      return context.camera
    }
  }

  /// The pixel of the τ_seen frame a helper point touches, or `nil` with a `dropped-point`
  /// event when it touches a letterbox bar or lies off the view and the video.
  func touchedPixel(
    _ point: Vector2, pointIndex: Int, camera: Camera, context: inout TickContext,
    source: [(String, JSONValue)]
  ) -> TouchedPixel? {
    let view = configuration.helper.videoView(
      videoWidth: camera.intrinsics.width, videoHeight: camera.intrinsics.height)
    let reason: String
    switch view.locate(point) {
    case .pixel(let u, let v):
      return TouchedPixel(u: u, v: v, camera: camera)
    case .letterbox:
      reason = "touch on a letterbox bar of the helper's aspect-fit view: no video pixel"
    case .outside:
      reason = "touch outside the helper's view and video: no video pixel"
    }
    context.emit(
      "dropped-point",
      [
        ("count", 1), ("reason", .string(reason)), ("point", .numbers([point.x, point.y])),
        ("pointIndex", .integer(pointIndex)),
      ] + source)
    return nil
  }

  // MARK: Placement

  /// `screen`: on the root's sheet where the touched pixel's ray crosses it, under the root's
  /// look-at for this tick's camera (so the centre projects onto the touched pixel of the
  /// τ_seen frame). A ray that misses the sheet: the app's position and a `sheet-miss` event.
  func placeOnSheet(_ item: QueuedPoint, color: Color, root: Node, context: inout TickContext) {
    let sphere = makeSphere(item, color: color, radius: configuration.sphereRadius, root: root)
    if let local = sheetPosition(
      item, sheetCentre: root.worldTransform.translation, context: context)
    {
      sphere.position = local
    } else {
      sphere.position = Self.appPosition(item.point)
      emitMiss(
        "sheet-miss",
        "the ray misses the sheet (parallel or behind the camera): placed as the app does", item,
        context: &context)
    }
  }

  /// `surface`: resting on the first plane the touched pixel's ray hits (ARKit's order), centre
  /// on the ray; the root is world-fixed so the sphere stays put when the camera moves or the
  /// plane updates or disappears. Nothing hit: where `screen` would place it at this tick (then
  /// world-fixed too) and a `surface-miss` event.
  func placeOnSurface(_ item: QueuedPoint, color: Color, root: Node, context: inout TickContext) {
    let radius = configuration.sphereRadius * configuration.rootScale  // world metres
    let sphere = makeSphere(item, color: color, radius: radius, root: root)
    let rootFromWorld = RigidTransform(matrix: root.worldTransform).inverse
    if let touched = item.touched,
      let hit = StrokePlacement.surfaceHit(
        u: touched.u, v: touched.v, camera: touched.camera, scene: context.hitTestScene,
        radius: radius)
    {
      sphere.position = rootFromWorld.transformPoint(hit.centre)
      sphere.strokePoint?.hitType = hit.type
      sphere.strokePoint?.planeAnchor = hit.anchor?.identifier
      return
    }
    emitMiss(
      "surface-miss", "the ray hit no plane: placed on the screen sheet", item, context: &context)
    let centre = root.strokeIndex.flatMap { sheetCentres[$0] } ?? root.worldTransform.translation
    let pose = StrokePlacement.sheetPose(
      rootPosition: centre, cameraPosition: context.pointOfView.worldTransform.translation)
    let local =
      sheetPosition(item, sheetCentre: centre, context: context) ?? Self.appPosition(item.point)
    let world = (pose ?? RigidTransform(rotation: .identity, translation: centre))
      .transformPoint(local * configuration.rootScale)
    sphere.position = rootFromWorld.transformPoint(world)
  }

  /// The sheet-local position (root units) where the item's ray crosses the sheet centred at
  /// `sheetCentre` facing this tick's camera, or `nil`.
  private func sheetPosition(_ item: QueuedPoint, sheetCentre: Vector3, context: TickContext)
    -> Vector3?
  {
    guard let touched = item.touched,
      let pose = StrokePlacement.sheetPose(
        rootPosition: sheetCentre, cameraPosition: context.pointOfView.worldTransform.translation)
    else { return nil }
    return StrokePlacement.sheetPosition(
      ray: touched.ray, rootPose: pose, rootScale: configuration.rootScale)
  }

  private func emitMiss(
    _ name: String, _ reason: String, _ item: QueuedPoint, context: inout TickContext
  ) {
    context.emit(
      name,
      [
        ("reason", .string(reason)), ("point", .numbers([item.point.x, item.point.y])),
        ("line", .integer(item.line)), ("pointIndex", .integer(item.pointIndex)),
      ])
  }
}
