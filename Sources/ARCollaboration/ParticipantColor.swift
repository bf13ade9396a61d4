import ARMath
import ARSession

/// A participant's colour as the app picks it: random red, green and blue in 0…1 and alpha 0.4
/// (SourceApps.md §4.2), here from a seeded generator so a replay is repeatable.
///
/// Generator: SplitMix64 seeded with `SeededDraws(seed:).bits(["color", id], [])` (the scene
/// seed and the participant's id); red, green and blue are its next three outputs' top 53 bits
/// × 2⁻⁵³, in [0, 1) (the app draws from the closed range 0…1 with the system generator).
public enum ParticipantColor {
  /// The app's alpha for peer colours.
  public static let alpha = 0.4

  /// `[r, g, b, 0.4]` for participant `id` under `seed`.
  public static func random(id: String, seed: UInt64) -> [Double] {
    var generator = SplitMix64(seed: SeededDraws(seed: seed).bits(["color", id], []))
    func unit() -> Double { Double(generator.next() >> 11) * 0x1p-53 }
    let r = unit()
    let g = unit()
    let b = unit()
    return [r, g, b, alpha]
  }
}
