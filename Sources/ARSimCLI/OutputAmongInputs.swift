import ARSupport

/// The warning for an output folder that holds some of the scene's inputs (`--out Scenes`
/// writes hundreds of frames among the scene files), or nil when it holds none. Paths are
/// compared resolved (symbolic links, `.` and `..`), so `--out Scenes/.` and `--out ./Scenes`
/// are caught too.
/// - Parameters:
///   - directory: the output folder as given.
///   - inputs: the scene's input paths (`ReplayScene.inputPaths`).
/// - Returns: e.g. `--out 'Scenes' holds the scene's inputs 'arkit-cat.json',
///   'Inputs/cat.jsonl' and 2 more: the run's files are written among them`.
func outputAmongInputsWarning(directory: String, inputs: [String]) -> String? {
  let folder = resolvedPath(directory)
  let prefix = folder.hasSuffix("/") ? folder : folder + "/"
  var held: [String] = []
  for input in inputs {
    let path = resolvedPath(input)
    if path.hasPrefix(prefix), !held.contains(String(path.dropFirst(prefix.count))) {
      held.append(String(path.dropFirst(prefix.count)))
    }
  }
  guard !held.isEmpty else { return nil }
  let shown = held.prefix(3).map { InputText.quotedPath($0) }
  let names =
    held.count > 3
    ? shown.joined(separator: ", ") + " and \(held.count - 3) more"
    : shown.count == 1
      ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
  let noun = held.count == 1 ? "input" : "inputs"
  return "--out \(InputText.quotedPath(directory)) holds the scene's \(noun) \(names): "
    + "the run's files are written among them (choose a folder of its own)"
}
