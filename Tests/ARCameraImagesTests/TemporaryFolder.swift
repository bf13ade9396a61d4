import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "arsim-camera-images-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func write(_ text: String, to name: String) -> String {
    let file = path + "/" + name
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
    return file
  }

  func write(_ bytes: [UInt8], to name: String) -> String {
    let file = path + "/" + name
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: file, contents: Data(bytes))
    return file
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
