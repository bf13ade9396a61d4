#if canImport(Glibc)
  import Glibc
#endif

/// Finds command-line tools ARSim runs as child processes (ffmpeg, ffprobe).
public enum ExecutableLocator {
  /// The path of `name`: the value of `overrideVariable` in `environment` when set (a path,
  /// used as given when it is an executable regular file), else the first executable `name` in the folders of `PATH` (default
  /// `/usr/local/bin:/usr/bin:/bin`). Nil when none is found.
  public static func find(
    _ name: String, environment: [String: String], overrideVariable: String? = nil
  ) -> String? {
    if let overrideVariable, let explicit = environment[overrideVariable], !explicit.isEmpty {
      return isExecutableFile(explicit) ? explicit : nil
    }
    let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for folder in folders where !folder.isEmpty {
      let candidate = folder + "/" + name
      if isExecutableFile(candidate) { return String(candidate) }
    }
    return nil
  }

  /// A regular file we may execute (a folder has the x bit too, but cannot be run).
  private static func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
  }
}
