import ARFormats
import ARRender
import ARSession
import ARSupport

extension CompareCommand {
  /// The folder comparison as a self-contained HTML page: a table of the frames, failing ones
  /// first (in name order, then the passing ones), then for each failing
  /// frame its expected, actual and diff images side by side (relative paths into the report
  /// folder's `expected/`, `actual/` and `diff/`) and below them the same three cropped to the
  /// differences' bounding box and enlarged (`zoom/…`, `DifferenceZoom`), then missing, extra
  /// and unreadable files.
  static func report(_ rows: [Row], options: Options) -> String {
    let mode =
      options.exact ? "exact" : "perceptual, threshold \(options.threshold ?? 0.1)"
    let allowed: String
    switch options.allowed {
    case .pixels(let count): allowed = "≤ \(count) differing pixels"
    case .fraction(let fraction): allowed = "≤ \(fraction * 100)% differing pixels"
    }
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>arsim compare</title>
      <style>
      body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
      table.summary td, table.summary th { padding: 2px 10px; text-align: left; }
      .frame { margin: 1.5em 0; border-top: 1px solid #ccc; padding-top: .8em; }
      .images { display: flex; gap: 12px; flex-wrap: wrap; }
      figure { margin: 0; }
      figure img { height: 40vh; max-width: 31vw; object-fit: contain; border: 1px solid #999;
        image-rendering: pixelated; }
      .zoom figure img { height: auto; max-height: 40vh; }
      figcaption { font-weight: 600; margin-bottom: 4px; }
      .different, .missing, .extra, .unreadable { color: #b00; }
      .same { color: #070; }
      code { background: #f3f3f3; padding: 1px 4px; }
      </style></head><body>
      <h1>arsim compare</h1>
      <p>Expected <code>\(escape(options.expected))</code>, actual <code>\(escape(options.actual))</code>;
      \(escape(mode)), \(escape(allowed)). Diff: grey = same, red = different,
      yellow = anti-aliasing (not counted).</p>
      <table class="summary"><tr><th>frame</th><th>result</th></tr>

      """
    for row in rows.filter({ $0.status != .same }) + rows.filter({ $0.status == .same }) {
      html +=
        "<tr><td>\(link(row))</td><td class=\"\(row.status)\">\(escape(row.detail))</td></tr>\n"
    }
    html += "</table>\n"
    for row in rows where row.hasImages {
      let name = escape(row.name)
      let path = escape(percentEncode(row.name))
      html += "<div class=\"frame\" id=\"\(name)\"><h2>\(name)</h2>"
      html += "<p class=\"\(row.status)\">\(escape(row.detail))</p><div class=\"images\">\n"
      html += figure("expected", "expected/" + path)
      html += figure("actual", "actual/" + path)
      if row.hasDiff { html += figure("diff", "diff/" + path) }
      html += "</div>\n"
      if let zoom = row.zoom {
        html += "<p>Close-up: \(escape(zoom.crop.description)), enlarged ×\(zoom.factor)</p>"
        html += "<div class=\"images zoom\">\n"
        html += figure("expected ×\(zoom.factor)", "zoom/expected/" + path)
        html += figure("actual ×\(zoom.factor)", "zoom/actual/" + path)
        if row.hasDiff { html += figure("diff ×\(zoom.factor)", "zoom/diff/" + path) }
        html += "</div>\n"
      }
      html += "</div>\n"
    }
    html += "</body></html>\n"
    return html
  }

  private static func link(_ row: Row) -> String {
    row.hasImages ? "<a href=\"#\(escape(row.name))\">\(escape(row.name))</a>" : escape(row.name)
  }

  private static func figure(_ caption: String, _ source: String) -> String {
    "<figure><figcaption>\(caption)</figcaption><img src=\"\(source)\" alt=\"\(caption)\"></figure>\n"
  }

  /// HTML text escaping (&, <, >, ").
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }

  /// Percent-encodes a relative path for a URL (keeps letters, digits, `-._~` and the `/` between
  /// a participant's folder and its frame).
  static func percentEncode(_ name: String) -> String {
    var out = ""
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.append(Character(Unicode.Scalar(byte)))
      default:
        let hex = Array("0123456789ABCDEF")
        out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
      }
    }
    return out
  }
}
