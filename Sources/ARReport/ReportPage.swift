import ARSupport
import Foundation

/// Builds the report's HTML from the folders' contents (see `ReplayReport`).
struct ReportPage {
  let main: RunFolder
  let report: ReplayReport
  var events: [ReportEvent] = []
  var paths: [ReportMap.Path] = []
  var items: [MapItem] = []
  var sheets: [(view: String, thumbnails: [ReportThumbnails.Thumbnail], frames: Int)] = []
  var notes: [String] = []
  var duration = 0.0
  var thumbnailCount = 0

  init(main: RunFolder, report: ReplayReport) {
    self.main = main
    self.report = report
    if let frames = main.run["frameCount"]?.number, let fps = main.framesPerSecond, fps > 0 {
      // A duration past Double's range (a hand-edited run.json) would give the timeline an
      // infinite axis: the events and the trace set it instead.
      let seconds = max(0, frames - 1) / fps
      if seconds.isFinite { duration = seconds }
    }
    events = ReportEvent.messageLosses(
      main.messages, fps: main.framesPerSecond ?? 0, views: Set(main.views))
  }

  /// Adds the contents of one folder (`view` empty for the main one).
  mutating func add(view: String, folder: RunFolder) {
    let prefix = view.isEmpty ? "" : view + ": "
    notes += folder.notes.map { prefix + $0 }
    let viewEvents = folder.events.compactMap { ReportEvent($0, view: view) }
    if viewEvents.count < folder.events.count {
      notes.append(
        prefix
          + "events.jsonl: \(counted(folder.events.count - viewEvents.count, "line")) without "
          + "t, frame and event, left out")
    }
    // In τ order across views (stable: each file's own order kept at equal τ).
    events = (events + viewEvents).enumerated().sorted {
      ($0.element.t, $0.offset) < ($1.element.t, $1.offset)
    }.map(\.element)
    let samples = TraceReading.cameraPath(folder.trace)
    if !samples.isEmpty { paths.append(ReportMap.Path(view: view, samples: samples)) }
    items += TraceReading.items(folder.trace, view: view)
    duration = max(duration, samples.last?.t ?? 0, viewEvents.map(\.t).max() ?? 0)
    let chosen = ReportThumbnails.sample(folder.frames, maximumCount: report.maximumThumbnails)
    let thumbnails = ReportThumbnails.sheet(
      frames: chosen, path: { folder.path + "/" + RunFolder.frameName($0) },
      maximumWidth: report.thumbnailWidth, maximumHeight: report.thumbnailHeight,
      byteBudget: report.thumbnailByteBudget / max(1, main.views.count + 1))
    // Counted are the thumbnails shown; an unreadable frame is a note (and on the terminal).
    let unreadable = thumbnails.filter { $0.dataURL == nil }
    thumbnailCount += thumbnails.count - unreadable.count
    if let first = unreadable.first {
      let names = unreadable.prefix(5).map { RunFolder.frameName($0.frame) }
      let more = unreadable.count > 5 ? " and \(unreadable.count - 5) more" : ""
      let problem = first.problem ?? "unreadable"
      notes.append(
        prefix + names.joined(separator: ", ") + more + ": "
          + (unreadable.count == 1
            ? "unreadable: \(problem)"
            : "\(unreadable.count) sampled frames unreadable (the first: \(problem))"))
    }
    sheets.append((view, thumbnails, folder.frames.count))
  }

  func frameLink(view: String, frame: Int) -> String {
    HTMLText.escape(HTMLText.path([view, RunFolder.frameName(frame)]))
  }

