/// The event timeline as inline SVG: one lane per event category present, τ along x, each
/// event a marker linking its frame, its τ, frame and fields in a tooltip.
enum ReportTimeline {
  static let width = 1000.0
  static let left = 160.0
  static let laneHeight = 24.0
  /// More markers than this in a lane are merged per half pixel (the tooltip counts them),
  /// so a 10 000-frame run stays light.
  static let maximumMarkersPerLane = 1500

  static func svg(events: [ReportEvent], duration: Double, frameLink: (ReportEvent) -> String)
    -> String
  {
    let categories = EventCategory.allCases.filter { c in events.contains { $0.category == c } }
    let span = max(duration, events.map(\.t).max() ?? 0, 1e-3)
    let plotWidth = width - left - 20
    let height = Double(max(1, categories.count)) * laneHeight + 36
    func x(_ t: Double) -> Double { left + max(0, t) / span * plotWidth }
    var svg =
      "<svg id=\"timeline-svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
      + "role=\"img\" aria-label=\"event timeline\">\n"
    // Axis with "nice" ticks.
    let step = tickStep(span)
    var tick = 0.0
    let axisY = Double(categories.count) * laneHeight + 8
    while tick <= span + 1e-9 {
      let px = HTMLText.number(x(tick), 1)
      svg +=
        "<line class=\"grid\" x1=\"\(px)\" y1=\"0\" x2=\"\(px)\" y2=\"\(HTMLText.number(axisY, 1))\"/>"
      svg +=
        "<text class=\"tick\" x=\"\(px)\" y=\"\(HTMLText.number(axisY + 16, 1))\">"
        + "\(HTMLText.number(tick, step < 1 ? 1 : 0)) s</text>\n"
      tick += step
    }
    for (lane, category) in categories.enumerated() {
      let y = Double(lane) * laneHeight + laneHeight / 2
      let inLane = events.filter { $0.category == category }
      svg +=
        "<g class=\"lane\" data-category=\"\(HTMLText.escape(category.rawValue))\">"
        + "<text class=\"lane-label\" x=\"\(Int(left) - 8)\" y=\"\(HTMLText.number(y + 4, 1))\">"
        + "\(HTMLText.escape(category.rawValue)) (\(inLane.count))</text>"
        + "<line class=\"lane-line\" x1=\"\(Int(left))\" y1=\"\(HTMLText.number(y, 1))\" "
        + "x2=\"\(Int(width - 20))\" y2=\"\(HTMLText.number(y, 1))\"/>\n"
      let merge = inLane.count > maximumMarkersPerLane
      var bins: [Int: [ReportEvent]] = [:]
      var binOrder: [Int] = []
      for event in inLane {
        let bin = merge ? Int(x(event.t) * 2) : binOrder.count
        if bins[bin] == nil { binOrder.append(bin) }
        bins[bin, default: []].append(event)
      }
      for bin in binOrder {
        guard let group = bins[bin], let first = group.first else { continue }
        let title =
          group.count == 1
          ? "τ \(HTMLText.number(first.t)) s · frame \(first.frame)"
            + (first.view.isEmpty ? "" : " · \(first.view)") + " · \(first.name)"
            + (first.details.isEmpty ? "" : " · \(first.details)")
          : "\(group.count) \(first.name) events from τ \(HTMLText.number(first.t)) s "
            + "(frame \(first.frame))"
        svg +=
          "<a href=\"\(frameLink(first))\"><circle class=\"event\" cx=\"\(HTMLText.number(x(first.t), 1))\" "
          + "cy=\"\(HTMLText.number(y, 1))\" r=\"\(group.count > 1 ? 5 : 4)\" "
          + "fill=\"\(category.color)\"><title>\(HTMLText.escape(title))</title></circle></a>\n"
      }
      svg += "</g>\n"
    }
    if categories.isEmpty {
      svg +=
        "<text class=\"tick\" x=\"\(Int(left))\" y=\"16\">no events in this run</text>\n"
    }
    return svg + "</svg>\n"
  }

  /// A tick spacing giving at most about 12 ticks over `span` seconds.
  static func tickStep(_ span: Double) -> Double {
    for step in [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600] {
      if span / step <= 12 { return step }
    }
    return (span / 12).rounded(.up)
  }
}
