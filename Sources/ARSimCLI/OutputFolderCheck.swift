import ARSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Refuses an output file path that cannot name a file, then one whose folder cannot take it
/// (`refuseMissingOutputFolder`), before the command does any work:
/// - a path naming one of the folders the command makes (`madeByRun`: a render's `--out`),
///   whether it exists yet or not: `UsageError` (64);
/// - a path ending in `/`, `.` or `..` that names no existing folder: `UsageError` (64);
/// - an existing folder, with or without a trailing `/`: `InputError` `.cannotCreate` (73),
///   `PATH: is not a regular file but a folder; refusing to replace it`, as the output writers
///   say it (Robustness.md), but before the work instead of after it;
/// - the lock file of an output folder (`.arsim-lock`), which must stay while a run holds it
///   (Robustness.md): `UsageError` (64);
/// - a name too long for its temporary (`NAME.arsim-tmp-PID`, `FileIO.temporarySuffix`) to fit
///   the file system's 255 bytes (`longestOutputName`): `UsageError` (64). It was found at the
///   write, after the work (`File name too long`).
/// - Throws: as above, then what `refuseMissingOutputFolder` throws.
func refuseUnusableOutputFile(_ output: String, label: String, madeByRun: [String] = []) throws {
  let quoted = InputText.quotedPath(output)
  if madeByRun.contains(where: { isSameFolder(output, $0) }) {
    throw UsageError("\(label) \(quoted) is an output folder of this run; give a file's path")
  }
  let name = FileIO.lastComponent(output)
  var status = stat()
  if stat(output, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
    throw InputError(
      .cannotCreate, InputLocation(file: output),
      "is not a regular file but a folder; refusing to replace it")
  }
  if output.hasSuffix("/") || name == "." || name == ".." {
    throw UsageError("\(label) \(quoted) names a folder; give a file's path")
  }
  if name == OutputFolder.lockName {
    throw UsageError(
      "\(label) \(quoted) would replace an output folder's lock file; choose another name")
  }
  if name.utf8.count > longestOutputName {
    throw UsageError(
      "\(label) \(quoted): its name is \(name.utf8.count) bytes long; an output is written "
        + "first as NAME\(FileIO.temporarySuffix)PID, which must fit the file system's 255 "
        + "bytes, so give a name of at most \(longestOutputName) bytes")
  }
  try refuseMissingOutputFolder(output, label: label, madeByRun: madeByRun)
}

/// The longest output file name (UTF-8 bytes) whose temporary `NAME.arsim-tmp-PID` fits
/// NAME_MAX (255 bytes on Linux's file systems) for any process id (at most 10 digits).
let longestOutputName = 255 - FileIO.temporarySuffix.utf8.count - 10

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
  let folder = spelledFolder(of: output)
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

/// Refuses a report folder (`compare --diff`) that could not be made or written into, before
/// any work: a path that is not a folder (`--diff keep.txt`), or whose nearest existing folder
/// (itself, or the one it would be made in) cannot be written into.
/// - Throws: `InputError` `.cannotCreate` (exit 73) naming the folder.
func refuseUnusableReportFolder(_ folder: String, label: String) throws {
  let given = FileIO.withoutTrailingSlashes(folder)
  var path = given
  var status = stat()
  while stat(path, &status) != 0 {
    let parent = spelledFolder(of: path)
    guard parent != path else { return }  // nothing to check: the writer will say why
    path = parent
  }
  let problem: String
  if status.st_mode & S_IFMT != S_IFDIR {
    problem =
      path == given
      ? "is not a folder" : "cannot be made: \(InputText.quotedPath(path)) is not a folder"
  } else if access(path, W_OK | X_OK) != 0 {
    let reason = String(cString: strerror(errno))
    problem =
      path == given
      ? "cannot be written into (\(reason))"
      : "cannot be made in \(InputText.quotedPath(path)) (\(reason))"
  } else {
    return
  }
  throw InputError(
    .cannotCreate, InputLocation(file: folder),
    "\(label) names the folder of the report, but it \(problem)")
}

/// The folder holding `path` as spelt, without resolving anything: `a/b` for `a/b/c`, `/` for
/// `/c`, `.` for a bare name.
func spelledFolder(of path: String) -> String {
  let slash = path.lastIndex(of: "/")
  return slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
}
