import ARSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Refuses an output file whose folder does not exist, is not a folder or cannot be written
/// into, before the command does any work: a render would otherwise find it only after its
/// last frame. The folder is not created (a mistyped path must not become a folder).
/// - Parameters:
///   - output: the output file's path as given.
///   - label: how the usage names it (`--video`, `OUT`), for the message.
///   - madeByRun: folders the command itself creates before writing `output` (a render's
///     `--out` and its view folders): a file inside one of them passes.
/// - Throws: `InputError` `.cannotCreate` (exit 73) naming the output and its folder.
func refuseMissingOutputFolder(_ output: String, label: String, madeByRun: [String] = [])
  throws
{
  let slash = output.lastIndex(of: "/")
  let folder = slash.map { $0 == output.startIndex ? "/" : String(output[..<$0]) } ?? "."
  if madeByRun.contains(where: { isSameFolder(folder, $0) }) { return }
  var status = stat()
  let problem: String
  if stat(folder, &status) != 0 {
    problem = "does not exist (it is not created: make it first, or choose another path)"
  } else if status.st_mode & S_IFMT != S_IFDIR {
    problem = "is not a folder"
  } else if access(folder, W_OK | X_OK) != 0 {
    problem = "cannot be written into (\(String(cString: strerror(errno))))"
  } else {
    return
  }
  throw InputError(
    .cannotCreate, InputLocation(file: output),
    "\(label): the folder \(InputText.quotedPath(folder)) \(problem)")
}
