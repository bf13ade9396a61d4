import ARTestSupport
import Foundation

/// Paths of the bundled fixtures and a temporary folder per test.
struct EnvironmentFixture {
  static var fixtures: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Fixtures__").path
  }

  let directory: String

  init() throws {
    directory = TemporaryFolder("environment").path
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  /// Writes `bytes` to `name` in the folder and returns its path.
  @discardableResult func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @discardableResult func write(_ name: String, _ text: String) throws -> String {
    try write(name, Array(text.utf8))
  }

  /// Copies a bundled fixture into the folder.
  @discardableResult func copy(_ name: String) throws -> String {
    let path = directory + "/" + name
    try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: path)
    return path
  }
}
