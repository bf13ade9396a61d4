import ARRender
import Foundation

/// `report.html` for an output folder: one self-contained page (CSS, script, SVG and
/// thumbnails inline) that links the full frames by relative path.
///
/// Sections: summary (scene, size, rate, frames, notes), contact sheet (sampled
/// thumbnails, each opening its frame), event timeline (lanes per kind: touch-start, undo,
/// colour, dropped points, warnings, measurements, displayers, participants, messages lost,
/// other; τ and frame in each tooltip and table row), top-down map (camera paths, plane
/// anchors, stroke roots, displayers, models, peers, measuring ends), timings (run.json), and
/// the event table. Participant views (sub-folders with frames) get a path, a contact sheet
/// and their events each. All text from the files is escaped; nothing is fetched.
public struct ReplayReport {
  /// Thumbnails on the contact sheet at most (per view).
  public var maximumThumbnails = 60
  /// Thumbnail size bounds in pixels.
  public var thumbnailWidth = 160
  /// Thumbnail height bound in pixels.
  public var thumbnailHeight = 160
  /// Bytes of inline thumbnails at most (base64 text), shared by the views: the page of a
  /// 10 000-frame run stays under 3 MB whatever the frames look like.
  public var thumbnailByteBudget = 1_500_000
  /// Event rows in the table at most (the timeline shows them all, merged when dense).
  public var maximumTableRows = 2000

  /// Default limits.
  public init() {}

  /// What was written.
  public struct Summary: Sendable {
    /// The page's path.
    public var path: String
    /// Its size in bytes.
    public var bytes: Int
    /// Thumbnails inlined.
    public var thumbnails: Int
    /// Events read.
    public var events: Int
    /// What the page notes about the folder's files (lines left out, unreadable files), as
    /// the page shows them; empty when every file read whole.
    public var notes: [String] = []
  }

  /// Writes `DIRECTORY/report.html` (atomically) for the output folder `directory`.
  /// - Throws: `InputError` `.missingInput` when the folder is missing or holds nothing of a
  ///   run (no `run.json`, `events.jsonl`, `trace.jsonl` or frames), `.cannotCreate` when the
  ///   page cannot be written.
  @discardableResult
  public func write(directory given: String) throws -> Summary {
    // `DIR/` names the same folder; paths in messages then read `DIR/report.html`.
    var directory = given
    while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
    let main = try RunFolder.load(directory)
    // Nothing of a run at all (say `arsim report /` by mistake): no page, rather than a
    // report.html dropped into an unrelated folder.
    guard main.holdsRun else {
      throw InputError(
        .missingInput, InputLocation(file: directory),
        "not an arsim output folder: no run.json, events.jsonl, trace.jsonl or frame files")
    }
    var sources: [(view: String, folder: RunFolder)] = []
    if !main.frames.isEmpty || !main.trace.isEmpty || main.views.isEmpty {
      sources.append(("", main))
    }
    for view in main.views {
      if let folder = try? RunFolder.loadView(view, of: main) { sources.append((view, folder)) }
    }
    var page = ReportPage(main: main, report: self)
    for (view, folder) in sources { page.add(view: view, folder: folder) }
    let html = page.html()
    let bytes = Array(html.utf8)
    try FileIO.writeAtomically(bytes, to: directory + "/report.html")
    return Summary(
      path: directory + "/report.html", bytes: bytes.count, thumbnails: page.thumbnailCount,
      events: page.events.count, notes: page.notes)
  }
}
