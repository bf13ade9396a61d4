import ARSession
import ARSupport

/// Locale-independent decimal text for the measure session (`String(format: "%.2f cm")` in the
/// app), exact like C's `printf("%.2f")`.
enum MeasureText {
  /// The app's Pusher payload: centimetres with two decimals and " cm", e.g. `"12.35 cm"` for
  /// 0.12345… m. The app computes in `Float`; ARSim computes in `Double`, so the text can differ
  /// from the device's only when the value lies within Float rounding of a half-hundredth.
  static func centimetres(metres: Double) -> String {
    twoDecimals(metres * 100) + " cm"
  }

  /// `x` with exactly two decimals, rounded as glibc's `printf("%.2f")`: from the exact binary
  /// value, ties to even; `-` kept for negative values (and −0); `nan`, `inf`, `-inf` as printf.
  /// Values of magnitude ≥ 1e15 (never a measurement) fall back to Swift's shortest text.
  static func twoDecimals(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x.isInfinite { return x < 0 ? "-inf" : "inf" }
    let sign = x.sign == .minus ? "-" : ""
    let magnitude = abs(x)
    guard magnitude < 1e15 else { return sign + "\(magnitude)" }
    // 100·magnitude = product + error exactly (the FMA residual of a product is representable).
    let product = magnitude * 100
    let error = (-product).addingProduct(magnitude, 100)  // fused: exact residual
    let whole = product.rounded(.down)
    // Sign of (fraction − 0.5) with the residual: fraction − 0.5 is exact here.
    let aboveHalf = ((product - whole) - 0.5) + error
    var hundredths = Int64(whole)
    if aboveHalf > 0 || (aboveHalf == 0 && hundredths % 2 == 1) { hundredths += 1 }
    let units = hundredths / 100
    let cents = hundredths % 100
    return sign + String(units) + "." + (cents < 10 ? "0" : "") + String(cents)
  }

}
