import ARRender

/// Checks `image` against the golden PNG `<test file's folder>/__Goldens__/<suite>/<name>.png`
/// and returns a failure message, or `nil` when it passes. For XCTest:
/// `if let message = verifyGolden(image, named: "x") { XCTFail(message) }`.
///
/// - Parameters:
///   - name: the scenario name (the file name without `.png`); not a counter.
///   - tolerance: `.exact` by default.
///   - suite: the folder under `__Goldens__`; default the test file's name without `.swift`.
///   - filePath: the test file (`#filePath`), which locates `__Goldens__`.
/// - Environment: `ARSIM_RECORD` (`missing` default locally, `never` when `CI` is set, `all`,
///   `failed`), `ARSIM_ARTIFACTS` (artifact root, default `$TMPDIR` or `/tmp`, plus
///   `arsim-artifacts`); artifacts go to `<root>/<suite>/<name>.actual.png` and `.diff.png`.
public func verifyGolden(
  _ image: Image, named name: String, tolerance: GoldenTolerance = .exact,
  suite: String? = nil, filePath: StaticString = #filePath
) -> String? {
  guard let verifier = GoldenVerifier(testFile: "\(filePath)", suite: suite) else {
    return "ARSIM_RECORD must be one of missing, all, failed, never."
  }
  return verifier.verify(image, named: name, tolerance: tolerance)
}

extension GoldenVerifier {
  /// The verifier for a test file: references in `<test file's folder>/__Goldens__/<suite>`
  /// (`suite` defaults to the file name without `.swift`), artifacts in
  /// `<ARSIM_ARTIFACTS or $TMPDIR/arsim-artifacts>/<suite>`, record mode from the environment.
  /// `nil` when `ARSIM_RECORD` holds an unknown value.
  init?(testFile file: String, suite: String?) {
    guard let mode = GoldenRecordMode.fromEnvironment() else { return nil }
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    var stem = String(file.split(separator: "/").last ?? "Goldens")
    if stem.hasSuffix(".swift") { stem.removeLast(".swift".count) }
    let suiteName = suite ?? stem
    let artifactsRoot =
      environment("ARSIM_ARTIFACTS").flatMap { $0.isEmpty ? nil : $0 }
      ?? ((environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/arsim-artifacts")
    self.init(
      goldenDirectory: folder + "/__Goldens__/" + suiteName,
      artifactsDirectory: artifactsRoot + "/" + suiteName, recordMode: mode)
  }
}
