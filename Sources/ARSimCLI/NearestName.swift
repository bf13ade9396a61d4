/// The name among `candidates` closest to a mistyped `text` — for "did you mean --frames?" —
/// by edit distance (Levenshtein: insertions, deletions, substitutions), when it is close
/// enough to be the intended one: at most 2 edits, and at most half of `text`'s characters.
/// Ties go to the candidate that sorts first.
/// - Complexity: O(m·n) per candidate, for names of a few dozen characters.
func nearestName(to text: String, among candidates: some Sequence<String>) -> String? {
  let typed = Array(text.lowercased())
  var best: (distance: Int, name: String)?
  for candidate in candidates.sorted() {
    let distance = editDistance(typed, Array(candidate.lowercased()))
    guard distance <= 2, distance * 2 <= typed.count else { continue }
    if distance < best?.distance ?? Int.max { best = (distance, candidate) }
  }
  return best?.name
}

/// Levenshtein distance between two character arrays, one row at a time.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  guard !a.isEmpty else { return b.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in stride(from: 1, through: b.count, by: 1) {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
    }
    previous = current
  }
  return previous[b.count]
}

/// ` (did you mean X?)` for the nearest of `candidates`, or "".
func didYouMean(_ text: String, among candidates: some Sequence<String>) -> String {
  nearestName(to: text, among: candidates).map { " (did you mean \($0)?)" } ?? ""
}
