/// Replay time τ in whole microseconds, the unit scheduling rules compare (DESIGN §3: results
/// do not depend on floating-point rounding), and its seconds. Every seconds ↔ microseconds
/// conversion of the session core, the apps and the frame loop goes through here.
///
/// The one overflow rule: seconds are rounded to the nearest microsecond (halves away from
/// zero, as `Double.rounded()`); a value beyond `Int64`'s range, ±infinity included, clamps to
/// `Int64.min` or `Int64.max` (about ±292 000 years), and NaN is 0. No input traps. Converting
/// back, `seconds` is `ReplayTime.seconds(microseconds)`, the value every output writes.
public struct ReplayTime: Hashable, Comparable, Sendable {
  /// τ, whole microseconds.
  public var microseconds: Int64

  /// τ = `microseconds` µs.
  public init(microseconds: Int64) { self.microseconds = microseconds }

  /// τ = `seconds` rounded to the nearest microsecond, clamped as the type's rule says.
  public init(seconds: Double) {
    let rounded = (seconds * 1e6).rounded()
    if rounded.isNaN {
      microseconds = 0
    } else if rounded >= 0x1p63 {
      microseconds = .max
    } else if rounded < -0x1p63 {
      microseconds = .min
    } else {
      microseconds = Int64(rounded)
    }
  }

  /// τ in seconds, `ReplayTime.seconds(microseconds)`.
  public var seconds: Double { Double(microseconds) / 1e6 }

  /// `seconds` as whole microseconds (`ReplayTime(seconds:).microseconds`).
  public static func microseconds(_ seconds: Double) -> Int64 {
    ReplayTime(seconds: seconds).microseconds
  }

  /// `microseconds` as seconds (`ReplayTime(microseconds:).seconds`).
  public static func seconds(_ microseconds: Int64) -> Double {
    ReplayTime(microseconds: microseconds).seconds
  }

  /// Earlier first.
  public static func < (a: ReplayTime, b: ReplayTime) -> Bool { a.microseconds < b.microseconds }
}
