import ARFormats
import ARRender
import ARSession
import ARSupport

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
    throw UsageError("\(label) '\(output)' would overwrite the input '\(input)'")
  }
}
