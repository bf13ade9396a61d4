#if canImport(Glibc)
  import Glibc
#endif

/// Finds command-line tools ARSim runs as child processes (ffmpeg, ffprobe).
public enum ExecutableLocator {
  /// The path of `name`: the value of `overrideVariable` in `environment` when set (a path,
  /// used as given), else the first executable `name` in the folders of `PATH` (default
  /// `/usr/local/bin:/usr/bin:/bin`). Nil when none is found.
  public static func find(
    _ name: String, environment: [String: String], overrideVariable: String? = nil
  ) -> String? {
    if let overrideVariable, let explicit = environment[overrideVariable], !explicit.isEmpty {
      return access(explicit, X_OK) == 0 ? explicit : nil
    }
    let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for folder in folders where !folder.isEmpty {
      let candidate = folder + "/" + name
      var info = stat()
      if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
        access(candidate, X_OK) == 0
      {
        return String(candidate)
      }
    }
    return nil
  }
}
