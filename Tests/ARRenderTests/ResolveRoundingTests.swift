import ARMath
import ARScene
import Testing

@testable import ARRender

/// The resolve's rounding, ⌊255·x + ½⌋ in Float after clamping to 0…1, on every build: the AVX
/// builds take the floor with their rounding instruction, the baseline corrects a
/// round-to-nearest; both must give these bytes, halfway cases included.
@Suite struct ResolveRoundingTests {
  /// ⌊clamp(255·x, 0, 255) + ½⌋ in Float, step by step as the resolve's contract states it.
  static func expectedByte(_ x: Float) -> UInt8 {
    let scaled = x * 255
    let clamped = scaled > 0 ? min(scaled, 255) : 0
    return UInt8((clamped + 0.5).rounded(.down))
  }

  @Test("solid backgrounds at and beside every halfway value resolve to ⌊255·x + ½⌋ on every build")
  func halfwayValues() {
    // 37 columns: whole vectors of 8 or 16 and a scalar rest.
    let camera = originCamera(width: 37, height: 2, focal: 20)
    var halfwayProducts = 0
    for k in 0...255 {
      // Float red nearest (k + ½)/255, green and blue one step either side.
      let red = Float((Double(k) + 0.5) / 255)
      if red * 255 == Float(k) + 0.5 { halfwayProducts += 1 }
      let colour = (red, red.nextUp, red.nextDown)
      let background = Background.solid(
        Color(red: Double(colour.0), green: Double(colour.1), blue: Double(colour.2)))
      let expected = [colour.0, colour.1, colour.2].map(Self.expectedByte) + [255]
      for set in [InstructionSet.baseline] + InstructionSetTests.vectorInstructionSets {
        let frame = Renderer(
          options: RenderOptions(threads: 1, background: background, instructionSet: set)
        ).render(RenderList(root: Node()), camera: camera)
        let pixels = frame.image.pixels
        #expect(pixels.count == 37 * 2 * 4)
        for pixel in stride(from: 0, to: pixels.count, by: 4) {
          #expect(
            Array(pixels[pixel..<(pixel + 4)]) == expected, "k \(k), \(set), pixel \(pixel / 4)")
        }
      }
    }
    // Some products land exactly on the halfway value: the case the floor must round up.
    #expect(halfwayProducts > 10)
  }
}
