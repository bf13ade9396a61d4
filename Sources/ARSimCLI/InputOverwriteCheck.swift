import ARFormats
import ARRender
import ARSession
import ARSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Refuses an output path that names one of the command's inputs, compared by file identity
/// (device and inode), so `x.txt`, `./x.txt`, a symbolic link to it or a hard link are all
/// caught before anything is written.
/// - Parameters:
///   - output: the output path as given.
///   - label: how the usage names it (`OUT`, `--out`), for the message.
///   - inputs: the input paths as given (nil entries are skipped).
/// - Throws: `UsageError` (exit 64) naming both paths.
func refuseOverwritingInputs(_ output: String, label: String, inputs: [String?]) throws {
  guard let outputIdentity = FileIO.identity(of: output) else { return }
  for case let input? in inputs where FileIO.identity(of: input) == outputIdentity {
    throw UsageError(
      "\(label) \(InputText.quotedPath(output)) would overwrite the input \(InputText.quotedPath(input))"
    )
  }
}

/// Refuses an output path that names one of the command's inputs (`refuseOverwritingInputs`)
/// or a run file — `frame_NNNNN.png`, `depth_NNNNN.png`, `trace.jsonl`, `events.jsonl`,
/// `run.json`, `messages.jsonl`, `report.html` (Design §7) — in one of `runFolders`: the
/// files a render writes or `arsim video` reads. The folder is compared by file identity, or
/// by resolved path while one does not exist yet, and the name as spelled, so a run file
/// that is not written yet is caught too.
/// - Parameters:
///   - output: the output path as given.
///   - label: how the usage names it (`--video`, `OUT`), for the message.
///   - inputs: the input paths as given.
///   - runFolders: the run's output folder and its view sub-folders.
/// - Throws: `UsageError` (exit 64) naming both paths.
func refuseOverwritingRunFiles(
  _ output: String, label: String, inputs: [String], runFolders: [String]
) throws {
  try refuseOverwritingInputs(output, label: label, inputs: inputs)
  let slash = output.lastIndex(of: "/")
  let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
  let folder = spelledFolder(of: output)
  guard isRunFileName(name) else { return }
  for runFolder in runFolders where isSameFolder(folder, runFolder) {
    throw UsageError(
      "\(label) \(InputText.quotedPath(output)) would overwrite the run's file \(InputText.quotedPath(runFolder + "/" + name)); "
        + "choose a path outside the run's files")
  }
}

/// Whether `name` is one of the files an `arsim render` output folder holds.
private func isRunFileName(_ name: String) -> Bool {
  if ["trace.jsonl", "events.jsonl", "run.json", "messages.jsonl", "report.html"].contains(name) {
    return true
  }
  return FrameFileName.parse(name) != nil
}

/// Two folder paths name one folder: same identity when both exist, else the same resolved
/// path (a folder the run has not made yet).
func isSameFolder(_ a: String, _ b: String) -> Bool {
  if let first = FileIO.identity(of: a), let second = FileIO.identity(of: b) {
    return first == second
  }
  return resolvedPath(a) == resolvedPath(b)
}

/// `path` made absolute, its longest existing prefix with symbolic links resolved (`realpath`),
/// then the rest with `.` and `..` applied by name (nothing there exists to be a link).
func resolvedPath(_ path: String) -> String {
  let absolute =
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  var existing = absolute.split(separator: "/").map(String.init)
  var rest: [String] = []
  while true {
    if let real = realpath("/" + existing.joined(separator: "/"), nil) {
      var components = String(cString: real).split(separator: "/").map(String.init)
      free(real)
      for component in rest where component != "." {
        if component == ".." { _ = components.popLast() } else { components.append(component) }
      }
      return "/" + components.joined(separator: "/")
    }
    guard let last = existing.popLast() else { return absolute }
    rest.insert(last, at: 0)
  }
}
