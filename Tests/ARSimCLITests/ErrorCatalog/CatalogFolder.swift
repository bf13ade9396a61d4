import ARSimCLI
import ARTestSupport
import Foundation
import Testing

/// A scratch folder for one error-catalogue case: input files written from bytes, the CLI run
/// in-process with its standard error captured.
struct CatalogFolder {
  /// The folder.
  let folder = TemporaryFolder("catalog")
  /// The folder's absolute path (no trailing slash).
  var path: String { folder.path }

  /// Creates an empty folder under the temporary directory.
  init() throws {}

  /// Writes `bytes` to `name` inside the folder.
  func write(_ name: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
  }

  /// Writes UTF-8 text to `name` inside the folder.
  func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }

  /// Links `name` to `target` (used for the shared 20 MB line).
  func link(_ name: String, to target: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: path + "/" + name, withDestinationPath: target)
  }

  /// Deletes the folder.
  func remove() { folder.remove() }

  /// `arguments` with every `$D` replaced by the folder path.
  func expand(_ text: String) -> String { text.replacingOccurrences(of: "$D", with: path) }
}

/// What one in-process `arsim` run did.
struct CatalogOutcome {
  var code: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs `arsim` in-process.
func runArsim(_ arguments: [String]) -> CatalogOutcome {
  let (code, output) = runCommand(arguments)
  return CatalogOutcome(
    code: code, standardOutput: output.standardOutput, standardError: output.standardError)
}

/// A file of 20 MB of `a` on one line, made once per test process and shared by every reader's
/// "single 20 MB line" case.
let twentyMegabyteLine: String = {
  let path = NSTemporaryDirectory() + "arsim-catalog-20MB-\(getpid()).txt"
  var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20 << 20)
  bytes.append(UInt8(ascii: "\n"))
  _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  return path
}()

/// One catalogue entry: input files, the command line, the exit code and the text the message
/// must contain (file, line or byte offset, field). `$D` stands for the case's folder.
struct CatalogCase: CustomTestStringConvertible, Sendable {
  /// What the case feeds in.
  var name: String
  /// Files to write, by name relative to the folder.
  var files: [String: [UInt8]]
  /// The `arsim` arguments.
  var arguments: [String]
  /// The expected exit code.
  var code: Int32
  /// Substrings the standard error must contain.
  var mentions: [String]
  /// Names linked to the shared 20 MB line file.
  var twentyMegabyteFiles: [String] = []

  var testDescription: String { name }

  init(
    _ name: String, files: [String: String] = [:], binary: [String: [UInt8]] = [:],
    _ arguments: [String], code: Int32, mentions: [String], twentyMegabyte: [String] = []
  ) {
    self.name = name
    self.files = binary.merging(files.mapValues { Array($0.utf8) }) { a, _ in a }
    self.arguments = arguments
    self.code = code
    self.mentions = mentions
    self.twentyMegabyteFiles = twentyMegabyte
  }

  /// Writes the files, runs the command and checks the exit code and message.
  func check() throws {
    let folder = try CatalogFolder()
    defer { folder.remove() }
    for (name, bytes) in files { try folder.write(name, bytes) }
    for name in twentyMegabyteFiles { try folder.link(name, to: twentyMegabyteLine) }
    let outcome = runArsim(arguments.map(folder.expand))
    #expect(outcome.code == code, "stderr: \(outcome.standardError)")
    for mention in mentions {
      #expect(
        outcome.standardError.contains(folder.expand(mention)),
        "expected '\(mention)' in: \(outcome.standardError)")
    }
  }
}

/// Exit codes (sysexits) the catalogue expects.
enum Exit {
  static let ok: Int32 = 0
  static let usage: Int32 = 64
  static let badData: Int32 = 65
  static let missingInput: Int32 = 66
}

/// A valid 3-pose TUM track over 2 s.
let tinyTrack = "0.0 0 0 0 0 0 0 1\n1.0 0 0 0.1 0 0 0 1\n2.0 0 0 0.2 0 0 0 1\n"

/// A tiny scene (16×12, 10 fps, 0.5 s) whose JSON gets `extra` members appended.
func tinyScene(_ extra: String = "") -> String {
  """
  {"name": "tiny",
   "track": {"path": "track.txt", "format": "tum"},
   "output": {"width": 16, "height": 12, "fps": 10},
   "duration": 0.5\(extra.isEmpty ? "" : ",\n " + extra)}
  """
}