  func html() -> String {
    let e = HTMLText.escape
    let title = "arsim report: " + main.sceneName
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(e(title))</title>
      <script>
      window.addEventListener('error', function (event) {
        document.title = 'ERROR: ' + event.message;
      });
      </script>
      <style>\(Self.css)</style></head><body>
      <header><h1>\(e(title))</h1>
      <nav><a href="#sheet">contact sheet</a> · <a href="#timeline">timeline</a> ·
      <a href="#map">map</a> · <a href="#timings">timings</a> · <a href="#events">events</a></nav>
      </header>

      """
    html += summary()
    html += contactSheets()
    html += "<section id=\"timeline\"><h2>Event timeline</h2>\n"
    html += laneFilters()
    html += ReportTimeline.svg(
      events: events, duration: duration,
      frameLink: { frameLink(view: $0.view, frame: $0.frame) })
    html += "<p class=\"hint\">Hover a marker for τ, frame and fields; click to open the frame.</p>"
    html += "</section>\n"
    let planes = TraceReading.scenePlanes(sceneFile: main.run["sceneFile"]?.text, folder: main.path)
    html += "<section id=\"map\"><h2>Top-down map</h2>\n"
    let lastFrame = paths.compactMap { $0.samples.last?.frame }.max() ?? 0
    html += ReportMap.svg(paths: paths, items: items, planes: planes, lastFrame: lastFrame)
    html += legend(planes: !planes.isEmpty)
    html += "</section>\n"
    html += timings()
    html += eventTable()
    html += "<script>\(Self.script)</script>\n</body></html>\n"
    return html
  }

  private func summary() -> String {
    let e = HTMLText.escape
    var rows: [(String, String)] = [("folder", main.path)]
    for key in [
      "scene", "sceneFile", "arsimVersion", "width", "height", "viewport", "fps",
      "arFrameRate", "frameCount", "framesWritten", "supersampling", "threads", "events",
    ] {
      if let value = main.run[key]?.text { rows.append((key, value)) }
    }
    rows.append(("duration", HTMLText.number(duration, 2) + " s"))
    rows.append(("frame files", String(sheets.reduce(0) { $0 + $1.frames })))
    if !main.views.isEmpty {
      rows.append(("participant views", main.views.joined(separator: ", ")))
    }
    var html = "<section id=\"summary\"><table class=\"summary\">"
    for (key, value) in rows { html += "<tr><th>\(e(key))</th><td>\(e(value))</td></tr>" }
    html += "</table>\n"
    let allNotes = main.warnings.map { "scene warning: " + $0 } + notes
    if !allNotes.isEmpty {
      html += "<ul class=\"notes\">" + allNotes.prefix(100).map { "<li>\(e($0))</li>" }.joined()
      html += "</ul>\n"
    }
    return html + "</section>\n"
  }

  private func contactSheets() -> String {
    var html = "<section id=\"sheet\"><h2>Contact sheet</h2>\n"
    for sheet in sheets {
      let e = HTMLText.escape
      let label = sheet.view.isEmpty ? "" : "<h3>\(e(sheet.view))</h3>"
      let sampled =
        sheet.thumbnails.count < sheet.frames
        ? " (\(sheet.thumbnails.count) of \(sheet.frames) frames, evenly sampled)" : ""
      html += label + "<p class=\"hint\">Click a thumbnail to open the full frame\(sampled).</p>"
      html += "<div class=\"sheet\">\n"
      let fps = main.framesPerSecond ?? 0
      for thumbnail in sheet.thumbnails {
        let time = fps > 0 ? " · τ \(HTMLText.number(Double(thumbnail.frame) / fps, 2)) s" : ""
        let image =
          thumbnail.dataURL.map {
            "<img src=\"\($0)\" width=\"\(thumbnail.width)\" height=\"\(thumbnail.height)\" alt=\"frame \(thumbnail.frame)\">"
          } ?? "<span class=\"unreadable\">unreadable PNG</span>"
        html +=
          "<a class=\"thumb\" href=\"\(frameLink(view: sheet.view, frame: thumbnail.frame))\">"
          + image + "<span>frame \(thumbnail.frame)\(time)</span></a>\n"
      }
      if sheet.thumbnails.isEmpty { html += "<p>No frame files.</p>" }
      html += "</div>\n"
    }
    return html + "</section>\n"
  }

  private func laneFilters() -> String {
    let present = EventCategory.allCases.filter { c in events.contains { $0.category == c } }
    guard !present.isEmpty else { return "" }
    return "<p class=\"filters\">"
      + present.map { c in
        "<label><input type=\"checkbox\" checked data-lane=\"\(HTMLText.escape(c.rawValue))\">"
          + "<span class=\"swatch\" style=\"background:\(c.color)\"></span>"
          + "\(HTMLText.escape(c.rawValue))</label>"
      }.joined(separator: " ") + "</p>\n"
  }

  private func legend(planes: Bool) -> String {
    var entries = paths.enumerated().map { index, path in
      "<span><span class=\"swatch\" style=\"background:\(ReportMap.pathColors[index % ReportMap.pathColors.count])\"></span>"
        + HTMLText.escape(path.view.isEmpty ? "camera path" : "camera of " + path.view)
        + " (● start, ■ end, ticks = heading)</span>"
    }
    let kinds = Set(items.map { ReportMap.symbolClass($0.kind) })
    let names: [(String, String)] = [
      ("stroke-root", "◆ stroke roots"), ("displayer", "▬ displayers"), ("model", "▲ models"),
      ("peer", "◯ peers"), ("plane-node", "✚ plane nodes"), ("measure", "• measuring ends"),
      ("other-item", "• other content"),
    ]
    for (kind, name) in names where kinds.contains(kind) {
      entries.append("<span class=\"legend-\(kind)\">\(name)</span>")
    }
    if planes { entries.append("<span class=\"legend-plane\">▭ plane anchors (scene file)</span>") }
    if items.contains(where: {
      $0.lastFrame < (paths.compactMap { $0.samples.last?.frame }.max() ?? 0)
    }) {
      entries.append("<span>faded: removed before the last frame (undo, left)</span>")
    }
    return "<p class=\"legend\">" + entries.joined(separator: " ") + "</p>\n"
  }

  private func timings() -> String {
    let e = HTMLText.escape
    var html = "<section id=\"timings\"><h2>Timings (run.json)</h2>\n"
    guard !main.timing.isEmpty else { return html + "<p>No timings (no run.json).</p></section>\n" }
    let total = main.timing.first { $0.0 == "totalSeconds" }?.1 ?? 0
    html +=
      "<table class=\"timings\"><tr><th>stage</th><th>seconds</th><th>ms / frame</th><th></th></tr>\n"
    let stages = main.timing.compactMap { key, value -> String? in
      key.hasSuffix("Seconds") && key != "totalSeconds" ? String(key.dropLast(7)) : nil
    }
    for stage in stages {
      let seconds = main.timing.first { $0.0 == stage + "Seconds" }?.1 ?? 0
      let perFrame = main.timing.first { $0.0 == stage + "MillisecondsPerFrame" }?.1
      let share = total > 0 ? min(100, seconds / total * 100) : 0
      html +=
        "<tr><td>\(e(stage))</td><td>\(HTMLText.number(seconds, 3))</td>"
        + "<td>\(perFrame.map { HTMLText.number($0, 2) } ?? "")</td>"
        + "<td><div class=\"bar\" style=\"width:\(HTMLText.number(share, 1))%\"></div></td></tr>\n"
    }
    html +=
      "<tr><th>total</th><td>\(HTMLText.number(total, 3))</td><td></td><td></td></tr></table>\n"
    html +=
      "<p class=\"hint\">Stages overlap (encoding runs beside rendering), so they may add up to more than the total.</p>"
    return html + "</section>\n"
  }

  private func eventTable() -> String {
    let e = HTMLText.escape
    var html = "<section id=\"events\"><h2>Events (\(events.count))</h2>\n"
    let shown = events.prefix(report.maximumTableRows)
    if events.count > shown.count {
      html +=
        "<p class=\"hint\">The first \(shown.count) of \(events.count) events; all are in events.jsonl.</p>"
    }
    let views = events.contains { !$0.view.isEmpty }
    html += "<table class=\"events\"><tr><th>τ (s)</th><th>frame</th>"
    html += (views ? "<th>view</th>" : "") + "<th>event</th><th>fields</th></tr>\n"
    for event in shown {
      html +=
        "<tr data-category=\"\(e(event.category.rawValue))\"><td>\(HTMLText.number(event.t, 3))</td>"
        + "<td><a href=\"\(frameLink(view: event.view, frame: event.frame))\">\(event.frame)</a></td>"
        + (views ? "<td>\(e(event.view))</td>" : "")
        + "<td><span class=\"swatch\" style=\"background:\(event.category.color)\"></span>\(e(event.name))</td>"
        + "<td>\(e(event.details))</td></tr>\n"
    }
    return html + "</table></section>\n"
  }

  static let css = """
    body { font: 14px system-ui, sans-serif; margin: 0 1.5em 2em; color: #222; background: #fafafa; }
    header { position: sticky; top: 0; background: #fafafa; border-bottom: 1px solid #ddd; padding: .4em 0; z-index: 1; }
    h1 { font-size: 1.3em; margin: .2em 0; } h2 { font-size: 1.1em; margin-top: 1.4em; }
    table.summary th { text-align: left; padding-right: 1em; font-weight: 600; }
    .notes { color: #a40; }
    .sheet { display: flex; flex-wrap: wrap; gap: 8px; }
    .thumb { display: flex; flex-direction: column; font-size: 11px; color: #333; text-decoration: none; }
    .thumb img { border: 1px solid #999; background: #000; }
    .thumb:hover img { outline: 2px solid #1f77b4; }
    svg { width: 100%; max-width: 1000px; height: auto; background: #fff; border: 1px solid #ccc; display: block; }
    .grid { stroke: #e4e4e4; stroke-width: 1; }
    .tick, .scale { font-size: 11px; fill: #666; text-anchor: middle; }
    .scale { text-anchor: start; }
    .lane-label { font-size: 12px; text-anchor: end; fill: #333; }
    .lane-line { stroke: #ccc; }
    .event { stroke: #fff; stroke-width: 1; cursor: pointer; }
    .event:hover { stroke: #000; }
    .camera-path { fill: none; stroke-width: 2; stroke-linejoin: round; }
    .heading { stroke-width: 1.5; opacity: .7; }
    .plane { fill: rgba(0, 122, 255, .12); stroke: #07f; stroke-width: 1; }
    .item polygon, .item rect, .item circle, .item path { stroke: #000; stroke-width: 1; }
    .stroke-root polygon { fill: #1f77b4; } .displayer rect { fill: #17becf; }
    .model polygon { fill: #ff7f0e; } .peer circle { fill: rgba(227, 119, 194, .45); }
    .plane-node path { stroke: #07f; stroke-width: 2; } .measure circle { fill: #2ca02c; }
    .other-item circle { fill: #bcbd22; }
    .item-label { font-size: 10px; fill: #333; }
    .item.gone { opacity: .35; }
    .legend span { margin-right: 1.2em; white-space: nowrap; }
    .swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .3em; vertical-align: -1px; }
    .filters label { margin-right: 1em; white-space: nowrap; }
    table.timings td, table.timings th { padding: 2px 10px; text-align: left; }
    .bar { height: 10px; background: #1f77b4; min-width: 1px; }
    table.events { border-collapse: collapse; font-size: 12px; }
    table.events td, table.events th { border-bottom: 1px solid #e4e4e4; padding: 2px 8px; text-align: left; vertical-align: top; }
    .hint { color: #666; font-size: 12px; }
    .unreadable { color: #b00; }
    """

  static let script = """
    document.querySelectorAll('input[data-lane]').forEach(function (box) {
      box.addEventListener('change', function () {
        var lane = box.getAttribute('data-lane');
        document.querySelectorAll('g.lane, tr[data-category]').forEach(function (element) {
          if (element.getAttribute('data-category') === lane) {
            element.style.display = box.checked ? '' : 'none';
          }
        });
      });
    });
    document.body.setAttribute('data-report-ready', 'yes');
    """
}
