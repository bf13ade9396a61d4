#if canImport(Testing)
  import ARRender
  import Testing

  /// Swift Testing assertion: records an `Issue` when `image` does not match its golden PNG
  /// `<test file's folder>/__Goldens__/<suite>/<name>.png` within `tolerance`.
  ///
  /// The issue's message is `verifyGolden`'s: the golden path, differing pixel count and share,
  /// bounding box, max channel delta and the actual/diff artifact paths. See `verifyGolden` for
  /// the environment variables (`ARSIM_RECORD`, `ARSIM_ARTIFACTS`).
  public func assertGolden(
    _ image: Image, named name: String, tolerance: GoldenTolerance = .exact,
    suite: String? = nil, filePath: StaticString = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let message = verifyGolden(
      image, named: name, tolerance: tolerance, suite: suite, filePath: filePath)
    {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }
#endif
