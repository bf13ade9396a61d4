import Foundation

/// A fresh folder under the system's temporary folder, for one test: made by `init`, removed
/// by `remove()` (call it in a `defer`).
public struct TemporaryFolder: Sendable {
  /// The folder's absolute path (no trailing slash).
  public let path: String

  /// Makes `<temporary folder>/arsim-<label>-<UUID>`. Creation failing (a full disk) is not
  /// thrown: the test then fails at its first write or read, naming the path.
  public init(_ label: String = "test") {
    path = NSTemporaryDirectory() + "arsim-\(label)-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// `path/<name>` (`name` may hold subfolders).
  public func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` as UTF-8 to `name`, making its subfolders, and returns the file's path.
  @discardableResult
  public func write(_ text: String, to name: String) -> String {
    write(Array(text.utf8), to: name)
  }

  /// Writes `bytes` to `name`, making its subfolders, and returns the file's path.
  @discardableResult
  public func write(_ bytes: [UInt8], to name: String) -> String {
    let file = file(name)
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: file, contents: Data(bytes))
    return file
  }

  /// Makes the subfolder `name` and returns its path.
  @discardableResult
  public func folder(_ name: String) -> String {
    let folder = file(name)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Removes the folder and everything in it.
  public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
