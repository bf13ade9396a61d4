import ARRender

/// Paths of the committed PNG fixtures, found through `#filePath`.
enum PNGFixtures {
  static func path(_ name: String, filePath: String = #filePath) -> String {
    var components = filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(2)  // PNG/PNGFixtures.swift
    return components.joined(separator: "/") + "/__Fixtures__/png/" + name
  }
}
