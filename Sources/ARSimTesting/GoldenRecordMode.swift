#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// When golden references are (re)written, as swift-snapshot-testing's record modes.
///
/// Every run that writes a reference fails on purpose, so a recording never passes silently.
public enum GoldenRecordMode: String, Hashable, Sendable, CaseIterable {
  /// Write references that do not exist yet (and fail); compare the others.
  case missing
  /// Rewrite every reference (and fail).
  case all
  /// Write missing references and rewrite those that do not match (and fail).
  case failed
  /// Never write: a missing reference is a failure. Meant for CI.
  case never

  /// The mode from the environment: `ARSIM_RECORD` (`missing`, `all`, `failed`, `never`) when
  /// set; otherwise `never` when `CI` is set to anything but `""`, `0` or `false` (GitHub
  /// Actions, GitLab and most CI services set `CI=true`); otherwise `missing`.
  /// An unknown `ARSIM_RECORD` value gives `nil`.
  public static func fromEnvironment() -> GoldenRecordMode? {
    from(record: environment("ARSIM_RECORD"), ci: environment("CI"))
  }

  /// The rule of `fromEnvironment()` applied to the two variables' values.
  static func from(record: String?, ci: String?) -> GoldenRecordMode? {
    if let record, !record.isEmpty { return GoldenRecordMode(rawValue: record.lowercased()) }
    if let ci, !["", "0", "false"].contains(ci.lowercased()) { return .never }
    return .missing
  }
}

/// The value of an environment variable.
func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
