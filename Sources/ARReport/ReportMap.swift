import Foundation

/// The top-down map as inline SVG: world x to the right, world z down the page (so ARKit's
/// initial forward, −Z, points up), equal scale on both axes, a metre grid; camera paths as
/// lines with heading ticks, plane anchors as rectangles, placed content as symbols.
enum ReportMap {
  static let width = 900.0
  static let height = 600.0
  static let margin = 30.0
  /// Points drawn per camera path at most (evenly sampled).
  static let maximumPathPoints = 2000
  /// Grid lines each way at most (a real run's span gives 12 or fewer).
  static let maximumGridLines = 40
  static let pathColors = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

  struct Path {
    var view: String
    var samples: [CameraSample]
  }

  /// - Parameter lastFrame: the last traced frame; content not seen in it (a stroke undone,
  ///   a model removed, a peer that left) is drawn faded with its last frame in the tooltip.
  static func svg(paths: [Path], items: [MapItem], planes: [MapPlane], lastFrame: Int) -> String {
    var xs: [Double] = []
    var zs: [Double] = []
    for path in paths {
      xs += path.samples.map(\.x)
      zs += path.samples.map(\.z)
    }
    xs += items.map(\.x)
    zs += items.map(\.z)
    for plane in planes {
      let r = (plane.width * plane.width + plane.depth * plane.depth).squareRoot() / 2
      xs += [plane.x - r, plane.x + r]
      zs += [plane.z - r, plane.z + r]
    }
    guard let minX = xs.min(), let maxX = xs.max(), let minZ = zs.min(), let maxZ = zs.max()
    else {
      return "<svg id=\"map-svg\" viewBox=\"0 0 \(Int(width)) 60\"><text x=\"10\" y=\"30\">"
        + "no camera poses in trace.jsonl</text></svg>\n"
    }
    let spanX = max(maxX - minX, 0.2)
    let spanZ = max(maxZ - minZ, 0.2)
    let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanZ)
    let offsetX = margin + ((width - 2 * margin) - spanX * scale) / 2
    let offsetZ = margin + ((height - 2 * margin) - spanZ * scale) / 2
    let centreX = (minX + maxX) / 2 - spanX / 2
    let centreZ = (minZ + maxZ) / 2 - spanZ / 2
    func px(_ x: Double) -> String { HTMLText.number(offsetX + (x - centreX) * scale, 1) }
    func pz(_ z: Double) -> String { HTMLText.number(offsetZ + (z - centreZ) * scale, 1) }

    var svg =
      "<svg id=\"map-svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
      + "aria-label=\"top-down map of the camera path and placed content\">\n"
    // Grid lines on round metre values; at most `maximumGridLines` each way, as far from the
    // origin (a hand-edited trace at 10¹⁷ m) a step no longer moves the value.
    let grid = gridStep(max(spanX, spanZ))
    var g = (centreX / grid).rounded(.down) * grid
    var lines = 0
    while g <= centreX + spanX + grid, lines < maximumGridLines {
      svg += "<line class=\"grid\" x1=\"\(px(g))\" y1=\"0\" x2=\"\(px(g))\" y2=\"\(Int(height))\"/>"
      g += grid
      lines += 1
    }
    g = (centreZ / grid).rounded(.down) * grid
    lines = 0
    while g <= centreZ + spanZ + grid, lines < maximumGridLines {
      svg += "<line class=\"grid\" x1=\"0\" y1=\"\(pz(g))\" x2=\"\(Int(width))\" y2=\"\(pz(g))\"/>"
      g += grid
      lines += 1
    }
    svg +=
      "\n<text class=\"scale\" x=\"8\" y=\"\(Int(height) - 8)\">grid \(HTMLText.number(grid, 2)) m · "
      + "x → right, z ↓ down (ARKit −Z, the first forward, is up)</text>\n"

    for plane in planes {
      let w = plane.width * scale
      let d = (plane.vertical ? 0.02 : plane.depth) * scale
      let degrees = -plane.yaw * 180 / .pi
      svg +=
        "<g transform=\"translate(\(px(plane.x)) \(pz(plane.z))) rotate(\(HTMLText.number(degrees, 2)))\">"
        + "<rect class=\"plane\" x=\"\(HTMLText.number(-w / 2, 1))\" y=\"\(HTMLText.number(-d / 2, 1))\" "
        + "width=\"\(HTMLText.number(w, 1))\" height=\"\(HTMLText.number(d, 1))\">"
        + "<title>\(HTMLText.escape("plane anchor \(plane.id): \(HTMLText.number(plane.width, 2)) × \(HTMLText.number(plane.depth, 2)) m"))</title></rect></g>\n"
    }

