import ARRender

/// Compares an image with a golden PNG, records references and writes failure artifacts.
///
/// The folders are explicit here; `verifyGolden(_:named:…)` and `assertGolden` derive them
/// from the test file (`<test dir>/__Goldens__/<suite>/<name>.png`), `ARSIM_ARTIFACTS` and
/// `ARSIM_RECORD`.
public struct GoldenVerifier: Hashable, Sendable {
  /// The folder holding this suite's references (`<name>.png`).
  public var goldenDirectory: String
  /// The folder receiving `<name>.actual.png` and `<name>.diff.png` on failure.
  public var artifactsDirectory: String
  /// When references are written.
  public var recordMode: GoldenRecordMode

  /// Creates a verifier with explicit folders.
  public init(goldenDirectory: String, artifactsDirectory: String, recordMode: GoldenRecordMode) {
    self.goldenDirectory = goldenDirectory
    self.artifactsDirectory = artifactsDirectory
    self.recordMode = recordMode
  }

  /// Checks `image` against `<goldenDirectory>/<name>.png`.
  ///
  /// - Returns: `nil` when it passes; otherwise the failure message, which names the golden
  ///   file and, on a mismatch, the differing count and share, their bounding box, the largest
  ///   channel delta and the paths of the actual and diff PNGs written to `artifactsDirectory`.
  ///   Writing a reference (any record mode) also returns a message: such runs fail on purpose.
  public func verify(_ image: Image, named name: String, tolerance: GoldenTolerance) -> String? {
    let goldenPath = goldenDirectory + "/" + name + ".png"
    guard FileIO.exists(goldenPath) else {
      if recordMode == .never {
        return "No golden image at \(goldenPath) (ARSIM_RECORD=never). Record it locally with "
          + "ARSIM_RECORD=missing, look at it and commit it."
      }
      return record(image, at: goldenPath, because: "no reference existed")
    }
    if recordMode == .all {
      return record(image, at: goldenPath, because: "ARSIM_RECORD=all")
    }
    let expected: Image
    do {
      expected = try Image(contentsOfPNG: goldenPath)
    } catch {
      return "Cannot read the golden image: \(error)"
    }
    let result = tolerance.comparison.compare(
      expected: expected, actual: image, makeDiffImage: true)
    if result.isWithin(tolerance.allowed) { return nil }
    var lines: [String] = []
    switch result {
    case .sizeMismatch(let expectedSize, let actualSize):
      lines.append(
        "Golden image mismatch: \(goldenPath): size differs, expected \(expectedSize), "
          + "actual \(actualSize).")
    case .compared(let difference):
      lines.append("Golden image mismatch: \(goldenPath): \(difference); tolerance \(tolerance).")
    }
    lines += writeArtifacts(image, diff: result.difference?.diffImage, name: name)
    if recordMode == .failed {
      if let message = record(image, at: goldenPath, because: "ARSIM_RECORD=failed") {
        lines.append(message)
      }
    }
    return lines.joined(separator: "\n")
  }

  private func record(_ image: Image, at path: String, because reason: String) -> String? {
    do {
      try FileIO.createDirectory(goldenDirectory)
      try image.writePNG(to: path)
      return "Recorded the golden image \(path) (\(reason)). Look at it, commit it and run again; "
        + "a recording run always fails."
    } catch {
      return "Cannot record the golden image \(path): \(error)"
    }
  }

  private func writeArtifacts(_ image: Image, diff: Image?, name: String) -> [String] {
    let actualPath = artifactsDirectory + "/" + name + ".actual.png"
    let diffPath = artifactsDirectory + "/" + name + ".diff.png"
    do {
      try FileIO.createDirectory(artifactsDirectory)
      try image.writePNG(to: actualPath)
      var lines = ["  actual: \(actualPath)"]
      if let diff {
        try diff.writePNG(to: diffPath)
        lines.append("  diff:   \(diffPath) (red: different, yellow: anti-aliasing)")
      }
      return lines
    } catch {
      return ["  (could not write the artifacts: \(error))"]
    }
  }
}
