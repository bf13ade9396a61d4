import ARScene
import Testing

@testable import ARRender

/// Renders `root` through every rasterizer build at 1 and 3 threads, the lane paths and the
/// sphere reference paths (`renderWithSphereReferencePaths`), expecting each image to equal the
/// baseline build's reference-path image on one thread. Then removes `content` from `root` and
/// returns how many pixels it changed and how many the image has, so that the caller can check
/// the compared content covers the image.
func expectLanesMatchReferencePaths(
  _ root: Node, content: [Node], camera: Camera, label: String,
  options: (_ set: InstructionSet, _ threads: Int) -> RenderOptions
) -> (changed: Int, pixels: Int) {
  let list = RenderList(root: root)
  let reference = Renderer(options: options(.baseline, 1))
    .renderWithSphereReferencePaths(list, camera: camera).image
  for set in [InstructionSet.baseline] + InstructionSetTests.vectorInstructionSets {
    for threads in [1, 3] {
      let renderer = Renderer(options: options(set, threads))
      #expect(
        renderer.render(list, camera: camera).image == reference,
        "\(label), \(set), \(threads) threads")
      #expect(
        renderer.renderWithSphereReferencePaths(list, camera: camera).image == reference,
        "\(label), \(set) reference, \(threads) threads")
    }
  }
  for node in content { node.removeFromParentNode() }
  let without = Renderer(options: options(.baseline, 1))
    .render(RenderList(root: root), camera: camera).image
  var changed = 0
  for i in stride(from: 0, to: reference.pixels.count, by: 4)
  where reference.pixels[i..<(i + 3)] != without.pixels[i..<(i + 3)] {
    changed += 1
  }
  return (changed, reference.pixels.count / 4)
}