    for (index, path) in paths.enumerated() {
      let color = pathColors[index % pathColors.count]
      let step = max(1, path.samples.count / maximumPathPoints)
      let sampled =
        stride(from: 0, to: path.samples.count, by: step).map { path.samples[$0] }
        + (path.samples.count > 1 && (path.samples.count - 1) % step != 0
          ? [path.samples[path.samples.count - 1]] : [])
      let points = sampled.map { "\(px($0.x)),\(pz($0.z))" }.joined(separator: " ")
      let name = path.view.isEmpty ? "camera" : "camera of \(path.view)"
      svg +=
        "<polyline class=\"camera-path\" stroke=\"\(color)\" points=\"\(points)\">"
        + "<title>\(HTMLText.escape(name)): \(path.samples.count) frames</title></polyline>\n"
      // Heading ticks (~30 along the path), 4 % of the map's span long.
      let tickEvery = max(1, path.samples.count / 30)
      let length = 0.04 * max(spanX, spanZ)
      for sample in stride(from: 0, to: path.samples.count, by: tickEvery).map({ path.samples[$0] })
      {
        let norm = (sample.forwardX * sample.forwardX + sample.forwardZ * sample.forwardZ)
          .squareRoot()
        guard norm > 1e-6 else { continue }
        svg +=
          "<line class=\"heading\" stroke=\"\(color)\" x1=\"\(px(sample.x))\" y1=\"\(pz(sample.z))\" "
          + "x2=\"\(px(sample.x + sample.forwardX / norm * length))\" "
          + "y2=\"\(pz(sample.z + sample.forwardZ / norm * length))\"/>"
      }
      if let first = path.samples.first, let last = path.samples.last {
        svg +=
          "\n<circle class=\"path-start\" fill=\"\(color)\" cx=\"\(px(first.x))\" cy=\"\(pz(first.z))\" r=\"6\">"
          + "<title>\(HTMLText.escape(name)) at frame \(first.frame) (start)</title></circle>"
          + "<rect class=\"path-end\" fill=\"\(color)\" x=\"\(HTMLText.number(Double(px(last.x)).map { $0 - 5 } ?? 0, 1))\" "
          + "y=\"\(HTMLText.number(Double(pz(last.z)).map { $0 - 5 } ?? 0, 1))\" width=\"10\" height=\"10\">"
          + "<title>\(HTMLText.escape(name)) at frame \(last.frame) (end)</title></rect>\n"
      }
    }

    for item in items {
      let x = px(item.x)
      let z = pz(item.z)
      let title = HTMLText.escape(
        "\(item.kind) \(item.label)" + (item.view.isEmpty ? "" : " (\(item.view))")
          + ": x \(HTMLText.number(item.x, 2)) m, z \(HTMLText.number(item.z, 2)) m, frames "
          + "\(item.firstFrame)–\(item.lastFrame)"
          + (item.lastFrame < lastFrame ? " (gone after frame \(item.lastFrame))" : ""))
      let gone = item.lastFrame < lastFrame ? " gone" : ""
      svg += "<g class=\"item \(symbolClass(item.kind))\(gone)\">" + symbol(item.kind, x: x, z: z)
      svg += "<title>\(title)</title></g>"
      svg +=
        "<text class=\"item-label\" x=\"\(x)\" y=\"\(z)\" dx=\"7\" dy=\"-6\">"
        + "\(HTMLText.escape(String(item.label.prefix(24))))</text>\n"
    }
    return svg + "</svg>\n"
  }

  /// The CSS class of an item's symbol (the legend uses the same).
  static func symbolClass(_ kind: String) -> String {
    let k = kind.lowercased()
    if k.contains("stroke") || k.contains("root") { return "stroke-root" }
    if k.contains("displayer") { return "displayer" }
    if k.contains("model") { return "model" }
    if k.contains("peer") || k.contains("participant") { return "peer" }
    if k.contains("plane") { return "plane-node" }
    if k.contains("measure") { return "measure" }
    return "other-item"
  }

  private static func symbol(_ kind: String, x: String, z: String) -> String {
    let cx = Double(x) ?? 0
    let cz = Double(z) ?? 0
    func p(_ dx: Double, _ dz: Double) -> String {
      "\(HTMLText.number(cx + dx, 1)),\(HTMLText.number(cz + dz, 1))"
    }
    switch symbolClass(kind) {
    case "stroke-root": return "<polygon points=\"\(p(0, -6)) \(p(6, 0)) \(p(0, 6)) \(p(-6, 0))\"/>"
    case "displayer":
      return
        "<rect x=\"\(HTMLText.number(cx - 6, 1))\" y=\"\(HTMLText.number(cz - 4, 1))\" width=\"12\" height=\"8\"/>"
    case "model": return "<polygon points=\"\(p(0, -7)) \(p(6, 5)) \(p(-6, 5))\"/>"
    case "peer": return "<circle cx=\"\(x)\" cy=\"\(z)\" r=\"8\"/>"
    case "plane-node": return "<path d=\"M\(p(-5, 0))L\(p(5, 0))M\(p(0, -5))L\(p(0, 5))\"/>"
    default: return "<circle cx=\"\(x)\" cy=\"\(z)\" r=\"4\"/>"
    }
  }

  /// A grid spacing giving about 4–12 lines over `span` metres.
  static func gridStep(_ span: Double) -> Double {
    for step in [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] {
      if span / step <= 12 { return step }
    }
    return (span / 10).rounded(.up)
  }
}
